// Hand-written (not generated): uniffi puts the fields on each SkillException subclass, so
// these give the sealed base class the binding API's `code`, `path` and `detail`.
package dev.skilldeck

/** The stable error code (`PARSE_ERROR`, `NOT_FOUND`, ...), whichever the subclass. */
val SkillException.code: String
    get() = when (this) {
        is SkillException.ParseException -> code
        is SkillException.ValidationException -> code
        is SkillException.NotFoundException -> code
        is SkillException.PermissionDeniedException -> code
        is SkillException.IoException -> code
        is SkillException.InvalidOptionsException -> code
    }

/** The file the error is about, when there is one. */
val SkillException.path: String?
    get() = when (this) {
        is SkillException.ParseException -> path
        is SkillException.ValidationException -> path
        is SkillException.NotFoundException -> path
        is SkillException.PermissionDeniedException -> path
        is SkillException.IoException -> path
        is SkillException.InvalidOptionsException -> path
    }

/** What went wrong and what to do about it. */
val SkillException.detail: String
    get() = when (this) {
        is SkillException.ParseException -> detail
        is SkillException.ValidationException -> detail
        is SkillException.NotFoundException -> detail
        is SkillException.PermissionDeniedException -> detail
        is SkillException.IoException -> detail
        is SkillException.InvalidOptionsException -> detail
    }

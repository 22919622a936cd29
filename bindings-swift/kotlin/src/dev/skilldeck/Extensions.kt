// Hand-written (not generated): what uniffi cannot express. The fields of SkillException
// live on each subclass, so these give the sealed base class the binding API's `code`,
// `path` and `detail`; records mirrored from core cannot carry methods, so `toJson()` is
// added here over the exported `*ToJson` functions.
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
        is SkillException.InstallException -> code
        is SkillException.RunException -> code
        is SkillException.RemoteException -> code
        is SkillException.InvalidInputException -> code
        is SkillException.InternalException -> code
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
        is SkillException.InstallException -> path
        is SkillException.RunException -> path
        is SkillException.RemoteException -> path
        is SkillException.InvalidInputException -> path
        is SkillException.InternalException -> path
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
        is SkillException.InstallException -> detail
        is SkillException.RunException -> detail
        is SkillException.RemoteException -> detail
        is SkillException.InvalidInputException -> detail
        is SkillException.InternalException -> detail
    }

/** Canonical JSON (the engine's serde form). */
fun Diagnostic.toJson(): String = diagnosticToJson(this)

/** Canonical JSON (the engine's serde form). */
fun Status.toJson(): String = statusToJson(this)

/** Canonical JSON (the engine's serde form). */
fun Shadowed.toJson(): String = shadowedToJson(this)

/** Canonical JSON (the engine's serde form), keys as written in SKILL.md. */
fun Manifest.toJson(): String = manifestToJson(this)

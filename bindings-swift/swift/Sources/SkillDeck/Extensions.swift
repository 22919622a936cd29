// Hand-written (not generated): what uniffi cannot express. The fields of SkillError live
// on each case, so these give the error itself the binding API's `code`, `path` and
// `detail`; records mirrored from core cannot carry methods, so `toJson()` is added here
// over the exported `*ToJson` functions.

extension SkillError {
    /// The stable error code (`PARSE_ERROR`, `NOT_FOUND`, ...), whichever the case.
    public var code: String {
        switch self {
        case .ParseError(let code, _, _), .ValidationError(let code, _, _),
             .NotFoundError(let code, _, _), .PermissionDeniedError(let code, _, _),
             .IoError(let code, _, _), .InvalidOptionsError(let code, _, _),
             .InstallError(let code, _, _), .RunError(let code, _, _), .RemoteError(let code, _, _),
             .InvalidInputError(let code, _, _, _), .InternalError(let code, _, _):
            return code
        }
    }

    /// The file the error is about, when there is one.
    public var path: String? {
        switch self {
        case .ParseError(_, let path, _), .ValidationError(_, let path, _),
             .NotFoundError(_, let path, _), .PermissionDeniedError(_, let path, _),
             .IoError(_, let path, _), .InvalidOptionsError(_, let path, _),
             .InstallError(_, let path, _), .RunError(_, let path, _), .RemoteError(_, let path, _),
             .InvalidInputError(_, let path, _, _), .InternalError(_, let path, _):
            return path
        }
    }

    /// What went wrong and what to do about it.
    public var detail: String {
        switch self {
        case .ParseError(_, _, let detail), .ValidationError(_, _, let detail),
             .NotFoundError(_, _, let detail), .PermissionDeniedError(_, _, let detail),
             .IoError(_, _, let detail), .InvalidOptionsError(_, _, let detail),
             .InstallError(_, _, let detail), .RunError(_, _, let detail), .RemoteError(_, _, let detail),
             .InvalidInputError(_, _, let detail, _), .InternalError(_, _, let detail):
            return detail
        }
    }
}

extension Diagnostic {
    /// Canonical JSON (the engine's serde form).
    public func toJson() -> String { diagnosticToJson(diagnostic: self) }
}

extension Status {
    /// Canonical JSON (the engine's serde form).
    public func toJson() -> String { statusToJson(status: self) }
}

extension Shadowed {
    /// Canonical JSON (the engine's serde form).
    public func toJson() -> String { shadowedToJson(shadowed: self) }
}

extension Manifest {
    /// Canonical JSON (the engine's serde form), keys as written in SKILL.md.
    public func toJson() -> String { manifestToJson(manifest: self) }
}

//! The one list of manifest fields every binding derives its manifest surface from.
//!
//! A binding cannot see a struct's fields from a `macro_rules!`, so the fields are listed
//! here, once, beside [`Manifest`](super::Manifest): name, the binding-neutral *kind* (how
//! a binding carries the value), the core type and the path inside the core struct
//! (`claude_code.model` for a field of a section). Python, Node and Swift/Kotlin expand
//! [`manifest_fields!`](crate::manifest_fields) into their getters, records and stubs, so a
//! new field is this line plus its declaration in the struct; the test below fails when the
//! two disagree.
//!
//! Kinds: `str` (`Option<String>`), `strs` (`Vec<String>`), `flag` (`Option<bool>`),
//! `count` (`Option<u64>`), `map` (a JSON object), `json` (any JSON value, optional),
//! `params`, `requires`, `install`, `mcp` (the records of the same names).

/// Calls `$callback! { $($arg)* identity [..] fields [..] }` with every field of
/// [`Manifest`](crate::Manifest), in declaration order. `identity` holds `name` and
/// `description`, which a `Skill` resolves itself; `fields` holds the rest. Each entry is
/// `$(#[doc = "..."])* field: kind (CoreType) = path.in.core`. The field at the path is a
/// `CoreType`, except for the `map` kind: `metadata` and `extra` are
/// [`JsonText`](crate::JsonText)s, which convert from and into a `CoreType`
/// (`m.extra.to_object()`, `m.extra = object.into()`). The docs are plain string
/// literals rather than `///` because napi copies a raw string's `r"` into the `.d.ts`.
#[macro_export]
macro_rules! manifest_fields {
    ($callback:ident $(, $($arg:tt)*)?) => {
        $callback! {
            $($($arg)*)?
            identity [
                name: str (::core::option::Option<::std::string::String>) = name,
                description: str (::core::option::Option<::std::string::String>) = description,
            ]
            fields [
                license: str (::core::option::Option<::std::string::String>) = license,
                compatibility: str (::core::option::Option<::std::string::String>) = compatibility,
                #[doc = "`metadata` as written (values may be non-strings)."]
                metadata: map ($crate::JsonObject) = metadata,
                #[doc = "`allowed-tools`, normalised to a list however it was written."]
                allowed_tools: strs (::std::vec::Vec<::std::string::String>) = allowed_tools,
                when_to_use: str (::core::option::Option<::std::string::String>) = claude_code.when_to_use,
                argument_hint: str (::core::option::Option<::std::string::String>) = claude_code.argument_hint,
                #[doc = "Named positional arguments."]
                arguments: strs (::std::vec::Vec<::std::string::String>) = claude_code.arguments,
                disable_model_invocation: flag (::core::option::Option<bool>) = claude_code.disable_model_invocation,
                user_invocable: flag (::core::option::Option<bool>) = claude_code.user_invocable,
                disallowed_tools: strs (::std::vec::Vec<::std::string::String>) = claude_code.disallowed_tools,
                model: str (::core::option::Option<::std::string::String>) = claude_code.model,
                effort: str (::core::option::Option<::std::string::String>) = claude_code.effort,
                #[doc = "`context: fork` runs the skill in a sub-agent."]
                context: str (::core::option::Option<::std::string::String>) = claude_code.context,
                agent: str (::core::option::Option<::std::string::String>) = claude_code.agent,
                background: flag (::core::option::Option<bool>) = claude_code.background,
                #[doc = "`hooks` as written."]
                hooks: json (::core::option::Option<$crate::JsonValue>) = claude_code.hooks,
                #[doc = "Glob patterns of files the skill applies to."]
                paths: strs (::std::vec::Vec<::std::string::String>) = claude_code.paths,
                shell: str (::core::option::Option<::std::string::String>) = claude_code.shell,
                version: str (::core::option::Option<::std::string::String>) = tool.version,
                max_thinking_tokens: count (::core::option::Option<u64>) = tool.max_thinking_tokens,
                category: str (::core::option::Option<::std::string::String>) = tool.category,
                tags: strs (::std::vec::Vec<::std::string::String>) = tool.tags,
                #[doc = "Operating systems the skill supports."]
                os: strs (::std::vec::Vec<::std::string::String>) = tool.os,
                enabled: flag (::core::option::Option<bool>) = tool.enabled,
                #[doc = "Timeout in seconds."]
                timeout: count (::core::option::Option<u64>) = tool.timeout,
                command: str (::core::option::Option<::std::string::String>) = tool.command,
                parameters: params (::std::vec::Vec<$crate::Parameter>) = tool.parameters,
                requires: requires (::core::option::Option<$crate::Requirements>) = tool.requires,
                install: install (::std::vec::Vec<$crate::InstallSpec>) = tool.install,
                #[doc = "`metadata.mcp`: the MCP tool the skill fronts."]
                mcp: mcp (::core::option::Option<$crate::McpRef>) = lifted.mcp,
                #[doc = "Codex's `metadata.short-description`."]
                short_description: str (::core::option::Option<::std::string::String>) = lifted.short_description,
                #[doc = "Every top-level key the engine does not know, with its value, in source order."]
                extra: map ($crate::JsonObject) = extra,
            ]
        }
    };
}

#[cfg(test)]
mod tests {
    use crate::Manifest;

    /// Rebuilds a manifest from the list alone and checks it round-trips, then that the list
    /// names every key of a manifest with every field set: a field missing from the list, or
    /// listed with the wrong path or type, fails here before any binding is built.
    macro_rules! check_list {
        (identity [ $($(#[doc = $id:literal])* $i:ident : $ik:ident ($it:ty) = $($ip:ident).+ ,)* ]
         fields [ $($(#[doc = $fd:literal])* $f:ident : $fk:ident ($ft:ty) = $($fp:ident).+ ,)* ]) => {{
            fn names() -> Vec<&'static str> {
                vec![$(stringify!($i),)* $(stringify!($f),)*]
            }
            #[allow(clippy::useless_conversion)] // only `metadata`/`extra` convert
            fn copy(from: &Manifest) -> Manifest {
                let mut to = Manifest::default();
                $( { let v: $it = <$it>::from(from.$($ip).+.clone()); to.$($ip).+ = v.into(); } )*
                $( { let v: $ft = <$ft>::from(from.$($fp).+.clone()); to.$($fp).+ = v.into(); } )*
                to
            }
            (names(), copy as fn(&Manifest) -> Manifest)
        }};
    }

    #[test]
    fn the_list_covers_every_manifest_field() {
        let (names, copy) = crate::manifest_fields!(check_list);
        let text = "---\nname: n\ndescription: d\nlicense: MIT\ncompatibility: c\n\
            metadata: {a: 1, mcp: {server: s, tool: t}, short-description: sd}\n\
            allowed-tools: Read\nwhen_to_use: w\nargument-hint: h\narguments: [x]\n\
            disable-model-invocation: true\nuser-invocable: false\ndisallowed-tools: [Bash]\n\
            model: m\neffort: high\ncontext: fork\nagent: a\nbackground: true\n\
            hooks: {x: 1}\npaths: ['*.rs']\nshell: bash\nversion: '1'\n\
            max-thinking-tokens: 5\ncategory: c\ntags: [t]\nos: [linux]\nenabled: true\n\
            timeout: 3\ncommand: run\nparameters: {p: {type: string}}\n\
            requires: {bins: [git]}\ninstall: [{kind: brew, formula: f}]\nx-own: 1\n---\n";
        let manifest = crate::parse(text).manifest;
        assert_eq!(
            copy(&manifest),
            manifest,
            "a field is missing from the list"
        );
        let json = serde_json::to_value(&manifest).unwrap_or_default();
        let keys = json.as_object().map(|o| o.len()).unwrap_or_default();
        // Every field is set above, so the canonical JSON has one key per listed field.
        assert_eq!(keys, names.len(), "{json}");
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "a field is listed twice");
    }
}

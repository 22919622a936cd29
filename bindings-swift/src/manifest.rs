//! The manifest record. The core `Manifest` stores the hosts' fields in lazily allocated
//! groups (`claude_code`, `tool`); Swift and Kotlin get the flat record every other
//! binding and the canonical JSON show. Both conversions destructure every field, so a
//! field added in core stops this crate compiling until it is carried across.

use crate::remote::{JsonObject, JsonValue};
use skilldeck::{ClaudeCodeFields, InstallSpec, McpRef, Parameter, Requirements, ToolFields};

/// Everything a SKILL.md frontmatter can say: the Agent Skills specification plus every
/// host's extensions. Unknown keys are kept in `extra`. String fields keep their source text.
#[derive(Clone, Debug, PartialEq, uniffi::Record)]
pub struct Manifest {
    pub name: Option<String>,
    pub description: Option<String>,
    pub license: Option<String>,
    pub compatibility: Option<String>,
    /// `metadata` as written, as a JSON object.
    pub metadata: JsonObject,
    /// `allowed-tools`, normalised to a list.
    pub allowed_tools: Vec<String>,
    pub when_to_use: Option<String>,
    pub argument_hint: Option<String>,
    /// Named positional arguments.
    pub arguments: Vec<String>,
    pub disable_model_invocation: Option<bool>,
    pub user_invocable: Option<bool>,
    pub disallowed_tools: Vec<String>,
    pub model: Option<String>,
    pub effort: Option<String>,
    /// `context: fork` runs the skill in a sub-agent.
    pub context: Option<String>,
    pub agent: Option<String>,
    pub background: Option<bool>,
    /// `hooks` as JSON text.
    pub hooks: Option<JsonValue>,
    /// Glob patterns of files the skill applies to.
    pub paths: Vec<String>,
    pub shell: Option<String>,
    pub version: Option<String>,
    pub max_thinking_tokens: Option<u64>,
    pub category: Option<String>,
    pub tags: Vec<String>,
    /// Operating systems the skill supports.
    pub os: Vec<String>,
    pub enabled: Option<bool>,
    /// Timeout in seconds.
    pub timeout: Option<u64>,
    pub command: Option<String>,
    pub parameters: Vec<Parameter>,
    pub requires: Option<Requirements>,
    pub install: Vec<InstallSpec>,
    /// `metadata.mcp`.
    pub mcp: Option<McpRef>,
    /// Codex's `metadata.short-description`.
    pub short_description: Option<String>,
    /// Every top-level key the model does not know, as a JSON object.
    pub extra: JsonObject,
}

impl From<skilldeck::Manifest> for Manifest {
    fn from(m: skilldeck::Manifest) -> Self {
        let skilldeck::Manifest {
            name,
            description,
            license,
            compatibility,
            metadata,
            allowed_tools,
            mcp,
            short_description,
            extra,
            claude_code,
            tool,
        } = m;
        let ClaudeCodeFields {
            when_to_use,
            argument_hint,
            arguments,
            disable_model_invocation,
            user_invocable,
            disallowed_tools,
            model,
            effort,
            context,
            agent,
            background,
            hooks,
            paths,
            shell,
        } = claude_code.into_inner();
        let ToolFields {
            version,
            max_thinking_tokens,
            category,
            tags,
            os,
            enabled,
            timeout,
            command,
            parameters,
            requires,
            install,
        } = tool.into_inner();
        Manifest {
            name,
            description,
            license,
            compatibility,
            metadata,
            allowed_tools,
            when_to_use,
            argument_hint,
            arguments,
            disable_model_invocation,
            user_invocable,
            disallowed_tools,
            model,
            effort,
            context,
            agent,
            background,
            hooks,
            paths,
            shell,
            version,
            max_thinking_tokens,
            category,
            tags,
            os,
            enabled,
            timeout,
            command,
            parameters,
            requires,
            install,
            mcp,
            short_description,
            extra,
        }
    }
}

impl From<Manifest> for skilldeck::Manifest {
    fn from(m: Manifest) -> Self {
        let Manifest {
            name,
            description,
            license,
            compatibility,
            metadata,
            allowed_tools,
            when_to_use,
            argument_hint,
            arguments,
            disable_model_invocation,
            user_invocable,
            disallowed_tools,
            model,
            effort,
            context,
            agent,
            background,
            hooks,
            paths,
            shell,
            version,
            max_thinking_tokens,
            category,
            tags,
            os,
            enabled,
            timeout,
            command,
            parameters,
            requires,
            install,
            mcp,
            short_description,
            extra,
        } = m;
        skilldeck::Manifest {
            name,
            description,
            license,
            compatibility,
            metadata,
            allowed_tools,
            mcp,
            short_description,
            extra,
            claude_code: ClaudeCodeFields {
                when_to_use,
                argument_hint,
                arguments,
                disable_model_invocation,
                user_invocable,
                disallowed_tools,
                model,
                effort,
                context,
                agent,
                background,
                hooks,
                paths,
                shell,
            }
            .into(),
            tool: ToolFields {
                version,
                max_thinking_tokens,
                category,
                tags,
                os,
                enabled,
                timeout,
                command,
                parameters,
                requires,
                install,
            }
            .into(),
        }
    }
}

//! The manifest as JS sees it: a `Manifest` class with one camelCase getter per key, and
//! the same getters on `Skill` (hosts read `skill.allowedTools` without a detour).

use crate::error::canonical;
use napi::bindgen_prelude::*;
use napi_derive::napi;

/// One declared parameter of a tool-style skill.
#[napi(object, object_from_js = false)]
pub struct SkillParameter {
    pub name: String,
    #[napi(js_name = "type")]
    pub kind: Option<String>,
    pub description: Option<String>,
    pub required: bool,
    pub default: Option<serde_json::Value>,
    #[napi(js_name = "enum")]
    pub enum_values: Vec<serde_json::Value>,
}

/// `requires`: binaries and environment variables the skill needs.
#[napi(object, object_from_js = false)]
pub struct Requirements {
    pub bins: Vec<String>,
    pub env: Vec<String>,
}

/// One entry of `install`.
#[napi(object, object_from_js = false)]
pub struct InstallSpec {
    pub id: Option<String>,
    pub kind: Option<String>,
    pub package: Option<String>,
    pub formula: Option<String>,
    pub label: Option<String>,
    pub os: Vec<String>,
}

/// `metadata.mcp`: the MCP tool the skill fronts.
#[napi(object, object_from_js = false)]
pub struct McpRef {
    pub server: Option<String>,
    pub tool: Option<String>,
}

pub(crate) fn parameter(p: &skilldeck::Parameter) -> SkillParameter {
    SkillParameter {
        name: p.name.clone(),
        kind: p.kind.clone(),
        description: p.description.clone(),
        required: p.required,
        default: p.default.clone(),
        enum_values: p.enum_values.clone(),
    }
}

pub(crate) fn install(i: &skilldeck::InstallSpec) -> InstallSpec {
    InstallSpec {
        id: i.id.clone(),
        kind: i.kind.clone(),
        package: i.package.clone(),
        formula: i.formula.clone(),
        label: i.label.clone(),
        os: i.os.clone(),
    }
}

/// Numbers above 2^53 cannot round-trip through a JS number anyway; manifests hold small counts.
pub(crate) fn number(n: Option<u64>) -> Option<f64> {
    n.map(|n| n as f64)
}

/// Getters for every manifest key except `name`/`description` (which `Skill` resolves
/// itself), reading through `$T::manifest_ref`.
macro_rules! manifest_getters {
    ($T:ident) => {
        #[napi]
        impl $T {
            #[napi(getter)]
            pub fn license(&self) -> Option<String> {
                self.manifest_ref().license.clone()
            }
            #[napi(getter)]
            pub fn compatibility(&self) -> Option<String> {
                self.manifest_ref().compatibility.clone()
            }
            /// `metadata` as written (values may be non-strings).
            #[napi(getter, ts_return_type = "Record<string, unknown>")]
            pub fn metadata(&self) -> serde_json::Value {
                serde_json::Value::Object(self.manifest_ref().metadata.clone())
            }
            /// `allowed-tools` as a list, however it was written.
            #[napi(getter)]
            pub fn allowed_tools(&self) -> Vec<String> {
                self.manifest_ref().allowed_tools.clone()
            }
            #[napi(getter)]
            pub fn when_to_use(&self) -> Option<String> {
                self.manifest_ref().claude_code.when_to_use.clone()
            }
            #[napi(getter)]
            pub fn argument_hint(&self) -> Option<String> {
                self.manifest_ref().claude_code.argument_hint.clone()
            }
            #[napi(getter)]
            pub fn arguments(&self) -> Vec<String> {
                self.manifest_ref().claude_code.arguments.clone()
            }
            #[napi(getter)]
            pub fn disable_model_invocation(&self) -> Option<bool> {
                self.manifest_ref().claude_code.disable_model_invocation
            }
            #[napi(getter)]
            pub fn user_invocable(&self) -> Option<bool> {
                self.manifest_ref().claude_code.user_invocable
            }
            #[napi(getter)]
            pub fn disallowed_tools(&self) -> Vec<String> {
                self.manifest_ref().claude_code.disallowed_tools.clone()
            }
            #[napi(getter)]
            pub fn model(&self) -> Option<String> {
                self.manifest_ref().claude_code.model.clone()
            }
            #[napi(getter)]
            pub fn effort(&self) -> Option<String> {
                self.manifest_ref().claude_code.effort.clone()
            }
            #[napi(getter)]
            pub fn context(&self) -> Option<String> {
                self.manifest_ref().claude_code.context.clone()
            }
            #[napi(getter)]
            pub fn agent(&self) -> Option<String> {
                self.manifest_ref().claude_code.agent.clone()
            }
            #[napi(getter)]
            pub fn background(&self) -> Option<bool> {
                self.manifest_ref().claude_code.background
            }
            #[napi(getter, ts_return_type = "unknown")]
            pub fn hooks(&self) -> Option<serde_json::Value> {
                self.manifest_ref().claude_code.hooks.clone()
            }
            #[napi(getter)]
            pub fn paths(&self) -> Vec<String> {
                self.manifest_ref().claude_code.paths.clone()
            }
            #[napi(getter)]
            pub fn shell(&self) -> Option<String> {
                self.manifest_ref().claude_code.shell.clone()
            }
            #[napi(getter)]
            pub fn version(&self) -> Option<String> {
                self.manifest_ref().tool.version.clone()
            }
            #[napi(getter)]
            pub fn max_thinking_tokens(&self) -> Option<f64> {
                crate::manifest::number(self.manifest_ref().tool.max_thinking_tokens)
            }
            #[napi(getter)]
            pub fn category(&self) -> Option<String> {
                self.manifest_ref().tool.category.clone()
            }
            #[napi(getter)]
            pub fn tags(&self) -> Vec<String> {
                self.manifest_ref().tool.tags.clone()
            }
            #[napi(getter)]
            pub fn os(&self) -> Vec<String> {
                self.manifest_ref().tool.os.clone()
            }
            #[napi(getter)]
            pub fn enabled(&self) -> Option<bool> {
                self.manifest_ref().tool.enabled
            }
            /// Timeout in seconds.
            #[napi(getter)]
            pub fn timeout(&self) -> Option<f64> {
                crate::manifest::number(self.manifest_ref().tool.timeout)
            }
            #[napi(getter)]
            pub fn command(&self) -> Option<String> {
                self.manifest_ref().tool.command.clone()
            }
            #[napi(getter)]
            pub fn parameters(&self) -> Vec<crate::manifest::SkillParameter> {
                self.manifest_ref()
                    .tool
                    .parameters
                    .iter()
                    .map(crate::manifest::parameter)
                    .collect()
            }
            #[napi(getter)]
            pub fn requires(&self) -> Option<crate::manifest::Requirements> {
                self.manifest_ref()
                    .tool
                    .requires
                    .as_ref()
                    .map(|r| crate::manifest::Requirements {
                        bins: r.bins.clone(),
                        env: r.env.clone(),
                    })
            }
            #[napi(getter)]
            pub fn install(&self) -> Vec<crate::manifest::InstallSpec> {
                self.manifest_ref()
                    .tool
                    .install
                    .iter()
                    .map(crate::manifest::install)
                    .collect()
            }
            #[napi(getter)]
            pub fn mcp(&self) -> Option<crate::manifest::McpRef> {
                self.manifest_ref()
                    .mcp
                    .as_ref()
                    .map(|m| crate::manifest::McpRef {
                        server: m.server.clone(),
                        tool: m.tool.clone(),
                    })
            }
            #[napi(getter)]
            pub fn short_description(&self) -> Option<String> {
                self.manifest_ref().short_description.clone()
            }
            /// Every key the engine does not know, with its value, in source order.
            #[napi(getter, ts_return_type = "Record<string, unknown>")]
            pub fn extra(&self) -> serde_json::Value {
                serde_json::Value::Object(self.manifest_ref().extra.clone())
            }
        }
    };
}
pub(crate) use manifest_getters;

/// A parsed SKILL.md frontmatter: typed keys plus `extra` for unknown ones.
#[napi]
pub struct Manifest {
    pub(crate) inner: skilldeck::Manifest,
}

impl Manifest {
    fn manifest_ref(&self) -> &skilldeck::Manifest {
        &self.inner
    }
}

#[napi]
impl Manifest {
    #[napi(getter)]
    pub fn name(&self) -> Option<String> {
        self.inner.name.clone()
    }

    #[napi(getter)]
    pub fn description(&self) -> Option<String> {
        self.inner.description.clone()
    }

    /// The canonical JSON form (kebab-case keys as written in SKILL.md).
    #[napi(js_name = "toJSON", ts_return_type = "CanonicalJson")]
    pub fn to_json(&self) -> Result<serde_json::Value> {
        canonical(&self.inner)
    }
}

manifest_getters!(Manifest);

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

/// Getters for every manifest key of the core's one list ([`skilldeck::manifest_fields!`]),
/// reading through `$T::manifest_ref`: `with_identity` adds `name`/`description`, which
/// `Skill` resolves itself. Each field's kind picks the JS type; a new field of an existing
/// kind needs nothing here.
macro_rules! manifest_getters {
    ($T:ident, with_identity
     identity [ $($(#[doc = $id:literal])* $i:ident : $ik:ident ($it:ty) = $($ip:ident).+ ,)* ]
     fields [ $($fields:tt)* ]) => {
        $( $crate::manifest::manifest_getter!($T, $ik, $i, [$(#[doc = $id])*], $($ip).+); )*
        $crate::manifest::manifest_getters!($T, without_identity identity [] fields [ $($fields)* ]);
    };
    ($T:ident, without_identity
     identity [ $($ignored:tt)* ]
     fields [ $($(#[doc = $fd:literal])* $f:ident : $fk:ident ($ft:ty) = $($fp:ident).+ ,)* ]) => {
        $( $crate::manifest::manifest_getter!($T, $fk, $f, [$(#[doc = $fd])*], $($fp).+); )*
    };
}
pub(crate) use manifest_getters;

/// One getter, typed by the field's kind (one `#[napi] impl` each: napi merges them).
macro_rules! manifest_getter {
    ($T:ident, str, $f:ident, [$($doc:tt)*], $($p:ident).+) => {
        #[napi]
        impl $T {
            $($doc)*
            #[napi(getter)]
            pub fn $f(&self) -> Option<String> {
                self.manifest_ref().$($p).+.clone()
            }
        }
    };
    ($T:ident, strs, $f:ident, [$($doc:tt)*], $($p:ident).+) => {
        #[napi]
        impl $T {
            $($doc)*
            #[napi(getter)]
            pub fn $f(&self) -> Vec<String> {
                self.manifest_ref().$($p).+.clone()
            }
        }
    };
    ($T:ident, flag, $f:ident, [$($doc:tt)*], $($p:ident).+) => {
        #[napi]
        impl $T {
            $($doc)*
            #[napi(getter)]
            pub fn $f(&self) -> Option<bool> {
                self.manifest_ref().$($p).+
            }
        }
    };
    ($T:ident, count, $f:ident, [$($doc:tt)*], $($p:ident).+) => {
        #[napi]
        impl $T {
            $($doc)*
            #[napi(getter)]
            pub fn $f(&self) -> Option<f64> {
                $crate::manifest::number(self.manifest_ref().$($p).+)
            }
        }
    };
    ($T:ident, map, $f:ident, [$($doc:tt)*], $($p:ident).+) => {
        #[napi]
        impl $T {
            $($doc)*
            #[napi(getter, ts_return_type = "Record<string, unknown>")]
            pub fn $f(&self) -> serde_json::Value {
                serde_json::Value::Object(self.manifest_ref().$($p).+.to_object())
            }
        }
    };
    ($T:ident, json, $f:ident, [$($doc:tt)*], $($p:ident).+) => {
        #[napi]
        impl $T {
            $($doc)*
            #[napi(getter, ts_return_type = "unknown")]
            pub fn $f(&self) -> Option<serde_json::Value> {
                self.manifest_ref().$($p).+.clone()
            }
        }
    };
    ($T:ident, params, $f:ident, [$($doc:tt)*], $($p:ident).+) => {
        #[napi]
        impl $T {
            $($doc)*
            #[napi(getter)]
            pub fn $f(&self) -> Vec<$crate::manifest::SkillParameter> {
                self.manifest_ref().$($p).+.iter().map($crate::manifest::parameter).collect()
            }
        }
    };
    ($T:ident, requires, $f:ident, [$($doc:tt)*], $($p:ident).+) => {
        #[napi]
        impl $T {
            $($doc)*
            #[napi(getter)]
            pub fn $f(&self) -> Option<$crate::manifest::Requirements> {
                self.manifest_ref().$($p).+.as_ref().map(|r| $crate::manifest::Requirements {
                    bins: r.bins.clone(),
                    env: r.env.clone(),
                })
            }
        }
    };
    ($T:ident, install, $f:ident, [$($doc:tt)*], $($p:ident).+) => {
        #[napi]
        impl $T {
            $($doc)*
            #[napi(getter)]
            pub fn $f(&self) -> Vec<$crate::manifest::InstallSpec> {
                self.manifest_ref().$($p).+.iter().map($crate::manifest::install).collect()
            }
        }
    };
    ($T:ident, mcp, $f:ident, [$($doc:tt)*], $($p:ident).+) => {
        #[napi]
        impl $T {
            $($doc)*
            #[napi(getter)]
            pub fn $f(&self) -> Option<$crate::manifest::McpRef> {
                self.manifest_ref().$($p).+.as_ref().map(|m| $crate::manifest::McpRef {
                    server: m.server.clone(),
                    tool: m.tool.clone(),
                })
            }
        }
    };
}
pub(crate) use manifest_getter;

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
    /// The canonical JSON form (kebab-case keys as written in SKILL.md).
    #[napi(js_name = "toJSON", ts_return_type = "CanonicalJson")]
    pub fn to_json(&self) -> Result<serde_json::Value> {
        canonical(&self.inner)
    }
}

skilldeck::manifest_fields!(manifest_getters, Manifest, with_identity);

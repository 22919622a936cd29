//! The pure parts of running a skill, shared by the runner (`skilldeck-run`), `doctor` and
//! every binding: the JSON Schema of a command skill's `parameters` ([`params`]), the
//! requirement check with install hints ([`requirements`]) and the tool definitions handed
//! to a model ([`tools`]). Nothing here starts a process.

pub mod keywords;
pub mod params;
pub mod requirements;
pub mod tools;

pub use keywords::parameter_keywords;
pub use params::{
    apply_defaults, parameters_schema, parameters_schema_with, parse_input, skill_input_schema,
    InputError,
};
pub use requirements::{check_requirements, install_hint, Missing, MissingKind};
pub use tools::{
    agent_tools, command_tool, run_skill_script_tool, search_skills_tool, skill_tool,
    tool_definitions, tool_name, tool_result, ToolFormat, ToolSpec, RUN_SKILL_SCRIPT,
    SEARCH_SKILLS, SKILL_TOOL,
};

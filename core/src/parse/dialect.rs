//! How one host reads a SKILL.md: which bytes it accepts, where it finds the frontmatter,
//! which YAML it refuses and how it repairs what does not parse. The default is skilldeck's
//! own reading (the spec plus a documented repair pass); the `codex` and `opencode` profiles
//! name the rules their hosts follow, each pinned by the broken-file matrix in
//! `tests/vectors/discover/oracle-*-broken-matrix` (recorded from the real hosts).

use serde::{Deserialize, Serialize};

/// Which bytes a host accepts and how much of the file it reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReadRule {
    /// Only the frontmatter prefix is read and must be UTF-8 (the body is never read).
    #[default]
    Prefix,
    /// The whole file must be valid UTF-8 (Codex reads it with `read_to_string`), so the
    /// body is checked too.
    WholeFile,
    /// Invalid UTF-8 becomes U+FFFD, as a JavaScript host's text decoder does (OpenCode).
    Lossy,
}

/// Where the frontmatter is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FenceRule {
    /// Whole lines that trim to `---`; `\n`, `\r\n` and a lone `\r` end a line.
    #[default]
    Lines,
    /// As `lines`, but only `\n` and `\r\n` end a line (Rust's `str::lines`, Codex).
    LfLines,
    /// gray-matter's rules (OpenCode): the file starts with `---` not followed by a fourth
    /// dash, the rest of that line names the language, and the block ends at the first
    /// `\n---` anywhere (also `----` or `--- text`); no closing fence means the rest of the
    /// file is frontmatter.
    GrayMatter,
    /// The regular expression `^---\r?\n([\s\S]*?)\r?\n---` (Gemini CLI): the file starts
    /// with exactly `---` and a line end (no BOM, no trailing space), and the block ends at
    /// the first line that *starts* with `---` (`----` and `--- text` close it too); no
    /// closing line means no frontmatter. A lone CR does not end a line.
    DashPrefix,
    /// As `lf-lines`, but a fence line may not be indented: only trailing whitespace is
    /// ignored (Copilot CLI: `---  ` is a fence, `  ---` is not).
    LfLinesTrimEnd,
    /// A leading BOM is dropped and every `\r\n` and lone `\r` becomes `\n`, then
    /// `^---\n([\s\S]*?)\n---(?:\n|$)` (Qwen Code): both fences are lines of exactly `---`
    /// (no trailing space, no indentation), and the block holds at least one line.
    ExactLines,
    /// Python's `re.split(r"^-{3,}\s*$", text, 2, re.MULTILINE)` on the text with leading
    /// BOMs dropped and `\r\n` and lone `\r` made `\n` (Mistral Vibe): a fence is a line of
    /// three or more dashes and trailing whitespace; only whitespace may come before the
    /// opening fence; the next such line closes the block.
    DashRuns,
    /// Goose's `content.split("---")`: the text is cut at every `---` wherever it stands (in
    /// a line, a value or the body too); with fewer than two cuts there is no frontmatter,
    /// otherwise the piece between the first two, trimmed, is the block. Text before the
    /// first `---` is ignored.
    SplitAnywhere,
}

/// What a host does with YAML that does not parse.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RepairRule {
    /// skilldeck's repair pass (`parse::repair`): the value each error points at is quoted.
    #[default]
    Skilldeck,
    /// No repair: invalid YAML is refused.
    None,
    /// Codex: when the YAML fails (or `name`/`description` is a list or map), every
    /// `key: value` line outside block scalars whose value holds `": "`, starts with `@` or
    /// `` ` ``, or starts with `[`/`{` without parsing on its own is double-quoted, and the
    /// document is read again; if that fails too, the original error stands.
    Codex,
    /// OpenCode: when the YAML fails, every top-level `key: value` line (key of letters,
    /// digits and `_`) whose unquoted value holds `:` becomes a `|-` block scalar, and the
    /// file is read again.
    Opencode,
    /// Gemini CLI: when the YAML fails, is not a mapping, or `name` or `description` is not a
    /// string, every line of the block is scanned instead: the last `name:` line and the last
    /// `description:` line (plus the indented lines after it, joined with spaces) give the
    /// values as written, quotes included. Both must be found.
    Gemini,
}

/// What reads the frontmatter block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SyntaxRule {
    /// A YAML loader (with the dialect's YAML options and repair rule).
    #[default]
    Yaml,
    /// Qwen Code's own line reader (`packages/core/src/utils/yaml-parser.ts`), not YAML:
    /// `key: value` lines split at the first `:`, `"..."` unquoted, `true`/`false`/`null` and
    /// numbers typed, `  - item` lists and two-space-indented maps; everything else (single
    /// quotes, block scalars, flow collections, comments after values) is text as written.
    QwenLines,
}

/// What a host does with a key written twice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DuplicateRule {
    /// Accepted (the later value wins for known fields).
    #[default]
    Allow,
    /// `name`, `description` or `metadata` twice is refused; other keys may repeat (Codex's
    /// serde struct).
    ErrorFields,
    /// Any key repeated in any mapping is refused (js-yaml, OpenCode).
    Error,
    /// Accepted, and the first value wins (VS Code: its reader keeps every entry and the
    /// header looks a key up with `find`).
    FirstWins,
}

/// How a host matches frontmatter keys to the fields it reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KeyRule {
    /// Case, `-` and `_` are ignored: `Name`, `allowed_tools` and `allowedTools` are
    /// `name` and `allowed-tools` (skilldeck's own leniency: `universal`, `agentskills`,
    /// `claude-code`).
    #[default]
    Fold,
    /// Each field only under its one spelling (`name`, `description`, `metadata`,
    /// `allowed-tools`, `disable-model-invocation`, `user-invocable`, `argument-hint`,
    /// `when_to_use`, ...; `fields::SPELLED`): the host looks keys up as written
    /// (`data.name` in JavaScript, a serde struct in Rust). `Name:` is then an unknown key,
    /// with a `key-spelling` warning.
    Exact,
    /// As `exact`, and a dashed field also under its snake_case name (`allowed_tools`,
    /// `disable_model_invocation`, `user_invocable`): a pydantic alias beside the field's
    /// own name (Mistral Vibe's `populate_by_name`) or `get("allowed-tools",
    /// get("allowed_tools"))` (OpenHands). When both are given the dashed one is read.
    ExactOrSnake,
}

/// A host's reading rules, set in a profile's `[parse]` table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "kebab-case", deny_unknown_fields)]
pub struct Dialect {
    pub read: ReadRule,
    pub fences: FenceRule,
    pub syntax: SyntaxRule,
    pub repair: RepairRule,
    pub duplicate_keys: DuplicateRule,
    /// `<<` merge keys are expanded (false: `<<` is an ordinary key, as serde_yaml reads it).
    pub merge_keys: bool,
    /// A tag outside YAML's standard `!!` set (`!custom`) is an error, as in js-yaml.
    pub reject_unknown_tags: bool,
    /// Leading tabs count as separation, not indentation, as in js-yaml (`\tkey: v` is a
    /// top-level key).
    pub tab_separation: bool,
    /// A content line that starts with a tab is an error wherever it is (js-yaml 4: "tab
    /// characters must not be used in indentation"; libyaml, which OpenHands' PyYAML uses,
    /// the same); otherwise only on the first line, and only for the hosts whose repair rule
    /// says they read YAML with such a loader (Codex, OpenCode, Gemini CLI).
    pub tab_indent_error: bool,
    /// `name` and `description` are collapsed to one line: runs of whitespace become one
    /// space, and both ends are trimmed (Codex's `sanitize_single_line`).
    pub single_line: bool,
    /// A NUL byte is an ordinary character (a JavaScript host reads it as U+0000 and its
    /// reader takes it as text); otherwise a NUL in the frontmatter refuses the file.
    pub nul_is_text: bool,
    /// A frontmatter block that is empty, only comments, a scalar or a list reads as a block
    /// without keys instead of refusing the file (Copilot CLI).
    pub non_mapping_is_empty: bool,
    /// Line breaks at the end of `name` and `description` are removed (a `|` block scalar's
    /// final newline; Copilot CLI).
    pub trim_final_newlines: bool,
    /// Plain scalars are typed by YAML 1.1's rules, as PyYAML's `safe_load` types them:
    /// `yes`/`no`/`on`/`off` are booleans, `0x1f`, `017`, `1_000` and `1:20` integers, `1.5`
    /// (a dot is needed: `1e5` is text) floats, `2024-01-01` a date (not text).
    #[serde(rename = "yaml-1-1")]
    pub yaml_1_1: bool,
    /// A tab outside quoted scalars, comments and block scalar content is an error, as in
    /// PyYAML ("found character '\t' that cannot start any token"): `key:\tvalue`,
    /// `key: a\tb`, a trailing tab, a tab-indented line.
    pub tab_token_error: bool,
    /// An anchor name defined twice is an error (PyYAML's composer: "found duplicate
    /// anchor"), where YAML lets the later one replace it.
    pub duplicate_anchors_error: bool,
    /// A null `description` is its text as written (`null`, `~`; an empty value is ""), as
    /// serde_yaml reads a null into a `String` field (Goose); otherwise it is absent.
    pub description_null_text: bool,
    /// A file without a frontmatter block (no opening fence, or none that closes) reads as
    /// a block without keys instead of refusing the file (python-frontmatter: OpenHands).
    pub missing_is_empty: bool,
    /// A leading byte-order mark is text, so a file that starts with one has no frontmatter
    /// (python-frontmatter strips whitespace only, and U+FEFF is not whitespace).
    pub bom_is_text: bool,
    /// Whitespace (Python's `str.isspace`) is stripped from both ends of the text before
    /// the fences are looked for, so an indented opening fence counts (python-frontmatter).
    pub strip_text: bool,
    /// A document end marker `...` before any content (only blank and comment lines above
    /// it) is an error, as in PyYAML; otherwise the block reads as empty.
    pub document_end_first_error: bool,
    /// One leading UTF-8 byte-order mark is dropped before the fences are looked for
    /// (Cline's `stripUtf8Bom`), where the fence rule itself would take it as text.
    pub strip_bom: bool,
    /// Control characters (C0 but tab and line breaks, DEL, C1) in the frontmatter are
    /// ordinary text, as the `yaml` npm package reads them (Cline); YAML refuses them.
    pub controls_as_text: bool,
    /// `name` and `description` are trimmed at both ends (JavaScript's `trim()`: Cline), so a
    /// `|` block's final newline goes and a blank description is none.
    pub trim_values: bool,
    /// An opening fence that never closes makes the rest of the file the frontmatter (and
    /// leaves no body) instead of refusing the file (VS Code's `PromptFileParser`).
    pub unterminated_to_end: bool,
    /// YAML that does not load (after the repair rule) reads as a block without keys, with
    /// a warning, instead of refusing the file: VS Code's own reader collects its errors and
    /// still loads the skill, named after its folder.
    pub unparsed_is_empty: bool,
    /// The document is also built as PyYAML's `SafeConstructor` builds it (`parse::pyyaml`),
    /// in its order: a `ConstructorError` (an unknown tag, an unhashable key, a bad `<<`
    /// or base64) refuses the file (`invalid-yaml`), a Python exception (a date `datetime`
    /// refuses, an int past 4,300 digits) is `python-value-error`; the tags PyYAML builds
    /// (`!!set`, `!!omap`, `!!pairs`) and a null key inside a mapping are read (OpenHands).
    pub python_constructor: bool,
    /// Which spellings of a key the host reads as its field (recorded for every host with a
    /// runner: `tests/vectors/discover/oracle-*-key-spelling`).
    pub keys: KeyRule,
}

impl Default for Dialect {
    fn default() -> Self {
        Dialect {
            read: ReadRule::Prefix,
            fences: FenceRule::Lines,
            syntax: SyntaxRule::Yaml,
            repair: RepairRule::Skilldeck,
            duplicate_keys: DuplicateRule::Allow,
            merge_keys: true,
            reject_unknown_tags: false,
            tab_separation: false,
            tab_indent_error: false,
            single_line: false,
            nul_is_text: false,
            non_mapping_is_empty: false,
            trim_final_newlines: false,
            yaml_1_1: false,
            tab_token_error: false,
            duplicate_anchors_error: false,
            description_null_text: false,
            missing_is_empty: false,
            bom_is_text: false,
            strip_text: false,
            document_end_first_error: false,
            strip_bom: false,
            controls_as_text: false,
            trim_values: false,
            unterminated_to_end: false,
            unparsed_is_empty: false,
            python_constructor: false,
            keys: KeyRule::Fold,
        }
    }
}

impl Dialect {
    /// Whether the line-based fences take a lone CR as a line end.
    pub(crate) fn lone_cr(&self) -> bool {
        self.fences == FenceRule::Lines
    }

    /// Whether a fence line may be indented.
    pub(crate) fn indented_fences(&self) -> bool {
        self.fences != FenceRule::LfLinesTrimEnd
    }

    /// The YAML loader's options for this dialect.
    pub(crate) fn yaml(&self) -> super::yaml::YamlOptions {
        super::yaml::YamlOptions {
            duplicate_keys_error: self.duplicate_keys == DuplicateRule::Error,
            merge_keys: self.merge_keys,
            reject_unknown_tags: self.reject_unknown_tags,
            yaml_1_1: self.yaml_1_1,
            controls_as_text: self.controls_as_text,
        }
    }
}

/// Runs of whitespace to one space, ends trimmed.
pub(crate) fn single_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

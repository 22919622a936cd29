//! `skilldeck mcp`: a deck's skills over MCP with the Skills extension (SEP-2640), plus
//! tools and prompts for clients without it.

use crate::catalog::{Entry, EntryError, Published, ServedCatalog};
use crate::uri;
use base64::Engine as _;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock,
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, GetSkillRequestParams,
    GetSkillResult, Implementation, ListPromptsResult, ListResourcesResult, ListSkillsResult,
    ListToolsResult, PaginatedRequestParams, Prompt, PromptArgument, PromptMessage,
    ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, Role, ServerCapabilities,
    ServerConfig, Skill, SkillFrontmatter, SkillResource, SkillResources, SubscriptionFilter, Tool,
    DIRECTORY_MIME_TYPE,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler};
use std::sync::{Arc, Mutex};

/// Runs a skill's script for the `run_skill_script` tool. The server offers that tool only
/// when [`ServerOptions::script_runner`] is set, so a deck served without one never runs
/// anything. skilldeck-mcp does not depend on the runner (`skilldeck-run`, a heavy build):
/// the caller (the CLI's `skilldeck mcp --allow-run`) supplies it.
pub trait ScriptRunner: Send + Sync {
    /// Run the call `arguments` (the tool's schema: [`skilldeck::run_skill_script_tool`])
    /// against `deck`, whose permission rules apply (`Deck::authorize`). `Ok` is the tool
    /// result's text (the run's report, also for a non-zero exit); `Err` a refusal.
    fn run_script(
        &self,
        deck: &skilldeck::Deck,
        arguments: &serde_json::Value,
    ) -> Result<String, String>;
}

/// How the server pages and labels its answers, and whether it runs scripts.
#[derive(Clone)]
pub struct ServerOptions {
    /// Skills per `skills/list` page (and entries per directory page); at least 1.
    pub page_size: usize,
    /// `ttlMs` on cacheable results: how long a client may treat a listing as fresh.
    pub ttl_ms: u64,
    /// Offer the `run_skill_script` tool, run by this runner (`None`: no such tool).
    pub script_runner: Option<Arc<dyn ScriptRunner>>,
}

impl std::fmt::Debug for ServerOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerOptions")
            .field("page_size", &self.page_size)
            .field("ttl_ms", &self.ttl_ms)
            .field("script_runner", &self.script_runner.is_some())
            .finish()
    }
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            page_size: 100,
            // A minute: short enough that an edited skill is picked up soon without the
            // `list_changed` notification, long enough to spare a busy client re-listing.
            ttl_ms: 60_000,
            script_runner: None,
        }
    }
}

/// The MCP server handler over one [`skilldeck::Deck`].
///
/// Serves the deck's listed skills (its discovery flags and permission rules decide
/// which) under `skill://<path>/<file>`. Cheap to clone; clones share state.
#[derive(Clone)]
pub struct SkillServer {
    inner: Arc<Inner>,
}

struct Inner {
    deck: skilldeck::Deck,
    options: ServerOptions,
    served: Mutex<(Option<Arc<skilldeck::Catalog>>, Arc<ServedCatalog>)>,
    /// Bumped on every catalog change; listeners send `list_changed` notifications.
    changes: tokio::sync::watch::Sender<u64>,
    /// Peers of sessions opened with `initialize` (protocol revisions before 2026-07-28),
    /// which get `list_changed` notifications pushed.
    peers: Mutex<Vec<Peer<RoleServer>>>,
}

fn invalid(message: impl std::fmt::Display) -> ErrorData {
    ErrorData::invalid_params(message.to_string(), None)
}

impl SkillServer {
    /// A server over `deck`. Its catalog is loaded now, so a broken configuration fails
    /// before the transport starts.
    pub fn new(deck: skilldeck::Deck, options: ServerOptions) -> skilldeck::Result<SkillServer> {
        deck.catalog()?;
        let (changes, _) = tokio::sync::watch::channel(0);
        let server = SkillServer {
            inner: Arc::new(Inner {
                deck,
                options: ServerOptions {
                    page_size: options.page_size.max(1),
                    ..options
                },
                served: Mutex::new((None, Arc::default())),
                changes,
                peers: Mutex::default(),
            }),
        };
        server.served();
        Ok(server)
    }

    /// Why skills of the deck are not published (names that cannot be a URI segment,
    /// duplicate URIs), one line each.
    pub fn notes(&self) -> Vec<String> {
        self.deck_catalog()
            .map(|c| ServedCatalog::new(&c).1)
            .unwrap_or_default()
    }

    /// Tell connected clients that the catalog changed (`notifications/resources/list_changed`,
    /// `prompts/list_changed`): the deck's `changed` event calls this.
    pub fn catalog_changed(&self) {
        self.inner.changes.send_modify(|n| *n += 1);
    }

    /// Subscribe to the deck's `changed` events (its watcher's reloads), so every reload
    /// that changes the catalog notifies clients. Call once per server.
    pub fn follow_deck_changes(&self) -> skilldeck::SubscriptionId {
        let server = self.clone();
        self.inner.deck.subscribe(move |event| {
            if matches!(event, skilldeck::Event::Changed { .. }) {
                server.catalog_changed();
            }
        })
    }

    /// Push `list_changed` to every `initialize`-session peer whenever the catalog
    /// changes; runs until the server is dropped.
    pub async fn push_notifications(self) {
        let mut changes = self.inner.changes.subscribe();
        while changes.changed().await.is_ok() {
            let peers = self.lock_peers().clone();
            let mut alive = Vec::new();
            for peer in peers {
                let ok = peer.notify_resource_list_changed().await.is_ok();
                let _ = peer.notify_prompt_list_changed().await;
                if ok {
                    alive.push(peer);
                }
            }
            *self.lock_peers() = alive;
        }
    }

    fn lock_peers(&self) -> std::sync::MutexGuard<'_, Vec<Peer<RoleServer>>> {
        self.inner.peers.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn deck_catalog(&self) -> skilldeck::Result<Arc<skilldeck::Catalog>> {
        self.inner.deck.catalog()
    }

    /// The published skills of the deck's current catalog (rebuilt after a reload).
    fn served(&self) -> Arc<ServedCatalog> {
        let current = self.deck_catalog().ok();
        let mut guard = self.inner.served.lock().unwrap_or_else(|e| e.into_inner());
        let same = match (&guard.0, &current) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        if !same {
            if let Some(catalog) = &current {
                let (served, notes) = ServedCatalog::new(catalog);
                for note in notes {
                    eprintln!("skilldeck mcp: {note}");
                }
                *guard = (current.clone(), Arc::new(served));
            }
        }
        guard.1.clone()
    }

    fn skill_entry(
        &self,
        served: &ServedCatalog,
        skill: &Published,
    ) -> Result<Arc<Entry>, ErrorData> {
        served.entry(skill).map_err(|err| match err {
            EntryError::Files(skilldeck::SkillFilesError::Io { .. })
            | EntryError::Changed { .. } => ErrorData::internal_error(err.to_string(), None),
            _ => invalid(format!("{} is not served: {err}", skill.uri)),
        })
    }

    fn wire_skill(skill: &Published, entry: &Entry) -> Skill {
        let mut frontmatter = SkillFrontmatter::new(skill.name.clone(), String::new());
        // Every field the author wrote, verbatim (name and description included).
        let mut extra = entry.frontmatter.clone();
        if let Some(serde_json::Value::String(d)) = extra.shift_remove("description") {
            frontmatter.description = d;
        }
        extra.shift_remove("name");
        frontmatter.extra = extra;
        let mut dir = skill.path.clone();
        let files = entry
            .manifest
            .files
            .iter()
            .map(|f| {
                dir.truncate(skill.path.len());
                dir.extend(f.path.split('/').map(str::to_string));
                SkillResource::new(uri::join(&dir), f.digest.clone(), f.size)
            })
            .collect();
        Skill::new(skill.uri.clone(), frontmatter, SkillResources::Files(files))
    }

    /// One page of `skills/list`: whole entries only, starting at the cursor (the URI of
    /// the first skill of the page). Skills whose entry cannot be computed are skipped
    /// (logged); `skills/get` says why.
    fn list_page(&self, cursor: Option<&str>) -> Result<ListSkillsResult, ErrorData> {
        let served = self.served();
        let start = match cursor {
            None => 0,
            Some(c) if c.starts_with(uri::SCHEME) => {
                served.skills().partition_point(|s| s.uri.as_str() < c)
            }
            Some(c) => {
                return Err(invalid(format!(
                    "cursor `{c}` was not issued by this server; start again without a cursor"
                )))
            }
        };
        let mut skills = Vec::new();
        let mut next = None;
        for skill in served.skills().iter().skip(start) {
            if skills.len() == self.inner.options.page_size {
                next = Some(skill.uri.clone());
                break;
            }
            match self.skill_entry(&served, skill) {
                Ok(entry) => skills.push(Self::wire_skill(skill, &entry)),
                Err(err) => eprintln!("skilldeck mcp: {}", err.message),
            }
        }
        let mut result = ListSkillsResult::with_all_items(skills)
            .with_ttl_ms(self.inner.options.ttl_ms)
            .with_cache_scope(CacheScope::Private);
        result.next_cursor = next;
        Ok(result)
    }

    fn get(&self, uri: &str) -> Result<GetSkillResult, ErrorData> {
        let served = self.served();
        let segments = uri::parse(uri).map_err(invalid)?;
        let skill = served
            .by_skill_md(&segments)
            .ok_or_else(|| invalid(format!("No skill is served at {uri}")))?;
        let entry = self.skill_entry(&served, skill)?;
        Ok(GetSkillResult::new(Self::wire_skill(skill, &entry))
            .with_ttl_ms(self.inner.options.ttl_ms)
            .with_cache_scope(CacheScope::Private))
    }

    fn read(&self, uri: &str) -> Result<ReadResourceResult, ErrorData> {
        let served = self.served();
        let segments = uri::parse(uri).map_err(invalid)?;
        let not_served = || {
            invalid(format!(
                "{uri} is not a file of any skill this server serves"
            ))
        };
        let (skill, rest) = served.containing(&segments).ok_or_else(not_served)?;
        if rest.is_empty() {
            return Err(invalid(format!(
                "{uri} is a directory resource; read it with resources/directory/read"
            )));
        }
        let file = rest.join("/");
        let entry = self.skill_entry(&served, skill)?;
        let Some(listed) = entry.manifest.get(&file) else {
            return Err(not_served());
        };
        let bytes = skilldeck::read_skill_file(&skill.base_dir, &file).map_err(|_| not_served())?;
        if skilldeck::file_digest(&bytes) != listed.digest {
            // The file changed since the entry was computed: serve what is there now (the
            // client's verification fails and it refreshes) and recompute on the next get.
            served.invalidate(skill);
        }
        let mime = mime_type(&file);
        let contents = match String::from_utf8(bytes) {
            // Text in a file with an unknown extension is still text.
            Ok(text) if mime == "application/octet-stream" => {
                ResourceContents::text(text, uri).with_mime_type("text/plain")
            }
            Ok(text) => ResourceContents::text(text, uri).with_mime_type(mime),
            Err(err) => {
                let blob = base64::engine::general_purpose::STANDARD.encode(err.into_bytes());
                ResourceContents::blob(blob, uri).with_mime_type(mime)
            }
        };
        Ok(ReadResourceResult::new(vec![contents])
            .with_ttl_ms(self.inner.options.ttl_ms)
            .with_cache_scope(CacheScope::Private))
    }

    fn read_directory(
        &self,
        uri: &str,
        cursor: Option<&str>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        let served = self.served();
        let segments = uri::parse(uri).map_err(invalid)?;
        // (name, is_directory, size)
        let children: Vec<(String, bool, Option<u64>)> =
            if let Some((skill, rest)) = served.containing(&segments) {
                let entry = self.skill_entry(&served, skill)?;
                let dir = rest.join("/");
                if !entry.manifest.is_directory(&dir) {
                    return Err(invalid(format!("{uri} is not a directory resource")));
                }
                entry
                    .manifest
                    .children(&dir)
                    .into_iter()
                    .map(|(name, is_dir)| {
                        let path = if dir.is_empty() {
                            name.clone()
                        } else {
                            format!("{dir}/{name}")
                        };
                        let size = entry.manifest.get(&path).map(|f| f.size);
                        (name, is_dir, size)
                    })
                    .collect()
            } else if let Some(names) = served.namespace_children(&segments) {
                names.into_iter().map(|n| (n, true, None)).collect()
            } else {
                return Err(invalid(format!("{uri} is not a directory resource")));
            };
        let start = match cursor {
            None => 0,
            Some(c) => children.partition_point(|(name, _, _)| name.as_str() < c),
        };
        let page = self.inner.options.page_size;
        let mut resources = Vec::new();
        let mut next = None;
        for (name, is_dir, size) in children.into_iter().skip(start) {
            if resources.len() == page {
                next = Some(name);
                break;
            }
            let mut child = segments.clone();
            child.push(name.clone());
            let mut resource =
                Resource::new(uri::join(&child), name.clone()).with_mime_type(if is_dir {
                    DIRECTORY_MIME_TYPE
                } else {
                    mime_type(&name)
                });
            resource.size = size;
            resources.push(resource);
        }
        let mut result = ListResourcesResult::with_all_items(resources);
        result.next_cursor = next;
        Ok(result)
    }

    fn resources_page(&self, cursor: Option<&str>) -> ListResourcesResult {
        let served = self.served();
        let start = cursor.map_or(0, |c| {
            served.skills().partition_point(|s| s.uri.as_str() < c)
        });
        let mut resources = Vec::new();
        let mut next = None;
        for skill in served.skills().iter().skip(start) {
            if resources.len() == self.inner.options.page_size {
                next = Some(skill.uri.clone());
                break;
            }
            resources.push(
                Resource::new(skill.uri.clone(), skill.name.clone())
                    .with_description(skill.description.clone())
                    .with_mime_type("text/markdown"),
            );
        }
        let mut result = ListResourcesResult::with_all_items(resources)
            .with_ttl_ms(self.inner.options.ttl_ms)
            .with_cache_scope(CacheScope::Private);
        result.next_cursor = next;
        result
    }
}

/// The MIME type of a skill file, by extension.
pub fn mime_type(file: &str) -> &'static str {
    let ext = file.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("md" | "markdown") => "text/markdown",
        Some("txt") => "text/plain",
        Some("py") => "text/x-python",
        Some("sh" | "bash") => "text/x-shellscript",
        Some("js" | "mjs" | "cjs") => "text/javascript",
        Some("ts") => "text/x-typescript",
        Some("json") => "application/json",
        Some("yaml" | "yml") => "application/yaml",
        Some("toml") => "application/toml",
        Some("html" | "htm") => "text/html",
        Some("css") => "text/css",
        Some("csv") => "text/csv",
        Some("xml") => "application/xml",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("svg") => "image/svg+xml",
        Some("pdf") => "application/pdf",
        _ => "application/octet-stream",
    }
}

fn schema(value: serde_json::Value) -> Arc<serde_json::Map<String, serde_json::Value>> {
    match value {
        serde_json::Value::Object(map) => Arc::new(map),
        _ => Arc::default(),
    }
}

fn tools(run: bool) -> Vec<Tool> {
    let mut tools = vec![
        Tool::new(
            "list_skills",
            "List the skills this server offers: id, name, description and skill:// URI.",
            schema(serde_json::json!({"type": "object", "properties": {}})),
        ),
        Tool::new(
            "load_skill",
            "Load a skill's instructions by id (from list_skills or search_skills). Relative paths in them are relative to the skill's URI, readable with resources/read.",
            schema(serde_json::json!({
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "The skill's id"},
                    "arguments": {"type": "string", "description": "Arguments substituted into the skill ($ARGUMENTS)"}
                },
                "required": ["name"]
            })),
        ),
        Tool::new(
            "search_skills",
            "Find skills relevant to a task (ranked by relevance).",
            schema(serde_json::json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 50}
                },
                "required": ["query"]
            })),
        ),
    ];
    if run {
        let spec = skilldeck::run_skill_script_tool();
        tools.push(Tool::new(
            spec.name,
            spec.description,
            schema(spec.input_schema),
        ));
    }
    tools
}

fn text_arg<'a>(
    args: Option<&'a serde_json::Map<String, serde_json::Value>>,
    key: &str,
) -> Option<&'a str> {
    args.and_then(|a| a.get(key))
        .and_then(serde_json::Value::as_str)
}

impl SkillServer {
    /// `run_skill_script`: only for a skill this server publishes (the set `load_skill`
    /// sees), then the runner, which applies the deck's permission rules and sandbox. The
    /// run blocks, so it goes to tokio's blocking pool.
    async fn run_script(
        &self,
        runner: Arc<dyn ScriptRunner>,
        params: CallToolRequestParams,
    ) -> Result<CallToolResult, ErrorData> {
        let fail = |message: String| Ok(CallToolResult::error(vec![ContentBlock::text(message)]));
        let arguments = serde_json::Value::Object(params.arguments.unwrap_or_default());
        let Some(name) = arguments
            .get("skill_name")
            .and_then(serde_json::Value::as_str)
        else {
            return fail("`skill_name` is required: a skill id from list_skills".into());
        };
        let served = self.served();
        let Some(skill) = served
            .skills()
            .iter()
            .find(|s| s.id == name || s.name == name)
        else {
            return fail(format!(
                "no skill `{name}` is served; call list_skills for the ids"
            ));
        };
        let mut arguments = arguments.clone();
        arguments["skill_name"] = serde_json::Value::String(skill.id.clone());
        let deck = self.inner.deck.clone();
        let ran = tokio::task::spawn_blocking(move || runner.run_script(&deck, &arguments))
            .await
            .map_err(|e| ErrorData::internal_error(format!("the run did not finish: {e}"), None))?;
        match ran {
            Ok(text) => Ok(CallToolResult::success(vec![ContentBlock::text(text)])),
            Err(message) => fail(message),
        }
    }

    fn call(&self, params: &CallToolRequestParams) -> Result<CallToolResult, ErrorData> {
        let args = params.arguments.as_ref();
        let served = self.served();
        let fail = |message: String| Ok(CallToolResult::error(vec![ContentBlock::text(message)]));
        match params.name.as_ref() {
            "list_skills" => {
                let list: Vec<serde_json::Value> = served
                    .skills()
                    .iter()
                    .map(|s| serde_json::json!({"id": s.id, "name": s.name, "description": s.description, "uri": s.uri}))
                    .collect();
                Ok(CallToolResult::success(vec![ContentBlock::text(
                    serde_json::Value::Array(list).to_string(),
                )]))
            }
            "load_skill" => {
                let Some(name) = text_arg(args, "name") else {
                    return fail("`name` is required: a skill id from list_skills".into());
                };
                // Only published skills: the same set the extension methods serve.
                let Some(skill) = served
                    .skills()
                    .iter()
                    .find(|s| s.id == name || s.name == name)
                else {
                    return fail(format!(
                        "no skill `{name}` is served; call list_skills for the ids"
                    ));
                };
                let options = skilldeck::ActivateOptions {
                    args: text_arg(args, "arguments").unwrap_or_default().to_string(),
                    ..Default::default()
                };
                match self.inner.deck.activate(&skill.id, &options) {
                    Ok(activation) => {
                        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
                            "<skill id=\"{}\" uri=\"{}\">\n{}\n</skill>",
                            skill.id, skill.uri, activation.text
                        ))]))
                    }
                    Err(err) => fail(err.to_string()),
                }
            }
            "search_skills" => {
                let Some(query) = text_arg(args, "query") else {
                    return fail("`query` is required".into());
                };
                let limit = args
                    .and_then(|a| a.get("limit"))
                    .and_then(serde_json::Value::as_u64)
                    .map_or(10, |n| n.clamp(1, 50) as usize);
                let options = skilldeck::SearchOptions {
                    query: query.to_string(),
                    limit,
                    ..Default::default()
                };
                match self.inner.deck.search(&options) {
                    Ok(results) => {
                        let hits: Vec<serde_json::Value> = results
                            .hits
                            .iter()
                            .filter_map(|h| served.skills().iter().find(|s| s.id == h.id))
                            .map(|s| serde_json::json!({"id": s.id, "name": s.name, "description": s.description, "uri": s.uri}))
                            .collect();
                        Ok(CallToolResult::success(vec![ContentBlock::text(
                            serde_json::Value::Array(hits).to_string(),
                        )]))
                    }
                    Err(err) => fail(err.to_string()),
                }
            }
            other => Err(invalid(format!("unknown tool `{other}`; call tools/list"))),
        }
    }

    fn prompt(&self, params: &GetPromptRequestParams) -> Result<GetPromptResult, ErrorData> {
        let served = self.served();
        let skill = served
            .skills()
            .iter()
            .find(|s| s.user_invocable && s.id.replace(':', "-") == params.name)
            .ok_or_else(|| invalid(format!("no prompt `{}`; call prompts/list", params.name)))?;
        let options = skilldeck::ActivateOptions {
            args: text_arg(params.arguments.as_ref(), "arguments")
                .unwrap_or_default()
                .to_string(),
            ..Default::default()
        };
        let activation = self
            .inner
            .deck
            .activate(&skill.id, &options)
            .map_err(invalid)?;
        Ok(
            GetPromptResult::new(vec![PromptMessage::new_text(Role::User, activation.text)])
                .with_description(skill.description.clone()),
        )
    }
}

fn page_cursor(request: &Option<PaginatedRequestParams>) -> Option<&str> {
    request.as_ref().and_then(|r| r.cursor.as_deref())
}

impl ServerHandler for SkillServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_resources()
                .enable_resources_list_changed()
                .enable_tools()
                .enable_prompts()
                .enable_prompts_list_changed()
                .enable_skills_with_directory_read()
                .build(),
        )
        .with_server_info(Implementation::new("skilldeck", skilldeck::VERSION))
        .with_instructions(
            "Skills are served with the io.modelcontextprotocol/skills extension (skills/list, skills/get, resources/read). Clients without it can call the list_skills, search_skills and load_skill tools.",
        )
    }

    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        self.list_page(page_cursor(&request))
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        self.get(&request.uri)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.read(&request.uri).map(Into::into)
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        self.read_directory(&request.uri, request.cursor.as_deref())
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(self.resources_page(page_cursor(&request)))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools(
            self.inner.options.script_runner.is_some(),
        )))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name == skilldeck::RUN_SKILL_SCRIPT {
            if let Some(runner) = self.inner.options.script_runner.clone() {
                return self.run_script(runner, request).await.map(Into::into);
            }
        }
        self.call(&request).map(Into::into)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let served = self.served();
        let prompts = served
            .skills()
            .iter()
            .filter(|s| s.user_invocable)
            .map(|s| {
                Prompt::new(
                    s.id.replace(':', "-"),
                    Some(s.description.clone()),
                    Some(vec![PromptArgument::new("arguments")
                        .with_description("Arguments for the skill ($ARGUMENTS)")
                        .with_required(false)]),
                )
            })
            .collect();
        Ok(ListPromptsResult::with_all_items(prompts))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.prompt(&request).map(Into::into)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.lock_peers().push(context.peer);
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let mut accepted = SubscriptionFilter::new();
        accepted.resources_list_changed = requested.resources_list_changed;
        accepted.prompts_list_changed = requested.prompts_list_changed;
        Some(accepted)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let mut changes = self.inner.changes.subscribe();
        loop {
            tokio::select! {
                _ = context.cancelled() => return Ok(()),
                changed = changes.changed() => {
                    if changed.is_err() {
                        return Ok(());
                    }
                    let sink = context.sink();
                    if context.accepted().resources_list_changed == Some(true) {
                        let _ = sink.notify_resource_list_changed().await;
                    }
                    if context.accepted().prompts_list_changed == Some(true) {
                        let _ = sink.notify_prompt_list_changed().await;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn server(dir: &Path, page_size: usize) -> SkillServer {
        let empty = dir.join("empty");
        std::fs::create_dir_all(&empty).expect("mkdir");
        let deck = skilldeck::Deck::new(skilldeck::DeckOptions {
            project_dir: empty.clone(),
            home_dir: Some(empty),
            roots: vec![skilldeck::RootSpec::new(dir.join("skills"))],
            read_host_settings: false,
            ..Default::default()
        })
        .expect("deck");
        SkillServer::new(
            deck,
            ServerOptions {
                page_size,
                ttl_ms: 5,
                ..Default::default()
            },
        )
        .expect("server")
    }

    fn skill(dir: &Path, name: &str) {
        let base = dir.join("skills").join(name);
        std::fs::create_dir_all(&base).expect("mkdir");
        std::fs::write(
            base.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: d\n---\nbody\n"),
        )
        .expect("write");
    }

    #[test]
    fn pages_of_one_cover_every_skill_once() {
        let tmp = tempfile::tempdir().expect("tmp");
        for name in ["c", "a", "b"] {
            skill(tmp.path(), name);
        }
        let server = server(tmp.path(), 1);
        let mut seen = Vec::new();
        let mut cursor = None;
        loop {
            let page = server.list_page(cursor.as_deref()).expect("page");
            assert_eq!(page.skills.len(), 1);
            assert_eq!(page.ttl_ms, Some(5));
            seen.push(page.skills[0].uri.clone());
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        assert_eq!(
            seen,
            [
                "skill://a/SKILL.md",
                "skill://b/SKILL.md",
                "skill://c/SKILL.md"
            ]
        );
    }

    #[test]
    fn a_file_changed_after_its_entry_is_served_as_it_is_and_the_entry_recomputed() {
        let tmp = tempfile::tempdir().expect("tmp");
        skill(tmp.path(), "a");
        let notes = tmp.path().join("skills/a/notes.txt");
        std::fs::write(&notes, "old").expect("write");
        let server = server(tmp.path(), 10);
        let digest_of = |server: &SkillServer| {
            let got = server.get("skill://a/SKILL.md").expect("get");
            let SkillResources::Files(files) = got.skill.resources else {
                panic!("a file manifest")
            };
            files
                .into_iter()
                .find(|f| f.uri == "skill://a/notes.txt")
                .expect("listed")
                .digest
        };
        assert_eq!(digest_of(&server), skilldeck::file_digest(b"old"));
        std::fs::write(&notes, "new!").expect("write");
        let read = server.read("skill://a/notes.txt").expect("read");
        let ResourceContents::TextResourceContents { text, .. } = &read.contents[0] else {
            panic!("text")
        };
        assert_eq!(text, "new!");
        assert_eq!(digest_of(&server), skilldeck::file_digest(b"new!"));
    }

    #[test]
    fn mime_types_by_extension() {
        assert_eq!(mime_type("SKILL.md"), "text/markdown");
        assert_eq!(mime_type("scripts/x.PY"), "text/x-python");
        assert_eq!(mime_type("data"), "application/octet-stream");
    }
}

//! Search over a catalog's skills: BM25F over name, tags, category, description, parameter
//! descriptions and (when asked) the body, with Unicode-aware terms ([`tokenize`]), and an
//! optional hybrid ranking with caller-supplied embeddings fused by reciprocal rank.
//!
//! [`crate::Deck::search`] keeps the index between calls and re-tokenises only the skills a
//! reload changed; [`search`] indexes a catalog from scratch. [`tool_definition`] is the
//! `search_skills` tool a host offers its model.

pub(crate) mod index;
pub mod tokenize;

pub use index::Index;

use crate::catalog::Catalog;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Queries longer than this are refused (a prompt pasted by mistake, not a search).
pub const MAX_QUERY_CHARS: usize = 10_000;
/// At most this many hits are returned.
pub const MAX_LIMIT: usize = 1_000;
/// Reciprocal rank fusion's constant (Cormack, Clarke & Büttcher, 2009).
const RRF_K: f64 = 60.0;

/// What to search for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchOptions {
    pub query: String,
    /// Hits to return (default 10, at most [`MAX_LIMIT`]).
    pub limit: usize,
    /// Search every listed skill, not only those the model may see.
    pub all: bool,
    /// Also search each skill's Markdown body (read on first use, cached by file stamp).
    pub body: bool,
    /// A vector per skill id, from the caller's own embedding model (hybrid search).
    pub embeddings: BTreeMap<String, Vec<f32>>,
    /// The query's vector from the same model.
    pub query_embedding: Option<Vec<f32>>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            query: String::new(),
            limit: 10,
            all: false,
            body: false,
            embeddings: BTreeMap::new(),
            query_embedding: None,
        }
    }
}

/// One result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchHit {
    pub id: String,
    pub name: String,
    pub description: String,
    pub location: std::path::PathBuf,
    /// The ranking score: BM25F alone, or the fused reciprocal-rank score in hybrid search.
    pub score: f64,
    /// The BM25F score (0 when no term matched).
    pub bm25: f64,
    /// Cosine similarity with the query embedding, in hybrid search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub similarity: Option<f64>,
    /// The fields where query terms matched (`name`, `tags`, `category`, `description`,
    /// `parameters`, `body`).
    pub matched: Vec<String>,
}

/// Ranked results.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SearchResults {
    pub query: String,
    pub hits: Vec<SearchHit>,
    /// Skills that matched at all (hits are the best `limit` of them).
    pub matched: usize,
    /// Skills searched.
    pub searched: usize,
}

impl SearchOptions {
    /// Refuse what cannot be a meaningful search, with the caller's own words.
    pub fn check(&self) -> Result<()> {
        if self.query.chars().count() > MAX_QUERY_CHARS {
            return Err(Error::invalid_options(format!(
                "the query is longer than {MAX_QUERY_CHARS} characters; search with a few words"
            )));
        }
        if self.limit == 0 || self.limit > MAX_LIMIT {
            return Err(Error::invalid_options(format!(
                "limit must be between 1 and {MAX_LIMIT} (got {})",
                self.limit
            )));
        }
        if self.query.trim().is_empty() && self.query_embedding.is_none() {
            return Err(Error::invalid_options(
                "give a query (or a query embedding) to search for",
            ));
        }
        if let Some(q) = &self.query_embedding {
            if q.is_empty() {
                return Err(Error::invalid_options("the query embedding is empty"));
            }
            if let Some((id, v)) = self.embeddings.iter().find(|(_, v)| v.len() != q.len()) {
                return Err(Error::invalid_options(format!(
                    "the embedding of `{id}` has {} dimensions, the query's has {}; use one model for both",
                    v.len(),
                    q.len()
                )));
            }
        } else if !self.embeddings.is_empty() {
            return Err(Error::invalid_options(
                "skill embeddings were given without a query embedding",
            ));
        }
        Ok(())
    }
}

/// Search `catalog` once (bodies are read when `options.body`). Nothing is kept for a later
/// query, so no index is built: each skill is cut into terms on a worker, which keeps only
/// its field lengths and how often each query term occurs in it, and the BM25F scores come
/// from those with the arithmetic of `Index::score`, so the ranking is the one a kept
/// index gives ([`crate::Deck::search`]).
pub fn search(catalog: &Catalog, options: &SearchOptions) -> Result<SearchResults> {
    options.check()?;
    let skills = index::searched(catalog, options.all);
    let scored = scan(&skills, &options.query, options.body);
    Ok(rank(skills.len(), |doc| skills.get(doc), scored, options))
}

/// The skills a render ranks: the model-visible ones, shared.
pub fn index_skills(catalog: &Catalog) -> Vec<Arc<crate::catalog::Skill>> {
    index::searched(catalog, false)
}

/// BM25F score by skill id of every skill of `index` that matches `query`.
pub fn relevance(index: &Index, query: &str) -> HashMap<String, f64> {
    index
        .score(query)
        .into_iter()
        .map(|s| (index.skill(s.doc).id.to_string(), s.score))
        .collect()
}

/// Rank `index` for `options` (already checked).
pub fn run(index: &Index, options: &SearchOptions) -> SearchResults {
    let scored = index.score(&options.query);
    rank(index.len(), |doc| index.get(doc), scored, options)
}

/// One skill as the one-shot scan keeps it: its field lengths and, for each query term it
/// holds (by index in the sorted query terms), the term's count by field.
struct Scanned {
    lens: [u32; 6],
    counts: Vec<(usize, [u16; 6])>,
}

/// [`Index::build`] then [`Index::score`] in one pass that keeps no terms.
fn scan(skills: &[Arc<crate::catalog::Skill>], query: &str, body: bool) -> Vec<index::Scored> {
    let mut terms = tokenize::terms_of(query);
    terms.sort();
    terms.dedup();
    if terms.is_empty() {
        return Vec::new();
    }
    // A kept index files bodies by skill id, the last skill of an id giving it.
    let bodies: HashMap<&str, &std::path::Path> = if body {
        skills
            .iter()
            .map(|s| (s.id.as_str(), &*s.location))
            .collect()
    } else {
        HashMap::new()
    };
    let one = |i: &usize| -> (usize, Scanned) {
        let skill = &skills[*i];
        let body = bodies.get(skill.id.as_str()).copied();
        (*i, scan_one(skill, &terms, body))
    };
    let all: Vec<usize> = (0..skills.len()).collect();
    let mut docs: Vec<Option<Scanned>> = Vec::new();
    docs.resize_with(skills.len(), || None);
    for (i, scanned) in crate::par::map(&all, 64, one) {
        if let Some(slot) = docs.get_mut(i) {
            *slot = Some(scanned);
        }
    }
    // A worker's batch is lost only to a bug; its skills are scanned here instead.
    let docs: Vec<Scanned> = docs
        .into_iter()
        .enumerate()
        .map(|(i, d)| d.unwrap_or_else(|| one(&i).1))
        .collect();
    let mut total = [0f64; 6];
    let mut df = vec![0usize; terms.len()];
    for doc in &docs {
        for (t, len) in total.iter_mut().zip(doc.lens) {
            *t += f64::from(len);
        }
        for (k, _) in &doc.counts {
            df[*k] += 1;
        }
    }
    let avg_len = index::average(total, docs.len());
    let n = docs.len() as f64;
    let idf: Vec<f64> = df.iter().map(|&df| index::idf(n, df)).collect();
    let mut out: Vec<index::Scored> = docs
        .iter()
        .enumerate()
        .filter(|(_, d)| !d.counts.is_empty())
        .map(|(i, d)| {
            let (mut score, mut mask) = (0.0, 0u8);
            // In query-term order, as the index adds them up.
            for (k, counts) in &d.counts {
                let (s, matched) = index::term_score(idf[*k], &d.lens, &avg_len, counts);
                score += s;
                mask |= matched;
            }
            index::Scored {
                doc: i,
                score,
                mask,
            }
        })
        .collect();
    index::sort(&mut out);
    out
}

/// The field lengths of `skill` and the counts of the sorted `terms` in it.
fn scan_one(
    skill: &crate::catalog::Skill,
    terms: &[String],
    body: Option<&std::path::Path>,
) -> Scanned {
    let mut lens = [0usize; 6];
    // (query term, field) of every match, folded into counts below.
    let mut hits: Vec<(usize, usize)> = Vec::new();
    let mut emit = |f: usize, term: &str| {
        if let Some(len) = lens.get_mut(f) {
            *len += 1;
        }
        if let Ok(k) = terms.binary_search_by(|q| q.as_str().cmp(term)) {
            hits.push((k, f));
        }
    };
    index::visit(skill, &mut emit);
    if let Some(path) = body {
        let text = crate::parse::read_body(path).unwrap_or_default();
        tokenize::for_each_term(&text, &mut |term| emit(5, term));
    }
    hits.sort_unstable();
    let mut counts: Vec<(usize, [u16; 6])> = Vec::new();
    for (k, f) in hits {
        if counts.last().is_none_or(|(last, _)| *last != k) {
            counts.push((k, [0; 6]));
        }
        if let Some(slot) = counts.last_mut().and_then(|(_, c)| c.get_mut(f)) {
            *slot = slot.saturating_add(1);
        }
    }
    Scanned {
        lens: lens.map(|l| u32::try_from(l).unwrap_or(u32::MAX)),
        counts,
    }
}

/// Results from BM25F `scored` documents `0..len` (`skill` gives each one's skill).
fn rank<'a>(
    len: usize,
    skill: impl Fn(usize) -> Option<&'a Arc<crate::catalog::Skill>>,
    scored: Vec<index::Scored>,
    options: &SearchOptions,
) -> SearchResults {
    let names =
        |s: &index::Scored| -> Vec<String> { s.fields().map(|f| f.as_str().to_string()).collect() };
    // (doc, ranking score, similarity, BM25F score and matched fields).
    let mut ranked: Vec<(usize, f64, Option<f64>, Option<index::Scored>)> =
        match &options.query_embedding {
            None => scored
                .iter()
                .map(|s| (s.doc, s.score, None, Some(*s)))
                .collect(),
            Some(q) => {
                let by_doc: HashMap<usize, index::Scored> =
                    scored.iter().map(|s| (s.doc, *s)).collect();
                fuse(len, &skill, &scored, q, &options.embeddings)
                    .into_iter()
                    .map(|(doc, score, sim)| (doc, score, sim, by_doc.get(&doc).copied()))
                    .collect()
            }
        };
    let matched = ranked.len();
    ranked.truncate(options.limit);
    let hits = ranked
        .into_iter()
        .filter_map(|(doc, score, similarity, text)| {
            let skill = skill(doc)?;
            Some(SearchHit {
                id: skill.id.to_string(),
                name: skill.name.to_string(),
                description: skill.description().to_string(),
                location: skill.location.to_path_buf(),
                score,
                bm25: text.map_or(0.0, |s| s.score),
                similarity,
                matched: text.map(|s| names(&s)).unwrap_or_default(),
            })
        })
        .collect();
    SearchResults {
        query: options.query.clone(),
        hits,
        matched,
        searched: len,
    }
}

/// Reciprocal rank fusion of the BM25F ranking and the cosine ranking of the skills that
/// have an embedding: `Σ 1 / (60 + rank)`.
fn fuse<'a>(
    len: usize,
    skill: impl Fn(usize) -> Option<&'a Arc<crate::catalog::Skill>>,
    scored: &[index::Scored],
    query: &[f32],
    embeddings: &BTreeMap<String, Vec<f32>>,
) -> Vec<(usize, f64, Option<f64>)> {
    let mut fused: HashMap<usize, (f64, Option<f64>)> = HashMap::new();
    for (rank, s) in scored.iter().enumerate() {
        fused.entry(s.doc).or_default().0 += 1.0 / (RRF_K + rank as f64 + 1.0);
    }
    let mut by_vector: Vec<(usize, f64)> = (0..len)
        .filter_map(|doc| {
            let v = embeddings.get(skill(doc)?.id.as_str())?;
            Some((doc, cosine(query, v)))
        })
        .collect();
    by_vector.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    for (rank, (doc, sim)) in by_vector.iter().enumerate() {
        let entry = fused.entry(*doc).or_default();
        entry.0 += 1.0 / (RRF_K + rank as f64 + 1.0);
        entry.1 = Some(*sim);
    }
    let mut out: Vec<(usize, f64, Option<f64>)> = fused
        .into_iter()
        .map(|(doc, (score, sim))| (doc, score, sim))
        .collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let (mut dot, mut na, mut nb) = (0f64, 0f64, 0f64);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (f64::from(*x), f64::from(*y));
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na.sqrt() * nb.sqrt())
    }
}

/// A file's size and modification time.
type Stamp = Option<(u64, std::time::SystemTime)>;

/// Body terms by skill id, re-read only when a file's size or modification time changed.
#[derive(Clone, Debug, Default)]
pub struct BodyCache {
    entries: HashMap<std::path::PathBuf, (Stamp, Arc<Vec<String>>)>,
}

impl BodyCache {
    /// The body terms of `skills` (an unreadable body has none).
    pub fn terms_for(
        &mut self,
        skills: &[Arc<crate::catalog::Skill>],
    ) -> HashMap<String, Arc<Vec<String>>> {
        let mut out = HashMap::with_capacity(skills.len());
        let mut live = HashMap::with_capacity(skills.len());
        for skill in skills {
            let stamp = std::fs::metadata(&skill.location)
                .ok()
                .and_then(|m| Some((m.len(), m.modified().ok()?)));
            let terms = match self.entries.remove(&*skill.location) {
                Some((old, terms)) if old == stamp && stamp.is_some() => terms,
                _ => {
                    let body = crate::parse::read_body(&skill.location).unwrap_or_default();
                    Arc::new(tokenize::terms_of(&body))
                }
            };
            out.insert(skill.id.to_string(), Arc::clone(&terms));
            live.insert(skill.location.to_path_buf(), (stamp, terms));
        }
        self.entries = live;
        out
    }
}

/// The `search_skills` tool a host offers its model (JSON Schema parameters; the shape the
/// common function-calling APIs take as `parameters` / `input_schema`).
pub fn tool_definition() -> serde_json::Value {
    serde_json::json!({
        "name": "search_skills",
        "description": "Search the available skills by what they do. Returns the best matching skills with their names and descriptions; load one with the skill tool by its name.",
        "parameters": {
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "description": "What the task is about, in a few words."
                },
                "limit": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": MAX_LIMIT,
                    "default": 10,
                    "description": "How many skills to return."
                }
            },
            "required": ["query"],
            "additionalProperties": false
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{Scope, Skill, SkillKind, Status};
    use crate::manifest::Manifest;

    fn skill(id: &str, description: &str, tags: &[&str]) -> Arc<Skill> {
        let mut manifest = Manifest {
            name: Some(id.into()),
            description: Some(description.into()),
            ..Manifest::default()
        };
        manifest.tool.tags = tags.iter().map(|t| t.to_string()).collect();
        Arc::new(Skill {
            id: id.into(),
            name: id.into(),
            location: format!("/s/{id}/SKILL.md").into(),
            base_dir: format!("/s/{id}").into(),
            scope: Scope::Project,
            source: "/s".into(),
            plugin: None,
            kind: SkillKind::Skill,
            manifest: Arc::new(manifest),
            diagnostics: Vec::new().into(),
            status: Status::default(),
        })
    }

    fn catalog() -> Catalog {
        Catalog {
            profile: "universal".into(),
            skills: vec![
                skill(
                    "pdf",
                    "Extract text and tables from PDF files, fill PDF forms.",
                    &["documents"],
                ),
                skill(
                    "xlsx",
                    "Create and edit spreadsheets with formulas.",
                    &["excel", "tables"],
                ),
                skill(
                    "code-review",
                    "Review a pull request for bugs and style.",
                    &[],
                ),
                skill(
                    "pdf-ocr",
                    "提取扫描件中的文本 (OCR for scanned PDF pages).",
                    &[],
                ),
            ],
            ..Catalog::default()
        }
    }

    fn ids(results: &SearchResults) -> Vec<&str> {
        results.hits.iter().map(|h| h.id.as_str()).collect()
    }

    fn query(q: &str) -> SearchOptions {
        SearchOptions {
            query: q.into(),
            ..SearchOptions::default()
        }
    }

    #[test]
    fn ranks_by_field_weighted_relevance() {
        let r = search(&catalog(), &query("fill a pdf form")).expect("search");
        assert_eq!(ids(&r)[0], "pdf");
        assert!(ids(&r).contains(&"pdf-ocr"));
        assert!(!ids(&r).contains(&"xlsx"));
        assert_eq!(r.hits[0].matched, ["name", "description"]);
        let r = search(&catalog(), &query("excel")).expect("search");
        assert_eq!(ids(&r), ["xlsx"]);
        assert_eq!(r.hits[0].matched, ["tags"]);
        assert_eq!(r.searched, 4);
    }

    #[test]
    fn chinese_queries_match_chinese_text() {
        let r = search(&catalog(), &query("提取文本")).expect("search");
        assert_eq!(ids(&r), ["pdf-ocr"]);
    }

    #[test]
    fn hybrid_fuses_both_rankings() {
        let mut options = query("review");
        options.query_embedding = Some(vec![1.0, 0.0]);
        options.embeddings = BTreeMap::from([
            ("xlsx".to_string(), vec![0.9, 0.1]),
            ("code-review".to_string(), vec![0.0, 1.0]),
        ]);
        let r = search(&catalog(), &options).expect("search");
        // code-review leads the text ranking, xlsx the vector one; both appear.
        assert_eq!(r.hits.len(), 2);
        assert!(r.hits.iter().all(|h| h.similarity.is_some()));
        let mut bad = options.clone();
        bad.embeddings.insert("pdf".into(), vec![1.0]);
        assert!(search(&catalog(), &bad).is_err());
    }

    #[test]
    fn refuses_meaningless_searches() {
        assert!(search(&catalog(), &query("  ")).is_err());
        let mut o = query("pdf");
        o.limit = 0;
        assert!(search(&catalog(), &o).is_err());
        assert!(search(&catalog(), &query(&"x".repeat(MAX_QUERY_CHARS + 1))).is_err());
    }

    /// The one-shot scan ([`search`]) and a kept index ([`run`]) must rank alike, to the
    /// last bit of every score, including with bodies, `all` and embeddings.
    #[test]
    fn one_shot_scan_ranks_as_the_index_does() {
        let dir = std::env::temp_dir().join(format!("skilldeck-scan-{}", std::process::id()));
        let mut skills = Vec::new();
        let words = [
            "pdf",
            "report",
            "data",
            "pipeline",
            "Reports",
            "PDFTools",
            "提取",
            "文本",
            "résumé",
            "spreadsheet",
            "chart",
            "the",
            "x",
        ];
        for i in 0..300usize {
            let pick = |k: usize| words[(i * 7 + k * 13 + i / 5) % words.len()];
            let description = (0..(i % 11 + 1))
                .map(&pick)
                .collect::<Vec<_>>()
                .join(if i % 3 == 0 { " " } else { "-" });
            let tags: Vec<&str> = (0..i % 3).map(|k| pick(k + 5)).collect();
            let id = format!("s{i}-{}", pick(1).to_lowercase());
            let mut s = skill(&id, &description, &tags);
            let body_dir = dir.join(&id);
            std::fs::create_dir_all(&body_dir).expect("dir");
            let location = body_dir.join("SKILL.md");
            let body = (0..(i % 17))
                .map(|k| pick(k + 2))
                .collect::<Vec<_>>()
                .join(" ");
            std::fs::write(&location, format!("---\nname: {id}\n---\n{body}\n")).expect("write");
            Arc::make_mut(&mut s).location = location.into();
            if i % 10 == 0 {
                Arc::make_mut(&mut s).status.model_invocable = false;
            }
            skills.push(s);
        }
        let catalog = Catalog {
            skills,
            ..Catalog::default()
        };
        let embeddings: BTreeMap<String, Vec<f32>> = catalog
            .skills
            .iter()
            .enumerate()
            .filter(|(i, _)| i % 4 == 0)
            .map(|(i, s)| (s.id.to_string(), vec![i as f32, 1.0]))
            .collect();
        for q in [
            "data report pipeline",
            "PDF",
            "提取文本",
            "Résumé",
            "nothing-here",
            "the x",
        ] {
            for (all, body, hybrid) in [
                (false, false, false),
                (true, false, false),
                (false, true, false),
                (true, true, true),
            ] {
                let options = SearchOptions {
                    limit: 1000,
                    all,
                    body,
                    query_embedding: hybrid.then(|| vec![1.0, 0.5]),
                    embeddings: if hybrid {
                        embeddings.clone()
                    } else {
                        BTreeMap::new()
                    },
                    ..query(q)
                };
                let skills = index::searched(&catalog, all);
                let bodies = if body {
                    BodyCache::default().terms_for(&skills)
                } else {
                    HashMap::new()
                };
                let kept = run(&Index::build(&skills, None, &bodies), &options);
                let once = search(&catalog, &options).expect("search");
                assert_eq!(once, kept, "{q:?} all={all} body={body}");
                if q == "data report pipeline" {
                    assert!(!once.hits.is_empty());
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn rebuild_reuses_unchanged_skills() {
        let c = catalog();
        let first = Index::build(&c.skills, None, &HashMap::new());
        let mut skills = c.skills.clone();
        skills[1] = skill("xlsx", "Charts only.", &[]);
        let second = Index::build(&skills, Some(&first), &HashMap::new());
        assert_eq!(second.score("spreadsheet").len(), 0);
        assert_eq!(second.score("charts")[0].doc, 1);
        assert_eq!(second.score("pdf").len(), 2);
    }
}

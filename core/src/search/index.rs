//! A BM25F index over a catalog's skills.
//!
//! BM25F (Robertson, Zaragoza & Taylor, 2004) scores a document made of weighted fields: a
//! term's frequency in each field is length-normalised for that field, weighted and summed,
//! then saturated once with `k1`. Names and tags thus weigh more than a long description
//! without one very long field drowning the others.
//!
//! The index keeps each skill's terms keyed by its manifest's shared `Arc` and its name: a
//! reload shares the manifests of unchanged files with the previous snapshot (the parse
//! cache), so rebuilding after a reload tokenises only the skills whose files changed. Postings and statistics are rebuilt from those
//! terms, which costs far less than tokenising.

use super::tokenize;
use crate::catalog::{Catalog, Skill};
use crate::manifest::Manifest;
use std::collections::HashMap;
use std::sync::Arc;

/// The fields a skill is searched by, in index order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Name,
    Tags,
    Category,
    Description,
    Parameters,
    Body,
}

pub const FIELDS: [Field; 6] = [
    Field::Name,
    Field::Tags,
    Field::Category,
    Field::Description,
    Field::Parameters,
    Field::Body,
];

impl Field {
    pub fn as_str(self) -> &'static str {
        match self {
            Field::Name => "name",
            Field::Tags => "tags",
            Field::Category => "category",
            Field::Description => "description",
            Field::Parameters => "parameters",
            Field::Body => "body",
        }
    }

    /// How much a match in this field counts against one in the description.
    fn weight(self) -> f64 {
        match self {
            Field::Name => 3.0,
            Field::Tags => 2.0,
            Field::Category => 1.5,
            Field::Description => 1.0,
            Field::Parameters => 0.7,
            Field::Body => 0.3,
        }
    }

    /// Length normalisation: short fields (a name) hardly need it.
    fn b(self) -> f64 {
        match self {
            Field::Name | Field::Tags | Field::Category => 0.3,
            Field::Description | Field::Parameters | Field::Body => 0.75,
        }
    }
}

const K1: f64 = 1.2;

/// The terms of one skill, by field.
#[derive(Clone, Debug, Default)]
pub struct DocTerms {
    pub fields: [Vec<String>; 6],
}

impl DocTerms {
    /// Cut a skill into terms (the body is added separately, when asked for).
    pub fn of(skill: &Skill) -> DocTerms {
        let mut doc = DocTerms::default();
        visit(skill, &mut |f, term| {
            if let Some(field) = doc.fields.get_mut(f) {
                field.push(term.to_owned());
            }
        });
        doc
    }
}

/// Hand every term of `skill` (its body aside) to `emit` with its field's index, in the
/// order [`DocTerms::of`] keeps them: the one definition of what is searched, shared by the
/// index and the one-shot scan.
pub(crate) fn visit(skill: &Skill, emit: &mut impl FnMut(usize, &str)) {
    let m = &skill.manifest;
    let mut field = |f: usize, text: &str| tokenize::for_each_term(text, &mut |t| emit(f, t));
    field(0, &skill.name);
    for tag in &m.tool.tags {
        field(1, tag);
    }
    // Parsed once for the three keys read below.
    let metadata = m.metadata.to_object();
    for key in ["tags", "keywords"] {
        match metadata.get(key) {
            Some(serde_json::Value::String(s)) => field(1, s),
            Some(serde_json::Value::Array(items)) => {
                for item in items.iter().filter_map(|v| v.as_str()) {
                    field(1, item);
                }
            }
            _ => {}
        }
    }
    let category = m
        .tool
        .category
        .as_deref()
        .or_else(|| metadata.get("category").and_then(|v| v.as_str()));
    if let Some(category) = category {
        field(2, category);
    }
    field(3, skill.description());
    if let Some(when) = &m.claude_code.when_to_use {
        field(3, when);
    }
    for p in &m.tool.parameters {
        field(4, &p.name);
        if let Some(d) = &p.description {
            field(4, d);
        }
    }
}

/// One indexed skill.
#[derive(Clone, Debug)]
struct Doc {
    skill: Arc<Skill>,
    terms: Arc<DocTerms>,
    lens: [u32; 6],
}

/// Term frequencies of one term in one document, by field.
type Posting = (u32, [u16; 6]);

/// The index of one catalog snapshot.
#[derive(Clone, Debug, Default)]
pub struct Index {
    docs: Vec<Doc>,
    postings: HashMap<String, Vec<Posting>>,
    avg_len: [f64; 6],
}

/// One document's BM25F score and the fields that matched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scored {
    pub doc: usize,
    pub score: f64,
    /// Bit `f` set: field `FIELDS[f]` matched.
    pub mask: u8,
}

impl Scored {
    /// The fields that matched, in index order.
    pub fn fields(&self) -> impl Iterator<Item = Field> + '_ {
        FIELDS
            .iter()
            .enumerate()
            .filter(|(f, _)| self.mask & (1 << f) != 0)
            .map(|(_, field)| *field)
    }
}

impl Index {
    /// Index `skills` (in this order), reusing the terms of skills `previous` already
    /// indexed (same `Arc`), and the bodies in `bodies` (by skill id) when given.
    pub fn build(
        skills: &[Arc<Skill>],
        previous: Option<&Index>,
        bodies: &HashMap<String, Arc<Vec<String>>>,
    ) -> Index {
        let known: HashMap<(*const Manifest, &str), &Arc<DocTerms>> = previous
            .map(|p| {
                p.docs
                    .iter()
                    .map(|d| {
                        (
                            (Arc::as_ptr(&d.skill.manifest), d.skill.name.as_str()),
                            &d.terms,
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        // Cutting skills into terms is the cost of a build: spread it over the cores.
        let missing: Vec<usize> = (0..skills.len())
            .filter(|&i| !known.contains_key(&doc_key(&skills[i])))
            .collect();
        let mut fresh: HashMap<usize, Arc<DocTerms>> =
            crate::par::map(&missing, 64, |&i| (i, Arc::new(DocTerms::of(&skills[i])))).collect();
        let mut docs = Vec::with_capacity(skills.len());
        for (i, skill) in skills.iter().enumerate() {
            let mut terms = match known.get(&doc_key(skill)) {
                Some(t) => Arc::clone(t),
                None => fresh
                    .remove(&i)
                    .unwrap_or_else(|| Arc::new(DocTerms::of(skill))),
            };
            let body = bodies.get(skill.id.as_str());
            let has_body = !terms.fields[5].is_empty();
            if body.is_some() || has_body {
                let wanted = body.map(|b| b.as_slice()).unwrap_or_default();
                if terms.fields[5] != wanted {
                    Arc::make_mut(&mut terms).fields[5] = wanted.to_vec();
                }
            }
            let lens = terms
                .fields
                .each_ref()
                .map(|f| u32::try_from(f.len()).unwrap_or(u32::MAX));
            docs.push(Doc {
                skill: Arc::clone(skill),
                terms,
                lens,
            });
        }
        let mut postings: HashMap<String, Vec<Posting>> = HashMap::new();
        let mut total = [0f64; 6];
        for (i, doc) in docs.iter().enumerate() {
            let mut tf: HashMap<&str, [u16; 6]> = HashMap::new();
            for (f, terms) in doc.terms.fields.iter().enumerate() {
                total[f] += f64::from(doc.lens[f]);
                for t in terms {
                    let slot = &mut tf.entry(t.as_str()).or_default()[f];
                    *slot = slot.saturating_add(1);
                }
            }
            let doc_id = u32::try_from(i).unwrap_or(u32::MAX);
            for (term, counts) in tf {
                // Most terms are already in the map: look up before allocating a key.
                match postings.get_mut(term) {
                    Some(list) => list.push((doc_id, counts)),
                    None => {
                        postings.insert(term.to_string(), vec![(doc_id, counts)]);
                    }
                }
            }
        }
        let avg_len = average(total, docs.len());
        Index {
            docs,
            postings,
            avg_len,
        }
    }

    pub fn len(&self) -> usize {
        self.docs.len()
    }

    pub fn skill(&self, doc: usize) -> &Arc<Skill> {
        &self.docs[doc].skill
    }

    /// The skill of document `doc`, if there is one.
    pub fn get(&self, doc: usize) -> Option<&Arc<Skill>> {
        self.docs.get(doc).map(|d| &d.skill)
    }

    /// Documents matching any term of `query`, best first (ties keep index order).
    pub fn score(&self, query: &str) -> Vec<Scored> {
        let mut terms = tokenize::terms_of(query);
        terms.sort();
        terms.dedup();
        let n = self.docs.len() as f64;
        // Dense accumulators: a query term often matches a large share of the skills, and a
        // hash map per match cost more than the scoring itself at 100,000 skills.
        let mut scores = vec![0.0f64; self.docs.len()];
        let mut masks = vec![0u8; self.docs.len()];
        let mut touched: Vec<u32> = Vec::new();
        for term in &terms {
            let Some(list) = self.postings.get(term) else {
                continue;
            };
            let idf = idf(n, list.len());
            for (doc, counts) in list {
                let i = *doc as usize;
                let (score, matched) = term_score(idf, &self.docs[i].lens, &self.avg_len, counts);
                if masks[i] == 0 {
                    touched.push(*doc);
                }
                scores[i] += score;
                masks[i] |= matched;
            }
        }
        let mut out: Vec<Scored> = touched
            .into_iter()
            .map(|doc| {
                let i = doc as usize;
                Scored {
                    doc: i,
                    score: scores[i],
                    mask: masks[i],
                }
            })
            .collect();
        sort(&mut out);
        out
    }
}

/// Each field's average length over `docs` documents, from the summed lengths (at least 1).
pub(crate) fn average(total: [f64; 6], docs: usize) -> [f64; 6] {
    let n = docs.max(1) as f64;
    total.map(|t| (t / n).max(1.0))
}

/// A term's inverse document frequency among `n` documents, `df` of which hold it.
pub(crate) fn idf(n: f64, df: usize) -> f64 {
    let df = df as f64;
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// One term's BM25F contribution to a document with field lengths `lens` where it occurs
/// `counts` times by field, and the fields it matched (bit `f` for `FIELDS[f]`).
pub(crate) fn term_score(
    idf: f64,
    lens: &[u32; 6],
    avg_len: &[f64; 6],
    counts: &[u16; 6],
) -> (f64, u8) {
    let mut tf = 0.0;
    let mut matched = 0u8;
    for (f, field) in FIELDS.iter().enumerate() {
        if counts[f] == 0 {
            continue;
        }
        matched |= 1 << f;
        let norm = 1.0 - field.b() + field.b() * f64::from(lens[f]) / avg_len[f];
        tf += field.weight() * f64::from(counts[f]) / norm;
    }
    (idf * tf / (K1 + tf), matched)
}

/// Best first; ties keep index order.
pub(crate) fn sort(scored: &mut [Scored]) {
    scored.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.doc.cmp(&b.doc)));
}

/// What identifies a skill's terms across snapshots: its shared manifest and its name.
fn doc_key(skill: &Skill) -> (*const Manifest, &str) {
    (Arc::as_ptr(&skill.manifest), skill.name.as_str())
}

/// The catalog's skills to search: model-visible ones, or every listed one.
pub fn searched(catalog: &Catalog, all: bool) -> Vec<Arc<Skill>> {
    catalog
        .skills
        .iter()
        .filter(|s| {
            if all {
                s.status.is_listed()
            } else {
                s.status.is_model_visible()
            }
        })
        .cloned()
        .collect()
}

//! Micro-benchmarks of the two hot functions of discovery: the frontmatter splitter and
//! the manifest parser (YAML + typed fields + repair). Run with `cargo bench -p skilldeck`.
//! The end-to-end suite (walk, cache, CLI, bindings, peers) is `./scripts/bench`.
//!
//! Inputs cover the shapes measured in public skills: a minimal spec example, a typical
//! file with host extensions and a body, a long folded description with non-ASCII text,
//! flow collections, a CRLF + BOM file, and one that needs the `: ` repair pass.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

const MINIMAL: &str = "---\nname: pdf-processing\ndescription: Extract text and tables from PDF files, fill forms, merge documents.\n---\n\n# PDF processing\n\nUse pdfplumber.\n";

const TYPICAL_FRONTMATTER: &str = "---
name: release-notes
description: \"Drafts release notes from merged pull requests. Use when the user asks for a \\\"changelog\\\" or release summary.\"
license: Apache-2.0
allowed-tools: Read Grep Glob Bash(git:*)
metadata:
  author: platform-team
  version: \"1.4\"
  short-description: Draft release notes
argument-hint: \"[from-tag] [to-tag]\"
user-invocable: true
source: community
risk: low
---
";

const FOLDED: &str = "---
name: translate-docs
description: >
  Translates product documentation between English, Deutsch (größe, Straße),
  日本語 and français while keeping Markdown structure, code blocks and links
  intact. Use when the user asks to localise a page, compare translations or
  check terminology against the glossary in references/glossary.md. Handles
  front matter, tables and admonitions, and reports strings it could not map.
compatibility: Requires python3 and network access
tags: [docs, i18n, translation]
metadata: { author: Jörg Müller, version: \"2.0\", priority: 3 }
requires:
  bins: [python3, pandoc]
  env: [DEEPL_API_KEY]
---
";

const NEEDS_REPAIR: &str = "---\nname: triage\ndescription: Use when: the user pastes a stack trace or asks why CI failed\nversion: 1.0\n---\n\nBody.\n";

fn with_body(frontmatter: &str, body_bytes: usize) -> String {
    let mut text = String::with_capacity(frontmatter.len() + body_bytes + 64);
    text.push_str(frontmatter);
    text.push_str("\n# Instructions\n\n");
    let paragraph = "Run the script in scripts/run.py with the input file, then review the output table and fix every flagged row before you report back.\n";
    while text.len() < frontmatter.len() + body_bytes {
        text.push_str(paragraph);
    }
    text
}

fn inputs() -> Vec<(&'static str, String)> {
    let typical = with_body(TYPICAL_FRONTMATTER, 8 * 1024);
    let crlf_bom = format!("\u{feff}{}", typical.replace('\n', "\r\n"));
    vec![
        ("minimal", MINIMAL.to_string()),
        // The same frontmatter with and without a body: parsing must not depend on the body.
        ("typical-no-body", with_body(TYPICAL_FRONTMATTER, 0)),
        ("typical-8k-body", typical),
        ("folded-flow-nonascii", with_body(FOLDED, 2 * 1024)),
        ("crlf-bom", crlf_bom),
        ("needs-repair", NEEDS_REPAIR.to_string()),
    ]
}

fn splitter(c: &mut Criterion) {
    let mut group = c.benchmark_group("frontmatter-split");
    for (label, text) in inputs() {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(label), &text, |b, text| {
            b.iter(|| skilldeck::split_frontmatter(black_box(text)))
        });
    }
    group.finish();
}

fn manifest(c: &mut Criterion) {
    let mut group = c.benchmark_group("manifest-parse");
    for (label, text) in inputs() {
        group.bench_with_input(BenchmarkId::from_parameter(label), &text, |b, text| {
            b.iter(|| skilldeck::parse(black_box(text)))
        });
    }
    group.finish();
}

fn read_prefix(c: &mut Criterion) {
    // A 40 KB file: discovery must read only the frontmatter prefix, so this should cost
    // about the same as a small file.
    let dir = std::env::temp_dir().join(format!("skilldeck-bench-{}", std::process::id()));
    let path = dir.join("SKILL.md");
    let written = std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::write(&path, with_body(TYPICAL_FRONTMATTER, 40 * 1024)));
    if let Err(err) = written {
        eprintln!("skipping read_frontmatter benchmark: {err}");
        return;
    }
    c.bench_function("read-frontmatter/40k-file", |b| {
        b.iter(|| skilldeck::read_frontmatter(black_box(&path)))
    });
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, splitter, manifest, read_prefix);
criterion_main!(benches);

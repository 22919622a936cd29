//! Terms for the search index: the same function cuts documents and queries.
//!
//! - Letters and digits form words; everything else separates them, so `pdf-tools`,
//!   `pdf_tools` and `pdf tools` give the same terms. A word written in camelCase also
//!   gives its parts (`PdfTools` → `pdftools`, `pdf`, `tools`).
//! - Words are lowercased, a few English function words are dropped, and the rest are
//!   stemmed with Snowball's English stemmer (`filling`, `fills` → `fill`).
//! - Chinese, Japanese and Korean text has no spaces between words: each such character is a
//!   term, and so is each pair of adjacent ones (`提取文本` → `提`, `取`, … and `提取`,
//!   `取文`, `文本`), the usual way to index CJK text without a dictionary.

use rust_stemmers::{Algorithm, Stemmer};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Words too common in skill descriptions to tell skills apart ("Use when the user asks…").
const STOPWORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "if", "in", "is", "it", "its",
    "of", "on", "or", "that", "the", "this", "to", "use", "used", "when", "with", "you", "your",
];

fn stemmer() -> &'static Stemmer {
    static STEMMER: OnceLock<Stemmer> = OnceLock::new();
    STEMMER.get_or_init(|| Stemmer::create(Algorithm::English))
}

/// Han, kana, Hangul and their common blocks.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF   // Hiragana, Katakana
        | 0x3400..=0x4DBF // CJK Extension A
        | 0x4E00..=0x9FFF // CJK Unified Ideographs
        | 0xAC00..=0xD7AF // Hangul syllables
        | 0x1100..=0x11FF // Hangul Jamo
        | 0xF900..=0xFAFF // CJK Compatibility Ideographs
        | 0x20000..=0x2FA1F)
}

/// Append the terms of `text` to `out`.
pub fn terms(text: &str, out: &mut Vec<String>) {
    let mut word = String::new();
    let mut cjk: Option<char> = None;
    for c in text.chars() {
        if is_cjk(c) {
            flush_word(&mut word, out);
            out.push(c.to_string());
            if let Some(prev) = cjk {
                out.push([prev, c].iter().collect());
            }
            cjk = Some(c);
        } else if c.is_alphanumeric() {
            cjk = None;
            word.push(c);
        } else {
            cjk = None;
            flush_word(&mut word, out);
        }
    }
    flush_word(&mut word, out);
}

/// The terms of `text` as a new vector.
pub fn terms_of(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    terms(text, &mut out);
    out
}

fn flush_word(word: &mut String, out: &mut Vec<String>) {
    if word.is_empty() {
        return;
    }
    let parts = camel_parts(word);
    push_word(&word.to_lowercase(), out);
    if parts.len() > 1 {
        for part in parts {
            push_word(&part.to_lowercase(), out);
        }
    }
    word.clear();
}

/// Stems already computed on this thread: skill texts repeat their words, and a lookup costs
/// a small fraction of a Snowball run. Bounded, so a huge corpus cannot grow it forever.
const MEMO_LIMIT: usize = 200_000;

thread_local! {
    static MEMO: RefCell<HashMap<String, String>> = RefCell::new(HashMap::new());
}

fn push_word(lower: &str, out: &mut Vec<String>) {
    if STOPWORDS.contains(&lower) {
        return;
    }
    let stem = MEMO.with(|memo| {
        let mut memo = memo.borrow_mut();
        if let Some(stem) = memo.get(lower) {
            return stem.clone();
        }
        let stem = stemmer().stem(lower).into_owned();
        if memo.len() >= MEMO_LIMIT {
            memo.clear();
        }
        memo.insert(lower.to_string(), stem.clone());
        stem
    });
    out.push(stem);
}

/// `PdfToText` → `Pdf`, `To`, `Text`; `HTMLParser` → `HTML`, `Parser`; digits stay with the
/// letters before them.
fn camel_parts(word: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    let mut parts = Vec::new();
    let mut start = 0;
    for i in 1..chars.len() {
        let (at, c) = chars[i];
        let prev = chars[i - 1].1;
        let next_lower = chars.get(i + 1).is_some_and(|(_, n)| n.is_lowercase());
        let boundary =
            c.is_uppercase() && (prev.is_lowercase() || (prev.is_uppercase() && next_lower));
        if boundary {
            parts.push(&word[start..at]);
            start = at;
        }
    }
    parts.push(&word[start..]);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_split_lowered_and_stemmed() {
        assert_eq!(terms_of("Fill PDF forms"), ["fill", "pdf", "form"]);
        assert_eq!(terms_of("pdf-tools"), ["pdf", "tool"]);
        assert_eq!(terms_of("Use when the user asks"), ["user", "ask"]);
        assert_eq!(terms_of("PdfTools"), ["pdftool", "pdf", "tool"]);
        assert_eq!(
            terms_of("HTMLParser v2"),
            ["htmlparser", "html", "parser", "v2"]
        );
    }

    #[test]
    fn cjk_gives_characters_and_pairs() {
        assert_eq!(
            terms_of("提取PDF文本"),
            ["提", "取", "提取", "pdf", "文", "本", "文本"]
        );
        assert_eq!(terms_of("データ"), ["デ", "ー", "デー", "タ", "ータ"]);
    }

    #[test]
    fn non_latin_words() {
        assert_eq!(terms_of("Résumé écrire"), ["résumé", "écrire"]);
        assert!(terms_of("  --- ").is_empty());
    }
}

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
    for_each_term(text, &mut |term| out.push(term.to_owned()));
}

/// The terms of `text` as a new vector.
pub fn terms_of(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    terms(text, &mut out);
    out
}

/// Hand each term of `text` to `emit`, in order, without allocating one: a word is a slice
/// of `text`, an ASCII word (nearly every word of a skill) is lowercased and split at its
/// camelCase boundaries in a reused buffer, and a stem comes from the per-thread memo.
/// A one-shot search scores a whole tree through this without keeping its terms.
pub(crate) fn for_each_term(text: &str, emit: &mut impl FnMut(&str)) {
    let mut word_start: Option<usize> = None;
    // Where the previous character started, when it was CJK: a pair is the slice from there.
    let mut cjk_start: Option<usize> = None;
    let mut lower = String::new();
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        // ASCII, most of any skill's text, is told apart without decoding a character; for
        // it `char::is_alphanumeric` is `is_ascii_alphanumeric` and none of it is CJK.
        if b.is_ascii() {
            cjk_start = None;
            if b.is_ascii_alphanumeric() {
                word_start.get_or_insert(at);
            } else if let Some(start) = word_start.take() {
                word(text.get(start..at).unwrap_or_default(), &mut lower, emit);
            }
            at += 1;
            continue;
        }
        let Some(c) = text.get(at..).and_then(|rest| rest.chars().next()) else {
            break;
        };
        let end = at + c.len_utf8();
        if is_cjk(c) {
            if let Some(start) = word_start.take() {
                word(text.get(start..at).unwrap_or_default(), &mut lower, emit);
            }
            emit(text.get(at..end).unwrap_or_default());
            if let Some(prev) = cjk_start {
                emit(text.get(prev..end).unwrap_or_default());
            }
            cjk_start = Some(at);
        } else if c.is_alphanumeric() {
            cjk_start = None;
            word_start.get_or_insert(at);
        } else {
            cjk_start = None;
            if let Some(start) = word_start.take() {
                word(text.get(start..at).unwrap_or_default(), &mut lower, emit);
            }
        }
        at = end;
    }
    if let Some(start) = word_start {
        word(text.get(start..).unwrap_or_default(), &mut lower, emit);
    }
}

/// The terms of one word: the whole word lowercased, then its camelCase parts when it has
/// more than one.
fn word(word: &str, lower: &mut String, emit: &mut impl FnMut(&str)) {
    if word.is_empty() {
        return;
    }
    if !word.is_ascii() {
        // Lowercasing may change lengths (and `Σ` depends on its neighbours), so each part
        // is lowercased on its own, as written.
        let parts = camel_parts(word);
        push_word(&word.to_lowercase(), emit);
        if parts.len() > 1 {
            for part in parts {
                push_word(&part.to_lowercase(), emit);
            }
        }
        return;
    }
    // ASCII: lowercasing keeps every byte in place, so a part's lowercase is the same slice
    // of the lowercased word, and `char::is_uppercase`/`is_lowercase` are the ASCII tests.
    // Without a capital (most words) the word is its own lowercase and has one part.
    if !word.bytes().any(|b| b.is_ascii_uppercase()) {
        push_word(word, emit);
        return;
    }
    lower.clear();
    lower.push_str(word);
    lower.make_ascii_lowercase();
    let lower = lower.as_str();
    push_word(lower, emit);
    let b = word.as_bytes();
    let boundary = |i: usize| {
        let (prev, c) = (b[i - 1], b[i]);
        let next_lower = b.get(i + 1).is_some_and(u8::is_ascii_lowercase);
        c.is_ascii_uppercase()
            && (prev.is_ascii_lowercase() || (prev.is_ascii_uppercase() && next_lower))
    };
    if !(1..b.len()).any(boundary) {
        return;
    }
    let mut start = 0;
    for i in 1..b.len() {
        if boundary(i) {
            push_word(lower.get(start..i).unwrap_or_default(), emit);
            start = i;
        }
    }
    push_word(lower.get(start..).unwrap_or_default(), emit);
}

/// Stems already computed on this thread: skill texts repeat their words, and a lookup costs
/// a small fraction of a Snowball run. Bounded, so a huge corpus cannot grow it forever.
const MEMO_LIMIT: usize = 200_000;

thread_local! {
    static MEMO: RefCell<HashMap<String, String, WordHashes>> =
        RefCell::new(HashMap::with_hasher(WordHashes::new()));
}

/// The memo's hash. A word is looked up once per occurrence and is short, where SipHash
/// was a fifth of tokenising's instructions; this is FxHash's multiply-rotate from a random
/// seed per thread, so which words share a bucket is not known to whoever wrote the skills.
#[derive(Clone, Copy)]
struct WordHashes {
    seed: u64,
}

impl WordHashes {
    fn new() -> WordHashes {
        use std::hash::BuildHasher;
        WordHashes {
            seed: std::collections::hash_map::RandomState::new().hash_one(0x5eed_u64),
        }
    }
}

impl std::hash::BuildHasher for WordHashes {
    type Hasher = WordHash;
    fn build_hasher(&self) -> WordHash {
        WordHash(self.seed)
    }
}

struct WordHash(u64);

impl WordHash {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl std::hash::Hasher for WordHash {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            for (to, from) in word.iter_mut().zip(rest) {
                *to = *from;
            }
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    fn finish(&self) -> u64 {
        // The product's high bits are its best mixed; the table indexes by the low ones.
        self.0.rotate_left(26)
    }
}

/// The longest stopword's length: longer words skip the list.
const STOPWORD_MAX_LEN: usize = 4;

fn is_stopword(lower: &str) -> bool {
    lower.len() <= STOPWORD_MAX_LEN && STOPWORDS.contains(&lower)
}

fn push_word(lower: &str, emit: &mut impl FnMut(&str)) {
    if is_stopword(lower) {
        return;
    }
    MEMO.with(|memo| {
        // Only `emit` could borrow it again (it never tokenises); stem without the memo then.
        let Ok(mut memo) = memo.try_borrow_mut() else {
            emit(&stemmer().stem(lower));
            return;
        };
        if let Some(stem) = memo.get(lower) {
            emit(stem);
            return;
        }
        let stem = stemmer().stem(lower).into_owned();
        if memo.len() >= MEMO_LIMIT {
            memo.clear();
        }
        emit(&stem);
        memo.insert(lower.to_owned(), stem);
    });
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
    fn stopwords_fit_the_length_check() {
        assert!(STOPWORDS.iter().all(|w| w.len() <= STOPWORD_MAX_LEN));
    }

    /// The tokeniser as it was before words became slices and ASCII got its own path: the
    /// terms must not change (indexes and one-shot scans agree with earlier rankings).
    fn reference(text: &str) -> Vec<String> {
        fn flush(word: &mut String, out: &mut Vec<String>) {
            if word.is_empty() {
                return;
            }
            let parts = camel_parts(word);
            let mut push = |lower: &str| {
                if !STOPWORDS.contains(&lower) {
                    out.push(stemmer().stem(lower).into_owned());
                }
            };
            push(&word.to_lowercase());
            if parts.len() > 1 {
                for part in parts {
                    push(&part.to_lowercase());
                }
            }
            word.clear();
        }
        let mut out = Vec::new();
        let mut word = String::new();
        let mut cjk: Option<char> = None;
        for c in text.chars() {
            if is_cjk(c) {
                flush(&mut word, &mut out);
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
                flush(&mut word, &mut out);
            }
        }
        flush(&mut word, &mut out);
        out
    }

    #[test]
    fn same_terms_as_the_reference() {
        for text in [
            "PdfToText HTMLParser v2 XMLHttpRequest iOS ABCdef aB Ab A",
            "Use when the user asks for a Data-Report pipeline; fills FORMS",
            "Résumé ÉCRIRE naïveCafé ΣΊΣΥΦΟΣ ὈΔΥΣΣΕΎΣ İstanbul ǅemal ﬁle",
            "提取PDF文本 データ分析 한국어Text x提y 𠀀𠀁",
            "camelCaseÜber ÜberCamel snake_case kebab-case 123abc ABC123Def",
            "",
            "  --- ",
        ] {
            assert_eq!(terms_of(text), reference(text), "{text:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn same_terms_as_the_reference_for_any_text(
            text in "([a-zA-Z0-9 _.-]|[ÀÉßİıΣσςǅ]|[提取文本]|[データ]|[😀\\u{0300}])*"
        ) {
            proptest::prop_assert_eq!(terms_of(&text), reference(&text));
        }
    }

    #[test]
    fn non_latin_words() {
        assert_eq!(terms_of("Résumé écrire"), ["résumé", "écrire"]);
        assert!(terms_of("  --- ").is_empty());
    }
}

//! One frontmatter value as PyYAML's `SafeLoader` builds it, and Python's `str()` of it.
//!
//! OpenHands SDK 1.44.1 names a skill `str(metadata.get("name", default))`
//! (`openhands/sdk/skills/skill.py` `_load_legacy_openhands_skill`,
//! `_load_agentskills_skill`), the metadata read by python-frontmatter with PyYAML 6.0
//! (`yaml/constructor.py` `SafeConstructor`, `yaml/resolver.py` implicit resolvers). So
//! `name: 0x1f` is the skill `31`, `name: [a]` the skill `['a']`. This module builds the
//! Python value ([`PyValue`]) from the YAML events and prints it as CPython 3.12 does
//! (`str`/`repr` of `None`, `bool`, `int`, `float`, `datetime.date`, `datetime.datetime`,
//! `str`, `list`, `dict`).

use granit_parser::{Event, Parser, ScalarStyle, Tag};
use std::fmt::Write;

/// A value as PyYAML's safe constructor returns it.
#[derive(Clone, Debug, PartialEq)]
pub enum PyValue {
    None,
    Bool(bool),
    /// Decimal digits with a leading `-` when negative (Python ints are unbounded).
    Int(String),
    Float(f64),
    Date(Date),
    DateTime(DateTime),
    Str(String),
    List(Vec<PyValue>),
    /// In insertion order, as a Python dict keeps it.
    Dict(Vec<(PyValue, PyValue)>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Date {
    pub year: u16,
    pub month: u8,
    pub day: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DateTime {
    pub date: Date,
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
    pub microsecond: u32,
    /// The UTC offset in minutes; `None` for a naive datetime.
    pub offset_minutes: Option<i32>,
}

/// The value of the last top-level `key` of the YAML mapping `yaml`, built as PyYAML's
/// `SafeLoader` builds it. `None` when the text has no such key, or holds something this
/// module does not build (a tag other than the core ones, a merge key or an unhashable key
/// in a nested mapping, a date Python refuses): the caller keeps its own reading then.
pub fn value_of(yaml: &str, key: &str) -> Option<PyValue> {
    let mut builder = Builder {
        events: Parser::new_from_str(yaml),
        anchors: Vec::new(),
        budget: MAX_EVENTS,
    };
    loop {
        match builder.next()? {
            Event::MappingStart(..) => break,
            Event::StreamStart | Event::DocumentStart(..) => {}
            _ => return None,
        }
    }
    let mut found = None;
    loop {
        let event = builder.next()?;
        if matches!(event, Event::MappingEnd) {
            return found;
        }
        let k = builder.node(event, 0)?;
        let value_event = builder.next()?;
        let v = builder.node(value_event, 0)?;
        if k == PyValue::Str(key.to_string()) {
            found = Some(v);
        }
    }
}

/// Python's `str()` of the `name` of `text`'s frontmatter as the host of `dialect` reads
/// it, or `None` (no block, no `name`, or a value [`value_of`] does not build).
pub fn name_str(text: &str, dialect: &super::Dialect) -> Option<String> {
    let yaml = super::hosts::yaml_text(text, dialect)?;
    value_of(&yaml, "name").map(|v| to_str(&v))
}

/// A bound on the events read for one value: a frontmatter is small, and aliases are
/// replayed from stored values, so this only stops a hostile file early.
const MAX_EVENTS: usize = 100_000;
const MAX_DEPTH: usize = 64;

struct Builder<'a> {
    events: Parser<'a, granit_parser::StrInput<'a>>,
    /// Anchored values by anchor id (ids count from 1).
    anchors: Vec<(usize, PyValue)>,
    budget: usize,
}

impl<'a> Builder<'a> {
    fn next(&mut self) -> Option<Event<'a>> {
        self.budget = self.budget.checked_sub(1)?;
        self.events.next()?.ok().map(|(event, _)| event)
    }

    fn node(&mut self, event: Event<'a>, depth: usize) -> Option<PyValue> {
        if depth > MAX_DEPTH {
            return None;
        }
        let (value, anchor) = match event {
            Event::Alias(id) => {
                return self
                    .anchors
                    .iter()
                    .rev()
                    .find(|(a, _)| *a == id)
                    .map(|(_, v)| v.clone())
            }
            Event::Scalar(text, style, anchor, tag) => {
                (scalar(&text, style, tag.as_deref())?, anchor)
            }
            Event::SequenceStart(_, anchor, tag) => {
                if !core_tag(tag.as_deref(), "seq") {
                    return None;
                }
                let mut items = Vec::new();
                loop {
                    let event = self.next()?;
                    if matches!(event, Event::SequenceEnd) {
                        break;
                    }
                    items.push(self.node(event, depth + 1)?);
                }
                (PyValue::List(items), anchor)
            }
            Event::MappingStart(_, anchor, tag) => {
                if !core_tag(tag.as_deref(), "map") {
                    return None;
                }
                let mut pairs: Vec<(PyValue, PyValue)> = Vec::new();
                loop {
                    let event = self.next()?;
                    if matches!(event, Event::MappingEnd) {
                        break;
                    }
                    let merge = matches!(&event, Event::Scalar(t, ScalarStyle::Plain, _, None) if t == "<<");
                    let k = self.node(event, depth + 1)?;
                    let event = self.next()?;
                    let v = self.node(event, depth + 1)?;
                    // `<<` merges (SafeConstructor.flatten_mapping) and a list or dict as a key
                    // (TypeError: unhashable) are not built here.
                    if merge || matches!(k, PyValue::List(_) | PyValue::Dict(_)) {
                        return None;
                    }
                    // A repeated key keeps its first place and takes the last value. Python's
                    // `1 == 1.0 == True` equality across types is not followed.
                    match pairs.iter_mut().find(|(old, _)| *old == k) {
                        Some(slot) => slot.1 = v,
                        None => pairs.push((k, v)),
                    }
                }
                (PyValue::Dict(pairs), anchor)
            }
            _ => return None,
        };
        if anchor != 0 {
            self.anchors.push((anchor, value.clone()));
        }
        Some(value)
    }
}

/// No tag, `!` (non-specific), or the core schema's `tag:yaml.org,2002:KIND`.
fn core_tag(tag: Option<&Tag>, kind: &str) -> bool {
    match tag {
        None => true,
        Some(t) => (t.handle() == "!" && t.suffix().is_empty()) || t.is_yaml_core_schema_tag(kind),
    }
}

fn scalar(text: &str, style: ScalarStyle, tag: Option<&Tag>) -> Option<PyValue> {
    let Some(tag) = tag else {
        return if style == ScalarStyle::Plain {
            resolve(text)
        } else {
            Some(PyValue::Str(text.to_string()))
        };
    };
    if tag.handle() == "!" && tag.suffix().is_empty() {
        return Some(PyValue::Str(text.to_string()));
    }
    if !tag.is_yaml_core_schema() {
        return None;
    }
    // An explicit core tag: the constructor of that kind, whatever the style.
    let typed = resolve(text)?;
    let ok = match (tag.suffix(), &typed) {
        ("str", _) => return Some(PyValue::Str(text.to_string())),
        ("null", PyValue::None) | ("bool", PyValue::Bool(_)) | ("int", PyValue::Int(_)) => true,
        ("float", PyValue::Float(_)) => true,
        ("float", PyValue::Int(_)) => return float(text).map(PyValue::Float),
        ("timestamp", PyValue::Date(_) | PyValue::DateTime(_)) => true,
        _ => false,
    };
    ok.then_some(typed)
}

/// PyYAML's implicit resolvers (YAML 1.1) on a plain scalar, then its constructor; `None`
/// where the constructor raises (`2024-13-01`, `0b_`).
pub fn resolve(text: &str) -> Option<PyValue> {
    Some(match super::yaml::yaml_1_1_tag(text) {
        Some(Kind::Null) => PyValue::None,
        Some(Kind::Bool(b)) => PyValue::Bool(b),
        Some(Kind::Int) => PyValue::Int(int(text)?),
        Some(Kind::Float) => PyValue::Float(float(text)?),
        Some(Kind::Timestamp) => timestamp(text)?,
        None => PyValue::Str(text.to_string()),
    })
}

/// What PyYAML's implicit resolvers make of a plain scalar (see [`super::yaml::yaml_1_1_tag`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Null,
    Bool(bool),
    Int,
    Float,
    Timestamp,
}

/// `SafeConstructor.construct_yaml_int`: `_` dropped, sign, then `0b`, `0x`, a leading `0`
/// (octal) or base 60 (`1:20` is 80).
fn int(text: &str) -> Option<String> {
    let clean = text.replace('_', "");
    let (negative, digits) = match clean.as_bytes().first()? {
        b'-' => (true, &clean[1..]),
        b'+' => (false, &clean[1..]),
        _ => (false, &clean[..]),
    };
    if !within_python_int_limit(digits) {
        return None;
    }
    let mut n = BigUint::default();
    if digits == "0" {
    } else if let Some(bin) = digits.strip_prefix("0b") {
        n.push_digits(bin, 2)?;
    } else if let Some(hex) = digits.strip_prefix("0x") {
        n.push_digits(hex, 16)?;
    } else if digits.starts_with('0') {
        n.push_digits(digits, 8)?;
    } else if digits.contains(':') {
        for part in digits.split(':') {
            n.mul_add(60, 0);
            let mut p = BigUint::default();
            p.push_digits(part, 10)?;
            n.add(&p);
        }
    } else {
        n.push_digits(digits, 10)?;
    }
    let decimal = n.to_decimal();
    if decimal.len() > PYTHON_INT_MAX_STR_DIGITS {
        return None;
    }
    Some(if negative && decimal != "0" {
        format!("-{decimal}")
    } else {
        decimal
    })
}

/// CPython's `sys.get_int_max_str_digits()` default (3.11+): `int()` of a longer decimal
/// string and `str()` of an int with more decimal digits raise `ValueError`, so no name
/// comes from such a value (the host fails on that file).
const PYTHON_INT_MAX_STR_DIGITS: usize = 4300;

/// Whether `digits` (sign and `_` removed) can give an int CPython converts from and back to
/// text. Checked before the conversion, which is quadratic in the digits: the frontmatter
/// may hold 64 KiB of them.
fn within_python_int_limit(digits: &str) -> bool {
    // Significant digits in `radix` and how many decimal digits each is worth, rounded up
    // so that nothing CPython accepts is refused; the exact check follows the conversion.
    let significant = |rest: &str| rest.trim_start_matches('0').len();
    let (count, log10_radix) = if let Some(bin) = digits.strip_prefix("0b") {
        (significant(bin), 0.302)
    } else if let Some(hex) = digits.strip_prefix("0x") {
        (significant(hex), 1.205)
    } else if digits.starts_with('0') {
        (significant(digits), 0.904)
    } else if digits.contains(':') {
        // Base 60: each part past the first multiplies by 60 (1.78 decimal digits).
        let parts = digits.split(':').count();
        return parts.saturating_mul(2) <= PYTHON_INT_MAX_STR_DIGITS
            && digits
                .split(':')
                .all(|p| p.len() <= PYTHON_INT_MAX_STR_DIGITS);
    } else {
        // CPython counts every digit of a decimal string, leading zeros too.
        return digits.len() <= PYTHON_INT_MAX_STR_DIGITS;
    };
    count as f64 * log10_radix <= PYTHON_INT_MAX_STR_DIGITS as f64 + 1.0
}

/// An unbounded natural number, base 10^9 limbs, least significant first.
#[derive(Default)]
struct BigUint(Vec<u32>);

const LIMB: u64 = 1_000_000_000;

impl BigUint {
    fn mul_add(&mut self, mul: u64, add: u64) {
        let mut carry = add;
        for limb in &mut self.0 {
            let v = u64::from(*limb) * mul + carry;
            *limb = (v % LIMB) as u32;
            carry = v / LIMB;
        }
        while carry > 0 {
            self.0.push((carry % LIMB) as u32);
            carry /= LIMB;
        }
    }

    fn add(&mut self, other: &BigUint) {
        let mut carry = 0u64;
        for i in 0..self.0.len().max(other.0.len()) {
            let v = u64::from(self.0.get(i).copied().unwrap_or(0))
                + u64::from(other.0.get(i).copied().unwrap_or(0))
                + carry;
            match self.0.get_mut(i) {
                Some(limb) => *limb = (v % LIMB) as u32,
                None => self.0.push((v % LIMB) as u32),
            }
            carry = v / LIMB;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    /// Append `digits` in `radix` (Python's `int(digits, radix)`: at least one digit).
    fn push_digits(&mut self, digits: &str, radix: u32) -> Option<()> {
        if digits.is_empty() {
            return None;
        }
        for c in digits.chars() {
            let d = c.to_digit(radix)?;
            self.mul_add(u64::from(radix), u64::from(d));
        }
        Some(())
    }

    fn to_decimal(&self) -> String {
        let mut limbs = self.0.iter().rev().skip_while(|l| **l == 0);
        let Some(first) = limbs.next() else {
            return "0".into();
        };
        let mut out = first.to_string();
        for limb in limbs {
            let _ = write!(out, "{limb:09}");
        }
        out
    }
}

/// `SafeConstructor.construct_yaml_float`: `_` dropped, lower-cased, `.inf`/`.nan`, base 60
/// summed from the last part as Python sums it, else `float(text)`.
fn float(text: &str) -> Option<f64> {
    let clean = text.replace('_', "").to_lowercase();
    let (sign, body) = match clean.as_bytes().first()? {
        b'-' => (-1.0, &clean[1..]),
        b'+' => (1.0, &clean[1..]),
        _ => (1.0, &clean[..]),
    };
    if body == ".inf" {
        return Some(sign * f64::INFINITY);
    }
    if body == ".nan" {
        return Some(f64::NAN);
    }
    if body.contains(':') {
        let mut value = 0.0;
        let mut base = 1.0;
        for part in body.rsplit(':') {
            value += py_float(part)? * base;
            base *= 60.0;
        }
        return Some(sign * value);
    }
    py_float(body).map(|f| sign * f)
}

/// Python's `float()` of the digits PyYAML's float pattern lets through (`1.`, `.5`, `1.e+5`).
fn py_float(text: &str) -> Option<f64> {
    let fixed = text.replace(".e", ".0e");
    let fixed = if fixed.ends_with('.') {
        format!("{fixed}0")
    } else {
        fixed
    };
    fixed.parse().ok()
}

/// `SafeConstructor.construct_yaml_timestamp`; `None` where Python's `date`/`datetime`/
/// `timezone` raise (month 13, hour 24, an offset of a day or more, year 0).
fn timestamp(text: &str) -> Option<PyValue> {
    let (date, rest) = match text.find(['T', 't', ' ', '\t']) {
        Some(i) => (
            &text[..i],
            Some(text[i..].trim_start_matches(['T', 't', ' ', '\t'])),
        ),
        None => (text, None),
    };
    let mut parts = date.splitn(3, '-');
    let year: u16 = parts.next()?.parse().ok()?;
    let month: u8 = parts.next()?.parse().ok()?;
    let day: u8 = parts.next()?.parse().ok()?;
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    let days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if year == 0 || !(1..=12).contains(&month) || day == 0 || day > days[usize::from(month - 1)] {
        return None;
    }
    let date = Date { year, month, day };
    let Some(rest) = rest else {
        return Some(PyValue::Date(date));
    };
    // hh:mm:ss[.fraction][ws][Z|±h[h][:mm]]
    let tz_at = rest.find(['Z', '+', '-', ' ', '\t']).unwrap_or(rest.len());
    let (clock, tz) = rest.split_at(tz_at);
    let (hms, fraction) = clock.split_once('.').unwrap_or((clock, ""));
    let mut hms = hms.split(':');
    let hour: u8 = hms.next()?.parse().ok()?;
    let minute: u8 = hms.next()?.parse().ok()?;
    let second: u8 = hms.next()?.parse().ok()?;
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let micro: String = fraction.chars().take(6).collect();
    let microsecond = if micro.is_empty() {
        0
    } else {
        format!("{micro:0<6}").parse().ok()?
    };
    let tz = tz.trim_start_matches([' ', '\t']);
    let offset_minutes = match tz.as_bytes().first() {
        None => None,
        Some(b'Z') => Some(0),
        Some(sign) => {
            let (h, m) = tz[1..].split_once(':').unwrap_or((&tz[1..], "0"));
            let minutes = i32::from(h.parse::<u8>().ok()?) * 60 + i32::from(m.parse::<u8>().ok()?);
            if minutes >= 24 * 60 {
                return None;
            }
            Some(if *sign == b'-' { -minutes } else { minutes })
        }
    };
    Some(PyValue::DateTime(DateTime {
        date,
        hour,
        minute,
        second,
        microsecond,
        offset_minutes,
    }))
}

/// Python's `str(value)`.
pub fn to_str(value: &PyValue) -> String {
    match value {
        PyValue::Str(s) => s.clone(),
        PyValue::Date(d) => date_str(d),
        PyValue::DateTime(dt) => {
            let mut out = format!(
                "{} {:02}:{:02}:{:02}",
                date_str(&dt.date),
                dt.hour,
                dt.minute,
                dt.second
            );
            if dt.microsecond != 0 {
                let _ = write!(out, ".{:06}", dt.microsecond);
            }
            if let Some(offset) = dt.offset_minutes {
                let sign = if offset < 0 { '-' } else { '+' };
                let a = offset.unsigned_abs();
                let _ = write!(out, "{sign}{:02}:{:02}", a / 60, a % 60);
            }
            out
        }
        other => repr(other),
    }
}

fn date_str(d: &Date) -> String {
    format!("{:04}-{:02}-{:02}", d.year, d.month, d.day)
}

/// Python's `repr(value)`.
pub fn repr(value: &PyValue) -> String {
    let mut out = String::new();
    repr_into(value, &mut out);
    out
}

fn repr_into(value: &PyValue, out: &mut String) {
    match value {
        PyValue::None => out.push_str("None"),
        PyValue::Bool(true) => out.push_str("True"),
        PyValue::Bool(false) => out.push_str("False"),
        PyValue::Int(digits) => out.push_str(digits),
        PyValue::Float(f) => out.push_str(&float_repr(*f)),
        PyValue::Str(s) => crate::compat::pystr::repr_str_into(s, out),
        PyValue::Date(d) => {
            let _ = write!(out, "datetime.date({}, {}, {})", d.year, d.month, d.day);
        }
        PyValue::DateTime(dt) => {
            let d = dt.date;
            let _ = write!(
                out,
                "datetime.datetime({}, {}, {}, {}, {}",
                d.year, d.month, d.day, dt.hour, dt.minute
            );
            // CPython leaves out a zero microsecond, then a zero second.
            if dt.microsecond != 0 {
                let _ = write!(out, ", {}, {}", dt.second, dt.microsecond);
            } else if dt.second != 0 {
                let _ = write!(out, ", {}", dt.second);
            }
            match dt.offset_minutes {
                None => {}
                Some(0) => out.push_str(", tzinfo=datetime.timezone.utc"),
                Some(m) => {
                    // timedelta normalises to whole days (possibly negative) and seconds in
                    // [0, 86400).
                    let seconds = i64::from(m) * 60;
                    let (days, secs) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
                    out.push_str(", tzinfo=datetime.timezone(datetime.timedelta(");
                    match (days, secs) {
                        (0, s) => {
                            let _ = write!(out, "seconds={s}");
                        }
                        (d, 0) => {
                            let _ = write!(out, "days={d}");
                        }
                        (d, s) => {
                            let _ = write!(out, "days={d}, seconds={s}");
                        }
                    }
                    out.push_str("))");
                }
            }
            out.push(')');
        }
        PyValue::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                repr_into(item, out);
            }
            out.push(']');
        }
        PyValue::Dict(pairs) => {
            out.push('{');
            for (i, (k, v)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                repr_into(k, out);
                out.push_str(": ");
                repr_into(v, out);
            }
            out.push('}');
        }
    }
}

/// `repr(float)`: the shortest digits that round-trip (`float_repr_style = 'short'`), in
/// exponent form when the decimal point falls more than 16 places right or 4 places left of
/// the first digit.
pub fn float_repr(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf" } else { "-inf" }.into();
    }
    // Rust's `{:e}` prints the same shortest round-trip digits: `d[.ddd]e[-]x`.
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    // The decimal point's place counted from the left of the digits (CPython's `decpt`).
    let decpt = exp + 1;
    let n = i32::try_from(digits.len()).unwrap_or(i32::MAX);
    if !(-3..=16).contains(&decpt) {
        let mut out = format!("{sign}{}", &digits[..1]);
        if digits.len() > 1 {
            let _ = write!(out, ".{}", &digits[1..]);
        }
        let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
        return out;
    }
    if decpt <= 0 {
        let zeros = "0".repeat(decpt.unsigned_abs() as usize);
        return format!("{sign}0.{zeros}{digits}");
    }
    if decpt >= n {
        let zeros = "0".repeat((decpt - n) as usize);
        return format!("{sign}{digits}{zeros}.0");
    }
    let (int, frac) = digits.split_at(decpt as usize);
    format!("{sign}{int}.{frac}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `str()` of the `name` value of a one-key frontmatter.
    fn name(yaml_value: &str) -> String {
        let v = value_of(&format!("name: {yaml_value}\n"), "name")
            .unwrap_or_else(|| panic!("{yaml_value:?} built nothing"));
        to_str(&v)
    }

    // Every expected string below was printed by CPython 3.12.1 with PyYAML 6.0.3:
    // `print(str(yaml.safe_load("name: " + VALUE)["name"]))`.
    #[test]
    fn null_bool_and_text() {
        for (yaml, python) in [
            ("null", "None"),
            ("~", "None"),
            ("", "None"),
            ("NULL", "None"),
            ("true", "True"),
            ("yes", "True"),
            ("On", "True"),
            ("Off", "False"),
            ("n", "n"),
            ("\"\"", ""),
            ("'0x1f'", "0x1f"),
            ("!!str 42", "42"),
            ("Plain Name", "Plain Name"),
            ("|\n  multi\n  line", "multi\nline\n"),
        ] {
            assert_eq!(name(yaml), python, "{yaml}");
        }
    }

    #[test]
    fn integers_in_every_form() {
        for (yaml, python) in [
            ("42", "42"),
            ("-7", "-7"),
            ("+12", "12"),
            ("-0", "0"),
            ("017", "15"),
            ("0o17", "0o17"),
            ("0x1f", "31"),
            ("0x_1F", "31"),
            ("0b101", "5"),
            ("1:20", "80"),
            ("-1:30:00", "-5400"),
            ("1_000", "1000"),
            (
                "123456789012345678901234567890",
                "123456789012345678901234567890",
            ),
            ("0xffffffffffffffffffff", "1208925819614629174706175"),
            (
                "-0b1111111111111111111111111111111111111111111111111111111111111111",
                "-18446744073709551615",
            ),
            ("0", "0"),
            ("!!int 0x10", "16"),
        ] {
            assert_eq!(name(yaml), python, "{yaml}");
        }
    }

    #[test]
    fn floats_print_as_python_repr() {
        for (yaml, python) in [
            ("1.50", "1.5"),
            ("1.", "1.0"),
            (".5", "0.5"),
            ("10000000000000000.0", "1e+16"),
            ("1000000000000000.0", "1000000000000000.0"),
            ("0.0001", "0.0001"),
            ("0.00001", "1e-05"),
            ("1.0e+20", "1e+20"),
            ("1.0e+300", "1e+300"),
            ("1.5e-10", "1.5e-10"),
            ("1e5", "1e5"),
            (".inf", "inf"),
            ("-.Inf", "-inf"),
            (".NaN", "nan"),
            ("0.333333333333333333", "0.3333333333333333"),
            ("123456789.123456789", "123456789.12345679"),
            ("1:30.5", "90.5"),
            ("1_0.2_5", "10.25"),
            ("-0.0", "-0.0"),
            ("!!float 3", "3.0"),
            ("1.7976931348623157e+308", "1.7976931348623157e+308"),
            ("5e-324", "5e-324"),
        ] {
            assert_eq!(name(yaml), python, "{yaml}");
        }
    }

    #[test]
    fn dates_and_datetimes() {
        for (yaml, python) in [
            ("2024-01-02", "2024-01-02"),
            ("2024-01-02T10:00:00", "2024-01-02 10:00:00"),
            ("2024-01-02T10:00:00Z", "2024-01-02 10:00:00+00:00"),
            ("2024-01-02 10:00:00 +05:30", "2024-01-02 10:00:00+05:30"),
            (
                "2024-01-02t10:00:00.5-02",
                "2024-01-02 10:00:00.500000-02:00",
            ),
            ("2024-1-2 1:02:03.1234567", "2024-01-02 01:02:03.123456"),
        ] {
            assert_eq!(name(yaml), python, "{yaml}");
        }
    }

    #[test]
    fn containers_print_as_python_repr() {
        for (yaml, python) in [
            ("[a]", "['a']"),
            ("[yes, 1.50, null, \"q\", it's, 0x10]", "[True, 1.5, None, 'q', \"it's\", 16]"),
            ("{a: 1, b: [true, ~]}", "{'a': 1, 'b': [True, None]}"),
            ("[[], {}, [[1]]]", "[[], {}, [[1]]]"),
            ("{1: a, null: b, 2024-01-02: c, 1.5: d}", "{1: 'a', None: 'b', datetime.date(2024, 1, 2): 'c', 1.5: 'd'}"),
            ("{a: 1, a: 2, b: 3}", "{'a': 2, 'b': 3}"),
            ("[&x 1, *x]", "[1, 1]"),
            (
                "[\"it's\", 'say \"hi\"', \"both ' \\\"\"]",
                "[\"it's\", 'say \"hi\"', 'both \\' \"']",
            ),
            (
                "[\"a\\\\b\", \"nl\\nx\", \"\\x00\\x1b\\u00ff\\u0378\\U0001F600\\ud7ff\", \"\\u2028\\ue000\\u00ad\", \"\\ttab\"]",
                "['a\\\\b', 'nl\\nx', '\\x00\\x1bÿ\\u0378😀\\ud7ff', '\\u2028\\ue000\\xad', '\\ttab']",
            ),
            (
                "[2024-01-02T10:00:00, 2024-01-02T10:00:00Z, 2024-01-02 10:00:00.25 +05:30, 2024-01-02 10:00:00 -1, 2024-01-02T10:00:00.000001+00:00, 2024-01-02T10:00:07]",
                "[datetime.datetime(2024, 1, 2, 10, 0), datetime.datetime(2024, 1, 2, 10, 0, tzinfo=datetime.timezone.utc), datetime.datetime(2024, 1, 2, 10, 0, 0, 250000, tzinfo=datetime.timezone(datetime.timedelta(seconds=19800))), datetime.datetime(2024, 1, 2, 10, 0, tzinfo=datetime.timezone(datetime.timedelta(days=-1, seconds=82800))), datetime.datetime(2024, 1, 2, 10, 0, 0, 1, tzinfo=datetime.timezone.utc), datetime.datetime(2024, 1, 2, 10, 0, 7)]",
            ),
            ("\n  - x\n  - 2", "['x', 2]"),
        ] {
            assert_eq!(name(yaml), python, "{yaml}");
        }
    }

    #[test]
    fn what_python_refuses_or_this_module_does_not_build_is_none() {
        for yaml in [
            "2024-13-01",
            "2024-02-30",
            "2024-01-02 24:00:00",
            "{[a]: 1}",
            "{<<: {a: 1}}",
            "!custom x",
        ] {
            assert_eq!(value_of(&format!("name: {yaml}\n"), "name"), None, "{yaml}");
        }
        // CPython's 4,300-digit limit on int <-> str (checked with CPython 3.11.7): past it
        // `int()` or `str()` raises, and the conversion is never attempted (64 KiB of digits
        // would take quadratic time).
        let int_of = |text: String| match value_of(&format!("name: {text}\n"), "name") {
            Some(PyValue::Int(digits)) => Some(digits.len()),
            _ => None,
        };
        assert_eq!(int_of("1".repeat(4300)), Some(4300));
        assert_eq!(int_of("1".repeat(4301)), None);
        // A leading 0 is octal: int(text, 8) has no limit on its input, and the value is 1.
        assert_eq!(int_of(format!("{}1", "0".repeat(4400))), Some(1));
        assert_eq!(int_of(format!("0x{}", "f".repeat(3500))), Some(4215));
        assert_eq!(int_of(format!("0x{}", "f".repeat(3600))), None);
        assert_eq!(int_of(format!("0b{}", "1".repeat(60_000))), None);
        assert_eq!(int_of(format!("{}1", "1:".repeat(3000))), None);
        assert_eq!(value_of("other: 1\n", "name"), None);
        assert_eq!(value_of("- a\n", "name"), None);
        assert_eq!(
            value_of("name: a\nname: 0x10\n", "name"),
            Some(PyValue::Int("16".into()))
        );
    }
}

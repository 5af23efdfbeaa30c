//! Checks shared by the record kinds' `validate()`: each pushes a named problem and returns
//! the parsed value, so a kind reports every bad field at once.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, de::IntoDeserializer};
use time::{Date, Time, macros::format_description};
use uuid::Uuid;

use crate::entry::{FieldProblems, parse_date};

/// Problems by field name, each field's messages in order: the `fields` of a REST
/// `validation` error and of a refused push mutation, so a device shows them beside the field.
pub type FieldErrors = BTreeMap<String, Vec<String>>;

/// `problems` grouped by field, in the order they were found.
pub fn field_errors(problems: &FieldProblems) -> FieldErrors {
    let mut fields = FieldErrors::new();
    for (field, message) in problems {
        fields
            .entry((*field).to_owned())
            .or_default()
            .push(message.clone());
    }
    fields
}

/// A UUID that can name a record: not the nil UUID (all zeros) nor the max one (all ones),
/// which no device generates and which code elsewhere may read as "none" or "every".
pub fn parse_id(raw: &str) -> Option<Uuid> {
    Uuid::parse_str(raw)
        .ok()
        .filter(|id| !id.is_nil() && !id.is_max())
}

/// A field that must be a UUID naming a record ([`parse_id`]).
pub fn uuid(
    raw: &str,
    field: &'static str,
    what: &str,
    problems: &mut FieldProblems,
) -> Option<Uuid> {
    let parsed = parse_id(raw);
    if parsed.is_none() {
        problems.push((field, format!("{what} must be a UUID")));
    }
    parsed
}

/// A field that must be a UUID in its canonical form (lowercase, hyphenated), so the same id
/// is the same text on every device and in every storage key; never nil or max.
pub fn canonical_uuid(raw: &str) -> Option<Uuid> {
    parse_id(raw).filter(|id| id.hyphenated().to_string() == raw)
}

/// A field that must be one of an enum's wire words (its serde names): the enum-like fields
/// arrive as text so a bad word is named with the other problems rather than failing the
/// whole parse.
pub fn choice<'a, T: Deserialize<'a>>(
    raw: &'a str,
    field: &'static str,
    message: impl FnOnce() -> String,
    problems: &mut FieldProblems,
) -> Option<T> {
    let parsed =
        T::deserialize(IntoDeserializer::<serde::de::value::Error>::into_deserializer(raw)).ok();
    if parsed.is_none() {
        problems.push((field, message()));
    }
    parsed
}

/// A field that must be a real day written YYYY-MM-DD.
pub fn date(
    raw: &str,
    field: &'static str,
    what: &str,
    problems: &mut FieldProblems,
) -> Option<Date> {
    let parsed = parse_date(raw);
    if parsed.is_none() {
        problems.push((
            field,
            format!("{what} must be a real day written YYYY-MM-DD"),
        ));
    }
    parsed
}

/// A field that may be null or a UUID: `Some(None)` for null, `Some(Some(id))` for a UUID,
/// `None` (problem pushed) otherwise.
pub fn optional_uuid(
    raw: &Option<String>,
    field: &'static str,
    what: &str,
    problems: &mut FieldProblems,
) -> Option<Option<Uuid>> {
    match raw {
        None => Some(None),
        Some(raw) => uuid(raw, field, what, problems).map(Some),
    }
}

/// A field that may be null or a real day, as [`optional_uuid`].
pub fn optional_date(
    raw: &Option<String>,
    field: &'static str,
    what: &str,
    problems: &mut FieldProblems,
) -> Option<Option<Date>> {
    match raw {
        None => Some(None),
        Some(raw) => date(raw, field, what, problems).map(Some),
    }
}

/// The characters no free text a person typed may hold, as inclusive ranges: the control
/// characters (C0, DEL, C1: exactly [`char::is_control`]), the Unicode line and paragraph
/// separators, and the text-direction controls (embeddings and overrides, isolates: text would
/// read in another order than it is stored). A table, not a test, so the contract can carry it
/// and the web app holds its forms to the same rule (web/src/lib/text-rules.ts).
pub const FORBIDDEN_IN_TEXT: &[(char, char)] = &[
    ('\u{0}', '\u{1f}'),
    ('\u{7f}', '\u{9f}'),
    ('\u{2028}', '\u{2029}'),
    ('\u{202a}', '\u{202e}'),
    ('\u{2066}', '\u{2069}'),
];

/// Of those, what multi-line text (notes) may hold: tabs and line breaks.
pub const ALLOWED_IN_MULTI_LINE: &[char] = &['\t', '\n', '\r'];

/// Whether `c` may stand in free text a person typed: none of [`FORBIDDEN_IN_TEXT`], except
/// [`ALLOWED_IN_MULTI_LINE`] in multi-line text.
pub fn allowed_in_text(c: char, multi_line: bool) -> bool {
    if multi_line && ALLOWED_IN_MULTI_LINE.contains(&c) {
        return true;
    }
    !FORBIDDEN_IN_TEXT
        .iter()
        .any(|&(low, high)| (low..=high).contains(&c))
}

/// Whether all of `text` is [`allowed_in_text`].
pub fn is_clean_text(text: &str, multi_line: bool) -> bool {
    text.chars().all(|c| allowed_in_text(c, multi_line))
}

/// What a field says when its text is not clean.
pub fn unclean_text(what: &str, multi_line: bool) -> String {
    if multi_line {
        format!("{what} must not contain control characters or text-direction marks")
    } else {
        format!("{what} must not contain line breaks, control characters or text-direction marks")
    }
}

/// Free text of several lines (notes): at most `max` characters, [`is_clean_text`]; kept as
/// typed.
pub fn multi_line(
    raw: &str,
    field: &'static str,
    what: &str,
    max: usize,
    problems: &mut FieldProblems,
) -> Option<String> {
    if raw.chars().count() > max {
        problems.push((field, format!("{what} must be at most {max} characters")));
        None
    } else if !is_clean_text(raw, true) {
        problems.push((field, unclean_text(what, true)));
        None
    } else {
        Some(raw.to_owned())
    }
}

/// A one-line name or label: trimmed (so " Van " and "Van" are the same on every device),
/// `min..=max` characters, [`is_clean_text`] on one line.
pub fn line(
    raw: &str,
    field: &'static str,
    what: &str,
    (min, max): (usize, usize),
    problems: &mut FieldProblems,
) -> Option<String> {
    let trimmed = raw.trim();
    let chars = trimmed.chars().count();
    if chars < min || chars > max {
        let range = if min == 0 {
            format!("at most {max} characters")
        } else {
            format!("{min} to {max} characters")
        };
        problems.push((field, format!("{what} must be {range}")));
        None
    } else if !is_clean_text(trimmed, false) {
        problems.push((field, unclean_text(what, false)));
        None
    } else {
        Some(trimmed.to_owned())
    }
}

/// An optional whole number that, when given, must lie in `min..=max`: `Some(value)` when
/// it does (or is absent), `None` when it does not (and the problem is pushed).
pub fn optional_in<T: TryFrom<i64>>(
    value: Option<i64>,
    field: &'static str,
    message: impl FnOnce() -> String,
    (min, max): (i64, i64),
    problems: &mut FieldProblems,
) -> Option<Option<T>> {
    match value.map(|v| T::try_from(v).ok().filter(|_| (min..=max).contains(&v))) {
        None => Some(None),
        Some(Some(v)) => Some(Some(v)),
        Some(None) => {
            problems.push((field, message()));
            None
        }
    }
}

/// A clock time written HH:MM (24-hour).
pub fn parse_clock(raw: &str) -> Option<Time> {
    Time::parse(raw, format_description!("[hour]:[minute]")).ok()
}

pub fn format_clock(time: Time) -> String {
    format!("{:02}:{:02}", time.hour(), time.minute())
}

/// For `Option<Option<T>>` fields with `#[serde(default)]`: absent → `None`, `null` →
/// `Some(None)`, a value → `Some(Some(value))`, so an old app's missing field can mean
/// something other than an explicit null.
pub fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table says what the rule always said: every control character, the separators and
    /// the direction controls, checked over every Unicode scalar value.
    #[test]
    fn the_forbidden_table_is_the_control_separator_and_direction_rule() {
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            let forbidden = c.is_control()
                || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}');
            assert_eq!(allowed_in_text(c, false), !forbidden, "{:#x}", c as u32);
            let multi_line_ok = matches!(c, '\n' | '\r' | '\t') || !forbidden;
            assert_eq!(allowed_in_text(c, true), multi_line_ok, "{:#x}", c as u32);
        }
    }

    #[test]
    fn lines_are_trimmed_and_bounded_in_characters() {
        let mut problems = FieldProblems::new();
        assert_eq!(
            line("  Van ", "label", "Label", (1, 3), &mut problems).as_deref(),
            Some("Van")
        );
        assert_eq!(
            line("éééé", "label", "Label", (1, 4), &mut problems).as_deref(),
            Some("éééé")
        );
        assert!(problems.is_empty());
        assert_eq!(line("   ", "label", "Label", (1, 3), &mut problems), None);
        assert_eq!(line("a\tb", "label", "Label", (0, 3), &mut problems), None);
        assert_eq!(line("abcd", "label", "Label", (0, 3), &mut problems), None);
        assert_eq!(
            problems.iter().map(|p| p.0).collect::<Vec<_>>(),
            ["label"; 3]
        );
        assert!(problems[0].1.contains("1 to 3") && problems[2].1.contains("at most 3"));
    }

    #[test]
    fn nil_and_max_uuids_name_nothing() {
        let mut problems = FieldProblems::new();
        for refused in [
            "00000000-0000-0000-0000-000000000000",
            "ffffffff-ffff-ffff-ffff-ffffffffffff",
            "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
        ] {
            assert_eq!(parse_id(refused), None, "{refused}");
            assert_eq!(canonical_uuid(refused), None, "{refused}");
            assert_eq!(uuid(refused, "id", "Entry id", &mut problems), None);
        }
        assert_eq!(problems.len(), 3);
        assert!(parse_id("00000000-0000-0000-0000-000000000001").is_some());
    }

    #[test]
    fn free_text_holds_no_control_or_direction_characters() {
        for clean in [
            "Van 3",
            "Zoë Ó Sé",
            "📦 left at №12",
            "شارع",
            "\u{200f}RLM is a mark",
        ] {
            assert!(is_clean_text(clean, false), "{clean:?}");
        }
        for dirty in [
            "nul\0",
            "esc\u{1b}[2J",
            "del\u{7f}",
            "c1\u{85}",
            "csi\u{9b}",
            "abc\u{202e}fdp",
            "\u{2066}isolate\u{2069}",
            "para\u{2029}",
            "line\u{2028}",
        ] {
            assert!(!is_clean_text(dirty, false), "{dirty:?}");
            assert!(!is_clean_text(dirty, true), "{dirty:?} in notes too");
        }
        assert!(is_clean_text("first line\nsecond\r\n\ttabbed", true));
        assert!(!is_clean_text("a\nb", false));
        assert!(!is_clean_text("a\tb", false));

        let mut problems = FieldProblems::new();
        assert_eq!(
            multi_line("two\nlines", "notes", "Notes", 10, &mut problems).as_deref(),
            Some("two\nlines")
        );
        assert_eq!(
            multi_line("bell\u{7}", "notes", "Notes", 10, &mut problems),
            None
        );
        assert_eq!(
            multi_line("elevenchars", "notes", "Notes", 10, &mut problems),
            None
        );
        assert_eq!(
            line("Van\u{202e}", "name", "Name", (1, 9), &mut problems),
            None
        );
        assert_eq!(
            problems.iter().map(|(_, m)| m.as_str()).collect::<Vec<_>>(),
            [
                "Notes must not contain control characters or text-direction marks",
                "Notes must be at most 10 characters",
                "Name must not contain line breaks, control characters or text-direction marks",
            ]
        );
    }

    #[test]
    fn canonical_uuids_are_lowercase_and_hyphenated() {
        let id = "0190a6e2-7c1d-7000-8000-0000000000a1";
        assert_eq!(
            canonical_uuid(id).map(|u| u.to_string()).as_deref(),
            Some(id)
        );
        for bad in [
            "0190A6E2-7C1D-7000-8000-0000000000A1",
            "0190a6e27c1d700080000000000000a1",
            "{0190a6e2-7c1d-7000-8000-0000000000a1}",
            "urn:uuid:0190a6e2-7c1d-7000-8000-0000000000a1",
            "",
        ] {
            assert_eq!(canonical_uuid(bad), None, "{bad}");
        }
    }

    #[test]
    fn choices_are_an_enums_wire_words() {
        let mut problems = FieldProblems::new();
        let once = choice::<crate::deduction::Repeat>("once", "repeat", String::new, &mut problems);
        assert_eq!(once, Some(crate::deduction::Repeat::Once));
        assert!(problems.is_empty());
        for bad in ["Once", "daily", ""] {
            let parsed = choice::<crate::deduction::Repeat>(
                bad,
                "repeat",
                || "Repeat must be once, weekly or monthly".into(),
                &mut problems,
            );
            assert_eq!(parsed, None);
        }
        assert_eq!(problems.len(), 3);
        assert_eq!(problems[0].1, "Repeat must be once, weekly or monthly");
    }

    #[test]
    fn nullable_fields_are_null_or_valid() {
        let mut problems = FieldProblems::new();
        assert_eq!(
            optional_uuid(&None, "courierId", "Courier id", &mut problems),
            Some(None)
        );
        assert_eq!(
            optional_date(&None, "to", "Until", &mut problems),
            Some(None)
        );
        assert!(problems.is_empty());
        assert_eq!(
            optional_uuid(&Some("x".into()), "courierId", "Courier id", &mut problems),
            None
        );
        assert_eq!(
            optional_date(&Some("2025-02-29".into()), "to", "Until", &mut problems),
            None
        );
        assert_eq!(
            problems.iter().map(|p| p.0).collect::<Vec<_>>(),
            ["courierId", "to"]
        );
    }

    #[test]
    fn clock_times_are_hours_and_minutes() {
        assert_eq!(
            parse_clock("07:05").map(format_clock).as_deref(),
            Some("07:05")
        );
        assert_eq!(
            parse_clock("23:59").map(format_clock).as_deref(),
            Some("23:59")
        );
        for bad in ["24:00", "7:05", "07:60", "0705", "07:05:00", ""] {
            assert_eq!(parse_clock(bad), None, "{bad}");
        }
    }
}

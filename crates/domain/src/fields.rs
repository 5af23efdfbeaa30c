//! Checks shared by the record kinds' `validate()`: each pushes a named problem and returns
//! the parsed value, so a kind reports every bad field at once.

use serde::{Deserialize, Deserializer};
use time::{Date, Time, macros::format_description};
use uuid::Uuid;

use crate::entry::{FieldProblems, parse_date};

/// A field that must be a UUID.
pub fn uuid(
    raw: &str,
    field: &'static str,
    what: &str,
    problems: &mut FieldProblems,
) -> Option<Uuid> {
    let parsed = Uuid::parse_str(raw).ok();
    if parsed.is_none() {
        problems.push((field, format!("{what} must be a UUID")));
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

/// A one-line name or label: trimmed (so " Van " and "Van" are the same on every device),
/// `min..=max` characters, no line breaks or control characters.
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
    } else if trimmed.chars().any(char::is_control) {
        problems.push((
            field,
            format!("{what} must not contain line breaks or control characters"),
        ));
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

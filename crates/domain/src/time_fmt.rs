//! Timestamps are stored as Unix milliseconds and shown on the wire as RFC 3339 (UTC).

use time::{OffsetDateTime, format_description::well_known::Rfc3339};

/// A duration in whole milliseconds, as the store keeps times (saturating: a setting of
/// centuries means "never").
pub fn duration_ms(duration: std::time::Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

pub fn now_ms() -> i64 {
    // Milliseconds since 1970 fit an i64 for another 292 million years.
    i64::try_from(OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
}

pub fn rfc3339_from_ms(ms: i64) -> String {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_else(|| "1970-01-01T00:00:00Z".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_milliseconds_as_utc() {
        assert_eq!(rfc3339_from_ms(0), "1970-01-01T00:00:00Z");
        assert_eq!(
            rfc3339_from_ms(1_742_515_200_123),
            "2025-03-21T00:00:00.123Z"
        );
    }
}

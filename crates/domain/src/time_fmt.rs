//! Timestamps are stored as Unix milliseconds and shown on the wire as RFC 3339 (UTC).

use time::{OffsetDateTime, format_description::well_known::Rfc3339};

pub fn now_ms() -> i64 {
    (OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64
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

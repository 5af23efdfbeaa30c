//! Phone sign-in rules: E.164 numbers and the SMS send limits.

use std::fmt;

/// The spec's validation message (§5 Login).
pub const PHONE_FORMAT_MESSAGE: &str =
    "The phone number is entered in international format with a country code";

/// A phone number in E.164 form: `+` then 8 to 15 digits, the first not 0.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PhoneNumber(String);

impl PhoneNumber {
    /// Accepts what people type around the digits (spaces, dashes, dots, brackets) but never
    /// guesses a country: the number must start with `+` and its country code.
    pub fn parse(input: &str) -> Option<PhoneNumber> {
        let trimmed = input.trim();
        let rest = trimmed.strip_prefix('+')?;
        let mut digits = String::with_capacity(16);
        for c in rest.chars() {
            match c {
                '0'..='9' => digits.push(c),
                ' ' | '-' | '.' | '(' | ')' => {}
                _ => return None,
            }
        }
        if !(8..=15).contains(&digits.len()) || digits.starts_with('0') {
            return None;
        }
        Some(PhoneNumber(format!("+{digits}")))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Display for PhoneNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Sends to one number are counted over this window.
pub const NUMBER_WINDOW_MS: i64 = 3_600_000;
/// Sends per IP and overall are counted over this window.
pub const RATE_WINDOW_MS: i64 = 60_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SendLimits {
    /// Least time between two codes to one number.
    pub min_interval_ms: i64,
    pub per_number_per_hour: u32,
    pub per_ip_per_minute: u32,
    pub global_per_minute: u32,
}

/// Accepted sends still inside their windows, newest first (each list at most its limit long).
#[derive(Debug, Clone, Default)]
pub struct RecentSends {
    /// To this number in the last [`NUMBER_WINDOW_MS`].
    pub number: Vec<i64>,
    /// From this IP in the last [`RATE_WINDOW_MS`].
    pub ip: Vec<i64>,
    /// From anyone in the last [`RATE_WINDOW_MS`].
    pub global: Vec<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SendScope {
    Number,
    Ip,
    Global,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SendRefusal {
    pub scope: SendScope,
    /// When a send would next be accepted, counted from now.
    pub retry_after_ms: i64,
}

impl SendRefusal {
    pub fn retry_after_secs(&self) -> u64 {
        self.retry_after_ms.max(1).unsigned_abs().div_ceil(1000)
    }
}

/// A send at `t` counts against a window `w` while `now - t < w`; stores select
/// `sent_at > now - w` for the same reason.
pub fn check_send(
    recent: &RecentSends,
    limits: &SendLimits,
    now_ms: i64,
) -> Result<(), SendRefusal> {
    if let Some(&last) = recent.number.first()
        && now_ms - last < limits.min_interval_ms
    {
        return Err(SendRefusal {
            scope: SendScope::Number,
            retry_after_ms: last + limits.min_interval_ms - now_ms,
        });
    }
    let windows = [
        (
            SendScope::Number,
            &recent.number,
            limits.per_number_per_hour,
            NUMBER_WINDOW_MS,
        ),
        (
            SendScope::Ip,
            &recent.ip,
            limits.per_ip_per_minute,
            RATE_WINDOW_MS,
        ),
        (
            SendScope::Global,
            &recent.global,
            limits.global_per_minute,
            RATE_WINDOW_MS,
        ),
    ];
    for (scope, sends, max, window) in windows {
        let in_window: Vec<i64> = sends
            .iter()
            .copied()
            .filter(|&t| now_ms - t < window)
            .collect();
        if in_window.len() >= max as usize {
            // The oldest of the `max` newest sends frees a slot when it leaves the window.
            let freeing = in_window[max.max(1) as usize - 1];
            return Err(SendRefusal {
                scope,
                retry_after_ms: freeing + window - now_ms,
            });
        }
    }
    Ok(())
}

/// Sends in the last [`RATE_WINDOW_MS`], counted to price the next captcha.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SendVolume {
    /// From anyone.
    pub global: u32,
    /// From the requesting client's prefix (an IPv4 address or an IPv6 /64).
    pub prefix: u32,
}

/// The captcha's difficulty (its `maxnumber`: how many SHA-256 tries a solver may need).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaptchaDifficulty {
    /// When nothing was sent in the last minute.
    pub base: u64,
    /// Never more than this, so a phone browser still gets through during an attack.
    pub ceiling: u64,
}

/// A challenge keeps working while the difficulty has risen at most this factor since it was
/// issued (a real user's solve can overlap a burst); a stockpile of cheap challenges buys at
/// most this discount.
pub const CAPTCHA_SLACK: u64 = 4;

impl CaptchaDifficulty {
    /// Doubles once per send from the requesting prefix and once per eighth of the global
    /// budget sent, in the last minute, up to the ceiling: sending in bulk gets dearer for
    /// the sender first, and for everyone once volume nears the budget.
    pub fn max_number(&self, volume: SendVolume, global_per_minute: u32) -> u64 {
        let global_step = (global_per_minute / 8).max(1);
        let doublings = volume
            .prefix
            .saturating_add(volume.global / global_step)
            .min(63);
        self.base
            .saturating_mul(1u64 << doublings)
            .min(self.ceiling)
            .max(self.base)
    }

    /// Whether a challenge issued at `issued` is still hard enough when `required` is due.
    pub fn accepts(issued: u64, required: u64) -> bool {
        issued.saturating_mul(CAPTCHA_SLACK) >= required
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn e164_numbers_are_parsed_and_normalised() {
        for (input, expected) in [
            ("+447700900123", "+447700900123"),
            (" +44 7700 900123 ", "+447700900123"),
            ("+1 (415) 555-0134", "+14155550134"),
            ("+33.6.12.34.56.78", "+33612345678"),
            ("+12345678", "+12345678"),
            ("+123456789012345", "+123456789012345"),
        ] {
            assert_eq!(
                PhoneNumber::parse(input)
                    .map(PhoneNumber::into_string)
                    .as_deref(),
                Some(expected),
                "{input}"
            );
        }
    }

    #[test]
    fn anything_but_e164_is_refused() {
        for input in [
            "",
            "+",
            "07700900123",       // national format: no country code
            "447700900123",      // no plus
            "+1234567",          // 7 digits
            "+1234567890123456", // 16 digits
            "+0447700900123",    // country codes never start with 0
            "+44 7700 9001x3",
            "++447700900123",
            "+44\u{0663}7700900123", // a non-ASCII digit
            "+44 7700 900123 ext 5",
        ] {
            assert_eq!(PhoneNumber::parse(input), None, "{input:?}");
        }
    }

    const LIMITS: SendLimits = SendLimits {
        min_interval_ms: 60_000,
        per_number_per_hour: 5,
        per_ip_per_minute: 3,
        global_per_minute: 10,
    };

    fn number(sends: &[i64]) -> RecentSends {
        RecentSends {
            number: sends.to_vec(),
            ..RecentSends::default()
        }
    }

    #[test]
    fn one_code_a_minute_per_number_to_the_millisecond() {
        let recent = number(&[1_000_000]);
        let refused = check_send(&recent, &LIMITS, 1_059_999).unwrap_err();
        assert_eq!(refused.scope, SendScope::Number);
        assert_eq!(refused.retry_after_ms, 1);
        assert_eq!(refused.retry_after_secs(), 1);
        assert!(check_send(&recent, &LIMITS, 1_060_000).is_ok());
    }

    #[test]
    fn five_codes_an_hour_per_number() {
        let t = 10_000_000;
        // Five sends ten minutes apart, newest first: the sixth waits for the first to age out.
        let recent = number(&[t + 2_400_000, t + 1_800_000, t + 1_200_000, t + 600_000, t]);
        let now = t + 3_000_000;
        let refused = check_send(&recent, &LIMITS, now).unwrap_err();
        assert_eq!(refused.scope, SendScope::Number);
        assert_eq!(refused.retry_after_ms, t + NUMBER_WINDOW_MS - now);
        assert!(check_send(&recent, &LIMITS, t + NUMBER_WINDOW_MS).is_ok());
        assert!(check_send(&number(&recent.number[..4]), &LIMITS, now).is_ok());
    }

    #[test]
    fn per_ip_and_global_limits_trip_at_their_counts() {
        let now = 5_000_000;
        let ip = RecentSends {
            ip: vec![now - 10, now - 20, now - 30],
            ..RecentSends::default()
        };
        let refused = check_send(&ip, &LIMITS, now).unwrap_err();
        assert_eq!(refused.scope, SendScope::Ip);
        assert_eq!(refused.retry_after_ms, RATE_WINDOW_MS - 30);
        let two = RecentSends {
            ip: vec![now - 10, now - 20],
            ..RecentSends::default()
        };
        assert!(check_send(&two, &LIMITS, now).is_ok());

        let global = RecentSends {
            global: (1..=10).map(|i| now - i * 1000).collect(),
            ..RecentSends::default()
        };
        assert_eq!(
            check_send(&global, &LIMITS, now).unwrap_err().scope,
            SendScope::Global
        );
        // Once the oldest leaves the minute, one slot opens.
        assert!(check_send(&global, &LIMITS, now - 10_000 + RATE_WINDOW_MS).is_ok());
    }

    #[test]
    fn captcha_difficulty_rises_with_volume_up_to_its_ceiling() {
        let d = CaptchaDifficulty {
            base: 25_000,
            ceiling: 400_000,
        };
        let at = |global, prefix| d.max_number(SendVolume { global, prefix }, 30);
        assert_eq!(at(0, 0), 25_000);
        // Each send from the prefix doubles its next challenge.
        assert_eq!(at(1, 1), 50_000);
        assert_eq!(at(2, 2), 100_000);
        // Global volume: one doubling per 30 / 8 = 3 sends.
        assert_eq!(at(2, 0), 25_000);
        assert_eq!(at(3, 0), 50_000);
        assert_eq!(at(9, 0), 200_000);
        assert_eq!(at(30, 3), 400_000);
        assert_eq!(at(u32::MAX, u32::MAX), 400_000);
        // A budget under 8 a minute doubles per send.
        assert_eq!(
            d.max_number(
                SendVolume {
                    global: 2,
                    prefix: 0
                },
                4
            ),
            100_000
        );
        assert!(CaptchaDifficulty::accepts(25_000, 100_000));
        assert!(!CaptchaDifficulty::accepts(25_000, 100_001));
        assert!(CaptchaDifficulty::accepts(400_000, 25_000));
    }
}

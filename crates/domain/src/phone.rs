//! Phone sign-in rules: numbers read with libphonenumber's metadata (the `phonenumber`
//! crate) and stored in E.164, and the SMS send limits.

use std::fmt;

use phonenumber::{Mode, Type, country};

/// The spec's validation message (§5 Login), shown for any number that cannot be a real one.
pub const PHONE_FORMAT_MESSAGE: &str =
    "The phone number is entered in international format with a country code";

/// The country whose numbers may be typed without their country code (`07700 900123` in
/// GB). An ISO 3166-1 alpha-2 code that libphonenumber has numbering metadata for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhoneRegion(country::Id);

impl PhoneRegion {
    /// The default: the product is for UK drivers.
    pub const GB: PhoneRegion = PhoneRegion(country::Id::GB);

    /// `gb`, ` GB ` and `GB` name the same region; a code that is not a country is refused.
    ///
    /// Only the code is read, not libphonenumber's metadata: loading that database costs
    /// about 4 MiB of heap, which an idle server (or one without phone sign-in) never needs.
    /// Every `country::Id` has metadata (a test checks it against the database).
    pub fn parse(code: &str) -> Option<PhoneRegion> {
        code.trim()
            .to_ascii_uppercase()
            .parse()
            .ok()
            .map(PhoneRegion)
    }

    /// The ISO code, e.g. `GB`.
    pub fn code(&self) -> &str {
        self.0.as_ref()
    }
}

impl Default for PhoneRegion {
    fn default() -> Self {
        PhoneRegion::GB
    }
}

/// A phone number in E.164 form (`+447700900123`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PhoneNumber(String);

/// What people type around the digits. Letters (vanity numbers, `ext`) and other scripts'
/// digits are refused before libphonenumber sees them: it would read them as an extension.
fn typed_characters_only(input: &str) -> bool {
    let mut chars = input.chars();
    let rest = if input.starts_with('+') {
        chars.next();
        chars.as_str()
    } else {
        input
    };
    rest.chars()
        .all(|c| c.is_ascii_digit() || matches!(c, ' ' | '-' | '.' | '(' | ')' | '/'))
}

impl PhoneNumber {
    /// The one way a typed number becomes a stored one: with its country code (`+44 (0)7700
    /// 900123`, `+1 415 555 2671`), or national in `region` (`07700 900123`). It must have a
    /// length that country's numbers have; the range itself is not checked, as Ofcom's numbers
    /// for drama and tests (07700 900xxx) are outside libphonenumber's valid ranges.
    pub fn parse(input: &str, region: PhoneRegion) -> Option<PhoneNumber> {
        let trimmed = input.trim();
        if trimmed.is_empty() || !typed_characters_only(trimmed) {
            return None;
        }
        let number = phonenumber::parse(Some(region.0), trimmed).ok()?;
        if number.extension().is_some() || !is_possible(&number) {
            return None;
        }
        Some(PhoneNumber(number.format().mode(Mode::E164).to_string()))
    }

    /// A number already stored: E.164 needs no region.
    pub fn from_e164(stored: &str) -> Option<PhoneNumber> {
        if !stored.starts_with('+') {
            return None;
        }
        PhoneNumber::parse(stored, PhoneRegion::GB).filter(|n| n.0 == stored)
    }

    /// The international form people read, e.g. `+44 7700 900123`.
    pub fn international(&self) -> String {
        phonenumber::parse(None, &self.0).map_or_else(
            |_| self.0.clone(),
            |n| n.format().mode(Mode::International).to_string(),
        )
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

/// The kinds of number a person may give as theirs and get a text on (not short codes,
/// toll-free, shared-cost or company numbers).
const PERSONAL_TYPES: [Type; 4] = [
    Type::FixedLine,
    Type::Mobile,
    Type::PersonalNumber,
    Type::Voip,
];

/// Whether the national number has a length that numbers of its country code have (a code
/// shared by several countries, like +1 or +44, takes any of theirs). The crate keeps the
/// lengths on each kind of number, not on the country's general description.
fn is_possible(number: &phonenumber::PhoneNumber) -> bool {
    let length = number.national().to_string().len();
    phonenumber::metadata::DATABASE
        .by_code(&number.code().value())
        .is_some_and(|regions| {
            regions.iter().any(|meta| {
                PERSONAL_TYPES
                    .iter()
                    .filter_map(|&kind| meta.descriptors().get(kind))
                    .flat_map(phonenumber::metadata::Descriptor::possible_length)
                    .any(|&possible| usize::from(possible) == length)
            })
        })
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

    fn e164(input: &str) -> Option<String> {
        PhoneNumber::parse(input, PhoneRegion::GB).map(PhoneNumber::into_string)
    }

    #[test]
    fn numbers_are_stored_in_e164() {
        for (input, expected) in [
            ("+447700900123", "+447700900123"),
            (" +44 7700 900123 ", "+447700900123"),
            // The UK habit of writing the trunk 0 in brackets after the country code.
            ("+44 (0)7700 900123", "+447700900123"),
            // National form in the default region.
            ("07700 900123", "+447700900123"),
            ("07700-900-123", "+447700900123"),
            ("020 7946 0958", "+442079460958"),
            // A country code wins over the default region.
            ("+1 415 555 2671", "+14155552671"),
            ("+1 (415) 555-0134", "+14155550134"),
            ("+33.6.12.34.56.78", "+33612345678"),
        ] {
            assert_eq!(e164(input).as_deref(), Some(expected), "{input}");
        }
    }

    #[test]
    fn the_default_region_reads_national_numbers() {
        let us = PhoneRegion::parse("us").unwrap();
        assert_eq!(us.code(), "US");
        assert_eq!(
            PhoneNumber::parse("(415) 555-2671", us).map(PhoneNumber::into_string),
            Some("+14155552671".to_owned())
        );
        // A number with its country code is the same whatever the region.
        assert_eq!(
            PhoneNumber::parse("+44 7700 900123", us).map(PhoneNumber::into_string),
            Some("+447700900123".to_owned())
        );
        assert_eq!(PhoneRegion::default().code(), "GB");
        assert_eq!(PhoneRegion::parse(" gb ").unwrap(), PhoneRegion::GB);
        for bad in ["", "UK", "XX", "GBR", "44"] {
            assert_eq!(PhoneRegion::parse(bad), None, "{bad:?}");
        }
    }

    /// `PhoneRegion::parse` trusts that every country code has numbering metadata, so it
    /// need not load the database: this holds it to that for every code it accepts.
    #[test]
    fn every_region_a_setting_can_name_has_metadata() {
        let mut accepted = 0;
        for first in 'A'..='Z' {
            for second in 'A'..='Z' {
                if let Some(region) = PhoneRegion::parse(&format!("{first}{second}")) {
                    accepted += 1;
                    assert!(
                        phonenumber::metadata::DATABASE
                            .by_id(region.code())
                            .is_some(),
                        "{} has no metadata",
                        region.code()
                    );
                }
            }
        }
        // Every region of the database but the non-geographic "001".
        assert_eq!(accepted, phonenumber::metadata::DATABASE.iter().count() - 1);
    }

    #[test]
    fn numbers_that_cannot_be_real_are_refused() {
        for input in [
            "",
            "+",
            "12345",
            "447700900123 1234",
            "+1234567",
            "+12345678",         // too short for +1
            "+1234567890123456", // 16 digits
            "+0447700900123",    // country codes never start with 0
            "+44 7700 9001x3",   // a letter
            "++447700900123",
            "+44 1234",              // too short for the UK
            "0770090012345",         // too long for the UK
            "+44\u{0663}7700900123", // a non-ASCII digit
            "+44 7700 900123 ext 5", // an extension is not a number to text
            "1-800-FLOWERS",
        ] {
            assert_eq!(e164(input), None, "{input:?}");
        }
    }

    #[test]
    fn stored_numbers_read_back_and_display_internationally() {
        let n = PhoneNumber::from_e164("+447700900123").unwrap();
        assert_eq!(n.international(), "+44 7700 900123");
        assert_eq!(
            PhoneNumber::from_e164("+14155552671")
                .unwrap()
                .international(),
            "+1 415-555-2671"
        );
        assert_eq!(PhoneNumber::from_e164("07700900123"), None);
        assert_eq!(PhoneNumber::from_e164("+44 7700 900123"), None);
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

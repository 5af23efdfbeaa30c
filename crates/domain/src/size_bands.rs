//! Parcels by size band (issue 28): how many parcels of each band a driver delivered on a day
//! (`BandCounts`, on an entry) and what a courier pays for a parcel of each band (`BandRates`,
//! on a rate card). The bands are the statement lines' `SizeBand`s, so a day, its card and its
//! statement speak of the same bands. Pricing happens on the device (web `core/pay/pay.ts`);
//! the server keeps the figures sane and the counts consistent with the day's parcels.

use serde::{Deserialize, Serialize};

use crate::entry::{FieldProblems, MAX_ITEMS};

/// A day's parcels of each band; a band the driver did not count is 0. Wire and input shape
/// alike: every band is written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BandCounts {
    pub packet: i64,
    pub small: i64,
    pub medium: i64,
    pub large: i64,
    pub extra_large: i64,
}

impl BandCounts {
    fn counts(&self) -> [i64; 5] {
        [
            self.packet,
            self.small,
            self.medium,
            self.large,
            self.extra_large,
        ]
    }

    /// The counts checked against the day's `parcels`: each a whole number up to the most
    /// items a day holds, and together exactly the parcels (the form writes their sum there;
    /// a day whose two figures disagree would price one and match the other). Problems are
    /// named `bands`.
    pub fn validate(&self, parcels: Option<i64>, problems: &mut FieldProblems) -> Option<Self> {
        if self.counts().iter().any(|n| !(0..=MAX_ITEMS).contains(n)) {
            problems.push((
                "bands",
                format!("Parcels by band must be whole numbers from 0 to {MAX_ITEMS}"),
            ));
            return None;
        }
        let total: i64 = self.counts().iter().sum();
        match parcels {
            Some(parcels) if parcels == total => Some(*self),
            Some(parcels) => {
                problems.push((
                    "bands",
                    format!(
                        "The parcels by band add up to {total}, not the {parcels} parcels given"
                    ),
                ));
                None
            }
            None => {
                problems.push((
                    "bands",
                    format!("Give the parcels ({total}) with the parcels by band"),
                ));
                None
            }
        }
    }
}

/// What a card pays for one parcel of each band, in pence; null = the courier has no such band
/// (a parcel logged in it is paid at the card's pay per parcel, if any).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BandRates {
    pub packet: Option<i64>,
    pub small: Option<i64>,
    pub medium: Option<i64>,
    pub large: Option<i64>,
    pub extra_large: Option<i64>,
}

impl BandRates {
    fn rates(&self) -> [Option<i64>; 5] {
        [
            self.packet,
            self.small,
            self.medium,
            self.large,
            self.extra_large,
        ]
    }

    /// Each rate from £0.00 to `max` pence, and at least one band priced (a card that pays by
    /// band names its bands). Problems are named `bandRates`.
    pub fn validate(&self, max: i64, problems: &mut FieldProblems) -> Option<Self> {
        let rates = self.rates();
        if rates.iter().flatten().any(|r| !(0..=max).contains(r)) {
            problems.push((
                "bandRates",
                format!(
                    "Pay per parcel of a band must be between £0.00 and {}, or not used",
                    crate::Money(max)
                ),
            ));
            return None;
        }
        if rates.iter().all(Option::is_none) {
            problems.push((
                "bandRates",
                "Give the pay for at least one size band, or do not pay by band".into(),
            ));
            return None;
        }
        Some(*self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(packet: i64, small: i64, large: i64) -> BandCounts {
        BandCounts {
            packet,
            small,
            large,
            ..BandCounts::default()
        }
    }

    /// (counts, parcels given, the problem's words or None when accepted)
    #[test]
    fn counts_are_bounded_and_add_up_to_the_parcels() {
        let cases: Vec<(BandCounts, Option<i64>, Option<&str>)> = vec![
            (counts(10, 20, 5), Some(35), None),
            (BandCounts::default(), Some(0), None),
            (
                BandCounts {
                    extra_large: MAX_ITEMS,
                    ..BandCounts::default()
                },
                Some(MAX_ITEMS),
                None,
            ),
            (
                counts(10, 20, 5),
                Some(34),
                Some("The parcels by band add up to 35, not the 34 parcels given"),
            ),
            (
                counts(10, 20, 5),
                None,
                Some("Give the parcels (35) with the parcels by band"),
            ),
            (
                counts(-1, 0, 0),
                Some(-1),
                Some("Parcels by band must be whole numbers from 0 to 2000"),
            ),
            (
                BandCounts {
                    medium: MAX_ITEMS + 1,
                    ..BandCounts::default()
                },
                Some(MAX_ITEMS + 1),
                Some("Parcels by band must be whole numbers from 0 to 2000"),
            ),
        ];
        for (bands, parcels, expected) in cases {
            let mut problems = FieldProblems::new();
            let valid = bands.validate(parcels, &mut problems);
            match expected {
                None => assert_eq!((valid, problems), (Some(bands), vec![]), "{bands:?}"),
                Some(words) => {
                    assert_eq!(valid, None, "{bands:?}");
                    assert_eq!(problems, vec![("bands", words.to_string())], "{bands:?}");
                }
            }
        }
    }

    #[test]
    fn rates_are_bounded_and_name_a_band() {
        let cases: Vec<(BandRates, Option<&str>)> = vec![
            (
                BandRates {
                    packet: Some(35),
                    small: Some(55),
                    large: Some(120),
                    ..BandRates::default()
                },
                None,
            ),
            (
                BandRates {
                    medium: Some(0),
                    ..BandRates::default()
                },
                None,
            ),
            (
                BandRates {
                    extra_large: Some(10_000),
                    ..BandRates::default()
                },
                None,
            ),
            (
                BandRates::default(),
                Some("Give the pay for at least one size band, or do not pay by band"),
            ),
            (
                BandRates {
                    small: Some(-1),
                    ..BandRates::default()
                },
                Some("Pay per parcel of a band must be between £0.00 and £100.00, or not used"),
            ),
            (
                BandRates {
                    large: Some(10_001),
                    ..BandRates::default()
                },
                Some("Pay per parcel of a band must be between £0.00 and £100.00, or not used"),
            ),
        ];
        for (rates, expected) in cases {
            let mut problems = FieldProblems::new();
            let valid = rates.validate(10_000, &mut problems);
            match expected {
                None => assert_eq!((valid, problems), (Some(rates), vec![]), "{rates:?}"),
                Some(words) => {
                    assert_eq!(valid, None, "{rates:?}");
                    assert_eq!(problems, vec![("bandRates", words.to_string())]);
                }
            }
        }
    }

    #[test]
    fn every_band_is_written_and_no_other_word() {
        let json = r#"{"packet":3,"small":0,"medium":0,"large":1,"extraLarge":0}"#;
        let read: BandCounts = serde_json::from_str(json).unwrap();
        assert_eq!(read, counts(3, 0, 1));
        assert_eq!(serde_json::to_string(&read).unwrap(), json);
        assert!(serde_json::from_str::<BandCounts>(r#"{"packet":3,"large":1}"#).is_err());
        assert!(serde_json::from_str::<BandCounts>(&json.replace('}', r#","huge":1}"#)).is_err());
        assert!(serde_json::from_str::<BandRates>(r#"{"huge":1}"#).is_err());
        let rates: BandRates = serde_json::from_str(r#"{"small":55}"#).unwrap();
        assert_eq!(rates.small, Some(55));
        assert_eq!(rates.packet, None);
    }
}

//! A rate card (`kind: "rateCard"`): how one courier pays from a date until its next card.
//! Each rule is optional (null = not used); a card has at least one way to earn. Pricing a
//! day with a card happens on the device (web `core/pay/pay.ts`); the server keeps the rules sane.

use serde::{Deserialize, Serialize};
use time::Date;
use uuid::Uuid;

use crate::{
    entry::FieldProblems,
    fields,
    size_bands::BandRates,
    tiers::{PayTier, PayTiers},
};

pub const MAX_LABEL_CHARS: usize = 60;
/// £100 for one parcel, collection or failed item, one stop's peak extra, or one hour.
pub const MAX_UNIT_PENCE: i64 = 10_000;
/// £1,000 for a day or route.
pub const MAX_DAY_RATE_PENCE: i64 = 100_000;
/// A parcel cap pays at most this many parcels a stop: from 1 (a cap of none would pay none).
pub const MIN_PARCEL_CAP_PER_STOP: i64 = 1;
pub const MAX_PARCEL_CAP_PER_STOP: i64 = 50;
pub const MAX_PEAKS: usize = 20;
/// A peak multiplies a day's pay by 100 % to 300 %.
pub const MULTIPLIER_PERCENT: (i64, i64) = (100, 300);

/// `rateCard.put` args. Money in pence; null (or absent) = the rule is not used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RateCardInput {
    pub id: String,
    pub courier_id: String,
    pub valid_from: String,
    #[serde(default)]
    pub label: String,
    #[serde(default)]
    pub per_stop: Option<Vec<PayTier>>,
    #[serde(default)]
    pub per_parcel: Option<i64>,
    #[serde(default)]
    pub parcel_cap_per_stop: Option<i64>,
    #[serde(default)]
    pub per_collection: Option<i64>,
    #[serde(default)]
    pub per_failed: Option<i64>,
    #[serde(default)]
    pub day_rate: Option<i64>,
    #[serde(default)]
    pub hourly: Option<i64>,
    #[serde(default)]
    pub peaks: Vec<PeakInput>,
    /// Pay per parcel by size band, for a courier that pays by band; null (or absent, from an
    /// app older than bands) = parcels are not paid by band.
    #[serde(default)]
    pub band_rates: Option<BandRates>,
}

/// A peak period: from `from` to `to` (inclusive) a day earns extra per stop, or its pay is
/// multiplied, or both.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PeakInput {
    pub from: String,
    pub to: String,
    #[serde(default)]
    pub extra_per_stop: Option<i64>,
    #[serde(default)]
    pub multiplier_percent: Option<i64>,
}

/// A validated peak, in its wire shape (dates YYYY-MM-DD).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Peak {
    pub from: String,
    pub to: String,
    pub extra_per_stop: Option<i64>,
    pub multiplier_percent: Option<i64>,
}

/// A validated rate card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RateCard {
    pub id: Uuid,
    pub courier_id: Uuid,
    pub valid_from: Date,
    pub label: String,
    pub per_stop: Option<PayTiers>,
    pub per_parcel: Option<i64>,
    pub parcel_cap_per_stop: Option<i64>,
    pub per_collection: Option<i64>,
    pub per_failed: Option<i64>,
    pub day_rate: Option<i64>,
    pub hourly: Option<i64>,
    pub peaks: Vec<Peak>,
    pub band_rates: Option<BandRates>,
}

impl RateCardInput {
    pub fn validate(&self) -> Result<RateCard, FieldProblems> {
        let mut p = FieldProblems::new();
        let id = fields::uuid(&self.id, "id", "Rate card id", &mut p);
        let courier_id = fields::uuid(&self.courier_id, "courierId", "Courier id", &mut p);
        let valid_from = fields::date(&self.valid_from, "validFrom", "Valid from", &mut p);
        let label = fields::line(&self.label, "label", "Label", (0, MAX_LABEL_CHARS), &mut p);
        let per_stop = match self.per_stop.clone().map(PayTiers::new) {
            None => Ok(None),
            Some(Ok(tiers)) => Ok(Some(tiers)),
            Some(Err(err)) => {
                p.push(("perStop", err.message()));
                Err(())
            }
        };
        let pence = |value, field, what: &str, max: i64, p: &mut FieldProblems| {
            let message = || {
                format!(
                    "{what} must be between £0.00 and {}, or not used",
                    crate::Money(max)
                )
            };
            fields::optional_in::<i64>(value, field, message, (0, max), p)
        };
        let per_parcel = pence(
            self.per_parcel,
            "perParcel",
            "Pay per parcel",
            MAX_UNIT_PENCE,
            &mut p,
        );
        let cap = fields::optional_in::<i64>(
            self.parcel_cap_per_stop,
            "parcelCapPerStop",
            || {
                format!(
                    "Parcels paid per stop must be from {MIN_PARCEL_CAP_PER_STOP} to {MAX_PARCEL_CAP_PER_STOP}, or no cap"
                )
            },
            (MIN_PARCEL_CAP_PER_STOP, MAX_PARCEL_CAP_PER_STOP),
            &mut p,
        );
        // The words an older app has always been answered with (the golden wire keeps them);
        // a card paying by band may cap parcels too.
        if self.parcel_cap_per_stop.is_some()
            && self.per_parcel.is_none()
            && self.band_rates.is_none()
        {
            p.push((
                "parcelCapPerStop",
                "A parcel cap needs pay per parcel".into(),
            ));
        }
        let band_rates = match &self.band_rates {
            None => Some(None),
            Some(rates) => rates.validate(MAX_UNIT_PENCE, &mut p).map(Some),
        };
        let per_collection = pence(
            self.per_collection,
            "perCollection",
            "Pay per collection",
            MAX_UNIT_PENCE,
            &mut p,
        );
        let per_failed = pence(
            self.per_failed,
            "perFailed",
            "Pay per failed or returned item",
            MAX_UNIT_PENCE,
            &mut p,
        );
        let day_rate = pence(
            self.day_rate,
            "dayRate",
            "Day rate",
            MAX_DAY_RATE_PENCE,
            &mut p,
        );
        let hourly = pence(self.hourly, "hourly", "Hourly rate", MAX_UNIT_PENCE, &mut p);
        let peaks = peaks(&self.peaks, &mut p);
        let earns = [
            self.per_parcel,
            self.per_collection,
            self.day_rate,
            self.hourly,
        ]
        .iter()
        .any(Option::is_some)
            || self.per_stop.is_some()
            || self.band_rates.is_some();
        if !earns {
            p.push((
                "perStop",
                "A card needs at least one of pay per stop, per parcel, by size band, per collection, a day rate or an hourly rate".into(),
            ));
        }
        match (id, courier_id, valid_from, label, band_rates, p.is_empty()) {
            (Some(id), Some(courier_id), Some(valid_from), Some(label), Some(band_rates), true) => {
                Ok(RateCard {
                    id,
                    courier_id,
                    valid_from,
                    label,
                    per_stop: per_stop.ok().flatten(),
                    per_parcel: per_parcel.flatten(),
                    parcel_cap_per_stop: cap.flatten(),
                    per_collection: per_collection.flatten(),
                    per_failed: per_failed.flatten(),
                    day_rate: day_rate.flatten(),
                    hourly: hourly.flatten(),
                    peaks,
                    band_rates,
                })
            }
            _ => Err(p),
        }
    }
}

/// The peaks, each checked; problems are all named `peaks` with the peak's position.
fn peaks(inputs: &[PeakInput], problems: &mut FieldProblems) -> Vec<Peak> {
    if inputs.len() > MAX_PEAKS {
        problems.push((
            "peaks",
            format!("A card has at most {MAX_PEAKS} peak periods"),
        ));
        return Vec::new();
    }
    let mut valid = Vec::with_capacity(inputs.len());
    for (index, peak) in inputs.iter().enumerate() {
        let n = index + 1;
        let mut fault = |message: String| problems.push(("peaks", format!("Peak {n}: {message}")));
        let from = crate::entry::parse_date(&peak.from);
        let to = crate::entry::parse_date(&peak.to);
        let mut ok = true;
        match (from, to) {
            (Some(from), Some(to)) if from > to => {
                fault("the end must be on or after the start".into());
                ok = false;
            }
            (Some(_), Some(_)) => {}
            _ => {
                fault("dates must be real days written YYYY-MM-DD".into());
                ok = false;
            }
        }
        if peak
            .extra_per_stop
            .is_some_and(|v| !(0..=MAX_UNIT_PENCE).contains(&v))
        {
            fault("extra per stop must be between £0.00 and £100.00".into());
            ok = false;
        }
        let (low, high) = MULTIPLIER_PERCENT;
        if peak
            .multiplier_percent
            .is_some_and(|v| !(low..=high).contains(&v))
        {
            fault(format!("the multiplier must be from {low} % to {high} %"));
            ok = false;
        }
        if peak.extra_per_stop.is_none() && peak.multiplier_percent.is_none() {
            fault("give an extra per stop or a multiplier".into());
            ok = false;
        }
        if ok && let (Some(from), Some(to)) = (from, to) {
            valid.push(Peak {
                from: crate::entry::format_date(from),
                to: crate::entry::format_date(to),
                extra_per_stop: peak.extra_per_stop,
                multiplier_percent: peak.multiplier_percent,
            });
        }
    }
    valid
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Money;
    use proptest::prelude::*;

    fn input() -> RateCardInput {
        RateCardInput {
            id: "0190a6e2-7c1d-7000-8000-0000000000d1".into(),
            courier_id: "0190a6e2-7c1d-7000-8000-0000000000c1".into(),
            valid_from: "2025-09-01".into(),
            label: " Autumn 2025 ".into(),
            per_stop: Some(PayTiers::default().tiers().to_vec()),
            per_parcel: None,
            parcel_cap_per_stop: None,
            per_collection: Some(50),
            per_failed: Some(0),
            day_rate: None,
            hourly: None,
            peaks: vec![peak("2025-12-01", "2025-12-24", Some(20), None)],
            band_rates: None,
        }
    }

    fn peak(from: &str, to: &str, extra: Option<i64>, multiplier: Option<i64>) -> PeakInput {
        PeakInput {
            from: from.into(),
            to: to.into(),
            extra_per_stop: extra,
            multiplier_percent: multiplier,
        }
    }

    fn fields(bad: &RateCardInput) -> Vec<&'static str> {
        match bad.validate() {
            Ok(_) => Vec::new(),
            Err(problems) => problems.iter().map(|p| p.0).collect(),
        }
    }

    #[test]
    fn a_normal_card_is_valid() {
        let card = input().validate().unwrap();
        assert_eq!(card.label, "Autumn 2025");
        assert_eq!(card.per_stop, Some(PayTiers::default()));
        assert_eq!(card.peaks[0].extra_per_stop, Some(20));
    }

    #[test]
    fn each_bad_field_is_named() {
        type Breaker = fn(&mut RateCardInput);
        let cases: Vec<(Breaker, &str)> = vec![
            (|c| c.id = "42".into(), "id"),
            (|c| c.courier_id = "me".into(), "courierId"),
            (|c| c.valid_from = "2025-09-31".into(), "validFrom"),
            (|c| c.label = "l".repeat(61), "label"),
            (|c| c.label = "a\u{7}".into(), "label"),
            (
                |c| c.per_stop = Some(vec![PayTiers::default().tiers()[1].clone()]),
                "perStop",
            ),
            (
                |c| c.per_stop.as_mut().unwrap()[0].rate = Money(0),
                "perStop",
            ),
            (
                |c| c.per_stop.as_mut().unwrap()[0].stop_count = Some(0),
                "perStop",
            ),
            (|c| c.per_parcel = Some(-1), "perParcel"),
            (|c| c.per_parcel = Some(10_001), "perParcel"),
            (|c| c.parcel_cap_per_stop = Some(3), "parcelCapPerStop"), // without perParcel
            (
                |c| {
                    c.per_parcel = Some(40);
                    c.parcel_cap_per_stop = Some(0);
                },
                "parcelCapPerStop",
            ),
            (
                |c| {
                    c.per_parcel = Some(40);
                    c.parcel_cap_per_stop = Some(51);
                },
                "parcelCapPerStop",
            ),
            (|c| c.band_rates = Some(BandRates::default()), "bandRates"),
            (
                |c| {
                    c.band_rates = Some(BandRates {
                        large: Some(10_001),
                        ..BandRates::default()
                    });
                },
                "bandRates",
            ),
            (|c| c.per_collection = Some(10_001), "perCollection"),
            (|c| c.per_failed = Some(-1), "perFailed"),
            (|c| c.day_rate = Some(100_001), "dayRate"),
            (|c| c.hourly = Some(10_001), "hourly"),
            (
                |c| c.peaks = vec![peak("2025-12-24", "2025-12-01", Some(1), None)],
                "peaks",
            ),
            (
                |c| c.peaks = vec![peak("2025-12-01", "later", Some(1), None)],
                "peaks",
            ),
            (
                |c| c.peaks = vec![peak("2025-12-01", "2025-12-02", None, None)],
                "peaks",
            ),
            (
                |c| c.peaks = vec![peak("2025-12-01", "2025-12-02", Some(10_001), None)],
                "peaks",
            ),
            (
                |c| c.peaks = vec![peak("2025-12-01", "2025-12-02", None, Some(99))],
                "peaks",
            ),
            (
                |c| c.peaks = vec![peak("2025-12-01", "2025-12-02", None, Some(301))],
                "peaks",
            ),
            (
                |c| c.peaks = vec![peak("2025-12-01", "2025-12-02", Some(1), None); 21],
                "peaks",
            ),
            (
                |c| {
                    c.per_stop = None;
                    c.per_collection = None;
                },
                "perStop",
            ),
        ];
        for (break_it, field) in cases {
            let mut bad = input();
            break_it(&mut bad);
            assert_eq!(fields(&bad), vec![field], "{bad:?}");
        }
    }

    #[test]
    fn any_one_way_to_earn_is_enough_and_failed_pay_alone_is_not() {
        let none = RateCardInput {
            per_stop: None,
            per_collection: None,
            per_failed: Some(0),
            ..input()
        };
        assert_eq!(fields(&none), ["perStop"]);
        type Earn = fn(&mut RateCardInput);
        let ways: [Earn; 6] = [
            |c| c.per_stop = Some(PayTiers::default().tiers().to_vec()),
            |c| c.per_parcel = Some(0),
            |c| c.per_collection = Some(0),
            |c| c.day_rate = Some(12_000),
            |c| c.hourly = Some(1_250),
            |c| {
                c.band_rates = Some(BandRates {
                    small: Some(55),
                    ..BandRates::default()
                });
            },
        ];
        for earn in ways {
            let mut card = none.clone();
            earn(&mut card);
            assert!(card.validate().is_ok(), "{card:?}");
        }
    }

    #[test]
    fn a_card_paying_by_band_may_cap_parcels_an_address() {
        let by_band = RateCardInput {
            per_stop: None,
            per_collection: None,
            parcel_cap_per_stop: Some(3),
            band_rates: Some(BandRates {
                packet: Some(35),
                small: Some(55),
                large: Some(120),
                ..BandRates::default()
            }),
            ..input()
        };
        let card = by_band.validate().unwrap();
        assert_eq!(card.band_rates.unwrap().large, Some(120));
        assert_eq!(card.parcel_cap_per_stop, Some(3));
        let json = r#"{"id":"0190a6e2-7c1d-7000-8000-0000000000d1","courierId":"0190a6e2-7c1d-7000-8000-0000000000c1","validFrom":"2025-09-01","bandRates":{"packet":35,"large":120}}"#;
        let card = serde_json::from_str::<RateCardInput>(json)
            .unwrap()
            .validate()
            .unwrap();
        assert_eq!(
            card.band_rates.map(|r| (r.packet, r.small, r.large)),
            Some((Some(35), None, Some(120)))
        );
    }

    #[test]
    fn boundaries_are_accepted() {
        let ok = RateCardInput {
            label: "é".repeat(60),
            per_parcel: Some(10_000),
            parcel_cap_per_stop: Some(50),
            per_collection: Some(0),
            per_failed: Some(10_000),
            day_rate: Some(100_000),
            hourly: Some(0),
            peaks: vec![
                peak("2025-12-01", "2025-12-01", Some(0), Some(100)),
                peak("2025-12-02", "2025-12-03", Some(10_000), Some(300)),
            ]
            .into_iter()
            .cycle()
            .take(20)
            .collect(),
            ..input()
        };
        assert!(ok.validate().is_ok());
        let empty_label = RateCardInput {
            label: String::new(),
            peaks: Vec::new(),
            ..input()
        };
        assert!(empty_label.validate().is_ok());
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let bad = RateCardInput {
            id: "x".into(),
            courier_id: "y".into(),
            valid_from: "z".into(),
            per_stop: None,
            per_collection: Some(-1),
            hourly: Some(-1),
            ..input()
        };
        assert_eq!(
            fields(&bad),
            ["id", "courierId", "validFrom", "perCollection", "hourly"]
        );
    }

    #[test]
    fn optional_rules_may_be_absent_but_unknown_fields_are_refused() {
        let minimal = r#"{"id":"0190a6e2-7c1d-7000-8000-0000000000d1","courierId":"0190a6e2-7c1d-7000-8000-0000000000c1","validFrom":"2025-09-01","dayRate":12000}"#;
        let card = serde_json::from_str::<RateCardInput>(minimal)
            .unwrap()
            .validate()
            .unwrap();
        assert_eq!(
            (card.label.as_str(), card.day_rate, card.peaks.len()),
            ("", Some(12_000), 0)
        );
        let extra = minimal.replace("\"dayRate\"", "\"perMile\":3,\"dayRate\"");
        assert!(serde_json::from_str::<RateCardInput>(&extra).is_err());
        let peak_extra = minimal.replace(
            "\"dayRate\"",
            r#""peaks":[{"from":"2025-12-01","to":"2025-12-02","extraPerStop":1,"bonus":2}],"dayRate""#,
        );
        assert!(serde_json::from_str::<RateCardInput>(&peak_extra).is_err());
    }

    proptest! {
        #[test]
        fn in_range_rules_always_validate(
            parcel in 0i64..=10_000, cap in 1i64..=50, day in 0i64..=100_000,
            hourly in 0i64..=10_000, multiplier in 100i64..=300, extra in 0i64..=10_000,
        ) {
            let card = RateCardInput {
                per_stop: None,
                per_parcel: Some(parcel),
                parcel_cap_per_stop: Some(cap),
                day_rate: Some(day),
                hourly: Some(hourly),
                peaks: vec![peak("2026-01-01", "2026-01-31", Some(extra), Some(multiplier))],
                ..input()
            };
            prop_assert!(card.validate().is_ok());
        }

        #[test]
        fn out_of_range_money_is_named(value in prop_oneof![i64::MIN..0, 10_001i64..i64::MAX]) {
            let bad = RateCardInput { per_collection: Some(value), ..input() };
            prop_assert_eq!(fields(&bad), vec!["perCollection"]);
        }
    }
}

//! One line of a courier's statement (`kind: "statementLine"`): a day's stops, a parcel in its
//! size band, a collection, a failed item, a day rate, a bonus, a deduction or an adjustment,
//! each with its quantity, rate and amount. Lines belong to a statement check (`invoice`) and
//! its courier; the device matches them to the log and the rate card (issue 28).
//!
//! A line's `lineKey` is its identity within its check: an import derives it from the file's
//! row (its content and how many identical rows came before it), and the record id from the
//! check's id and the key (a name-based UUID), so importing the same file again, on any device,
//! writes the same ids and adds nothing.

use serde::{Deserialize, Serialize};
use time::Date;
use uuid::Uuid;

use crate::{entry::FieldProblems, fields};

/// A line key: what an import derives from a row (a hash) or a typed line's own id.
pub const MAX_LINE_KEY_CHARS: usize = 64;
/// Items on one line (a per-day line of a busy route is a few hundred).
pub const MAX_QUANTITY: i64 = 10_000;
/// £1,000 for one item.
pub const MAX_RATE_PENCE: i64 = 100_000;
/// £100,000 either way, the most a whole statement may say.
pub const MAX_AMOUNT_PENCE: i64 = crate::statement_check::MAX_PAID_PENCE;
pub const MAX_REFERENCE_CHARS: usize = 100;

/// What a line pays for (or takes back).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum LineType {
    Stop,
    /// A parcel, in its size band when the courier pays by band.
    Parcel,
    Collection,
    /// A failed or returned item.
    Failed,
    /// A day or route rate.
    DayRate,
    Bonus,
    Deduction,
    Adjustment,
}

impl LineType {
    /// Whether the line's amount may be below zero (takes money back) or above zero (pays).
    fn amount_sign(self) -> AmountSign {
        match self {
            LineType::Deduction => AmountSign::NotAbove,
            LineType::Adjustment => AmountSign::Either,
            _ => AmountSign::NotBelow,
        }
    }
}

enum AmountSign {
    NotBelow,
    NotAbove,
    Either,
}

/// A parcel's size band, smallest first (a lower band pays less).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "camelCase")]
pub enum SizeBand {
    Packet,
    Small,
    Medium,
    Large,
    ExtraLarge,
}

/// `statementLine.put` args. Money in pence; the enum-like fields arrive as text so a bad word
/// is named with the other problems.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StatementLineInput {
    pub id: String,
    /// The statement check the line is on.
    pub invoice_id: String,
    pub courier_id: String,
    /// The line's identity within its check (letters, digits, `:` and `-`).
    pub line_key: String,
    pub date: String,
    /// `stop`, `parcel`, `collection`, `failed`, `dayRate`, `bonus`, `deduction` or `adjustment`.
    pub line_type: String,
    /// A parcel line's band: `packet`, `small`, `medium`, `large` or `extraLarge`; null when
    /// the courier does not pay by band, and always null on other lines.
    #[serde(default)]
    pub band: Option<String>,
    pub quantity: i64,
    /// Pence per item, when the statement gives it.
    #[serde(default)]
    pub rate: Option<i64>,
    /// Pence: what the line adds to the pay (below zero for a deduction).
    pub amount: i64,
    /// The statement's reference for the line (a parcel or route number).
    #[serde(default)]
    pub reference: String,
}

/// A validated statement line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatementLine {
    pub id: Uuid,
    pub invoice_id: Uuid,
    pub courier_id: Uuid,
    pub line_key: String,
    pub date: Date,
    pub line_type: LineType,
    pub band: Option<SizeBand>,
    pub quantity: u32,
    pub rate: Option<i64>,
    pub amount: i64,
    pub reference: String,
}

fn is_line_key(raw: &str) -> bool {
    (1..=MAX_LINE_KEY_CHARS).contains(&raw.len())
        && raw
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b':' || b == b'-')
}

impl StatementLineInput {
    pub fn validate(&self) -> Result<StatementLine, FieldProblems> {
        let mut problems = FieldProblems::new();
        let id = fields::uuid(&self.id, "id", "Statement line id", &mut problems);
        let invoice_id = fields::uuid(
            &self.invoice_id,
            "invoiceId",
            "Statement check id",
            &mut problems,
        );
        let courier_id = fields::uuid(&self.courier_id, "courierId", "Courier id", &mut problems);
        if !is_line_key(&self.line_key) {
            problems.push((
                "lineKey",
                format!(
                    "Line key must be 1 to {MAX_LINE_KEY_CHARS} lowercase letters, digits, colons or hyphens"
                ),
            ));
        }
        let date = fields::date(&self.date, "date", "Date", &mut problems);
        let line_type: Option<LineType> = fields::choice(
            &self.line_type,
            "lineType",
            || {
                "Line type must be stop, parcel, collection, failed, dayRate, bonus, deduction or adjustment"
                    .into()
            },
            &mut problems,
        );
        let band: Option<Option<SizeBand>> = match &self.band {
            None => Some(None),
            Some(raw) => fields::choice(
                raw,
                "band",
                || "Band must be packet, small, medium, large or extraLarge, or left empty".into(),
                &mut problems,
            )
            .map(Some),
        };
        if matches!(band, Some(Some(_))) && line_type.is_some_and(|t| t != LineType::Parcel) {
            problems.push(("band", "Only a parcel line has a size band".into()));
        }
        let quantity = u32::try_from(self.quantity)
            .ok()
            .filter(|_| (0..=MAX_QUANTITY).contains(&self.quantity));
        if quantity.is_none() {
            problems.push((
                "quantity",
                format!("Quantity must be a whole number from 0 to {MAX_QUANTITY}"),
            ));
        }
        let rate = fields::optional_in::<i64>(
            self.rate,
            "rate",
            || "Rate must be between £0.00 and £1,000.00, or left empty".into(),
            (0, MAX_RATE_PENCE),
            &mut problems,
        );
        check_amount(self.amount, line_type, &mut problems);
        let reference = fields::line(
            &self.reference,
            "reference",
            "Reference",
            (0, MAX_REFERENCE_CHARS),
            &mut problems,
        );
        match (
            id,
            invoice_id,
            courier_id,
            date,
            line_type,
            band,
            quantity,
            rate,
            reference,
            problems.is_empty(),
        ) {
            (
                Some(id),
                Some(invoice_id),
                Some(courier_id),
                Some(date),
                Some(line_type),
                Some(band),
                Some(quantity),
                Some(rate),
                Some(reference),
                true,
            ) => Ok(StatementLine {
                id,
                invoice_id,
                courier_id,
                line_key: self.line_key.clone(),
                date,
                line_type,
                band,
                quantity,
                rate,
                amount: self.amount,
                reference,
            }),
            _ => Err(problems),
        }
    }
}

fn check_amount(amount: i64, line_type: Option<LineType>, problems: &mut FieldProblems) {
    if !(-MAX_AMOUNT_PENCE..=MAX_AMOUNT_PENCE).contains(&amount) {
        problems.push((
            "amount",
            "Amount must be between -£100,000.00 and £100,000.00".into(),
        ));
        return;
    }
    match line_type.map(LineType::amount_sign) {
        Some(AmountSign::NotBelow) if amount < 0 => problems.push((
            "amount",
            "Amount must not be below £0.00 (only a deduction or an adjustment takes money back)"
                .into(),
        )),
        Some(AmountSign::NotAbove) if amount > 0 => problems.push((
            "amount",
            "A deduction's amount must be £0.00 or below".into(),
        )),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::format_date;

    fn input() -> StatementLineInput {
        StatementLineInput {
            id: "0190a6e2-7c1d-7000-8000-000000000501".into(),
            invoice_id: "0190a6e2-7c1d-7000-8000-000000000201".into(),
            courier_id: "0190a6e2-7c1d-7000-8000-0000000000c1".into(),
            line_key: "csv:3f2a9c:0".into(),
            date: "2025-03-18".into(),
            line_type: "parcel".into(),
            band: Some("small".into()),
            quantity: 3,
            rate: Some(45),
            amount: 135,
            reference: " EV123456 ".into(),
        }
    }

    fn fields(bad: &StatementLineInput) -> Vec<&'static str> {
        match bad.validate() {
            Ok(_) => Vec::new(),
            Err(problems) => problems.iter().map(|p| p.0).collect(),
        }
    }

    #[test]
    fn a_parcel_line_in_its_band_is_valid_and_its_reference_trimmed() {
        let line = input().validate().unwrap();
        assert_eq!(format_date(line.date), "2025-03-18");
        assert_eq!(
            (
                line.line_type,
                line.band,
                line.quantity,
                line.rate,
                line.amount
            ),
            (LineType::Parcel, Some(SizeBand::Small), 3, Some(45), 135)
        );
        assert_eq!(line.reference, "EV123456");
    }

    #[test]
    fn deductions_take_money_back_and_adjustments_go_either_way() {
        let deduction = StatementLineInput {
            line_type: "deduction".into(),
            band: None,
            amount: -2_500,
            ..input()
        };
        assert!(deduction.validate().is_ok());
        for amount in [-700, 700] {
            let adjustment = StatementLineInput {
                line_type: "adjustment".into(),
                band: None,
                amount,
                ..input()
            };
            assert!(adjustment.validate().is_ok(), "{amount}");
        }
    }

    #[test]
    fn bands_are_ordered_smallest_first() {
        assert!(SizeBand::Packet < SizeBand::Small);
        assert!(SizeBand::Large < SizeBand::ExtraLarge);
    }

    #[test]
    fn each_bad_field_is_named() {
        type Breaker = fn(&mut StatementLineInput);
        let cases: Vec<(Breaker, &str)> = vec![
            (|i| i.id = "42".into(), "id"),
            (|i| i.invoice_id = "".into(), "invoiceId"),
            (|i| i.courier_id = "x".into(), "courierId"),
            (|i| i.line_key = "".into(), "lineKey"),
            (|i| i.line_key = "Has Space".into(), "lineKey"),
            (|i| i.line_key = "k".repeat(65), "lineKey"),
            (|i| i.date = "18/03/2025".into(), "date"),
            (|i| i.line_type = "tip".into(), "lineType"),
            (|i| i.band = Some("huge".into()), "band"),
            (|i| i.quantity = -1, "quantity"),
            (|i| i.quantity = MAX_QUANTITY + 1, "quantity"),
            (|i| i.rate = Some(-1), "rate"),
            (|i| i.rate = Some(MAX_RATE_PENCE + 1), "rate"),
            (|i| i.amount = -1, "amount"),
            (|i| i.amount = MAX_AMOUNT_PENCE + 1, "amount"),
            (|i| i.reference = "r".repeat(101), "reference"),
            (|i| i.reference = "EV\n1".into(), "reference"),
        ];
        for (break_it, field) in cases {
            let mut bad = input();
            break_it(&mut bad);
            assert_eq!(fields(&bad), vec![field], "{bad:?}");
        }
    }

    #[test]
    fn only_parcels_have_a_band_and_deductions_cannot_pay() {
        let stop_with_band = StatementLineInput {
            line_type: "stop".into(),
            ..input()
        };
        assert_eq!(fields(&stop_with_band), vec!["band"]);
        let paying_deduction = StatementLineInput {
            line_type: "deduction".into(),
            band: None,
            amount: 100,
            ..input()
        };
        assert_eq!(fields(&paying_deduction), vec!["amount"]);
    }

    #[test]
    fn every_problem_is_named_at_once() {
        let bad = StatementLineInput {
            id: "".into(),
            date: "".into(),
            quantity: -3,
            ..input()
        };
        assert_eq!(fields(&bad), vec!["id", "date", "quantity"]);
    }
}

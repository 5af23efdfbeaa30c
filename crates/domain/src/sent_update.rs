//! A sent quarterly update (`kind: "sentUpdate"`, issue 29): the driver's own record of a Making
//! Tax Digital update sent through bridging software, because a successful update returns no
//! receipt. It holds the exact file sent (HMRC's createAmendCumulativePeriodSummary request
//! body, made on the device), its SHA-256, the day, the bridging product and the reference the
//! driver got. Sent is sent: once stored it is never edited or deleted (the push refuses both,
//! `immutable`); a later update of the same quarter is a new record that names the one it
//! supersedes.

use serde::{Deserialize, Serialize};
use time::Date;
use uuid::Uuid;

use crate::{
    entry::FieldProblems,
    fields,
    merge::{Existing, Op},
};

pub const MAX_PRODUCT_CHARS: usize = 80;
pub const MAX_REFERENCE_CHARS: usize = 100;
/// The request body is a few hundred bytes; this is generous and bounded.
pub const MAX_FILE_BYTES: usize = 8 * 1024;
/// The answer to a put or delete of a sent update already stored.
pub const IMMUTABLE: &str = "immutable";
pub const IMMUTABLE_MESSAGE: &str = "A sent update is kept as it was sent: it cannot be changed or deleted. Send the next \
     update (or mark a new one as sent) to supersede it.";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum ExpensesShape {
    Itemised,
    Consolidated,
}

/// `sentUpdate.put` args.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SentUpdateInput {
    pub id: String,
    /// "2026-27".
    pub tax_year: String,
    pub quarter: i64,
    /// `standard` or `calendar`.
    pub quarters: String,
    pub period_start: String,
    pub period_end: String,
    /// `itemised` or `consolidated`.
    pub shape: String,
    /// The exact file sent (JSON text).
    pub file: String,
    /// SHA-256 of `file`'s UTF-8 bytes, lowercase hex; the server checks it.
    pub sha256: String,
    pub sent_on: String,
    pub product: String,
    pub reference: String,
    /// The earlier sent update of the same quarter this one replaces, if any.
    #[serde(default)]
    pub supersedes: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentUpdate {
    pub id: Uuid,
    pub tax_year: String,
    pub quarter: u8,
    pub quarters: crate::profile::MtdQuarters,
    pub period_start: Date,
    pub period_end: Date,
    pub shape: ExpensesShape,
    pub file: String,
    pub sha256: String,
    pub sent_on: Date,
    pub product: String,
    pub reference: String,
    pub supersedes: Option<Uuid>,
}

fn is_tax_year(raw: &str) -> bool {
    let bytes = raw.as_bytes();
    if bytes.len() != 7 || bytes[4] != b'-' || !raw[..4].bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let (Ok(start), Ok(end)) = (raw[..4].parse::<u32>(), raw[5..].parse::<u32>()) else {
        return false;
    };
    raw[5..].bytes().all(|b| b.is_ascii_digit()) && (start + 1) % 100 == end
}

fn is_sha256_hex(raw: &str) -> bool {
    raw.len() == 64 && raw.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

impl SentUpdateInput {
    pub fn validate(&self) -> Result<SentUpdate, FieldProblems> {
        let mut p = FieldProblems::new();
        let id = fields::uuid(&self.id, "id", "Sent update id", &mut p);
        if !is_tax_year(&self.tax_year) {
            p.push(("taxYear", "Tax year must be written like 2026-27".into()));
        }
        if !(1..=4).contains(&self.quarter) {
            p.push(("quarter", "Quarter must be 1, 2, 3 or 4".into()));
        }
        let quarters = fields::choice::<crate::profile::MtdQuarters>(
            &self.quarters,
            "quarters",
            || "Quarters must be standard or calendar".into(),
            &mut p,
        );
        let period_start = fields::date(&self.period_start, "periodStart", "Start", &mut p);
        let period_end = fields::date(&self.period_end, "periodEnd", "End", &mut p);
        if let (Some(start), Some(end)) = (period_start, period_end)
            && start > end
        {
            p.push(("periodEnd", "End must not be before the start".into()));
        }
        let shape = fields::choice::<ExpensesShape>(
            &self.shape,
            "shape",
            || "Shape must be itemised or consolidated".into(),
            &mut p,
        );
        if self.file.is_empty() || self.file.len() > MAX_FILE_BYTES {
            p.push((
                "file",
                format!("The file must be 1 to {MAX_FILE_BYTES} bytes"),
            ));
        } else if !serde_json::from_str::<serde_json::Value>(&self.file)
            .is_ok_and(|v| v.is_object())
        {
            p.push(("file", "The file must be a JSON object".into()));
        }
        if !is_sha256_hex(&self.sha256) {
            p.push(("sha256", "SHA-256 must be 64 lowercase hex digits".into()));
        }
        let sent_on = fields::date(&self.sent_on, "sentOn", "Sent on", &mut p);
        let product = fields::line(
            &self.product,
            "product",
            "Bridging software",
            (1, MAX_PRODUCT_CHARS),
            &mut p,
        );
        let reference = fields::line(
            &self.reference,
            "reference",
            "Reference",
            (0, MAX_REFERENCE_CHARS),
            &mut p,
        );
        let supersedes =
            fields::optional_uuid(&self.supersedes, "supersedes", "Superseded update", &mut p);
        if supersedes.flatten().is_some() && supersedes.flatten() == id {
            p.push(("supersedes", "An update cannot supersede itself".into()));
        }
        match (
            id,
            quarters,
            period_start,
            period_end,
            shape,
            sent_on,
            product,
            reference,
            supersedes,
            p.is_empty(),
        ) {
            (
                Some(id),
                Some(quarters),
                Some(period_start),
                Some(period_end),
                Some(shape),
                Some(sent_on),
                Some(product),
                Some(reference),
                Some(supersedes),
                true,
            ) => Ok(SentUpdate {
                id,
                tax_year: self.tax_year.clone(),
                quarter: u8::try_from(self.quarter).unwrap_or(1),
                quarters,
                period_start,
                period_end,
                shape,
                file: self.file.clone(),
                sha256: self.sha256.clone(),
                sent_on,
                product,
                reference,
                supersedes,
            }),
            _ => Err(p),
        }
    }
}

/// The supersession rule: a sent update, once the user holds it, is never changed or deleted
/// (`true`: refuse). Anything else goes through the usual push rules (a new id is stored,
/// another account's id is `not-owner`).
pub fn refused_as_sent(_op: Op, existing: Existing) -> bool {
    existing == Existing::Live || existing == Existing::Deleted
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHA: &str = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    fn input() -> SentUpdateInput {
        SentUpdateInput {
            id: "0190a6e2-7c1d-7000-8000-000000000301".into(),
            tax_year: "2026-27".into(),
            quarter: 1,
            quarters: "standard".into(),
            period_start: "2026-04-06".into(),
            period_end: "2026-07-05".into(),
            shape: "itemised".into(),
            file: "{\"periodIncome\":{\"turnover\":1}}".into(),
            sha256: SHA.into(),
            sent_on: "2026-08-01".into(),
            product: " Bridger ".into(),
            reference: "ABC-123".into(),
            supersedes: None,
        }
    }

    fn problems(bad: SentUpdateInput) -> Vec<&'static str> {
        bad.validate()
            .err()
            .map(|p| p.iter().map(|(field, _)| *field).collect())
            .unwrap_or_default()
    }

    #[test]
    fn a_sent_update_is_valid() {
        let sent = input().validate().unwrap();
        assert_eq!((sent.quarter, sent.product.as_str()), (1, "Bridger"));
    }

    #[test]
    fn every_problem_is_named() {
        let bad = SentUpdateInput {
            tax_year: "2026-28".into(),
            quarter: 5,
            quarters: "monthly".into(),
            period_end: "2026-04-05".into(),
            shape: "both".into(),
            file: "[1]".into(),
            sha256: SHA.to_uppercase(),
            product: String::new(),
            reference: "x".repeat(101),
            supersedes: Some("0190a6e2-7c1d-7000-8000-000000000301".into()),
            ..input()
        };
        assert_eq!(
            problems(bad),
            [
                "taxYear",
                "quarter",
                "quarters",
                "periodEnd",
                "shape",
                "file",
                "sha256",
                "product",
                "reference",
                "supersedes"
            ]
        );
        assert_eq!(
            problems(SentUpdateInput {
                file: "x".repeat(MAX_FILE_BYTES + 1),
                ..input()
            }),
            ["file"]
        );
    }

    /// The supersession rule, as a table: only a new id is stored; the user's own sent update
    /// (live or, were one ever deleted, its tombstone) is never changed.
    #[test]
    fn sent_is_sent() {
        for (op, existing, refused) in [
            (Op::Put, Existing::Absent, false),
            (Op::Put, Existing::Live, true),
            (Op::Put, Existing::Deleted, true),
            (Op::Put, Existing::OtherOwner, false),
            (Op::Delete, Existing::Absent, false),
            (Op::Delete, Existing::Live, true),
            (Op::Delete, Existing::Deleted, true),
            (Op::Delete, Existing::OtherOwner, false),
        ] {
            assert_eq!(
                refused_as_sent(op, existing),
                refused,
                "{op:?} {existing:?}"
            );
        }
    }
}

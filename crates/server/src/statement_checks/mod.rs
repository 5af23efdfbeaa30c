//! A statement check: what a courier's statement said was paid for a period. On the wire its
//! kind is still `invoice` (`invoice.put`, `invoice.delete`), the name devices already
//! installed send: one alias, stated in the contract (`CODE_NAME`) and docs/api.md. Declared
//! once: its rules are `domain::statement_check::StatementCheckInput::validate`; it points at
//! its courier. Storage and sync are the generic record machinery.

use domain::{
    entry::{FieldProblems, format_date},
    statement_check::{StatementCheck, StatementCheckInput},
    sync::StatementCheckContent,
};
use uuid::Uuid;

use crate::{
    couriers::Couriers,
    records::{RecordKind, Reference, Words},
};

pub struct StatementChecks;

impl RecordKind for StatementChecks {
    const NAME: &'static str = "invoice";
    const WORDS: Words = Words::new("statement check", "statement checks");
    const CODE_NAME: Option<&'static str> = Some("statementCheck");
    type Input = StatementCheckInput;
    type Record = StatementCheck;
    type Content = StatementCheckContent;
    const REFERENCES: &'static [Reference] = &[Reference::to::<Couriers>("courierId")];

    fn validate(
        input: &StatementCheckInput,
        user_id: Uuid,
    ) -> Result<StatementCheck, FieldProblems> {
        input.validate(user_id)
    }

    fn bounds() -> serde_json::Value {
        serde_json::json!({
            "maxPeriodDays": domain::statement_check::MAX_PERIOD_DAYS,
            "maxPaidPence": domain::statement_check::MAX_PAID_PENCE,
            "maxStops": domain::statement_check::MAX_STOPS,
            "maxReferenceChars": domain::statement_check::MAX_REFERENCE_CHARS,
            "maxItems": domain::statement_check::MAX_ITEMS,
            "maxNoteChars": domain::statement_check::MAX_NOTE_CHARS,
        })
    }

    fn id(check: &StatementCheck) -> Uuid {
        check.id
    }

    /// An app from before couriers sends no courierId (a newer one always does), nor the
    /// statement fields that came with it.
    fn kept_when_absent(input: &StatementCheckInput) -> &'static [&'static str] {
        const STATEMENT_FIELDS: &[&str] = &[
            "courierId",
            "parcels",
            "collections",
            "deductions",
            "status",
            "note",
        ];
        if input.courier_id.is_none() {
            STATEMENT_FIELDS
        } else {
            &[]
        }
    }

    fn content(check: &StatementCheck) -> StatementCheckContent {
        StatementCheckContent {
            period_start: format_date(check.period_start),
            period_end: format_date(check.period_end),
            paid: check.paid.pence(),
            stops: check.stops,
            reference: check.reference.clone(),
            courier_id: check.courier_id.to_string(),
            parcels: check.parcels,
            collections: check.collections,
            deductions: check.deductions.map(domain::Money::pence),
            status: check.status,
            note: check.note.clone(),
        }
    }
}

//! A statement format (`kind: "statementFormat"`): how one courier's statement file reads, the
//! column mapping the driver confirmed once so the next import is one tap on every device.
//! Declared once: its rules are `domain::statement_format::StatementFormatInput::validate`; it
//! points at its courier.

use domain::{
    entry::FieldProblems,
    statement_format::{StatementFormat, StatementFormatInput},
    sync::StatementFormatContent,
};
use uuid::Uuid;

use crate::{
    couriers::Couriers,
    records::{RecordKind, Reference, Words},
};

pub struct StatementFormats;

impl RecordKind for StatementFormats {
    const NAME: &'static str = "statementFormat";
    const WORDS: Words = Words::new("statement format", "statement formats");
    type Input = StatementFormatInput;
    type Record = StatementFormat;
    type Content = StatementFormatContent;
    const REFERENCES: &'static [Reference] = &[Reference::to::<Couriers>("courierId")];

    fn validate(
        input: &StatementFormatInput,
        _user_id: Uuid,
    ) -> Result<StatementFormat, FieldProblems> {
        input.validate()
    }

    fn bounds() -> serde_json::Value {
        use domain::statement_format as rules;
        serde_json::json!({
            "maxColumnChars": rules::MAX_COLUMN_CHARS,
            "maxTypeWords": rules::MAX_TYPE_WORDS,
            "maxWordChars": rules::MAX_WORD_CHARS,
        })
    }

    fn id(format: &StatementFormat) -> Uuid {
        format.id
    }

    fn content(f: &StatementFormat) -> StatementFormatContent {
        StatementFormatContent {
            courier_id: f.courier_id.to_string(),
            source: f.source,
            date_column: f.date_column.clone(),
            date_order: f.date_order,
            amount_column: f.amount_column.clone(),
            type_column: f.type_column.clone(),
            band_column: f.band_column.clone(),
            quantity_column: f.quantity_column.clone(),
            rate_column: f.rate_column.clone(),
            reference_column: f.reference_column.clone(),
            default_type: f.default_type,
            deductions_positive: f.deductions_positive,
            type_words: f.type_words.clone(),
        }
    }
}

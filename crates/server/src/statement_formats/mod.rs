//! A statement format (`kind: "statementFormat"`): how one courier's statement file reads, the
//! column mapping the driver confirmed once so the next import is one tap on every device.
//! Declared once: its rules are `domain::statement_format::StatementFormatInput::validate`; it
//! points at its courier.

use domain::{
    entry::FieldProblems,
    statement_format::{DateOrder, FormatSource, StatementFormat, StatementFormatInput, TypeWord},
    statement_line::LineType,
    sync::StatementFormatData,
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{
    couriers::Couriers,
    records::{RecordKind, Reference},
};

pub struct StatementFormats;

/// A stored statement format: its pulled `data` without the timestamps.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatementFormatContent {
    courier_id: Uuid,
    source: FormatSource,
    date_column: String,
    date_order: DateOrder,
    amount_column: String,
    type_column: Option<String>,
    band_column: Option<String>,
    quantity_column: Option<String>,
    rate_column: Option<String>,
    reference_column: Option<String>,
    default_type: LineType,
    deductions_positive: bool,
    type_words: Vec<TypeWord>,
}

impl RecordKind for StatementFormats {
    const NAME: &'static str = "statementFormat";
    type Input = StatementFormatInput;
    type Record = StatementFormat;
    type Content = StatementFormatContent;
    type Data = StatementFormatData;
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
            courier_id: f.courier_id,
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

    fn data(
        c: StatementFormatContent,
        created_at: String,
        updated_at: String,
    ) -> StatementFormatData {
        StatementFormatData {
            courier_id: c.courier_id.to_string(),
            source: c.source,
            date_column: c.date_column,
            date_order: c.date_order,
            amount_column: c.amount_column,
            type_column: c.type_column,
            band_column: c.band_column,
            quantity_column: c.quantity_column,
            rate_column: c.rate_column,
            reference_column: c.reference_column,
            default_type: c.default_type,
            deductions_positive: c.deductions_positive,
            type_words: c.type_words,
            created_at,
            updated_at,
        }
    }
}

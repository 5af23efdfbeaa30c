//! A statement line (`kind: "statementLine"`): one line of a courier's statement, on its
//! statement check and courier. Declared once: its rules are
//! `domain::statement_line::StatementLineInput::validate`. Importing the same file again writes
//! the same ids (the device derives each from the check and the line key), which push takes as
//! updates, so nothing is added twice; storage, the quota and sync are the generic record
//! machinery.

use domain::{
    entry::{FieldProblems, format_date},
    statement_line::{StatementLine, StatementLineInput},
    sync::StatementLineContent,
};
use uuid::Uuid;

use crate::{
    couriers::Couriers,
    records::{RecordKind, Reference, Words},
    statement_checks::StatementChecks,
};

pub struct StatementLines;

impl RecordKind for StatementLines {
    const NAME: &'static str = "statementLine";
    const WORDS: Words = Words::new("statement line", "statement lines");
    type Input = StatementLineInput;
    type Record = StatementLine;
    type Content = StatementLineContent;
    const REFERENCES: &'static [Reference] = &[
        Reference::to::<StatementChecks>("invoiceId"),
        Reference::to::<Couriers>("courierId"),
    ];

    fn validate(
        input: &StatementLineInput,
        _user_id: Uuid,
    ) -> Result<StatementLine, FieldProblems> {
        input.validate()
    }

    fn bounds() -> serde_json::Value {
        use domain::statement_line as rules;
        serde_json::json!({
            "maxLineKeyChars": rules::MAX_LINE_KEY_CHARS,
            "maxQuantity": rules::MAX_QUANTITY,
            "maxRatePence": rules::MAX_RATE_PENCE,
            "maxAmountPence": rules::MAX_AMOUNT_PENCE,
            "maxReferenceChars": rules::MAX_REFERENCE_CHARS,
        })
    }

    fn id(line: &StatementLine) -> Uuid {
        line.id
    }

    fn content(line: &StatementLine) -> StatementLineContent {
        StatementLineContent {
            invoice_id: line.invoice_id.to_string(),
            courier_id: line.courier_id.to_string(),
            line_key: line.line_key.clone(),
            date: format_date(line.date),
            line_type: line.line_type,
            band: line.band,
            quantity: line.quantity,
            rate: line.rate,
            amount: line.amount,
            reference: line.reference.clone(),
        }
    }
}

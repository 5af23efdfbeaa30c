//! An invoice check (`kind: "invoice"`): what a courier's statement said was paid for a
//! period. Declared once: its rules are `domain::invoice::InvoiceInput::validate`; storage
//! and sync are the generic record machinery.

use domain::{
    entry::{FieldProblems, format_date},
    invoice::{Invoice, InvoiceInput},
    sync::{ChangeData, InvoiceData},
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::records::RecordKind;

pub struct Invoices;

/// A stored invoice check: its pulled `data` without the timestamps.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceContent {
    period_start: String,
    period_end: String,
    paid: i64,
    stops: Option<u32>,
    reference: String,
}

impl RecordKind for Invoices {
    const NAME: &'static str = "invoice";
    type Input = InvoiceInput;
    type Record = Invoice;
    type Content = InvoiceContent;

    fn validate(input: &InvoiceInput) -> Result<Invoice, FieldProblems> {
        input.validate()
    }

    fn id(invoice: &Invoice) -> Uuid {
        invoice.id
    }

    fn content(invoice: &Invoice) -> InvoiceContent {
        InvoiceContent {
            period_start: format_date(invoice.period_start),
            period_end: format_date(invoice.period_end),
            paid: invoice.paid.pence(),
            stops: invoice.stops,
            reference: invoice.reference.clone(),
        }
    }

    fn data(c: InvoiceContent, created_at: String, updated_at: String) -> ChangeData {
        ChangeData::Invoice(InvoiceData {
            period_start: c.period_start,
            period_end: c.period_end,
            paid: c.paid,
            stops: c.stops,
            reference: c.reference,
            created_at,
            updated_at,
        })
    }
}

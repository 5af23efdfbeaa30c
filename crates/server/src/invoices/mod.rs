//! An invoice check, now a statement check (`kind: "invoice"`): what a courier's statement
//! said was paid for a period. Declared once: its rules are
//! `domain::invoice::InvoiceInput::validate`; it points at its courier. Storage and sync are
//! the generic record machinery.

use domain::{
    entry::{FieldProblems, format_date},
    invoice::{CheckStatus, Invoice, InvoiceInput},
    sync::InvoiceData,
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{
    couriers::Couriers,
    records::{RecordKind, Reference},
};

pub struct Invoices;

/// A stored statement check: its pulled `data` without the timestamps.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceContent {
    period_start: String,
    period_end: String,
    paid: i64,
    stops: Option<u32>,
    reference: String,
    courier_id: Uuid,
    parcels: Option<u32>,
    collections: Option<u32>,
    deductions: Option<i64>,
    status: CheckStatus,
    note: String,
}

impl RecordKind for Invoices {
    const NAME: &'static str = "invoice";
    type Input = InvoiceInput;
    type Record = Invoice;
    type Content = InvoiceContent;
    type Data = InvoiceData;
    const REFERENCES: &'static [Reference] = &[Reference::to::<Couriers>("courierId")];

    fn validate(input: &InvoiceInput, user_id: Uuid) -> Result<Invoice, FieldProblems> {
        input.validate(user_id)
    }

    fn bounds() -> serde_json::Value {
        serde_json::json!({
            "maxPeriodDays": domain::invoice::MAX_PERIOD_DAYS,
            "maxPaidPence": domain::invoice::MAX_PAID_PENCE,
            "maxStops": domain::invoice::MAX_STOPS,
            "maxReferenceChars": domain::invoice::MAX_REFERENCE_CHARS,
            "maxItems": domain::invoice::MAX_ITEMS,
            "maxNoteChars": domain::invoice::MAX_NOTE_CHARS,
        })
    }

    fn id(invoice: &Invoice) -> Uuid {
        invoice.id
    }

    /// An app from before couriers sends no courierId (a newer one always does), nor the
    /// statement fields that came with it.
    fn kept_when_absent(input: &InvoiceInput) -> &'static [&'static str] {
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

    fn content(invoice: &Invoice) -> InvoiceContent {
        InvoiceContent {
            period_start: format_date(invoice.period_start),
            period_end: format_date(invoice.period_end),
            paid: invoice.paid.pence(),
            stops: invoice.stops,
            reference: invoice.reference.clone(),
            courier_id: invoice.courier_id,
            parcels: invoice.parcels,
            collections: invoice.collections,
            deductions: invoice.deductions.map(domain::Money::pence),
            status: invoice.status,
            note: invoice.note.clone(),
        }
    }

    fn data(c: InvoiceContent, created_at: String, updated_at: String) -> InvoiceData {
        InvoiceData {
            period_start: c.period_start,
            period_end: c.period_end,
            paid: c.paid,
            stops: c.stops,
            reference: c.reference,
            courier_id: c.courier_id.to_string(),
            parcels: c.parcels,
            collections: c.collections,
            deductions: c.deductions,
            status: c.status,
            note: c.note,
            created_at,
            updated_at,
        }
    }
}

//! A logged working day (`kind: "entry"`), declared once: its rules are
//! `domain::entry::EntryInput::validate`; storage and sync are the generic record machinery.

use domain::{
    entry::{Entry, EntryInput, FieldProblems, format_date},
    sync::{ChangeData, EntryData},
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::records::RecordKind;

pub struct Entries;

/// A stored entry: its pulled `data` without the timestamps.
#[derive(Debug, Serialize, Deserialize)]
pub struct EntryContent {
    date: String,
    stops: u32,
    extra: i64,
    notes: String,
    total: i64,
}

impl RecordKind for Entries {
    const NAME: &'static str = "entry";
    type Input = EntryInput;
    type Record = Entry;
    type Content = EntryContent;

    fn validate(input: &EntryInput) -> Result<Entry, FieldProblems> {
        input.validate()
    }

    fn id(entry: &Entry) -> Uuid {
        entry.id
    }

    fn content(entry: &Entry) -> EntryContent {
        EntryContent {
            date: format_date(entry.date),
            stops: entry.stops,
            extra: entry.extra.pence(),
            notes: entry.notes.clone(),
            total: entry.total.pence(),
        }
    }

    fn data(c: EntryContent, created_at: String, updated_at: String) -> ChangeData {
        ChangeData::Entry(EntryData {
            date: c.date,
            stops: c.stops,
            extra: c.extra,
            notes: c.notes,
            total: c.total,
            created_at,
            updated_at,
        })
    }
}

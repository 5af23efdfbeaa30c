//! A logged working day (`kind: "entry"`), declared once: its rules are
//! `domain::entry::EntryInput::validate`; it points at its courier and the card that priced
//! it. Storage and sync are the generic record machinery.

use domain::{
    entry::{Entry, EntryInput, FieldProblems, format_date},
    fields::format_clock,
    sync::{ChangeData, EntryData},
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{
    couriers::Couriers,
    rate_cards::RateCards,
    records::{RecordKind, kind::Agreement},
};

pub struct Entries;

/// A stored entry: its pulled `data` without the timestamps, all twelve fields always written
/// (null when not given).
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EntryContent {
    date: String,
    stops: u32,
    extra: i64,
    notes: String,
    total: i64,
    courier_id: Uuid,
    rate_card_id: Option<Uuid>,
    parcels: Option<u32>,
    collections: Option<u32>,
    failed: Option<u32>,
    start_time: Option<String>,
    finish_time: Option<String>,
}

impl RecordKind for Entries {
    const NAME: &'static str = "entry";
    type Input = EntryInput;
    type Record = Entry;
    type Content = EntryContent;

    fn validate(input: &EntryInput, user_id: Uuid) -> Result<Entry, FieldProblems> {
        input.validate(user_id)
    }

    fn id(entry: &Entry) -> Uuid {
        entry.id
    }

    /// An app from before couriers sends no courierId (a newer one always does), nor the fields
    /// that came with it.
    fn kept_when_absent(input: &EntryInput) -> &'static [&'static str] {
        const COURIER_FIELDS: &[&str] = &[
            "courierId",
            "rateCardId",
            "parcels",
            "collections",
            "failed",
            "startTime",
            "finishTime",
        ];
        if input.courier_id.is_none() {
            COURIER_FIELDS
        } else {
            &[]
        }
    }

    fn references(entry: &Entry) -> Vec<(&'static str, Uuid)> {
        let card = entry.rate_card_id.map(|id| (RateCards::NAME, id));
        [(Couriers::NAME, entry.courier_id)]
            .into_iter()
            .chain(card)
            .collect()
    }

    /// The card that priced the day is a card of the day's courier.
    fn agreements(entry: &Entry) -> Vec<Agreement> {
        entry
            .rate_card_id
            .map(|card| Agreement {
                kind: RateCards::NAME,
                id: card,
                field: "courierId",
                value: entry.courier_id.to_string(),
                otherwise: "This day's rate card is another courier's.",
            })
            .into_iter()
            .collect()
    }

    fn content(entry: &Entry) -> EntryContent {
        EntryContent {
            date: format_date(entry.date),
            stops: entry.stops,
            extra: entry.extra.pence(),
            notes: entry.notes.clone(),
            total: entry.total.pence(),
            courier_id: entry.courier_id,
            rate_card_id: entry.rate_card_id,
            parcels: entry.parcels,
            collections: entry.collections,
            failed: entry.failed,
            start_time: entry.hours.map(|(start, _)| format_clock(start)),
            finish_time: entry.hours.map(|(_, finish)| format_clock(finish)),
        }
    }

    fn data(c: EntryContent, created_at: String, updated_at: String) -> ChangeData {
        ChangeData::Entry(EntryData {
            date: c.date,
            stops: c.stops,
            extra: c.extra,
            notes: c.notes,
            total: c.total,
            courier_id: c.courier_id.to_string(),
            rate_card_id: c.rate_card_id.map(|id| id.to_string()),
            parcels: c.parcels,
            collections: c.collections,
            failed: c.failed,
            start_time: c.start_time,
            finish_time: c.finish_time,
            created_at,
            updated_at,
        })
    }
}

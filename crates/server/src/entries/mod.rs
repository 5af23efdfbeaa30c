//! A logged working day (`kind: "entry"`), declared once: its rules are
//! `domain::entry::EntryInput::validate`; it points at its courier and the card that priced
//! it. Storage and sync are the generic record machinery.

use domain::{
    entry::{Entry, EntryInput, FieldProblems, format_date},
    fields::format_clock,
    sync::EntryContent,
};
use uuid::Uuid;

use crate::{
    couriers::Couriers,
    rate_cards::RateCards,
    records::{RecordKind, Reference, Words, kind::Agreement},
};

pub struct Entries;

impl RecordKind for Entries {
    const NAME: &'static str = "entry";
    const WORDS: Words = Words::new("day", "days").record("entry");
    type Input = EntryInput;
    type Record = Entry;
    type Content = EntryContent;
    const REFERENCES: &'static [Reference] = &[
        Reference::to::<Couriers>("courierId"),
        Reference::to::<RateCards>("rateCardId"),
    ];

    fn validate(input: &EntryInput, user_id: Uuid) -> Result<Entry, FieldProblems> {
        input.validate(user_id)
    }

    fn bounds() -> serde_json::Value {
        serde_json::json!({
            "maxStops": domain::entry::MAX_STOPS,
            "maxExtraPence": domain::entry::MAX_EXTRA_PENCE,
            "maxNotesChars": domain::entry::MAX_NOTES_CHARS,
            "maxTotalPence": domain::entry::MAX_TOTAL_PENCE,
            "maxItems": domain::entry::MAX_ITEMS,
        })
    }

    fn id(entry: &Entry) -> Uuid {
        entry.id
    }

    /// An app from before couriers sends no courierId (a newer one always does), nor the fields
    /// that came with it; an app from before shifts sends no separateShift, so its edit of a
    /// day the driver kept as a separate shift must not turn it back into a duplicate.
    /// `bands` is never kept: an older app's edit may change the parcels, and stored bands
    /// would then no longer add up to them, so its day is saved as not counted by band.
    fn kept_when_absent(input: &EntryInput) -> &'static [&'static str] {
        const BEFORE_COURIERS: &[&str] = &[
            "courierId",
            "rateCardId",
            "parcels",
            "collections",
            "failed",
            "startTime",
            "finishTime",
            "separateShift",
        ];
        const BEFORE_SHIFTS: &[&str] = &["separateShift"];
        match (&input.courier_id, input.separate_shift) {
            (None, _) => BEFORE_COURIERS,
            (Some(_), None) => BEFORE_SHIFTS,
            (Some(_), Some(_)) => &[],
        }
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
            courier_id: entry.courier_id.to_string(),
            rate_card_id: entry.rate_card_id.map(|id| id.to_string()),
            parcels: entry.parcels,
            collections: entry.collections,
            failed: entry.failed,
            start_time: entry.hours.map(|(start, _)| format_clock(start)),
            finish_time: entry.hours.map(|(_, finish)| format_clock(finish)),
            separate_shift: entry.separate_shift,
            bands: entry.bands,
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{Value, json};

    use super::*;
    use crate::records::{Kind, kind::keep_stored_fields};

    const USER: &str = "0190a6e2-7c1d-7000-8000-00000000f001";
    const DAY: &str = "0190a6e2-7c1d-7000-8000-000000000001";

    /// What an app of each age sends for an edit of the day: before couriers, after couriers
    /// but before shifts, and now (with its own `separateShift`).
    fn edit(age: u8, shift: bool, notes: &str) -> Value {
        let mut args = json!({"id": DAY, "date": "2025-11-27", "stops": 60, "total": 11_880,
                              "notes": notes});
        if age >= 1 {
            args["courierId"] = json!(USER);
            args["rateCardId"] = json!(USER);
        }
        if age >= 2 {
            args["separateShift"] = json!(shift);
        }
        args
    }

    proptest! {
        /// Whatever was stored and whichever app edits the day, the stored shift mark changes
        /// only when the edit says what it is: an app that does not know shifts never clears
        /// (or sets) it.
        #[test]
        fn only_an_app_that_knows_shifts_changes_the_mark(
            stored in any::<bool>(), age in 0u8..3, sent in any::<bool>(), notes in "[a-z ]{0,12}",
        ) {
            let user = Uuid::parse_str(USER).unwrap();
            let kind = Kind::of::<Entries>();
            let first = kind.parse_put(edit(2, stored, "first"), user).unwrap();
            let put = kind.parse_put(edit(age, sent, &notes), user).unwrap();
            let merged = keep_stored_fields(&put.content, &first.content, put.kept).unwrap();
            let merged: Value = serde_json::from_str(&merged).unwrap();
            let expected = if age >= 2 { sent } else { stored };
            prop_assert_eq!(&merged["separateShift"], &json!(expected));
            prop_assert_eq!(&merged["notes"], &json!(notes));
        }
    }
}

//! Evidence kept at the time (`kind: "evidence"`, issue 28): something the driver noted on a
//! day, a statement line or a statement query as it happened — a note, a photo (proof of
//! delivery, the handheld's end-of-day summary, damage), time waiting at the depot or loading,
//! or an instruction received (who said what). Each item belongs to exactly one day, line or
//! query, and keeps two times: when the device recorded it (`recordedAt`, the device's own
//! clock, as sent) and when the server first stored it (the record's `createdAt`, set by the
//! server on the first put and never taken from a device).
//!
//! A photo is not in the record: the record names it (`photoId`) and the photo uploads through
//! the receipt-photo routes (owner-only, idempotent, counted in the photo quota).

use serde::{Deserialize, Serialize};
use time::{OffsetDateTime, format_description::well_known::Rfc3339};
use uuid::Uuid;

use crate::{entry::FieldProblems, fields};

/// A note, a photo's caption, a waiting time's remark or an instruction's words.
pub const MAX_TEXT_CHARS: usize = 2_000;
/// Where the driver waited, who gave an instruction: one line.
pub const MAX_NAME_CHARS: usize = 100;
/// A whole day of waiting is the most one item records.
pub const MAX_WAITING_MINUTES: i64 = 1_440;
/// An RFC 3339 time is 20 to 35 characters; anything longer is not one a device writes.
pub const MAX_RECORDED_AT_CHARS: usize = 40;

/// What an evidence item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum EvidenceType {
    Note,
    Photo,
    Waiting,
    Instruction,
}

/// What a photo shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum PhotoPurpose {
    ProofOfDelivery,
    EndOfDaySummary,
    Damage,
    Other,
}

/// `evidence.put` args. Every field is required (null or empty where the type has none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EvidenceInput {
    pub id: String,
    /// The day (entry) it is about; exactly one of this, `statementLineId` and
    /// `statementQueryId` names a record.
    #[serde(deserialize_with = "Option::deserialize")]
    pub entry_id: Option<String>,
    #[serde(deserialize_with = "Option::deserialize")]
    pub statement_line_id: Option<String>,
    #[serde(deserialize_with = "Option::deserialize")]
    pub statement_query_id: Option<String>,
    /// `note`, `photo`, `waiting` or `instruction`.
    #[serde(rename = "type")]
    pub evidence_type: String,
    /// When the device recorded it (RFC 3339, the device's clock), kept as sent.
    pub recorded_at: String,
    /// The note; a photo's caption, a waiting time's remark (both may be empty); an
    /// instruction's words.
    pub text: String,
    /// A photo's id (its upload at `/api/v1/receipts/{id}`); null for the other types.
    #[serde(deserialize_with = "Option::deserialize")]
    pub photo_id: Option<String>,
    /// What a photo shows; null for the other types.
    #[serde(deserialize_with = "Option::deserialize")]
    pub purpose: Option<String>,
    /// Whole minutes waited; null for the other types.
    #[serde(deserialize_with = "Option::deserialize")]
    pub minutes: Option<i64>,
    /// Where the driver waited (may be empty); empty for the other types.
    pub place: String,
    /// Who gave an instruction; empty for the other types.
    pub from_whom: String,
}

/// What an evidence item belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvidenceHolder {
    Entry(Uuid),
    StatementLine(Uuid),
    StatementQuery(Uuid),
}

/// A validated evidence item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evidence {
    pub id: Uuid,
    pub holder: EvidenceHolder,
    pub evidence_type: EvidenceType,
    pub recorded_at: String,
    pub text: String,
    pub photo_id: Option<Uuid>,
    pub purpose: Option<PhotoPurpose>,
    pub minutes: Option<u16>,
    pub place: String,
    pub from_whom: String,
}

impl EvidenceInput {
    pub fn validate(&self) -> Result<Evidence, FieldProblems> {
        let mut p = FieldProblems::new();
        let id = fields::uuid(&self.id, "id", "Evidence id", &mut p);
        let holder = self.holder(&mut p);
        let evidence_type = fields::choice::<EvidenceType>(
            &self.evidence_type,
            "type",
            || "Type must be note, photo, waiting or instruction".into(),
            &mut p,
        );
        let recorded_at = recorded_at(&self.recorded_at, &mut p);
        let text = fields::multi_line(&self.text, "text", "Text", MAX_TEXT_CHARS, &mut p);
        let photo_id = match &self.photo_id {
            None => Some(None),
            Some(raw) => {
                let parsed = fields::canonical_uuid(raw);
                if parsed.is_none() {
                    p.push((
                        "photoId",
                        "Photo id must be a lowercase hyphenated UUID".into(),
                    ));
                }
                parsed.map(Some)
            }
        };
        let purpose = match &self.purpose {
            None => Some(None),
            Some(raw) => fields::choice::<PhotoPurpose>(
                raw,
                "purpose",
                || "Purpose must be proofOfDelivery, endOfDaySummary, damage or other".into(),
                &mut p,
            )
            .map(Some),
        };
        let minutes = fields::optional_in::<u16>(
            self.minutes,
            "minutes",
            || format!("Minutes must be a whole number from 1 to {MAX_WAITING_MINUTES}"),
            (1, MAX_WAITING_MINUTES),
            &mut p,
        );
        let place = fields::line(&self.place, "place", "Where", (0, MAX_NAME_CHARS), &mut p);
        let from_whom = fields::line(
            &self.from_whom,
            "fromWhom",
            "Who",
            (0, MAX_NAME_CHARS),
            &mut p,
        );
        if let Some(evidence_type) = evidence_type {
            self.check_type_fields(evidence_type, &mut p);
        }
        match (
            id,
            holder,
            evidence_type,
            recorded_at,
            text,
            photo_id,
            purpose,
            minutes,
            place,
            from_whom,
        ) {
            (
                Some(id),
                Some(holder),
                Some(evidence_type),
                Some(()),
                Some(text),
                Some(photo_id),
                Some(purpose),
                Some(minutes),
                Some(place),
                Some(from_whom),
            ) if p.is_empty() => Ok(Evidence {
                id,
                holder,
                evidence_type,
                recorded_at: self.recorded_at.clone(),
                text,
                photo_id,
                purpose,
                minutes,
                place,
                from_whom,
            }),
            _ => Err(p),
        }
    }

    /// Exactly one of the three holders, a UUID.
    fn holder(&self, p: &mut FieldProblems) -> Option<EvidenceHolder> {
        // Each is read before any is given up on, so every bad id is named at once.
        let entry = fields::optional_uuid(&self.entry_id, "entryId", "Day id", p);
        let line = fields::optional_uuid(
            &self.statement_line_id,
            "statementLineId",
            "Statement line id",
            p,
        );
        let query = fields::optional_uuid(
            &self.statement_query_id,
            "statementQueryId",
            "Statement query id",
            p,
        );
        match (entry?, line?, query?) {
            (Some(id), None, None) => Some(EvidenceHolder::Entry(id)),
            (None, Some(id), None) => Some(EvidenceHolder::StatementLine(id)),
            (None, None, Some(id)) => Some(EvidenceHolder::StatementQuery(id)),
            _ => {
                p.push((
                    "entryId",
                    "Evidence belongs to exactly one day, statement line or query".into(),
                ));
                None
            }
        }
    }

    /// What each type needs, and the fields it must leave empty.
    fn check_type_fields(&self, evidence_type: EvidenceType, p: &mut FieldProblems) {
        let has_text = !self.text.trim().is_empty();
        let photo = evidence_type == EvidenceType::Photo;
        let waiting = evidence_type == EvidenceType::Waiting;
        let instruction = evidence_type == EvidenceType::Instruction;
        if evidence_type == EvidenceType::Note && !has_text {
            p.push(("text", "A note needs its words".into()));
        }
        if instruction && !has_text {
            p.push(("text", "An instruction needs what was said".into()));
        }
        if photo && self.photo_id.is_none() {
            p.push(("photoId", "A photo needs its photo".into()));
        }
        if photo && self.purpose.is_none() {
            p.push(("purpose", "A photo needs what it shows".into()));
        }
        if waiting && self.minutes.is_none() {
            p.push(("minutes", "A waiting time needs its minutes".into()));
        }
        if instruction && self.from_whom.trim().is_empty() {
            p.push(("fromWhom", "An instruction needs who gave it".into()));
        }
        if !photo && (self.photo_id.is_some() || self.purpose.is_some()) {
            p.push(("photoId", "Only a photo has a photo and a purpose".into()));
        }
        if !waiting && (self.minutes.is_some() || !self.place.trim().is_empty()) {
            p.push((
                "minutes",
                "Only a waiting time has minutes and a place".into(),
            ));
        }
        if !instruction && !self.from_whom.trim().is_empty() {
            p.push(("fromWhom", "Only an instruction has who gave it".into()));
        }
    }
}

/// The device's time: a real RFC 3339 time, kept as sent (its text is what the query's chain
/// covers).
fn recorded_at(raw: &str, p: &mut FieldProblems) -> Option<()> {
    let ok = raw.len() <= MAX_RECORDED_AT_CHARS && OffsetDateTime::parse(raw, &Rfc3339).is_ok();
    if !ok {
        p.push((
            "recordedAt",
            "Recorded at must be a time written as RFC 3339 (2026-03-02T14:05:00Z)".into(),
        ));
    }
    ok.then_some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const DAY: &str = "0190a6e2-7c1d-7000-8000-000000000101";
    const PHOTO: &str = "0190a6e2-7c1d-7000-8000-000000000e01";

    fn note() -> EvidenceInput {
        EvidenceInput {
            id: "0190a6e2-7c1d-7000-8000-000000000d01".into(),
            entry_id: Some(DAY.into()),
            statement_line_id: None,
            statement_query_id: None,
            evidence_type: "note".into(),
            recorded_at: "2026-03-02T14:05:00.123Z".into(),
            text: "Depot shut at 7; sent to the overflow site".into(),
            photo_id: None,
            purpose: None,
            minutes: None,
            place: String::new(),
            from_whom: String::new(),
        }
    }

    fn fields(bad: &EvidenceInput) -> Vec<&'static str> {
        match bad.validate() {
            Ok(_) => Vec::new(),
            Err(problems) => problems.iter().map(|p| p.0).collect(),
        }
    }

    #[test]
    fn each_type_keeps_what_it_says() {
        let kept = note().validate().unwrap();
        assert_eq!(kept.holder, EvidenceHolder::Entry(DAY.parse().unwrap()));
        assert_eq!(kept.recorded_at, "2026-03-02T14:05:00.123Z");
        let photo = EvidenceInput {
            evidence_type: "photo".into(),
            text: String::new(),
            photo_id: Some(PHOTO.into()),
            purpose: Some("proofOfDelivery".into()),
            ..note()
        }
        .validate()
        .unwrap();
        assert_eq!(photo.purpose, Some(PhotoPurpose::ProofOfDelivery));
        let waiting = EvidenceInput {
            evidence_type: "waiting".into(),
            text: String::new(),
            minutes: Some(45),
            place: " Depot bay 3 ".into(),
            ..note()
        }
        .validate()
        .unwrap();
        assert_eq!(
            (waiting.minutes, waiting.place.as_str()),
            (Some(45), "Depot bay 3")
        );
        let instruction = EvidenceInput {
            evidence_type: "instruction".into(),
            text: "Take the Leeds route as well".into(),
            from_whom: "Sam (depot manager)".into(),
            ..note()
        }
        .validate()
        .unwrap();
        assert_eq!(instruction.evidence_type, EvidenceType::Instruction);
    }

    #[test]
    fn it_belongs_to_exactly_one_record() {
        let none = EvidenceInput {
            entry_id: None,
            ..note()
        };
        assert_eq!(fields(&none), ["entryId"]);
        let two = EvidenceInput {
            statement_query_id: Some("0190a6e2-7c1d-7000-8000-000000000701".into()),
            ..note()
        };
        assert_eq!(fields(&two), ["entryId"]);
        let line = EvidenceInput {
            entry_id: None,
            statement_line_id: Some("0190a6e2-7c1d-7000-8000-000000000301".into()),
            ..note()
        };
        assert!(matches!(
            line.validate().unwrap().holder,
            EvidenceHolder::StatementLine(_)
        ));
    }

    #[test]
    fn every_problem_is_named_at_once() {
        let bad = EvidenceInput {
            id: "nope".into(),
            evidence_type: "photo".into(),
            recorded_at: "yesterday".into(),
            text: String::new(),
            photo_id: Some("0190A6E2-7C1D-7000-8000-000000000E01".into()),
            purpose: Some("selfie".into()),
            minutes: Some(0),
            ..note()
        };
        assert_eq!(
            fields(&bad),
            [
                "id",
                "recordedAt",
                "photoId",
                "purpose",
                "minutes",
                "minutes"
            ]
        );
    }

    #[test]
    fn a_type_needs_its_own_fields_and_no_other() {
        let photo_without = EvidenceInput {
            evidence_type: "photo".into(),
            ..note()
        };
        assert_eq!(fields(&photo_without), ["photoId", "purpose"]);
        let waiting_without = EvidenceInput {
            evidence_type: "waiting".into(),
            ..note()
        };
        assert_eq!(fields(&waiting_without), ["minutes"]);
        let instruction_without = EvidenceInput {
            evidence_type: "instruction".into(),
            text: " ".into(),
            ..note()
        };
        assert_eq!(fields(&instruction_without), ["text", "fromWhom"]);
        let empty_note = EvidenceInput {
            text: "  ".into(),
            ..note()
        };
        assert_eq!(fields(&empty_note), ["text"]);
        let note_with_extras = EvidenceInput {
            photo_id: Some(PHOTO.into()),
            minutes: Some(5),
            from_whom: "Sam".into(),
            ..note()
        };
        assert_eq!(
            fields(&note_with_extras),
            ["photoId", "minutes", "fromWhom"]
        );
    }

    #[test]
    fn text_bounds_hold_at_the_limit_and_one_past() {
        let at = EvidenceInput {
            text: "a".repeat(MAX_TEXT_CHARS),
            ..note()
        };
        assert!(at.validate().is_ok());
        let past = EvidenceInput {
            text: "a".repeat(MAX_TEXT_CHARS + 1),
            ..note()
        };
        assert_eq!(fields(&past), ["text"]);
        let waiting = |minutes| EvidenceInput {
            evidence_type: "waiting".into(),
            minutes: Some(minutes),
            ..note()
        };
        assert!(waiting(MAX_WAITING_MINUTES).validate().is_ok());
        assert_eq!(fields(&waiting(MAX_WAITING_MINUTES + 1)), ["minutes"]);
    }

    proptest! {
        /// Whatever the device's clock said, a real RFC 3339 time is kept as sent, byte for
        /// byte (the query's chain covers that text).
        #[test]
        fn a_real_device_time_is_kept_as_sent(seconds in 0i64..4_102_444_800, millis in 0u16..1000) {
            let at = OffsetDateTime::from_unix_timestamp(seconds).unwrap()
                .replace_millisecond(millis).unwrap()
                .format(&Rfc3339).unwrap();
            let kept = EvidenceInput { recorded_at: at.clone(), ..note() }.validate().unwrap();
            prop_assert_eq!(kept.recorded_at, at);
        }
    }
}

//! Evidence kept at the time (`kind: "evidence"`, issue 28), declared once: its rules are
//! `domain::evidence::EvidenceInput::validate`; it points at exactly one day, statement line or
//! statement query. Its `createdAt` is when the server first stored it (the records table's
//! `created_at`, set on the first put and kept by every later one), the device's own time is
//! `recordedAt`. A photo item names its photo (`photoId`), which uploads through `receipts`
//! (files/receipts.rs) and is swept once no live expense or evidence item names it.

use domain::{
    entry::FieldProblems,
    evidence::{Evidence, EvidenceHolder, EvidenceInput, EvidenceType, PhotoPurpose},
    sync::EvidenceData,
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{
    entries::Entries,
    records::{RecordKind, Reference},
    statement_lines::StatementLines,
    statement_queries::StatementQueries,
};

pub struct EvidenceItems;

/// A stored evidence item: its pulled `data` without the timestamps.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EvidenceContent {
    entry_id: Option<Uuid>,
    statement_line_id: Option<Uuid>,
    statement_query_id: Option<Uuid>,
    #[serde(rename = "type")]
    evidence_type: EvidenceType,
    recorded_at: String,
    text: String,
    photo_id: Option<Uuid>,
    purpose: Option<PhotoPurpose>,
    minutes: Option<u16>,
    place: String,
    from_whom: String,
}

impl RecordKind for EvidenceItems {
    const NAME: &'static str = "evidence";
    type Input = EvidenceInput;
    type Record = Evidence;
    type Content = EvidenceContent;
    type Data = EvidenceData;
    const REFERENCES: &'static [Reference] = &[
        Reference::to::<Entries>("entryId"),
        Reference::to::<StatementLines>("statementLineId"),
        Reference::to::<StatementQueries>("statementQueryId"),
    ];

    fn validate(input: &EvidenceInput, _user_id: Uuid) -> Result<Evidence, FieldProblems> {
        input.validate()
    }

    fn bounds() -> serde_json::Value {
        use domain::evidence as rules;
        serde_json::json!({
            "maxTextChars": rules::MAX_TEXT_CHARS,
            "maxNameChars": rules::MAX_NAME_CHARS,
            "maxWaitingMinutes": rules::MAX_WAITING_MINUTES,
            "maxRecordedAtChars": rules::MAX_RECORDED_AT_CHARS,
        })
    }

    fn id(evidence: &Evidence) -> Uuid {
        evidence.id
    }

    fn content(e: &Evidence) -> EvidenceContent {
        let (entry_id, statement_line_id, statement_query_id) = match e.holder {
            EvidenceHolder::Entry(id) => (Some(id), None, None),
            EvidenceHolder::StatementLine(id) => (None, Some(id), None),
            EvidenceHolder::StatementQuery(id) => (None, None, Some(id)),
        };
        EvidenceContent {
            entry_id,
            statement_line_id,
            statement_query_id,
            evidence_type: e.evidence_type,
            recorded_at: e.recorded_at.clone(),
            text: e.text.clone(),
            photo_id: e.photo_id,
            purpose: e.purpose,
            minutes: e.minutes,
            place: e.place.clone(),
            from_whom: e.from_whom.clone(),
        }
    }

    fn data(c: EvidenceContent, created_at: String, updated_at: String) -> EvidenceData {
        let text = |id: Option<Uuid>| id.map(|id| id.to_string());
        EvidenceData {
            entry_id: text(c.entry_id),
            statement_line_id: text(c.statement_line_id),
            statement_query_id: text(c.statement_query_id),
            evidence_type: c.evidence_type,
            recorded_at: c.recorded_at,
            text: c.text,
            photo_id: text(c.photo_id),
            purpose: c.purpose,
            minutes: c.minutes,
            place: c.place,
            from_whom: c.from_whom,
            created_at,
            updated_at,
        }
    }
}

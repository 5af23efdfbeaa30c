//! Evidence kept at the time (`kind: "evidence"`, issue 28), declared once: its rules are
//! `domain::evidence::EvidenceInput::validate`; it points at exactly one day, statement line or
//! statement query. Its `createdAt` is when the server first stored it (the records table's
//! `created_at`, set on the first put and kept by every later one), the device's own time is
//! `recordedAt`. A photo item names its photo (`photoId`), which uploads through `receipts`
//! (files/receipts.rs) and is swept once no live expense or evidence item names it.

use domain::{
    entry::FieldProblems,
    evidence::{Evidence, EvidenceHolder, EvidenceInput},
    sync::EvidenceContent,
};
use uuid::Uuid;

use crate::{
    entries::Entries,
    records::{RecordKind, Reference, Words},
    statement_lines::StatementLines,
    statement_queries::StatementQueries,
};

/// Evidence kept at the time: the kind's declaration (one record is a
/// `domain::evidence::Evidence`).
pub struct EvidenceItems;

impl RecordKind for EvidenceItems {
    const NAME: &'static str = "evidence";
    const WORDS: Words = Words::new("evidence item", "evidence items");
    type Input = EvidenceInput;
    type Record = Evidence;
    type Content = EvidenceContent;
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
        let text = |id: Uuid| Some(id.to_string());
        let (entry_id, statement_line_id, statement_query_id) = match e.holder {
            EvidenceHolder::Entry(id) => (text(id), None, None),
            EvidenceHolder::StatementLine(id) => (None, text(id), None),
            EvidenceHolder::StatementQuery(id) => (None, None, text(id)),
        };
        EvidenceContent {
            entry_id,
            statement_line_id,
            statement_query_id,
            evidence_type: e.evidence_type,
            recorded_at: e.recorded_at.clone(),
            text: e.text.clone(),
            photo_id: e.photo_id.map(|id| id.to_string()),
            purpose: e.purpose,
            minutes: e.minutes,
            place: e.place.clone(),
            from_whom: e.from_whom.clone(),
        }
    }
}

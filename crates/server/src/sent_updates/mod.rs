//! A sent quarterly update (`kind: "sentUpdate"`, issue 29): the immutable snapshot of a Making
//! Tax Digital update the driver sent through bridging software. Its rules are
//! `domain::sent_update`; here the server also checks the SHA-256 it carries is the file's, and
//! declares it write-once (the push refuses an edit or a delete, `immutable`: a later update
//! supersedes it as a new record). It may point at the sent update it supersedes.

use domain::{
    entry::{FieldProblems, format_date},
    sent_update::{SentUpdate, SentUpdateInput},
    sync::SentUpdateContent,
};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::records::{RecordKind, Reference, Words};

pub struct SentUpdates;

impl RecordKind for SentUpdates {
    const NAME: &'static str = "sentUpdate";
    const WORDS: Words = Words::new("sent update", "sent updates");
    type Input = SentUpdateInput;
    type Record = SentUpdate;
    type Content = SentUpdateContent;
    const REFERENCES: &'static [Reference] = &[Reference::to::<SentUpdates>("supersedes")];
    const WRITE_ONCE: bool = true;

    fn validate(input: &SentUpdateInput, _user_id: Uuid) -> Result<SentUpdate, FieldProblems> {
        let sent = input.validate()?;
        // The digest is the driver's proof of what was sent: it must be the file's own.
        let digest = hex::encode(Sha256::digest(sent.file.as_bytes()));
        if digest != sent.sha256 {
            return Err(vec![(
                "sha256",
                "SHA-256 is not the file's: the file changed after it was hashed".into(),
            )]);
        }
        Ok(sent)
    }

    fn bounds() -> serde_json::Value {
        serde_json::json!({
            "maxProductChars": domain::sent_update::MAX_PRODUCT_CHARS,
            "maxReferenceChars": domain::sent_update::MAX_REFERENCE_CHARS,
            "maxFileBytes": domain::sent_update::MAX_FILE_BYTES,
        })
    }

    fn id(sent: &SentUpdate) -> Uuid {
        sent.id
    }

    fn content(sent: &SentUpdate) -> SentUpdateContent {
        SentUpdateContent {
            tax_year: sent.tax_year.clone(),
            quarter: sent.quarter,
            quarters: sent.quarters,
            period_start: format_date(sent.period_start),
            period_end: format_date(sent.period_end),
            shape: sent.shape,
            file: sent.file.clone(),
            sha256: sent.sha256.clone(),
            sent_on: format_date(sent.sent_on),
            product: sent.product.clone(),
            reference: sent.reference.clone(),
            supersedes: sent.supersedes.map(|id| id.to_string()),
        }
    }
}

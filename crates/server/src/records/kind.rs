//! What a synced record kind declares: its name, the arguments of `<name>.put` and their
//! validation, what is stored, and the `data` a pull sends. Storage, ownership, tombstones,
//! replays and the quota are the same for every kind (`store::sync`), so a kind is only this.

use domain::{
    entry::FieldProblems,
    fields::{FieldErrors, field_errors},
    sync::{ChangeData, KindContent, Stamped},
};
use serde::de::DeserializeOwned;
use utoipa::ToSchema;
use uuid::Uuid;

pub trait RecordKind: 'static {
    /// `kind` on the wire and in storage; the mutations are `<NAME>.put` and `<NAME>.delete`.
    const NAME: &'static str;
    /// The kind's name in code when `NAME` is an older one kept on the wire for devices already
    /// installed (`invoice` is a statement check): the contract states the alias, once. None
    /// when the two agree.
    const CODE_NAME: Option<&'static str> = None;
    /// How the app names its records, in the driver's words (the contract carries them).
    const WORDS: Words;
    /// The arguments of `<NAME>.put`.
    type Input: DeserializeOwned;
    /// A validated record.
    type Record;
    /// What is stored (`domain::sync::<Kind>Content`, declared once): with the server's
    /// timestamps it is the pulled `data` (`Stamped<Content>`), whose OpenAPI schema is the
    /// kind's fields and types in the contract the web app is generated from
    /// (`registry::contract`).
    type Content: KindContent;
    /// The content fields that name other records, with their kinds: a put is refused when one
    /// is another account's (`not-owner`) or does not exist (`missing-reference`); a null field
    /// points at nothing. The device's import orders kinds by these (the contract). None by
    /// default.
    const REFERENCES: &'static [Reference] = &[];
    /// A record never changed once stored (a sent update's snapshot): a put or delete of the
    /// user's stored record is refused `immutable`; a new record supersedes it. False by default.
    const WRITE_ONCE: bool = false;

    /// `user_id` is the pushing user's (their default courier and first card carry it).
    fn validate(input: &Self::Input, user_id: Uuid) -> Result<Self::Record, FieldProblems>;
    fn id(record: &Self::Record) -> Uuid;
    /// The limits `validate` holds its fields to, by name (`{"maxStops": 1000}`): the device's
    /// forms check the same before saving (the contract). None by default.
    fn bounds() -> serde_json::Value {
        serde_json::json!({})
    }
    /// Fields the records it points at must hold for the put to make sense (a day's rate card
    /// must be a card of the day's courier): checked against the user's live record, refused
    /// `mismatched-reference` otherwise. None by default.
    fn agreements(_record: &Self::Record) -> Vec<Agreement> {
        Vec::new()
    }
    /// The content fields this put left out because it comes from an app older than them (it
    /// pulled the record without them): an update keeps their stored values rather than the
    /// defaults validation filled in, so an old cached app editing a day's notes cannot wipe
    /// what a newer app recorded. None by default.
    fn kept_when_absent(_input: &Self::Input) -> &'static [&'static str] {
        &[]
    }
    /// What is stored of a validated record.
    fn content(record: &Self::Record) -> Self::Content;
}

/// How the app names records of a kind, in the driver's words: the web's import counts and
/// problems ("3 fuel fills", "Its vehicle is neither in the file…"), its changes waiting to
/// sync ("New fuel fill for…") and a record's place in an export file ("Fuel fill 2") read
/// them from the contract, so a new kind needs no word table on the web.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Words {
    /// One record, counted or pointed at: "fuel fill", "day".
    pub one: &'static str,
    /// Several: "fuel fills", "days".
    pub many: &'static str,
    /// One record named by itself (a change waiting to sync, a place in a file): `one`
    /// unless said otherwise (a day's record is an entry).
    pub record: &'static str,
}

impl Words {
    pub const fn new(one: &'static str, many: &'static str) -> Words {
        Words {
            one,
            many,
            record: one,
        }
    }

    /// These words with `record` as the name of one record by itself.
    pub const fn record(self, record: &'static str) -> Words {
        Words { record, ..self }
    }
}

/// A content field that names a record of another kind (`RecordKind::REFERENCES`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reference {
    /// The content field (wire name) holding the id, or null.
    pub field: &'static str,
    /// The kind it names.
    pub kind: &'static str,
}

impl Reference {
    pub const fn to<K: RecordKind>(field: &'static str) -> Reference {
        Reference {
            field,
            kind: K::NAME,
        }
    }
}

/// A record kind with its types erased, so kinds can sit in one registry.
#[derive(Clone, Copy)]
pub struct Kind {
    pub name: &'static str,
    /// `RecordKind::CODE_NAME`.
    pub code_name: Option<&'static str>,
    /// `RecordKind::WORDS`.
    pub words: Words,
    pub references: &'static [Reference],
    /// The name of the pulled data's OpenAPI schema.
    pub data_schema: fn() -> String,
    pub bounds: fn() -> serde_json::Value,
    /// `RecordKind::WRITE_ONCE`.
    pub write_once: bool,
    put: fn(serde_json::Value, Uuid) -> Result<StoredPut, Refusal>,
    data: fn(&str, String, String) -> serde_json::Result<ChangeData>,
}

/// A field of a referenced record that must hold a value (`RecordKind::agreements`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agreement {
    pub kind: &'static str,
    pub id: Uuid,
    /// The field of the referenced record's content.
    pub field: &'static str,
    /// The value it must hold (a UUID, as stored).
    pub value: String,
    /// What the driver is told when it does not.
    pub otherwise: &'static str,
}

/// Why a put was refused (`validation`): every problem in one message, and by field when the
/// arguments parsed (a malformed put names no field).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub message: String,
    pub fields: Option<FieldErrors>,
}

/// A validated put, ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredPut {
    pub id: Uuid,
    /// The record's content as JSON.
    pub content: String,
    /// What the content points at (`RecordKind::references`).
    pub references: Vec<(&'static str, Uuid)>,
    /// What those records must hold (`RecordKind::agreements`).
    pub agreements: Vec<Agreement>,
    /// Content fields an update takes from the stored record (`RecordKind::kept_when_absent`).
    pub kept: &'static [&'static str],
    /// `RecordKind::WRITE_ONCE`.
    pub write_once: bool,
}

impl Kind {
    pub const fn of<K: RecordKind>() -> Kind {
        Kind {
            name: K::NAME,
            code_name: K::CODE_NAME,
            words: K::WORDS,
            references: K::REFERENCES,
            data_schema: || Stamped::<K::Content>::name().into_owned(),
            bounds: K::bounds,
            write_once: K::WRITE_ONCE,
            put: parse_put::<K>,
            data: parse_data::<K>,
        }
    }

    /// Parses and validates the arguments of `<name>.put` pushed by `user_id`; the error is
    /// the `validation` rejection (every problem at once, so the device can show them all
    /// beside their fields).
    pub fn parse_put(&self, args: serde_json::Value, user_id: Uuid) -> Result<StoredPut, Refusal> {
        (self.put)(args, user_id)
    }

    /// The pulled `data` of a live record from its stored content.
    pub fn data(
        &self,
        content: &str,
        created_at: String,
        updated_at: String,
    ) -> serde_json::Result<ChangeData> {
        (self.data)(content, created_at, updated_at)
    }
}

/// The stored form of a validated record (the store conformance suite writes records this way).
pub fn stored<K: RecordKind>(record: &K::Record) -> serde_json::Result<StoredPut> {
    let content = K::content(record);
    Ok(StoredPut {
        id: K::id(record),
        content: serde_json::to_string(&content)?,
        references: references::<K>(&content)?,
        agreements: K::agreements(record),
        kept: &[],
        write_once: K::WRITE_ONCE,
    })
}

/// The records `content` points at, as (kind, id), in `K::REFERENCES` order.
fn references<K: RecordKind>(
    content: &K::Content,
) -> serde_json::Result<Vec<(&'static str, Uuid)>> {
    if K::REFERENCES.is_empty() {
        return Ok(Vec::new());
    }
    let content = serde_json::to_value(content)?;
    Ok(K::REFERENCES
        .iter()
        .filter_map(|reference| {
            let id = content.get(reference.field)?.as_str()?;
            Some((reference.kind, Uuid::parse_str(id).ok()?))
        })
        .collect())
}

fn parse_put<K: RecordKind>(args: serde_json::Value, user_id: Uuid) -> Result<StoredPut, Refusal> {
    let malformed = |err: serde_json::Error| Refusal {
        message: format!("Invalid {}: {err}", K::NAME),
        fields: None,
    };
    let input: K::Input = serde_json::from_value(args).map_err(malformed)?;
    let record = K::validate(&input, user_id).map_err(|problems| Refusal {
        message: problems
            .iter()
            .map(|(_, message)| message.as_str())
            .collect::<Vec<_>>()
            .join("; "),
        fields: Some(field_errors(&problems)),
    })?;
    let stored = stored::<K>(&record).map_err(malformed)?;
    Ok(StoredPut {
        kept: K::kept_when_absent(&input),
        ..stored
    })
}

/// `content` with the `kept` fields taken from `stored` (the user's live record), as JSON.
pub fn keep_stored_fields(
    content: &str,
    stored: &str,
    kept: &[&str],
) -> serde_json::Result<String> {
    let mut merged: serde_json::Map<String, serde_json::Value> = serde_json::from_str(content)?;
    let stored: serde_json::Map<String, serde_json::Value> = serde_json::from_str(stored)?;
    for field in kept {
        if let Some(value) = stored.get(*field) {
            merged.insert((*field).to_owned(), value.clone());
        }
    }
    serde_json::to_string(&merged)
}

fn parse_data<K: RecordKind>(
    content: &str,
    created_at: String,
    updated_at: String,
) -> serde_json::Result<ChangeData> {
    Ok(serde_json::from_str::<K::Content>(content)?.pulled(created_at, updated_at))
}

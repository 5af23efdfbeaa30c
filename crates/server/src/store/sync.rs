//! The sync area of the store: push and pull of every record kind, written once. Each backend
//! (`sqlite/sync.rs`, `postgres/sync.rs`) supplies the SQL primitives of [`SyncSql`] and a
//! consistent snapshot for pull; the protocol (replays, ownership, the merge rule, tombstones,
//! the change sequence and the records quota) is `domain::push::plan`, run by [`push`].

use anyhow::anyhow;
use async_trait::async_trait;
use domain::{
    defaults::{default_courier, first_rate_card},
    fields::FieldErrors,
    merge::{Existing, Op},
    profile::{MtdQuarters, ProfileUpdate, SettingsUpdate, TaxRegion, Theme},
    push::{
        Counters, Intent, Plan, RecordBudget, Reference, ReplayBudget, Write, claimed_meanwhile,
        plan,
    },
    sync::{Change, ChangeData, MutationResult, PaymentConfig, ProfileData, SettingsData},
    tiers::PayTiers,
    time_fmt::rfc3339_from_ms,
};
use uuid::Uuid;

use super::{StoreError, StoreResult, UserRecord};
use crate::{
    couriers::Couriers,
    rate_cards::RateCards,
    records::{self, RecordKind, StoredPut},
    registry,
};

/// Push, pull and the change cursor.
#[async_trait]
pub trait SyncStore: Send + Sync {
    /// Applies a push in order, in one transaction: each mutation id takes effect at most
    /// once, a replay returns the recorded result. Concurrent pushes by one user serialise.
    /// A mutation that would add a record beyond `quota.max_records` (record rows, tombstones
    /// included), or whose answer would take the user's replay records beyond
    /// `quota.max_replays`, is rejected with `quota-exceeded`, and that answer is not recorded.
    /// A new record id another account claimed first, even at the same moment, is rejected
    /// with `not-owner`; it never fails the push.
    async fn push(
        &self,
        user_id: Uuid,
        mutations: Vec<PreparedMutation>,
        now_ms: i64,
        quota: PushQuota,
    ) -> StoreResult<PushOutcome>;
    /// The user's records changed after `cursor`, oldest change first, at most `limit`.
    async fn pull(&self, user_id: Uuid, cursor: i64, limit: u32) -> StoreResult<PullPage>;
    /// The user's change sequence: it moves whenever any of their records changes, from any
    /// process (open event streams compare it to poke devices about admin changes).
    async fn change_cursor(&self, user_id: Uuid) -> StoreResult<Option<i64>>;
    /// The change sequences of the users among `user_ids` that exist, in no set order: one read
    /// for the users of every open event stream, in chunks of `sessions::READ_BATCH`.
    async fn change_cursors(&self, user_ids: &[Uuid]) -> StoreResult<Vec<(Uuid, i64)>>;
}

/// The per-user storage bounds a push is held to (`quotas::Quotas::push_quota`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PushQuota {
    /// Record rows, tombstones included.
    pub max_records: i64,
    /// Answers kept for replays (`applied_mutations`), until the pruning sweep removes them.
    pub max_replays: i64,
}

/// The user's counters as a push reads and saves them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UserCounters {
    /// The change sequence.
    pub seq: i64,
    /// Record rows held.
    pub records: i64,
    /// Replay records held.
    pub replays: i64,
}

/// A pushed mutation after parsing and validation (which need no database).
#[derive(Debug, Clone)]
pub struct PreparedMutation {
    pub id: String,
    pub action: MutationAction,
}

#[derive(Debug, Clone)]
pub enum MutationAction {
    /// `<kind>.put`: the record's validated content.
    Put {
        kind: &'static str,
        record: StoredPut,
    },
    /// `<kind>.delete`.
    Delete {
        kind: &'static str,
        id: Uuid,
        /// The kind's `RecordKind::WRITE_ONCE`: a delete of the user's record is refused.
        write_once: bool,
    },
    UpdateProfile(ProfileUpdate),
    /// `settings.put`: the settings it names (the others keep their stored values).
    PutSettings(SettingsUpdate),
    /// Refused before reaching the data; recorded so a replay gets the same answer.
    Reject {
        code: &'static str,
        message: String,
        /// A `validation` refusal's problems by field.
        fields: Option<FieldErrors>,
    },
}

impl MutationAction {
    /// A put of a validated record of kind `K`.
    pub fn put<K: RecordKind>(record: &K::Record) -> MutationAction {
        match records::kind::stored::<K>(record) {
            Ok(record) => MutationAction::Put {
                kind: K::NAME,
                record,
            },
            Err(err) => MutationAction::Reject {
                code: "validation",
                message: format!("Invalid {}: {err}", K::NAME),
                fields: None,
            },
        }
    }

    /// A delete of the record `id` of kind `K`.
    pub fn delete<K: RecordKind>(id: Uuid) -> MutationAction {
        MutationAction::Delete {
            kind: K::NAME,
            id,
            write_once: K::WRITE_ONCE,
        }
    }

    fn intent(&self) -> Intent<'_> {
        match self {
            MutationAction::Put { .. } => Intent::Record(Op::Put),
            MutationAction::Delete { .. } => Intent::Record(Op::Delete),
            // New pay tiers from an app before couriers also go into the first rate card.
            MutationAction::UpdateProfile(update) if update.payment_tiers.is_some() => {
                Intent::Singleton { versions: 2 }
            }
            MutationAction::UpdateProfile(_) | MutationAction::PutSettings(_) => {
                Intent::Singleton { versions: 1 }
            }
            MutationAction::Reject {
                code,
                message,
                fields,
            } => Intent::Refused {
                code,
                message,
                fields: fields.as_ref(),
            },
        }
    }

    /// Whether it puts or deletes a record of a write-once kind (`RecordKind::WRITE_ONCE`).
    fn write_once(&self) -> bool {
        match self {
            MutationAction::Put { record, .. } => record.write_once,
            MutationAction::Delete { write_once, .. } => *write_once,
            _ => false,
        }
    }

    /// A record mutation's operation (a put for anything that is not a delete).
    fn op(&self) -> Op {
        if matches!(self, MutationAction::Delete { .. }) {
            Op::Delete
        } else {
            Op::Put
        }
    }

    /// The record this mutation targets, if any.
    fn target(&self) -> Option<(&'static str, Uuid)> {
        match self {
            MutationAction::Put { kind, record } => Some((kind, record.id)),
            MutationAction::Delete { kind, id, .. } => Some((kind, *id)),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
pub struct PushOutcome {
    pub results: Vec<MutationResult>,
    /// The user's change sequence after the push.
    pub cursor: i64,
    /// Whether any record changed (other devices need a poke).
    pub changed: bool,
}

#[derive(Debug, Clone)]
pub struct PullPage {
    pub changes: Vec<Change>,
    pub has_more: bool,
}

/// One record row to write. `content` is `None` for a tombstone: a deleted record is gone,
/// not hidden.
#[derive(Debug, Clone, Copy)]
pub struct RecordWrite<'a> {
    pub kind: &'a str,
    pub id: Uuid,
    pub content: Option<&'a str>,
    pub version: i64,
    pub now_ms: i64,
}

/// The SQL a backend runs for a push, inside the push's transaction, for one user. The
/// SQLite backend's futures are always ready (it runs on its writer thread).
pub(crate) trait SyncSql {
    /// The user's counters, or `None` for an unknown user. A backend with concurrent writers
    /// locks the user here, so one user's pushes apply one by one.
    async fn counters(&mut self) -> StoreResult<Option<UserCounters>>;
    /// The answer recorded for `mutation_id` (as `record_answer` stored it), if it was applied
    /// before.
    async fn recorded_answer(&mut self, mutation_id: &str) -> StoreResult<Option<String>>;
    /// Whether the record exists, as (held by this user, deleted).
    async fn record_state(&mut self, kind: &str, id: Uuid) -> StoreResult<Option<(bool, bool)>>;
    /// The content of the user's live record, if it has one.
    async fn record_content(&mut self, kind: &str, id: Uuid) -> StoreResult<Option<String>>;
    /// Sets `perStop` (`tiers`, JSON) in the user's first rate card (id = the user's id) at
    /// `version`, if it is live: an old app's pay tiers keep their meaning.
    async fn replace_first_card_tiers(
        &mut self,
        tiers: &str,
        version: i64,
        now_ms: i64,
    ) -> StoreResult<()>;
    /// Inserts a record row owned by the user; false (and no change) when the id was claimed
    /// meanwhile by another account.
    async fn insert_record(&mut self, record: RecordWrite<'_>) -> StoreResult<bool>;
    /// Rewrites the user's live record (tombstoned when `content` is `None`).
    async fn update_record(&mut self, record: RecordWrite<'_>) -> StoreResult<()>;
    async fn record_answer(
        &mut self,
        mutation_id: &str,
        answer: &str,
        now_ms: i64,
    ) -> StoreResult<()>;
    async fn save_counters(&mut self, counters: UserCounters) -> StoreResult<()>;
    /// Applies a profile update; `payment_tiers` is already JSON.
    async fn update_profile(
        &mut self,
        update: &ProfileUpdate,
        payment_tiers: Option<&str>,
        version: i64,
        now_ms: i64,
    ) -> StoreResult<()>;
    /// Sets the settings `update` names, keeping the others.
    async fn put_settings(
        &mut self,
        update: SettingsUpdate,
        version: i64,
        now_ms: i64,
    ) -> StoreResult<()>;
}

/// Runs a push over a backend's primitives (see [`SyncStore::push`]).
pub(crate) async fn push(
    db: &mut impl SyncSql,
    user_id: Uuid,
    mutations: &[PreparedMutation],
    now_ms: i64,
    quota: PushQuota,
) -> StoreResult<PushOutcome> {
    let before = db
        .counters()
        .await?
        .ok_or_else(|| StoreError::Backend(anyhow!("push for unknown user {user_id}")))?;
    let start = before.seq;
    let mut counters = Counters {
        seq: start,
        budget: RecordBudget {
            held: before.records,
            max: quota.max_records,
        },
        replays: ReplayBudget {
            held: before.replays,
            max: quota.max_replays,
        },
    };
    let mut results = Vec::with_capacity(mutations.len());
    for mutation in mutations {
        let recorded = db
            .recorded_answer(&mutation.id)
            .await?
            .map(|stored| stored_answer(&mutation.id, &stored))
            .transpose()?;
        let existing = match (&recorded, mutation.action.target()) {
            (None, Some((kind, id))) => state_of(db.record_state(kind, id).await?),
            // Not looked at: a replay, or a mutation of no record.
            _ => Existing::Absent,
        };
        // Read afresh for each put, so a courier put earlier in this push counts.
        let mut references = Vec::new();
        if let (None, MutationAction::Put { record, .. }) = (&recorded, &mutation.action) {
            for &(kind, id) in &record.references {
                let state = state_of(db.record_state(kind, id).await?);
                references.push(Reference {
                    kind,
                    state,
                    mismatch: None,
                });
            }
            for agreement in &record.agreements {
                if !agrees(db, agreement).await? {
                    references.push(Reference {
                        kind: agreement.kind,
                        state: Existing::Live,
                        mismatch: Some(agreement.otherwise),
                    });
                }
            }
        }
        // Sent is sent: the user's stored record of a write-once kind is never changed.
        let intent = match (&mutation.action, &recorded) {
            (action, None)
                if action.write_once()
                    && domain::sent_update::refused_as_sent(action.op(), existing) =>
            {
                Intent::Refused {
                    code: domain::sent_update::IMMUTABLE,
                    message: domain::sent_update::IMMUTABLE_MESSAGE,
                    fields: None,
                }
            }
            (action, _) => action.intent(),
        };
        let planned = plan(
            &mutation.id,
            recorded,
            intent,
            existing,
            &references,
            counters,
        );
        let plan = if carry_out(db, &planned, &mutation.action, now_ms).await? {
            planned
        } else {
            claimed_meanwhile(&mutation.id, counters)
        };
        if plan.record_answer {
            db.record_answer(&mutation.id, &answer_to_store(&plan.answer)?, now_ms)
                .await?;
        }
        counters = plan.counters;
        results.push(plan.answer);
    }
    let after = UserCounters {
        seq: counters.seq,
        records: counters.budget.held,
        replays: counters.replays.held,
    };
    if after != before {
        db.save_counters(after).await?;
    }
    Ok(PushOutcome {
        results,
        cursor: counters.seq,
        changed: counters.seq != start,
    })
}

/// Writes the records every account starts with (`domain::defaults`: the default courier and
/// its first card, spec default tiers) for a user just inserted (change sequence 0, no
/// records), in the transaction that inserted it. Each backend's account creation calls this
/// one function over its primitives.
pub(crate) async fn insert_starter_records(
    db: &mut impl SyncSql,
    user_id: Uuid,
    now_ms: i64,
) -> StoreResult<()> {
    let starters = [
        (
            Couriers::NAME,
            records::kind::stored::<Couriers>(&default_courier(user_id)),
        ),
        (
            RateCards::NAME,
            records::kind::stored::<RateCards>(&first_rate_card(user_id, PayTiers::default())),
        ),
    ];
    let mut version = 0;
    for (kind, stored) in starters {
        let stored = stored.map_err(json_err)?;
        version += 1;
        let write = RecordWrite {
            kind,
            id: stored.id,
            content: Some(&stored.content),
            version,
            now_ms,
        };
        if !db.insert_record(write).await? {
            return Err(StoreError::Backend(anyhow!(
                "the starter {kind} of new user {user_id} was already taken"
            )));
        }
    }
    debug_assert_eq!(version, domain::defaults::STARTER_RECORDS);
    db.save_counters(UserCounters {
        seq: version,
        records: version,
        replays: 0,
    })
    .await
}

/// Whether the user's live record an agreement names holds the value it asks for. A record
/// that is not the user's live one agrees: ownership and existence are the references' check,
/// and a tombstone has no content to disagree with.
async fn agrees(db: &mut impl SyncSql, agreement: &records::kind::Agreement) -> StoreResult<bool> {
    let Some(content) = db.record_content(agreement.kind, agreement.id).await? else {
        return Ok(true);
    };
    let content: serde_json::Value = serde_json::from_str(&content).map_err(json_err)?;
    Ok(content
        .get(agreement.field)
        .and_then(serde_json::Value::as_str)
        == Some(agreement.value.as_str()))
}

/// How a replay record keeps its answer: nothing (an empty string) for the plain "applied",
/// the answer's JSON otherwise. Nearly every answer is the plain one, and its JSON would repeat
/// the mutation id the row is keyed by: without it a replay row is about 40 % smaller, so more
/// of them share a page and a push writes fewer pages (issue 30). Rows stored before hold the
/// full JSON, which still reads back as it is.
const PLAIN_APPLIED: &str = "";

fn answer_to_store(answer: &MutationResult) -> StoreResult<String> {
    if *answer == MutationResult::applied(&answer.id) {
        return Ok(PLAIN_APPLIED.to_owned());
    }
    serde_json::to_string(answer).map_err(json_err)
}

/// The answer recorded for `mutation_id`, from its stored form ([`answer_to_store`]).
fn stored_answer(mutation_id: &str, stored: &str) -> StoreResult<MutationResult> {
    if stored == PLAIN_APPLIED {
        return Ok(MutationResult::applied(mutation_id));
    }
    serde_json::from_str(stored).map_err(json_err)
}

fn state_of(state: Option<(bool, bool)>) -> Existing {
    match state {
        None => Existing::Absent,
        Some((false, _)) => Existing::OtherOwner,
        Some((true, true)) => Existing::Deleted,
        Some((true, false)) => Existing::Live,
    }
}

/// Makes the plan's write; false when an insert found its id claimed meanwhile.
async fn carry_out(
    db: &mut impl SyncSql,
    plan: &Plan,
    action: &MutationAction,
    now_ms: i64,
) -> StoreResult<bool> {
    let row = |kind, id, content| RecordWrite {
        kind,
        id,
        content,
        version: plan.counters.seq,
        now_ms,
    };
    match (plan.write, action) {
        (Write::None, _) => Ok(true),
        (Write::Insert, MutationAction::Put { kind, record }) => {
            db.insert_record(row(kind, record.id, Some(&record.content)))
                .await
        }
        (Write::InsertTombstone, MutationAction::Delete { kind, id, .. }) => {
            db.insert_record(row(kind, *id, None)).await
        }
        (Write::Update, MutationAction::Put { kind, record }) => {
            let content = match (record.kept, db.record_content(kind, record.id).await?) {
                ([], _) | (_, None) => record.content.clone(),
                (kept, Some(stored)) => {
                    records::kind::keep_stored_fields(&record.content, &stored, kept)
                        .map_err(json_err)?
                }
            };
            let write = row(kind, record.id, Some(&content));
            db.update_record(write).await.map(|()| true)
        }
        (Write::Tombstone, MutationAction::Delete { kind, id, .. }) => {
            db.update_record(row(kind, *id, None)).await.map(|()| true)
        }
        (Write::Singleton, MutationAction::UpdateProfile(update)) => {
            let tiers = update
                .payment_tiers
                .as_ref()
                .map(serde_json::to_string)
                .transpose()
                .map_err(json_err)?;
            // With tiers the plan took two versions: the profile the first, the card the last.
            let profile_version = plan.counters.seq - i64::from(tiers.is_some());
            db.update_profile(update, tiers.as_deref(), profile_version, now_ms)
                .await?;
            if let Some(tiers) = &tiers {
                db.replace_first_card_tiers(tiers, plan.counters.seq, now_ms)
                    .await?;
            }
            Ok(true)
        }
        (Write::Singleton, MutationAction::PutSettings(update)) => db
            .put_settings(*update, plan.counters.seq, now_ms)
            .await
            .map(|()| true),
        (write, action) => Err(StoreError::Backend(anyhow!(
            "a {write:?} write does not fit {action:?}"
        ))),
    }
}

fn json_err(err: serde_json::Error) -> StoreError {
    StoreError::Backend(err.into())
}

/// A record row as pull reads it (`RECORD_COLUMNS`, in that order).
#[derive(Debug, Clone)]
pub struct RecordRow {
    pub kind: String,
    pub id: String,
    pub version: i64,
    pub deleted: bool,
    pub content: Option<String>,
    pub created_at_ms: i64,
    pub updated_at_ms: i64,
}

pub const RECORD_COLUMNS: &str = "kind, id, version, deleted, content, created_at, updated_at";

impl RecordRow {
    fn change(self) -> StoreResult<Change> {
        let data = match (self.deleted, self.content) {
            (true, _) => None,
            (false, Some(content)) => {
                let kind = registry::find(&self.kind).ok_or_else(|| {
                    StoreError::Backend(anyhow!("stored record of unknown kind {}", self.kind))
                })?;
                let data = kind.data(
                    &content,
                    rfc3339_from_ms(self.created_at_ms),
                    rfc3339_from_ms(self.updated_at_ms),
                );
                Some(data.map_err(json_err)?)
            }
            (false, None) => {
                return Err(StoreError::Backend(anyhow!(
                    "live {} {} has no content",
                    self.kind,
                    self.id
                )));
            }
        };
        Ok(Change {
            kind: self.kind,
            id: self.id,
            version: self.version,
            deleted: self.deleted,
            data,
        })
    }
}

/// The profile and settings columns of a user, as both backends read them for pull.
#[derive(Debug, Clone)]
pub struct ProfileRow {
    pub user: UserRecord,
    pub payment_tiers: Option<String>,
    pub profile_version: i64,
    pub theme: String,
    pub tax_region: String,
    pub mtd_quarters: String,
    pub query_reminder_days: i64,
    pub settings_version: i64,
    pub settings_updated_at_ms: i64,
}

pub const PROFILE_COLUMNS: &str = "id, email, display_name, photo_url, bio, role, is_anonymous, \
    created_at, last_login, updated_at, must_change_password, payment_tiers, profile_version, theme, \
    settings_version, settings_updated_at, tax_region, mtd_quarters, query_reminder_days";

impl ProfileRow {
    /// The profile and settings records changed after `cursor`.
    pub fn changes_after(&self, cursor: i64) -> Vec<Change> {
        let id = self.user.id.to_string();
        let mut changes = Vec::new();
        if self.profile_version > cursor {
            let tiers = self
                .payment_tiers
                .as_deref()
                .and_then(|json| serde_json::from_str::<PayTiers>(json).ok())
                .unwrap_or_default();
            changes.push(Change {
                kind: "profile".into(),
                id: id.clone(),
                version: self.profile_version,
                deleted: false,
                data: Some(ChangeData::Profile(ProfileData {
                    display_name: self
                        .user
                        .display_name
                        .clone()
                        .unwrap_or_else(|| domain::DisplayName::FALLBACK.to_owned()),
                    email: self.user.email.clone(),
                    bio: self.user.bio.clone(),
                    photo_url: self.user.photo_url.clone(),
                    role: self.user.role,
                    is_anonymous: self.user.is_anonymous,
                    payment_config: PaymentConfig {
                        tiers: tiers.tiers().to_vec(),
                    },
                    created_at: rfc3339_from_ms(self.user.created_at_ms),
                    updated_at: rfc3339_from_ms(self.user.updated_at_ms),
                })),
            });
        }
        if self.settings_version > cursor {
            changes.push(Change {
                kind: "settings".into(),
                id,
                version: self.settings_version,
                deleted: false,
                data: Some(ChangeData::Settings(SettingsData {
                    theme: Theme::from_stored(&self.theme),
                    tax_region: TaxRegion::from_stored(&self.tax_region),
                    quarters: MtdQuarters::from_stored(&self.mtd_quarters),
                    query_reminder_days: u8::try_from(self.query_reminder_days)
                        .unwrap_or(domain::profile::DEFAULT_QUERY_REMINDER_DAYS),
                    updated_at: rfc3339_from_ms(self.settings_updated_at_ms),
                })),
            });
        }
        changes
    }
}

/// One pull page from the record rows changed after the cursor (oldest first, at most
/// `limit + 1`) and the profile and settings records, read in one snapshot. The records read
/// are the first of all records, so the first `limit` of the merge are the first overall.
pub fn page(
    rows: Vec<RecordRow>,
    profile: Option<&ProfileRow>,
    cursor: i64,
    limit: u32,
) -> StoreResult<PullPage> {
    let mut changes = rows
        .into_iter()
        .map(RecordRow::change)
        .collect::<StoreResult<Vec<_>>>()?;
    if let Some(profile) = profile {
        changes.extend(profile.changes_after(cursor));
    }
    changes.sort_by_key(|change| change.version);
    let has_more = changes.len() > limit as usize;
    changes.truncate(limit as usize);
    Ok(PullPage { changes, has_more })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_applied_answer_is_stored_empty_and_reads_back_whole() {
        let applied = MutationResult::applied("m-1");
        assert_eq!(answer_to_store(&applied).unwrap(), "");
        assert_eq!(stored_answer("m-1", "").unwrap(), applied);
    }

    #[test]
    fn any_other_answer_is_stored_as_its_json() {
        let refused = MutationResult::rejected("m-2", "validation", "Stops must be a number");
        let stored = answer_to_store(&refused).unwrap();
        assert!(stored.contains("Stops must be a number"), "{stored}");
        assert_eq!(stored_answer("m-2", &stored).unwrap(), refused);
    }

    #[test]
    fn an_answer_stored_whole_by_an_older_server_still_reads_back() {
        let stored = r#"{"id":"m-3","status":"applied"}"#;
        assert_eq!(
            stored_answer("m-3", stored).unwrap(),
            MutationResult::applied("m-3")
        );
    }
}

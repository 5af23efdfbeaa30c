//! Push and pull on PostgreSQL. A push locks its user's row first, so concurrent pushes by
//! one user (from several server processes too) apply one after the other, and the second
//! sees the first's recorded mutation ids.

use anyhow::anyhow;
use domain::{
    entry::{Entry, format_date},
    merge::{Decision, Existing, Op, decide},
    sync::{Change, ChangeData, EntryData, MutationResult},
    time_fmt::rfc3339_from_ms,
};
use tokio_postgres::{Client, GenericClient, IsolationLevel, Transaction};
use uuid::Uuid;

use super::{db_err, invoices};
use crate::store::{
    MutationAction, PROFILE_COLUMNS, PreparedMutation, ProfileRow, PullPage, PushOutcome,
    RecordBudget, StoreError, StoreResult, is_recorded, merge_page, not_owner,
};
use domain::profile::ProfileUpdate;

pub async fn push(
    tx: &Transaction<'_>,
    user_id: Uuid,
    mutations: Vec<PreparedMutation>,
    now_ms: i64,
    max_records: i64,
) -> StoreResult<PushOutcome> {
    let row = tx
        .query_opt(
            "SELECT change_seq, record_count FROM users WHERE id = $1 FOR UPDATE",
            &[&user_id],
        )
        .await
        .map_err(db_err)?
        .ok_or_else(|| StoreError::Backend(anyhow!("push for unknown user {user_id}")))?;
    let start: i64 = row.get(0);
    let mut seq = start;
    let mut budget = RecordBudget {
        held: row.get(1),
        max: max_records,
    };
    let mut results = Vec::with_capacity(mutations.len());
    for mutation in mutations {
        if let Some(recorded) = recorded_result(tx, user_id, &mutation.id).await? {
            results.push(recorded);
            continue;
        }
        let result = match mutation.action {
            MutationAction::Reject { code, message } => {
                MutationResult::rejected(&mutation.id, code, message)
            }
            MutationAction::PutEntry(entry) => {
                let ctx = (&mut seq, &mut budget);
                put_entry(tx, user_id, &mutation.id, &entry, ctx, now_ms).await?
            }
            MutationAction::DeleteEntry(entry_id) => {
                let ctx = (&mut seq, &mut budget);
                delete_entry(tx, user_id, &mutation.id, entry_id, ctx, now_ms).await?
            }
            MutationAction::PutInvoice(invoice) => {
                let ctx = (&mut seq, &mut budget);
                invoices::put(tx, user_id, &mutation.id, &invoice, ctx, now_ms).await?
            }
            MutationAction::DeleteInvoice(invoice_id) => {
                let ctx = (&mut seq, &mut budget);
                invoices::delete(tx, user_id, &mutation.id, invoice_id, ctx, now_ms).await?
            }
            MutationAction::UpdateProfile(update) => {
                seq += 1;
                update_profile(tx, user_id, &update, seq, now_ms).await?;
                MutationResult::applied(&mutation.id)
            }
            MutationAction::PutSettings(theme) => {
                seq += 1;
                tx.execute(
                    "UPDATE users SET theme = $2, settings_version = $3, settings_updated_at = $4
                     WHERE id = $1",
                    &[&user_id, &theme.as_str(), &seq, &now_ms],
                )
                .await
                .map_err(db_err)?;
                MutationResult::applied(&mutation.id)
            }
        };
        if !is_recorded(&result) {
            results.push(result);
            continue;
        }
        let json = serde_json::to_string(&result).map_err(|e| StoreError::Backend(e.into()))?;
        tx.execute(
            "INSERT INTO applied_mutations (user_id, mutation_id, result, applied_at)
             VALUES ($1, $2, $3, $4)",
            &[&user_id, &mutation.id, &json, &now_ms],
        )
        .await
        .map_err(db_err)?;
        results.push(result);
    }
    if seq != start {
        tx.execute(
            "UPDATE users SET change_seq = $2, record_count = $3 WHERE id = $1",
            &[&user_id, &seq, &budget.held],
        )
        .await
        .map_err(db_err)?;
    }
    Ok(PushOutcome {
        results,
        cursor: seq,
        changed: seq != start,
    })
}

async fn recorded_result(
    tx: &Transaction<'_>,
    user_id: Uuid,
    mutation_id: &str,
) -> StoreResult<Option<MutationResult>> {
    let row = tx
        .query_opt(
            "SELECT result FROM applied_mutations WHERE user_id = $1 AND mutation_id = $2",
            &[&user_id, &mutation_id],
        )
        .await
        .map_err(db_err)?;
    row.map(|r| {
        serde_json::from_str::<MutationResult>(r.get(0)).map_err(|e| StoreError::Backend(e.into()))
    })
    .transpose()
}

/// Who holds `id` in `table`: `entries` and `invoices` share the ownership and tombstone
/// columns, so one ownership rule serves both.
pub(super) async fn existing(
    tx: &Transaction<'_>,
    table: &'static str,
    user_id: Uuid,
    id: Uuid,
) -> StoreResult<Existing> {
    let row = tx
        .query_opt(
            &format!("SELECT user_id, deleted FROM {table} WHERE id = $1"),
            &[&id],
        )
        .await
        .map_err(db_err)?;
    Ok(match row {
        None => Existing::Absent,
        Some(r) if r.get::<_, Uuid>(0) != user_id => Existing::OtherOwner,
        Some(r) if r.get::<_, bool>(1) => Existing::Deleted,
        Some(_) => Existing::Live,
    })
}

async fn put_entry(
    tx: &Transaction<'_>,
    user_id: Uuid,
    mutation_id: &str,
    entry: &Entry,
    (seq, budget): (&mut i64, &mut RecordBudget),
    now_ms: i64,
) -> StoreResult<MutationResult> {
    let date = format_date(entry.date);
    let stops = entry.stops as i32;
    let (extra, total) = (entry.extra.pence(), entry.total.pence());
    match decide(Op::Put, existing(tx, "entries", user_id, entry.id).await?) {
        Decision::Insert => {
            if let Err(refused) = budget.take(mutation_id) {
                return Ok(refused);
            }
            let version = *seq + 1;
            // Another account may be inserting this id right now (it looked absent to both):
            // its row wins and this mutation is answered like any other account's id.
            let inserted = tx
                .execute(
                    "INSERT INTO entries (id, user_id, date, stops, extra, notes, total,
                                          created_at, updated_at, deleted, version)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, FALSE, $9)
                     ON CONFLICT (id) DO NOTHING",
                    &[
                        &entry.id,
                        &user_id,
                        &date,
                        &stops,
                        &extra,
                        &entry.notes,
                        &total,
                        &now_ms,
                        &version,
                    ],
                )
                .await
                .map_err(db_err)?;
            if inserted == 0 {
                budget.give_back();
                return Ok(not_owner(mutation_id));
            }
            *seq = version;
        }
        Decision::Update => {
            *seq += 1;
            tx.execute(
                "UPDATE entries SET date = $2, stops = $3, extra = $4, notes = $5, total = $6,
                                    updated_at = $7, version = $8
                 WHERE id = $1",
                &[
                    &entry.id,
                    &date,
                    &stops,
                    &extra,
                    &entry.notes,
                    &total,
                    &now_ms,
                    &*seq,
                ],
            )
            .await
            .map_err(db_err)?;
        }
        Decision::RejectNotOwner => return Ok(not_owner(mutation_id)),
        Decision::NoOp | Decision::Tombstone => {}
    }
    Ok(MutationResult::applied(mutation_id))
}

async fn delete_entry(
    tx: &Transaction<'_>,
    user_id: Uuid,
    mutation_id: &str,
    entry_id: Uuid,
    (seq, budget): (&mut i64, &mut RecordBudget),
    now_ms: i64,
) -> StoreResult<MutationResult> {
    let state = existing(tx, "entries", user_id, entry_id).await?;
    match decide(Op::Delete, state) {
        Decision::Tombstone if state == Existing::Absent => {
            if let Err(refused) = budget.take(mutation_id) {
                return Ok(refused);
            }
            let version = *seq + 1;
            let inserted = tx
                .execute(
                    "INSERT INTO entries (id, user_id, date, stops, extra, notes, total,
                                          created_at, updated_at, deleted, version)
                     VALUES ($1, $2, '', 0, 0, '', 0, $3, $3, TRUE, $4)
                     ON CONFLICT (id) DO NOTHING",
                    &[&entry_id, &user_id, &now_ms, &version],
                )
                .await
                .map_err(db_err)?;
            if inserted == 0 {
                budget.give_back();
                return Ok(not_owner(mutation_id));
            }
            *seq = version;
        }
        Decision::Tombstone => {
            *seq += 1;
            // The tombstone keeps no content: a deleted day is gone, not hidden.
            tx.execute(
                "UPDATE entries SET deleted = TRUE, notes = '', updated_at = $2, version = $3
                 WHERE id = $1",
                &[&entry_id, &now_ms, &*seq],
            )
            .await
            .map_err(db_err)?;
        }
        Decision::RejectNotOwner => return Ok(not_owner(mutation_id)),
        Decision::NoOp | Decision::Insert | Decision::Update => {}
    }
    Ok(MutationResult::applied(mutation_id))
}

async fn update_profile(
    tx: &Transaction<'_>,
    user_id: Uuid,
    update: &ProfileUpdate,
    seq: i64,
    now_ms: i64,
) -> StoreResult<()> {
    let tiers = update
        .payment_tiers
        .as_ref()
        .map(|t| serde_json::to_string(t).map_err(|e| StoreError::Backend(e.into())))
        .transpose()?;
    tx.execute(
        "UPDATE users SET display_name = COALESCE($2, display_name), bio = COALESCE($3, bio),
                          payment_tiers = COALESCE($4, payment_tiers), profile_version = $5,
                          updated_at = $6
         WHERE id = $1",
        &[
            &user_id,
            &update.display_name,
            &update.bio,
            &tiers,
            &seq,
            &now_ms,
        ],
    )
    .await
    .map_err(db_err)?;
    Ok(())
}

pub async fn profile_row(
    client: &impl GenericClient,
    user_id: Uuid,
) -> StoreResult<Option<ProfileRow>> {
    let row = client
        .query_opt(
            &format!("SELECT {PROFILE_COLUMNS} FROM users WHERE id = $1"),
            &[&user_id],
        )
        .await
        .map_err(db_err)?;
    Ok(row.map(|r| ProfileRow {
        user: super::user_from_row(&r),
        payment_tiers: r.get(10),
        profile_version: r.get(11),
        theme: r.get(12),
        settings_version: r.get(13),
        settings_updated_at_ms: r.get(14),
    }))
}

pub async fn pull(
    client: &mut Client,
    user_id: Uuid,
    cursor: i64,
    limit: u32,
) -> StoreResult<PullPage> {
    // Entries, invoices and the profile are separate reads: one snapshot for all of them, or
    // a push committing between two reads could show a later version from one table without
    // an earlier one from another, and the cursor would then skip it for good.
    let snapshot = client
        .build_transaction()
        .isolation_level(IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .await
        .map_err(db_err)?;
    let page = read_page(&snapshot, user_id, cursor, limit).await?;
    snapshot.commit().await.map_err(db_err)?;
    Ok(page)
}

async fn read_page(
    client: &impl GenericClient,
    user_id: Uuid,
    cursor: i64,
    limit: u32,
) -> StoreResult<PullPage> {
    let rows = client
        .query(
            "SELECT id, version, deleted, date, stops, extra, notes, total, created_at, updated_at
             FROM entries WHERE user_id = $1 AND version > $2 ORDER BY version LIMIT $3",
            &[&user_id, &cursor, &(i64::from(limit) + 1)],
        )
        .await
        .map_err(db_err)?;
    let mut changes: Vec<Change> = rows
        .iter()
        .map(|r| {
            let deleted: bool = r.get(2);
            Change {
                kind: "entry".into(),
                id: r.get::<_, Uuid>(0).to_string(),
                version: r.get(1),
                deleted,
                data: (!deleted).then(|| {
                    ChangeData::Entry(EntryData {
                        date: r.get(3),
                        stops: r.get::<_, i32>(4) as u32,
                        extra: r.get(5),
                        notes: r.get(6),
                        total: r.get(7),
                        created_at: rfc3339_from_ms(r.get(8)),
                        updated_at: rfc3339_from_ms(r.get(9)),
                    })
                }),
            }
        })
        .collect();
    changes.extend(invoices::changed_after(client, user_id, cursor, limit).await?);
    let profile = profile_row(client, user_id).await?;
    Ok(merge_page(changes, profile.as_ref(), cursor, limit))
}

//! Push and pull on SQLite. Runs on the writer thread, so pushes never interleave.

use anyhow::anyhow;
use domain::{
    entry::{Entry, format_date},
    merge::{Decision, Existing, Op, decide},
    sync::{Change, ChangeData, EntryData, MutationResult},
    time_fmt::rfc3339_from_ms,
};
use rusqlite::{Connection, OptionalExtension, params};
use uuid::Uuid;

use super::{db_err, invoices};
use crate::store::{
    MutationAction, PROFILE_COLUMNS, PreparedMutation, ProfileRow, PullPage, PushOutcome,
    RecordBudget, StoreError, StoreResult, is_recorded, merge_page, not_owner,
};
use domain::profile::{ProfileUpdate, Theme};

pub fn push(
    conn: &Connection,
    user_id: Uuid,
    mutations: Vec<PreparedMutation>,
    now_ms: i64,
    max_records: i64,
) -> StoreResult<PushOutcome> {
    let user = user_id.to_string();
    let (start, held): (i64, i64) = conn
        .query_row(
            "SELECT change_seq, record_count FROM users WHERE id = ?1",
            [&user],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()
        .map_err(db_err)?
        .ok_or_else(|| StoreError::Backend(anyhow!("push for unknown user {user_id}")))?;
    let mut seq = start;
    let mut budget = RecordBudget {
        held,
        max: max_records,
    };
    let mut results = Vec::with_capacity(mutations.len());
    for mutation in mutations {
        if let Some(recorded) = recorded_result(conn, &user, &mutation.id)? {
            results.push(recorded);
            continue;
        }
        let result = match mutation.action {
            MutationAction::Reject { code, message } => {
                MutationResult::rejected(&mutation.id, code, message)
            }
            MutationAction::PutEntry(entry) => put_entry(
                conn,
                &user,
                &mutation.id,
                &entry,
                &mut seq,
                &mut budget,
                now_ms,
            )?,
            MutationAction::DeleteEntry(entry_id) => {
                let ctx = (&mut seq, &mut budget);
                delete_entry(conn, &user, &mutation.id, entry_id, ctx, now_ms)?
            }
            MutationAction::PutInvoice(invoice) => {
                let ctx = (&mut seq, &mut budget);
                invoices::put(conn, &user, &mutation.id, &invoice, ctx, now_ms)?
            }
            MutationAction::DeleteInvoice(invoice_id) => {
                let ctx = (&mut seq, &mut budget);
                invoices::delete(conn, &user, &mutation.id, invoice_id, ctx, now_ms)?
            }
            MutationAction::UpdateProfile(update) => {
                seq += 1;
                update_profile(conn, &user, &update, seq, now_ms)?;
                MutationResult::applied(&mutation.id)
            }
            MutationAction::PutSettings(theme) => {
                seq += 1;
                put_settings(conn, &user, theme, seq, now_ms)?;
                MutationResult::applied(&mutation.id)
            }
        };
        if !is_recorded(&result) {
            results.push(result);
            continue;
        }
        let json = serde_json::to_string(&result).map_err(|e| StoreError::Backend(e.into()))?;
        conn.execute(
            "INSERT INTO applied_mutations (user_id, mutation_id, result, applied_at)
             VALUES (?1, ?2, ?3, ?4)",
            params![user, mutation.id, json, now_ms],
        )
        .map_err(db_err)?;
        results.push(result);
    }
    if seq != start {
        conn.execute(
            "UPDATE users SET change_seq = ?2, record_count = ?3 WHERE id = ?1",
            params![user, seq, budget.held],
        )
        .map_err(db_err)?;
    }
    Ok(PushOutcome {
        results,
        cursor: seq,
        changed: seq != start,
    })
}

fn recorded_result(
    conn: &Connection,
    user: &str,
    mutation_id: &str,
) -> StoreResult<Option<MutationResult>> {
    let json: Option<String> = conn
        .query_row(
            "SELECT result FROM applied_mutations WHERE user_id = ?1 AND mutation_id = ?2",
            [user, mutation_id],
            |r| r.get(0),
        )
        .optional()
        .map_err(db_err)?;
    json.map(|j| serde_json::from_str(&j).map_err(|e| StoreError::Backend(e.into())))
        .transpose()
}

/// Who holds `id` in `table`: `entries` and `invoices` share the ownership and tombstone
/// columns, so one ownership rule serves both.
pub(super) fn existing(
    conn: &Connection,
    table: &'static str,
    user: &str,
    id: Uuid,
) -> StoreResult<Existing> {
    let row: Option<(String, bool)> = conn
        .query_row(
            &format!("SELECT user_id, deleted FROM {table} WHERE id = ?1"),
            [id.to_string()],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()
        .map_err(db_err)?;
    Ok(match row {
        None => Existing::Absent,
        Some((owner, _)) if owner != user => Existing::OtherOwner,
        Some((_, true)) => Existing::Deleted,
        Some((_, false)) => Existing::Live,
    })
}

fn put_entry(
    conn: &Connection,
    user: &str,
    mutation_id: &str,
    entry: &Entry,
    seq: &mut i64,
    budget: &mut RecordBudget,
    now_ms: i64,
) -> StoreResult<MutationResult> {
    let date = format_date(entry.date);
    match decide(Op::Put, existing(conn, "entries", user, entry.id)?) {
        Decision::Insert => {
            if let Err(refused) = budget.take(mutation_id) {
                return Ok(refused);
            }
            *seq += 1;
            conn.execute(
                "INSERT INTO entries (id, user_id, date, stops, extra, notes, total,
                                      created_at, updated_at, deleted, version)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, 0, ?9)",
                params![
                    entry.id.to_string(),
                    user,
                    date,
                    entry.stops,
                    entry.extra.pence(),
                    entry.notes,
                    entry.total.pence(),
                    now_ms,
                    *seq
                ],
            )
            .map_err(db_err)?;
        }
        Decision::Update => {
            *seq += 1;
            conn.execute(
                "UPDATE entries SET date = ?2, stops = ?3, extra = ?4, notes = ?5, total = ?6,
                                    updated_at = ?7, version = ?8
                 WHERE id = ?1",
                params![
                    entry.id.to_string(),
                    date,
                    entry.stops,
                    entry.extra.pence(),
                    entry.notes,
                    entry.total.pence(),
                    now_ms,
                    *seq
                ],
            )
            .map_err(db_err)?;
        }
        Decision::RejectNotOwner => return Ok(not_owner(mutation_id)),
        Decision::NoOp | Decision::Tombstone => {}
    }
    Ok(MutationResult::applied(mutation_id))
}

fn delete_entry(
    conn: &Connection,
    user: &str,
    mutation_id: &str,
    entry_id: Uuid,
    (seq, budget): (&mut i64, &mut RecordBudget),
    now_ms: i64,
) -> StoreResult<MutationResult> {
    let state = existing(conn, "entries", user, entry_id)?;
    match decide(Op::Delete, state) {
        Decision::Tombstone if state == Existing::Absent => {
            if let Err(refused) = budget.take(mutation_id) {
                return Ok(refused);
            }
            *seq += 1;
            conn.execute(
                "INSERT INTO entries (id, user_id, date, stops, extra, notes, total,
                                      created_at, updated_at, deleted, version)
                 VALUES (?1, ?2, '', 0, 0, '', 0, ?3, ?3, 1, ?4)",
                params![entry_id.to_string(), user, now_ms, *seq],
            )
            .map_err(db_err)?;
        }
        Decision::Tombstone => {
            *seq += 1;
            // The tombstone keeps no content: a deleted day is gone, not hidden.
            conn.execute(
                "UPDATE entries SET deleted = 1, notes = '', updated_at = ?2, version = ?3
                 WHERE id = ?1",
                params![entry_id.to_string(), now_ms, *seq],
            )
            .map_err(db_err)?;
        }
        Decision::RejectNotOwner => return Ok(not_owner(mutation_id)),
        Decision::NoOp | Decision::Insert | Decision::Update => {}
    }
    Ok(MutationResult::applied(mutation_id))
}

fn update_profile(
    conn: &Connection,
    user: &str,
    update: &ProfileUpdate,
    seq: i64,
    now_ms: i64,
) -> StoreResult<()> {
    let tiers = update
        .payment_tiers
        .as_ref()
        .map(|t| serde_json::to_string(t).map_err(|e| StoreError::Backend(e.into())))
        .transpose()?;
    conn.execute(
        "UPDATE users SET display_name = COALESCE(?2, display_name), bio = COALESCE(?3, bio),
                          payment_tiers = COALESCE(?4, payment_tiers), profile_version = ?5,
                          updated_at = ?6
         WHERE id = ?1",
        params![user, update.display_name, update.bio, tiers, seq, now_ms],
    )
    .map_err(db_err)?;
    Ok(())
}

fn put_settings(
    conn: &Connection,
    user: &str,
    theme: Theme,
    seq: i64,
    now_ms: i64,
) -> StoreResult<()> {
    conn.execute(
        "UPDATE users SET theme = ?2, settings_version = ?3, settings_updated_at = ?4 WHERE id = ?1",
        params![user, theme.as_str(), seq, now_ms],
    )
    .map_err(db_err)?;
    Ok(())
}

pub fn profile_row(conn: &Connection, user_id: Uuid) -> StoreResult<Option<ProfileRow>> {
    conn.query_row(
        &format!("SELECT {PROFILE_COLUMNS} FROM users WHERE id = ?1"),
        [user_id.to_string()],
        |r| {
            Ok(ProfileRow {
                user: super::user_from_row(r)?,
                payment_tiers: r.get(10)?,
                profile_version: r.get(11)?,
                theme: r.get(12)?,
                settings_version: r.get(13)?,
                settings_updated_at_ms: r.get(14)?,
            })
        },
    )
    .optional()
    .map_err(db_err)
}

pub fn pull(conn: &Connection, user_id: Uuid, cursor: i64, limit: u32) -> StoreResult<PullPage> {
    // Entries, invoices and the profile are separate reads: one read transaction (one WAL
    // snapshot) for all of them, or a push committing between two reads could show a later
    // version from one table without an earlier one from another, and the cursor would then
    // skip it for good.
    let snapshot = conn.unchecked_transaction().map_err(db_err)?;
    let page = read_page(&snapshot, user_id, cursor, limit)?;
    snapshot.commit().map_err(db_err)?;
    Ok(page)
}

fn read_page(conn: &Connection, user_id: Uuid, cursor: i64, limit: u32) -> StoreResult<PullPage> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT id, version, deleted, date, stops, extra, notes, total, created_at, updated_at
             FROM entries WHERE user_id = ?1 AND version > ?2 ORDER BY version LIMIT ?3",
        )
        .map_err(db_err)?;
    let mut changes = stmt
        .query_map(
            params![user_id.to_string(), cursor, i64::from(limit) + 1],
            |r| {
                let deleted: bool = r.get(2)?;
                Ok(Change {
                    kind: "entry".into(),
                    id: r.get(0)?,
                    version: r.get(1)?,
                    deleted,
                    data: (!deleted)
                        .then(|| -> rusqlite::Result<ChangeData> {
                            Ok(ChangeData::Entry(EntryData {
                                date: r.get(3)?,
                                stops: r.get(4)?,
                                extra: r.get(5)?,
                                notes: r.get(6)?,
                                total: r.get(7)?,
                                created_at: rfc3339_from_ms(r.get(8)?),
                                updated_at: rfc3339_from_ms(r.get(9)?),
                            }))
                        })
                        .transpose()?,
                })
            },
        )
        .map_err(db_err)?
        .collect::<rusqlite::Result<Vec<_>>>()
        .map_err(db_err)?;
    changes.extend(invoices::changed_after(conn, user_id, cursor, limit)?);
    let profile = profile_row(conn, user_id)?;
    Ok(merge_page(changes, profile.as_ref(), cursor, limit))
}

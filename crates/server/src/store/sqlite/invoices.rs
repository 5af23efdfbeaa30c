//! Invoice checks on SQLite: the same per-record sync as entries (one change sequence, the one
//! merge rule, contentless tombstones), in their own table. Runs on the writer thread inside
//! the push transaction, like `sync.rs`.

use domain::{
    entry::format_date,
    invoice::Invoice,
    merge::{Decision, Existing, Op, decide},
    sync::{Change, ChangeData, InvoiceData, MutationResult},
    time_fmt::rfc3339_from_ms,
};
use rusqlite::{Connection, params};
use uuid::Uuid;

use super::{db_err, sync::existing};
use crate::store::{RecordBudget, StoreResult, not_owner};

pub fn put(
    conn: &Connection,
    user: &str,
    mutation_id: &str,
    invoice: &Invoice,
    (seq, budget): (&mut i64, &mut RecordBudget),
    now_ms: i64,
) -> StoreResult<MutationResult> {
    let (start, end) = (
        format_date(invoice.period_start),
        format_date(invoice.period_end),
    );
    match decide(Op::Put, existing(conn, "invoices", user, invoice.id)?) {
        Decision::Insert => {
            if let Err(refused) = budget.take(mutation_id) {
                return Ok(refused);
            }
            *seq += 1;
            conn.execute(
                "INSERT INTO invoices (id, user_id, period_start, period_end, paid, stops,
                                       reference, created_at, updated_at, deleted, version)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, 0, ?9)",
                params![
                    invoice.id.to_string(),
                    user,
                    start,
                    end,
                    invoice.paid.pence(),
                    invoice.stops,
                    invoice.reference,
                    now_ms,
                    *seq
                ],
            )
            .map_err(db_err)?;
        }
        Decision::Update => {
            *seq += 1;
            conn.execute(
                "UPDATE invoices SET period_start = ?2, period_end = ?3, paid = ?4, stops = ?5,
                                     reference = ?6, updated_at = ?7, version = ?8
                 WHERE id = ?1",
                params![
                    invoice.id.to_string(),
                    start,
                    end,
                    invoice.paid.pence(),
                    invoice.stops,
                    invoice.reference,
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

pub fn delete(
    conn: &Connection,
    user: &str,
    mutation_id: &str,
    invoice_id: Uuid,
    (seq, budget): (&mut i64, &mut RecordBudget),
    now_ms: i64,
) -> StoreResult<MutationResult> {
    let state = existing(conn, "invoices", user, invoice_id)?;
    match decide(Op::Delete, state) {
        Decision::Tombstone if state == Existing::Absent => {
            // Deleted on one device before another synced it: the tombstone claims the id so a
            // late put cannot bring it back.
            if let Err(refused) = budget.take(mutation_id) {
                return Ok(refused);
            }
            *seq += 1;
            conn.execute(
                "INSERT INTO invoices (id, user_id, period_start, period_end, paid, stops,
                                       reference, created_at, updated_at, deleted, version)
                 VALUES (?1, ?2, '', '', 0, NULL, '', ?3, ?3, 1, ?4)",
                params![invoice_id.to_string(), user, now_ms, *seq],
            )
            .map_err(db_err)?;
        }
        Decision::Tombstone => {
            *seq += 1;
            // The tombstone keeps no content: a deleted statement is gone, not hidden.
            conn.execute(
                "UPDATE invoices SET deleted = 1, period_start = '', period_end = '', paid = 0,
                                     stops = NULL, reference = '', updated_at = ?2, version = ?3
                 WHERE id = ?1",
                params![invoice_id.to_string(), now_ms, *seq],
            )
            .map_err(db_err)?;
        }
        Decision::RejectNotOwner => return Ok(not_owner(mutation_id)),
        Decision::NoOp | Decision::Insert | Decision::Update => {}
    }
    Ok(MutationResult::applied(mutation_id))
}

/// The user's invoices changed after `cursor`, oldest first, at most `limit + 1` (see
/// `merge_page`).
pub fn changed_after(
    conn: &Connection,
    user_id: Uuid,
    cursor: i64,
    limit: u32,
) -> StoreResult<Vec<Change>> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT id, version, deleted, period_start, period_end, paid, stops, reference,
                    created_at, updated_at
             FROM invoices WHERE user_id = ?1 AND version > ?2 ORDER BY version LIMIT ?3",
        )
        .map_err(db_err)?;
    stmt.query_map(
        params![user_id.to_string(), cursor, i64::from(limit) + 1],
        |r| {
            let deleted: bool = r.get(2)?;
            Ok(Change {
                kind: "invoice".into(),
                id: r.get(0)?,
                version: r.get(1)?,
                deleted,
                data: (!deleted)
                    .then(|| -> rusqlite::Result<ChangeData> {
                        Ok(ChangeData::Invoice(InvoiceData {
                            period_start: r.get(3)?,
                            period_end: r.get(4)?,
                            paid: r.get(5)?,
                            stops: r.get(6)?,
                            reference: r.get(7)?,
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
    .map_err(db_err)
}

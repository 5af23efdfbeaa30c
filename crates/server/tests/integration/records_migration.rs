//! Migration 0011 moves the entries and invoices tables into the one records table: a
//! database written before it pulls the same changes after it, tombstones stay contentless,
//! ids keep their owners and the records quota keeps its count.

use crate::common;

use common::quota;

use common::{Backend, TestStore};
use domain::{
    Money,
    entry::{Entry, parse_date},
    statement_check::CheckStatus,
    sync::{Change, ChangeData, EntryContent, Stamped, StatementCheckContent},
};
use server::{
    entries::Entries,
    store::{DynStore, MutationAction, PreparedMutation},
};
use uuid::Uuid;

const OWNER: &str = "0190a6e2-7c1d-7000-8000-00000000f001";
const LIVE_ENTRY: &str = "0190a6e2-7c1d-7000-8000-00000000e001";
const DELETED_ENTRY: &str = "0190a6e2-7c1d-7000-8000-00000000e002";
const OPEN_INVOICE: &str = "0190a6e2-7c1d-7000-8000-00000000a001";
const COUNTED_INVOICE: &str = "0190a6e2-7c1d-7000-8000-00000000a002";
const DELETED_INVOICE: &str = "0190a6e2-7c1d-7000-8000-00000000a003";

/// Rows as the schema before 0011 held them (the SQL runs on both backends).
fn old_rows() -> String {
    format!(
        "INSERT INTO users (id, email, password_hash, display_name, is_anonymous, created_at,
                            last_login, updated_at, change_seq, record_count)
         VALUES ('{OWNER}', 'old@example.com', 'hash', 'Sam', FALSE, 1000, 1000, 1000, 5, 5);
         INSERT INTO entries (id, user_id, date, stops, extra, notes, total, created_at,
                              updated_at, deleted, version)
         VALUES ('{LIVE_ENTRY}', '{OWNER}', '2025-03-21', 120, 250, 'Rain, \"heavy\" — £5', 24010,
                 86400000, 90000000, FALSE, 1),
                ('{DELETED_ENTRY}', '{OWNER}', '', 0, 0, '', 0, 86400000, 90000000, TRUE, 4);
         INSERT INTO invoices (id, user_id, period_start, period_end, paid, stops, reference,
                               created_at, updated_at, deleted, version)
         VALUES ('{OPEN_INVOICE}', '{OWNER}', '2025-03-17', '2025-03-23', 123456, NULL, '',
                 86400000, 86400000, FALSE, 2),
                ('{COUNTED_INVOICE}', '{OWNER}', '2025-03-24', '2025-03-30', 10000000, 640,
                 'INV-2025-12', 86400000, 86400000, FALSE, 3),
                ('{DELETED_INVOICE}', '{OWNER}', '', '', 0, NULL, '', 86400000, 90000000, TRUE, 5);"
    )
}

/// A store opened on a database written before 0011 (opening migrates, 0012 included).
async fn migrated_store(backend: Backend) -> Option<TestStore> {
    common::migrations::store_before(backend, 11, &old_rows()).await
}

fn change(kind: &str, id: &str, version: i64, data: Option<ChangeData>) -> Change {
    Change {
        kind: kind.into(),
        id: id.into(),
        version,
        deleted: data.is_none(),
        data,
    }
}

/// A day of `user`'s default courier and first card.
fn put(id: &str, entry_id: &str, user: Uuid) -> PreparedMutation {
    PreparedMutation {
        id: id.into(),
        action: MutationAction::put::<Entries>(&Entry {
            id: Uuid::parse_str(entry_id).unwrap(),
            date: parse_date("2025-04-01").unwrap(),
            stops: 1,
            extra: Money(0),
            notes: String::new(),
            total: Money(198),
            courier_id: user,
            rate_card_id: Some(user),
            parcels: None,
            collections: None,
            failed: None,
            hours: None,
            separate_shift: false,
            bands: None,
        }),
    }
}

fn codes(outcome: &server::store::PushOutcome) -> Vec<Option<&str>> {
    outcome.results.iter().map(|r| r.code.as_deref()).collect()
}

async fn rows_move_into_records(backend: Backend) {
    let Some(test) = migrated_store(backend).await else {
        return;
    };
    let store: DynStore = test.store.clone();
    let owner = Uuid::parse_str(OWNER).unwrap();
    let page = store.pull(owner, 0, 100).await.unwrap();
    let records: Vec<Change> = page
        .changes
        .into_iter()
        .filter(|c| c.kind == "entry" || c.kind == "invoice")
        .collect();
    let day = "1970-01-02T00:00:00Z".to_owned();
    let later = "1970-01-02T01:00:00Z".to_owned();
    assert_eq!(
        records,
        [
            change(
                "entry",
                LIVE_ENTRY,
                1,
                Some(ChangeData::Entry(Stamped {
                    content: EntryContent {
                        date: "2025-03-21".into(),
                        stops: 120,
                        extra: 250,
                        notes: "Rain, \"heavy\" — £5".into(),
                        total: 24_010,
                        // Migration 0012: the default courier and card, the rest empty.
                        courier_id: OWNER.into(),
                        rate_card_id: Some(OWNER.into()),
                        parcels: None,
                        collections: None,
                        failed: None,
                        start_time: None,
                        finish_time: None,
                        // Migration 0017: not a separate shift.
                        separate_shift: false,
                        bands: None,
                    },
                    created_at: day.clone(),
                    updated_at: later,
                })),
            ),
            change(
                "invoice",
                OPEN_INVOICE,
                2,
                Some(ChangeData::StatementCheck(Stamped {
                    content: StatementCheckContent {
                        period_start: "2025-03-17".into(),
                        period_end: "2025-03-23".into(),
                        paid: 123_456,
                        stops: None,
                        reference: String::new(),
                        courier_id: OWNER.into(),
                        parcels: None,
                        collections: None,
                        deductions: None,
                        status: CheckStatus::Unchecked,
                        note: String::new(),
                    },
                    created_at: day.clone(),
                    updated_at: day.clone(),
                })),
            ),
            change(
                "invoice",
                COUNTED_INVOICE,
                3,
                Some(ChangeData::StatementCheck(Stamped {
                    content: StatementCheckContent {
                        period_start: "2025-03-24".into(),
                        period_end: "2025-03-30".into(),
                        paid: 10_000_000,
                        stops: Some(640),
                        reference: "INV-2025-12".into(),
                        courier_id: OWNER.into(),
                        parcels: None,
                        collections: None,
                        deductions: None,
                        status: CheckStatus::Unchecked,
                        note: String::new(),
                    },
                    created_at: day.clone(),
                    updated_at: day,
                })),
            ),
            change("entry", DELETED_ENTRY, 4, None),
            change("invoice", DELETED_INVOICE, 5, None),
        ]
    );
    // Five rows, then 0012's default courier and card (couriers_migration.rs).
    assert_eq!(store.change_cursor(owner).await.unwrap(), Some(5 + 2));

    // Ids keep their owner, tombstones still win, and the quota still counts the five rows
    // (and 0012's two).
    let other = store.create_user(common::guest_user()).await.unwrap();
    let theirs = store
        .push(
            other.id,
            vec![put("m1", LIVE_ENTRY, other.id)],
            100_000_000,
            quota(100),
        )
        .await
        .unwrap();
    assert_eq!(codes(&theirs), [Some("not-owner")]);
    let mine = store
        .push(
            owner,
            vec![
                put("m2", DELETED_ENTRY, owner),
                put("m3", &Uuid::now_v7().to_string(), owner),
                put("m4", &Uuid::now_v7().to_string(), owner),
            ],
            100_000_000,
            quota(6 + 2),
        )
        .await
        .unwrap();
    assert_eq!(codes(&mine), [None, None, Some("quota-exceeded")]);
    assert_eq!(mine.cursor, 6 + 2, "only the new entry moved the sequence");
}

on_both_backends!(rows_move_into_records);

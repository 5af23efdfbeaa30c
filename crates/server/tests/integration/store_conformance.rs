//! One behaviour, two stores: every case runs against SQLite and PostgreSQL.

use crate::common;

use common::quota;

use std::collections::HashSet;

use common::{Backend, store_for};
use domain::{
    Money, PayTier, PayTiers, Role,
    courier::{Courier, PeriodKind},
    deduction::{Deduction, Repeat},
    defaults::STARTER_RECORDS,
    entry::Entry,
    expense::{Expense, ExpenseCategory},
    mileage::Mileage,
    phone::SendLimits,
    profile::{MtdQuarters, ProfileUpdate, SettingsUpdate, TaxRegion, Theme},
    rate_card::{Peak, RateCard},
    sent_update::{ExpensesShape, SentUpdateInput},
    statement_check::{CheckStatus, StatementCheck},
    statement_format::{DateOrder, FormatSource, StatementFormatInput, TypeWord},
    statement_line::{LineType, SizeBand, StatementLine},
    statement_query::{QueryItem, StatementQuery},
    sync::{
        ChangeData, CourierContent, DeductionContent, EntryContent, EvidenceContent,
        ExpenseContent, MileageContent, RateCardContent, SentUpdateContent, SettingsData, Stamped,
        StatementCheckContent, StatementFormatContent, StatementLineContent, StatementQueryContent,
        VehicleContent,
    },
    vehicle::{Vehicle, VehicleMethod, VehicleType},
};
use server::{
    couriers::Couriers,
    deductions::Deductions,
    entries::Entries,
    expenses::Expenses,
    mileage::MileageLog,
    rate_cards::RateCards,
    sent_updates::SentUpdates,
    statement_checks::StatementChecks,
    statement_formats::StatementFormats,
    statement_lines::StatementLines,
    statement_queries::StatementQueries,
    store::{
        DynStore, EmailLink, ExternalIdentity, InviteUse, LinkPurpose, MutationAction,
        NewEmailLink, NewUser, PreparedMutation, ReceiptHolder, ReceiptInsert, ReceiptRecord,
        SessionRecord, StoreError,
        phone::{PhoneCodeStart, PhoneSignIn, PhoneSignInRequest},
        sessions::READ_BATCH,
    },
    vehicles::Vehicles,
};
use uuid::Uuid;

fn account(email: &str) -> NewUser {
    NewUser {
        id: Uuid::now_v7(),
        email: Some(email.into()),
        display_name: Some("Sam".into()),
        password_hash: Some("$argon2id$fake".into()),
        is_anonymous: false,
        now_ms: 1_000,
    }
}

async fn store(backend: Backend) -> Option<(DynStore, common::TestStore)> {
    let test = store_for(backend).await?;
    Some((test.store.clone(), test))
}

async fn users_round_trip_and_emails_are_unique(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    assert_eq!(store.count_users().await.unwrap(), 0);
    let created = store.create_user(account("a@example.com")).await.unwrap();
    assert_eq!(created.email.as_deref(), Some("a@example.com"));
    assert_eq!(created.role, Role::Free);
    assert_eq!(
        (created.created_at_ms, created.last_login_ms),
        (1_000, 1_000)
    );
    assert_eq!(
        store.get_user(created.id).await.unwrap(),
        Some(created.clone())
    );
    assert!(store.get_user(Uuid::now_v7()).await.unwrap().is_none());

    let clash = store.create_user(account("a@example.com")).await;
    assert!(
        matches!(clash, Err(StoreError::Conflict("email"))),
        "{clash:?}"
    );
    // Guests have no e-mail, and any number of them may exist.
    store.create_user(common::guest_user()).await.unwrap();
    store.create_user(common::guest_user()).await.unwrap();
    assert_eq!(store.list_users().await.unwrap().len(), 3);
    assert_eq!(store.count_users().await.unwrap(), 3);
}

async fn password_login_lookup_skips_guests(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let user = store.create_user(account("b@example.com")).await.unwrap();
    let (found, hash) = store
        .find_password_login("b@example.com")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(found.id, user.id);
    assert_eq!(hash, "$argon2id$fake");
    assert!(
        store
            .find_password_login("nobody@example.com")
            .await
            .unwrap()
            .is_none()
    );

    store.record_login(user.id, 5_000).await.unwrap();
    assert_eq!(
        store
            .get_user(user.id)
            .await
            .unwrap()
            .unwrap()
            .last_login_ms,
        5_000
    );
}

async fn roles_are_set_by_email(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let user = store.create_user(account("c@example.com")).await.unwrap();
    assert!(
        store
            .set_role_by_email("c@example.com", Role::Pro, 9_000)
            .await
            .unwrap()
    );
    let updated = store.get_user(user.id).await.unwrap().unwrap();
    assert_eq!((updated.role, updated.updated_at_ms), (Role::Pro, 9_000));
    assert!(
        !store
            .set_role_by_email("nobody@example.com", Role::Pro, 9_000)
            .await
            .unwrap()
    );
}

async fn users_are_found_by_email_and_deleted_with_their_sessions(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let user = store.create_user(account("d@example.com")).await.unwrap();
    let other = store.create_user(account("e@example.com")).await.unwrap();
    let found = store.find_user_by_email("d@example.com").await.unwrap();
    assert_eq!(found.map(|u| u.id), Some(user.id));
    assert!(
        store
            .find_user_by_email("nobody@example.com")
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        store
            .find_user_by_phone("+447700900123")
            .await
            .unwrap()
            .is_none()
    );
    for (token, owner) in [("t-d", user.id), ("t-e", other.id)] {
        store
            .create_session(SessionRecord {
                token_hash: token.into(),
                user_id: owner,
                created_at_ms: 1_000,
                last_seen_ms: 1_000,
                user_agent: None,
                temporary_password: false,
            })
            .await
            .unwrap();
    }
    assert!(store.delete_user(user.id).await.unwrap());
    assert!(store.get_user(user.id).await.unwrap().is_none());
    assert!(store.get_session("t-d").await.unwrap().is_none());
    assert!(!store.delete_user(user.id).await.unwrap(), "already gone");
    assert!(store.get_user(other.id).await.unwrap().is_some());
    assert!(store.get_session("t-e").await.unwrap().is_some());
}

async fn sessions_live_touch_and_expire(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let user = store.create_user(account("d@example.com")).await.unwrap();
    let session = |hash: &str, created, seen| SessionRecord {
        token_hash: hash.into(),
        user_id: user.id,
        created_at_ms: created,
        last_seen_ms: seen,
        user_agent: Some("test".into()),
        temporary_password: false,
    };
    store
        .create_session(session("fresh", 10_000, 10_000))
        .await
        .unwrap();
    // A session signed in with a temporary password says so when read back, alone and with its user.
    store
        .create_session(SessionRecord {
            temporary_password: true,
            ..session("temporary", 10_000, 10_000)
        })
        .await
        .unwrap();
    let read = |hash: &'static str| {
        let store = store.clone();
        async move { store.get_session(hash).await.unwrap().unwrap() }
    };
    assert!(read("temporary").await.temporary_password);
    assert!(!read("fresh").await.temporary_password);
    let (with_user, _) = store.get_session_user("temporary").await.unwrap().unwrap();
    assert!(with_user.temporary_password);
    store.delete_session("temporary").await.unwrap();
    store
        .create_session(session("idle", 1_000, 1_000))
        .await
        .unwrap();
    store
        .create_session(session("ancient", 1, 20_000))
        .await
        .unwrap();
    assert!(matches!(
        store.create_session(session("fresh", 1, 1)).await,
        Err(StoreError::Conflict(_))
    ));

    store.touch_session("fresh", 15_000).await.unwrap();
    assert_eq!(
        store
            .get_session("fresh")
            .await
            .unwrap()
            .unwrap()
            .last_seen_ms,
        15_000
    );

    // Idle before 5,000 or created before 100: "idle" and "ancient" go.
    assert_eq!(store.delete_expired_sessions(5_000, 100).await.unwrap(), 2);
    assert!(store.get_session("idle").await.unwrap().is_none());
    assert!(store.get_session("ancient").await.unwrap().is_none());
    store.delete_session("fresh").await.unwrap();
    assert!(store.get_session("fresh").await.unwrap().is_none());
}

/// Concurrent writers: SQLite batches them into group commits, where one failing write must
/// roll back alone. Exactly one of each clashing pair wins; every other write lands.
async fn concurrent_writes_are_isolated(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let mut tasks = Vec::new();
    for i in 0..60 {
        let store = store.clone();
        // Every e-mail is used twice.
        let email = format!("racer{}@example.com", i / 2);
        tasks.push(tokio::spawn(async move {
            (email.clone(), store.create_user(account(&email)).await)
        }));
    }
    let mut winners = HashSet::new();
    for task in tasks {
        let (email, outcome) = task.await.unwrap();
        match outcome {
            Ok(_) => assert!(winners.insert(email), "two winners for one e-mail"),
            Err(StoreError::Conflict("email")) => {}
            Err(other) => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(winners.len(), 30);
    assert_eq!(store.list_users().await.unwrap().len(), 30);
}

async fn photo_changes_move_the_change_cursor(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let user = store
        .create_user(account("photo@example.com"))
        .await
        .unwrap();
    // A new account starts with its starter records (the default courier and card).
    const S: i64 = STARTER_RECORDS;
    assert_eq!(store.change_cursor(user.id).await.unwrap(), Some(S));
    let swap = store
        .set_photo(user.id, Some("/api/v1/files/x".into()), 7_000)
        .await
        .unwrap();
    assert_eq!((swap.cursor, swap.replaced), (S + 1, None));
    assert_eq!(store.change_cursor(user.id).await.unwrap(), Some(S + 1));
    let updated = store.get_user(user.id).await.unwrap().unwrap();
    assert_eq!(
        (updated.photo_url.as_deref(), updated.updated_at_ms),
        (Some("/api/v1/files/x"), 7_000)
    );
    let page = store.pull(user.id, S, 10).await.unwrap();
    assert_eq!(page.changes.len(), 1);
    assert_eq!(
        (page.changes[0].kind.as_str(), page.changes[0].version),
        ("profile", S + 1)
    );
    assert!(store.change_cursor(Uuid::now_v7()).await.unwrap().is_none());
    // Each swap reports exactly the URL it replaced.
    let swap = store
        .set_photo(user.id, Some("/api/v1/files/y".into()), 8_000)
        .await
        .unwrap();
    assert_eq!(
        (swap.cursor, swap.replaced.as_deref()),
        (S + 2, Some("/api/v1/files/x"))
    );
    let swap = store.set_photo(user.id, None, 9_000).await.unwrap();
    assert_eq!(swap.replaced.as_deref(), Some("/api/v1/files/y"));
}

/// The store keeps every invoice field exactly (no stops vs zero stops, multi-byte references,
/// the largest amounts) and pulls invoices and entries from one change sequence.
async fn statement_checks_round_trip_beside_entries(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let user = store
        .create_user(account("invoices@example.com"))
        .await
        .unwrap();
    let day = |raw: &str| domain::entry::parse_date(raw).unwrap();
    let invoice = |stops, reference: &str| StatementCheck {
        id: Uuid::now_v7(),
        period_start: day("2024-01-01"),
        period_end: day("2024-12-31"),
        paid: Money(10_000_000),
        stops,
        reference: reference.into(),
        ..statement_check(user.id)
    };
    let (counted, uncounted) = (
        invoice(Some(0), "é".repeat(100).as_str()),
        invoice(None, ""),
    );
    let entry = day_entry(user.id, Uuid::now_v7(), 10);
    let prepared = |action| PreparedMutation {
        id: Uuid::now_v7().to_string(),
        action,
    };
    let outcome = store
        .push(
            user.id,
            vec![
                prepared(MutationAction::put::<StatementChecks>(&counted)),
                prepared(MutationAction::put::<Entries>(&entry)),
                prepared(MutationAction::put::<StatementChecks>(&uncounted)),
                prepared(MutationAction::delete::<StatementChecks>(uncounted.id)),
            ],
            86_400_000,
            quota(50_000),
        )
        .await
        .unwrap();
    // After the account's starter records.
    const S: i64 = STARTER_RECORDS;
    assert_eq!((outcome.cursor, outcome.changed), (S + 4, true));

    let page = store.pull(user.id, S, 10).await.unwrap();
    let ids: Vec<(&str, String, i64, bool)> = page
        .changes
        .iter()
        .map(|c| (c.kind.as_str(), c.id.clone(), c.version, c.deleted))
        .collect();
    assert_eq!(
        ids,
        [
            ("invoice", counted.id.to_string(), S + 1, false),
            ("entry", entry.id.to_string(), S + 2, false),
            ("invoice", uncounted.id.to_string(), S + 4, true),
        ]
    );
    assert_eq!(
        page.changes[0].data,
        Some(ChangeData::StatementCheck(Stamped {
            content: StatementCheckContent {
                period_start: "2024-01-01".into(),
                period_end: "2024-12-31".into(),
                paid: 10_000_000,
                stops: Some(0),
                reference: "é".repeat(100),
                courier_id: user.id.to_string(),
                parcels: None,
                collections: None,
                deductions: None,
                status: CheckStatus::Unchecked,
                note: String::new(),
            },
            created_at: "1970-01-02T00:00:00Z".into(),
            updated_at: "1970-01-02T00:00:00Z".into(),
        }))
    );
    assert!(matches!(page.changes[1].data, Some(ChangeData::Entry(_))));
    assert_eq!(page.changes[2].data, None);
    // Paging across kinds: one per page, in version order.
    let first = store.pull(user.id, S, 1).await.unwrap();
    assert!(first.has_more);
    assert_eq!(first.changes[0].kind, "invoice");
    let second = store.pull(user.id, S + 1, 1).await.unwrap();
    assert_eq!(
        (second.changes[0].kind.as_str(), second.has_more),
        ("entry", true)
    );
}

/// A day of `user`'s, priced with their default courier's first card (as an old app's).
fn day_entry(user: Uuid, id: Uuid, stops: u32) -> Entry {
    Entry {
        id,
        date: domain::entry::parse_date("2024-06-01").unwrap(),
        stops,
        extra: Money(0),
        notes: String::new(),
        total: Money(i64::from(stops) * 198),
        courier_id: user,
        rate_card_id: Some(user),
        parcels: None,
        collections: None,
        failed: None,
        hours: None,
        separate_shift: false,
        bands: None,
    }
}

/// A statement check of `user`'s default courier with nothing but a paid amount.
fn statement_check(user: Uuid) -> StatementCheck {
    StatementCheck {
        id: Uuid::now_v7(),
        period_start: domain::entry::parse_date("2024-01-01").unwrap(),
        period_end: domain::entry::parse_date("2024-01-31").unwrap(),
        paid: Money(1_000),
        stops: None,
        reference: String::new(),
        courier_id: user,
        parcels: None,
        collections: None,
        deductions: None,
        status: CheckStatus::Unchecked,
        note: String::new(),
    }
}

fn mutation(id: &str, action: MutationAction) -> PreparedMutation {
    PreparedMutation {
        id: id.into(),
        action,
    }
}

fn codes(outcome: &server::store::PushOutcome) -> Vec<Option<&str>> {
    outcome.results.iter().map(|r| r.code.as_deref()).collect()
}

/// One push that writes a new record, edits it and sends its first mutation again: the record
/// ends in its last state at the edit's version, and the resend is a replay (PostgreSQL's
/// pipelined push writes each record once, in its last state).
async fn a_push_writes_one_record_twice_in_order(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let user = store
        .create_user(account("twice@example.com"))
        .await
        .unwrap();
    let id = Uuid::now_v7();
    let put = |stops| MutationAction::put::<Entries>(&day_entry(user.id, id, stops));
    let outcome = store
        .push(
            user.id,
            vec![
                mutation("first", put(3)),
                mutation("edit", put(4)),
                mutation("first", put(5)),
            ],
            2_000,
            quota(100),
        )
        .await
        .unwrap();
    assert_eq!(codes(&outcome), [None, None, None]);
    assert_eq!(outcome.cursor, STARTER_RECORDS + 2);
    let page = store.pull(user.id, STARTER_RECORDS, 10).await.unwrap();
    assert_eq!(page.changes.len(), 1);
    assert_eq!(page.changes[0].version, STARTER_RECORDS + 2);
    let Some(ChangeData::Entry(entry)) = &page.changes[0].data else {
        panic!("{:?}", page.changes[0]);
    };
    assert_eq!(entry.content.stops, 4);
}

/// Two accounts push the same new record ids at the same moment, in opposite orders: each id
/// goes to exactly one of them and the other is told `not-owner`, never an error; each account
/// holds just the records it was told it has, and a replay of either push answers the same. On
/// PostgreSQL this is where a pipelined push meets an id claimed since its read (and deadlocks).
async fn accounts_racing_for_the_same_new_ids_each_get_them_once(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let a = store.create_user(account("a@example.com")).await.unwrap();
    let b = store.create_user(account("b@example.com")).await.unwrap();
    let mut held = [0usize; 2];
    for round in 0..4 {
        let ids: Vec<Uuid> = (0..5).map(|_| Uuid::now_v7()).collect();
        let push_of = |user: Uuid, who: &str, ids: &[Uuid]| -> Vec<PreparedMutation> {
            ids.iter()
                .enumerate()
                .map(|(k, id)| {
                    mutation(
                        &format!("{who}{round}.{k}"),
                        MutationAction::put::<Entries>(&day_entry(user, *id, 3)),
                    )
                })
                .collect()
        };
        let reversed: Vec<Uuid> = ids.iter().rev().copied().collect();
        let pushes = [push_of(a.id, "a", &ids), push_of(b.id, "b", &reversed)];
        let racers = [a.id, b.id]
            .into_iter()
            .zip(pushes.clone())
            .map(|(user, push)| {
                let store = store.clone();
                tokio::spawn(async move { store.push(user, push, 2_000, quota(1_000)).await })
            });
        let outcomes: Vec<_> = futures_util::future::join_all(racers)
            .await
            .into_iter()
            .map(|outcome| {
                outcome
                    .unwrap()
                    .expect("a race is answered, never an error")
            })
            .collect();
        // Per id, in `ids` order: who got it.
        let applied = |outcome: &server::store::PushOutcome, reverse: bool| -> Vec<bool> {
            let mut got: Vec<bool> = codes(outcome)
                .iter()
                .map(|code| match code {
                    None => true,
                    Some("not-owner") => false,
                    other => panic!("unexpected answer {other:?}"),
                })
                .collect();
            if reverse {
                got.reverse();
            }
            got
        };
        let (got_a, got_b) = (applied(&outcomes[0], false), applied(&outcomes[1], true));
        for k in 0..ids.len() {
            assert!(
                got_a[k] != got_b[k],
                "round {round}, id {k}: {got_a:?} {got_b:?}"
            );
        }
        held[0] += got_a.iter().filter(|got| **got).count();
        held[1] += got_b.iter().filter(|got| **got).count();
        // Sent again, each push is answered as it was and changes nothing.
        for ((user, push), first) in [a.id, b.id].into_iter().zip(pushes).zip(&outcomes) {
            let again = store.push(user, push, 3_000, quota(1_000)).await.unwrap();
            assert_eq!(again.results, first.results);
            assert_eq!(again.cursor, first.cursor);
        }
    }
    for (user, held) in [a.id, b.id].into_iter().zip(held) {
        let page = store.pull(user, STARTER_RECORDS, 1_000).await.unwrap();
        assert_eq!(
            page.changes.len(),
            held,
            "the entries the account was told it has"
        );
        // Its records count matches: one more fits only with room for one more.
        let held = i64::try_from(held).unwrap() + STARTER_RECORDS;
        let next = vec![mutation(
            "after",
            MutationAction::put::<Entries>(&day_entry(user, Uuid::now_v7(), 1)),
        )];
        let full = store
            .push(user, next.clone(), 4_000, quota(held))
            .await
            .unwrap();
        assert_eq!(codes(&full), [Some("quota-exceeded")]);
        let fits = store
            .push(user, next, 4_000, quota(held + 1))
            .await
            .unwrap();
        assert_eq!(codes(&fits), [None]);
    }
}

/// Entries, invoices and tombstones of absent ids are rows: each takes one from the records
/// quota; edits and deletes of held records take none. A refusal is not recorded, so the same
/// mutation is looked at afresh when sent again.
async fn records_quota_counts_every_new_row(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let user = store
        .create_user(account("quota@example.com"))
        .await
        .unwrap();
    let (a, b, c, d) = (
        Uuid::now_v7(),
        Uuid::now_v7(),
        Uuid::now_v7(),
        Uuid::now_v7(),
    );
    let invoice = StatementCheck {
        id: b,
        ..statement_check(user.id)
    };
    // The account holds its starter records before any of these.
    const S: i64 = STARTER_RECORDS;
    let first = store
        .push(
            user.id,
            vec![
                mutation(
                    "m1",
                    MutationAction::put::<Entries>(&day_entry(user.id, a, 10)),
                ),
                mutation("m2", MutationAction::put::<StatementChecks>(&invoice)),
                mutation("m3", MutationAction::delete::<Entries>(c)),
            ],
            1_000,
            quota(S + 3),
        )
        .await
        .unwrap();
    assert_eq!(codes(&first), [None, None, None]);
    let full = store
        .push(
            user.id,
            vec![
                mutation(
                    "m4",
                    MutationAction::put::<Entries>(&day_entry(user.id, d, 1)),
                ),
                mutation(
                    "m5",
                    MutationAction::put::<Entries>(&day_entry(user.id, a, 11)),
                ),
                mutation(
                    "m6",
                    MutationAction::delete::<StatementChecks>(Uuid::now_v7()),
                ),
                mutation("m7", MutationAction::delete::<Entries>(a)),
            ],
            2_000,
            quota(S + 3),
        )
        .await
        .unwrap();
    assert_eq!(
        codes(&full),
        [Some("quota-exceeded"), None, Some("quota-exceeded"), None],
        "{full:?}"
    );
    assert!(
        full.results[0]
            .message
            .as_deref()
            .unwrap()
            .contains(&(S + 3).to_string())
    );
    // Only the edit and the delete took effect.
    assert_eq!(full.cursor, first.cursor + 2);
    let page = store.pull(user.id, S, 100).await.unwrap();
    assert_eq!(page.changes.len(), 3, "{page:?}");
    // With room (the operator raised the quota), the refused mutation applies when resent.
    let again = store
        .push(
            user.id,
            vec![mutation(
                "m4",
                MutationAction::put::<Entries>(&day_entry(user.id, d, 1)),
            )],
            3_000,
            quota(S + 4),
        )
        .await
        .unwrap();
    assert_eq!(codes(&again), [None]);
    let replay = store
        .push(
            user.id,
            vec![mutation(
                "m4",
                MutationAction::put::<Entries>(&day_entry(user.id, d, 1)),
            )],
            3_000,
            quota(S + 4),
        )
        .await
        .unwrap();
    assert_eq!((codes(&replay), replay.changed), (vec![None], false));
}

fn session_for(user_id: Uuid, hash: &str, last_seen_ms: i64) -> SessionRecord {
    SessionRecord {
        token_hash: hash.into(),
        user_id,
        created_at_ms: 1_000,
        last_seen_ms,
        user_agent: None,
        temporary_password: false,
    }
}

/// The open event streams' check reads sessions and change cursors in batches: none asked, keys
/// that match nothing, and more keys than one statement takes.
async fn sessions_and_cursors_are_read_in_batches(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    assert!(store.get_sessions(&[]).await.unwrap().is_empty());
    assert!(store.change_cursors(&[]).await.unwrap().is_empty());

    let sam = store
        .create_user(account("batch@example.com"))
        .await
        .unwrap();
    let kim = store.create_user(common::guest_user()).await.unwrap();
    let many = READ_BATCH + 7;
    let hash = |i: usize| format!("sam-{i:04}");
    let seen = |i: usize| 1_000 + i64::try_from(i).unwrap();
    for i in 0..many {
        store
            .create_session(session_for(sam.id, &hash(i), seen(i)))
            .await
            .unwrap();
    }
    store
        .create_session(session_for(kim.id, "kim", 5))
        .await
        .unwrap();
    let mut asked: Vec<String> = (0..many).map(hash).collect();
    asked.insert(3, "never-existed".into());
    asked.push("kim".into());
    let mut found = store.get_sessions(&asked).await.unwrap();
    found.sort_by(|a, b| a.token_hash.cmp(&b.token_hash));
    assert_eq!(found.len(), many + 1, "every existing one, each once");
    assert_eq!(found[0], session_for(kim.id, "kim", 5));
    assert_eq!(found[1], session_for(sam.id, &hash(0), seen(0)));
    assert_eq!(
        found[many],
        session_for(sam.id, &hash(many - 1), seen(many - 1)),
        "the second chunk is read too"
    );
    assert_eq!(
        store
            .get_sessions(&["nobody".into(), "kim".into()])
            .await
            .unwrap(),
        [session_for(kim.id, "kim", 5)]
    );

    let cursor = |id| {
        let store = store.clone();
        async move { store.change_cursor(id).await.unwrap().unwrap() }
    };
    let (sam_before, kim_before) = (cursor(sam.id).await, cursor(kim.id).await);
    // Unknown users first, so the real ones fall in the second chunk.
    let mut ids: Vec<Uuid> = (0..READ_BATCH + 3).map(|_| Uuid::now_v7()).collect();
    ids.extend([sam.id, kim.id]);
    let read = |ids: Vec<Uuid>| {
        let store = store.clone();
        async move {
            let mut cursors = store.change_cursors(&ids).await.unwrap();
            cursors.sort();
            cursors
        }
    };
    let mut expected = vec![(sam.id, sam_before), (kim.id, kim_before)];
    expected.sort();
    assert_eq!(read(ids.clone()).await, expected);
    store.set_role(sam.id, Role::Pro, 9_000).await.unwrap();
    let mut expected = vec![(sam.id, sam_before + 1), (kim.id, kim_before)];
    expected.sort();
    assert_eq!(
        read(ids).await,
        expected,
        "a change moves that user's cursor only"
    );
}

/// Only guests with no identity and no activity since the cutoff go, with their records and
/// sessions, in batches of at most `limit`.
async fn inactive_guests_are_deleted_with_their_data(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let old = |now_ms| NewUser {
        now_ms,
        ..common::guest_user()
    };
    let abandoned = store.create_user(old(1_000)).await.unwrap();
    let abandoned_too = store.create_user(old(1_000)).await.unwrap();
    let in_use = store.create_user(old(1_000)).await.unwrap();
    let fresh = store.create_user(old(60_000)).await.unwrap();
    let account = store
        .create_user(account("kept@example.com"))
        .await
        .unwrap();
    let linked = store.create_user(old(1_000)).await.unwrap();
    store
        .link_password(linked.id, "linked@example.com", "$argon2id$fake", 1_000)
        .await
        .unwrap();
    store
        .create_session(session_for(abandoned.id, "stale", 2_000))
        .await
        .unwrap();
    store
        .create_session(session_for(in_use.id, "live", 50_000))
        .await
        .unwrap();
    let entry = Uuid::now_v7();
    store
        .push(
            abandoned.id,
            vec![mutation(
                "g1",
                MutationAction::put::<Entries>(&day_entry(abandoned.id, entry, 5)),
            )],
            2_000,
            quota(100),
        )
        .await
        .unwrap();

    let first = store.delete_inactive_guests(40_000, 1).await.unwrap();
    let second = store.delete_inactive_guests(40_000, 5).await.unwrap();
    let mut gone: Vec<Uuid> = first.iter().chain(&second).copied().collect();
    gone.sort();
    let mut expected = vec![abandoned.id, abandoned_too.id];
    expected.sort();
    assert_eq!((first.len(), gone), (1, expected));
    assert!(
        store
            .delete_inactive_guests(40_000, 5)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(store.get_user(abandoned.id).await.unwrap().is_none());
    assert!(store.get_session("stale").await.unwrap().is_none());
    for kept in [in_use.id, fresh.id, account.id, linked.id] {
        assert!(store.get_user(kept).await.unwrap().is_some());
    }
    // The deleted guest's entry id is free again: its row went with it.
    let reuse = store
        .push(
            in_use.id,
            vec![mutation(
                "g1",
                MutationAction::put::<Entries>(&day_entry(in_use.id, entry, 6)),
            )],
            60_000,
            quota(100),
        )
        .await
        .unwrap();
    assert_eq!(codes(&reuse), [None]);
}

/// Replay records older than the cutoff go; a very late replay of a pruned mutation is then
/// a new write under the one merge rule: a create updates the one record it made (no second
/// record), and a put of a since-deleted record stays deleted (no resurrection).
async fn pruned_replays_cannot_duplicate_or_resurrect(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let user = store
        .create_user(account("late@example.com"))
        .await
        .unwrap();
    let (kept, deleted) = (Uuid::now_v7(), Uuid::now_v7());
    let create_kept = mutation(
        "create-kept",
        MutationAction::put::<Entries>(&day_entry(user.id, kept, 10)),
    );
    let create_deleted = mutation(
        "create-deleted",
        MutationAction::put::<Entries>(&day_entry(user.id, deleted, 20)),
    );
    store
        .push(
            user.id,
            vec![create_kept.clone(), create_deleted.clone()],
            1_000,
            quota(100),
        )
        .await
        .unwrap();
    store
        .push(
            user.id,
            vec![mutation(
                "delete",
                MutationAction::delete::<Entries>(deleted),
            )],
            90_000,
            quota(100),
        )
        .await
        .unwrap();
    assert_eq!(store.prune_applied_mutations(50_000, 1).await.unwrap(), 1);
    assert_eq!(store.prune_applied_mutations(50_000, 10).await.unwrap(), 1);
    assert_eq!(store.prune_applied_mutations(50_000, 10).await.unwrap(), 0);

    let late = store
        .push(
            user.id,
            vec![create_kept, create_deleted],
            200_000,
            quota(100),
        )
        .await
        .unwrap();
    assert_eq!(codes(&late), [None, None]);
    // After the account's starter records.
    let page = store.pull(user.id, STARTER_RECORDS, 100).await.unwrap();
    let rows: Vec<(String, bool)> = page
        .changes
        .iter()
        .map(|c| (c.id.clone(), c.deleted))
        .collect();
    assert_eq!(rows.len(), 2, "no second record: {rows:?}");
    assert!(rows.contains(&(kept.to_string(), false)));
    assert!(
        rows.contains(&(deleted.to_string(), true)),
        "no resurrection: {rows:?}"
    );
    // The unpruned delete is still recognised as a replay.
    let replay = store
        .push(
            user.id,
            vec![mutation(
                "delete",
                MutationAction::delete::<Entries>(deleted),
            )],
            200_000,
            quota(100),
        )
        .await
        .unwrap();
    assert!(!replay.changed);
}

/// A new account pulls its default courier and first card; couriers, cards, deductions and
/// days with every field round-trip exactly; an old app's pay tiers rewrite the first card
/// (a new version) but never bring a deleted one back.
async fn couriers_cards_and_deductions_round_trip(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let user = store
        .create_user(account("couriers@example.com"))
        .await
        .unwrap();
    let first = store.pull(user.id, 0, 10).await.unwrap();
    let starters: Vec<(&str, String, i64)> = first
        .changes
        .iter()
        .map(|c| (c.kind.as_str(), c.id.clone(), c.version))
        .collect();
    let me = user.id.to_string();
    assert_eq!(
        starters,
        [
            ("courier", me.clone(), 1),
            ("rateCard", me.clone(), 2),
            ("profile", me.clone(), 0),
            ("settings", me.clone(), 0)
        ]
        .into_iter()
        .filter(|(_, _, version)| *version > 0)
        .collect::<Vec<_>>()
    );
    let at = "1970-01-01T00:00:01Z".to_owned();
    assert_eq!(
        first.changes[0].data,
        Some(ChangeData::Courier(Stamped {
            content: CourierContent {
                name: "My courier".into(),
                colour: "#2f6fde".into(),
                period_kind: PeriodKind::Weekly,
                period_anchor: "2000-01-02".into(),
                arrears_weeks: 0,
            },
            created_at: at.clone(),
            updated_at: at.clone(),
        }))
    );
    let default_card = Stamped {
        content: RateCardContent {
            courier_id: me.clone(),
            valid_from: "2000-01-01".into(),
            label: String::new(),
            per_stop: Some(PayTiers::default().tiers().to_vec()),
            per_parcel: None,
            parcel_cap_per_stop: None,
            per_collection: None,
            per_failed: None,
            day_rate: None,
            hourly: None,
            peaks: Vec::new(),
            band_rates: None,
        },
        created_at: at.clone(),
        updated_at: at,
    };
    assert_eq!(
        first.changes[1].data,
        Some(ChangeData::RateCard(default_card.clone()))
    );

    let day = |raw: &str| domain::entry::parse_date(raw).unwrap();
    let evri = Courier {
        id: Uuid::now_v7(),
        name: "Evri".into(),
        colour: "#00a0e0".into(),
        period_kind: PeriodKind::FourFourFive,
        period_anchor: day("2025-01-05"),
        arrears_weeks: 4,
    };
    let band_rates = domain::size_bands::BandRates {
        packet: Some(35),
        small: Some(45),
        large: Some(120),
        ..Default::default()
    };
    let bands = domain::size_bands::BandCounts {
        packet: 100,
        small: 60,
        large: 20,
        ..Default::default()
    };
    let card = RateCard {
        id: Uuid::now_v7(),
        courier_id: evri.id,
        valid_from: day("2025-09-01"),
        label: "Autumn".into(),
        per_stop: None,
        per_parcel: Some(45),
        parcel_cap_per_stop: Some(3),
        per_collection: Some(30),
        per_failed: Some(0),
        day_rate: Some(0),
        hourly: Some(1_250),
        peaks: vec![Peak {
            from: "2025-12-01".into(),
            to: "2025-12-24".into(),
            extra_per_stop: None,
            multiplier_percent: Some(125),
        }],
        band_rates: Some(band_rates),
    };
    let van = Deduction {
        id: Uuid::now_v7(),
        courier_id: evri.id,
        label: "Van hire".into(),
        amount: 19_500,
        repeat: Repeat::Weekly,
        from: day("2025-09-01"),
        to: Some(day("2025-12-31")),
        purpose: Some(domain::expense::ExpenseCategory::VehicleHire),
        vehicle_id: None,
    };
    let time = |raw| domain::fields::parse_clock(raw).unwrap();
    let entry = Entry {
        courier_id: evri.id,
        rate_card_id: Some(card.id),
        parcels: Some(180),
        collections: Some(4),
        failed: Some(2),
        hours: Some((time("21:30"), time("05:15"))),
        separate_shift: true,
        bands: Some(bands),
        ..day_entry(user.id, Uuid::now_v7(), 0)
    };
    let outcome = store
        .push(
            user.id,
            vec![
                mutation("c1", MutationAction::put::<Couriers>(&evri)),
                mutation("c2", MutationAction::put::<RateCards>(&card)),
                mutation("c3", MutationAction::put::<Deductions>(&van)),
                mutation("c4", MutationAction::put::<Entries>(&entry)),
            ],
            5_000,
            quota(100),
        )
        .await
        .unwrap();
    assert_eq!(codes(&outcome), [None, None, None, None]);
    let page = store.pull(user.id, 2, 10).await.unwrap();
    let at = "1970-01-01T00:00:05Z".to_owned();
    let data: Vec<Option<ChangeData>> = page.changes.into_iter().map(|c| c.data).collect();
    assert_eq!(
        data,
        [
            Some(ChangeData::Courier(Stamped {
                content: CourierContent {
                    name: "Evri".into(),
                    colour: "#00a0e0".into(),
                    period_kind: PeriodKind::FourFourFive,
                    period_anchor: "2025-01-05".into(),
                    arrears_weeks: 4,
                },
                created_at: at.clone(),
                updated_at: at.clone(),
            })),
            Some(ChangeData::RateCard(Stamped {
                content: RateCardContent {
                    courier_id: evri.id.to_string(),
                    valid_from: "2025-09-01".into(),
                    label: "Autumn".into(),
                    per_stop: None,
                    per_parcel: Some(45),
                    parcel_cap_per_stop: Some(3),
                    per_collection: Some(30),
                    per_failed: Some(0),
                    day_rate: Some(0),
                    hourly: Some(1_250),
                    peaks: card.peaks.clone(),
                    band_rates: Some(band_rates),
                },
                created_at: at.clone(),
                updated_at: at.clone(),
            })),
            Some(ChangeData::Deduction(Stamped {
                content: DeductionContent {
                    courier_id: evri.id.to_string(),
                    label: "Van hire".into(),
                    amount: 19_500,
                    repeat: Repeat::Weekly,
                    from: "2025-09-01".into(),
                    to: Some("2025-12-31".into()),
                    purpose: Some(domain::expense::ExpenseCategory::VehicleHire),
                    vehicle_id: None,
                },
                created_at: at.clone(),
                updated_at: at.clone(),
            })),
            Some(ChangeData::Entry(Stamped {
                content: EntryContent {
                    date: "2024-06-01".into(),
                    stops: 0,
                    extra: 0,
                    notes: String::new(),
                    total: 0,
                    courier_id: evri.id.to_string(),
                    rate_card_id: Some(card.id.to_string()),
                    parcels: Some(180),
                    collections: Some(4),
                    failed: Some(2),
                    start_time: Some("21:30".into()),
                    finish_time: Some("05:15".into()),
                    separate_shift: true,
                    bands: Some(bands),
                },
                created_at: at.clone(),
                updated_at: at,
            })),
        ]
    );

    // An old app's tiers: the profile keeps them and the first card gets them, each at its
    // own version (so no pull page can split one version).
    let tiers = PayTiers::new(vec![
        PayTier {
            stop_count: Some(100),
            rate: Money(180),
        },
        PayTier {
            stop_count: None,
            rate: Money(150),
        },
    ])
    .unwrap();
    let update = ProfileUpdate {
        payment_tiers: Some(tiers.clone()),
        ..ProfileUpdate::default()
    };
    let updated = store
        .push(
            user.id,
            vec![mutation(
                "p1",
                MutationAction::UpdateProfile(update.clone()),
            )],
            9_000,
            quota(100),
        )
        .await
        .unwrap();
    assert_eq!((codes(&updated), updated.cursor), (vec![None], 8));
    let page = store.pull(user.id, 6, 10).await.unwrap();
    let versions: Vec<(&str, i64)> = page
        .changes
        .iter()
        .map(|c| (c.kind.as_str(), c.version))
        .collect();
    assert_eq!(versions, [("profile", 7), ("rateCard", 8)]);
    assert_eq!(
        page.changes[1].data,
        Some(ChangeData::RateCard(Stamped {
            content: RateCardContent {
                per_stop: Some(tiers.tiers().to_vec()),
                ..default_card.content
            },
            updated_at: "1970-01-01T00:00:09Z".into(),
            ..default_card
        }))
    );
    let Some(ChangeData::Profile(profile)) = &page.changes[0].data else {
        panic!("{page:?}");
    };
    assert_eq!(profile.payment_config.tiers, tiers.tiers());

    // Deleted on another device: tiers from an old app do not bring it back, and a day for
    // the deleted courier (logged offline) is still kept.
    let gone = store
        .push(
            user.id,
            vec![
                mutation("d1", MutationAction::delete::<RateCards>(user.id)),
                mutation("d2", MutationAction::delete::<Couriers>(user.id)),
                mutation("p2", MutationAction::UpdateProfile(update)),
                mutation(
                    "e2",
                    MutationAction::put::<Entries>(&day_entry(user.id, Uuid::now_v7(), 3)),
                ),
            ],
            10_000,
            quota(100),
        )
        .await
        .unwrap();
    assert_eq!(codes(&gone), [None, None, None, None]);
    let page = store.pull(user.id, 8, 10).await.unwrap();
    let card_rows: Vec<(bool, i64)> = page
        .changes
        .iter()
        .filter(|c| c.kind == "rateCard")
        .map(|c| (c.deleted, c.version))
        .collect();
    assert_eq!(card_rows, [(true, 9)]);
}

/// Each way an account is made (password or guest, OpenID, phone) writes the default courier
/// and its first card with the user row, at versions 1 and 2.
async fn every_new_account_starts_with_its_courier_and_card(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let by_password = store
        .create_user(account("password@example.com"))
        .await
        .unwrap();
    let identity = ExternalIdentity {
        issuer: "https://id.example.com".into(),
        subject: "driver-1".into(),
    };
    let by_identity = store
        .create_user_with_identity(account("oidc@example.com"), identity)
        .await
        .unwrap();
    let verification_id = Uuid::now_v7();
    let limits = SendLimits {
        min_interval_ms: 0,
        per_number_per_hour: 10,
        per_ip_per_minute: 10,
        global_per_minute: 10,
    };
    let start = PhoneCodeStart {
        verification_id,
        phone: "+447700900123".into(),
        ip: "203.0.113.9".into(),
        code_salt: "salt".into(),
        code_hash: "hash".into(),
        attempts: 0,
        expires_at_ms: 600_000,
        now_ms: 1_000,
    };
    assert_eq!(store.start_phone_code(start, limits).await.unwrap(), Ok(()));
    let signed_in = store
        .complete_phone_sign_in(PhoneSignInRequest {
            verification_id,
            link_to: None,
            new_user: NewUser {
                email: None,
                password_hash: None,
                ..account("")
            },
            now_ms: 2_000,
        })
        .await
        .unwrap();
    let PhoneSignIn::SignedIn {
        user: by_phone,
        is_new_user: true,
        ..
    } = signed_in
    else {
        panic!("{signed_in:?}");
    };
    let by_guest = store.create_user(common::guest_user()).await.unwrap();
    for user in [by_password, by_identity, by_phone, by_guest] {
        let page = store.pull(user.id, 0, 10).await.unwrap();
        let records: Vec<(&str, String, i64)> = page
            .changes
            .iter()
            .filter(|c| c.kind != "profile" && c.kind != "settings")
            .map(|c| (c.kind.as_str(), c.id.clone(), c.version))
            .collect();
        let me = user.id.to_string();
        assert_eq!(records, [("courier", me.clone(), 1), ("rateCard", me, 2)]);
        assert!(
            matches!(page.changes[1].data, Some(ChangeData::RateCard(ref card)) if card.per_stop.as_deref() == Some(PayTiers::default().tiers()))
        );
        assert_eq!(
            store.change_cursor(user.id).await.unwrap(),
            Some(STARTER_RECORDS)
        );
    }
}

/// Vehicles, expenses and mileage (issue 13) are stored and pulled exactly as validated, each
/// pointing at what it names; a missing vehicle is `missing-reference`.
async fn vehicles_expenses_and_mileage_round_trip(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let user = store
        .create_user(account("mileage@example.com"))
        .await
        .unwrap();
    let day = |raw: &str| domain::entry::parse_date(raw).unwrap();
    let van = Vehicle {
        id: Uuid::now_v7(),
        name: "Transit".into(),
        vehicle_type: VehicleType::CarVan,
        method: VehicleMethod::FlatRate,
        commute_miles: 6,
    };
    let receipt = Uuid::now_v7();
    let fuel = Expense {
        id: Uuid::now_v7(),
        date: day("2025-04-06"),
        amount: 4_599,
        category: ExpenseCategory::Fuel,
        note: "Shell".into(),
        courier_id: Some(user.id),
        vehicle_id: Some(van.id),
        repeat: Repeat::Monthly,
        repeat_until: Some(day("2026-04-05")),
        receipts: vec![receipt],
    };
    let phone = Expense {
        id: Uuid::now_v7(),
        category: ExpenseCategory::Phone,
        courier_id: None,
        vehicle_id: None,
        repeat: Repeat::Once,
        repeat_until: None,
        receipts: Vec::new(),
        ..fuel.clone()
    };
    let read = Mileage {
        id: Uuid::now_v7(),
        date: day("2026-04-05"),
        vehicle_id: van.id,
        courier_id: Some(user.id),
        odometer: Some((42_000, 42_130)),
        business_miles: 112,
        commute_miles: 12,
        note: "Depot".into(),
    };
    let typed = Mileage {
        id: Uuid::now_v7(),
        courier_id: None,
        odometer: None,
        note: String::new(),
        ..read.clone()
    };
    let stray = Mileage {
        id: Uuid::now_v7(),
        vehicle_id: Uuid::now_v7(),
        ..typed.clone()
    };
    let outcome = store
        .push(
            user.id,
            vec![
                mutation("v1", MutationAction::put::<Vehicles>(&van)),
                mutation("x1", MutationAction::put::<Expenses>(&fuel)),
                mutation("x2", MutationAction::put::<Expenses>(&phone)),
                mutation("m1", MutationAction::put::<MileageLog>(&read)),
                mutation("m2", MutationAction::put::<MileageLog>(&typed)),
                mutation("m3", MutationAction::put::<MileageLog>(&stray)),
            ],
            5_000,
            quota(100),
        )
        .await
        .unwrap();
    assert_eq!(
        codes(&outcome),
        [None, None, None, None, None, Some("missing-reference")]
    );
    let at = "1970-01-01T00:00:05Z".to_owned();
    let me = Some(user.id.to_string());
    let fuel_data = Stamped {
        content: ExpenseContent {
            date: "2025-04-06".into(),
            amount: 4_599,
            category: ExpenseCategory::Fuel,
            note: "Shell".into(),
            courier_id: me.clone(),
            vehicle_id: Some(van.id.to_string()),
            repeat: Repeat::Monthly,
            repeat_until: Some("2026-04-05".into()),
            receipts: vec![receipt.to_string()],
        },
        created_at: at.clone(),
        updated_at: at.clone(),
    };
    let read_data = Stamped {
        content: MileageContent {
            date: "2026-04-05".into(),
            vehicle_id: van.id.to_string(),
            courier_id: me,
            odometer_start: Some(42_000),
            odometer_end: Some(42_130),
            business_miles: 112,
            commute_miles: 12,
            note: "Depot".into(),
        },
        created_at: at.clone(),
        updated_at: at.clone(),
    };
    let page = store.pull(user.id, STARTER_RECORDS, 10).await.unwrap();
    let data: Vec<Option<ChangeData>> = page.changes.into_iter().map(|c| c.data).collect();
    assert_eq!(
        data,
        [
            Some(ChangeData::Vehicle(Stamped {
                content: VehicleContent {
                    name: "Transit".into(),
                    vehicle_type: VehicleType::CarVan,
                    method: VehicleMethod::FlatRate,
                    commute_miles: 6,
                },
                created_at: at.clone(),
                updated_at: at.clone(),
            })),
            Some(ChangeData::Expense(fuel_data.clone())),
            Some(ChangeData::Expense(Stamped {
                content: ExpenseContent {
                    category: ExpenseCategory::Phone,
                    courier_id: None,
                    vehicle_id: None,
                    repeat: Repeat::Once,
                    repeat_until: None,
                    receipts: Vec::new(),
                    ..fuel_data.content
                },
                ..fuel_data
            })),
            Some(ChangeData::Mileage(read_data.clone())),
            Some(ChangeData::Mileage(Stamped {
                content: MileageContent {
                    courier_id: None,
                    odometer_start: None,
                    odometer_end: None,
                    note: String::new(),
                    ..read_data.content
                },
                ..read_data
            })),
        ]
    );

    // The van is deleted on one device: a mileage record logged offline for it is still kept.
    let later = store
        .push(
            user.id,
            vec![
                mutation("v2", MutationAction::delete::<Vehicles>(van.id)),
                mutation(
                    "m4",
                    MutationAction::put::<MileageLog>(&Mileage {
                        id: Uuid::now_v7(),
                        ..typed
                    }),
                ),
                mutation("x3", MutationAction::delete::<Expenses>(phone.id)),
            ],
            6_000,
            quota(100),
        )
        .await
        .unwrap();
    assert_eq!(codes(&later), [None, None, None]);
    let page = store.pull(user.id, STARTER_RECORDS + 5, 10).await.unwrap();
    let kinds: Vec<(&str, bool)> = page
        .changes
        .iter()
        .map(|c| (c.kind.as_str(), c.deleted))
        .collect();
    assert_eq!(
        kinds,
        [("vehicle", true), ("mileage", false), ("expense", true)]
    );
}

/// Fuel fills (issue 32) are stored and pulled exactly as validated, pointing at their
/// vehicle; a fill for a vehicle that does not exist is `missing-reference`.
async fn fuel_fills_round_trip(backend: Backend) {
    use domain::{
        fuel_fill::{FuelFill, FuelUnit},
        sync::FuelFillContent,
    };
    use server::fuel_fills::FuelFills;
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let user = store
        .create_user(account("fuel@example.com"))
        .await
        .unwrap();
    let van = Vehicle {
        id: Uuid::now_v7(),
        name: "Transit".into(),
        vehicle_type: VehicleType::CarVan,
        method: VehicleMethod::FlatRate,
        commute_miles: 0,
    };
    let diesel = FuelFill {
        id: Uuid::now_v7(),
        date: domain::entry::parse_date("2026-04-05").unwrap(),
        vehicle_id: van.id,
        unit: FuelUnit::Litres,
        quantity: 45_670,
        cost: 6_845,
        odometer: Some(42_130),
        full: true,
        note: "Shell".into(),
    };
    let charge = FuelFill {
        id: Uuid::now_v7(),
        unit: FuelUnit::KWh,
        quantity: 41_500,
        cost: 0,
        odometer: None,
        full: false,
        note: String::new(),
        ..diesel.clone()
    };
    let stray = FuelFill {
        id: Uuid::now_v7(),
        vehicle_id: Uuid::now_v7(),
        ..diesel.clone()
    };
    let outcome = store
        .push(
            user.id,
            vec![
                mutation("v1", MutationAction::put::<Vehicles>(&van)),
                mutation("f1", MutationAction::put::<FuelFills>(&diesel)),
                mutation("f2", MutationAction::put::<FuelFills>(&charge)),
                mutation("f3", MutationAction::put::<FuelFills>(&stray)),
            ],
            5_000,
            quota(100),
        )
        .await
        .unwrap();
    assert_eq!(
        codes(&outcome),
        [None, None, None, Some("missing-reference")]
    );
    let at = "1970-01-01T00:00:05Z".to_owned();
    let diesel_data = Stamped {
        content: FuelFillContent {
            date: "2026-04-05".into(),
            vehicle_id: van.id.to_string(),
            unit: FuelUnit::Litres,
            quantity: 45_670,
            cost: 6_845,
            odometer: Some(42_130),
            full: true,
            note: "Shell".into(),
        },
        created_at: at.clone(),
        updated_at: at.clone(),
    };
    let page = store.pull(user.id, STARTER_RECORDS + 1, 10).await.unwrap();
    let data: Vec<Option<ChangeData>> = page.changes.into_iter().map(|c| c.data).collect();
    assert_eq!(
        data,
        [
            Some(ChangeData::FuelFill(diesel_data.clone())),
            Some(ChangeData::FuelFill(Stamped {
                content: FuelFillContent {
                    unit: FuelUnit::KWh,
                    quantity: 41_500,
                    cost: 0,
                    odometer: None,
                    full: false,
                    note: String::new(),
                    ..diesel_data.content
                },
                ..diesel_data
            })),
        ]
    );
    let later = store
        .push(
            user.id,
            vec![mutation(
                "f4",
                MutationAction::delete::<FuelFills>(charge.id),
            )],
            6_000,
            quota(100),
        )
        .await
        .unwrap();
    assert_eq!(codes(&later), [None]);
    let page = store.pull(user.id, STARTER_RECORDS + 3, 10).await.unwrap();
    assert_eq!(
        page.changes
            .iter()
            .map(|c| (c.kind.as_str(), c.id.clone(), c.deleted))
            .collect::<Vec<_>>(),
        [("fuelFill", charge.id.to_string(), true)]
    );
}

/// The settings' tax region: UK until set, then kept by a put that leaves it out (an app
/// from before it) and changed only by a put that names it.
async fn the_tax_region_is_kept_unless_a_put_names_it(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let user = store
        .create_user(account("region@example.com"))
        .await
        .unwrap();
    let mut cursor = STARTER_RECORDS;
    let mut put = async |update: SettingsUpdate, now_ms: i64| {
        let outcome = store
            .push(
                user.id,
                vec![mutation(
                    &format!("s{now_ms}"),
                    MutationAction::PutSettings(update),
                )],
                now_ms,
                quota(100),
            )
            .await
            .unwrap();
        assert_eq!(codes(&outcome), [None]);
        let page = store.pull(user.id, cursor, 10).await.unwrap();
        cursor = outcome.cursor;
        match &page.changes[..] {
            [change] if change.kind == "settings" => change.data.clone(),
            other => panic!("{other:?}"),
        }
    };
    let settings = |theme, tax_region, seconds: u32| {
        Some(ChangeData::Settings(SettingsData {
            theme,
            tax_region,
            quarters: if seconds >= 5 {
                MtdQuarters::Calendar
            } else {
                MtdQuarters::Standard
            },
            query_reminder_days: if seconds >= 7 { 30 } else { 14 },
            updated_at: format!("1970-01-01T00:00:0{seconds}Z"),
        }))
    };
    let old_app = SettingsUpdate {
        theme: Some(Theme::Light),
        tax_region: None,
        quarters: None,
        query_reminder_days: None,
    };
    assert_eq!(
        put(old_app, 1_000).await,
        settings(Theme::Light, TaxRegion::Uk, 1)
    );
    let scotland = SettingsUpdate {
        theme: Some(Theme::Dark),
        tax_region: Some(TaxRegion::Scotland),
        quarters: None,
        query_reminder_days: None,
    };
    assert_eq!(
        put(scotland, 2_000).await,
        settings(Theme::Dark, TaxRegion::Scotland, 2)
    );
    assert_eq!(
        put(old_app, 3_000).await,
        settings(Theme::Light, TaxRegion::Scotland, 3)
    );
    let region_only = SettingsUpdate {
        theme: None,
        tax_region: Some(TaxRegion::Uk),
        quarters: None,
        query_reminder_days: None,
    };
    assert_eq!(
        put(region_only, 4_000).await,
        settings(Theme::Light, TaxRegion::Uk, 4)
    );
    // The MTD quarters election (issue 29): kept by every put that leaves it out.
    let calendar = SettingsUpdate {
        theme: None,
        tax_region: None,
        quarters: Some(MtdQuarters::Calendar),
        query_reminder_days: None,
    };
    assert_eq!(
        put(calendar, 5_000).await,
        settings(Theme::Light, TaxRegion::Uk, 5)
    );
    assert_eq!(
        put(old_app, 6_000).await,
        settings(Theme::Light, TaxRegion::Uk, 6)
    );
    // The days before an unanswered query's reminder (issue 28): 14 until set, then kept by
    // every put that leaves them out.
    let thirty_days = SettingsUpdate {
        theme: None,
        tax_region: None,
        quarters: None,
        query_reminder_days: Some(30),
    };
    assert_eq!(
        put(thirty_days, 7_000).await,
        settings(Theme::Light, TaxRegion::Uk, 7)
    );
    assert_eq!(
        put(old_app, 8_000).await,
        settings(Theme::Light, TaxRegion::Uk, 8)
    );
}

/// Migration 0013: a user who chose a theme before tax regions existed pulls the UK bands
/// with their theme unchanged.
async fn users_from_before_tax_regions_get_the_uk_bands(backend: Backend) {
    const USER: &str = "0190a6e2-7c1d-7000-8000-00000000f013";
    let rows = format!(
        "INSERT INTO users (id, email, password_hash, display_name, is_anonymous, created_at,
                            last_login, updated_at, change_seq, record_count, theme,
                            settings_version, settings_updated_at)
         VALUES ('{USER}', 'old@example.com', 'hash', 'Sam', FALSE, 1000, 1000, 1000, 3, 2,
                 'light', 3, 2000);"
    );
    let Some(old) = common::migrations::store_before(backend, 13, &rows).await else {
        return;
    };
    let page = old
        .store
        .pull(Uuid::parse_str(USER).unwrap(), 2, 10)
        .await
        .unwrap();
    assert_eq!(
        page.changes
            .iter()
            .find(|c| c.kind == "settings")
            .and_then(|c| c.data.clone()),
        Some(ChangeData::Settings(SettingsData {
            theme: Theme::Light,
            tax_region: TaxRegion::Uk,
            quarters: MtdQuarters::Standard,
            query_reminder_days: 14,
            updated_at: "1970-01-01T00:00:02Z".into(),
        }))
    );
}

/// Receipt photos' ledger: an id belongs to one account, a resend finds it, the quota check
/// and the insert are one step (of concurrent inserts that fit alone, only as many as fit
/// together succeed), and the orphan sweep keeps what a live expense lists.
async fn receipts_are_owned_counted_and_swept(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let alice = store
        .create_user(account("receipts@example.com"))
        .await
        .unwrap();
    let bob = store
        .create_user(account("bob-receipts@example.com"))
        .await
        .unwrap();
    let (listed, unlisted, fresh) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
    assert_eq!(
        store.find_receipt(alice.id, listed).await.unwrap(),
        ReceiptHolder::Nobody
    );
    let stored = ReceiptRecord {
        id: listed,
        bytes: 400,
        created_at_ms: 1_000,
        version: Some("v1".into()),
    };
    assert_eq!(
        store
            .insert_receipt(alice.id, listed, 400, "v1", 1_000, 1_000)
            .await
            .unwrap(),
        ReceiptInsert::Stored(stored.clone())
    );
    assert_eq!(
        store.find_receipt(alice.id, listed).await.unwrap(),
        ReceiptHolder::Me(stored.clone())
    );
    assert_eq!(
        store.find_receipt(bob.id, listed).await.unwrap(),
        ReceiptHolder::Other
    );
    // A resend (or a concurrent upload that lost) stores nothing and is not refused by a
    // quota it already counts in; the answer names the version that won.
    assert_eq!(
        store
            .insert_receipt(alice.id, listed, 999, "v2", 2_000, 400)
            .await
            .unwrap(),
        ReceiptInsert::Existing(stored.clone())
    );
    assert_eq!(
        store
            .insert_receipt(bob.id, listed, 10, "b", 2_000, 1_000)
            .await
            .unwrap(),
        ReceiptInsert::OtherHolder
    );
    assert_eq!(
        store
            .insert_receipt(alice.id, unlisted, 601, "u", 1_000, 1_000)
            .await
            .unwrap(),
        ReceiptInsert::OverQuota
    );
    assert_eq!(store.receipt_bytes(alice.id).await.unwrap(), 400);

    // Eight inserts of 200 bytes at once, with 600 free: exactly three fit.
    let racers: Vec<Uuid> = (0..8).map(|_| Uuid::now_v7()).collect();
    let outcomes = futures_util::future::join_all(
        racers
            .iter()
            .map(|id| store.insert_receipt(alice.id, *id, 200, "r", 1_500, 1_000)),
    )
    .await;
    let stored_now: Vec<Uuid> = racers
        .iter()
        .zip(&outcomes)
        .filter(|(_, outcome)| matches!(outcome, Ok(ReceiptInsert::Stored(_))))
        .map(|(id, _)| *id)
        .collect();
    let refused = outcomes
        .iter()
        .filter(|outcome| matches!(outcome, Ok(ReceiptInsert::OverQuota)))
        .count();
    assert_eq!((stored_now.len(), refused), (3, 5), "{outcomes:?}");
    assert_eq!(store.receipt_bytes(alice.id).await.unwrap(), 1_000);
    for id in &stored_now {
        let removed = store.delete_receipt(alice.id, *id).await.unwrap();
        assert_eq!(
            removed.map(|r| (r.id, r.bytes, r.version)),
            Some((*id, 200, Some("r".into())))
        );
        assert_eq!(store.delete_receipt(alice.id, *id).await.unwrap(), None);
    }
    assert_eq!(store.delete_receipt(bob.id, listed).await.unwrap(), None);
    assert_eq!(store.receipt_bytes(alice.id).await.unwrap(), 400);

    // The sweep: an expense lists `listed`; `unlisted` is old and listed by nothing but a
    // deleted expense; `fresh` is within the grace period.
    for (id, now_ms) in [(unlisted, 1_000), (fresh, 9_000)] {
        let inserted = store
            .insert_receipt(alice.id, id, 100, "s", now_ms, 1_000)
            .await
            .unwrap();
        assert!(matches!(inserted, ReceiptInsert::Stored(_)), "{inserted:?}");
    }
    let expense = |receipts: Vec<Uuid>| Expense {
        id: Uuid::now_v7(),
        date: domain::entry::parse_date("2025-04-06").unwrap(),
        amount: 4_599,
        category: ExpenseCategory::Fuel,
        note: String::new(),
        courier_id: None,
        vehicle_id: None,
        repeat: Repeat::Once,
        repeat_until: None,
        receipts,
    };
    let (keeps, dropped) = (
        expense(vec![Uuid::now_v7(), listed]),
        expense(vec![unlisted]),
    );
    let outcome = store
        .push(
            alice.id,
            vec![
                mutation("r1", MutationAction::put::<Expenses>(&keeps)),
                mutation("r2", MutationAction::put::<Expenses>(&dropped)),
                mutation("r3", MutationAction::delete::<Expenses>(dropped.id)),
            ],
            2_000,
            quota(100),
        )
        .await
        .unwrap();
    assert_eq!(codes(&outcome), [None, None, None]);
    // Bob's receipt with the same age is his: alice's expense listing nothing of his.
    let bobs = Uuid::now_v7();
    store
        .insert_receipt(bob.id, bobs, 100, "bob", 1_000, 1_000)
        .await
        .unwrap();
    let first = store.delete_orphan_receipts(5_000, 1).await.unwrap();
    let second = store.delete_orphan_receipts(5_000, 10).await.unwrap();
    let mut swept: Vec<(Uuid, Uuid)> = first
        .iter()
        .chain(&second)
        .map(|(user, record)| (*user, record.id))
        .collect();
    swept.sort();
    let mut expected = vec![(alice.id, unlisted), (bob.id, bobs)];
    expected.sort();
    assert_eq!((first.len(), swept), (1, expected));
    assert!(
        store
            .delete_orphan_receipts(5_000, 10)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(matches!(
        store.find_receipt(alice.id, listed).await.unwrap(),
        ReceiptHolder::Me(_)
    ));
    assert!(matches!(
        store.find_receipt(alice.id, fresh).await.unwrap(),
        ReceiptHolder::Me(_)
    ));

    // Once the listing expense is deleted, its receipts are orphans too.
    store
        .push(
            alice.id,
            vec![mutation("r4", MutationAction::delete::<Expenses>(keeps.id))],
            3_000,
            quota(100),
        )
        .await
        .unwrap();
    assert_eq!(
        store.delete_orphan_receipts(5_000, 10).await.unwrap(),
        [(alice.id, stored)],
        "with what it was, to find its object"
    );
}

/// Evidence (issue 28) is stored and pulled as validated, pointing at its day; its `createdAt`
/// is when the server first stored it and an edit keeps it; a photo it names is kept by the
/// orphan sweep while the item lives and swept once it is deleted.
async fn evidence_round_trips_and_keeps_its_photo(backend: Backend) {
    use domain::evidence::{Evidence, EvidenceHolder, EvidenceType, PhotoPurpose};
    use server::evidence::EvidenceItems;
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let user = store
        .create_user(account("evidence@example.com"))
        .await
        .unwrap();
    let day = Uuid::now_v7();
    let photo = Uuid::now_v7();
    let item = Evidence {
        id: Uuid::now_v7(),
        holder: EvidenceHolder::Entry(day),
        evidence_type: EvidenceType::Photo,
        recorded_at: "2026-03-02T14:05:00.123Z".into(),
        text: "Left with neighbour at 12".into(),
        photo_id: Some(photo),
        purpose: Some(PhotoPurpose::ProofOfDelivery),
        minutes: None,
        place: String::new(),
        from_whom: String::new(),
    };
    let stray = Evidence {
        id: Uuid::now_v7(),
        holder: EvidenceHolder::StatementQuery(Uuid::now_v7()),
        ..item.clone()
    };
    let outcome = store
        .push(
            user.id,
            vec![
                mutation(
                    "e0",
                    MutationAction::put::<Entries>(&day_entry(user.id, day, 10)),
                ),
                mutation("e1", MutationAction::put::<EvidenceItems>(&item)),
                mutation("e2", MutationAction::put::<EvidenceItems>(&stray)),
            ],
            5_000,
            quota(100),
        )
        .await
        .unwrap();
    assert_eq!(codes(&outcome), [None, None, Some("missing-reference")]);
    let edited = Evidence {
        text: "Left with neighbour at no. 12".into(),
        ..item.clone()
    };
    let later = store
        .push(
            user.id,
            vec![mutation(
                "e3",
                MutationAction::put::<EvidenceItems>(&edited),
            )],
            7_000,
            quota(100),
        )
        .await
        .unwrap();
    assert_eq!(codes(&later), [None]);
    let page = store.pull(user.id, STARTER_RECORDS + 2, 10).await.unwrap();
    let data: Vec<Option<ChangeData>> = page.changes.into_iter().map(|c| c.data).collect();
    assert_eq!(
        data,
        [Some(ChangeData::Evidence(Stamped {
            content: EvidenceContent {
                entry_id: Some(day.to_string()),
                statement_line_id: None,
                statement_query_id: None,
                evidence_type: EvidenceType::Photo,
                recorded_at: "2026-03-02T14:05:00.123Z".into(),
                text: "Left with neighbour at no. 12".into(),
                photo_id: Some(photo.to_string()),
                purpose: Some(PhotoPurpose::ProofOfDelivery),
                minutes: None,
                place: String::new(),
                from_whom: String::new(),
            },
            created_at: "1970-01-01T00:00:05Z".into(),
            updated_at: "1970-01-01T00:00:07Z".into(),
        }))]
    );

    // The photo is old enough to sweep, but the live item names it.
    let stored = store
        .insert_receipt(user.id, photo, 100, "p", 1_000, 1_000)
        .await
        .unwrap();
    assert!(matches!(stored, ReceiptInsert::Stored(_)), "{stored:?}");
    assert!(
        store
            .delete_orphan_receipts(5_000, 10)
            .await
            .unwrap()
            .is_empty()
    );
    store
        .push(
            user.id,
            vec![mutation(
                "e4",
                MutationAction::delete::<EvidenceItems>(item.id),
            )],
            8_000,
            quota(100),
        )
        .await
        .unwrap();
    let swept = store.delete_orphan_receipts(5_000, 10).await.unwrap();
    assert_eq!(
        swept.iter().map(|(u, r)| (*u, r.id)).collect::<Vec<_>>(),
        [(user.id, photo)]
    );
}

/// A deleted guest's receipts go with it: the rows (and with them the ids) are freed.
async fn a_deleted_guests_receipts_go_with_it(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let guest = store.create_user(common::guest_user()).await.unwrap();
    let id = Uuid::now_v7();
    store
        .insert_receipt(guest.id, id, 100, "g", 1_000, 1_000)
        .await
        .unwrap();
    assert_eq!(
        store.delete_inactive_guests(40_000, 10).await.unwrap(),
        [guest.id]
    );
    let other = store
        .create_user(account("after@example.com"))
        .await
        .unwrap();
    assert_eq!(
        store.find_receipt(other.id, id).await.unwrap(),
        ReceiptHolder::Nobody
    );
    assert_eq!(store.receipt_bytes(guest.id).await.unwrap(), 0);
}

fn link(
    token_hash: &str,
    purpose: LinkPurpose,
    email: &str,
    user_id: Option<Uuid>,
) -> NewEmailLink {
    NewEmailLink {
        token_hash: token_hash.into(),
        purpose,
        email: email.into(),
        user_id,
        now_ms: 1_000,
        expires_at_ms: 1_000 + 3_600_000,
    }
}

fn session_of(user_id: Uuid, token_hash: &str) -> SessionRecord {
    SessionRecord {
        token_hash: token_hash.into(),
        user_id,
        created_at_ms: 1_000,
        last_seen_ms: 1_000,
        user_agent: None,
        temporary_password: false,
    }
}

async fn reset_links_work_once_until_they_expire_and_end_every_session(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let sam = store.create_user(account("sam@example.com")).await.unwrap();
    let pat = store.create_user(account("pat@example.com")).await.unwrap();
    // A temporary password from the operator: choosing one by link clears the mark.
    store
        .set_password(sam.id, "$argon2id$temporary", true, 1_000)
        .await
        .unwrap();
    for token in ["sam-phone", "sam-laptop"] {
        store
            .create_session(session_of(sam.id, token))
            .await
            .unwrap();
    }
    store
        .create_session(session_of(pat.id, "pat-phone"))
        .await
        .unwrap();
    let reset = |hash: &str, user: &server::store::UserRecord| {
        link(
            hash,
            LinkPurpose::PasswordReset,
            user.email.as_deref().unwrap(),
            Some(user.id),
        )
    };
    store.create_email_link(reset("sam-1", &sam)).await.unwrap();
    store.create_email_link(reset("sam-2", &sam)).await.unwrap();
    store.create_email_link(reset("pat-1", &pat)).await.unwrap();

    let expires = 1_000 + 3_600_000;
    assert_eq!(
        store.find_email_link("sam-1", expires - 1).await.unwrap(),
        Some(EmailLink {
            purpose: LinkPurpose::PasswordReset,
            email: "sam@example.com".into(),
            user_id: Some(sam.id),
            created_at_ms: 1_000,
            expires_at_ms: expires,
        })
    );
    assert_eq!(
        store.find_email_link("sam-1", expires).await.unwrap(),
        None,
        "expired on the hour"
    );
    assert_eq!(store.find_email_link("nobody", 1_000).await.unwrap(), None);

    let done = store
        .reset_password_with_link("sam-1", "$argon2id$chosen", expires - 1)
        .await
        .unwrap()
        .expect("a live link works");
    assert_eq!(done.user.id, sam.id);
    assert!(!done.user.must_change_password);
    let mut ended = done.ended_sessions.clone();
    ended.sort();
    assert_eq!(ended, ["sam-laptop", "sam-phone"]);
    assert_eq!(
        store.password_hash(sam.id).await.unwrap().as_deref(),
        Some("$argon2id$chosen")
    );
    assert!(store.get_session("sam-phone").await.unwrap().is_none());
    // Used once; the account's other reset link stopped working with it; others' did not.
    assert_eq!(
        store
            .reset_password_with_link("sam-1", "$argon2id$again", 2_000)
            .await
            .unwrap(),
        None
    );
    assert_eq!(store.find_email_link("sam-2", 2_000).await.unwrap(), None);
    assert!(
        store
            .find_email_link("pat-1", 2_000)
            .await
            .unwrap()
            .is_some()
    );
    assert!(store.get_session("pat-phone").await.unwrap().is_some());
    // Expired: refused, and nothing changes.
    assert_eq!(
        store
            .reset_password_with_link("pat-1", "$argon2id$late", expires)
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        store.password_hash(pat.id).await.unwrap().as_deref(),
        Some("$argon2id$fake")
    );
    assert!(store.get_session("pat-phone").await.unwrap().is_some());

    // A deleted account takes its links with it.
    store.create_email_link(reset("pat-2", &pat)).await.unwrap();
    assert!(store.delete_user(pat.id).await.unwrap());
    assert_eq!(store.find_email_link("pat-2", 2_000).await.unwrap(), None);
}

async fn invitations_create_one_account_once(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let invite = |hash: &str, email: &str| link(hash, LinkPurpose::Invite, email, None);
    store
        .create_email_link(invite("first", "new@example.com"))
        .await
        .unwrap();
    store
        .create_email_link(invite("second", "new@example.com"))
        .await
        .unwrap();
    assert_eq!(
        store.find_email_link("first", 2_000).await.unwrap(),
        None,
        "replaced by the newer invitation"
    );
    let live = store
        .find_email_link("second", 2_000)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((live.purpose, live.user_id), (LinkPurpose::Invite, None));
    // An invitation is no reset link, and the other way round.
    assert_eq!(
        store
            .reset_password_with_link("second", "$argon2id$x", 2_000)
            .await
            .unwrap(),
        None
    );
    let joining = NewUser {
        email: Some("ignored@example.com".into()),
        now_ms: 2_000,
        ..account("")
    };
    assert_eq!(
        store
            .sign_up_with_invite("first", joining.clone())
            .await
            .unwrap(),
        InviteUse::Gone
    );

    let InviteUse::Created(user) = store
        .sign_up_with_invite("second", joining.clone())
        .await
        .unwrap()
    else {
        panic!("a live invitation creates the account");
    };
    assert_eq!(
        user.email.as_deref(),
        Some("new@example.com"),
        "the invited address, not the request's"
    );
    assert_eq!(user.created_at_ms, 2_000);
    assert!(
        store
            .find_password_login("new@example.com")
            .await
            .unwrap()
            .is_some()
    );
    assert!(
        store
            .find_user_by_email("ignored@example.com")
            .await
            .unwrap()
            .is_none()
    );
    // Every account starts with its starter records, this one too.
    let pulled = store.pull(user.id, 0, 1_000).await.unwrap();
    let records = pulled.changes.len();
    assert!(
        i64::try_from(records).unwrap() >= STARTER_RECORDS,
        "{records}"
    );
    let again = NewUser {
        id: Uuid::now_v7(),
        ..joining.clone()
    };
    assert_eq!(
        store.sign_up_with_invite("second", again).await.unwrap(),
        InviteUse::Gone,
        "used once"
    );

    // The address got an account meanwhile: nothing is created and the invitation stands.
    store
        .create_user(account("taken@example.com"))
        .await
        .unwrap();
    store
        .create_email_link(invite("taken", "taken@example.com"))
        .await
        .unwrap();
    let taken = NewUser {
        id: Uuid::now_v7(),
        ..joining.clone()
    };
    assert_eq!(
        store.sign_up_with_invite("taken", taken).await.unwrap(),
        InviteUse::EmailTaken
    );
    assert!(
        store
            .find_email_link("taken", 2_000)
            .await
            .unwrap()
            .is_some()
    );

    // Expired: refused. And storing a link clears the expired ones.
    store
        .create_email_link(NewEmailLink {
            expires_at_ms: 1_500,
            ..invite("short", "late@example.com")
        })
        .await
        .unwrap();
    let late = NewUser {
        id: Uuid::now_v7(),
        now_ms: 1_500,
        ..joining.clone()
    };
    assert_eq!(
        store.sign_up_with_invite("short", late).await.unwrap(),
        InviteUse::Gone
    );
    assert!(
        store
            .find_email_link("short", 1_200)
            .await
            .unwrap()
            .is_some()
    );
    store
        .create_email_link(NewEmailLink {
            now_ms: 1_600,
            ..invite("later", "later@example.com")
        })
        .await
        .unwrap();
    assert_eq!(
        store.find_email_link("short", 1_200).await.unwrap(),
        None,
        "cleared once expired"
    );
}

async fn ping_answers(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    store.ping().await.unwrap();
}

/// Statement lines and formats (issue 28) are stored and pulled exactly as validated; a line
/// pointing at a statement check that is not there is `missing-reference`, and the same line
/// put again (a re-import) is still one record.
async fn statement_lines_and_formats_round_trip(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let user = store
        .create_user(account("lines@example.com"))
        .await
        .unwrap();
    let check = StatementCheck {
        id: Uuid::now_v7(),
        ..statement_check(user.id)
    };
    let line = StatementLine {
        id: Uuid::now_v7(),
        invoice_id: check.id,
        courier_id: user.id,
        line_key: "csv:0a1b:1".into(),
        date: domain::entry::parse_date("2025-03-18").unwrap(),
        line_type: LineType::Parcel,
        band: Some(SizeBand::ExtraLarge),
        quantity: 10_000,
        rate: Some(100_000),
        amount: 10_000_000,
        reference: "é".repeat(100),
    };
    let stray = StatementLine {
        id: Uuid::now_v7(),
        invoice_id: Uuid::now_v7(),
        ..line.clone()
    };
    let format = StatementFormatInput {
        id: Uuid::now_v7().to_string(),
        courier_id: user.id.to_string(),
        source: "pdf".into(),
        date_column: "Day".into(),
        date_order: "yearMonthDay".into(),
        amount_column: "£".into(),
        type_column: None,
        band_column: Some("Band".into()),
        quantity_column: None,
        rate_column: Some("Rate".into()),
        reference_column: None,
        default_type: "adjustment".into(),
        deductions_positive: false,
        type_words: vec![TypeWord {
            word: "XL".into(),
            line_type: LineType::Parcel,
            band: Some(SizeBand::ExtraLarge),
        }],
    }
    .validate()
    .unwrap();
    let outcome = store
        .push(
            user.id,
            vec![
                mutation("c1", MutationAction::put::<StatementChecks>(&check)),
                mutation("l1", MutationAction::put::<StatementLines>(&line)),
                mutation("l2", MutationAction::put::<StatementLines>(&stray)),
                mutation("f1", MutationAction::put::<StatementFormats>(&format)),
                mutation("l3", MutationAction::put::<StatementLines>(&line)),
            ],
            5_000,
            quota(100),
        )
        .await
        .unwrap();
    assert_eq!(
        codes(&outcome),
        [None, None, Some("missing-reference"), None, None]
    );
    let at = "1970-01-01T00:00:05Z".to_owned();
    let page = store.pull(user.id, STARTER_RECORDS, 10).await.unwrap();
    let data: Vec<Option<ChangeData>> = page.changes.into_iter().skip(1).map(|c| c.data).collect();
    assert_eq!(
        data,
        [
            Some(ChangeData::StatementFormat(Stamped {
                content: StatementFormatContent {
                    courier_id: user.id.to_string(),
                    source: FormatSource::Pdf,
                    date_column: "Day".into(),
                    date_order: DateOrder::YearMonthDay,
                    amount_column: "£".into(),
                    type_column: None,
                    band_column: Some("Band".into()),
                    quantity_column: None,
                    rate_column: Some("Rate".into()),
                    reference_column: None,
                    default_type: LineType::Adjustment,
                    deductions_positive: false,
                    type_words: format.type_words.clone(),
                },
                created_at: at.clone(),
                updated_at: at.clone(),
            })),
            Some(ChangeData::StatementLine(Stamped {
                content: StatementLineContent {
                    invoice_id: check.id.to_string(),
                    courier_id: user.id.to_string(),
                    line_key: "csv:0a1b:1".into(),
                    date: "2025-03-18".into(),
                    line_type: LineType::Parcel,
                    band: Some(SizeBand::ExtraLarge),
                    quantity: 10_000,
                    rate: Some(100_000),
                    amount: 10_000_000,
                    reference: "é".repeat(100),
                },
                created_at: at.clone(),
                updated_at: at,
            })),
        ]
    );
}

/// A sent quarterly update is write-once (`SentUpdates::WRITE_ONCE`): a second put of the
/// stored record with other content, or a delete of it, is refused `immutable` and changes
/// nothing; a replay of the put that stored it is acknowledged with its first answer; a new
/// record superseding it is stored; another account's id is `not-owner`.
async fn sent_updates_are_write_once(backend: Backend) {
    use sha2::{Digest, Sha256};
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let user = store
        .create_user(account("sent@example.com"))
        .await
        .unwrap();
    let other = store
        .create_user(account("sent-other@example.com"))
        .await
        .unwrap();
    let file = "{\"periodIncome\":{\"turnover\":300}}\n".to_owned();
    let sent = |id: Uuid, reference: &str, supersedes: Option<Uuid>| {
        SentUpdateInput {
            id: id.to_string(),
            tax_year: "2026-27".into(),
            quarter: 1,
            quarters: "standard".into(),
            period_start: "2026-04-06".into(),
            period_end: "2026-07-05".into(),
            shape: "itemised".into(),
            file: file.clone(),
            sha256: hex::encode(Sha256::digest(file.as_bytes())),
            sent_on: "2026-08-01".into(),
            product: "Bridger".into(),
            reference: reference.into(),
            supersedes: supersedes.map(|id| id.to_string()),
        }
        .validate()
        .unwrap()
    };
    let (first, second) = (Uuid::now_v7(), Uuid::now_v7());
    let batch = || {
        vec![
            mutation(
                "s1",
                MutationAction::put::<SentUpdates>(&sent(first, "REF-1", None)),
            ),
            mutation(
                "s2",
                MutationAction::put::<SentUpdates>(&sent(first, "CHANGED", None)),
            ),
            mutation("s3", MutationAction::delete::<SentUpdates>(first)),
            mutation(
                "s4",
                MutationAction::put::<SentUpdates>(&sent(second, "REF-2", Some(first))),
            ),
        ]
    };
    let outcome = store
        .push(user.id, batch(), 5_000, quota(100))
        .await
        .unwrap();
    assert_eq!(
        codes(&outcome),
        [None, Some("immutable"), Some("immutable"), None]
    );
    assert_eq!(outcome.cursor, STARTER_RECORDS + 2);

    // The same put again (its mutation id: a device that never got the answer) is
    // acknowledged as it was; the whole batch replayed answers the same and writes nothing.
    let replay = store
        .push(
            user.id,
            vec![mutation(
                "s1",
                MutationAction::put::<SentUpdates>(&sent(first, "REF-1", None)),
            )],
            6_000,
            quota(100),
        )
        .await
        .unwrap();
    assert_eq!(codes(&replay), [None]);
    assert_eq!(replay.results[0], outcome.results[0]);
    assert!(!replay.changed, "a replay writes nothing");
    let again = store
        .push(user.id, batch(), 7_000, quota(100))
        .await
        .unwrap();
    assert_eq!(again.results, outcome.results);
    assert!(!again.changed);

    let at = "1970-01-01T00:00:05Z".to_owned();
    let data = |reference: &str, supersedes: Option<Uuid>| {
        Some(ChangeData::SentUpdate(Stamped {
            content: SentUpdateContent {
                tax_year: "2026-27".into(),
                quarter: 1,
                quarters: MtdQuarters::Standard,
                period_start: "2026-04-06".into(),
                period_end: "2026-07-05".into(),
                shape: ExpensesShape::Itemised,
                file: file.clone(),
                sha256: hex::encode(Sha256::digest(file.as_bytes())),
                sent_on: "2026-08-01".into(),
                product: "Bridger".into(),
                reference: reference.into(),
                supersedes: supersedes.map(|id| id.to_string()),
            },
            created_at: at.clone(),
            updated_at: at.clone(),
        }))
    };
    let page = store.pull(user.id, STARTER_RECORDS, 10).await.unwrap();
    let pulled: Vec<(String, String, i64, bool)> = page
        .changes
        .iter()
        .map(|c| (c.kind.clone(), c.id.clone(), c.version, c.deleted))
        .collect();
    assert_eq!(
        pulled,
        [
            (
                "sentUpdate".to_owned(),
                first.to_string(),
                STARTER_RECORDS + 1,
                false
            ),
            (
                "sentUpdate".to_owned(),
                second.to_string(),
                STARTER_RECORDS + 2,
                false
            ),
        ]
    );
    let kept: Vec<Option<ChangeData>> = page.changes.into_iter().map(|c| c.data).collect();
    assert_eq!(kept, [data("REF-1", None), data("REF-2", Some(first))]);
    assert!(!page.has_more);

    let theirs = store
        .push(
            other.id,
            vec![
                mutation(
                    "o1",
                    MutationAction::put::<SentUpdates>(&sent(first, "MINE", None)),
                ),
                mutation("o2", MutationAction::delete::<SentUpdates>(first)),
            ],
            8_000,
            quota(100),
        )
        .await
        .unwrap();
    assert_eq!(codes(&theirs), [Some("not-owner"), Some("not-owner")]);
    let after = store.pull(user.id, STARTER_RECORDS + 2, 10).await.unwrap();
    assert!(after.changes.is_empty(), "nothing of theirs was written");
}

/// A statement query (issue 28) is stored and pulled exactly as validated, its frozen items in
/// order; one whose later statement is not there is `missing-reference`.
async fn statement_queries_round_trip(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let user = store
        .create_user(account("queries@example.com"))
        .await
        .unwrap();
    let queried = StatementCheck {
        id: Uuid::now_v7(),
        ..statement_check(user.id)
    };
    let later = StatementCheck {
        id: Uuid::now_v7(),
        ..statement_check(user.id)
    };
    let day = |raw| domain::entry::parse_date(raw).unwrap();
    let item = |date: Option<&str>, amount, hash: char| QueryItem {
        date: date.map(Into::into),
        kind: "lowerBand".into(),
        words: "2 parcels logged as Large paid as Packet — “£”".into(),
        logged: "2 parcels Large".into(),
        paid: "2 parcels Packet".into(),
        card_rate: date.map(|_| 100_000),
        amount,
        hash: hash.to_string().repeat(64),
    };
    let query = StatementQuery {
        id: Uuid::now_v7(),
        statement_check_id: queried.id,
        made_on: day("2026-03-20"),
        items_version: 1,
        items: vec![
            item(Some("2026-03-02"), 10_000_000, 'a'),
            item(None, -10_000_000, 'b'),
        ],
        total: 0,
        sent_on: Some(day("2026-03-21")),
        answered_on: None,
        paid_back_amount: Some(10_000_000),
        paid_back_on: Some(day("2026-04-10")),
        paid_back_check_id: Some(later.id),
        closed_on: None,
        note: "Asked by e-mail.\nRef 12".into(),
    };
    let stray = StatementQuery {
        id: Uuid::now_v7(),
        paid_back_check_id: Some(Uuid::now_v7()),
        ..query.clone()
    };
    let outcome = store
        .push(
            user.id,
            vec![
                mutation("c1", MutationAction::put::<StatementChecks>(&queried)),
                mutation("c2", MutationAction::put::<StatementChecks>(&later)),
                mutation("q1", MutationAction::put::<StatementQueries>(&query)),
                mutation("q2", MutationAction::put::<StatementQueries>(&stray)),
            ],
            5_000,
            quota(100),
        )
        .await
        .unwrap();
    assert_eq!(
        codes(&outcome),
        [None, None, None, Some("missing-reference")]
    );
    let at = "1970-01-01T00:00:05Z".to_owned();
    let page = store.pull(user.id, STARTER_RECORDS, 10).await.unwrap();
    let pulled: Vec<Option<ChangeData>> = page
        .changes
        .into_iter()
        .filter(|c| c.kind == "statementQuery")
        .map(|c| c.data)
        .collect();
    assert_eq!(
        pulled,
        [Some(ChangeData::StatementQuery(Stamped {
            content: StatementQueryContent {
                statement_check_id: queried.id.to_string(),
                made_on: "2026-03-20".into(),
                items_version: 1,
                items: query.items.clone(),
                total: 0,
                sent_on: Some("2026-03-21".into()),
                answered_on: None,
                paid_back_amount: Some(10_000_000),
                paid_back_on: Some("2026-04-10".into()),
                paid_back_check_id: Some(later.id.to_string()),
                closed_on: None,
                note: "Asked by e-mail.\nRef 12".into(),
            },
            created_at: at.clone(),
            updated_at: at,
        }))]
    );
}

on_both_backends!(
    sent_updates_are_write_once,
    statement_queries_round_trip,
    evidence_round_trips_and_keeps_its_photo,
    fuel_fills_round_trip,
    statement_lines_and_formats_round_trip,
    users_round_trip_and_emails_are_unique,
    password_login_lookup_skips_guests,
    roles_are_set_by_email,
    users_are_found_by_email_and_deleted_with_their_sessions,
    sessions_live_touch_and_expire,
    sessions_and_cursors_are_read_in_batches,
    concurrent_writes_are_isolated,
    accounts_racing_for_the_same_new_ids_each_get_them_once,
    a_push_writes_one_record_twice_in_order,
    photo_changes_move_the_change_cursor,
    statement_checks_round_trip_beside_entries,
    ping_answers,
    records_quota_counts_every_new_row,
    inactive_guests_are_deleted_with_their_data,
    pruned_replays_cannot_duplicate_or_resurrect,
    couriers_cards_and_deductions_round_trip,
    every_new_account_starts_with_its_courier_and_card,
    vehicles_expenses_and_mileage_round_trip,
    the_tax_region_is_kept_unless_a_put_names_it,
    users_from_before_tax_regions_get_the_uk_bands,
    receipts_are_owned_counted_and_swept,
    a_deleted_guests_receipts_go_with_it,
    reset_links_work_once_until_they_expire_and_end_every_session,
    invitations_create_one_account_once,
);

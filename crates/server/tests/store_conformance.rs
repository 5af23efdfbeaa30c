//! One behaviour, two stores: every case runs against SQLite and PostgreSQL.

mod common;

use std::collections::HashSet;

use common::{Backend, store_for};
use domain::{
    Money, Role,
    entry::Entry,
    invoice::Invoice,
    sync::{ChangeData, InvoiceData},
};
use server::store::{
    DynStore, MutationAction, NewUser, PreparedMutation, SessionRecord, StoreError,
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

fn guest() -> NewUser {
    NewUser {
        email: None,
        display_name: None,
        password_hash: None,
        is_anonymous: true,
        ..account("")
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
    store.create_user(guest()).await.unwrap();
    store.create_user(guest()).await.unwrap();
    assert_eq!(store.list_users().await.unwrap().len(), 3);
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
    };
    store
        .create_session(session("fresh", 10_000, 10_000))
        .await
        .unwrap();
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
    assert_eq!(store.change_cursor(user.id).await.unwrap(), Some(0));
    let swap = store
        .set_photo(user.id, Some("/api/v1/files/x".into()), 7_000)
        .await
        .unwrap();
    assert_eq!((swap.cursor, swap.replaced), (1, None));
    assert_eq!(store.change_cursor(user.id).await.unwrap(), Some(1));
    let updated = store.get_user(user.id).await.unwrap().unwrap();
    assert_eq!(
        (updated.photo_url.as_deref(), updated.updated_at_ms),
        (Some("/api/v1/files/x"), 7_000)
    );
    let page = store.pull(user.id, 0, 10).await.unwrap();
    assert_eq!(page.changes.len(), 1);
    assert_eq!(
        (page.changes[0].kind.as_str(), page.changes[0].version),
        ("profile", 1)
    );
    assert!(store.change_cursor(Uuid::now_v7()).await.unwrap().is_none());
    // Each swap reports exactly the URL it replaced.
    let swap = store
        .set_photo(user.id, Some("/api/v1/files/y".into()), 8_000)
        .await
        .unwrap();
    assert_eq!(
        (swap.cursor, swap.replaced.as_deref()),
        (2, Some("/api/v1/files/x"))
    );
    let swap = store.set_photo(user.id, None, 9_000).await.unwrap();
    assert_eq!(swap.replaced.as_deref(), Some("/api/v1/files/y"));
}

/// The store keeps every invoice field exactly (no stops vs zero stops, multi-byte references,
/// the largest amounts) and pulls invoices and entries from one change sequence.
async fn invoices_round_trip_beside_entries(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    let user = store
        .create_user(account("invoices@example.com"))
        .await
        .unwrap();
    let day = |raw: &str| domain::entry::parse_date(raw).unwrap();
    let invoice = |stops, reference: &str| Invoice {
        id: Uuid::now_v7(),
        period_start: day("2024-01-01"),
        period_end: day("2024-12-31"),
        paid: Money(10_000_000),
        stops,
        reference: reference.into(),
    };
    let (counted, uncounted) = (
        invoice(Some(0), "é".repeat(100).as_str()),
        invoice(None, ""),
    );
    let entry = Entry {
        id: Uuid::now_v7(),
        date: day("2024-06-01"),
        stops: 10,
        extra: Money(0),
        notes: String::new(),
        total: Money(1_980),
    };
    let prepared = |action| PreparedMutation {
        id: Uuid::now_v7().to_string(),
        action,
    };
    let outcome = store
        .push(
            user.id,
            vec![
                prepared(MutationAction::PutInvoice(counted.clone())),
                prepared(MutationAction::PutEntry(entry.clone())),
                prepared(MutationAction::PutInvoice(uncounted.clone())),
                prepared(MutationAction::DeleteInvoice(uncounted.id)),
            ],
            86_400_000,
        )
        .await
        .unwrap();
    assert_eq!((outcome.cursor, outcome.changed), (4, true));

    let page = store.pull(user.id, 0, 10).await.unwrap();
    let ids: Vec<(&str, String, i64, bool)> = page
        .changes
        .iter()
        .map(|c| (c.kind.as_str(), c.id.clone(), c.version, c.deleted))
        .collect();
    assert_eq!(
        ids,
        [
            ("invoice", counted.id.to_string(), 1, false),
            ("entry", entry.id.to_string(), 2, false),
            ("invoice", uncounted.id.to_string(), 4, true),
        ]
    );
    assert_eq!(
        page.changes[0].data,
        Some(ChangeData::Invoice(InvoiceData {
            period_start: "2024-01-01".into(),
            period_end: "2024-12-31".into(),
            paid: 10_000_000,
            stops: Some(0),
            reference: "é".repeat(100),
            created_at: "1970-01-02T00:00:00Z".into(),
            updated_at: "1970-01-02T00:00:00Z".into(),
        }))
    );
    assert!(matches!(page.changes[1].data, Some(ChangeData::Entry(_))));
    assert_eq!(page.changes[2].data, None);
    // Paging across kinds: one per page, in version order.
    let first = store.pull(user.id, 0, 1).await.unwrap();
    assert!(first.has_more);
    assert_eq!(first.changes[0].kind, "invoice");
    let second = store.pull(user.id, 1, 1).await.unwrap();
    assert_eq!(
        (second.changes[0].kind.as_str(), second.has_more),
        ("entry", true)
    );
}

async fn ping_answers(backend: Backend) {
    let Some((store, _keep)) = store(backend).await else {
        return;
    };
    store.ping().await.unwrap();
}

on_both_backends!(
    users_round_trip_and_emails_are_unique,
    password_login_lookup_skips_guests,
    roles_are_set_by_email,
    sessions_live_touch_and_expire,
    concurrent_writes_are_isolated,
    photo_changes_move_the_change_cursor,
    invoices_round_trip_beside_entries,
    ping_answers,
);

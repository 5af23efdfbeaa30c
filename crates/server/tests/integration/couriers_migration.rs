//! Migration 0012 gives every user the default courier and its first rate card holding their
//! own tiers, and points every existing day and statement check at them: nothing a driver
//! logged changes its total or version, and every pull still parses.

use crate::common;

use common::quota;

use common::Backend;
use domain::{
    Money, PayTier, PayTiers,
    entry::{Entry, parse_date},
    sync::{Change, ChangeData},
};
use serde_json::{Value, json};
use server::{
    entries::Entries,
    store::{DynStore, MutationAction, PreparedMutation},
};
use uuid::Uuid;

const TIERED: &str = "0190a6e2-7c1d-7000-8000-00000000f001";
const PLAIN: &str = "0190a6e2-7c1d-7000-8000-00000000f002";
const LIVE_ENTRY: &str = "0190a6e2-7c1d-7000-8000-00000000e001";
const DELETED_ENTRY: &str = "0190a6e2-7c1d-7000-8000-00000000e002";
const EARLY_ENTRY: &str = "0190a6e2-7c1d-7000-8000-00000000e003";
const INVOICE: &str = "0190a6e2-7c1d-7000-8000-00000000a001";
const DELETED_INVOICE: &str = "0190a6e2-7c1d-7000-8000-00000000a002";
/// The tiered user's own tiers, as the server stored them on the user.
const TIERS: &str = r#"[{"stopCount":100,"rate":180},{"stopCount":130,"rate":165},{"rate":150}]"#;

/// Rows as the schema before 0012 held them (the SQL runs on both backends): a user with
/// custom tiers, days live and deleted and checks live and deleted; a user who never set
/// tiers, with one day.
fn rows_before() -> String {
    let user = |id: &str, email: &str, tiers: &str, seq: i64| {
        format!(
            "INSERT INTO users (id, email, password_hash, display_name, is_anonymous,
                                created_at, last_login, updated_at, change_seq, record_count,
                                payment_tiers, profile_version)
             VALUES ('{id}', '{email}', 'hash', 'Sam', FALSE, 1000, 1000, 1000, {seq}, {seq},
                     {tiers}, 0);"
        )
    };
    let record = |kind: &str, id: &str, owner: &str, version: i64, content: Option<&str>| {
        let (deleted, content) = match content {
            Some(json) => ("FALSE", format!("'{json}'")),
            None => ("TRUE", "NULL".to_owned()),
        };
        format!(
            "INSERT INTO records (kind, id, user_id, version, deleted, content, created_at,
                                  updated_at)
             VALUES ('{kind}', '{id}', '{owner}', {version}, {deleted}, {content}, 86400000,
                     90000000);"
        )
    };
    [
        user(TIERED, "tiered@example.com", &format!("'{TIERS}'"), 5),
        user(PLAIN, "plain@example.com", "NULL", 1),
        record(
            "entry",
            LIVE_ENTRY,
            TIERED,
            1,
            Some(r#"{"date":"2025-03-21","stops":120,"extra":250,"notes":"Rain — £5","total":24010}"#),
        ),
        record("entry", DELETED_ENTRY, TIERED, 2, None),
        record(
            "invoice",
            INVOICE,
            TIERED,
            3,
            Some(r#"{"periodStart":"2025-03-16","periodEnd":"2025-03-22","paid":123456,"stops":640,"reference":"INV-7"}"#),
        ),
        record("invoice", DELETED_INVOICE, TIERED, 4, None),
        record(
            "entry",
            EARLY_ENTRY,
            TIERED,
            5,
            Some(r#"{"date":"2000-01-01","stops":0,"extra":0,"notes":"","total":0}"#),
        ),
        record(
            "entry",
            &Uuid::from_u128(7).to_string(),
            PLAIN,
            1,
            Some(r#"{"date":"2025-01-02","stops":10,"extra":0,"notes":"","total":1980}"#),
        ),
    ]
    .concat()
}

/// The pulled records of `user` (no profile or settings), each as (kind, id, version, data
/// as JSON without the timestamps).
async fn records(store: &DynStore, user: &str) -> Vec<(String, String, i64, Value)> {
    let page = store
        .pull(Uuid::parse_str(user).unwrap(), 0, 100)
        .await
        .unwrap();
    page.changes
        .into_iter()
        .filter(|c| c.kind != "profile" && c.kind != "settings")
        .map(
            |Change {
                 kind,
                 id,
                 version,
                 data,
                 ..
             }| {
                let mut json = data.map_or(Value::Null, |d| serde_json::to_value(d).unwrap());
                if let Some(object) = json.as_object_mut() {
                    object.remove("createdAt");
                    object.remove("updatedAt");
                }
                (kind, id, version, json)
            },
        )
        .collect()
}

fn courier() -> Value {
    json!({"name": "My courier", "colour": "#2f6fde", "periodKind": "weekly",
           "periodAnchor": "2000-01-02", "arrearsWeeks": 0})
}

fn card(user: &str, tiers: Value) -> Value {
    json!({"courierId": user, "validFrom": "2000-01-01", "label": "", "perStop": tiers,
           "perParcel": null, "parcelCapPerStop": null, "perCollection": null,
           "perFailed": null, "dayRate": null, "hourly": null, "peaks": [],
           "bandRates": null})
}

fn row(kind: &str, id: &str, version: i64, data: Value) -> (String, String, i64, Value) {
    (kind.into(), id.into(), version, data)
}

async fn every_user_gets_a_courier_and_every_day_keeps_its_total(backend: Backend) {
    let Some(test) = common::migrations::store_before(backend, 12, &rows_before()).await else {
        return;
    };
    let store: DynStore = test.store.clone();
    let tiers: Value = serde_json::from_str(TIERS).unwrap();
    let day_fields = json!({"courierId": TIERED, "rateCardId": TIERED, "parcels": null,
                            "collections": null, "failed": null, "startTime": null,
                            "finishTime": null, "separateShift": false, "bands": null});
    let with = |old: Value, new: &Value| {
        let mut merged = old;
        for (key, value) in new.as_object().unwrap() {
            merged[key] = value.clone();
        }
        merged
    };
    assert_eq!(
        records(&store, TIERED).await,
        [
            row(
                "entry",
                LIVE_ENTRY,
                1,
                with(
                    json!({"date": "2025-03-21", "stops": 120, "extra": 250, "notes": "Rain — £5", "total": 24_010}),
                    &day_fields
                ),
            ),
            row("entry", DELETED_ENTRY, 2, Value::Null),
            row(
                "invoice",
                INVOICE,
                3,
                json!({"periodStart": "2025-03-16", "periodEnd": "2025-03-22", "paid": 123_456,
                       "stops": 640, "reference": "INV-7", "courierId": TIERED, "parcels": null,
                       "collections": null, "deductions": null, "status": "unchecked", "note": ""}),
            ),
            row("invoice", DELETED_INVOICE, 4, Value::Null),
            row(
                "entry",
                EARLY_ENTRY,
                5,
                with(
                    json!({"date": "2000-01-01", "stops": 0, "extra": 0, "notes": "", "total": 0}),
                    &day_fields
                ),
            ),
            row("courier", TIERED, 6, courier()),
            row("rateCard", TIERED, 7, card(TIERED, tiers)),
        ]
    );
    let plain = records(&store, PLAIN).await;
    assert_eq!(plain.len(), 3);
    assert_eq!(
        (plain[0].2, &plain[0].3["total"], &plain[0].3["rateCardId"]),
        (1, &json!(1_980), &json!(PLAIN))
    );
    assert_eq!(plain[1], row("courier", PLAIN, 2, courier()));
    let default_tiers = serde_json::to_value(PayTiers::default()).unwrap();
    assert_eq!(
        plain[2],
        row("rateCard", PLAIN, 3, card(PLAIN, default_tiers))
    );

    // Each user's sequence and record count moved by 2.
    let tiered = Uuid::parse_str(TIERED).unwrap();
    assert_eq!(store.change_cursor(tiered).await.unwrap(), Some(5 + 2));
    assert_eq!(
        store
            .change_cursor(Uuid::parse_str(PLAIN).unwrap())
            .await
            .unwrap(),
        Some(1 + 2)
    );
    let day = |mutation: &str| PreparedMutation {
        id: mutation.into(),
        action: MutationAction::put::<Entries>(&Entry {
            id: Uuid::now_v7(),
            date: parse_date("2025-04-01").unwrap(),
            stops: 1,
            extra: Money(0),
            notes: String::new(),
            total: Money(180),
            courier_id: tiered,
            rate_card_id: Some(tiered),
            parcels: None,
            collections: None,
            failed: None,
            hours: None,
            separate_shift: false,
            bands: None,
        }),
    };
    let full = store
        .push(
            tiered,
            vec![day("m1"), day("m2")],
            100_000_000,
            quota(5 + 2 + 1),
        )
        .await
        .unwrap();
    let codes: Vec<Option<&str>> = full.results.iter().map(|r| r.code.as_deref()).collect();
    assert_eq!(
        codes,
        [None, Some("quota-exceeded")],
        "five rows, two starters, one more"
    );

    // The migrated first card is the one an old app's tiers go into.
    let update = domain::profile::ProfileUpdate {
        payment_tiers: Some(
            PayTiers::new(vec![
                PayTier {
                    stop_count: Some(90),
                    rate: Money(170),
                },
                PayTier {
                    stop_count: None,
                    rate: Money(140),
                },
            ])
            .unwrap(),
        ),
        ..Default::default()
    };
    store
        .push(
            tiered,
            vec![PreparedMutation {
                id: "m3".into(),
                action: MutationAction::UpdateProfile(update),
            }],
            100_000_000,
            quota(100),
        )
        .await
        .unwrap();
    let after = store.pull(tiered, 8, 10).await.unwrap();
    let card = after.changes.iter().find(|c| c.kind == "rateCard").unwrap();
    let Some(ChangeData::RateCard(data)) = &card.data else {
        panic!("{card:?}");
    };
    assert_eq!(
        (card.version, data.per_stop.as_ref().unwrap()[1].rate),
        (10, Money(140))
    );
}

on_both_backends!(every_user_gets_a_courier_and_every_day_keeps_its_total);

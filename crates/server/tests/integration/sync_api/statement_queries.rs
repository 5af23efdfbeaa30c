//! A statement query (issue 28): made, tracked and deleted with its items frozen; bad input
//! named field by field and a changed item breaking the chain.

use super::common::{self, Backend, TestApp, spawn_app};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use uuid::Uuid;

fn id() -> String {
    Uuid::now_v7().to_string()
}

fn mutation(name: &str, args: Value) -> Value {
    json!({"id": id(), "name": name, "args": args})
}

fn statuses(reply: &common::Reply) -> Vec<String> {
    reply.body["results"]
        .as_array()
        .unwrap_or_else(|| panic!("{}", reply.text))
        .iter()
        .map(|r| r["status"].as_str().unwrap().to_owned())
        .collect()
}

fn codes(reply: &common::Reply) -> Vec<Value> {
    reply.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].clone())
        .collect()
}

async fn pulled(app: &TestApp, cookie: &str, kind: &str) -> Vec<Value> {
    let reply = app
        .get("/api/v1/sync/pull?cursor=0&limit=1000", Some(cookie))
        .await;
    reply.body["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == kind)
        .cloned()
        .collect()
}

/// Items with their chain: each hash is SHA-256 of the previous (64 zeros first) and the
/// item's canonical JSON, as the device makes it.
fn chained(items: &[(Option<&str>, &str, i64)]) -> Vec<Value> {
    let mut previous = "0".repeat(64);
    items
        .iter()
        .map(|(date, words, amount)| {
            let canonical = format!(
                r#"{{"date":{},"kind":"fewerStops","words":"{words}","logged":"121 stops","paid":"118 stops","cardRate":150,"amount":{amount}}}"#,
                date.map_or("null".to_owned(), |d| format!("\"{d}\""))
            );
            let hash = hex::encode(Sha256::digest(format!("{previous}{canonical}")));
            previous.clone_from(&hash);
            json!({"date": date, "kind": "fewerStops", "words": words, "logged": "121 stops",
                   "paid": "118 stops", "cardRate": 150, "amount": amount, "hash": hash})
        })
        .collect()
}

fn check(check_id: &str, start: &str) -> Value {
    mutation(
        "invoice.put",
        json!({"id": check_id, "periodStart": start, "periodEnd": start, "paid": 10_000,
               "stops": 60, "reference": "S-1"}),
    )
}

fn query(query_id: &str, check_id: &str, items: Vec<Value>, total: i64) -> Value {
    json!({"id": query_id, "statementCheckId": check_id, "madeOn": "2026-03-20",
           "itemsVersion": 1, "items": items, "total": total, "sentOn": null,
           "answeredOn": null, "paidBackAmount": null, "paidBackOn": null,
           "paidBackCheckId": null, "closedOn": null, "note": ""})
}

async fn a_query_is_made_tracked_and_deleted_with_its_items_frozen(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("query@example.com", "van-route-42").await;
    let (queried, later, query_id) = (id(), id(), id());
    let items = chained(&[
        (Some("2026-03-02"), "3 stops logged but not paid", 450),
        (None, "Lines against the total", -100),
    ]);
    let made = query(&query_id, &queried, items.clone(), 350);
    let reply = app
        .push(
            &cookie,
            vec![
                check(&queried, "2026-03-02"),
                check(&later, "2026-03-09"),
                mutation("statementQuery.put", made.clone()),
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"; 3], "{}", reply.text);
    let stored = pulled(&app, &cookie, "statementQuery").await;
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0]["data"]["items"], json!(items));
    assert_eq!(stored[0]["data"]["total"], 350);

    // Tracking: sent, answered, paid back on the later statement, closed. The put also
    // carries other items (a valid chain of their own): the stored ones stay.
    let mut tracked = made.clone();
    tracked["sentOn"] = json!("2026-03-21");
    tracked["answeredOn"] = json!("2026-03-30");
    tracked["paidBackAmount"] = json!(350);
    tracked["paidBackOn"] = json!("2026-04-10");
    tracked["paidBackCheckId"] = json!(later);
    tracked["closedOn"] = json!("2026-04-11");
    tracked["note"] = json!("Agreed.\nPaid on the next statement.");
    tracked["items"] = json!(chained(&[(Some("2026-03-02"), "rewritten", 1)]));
    tracked["total"] = json!(1);
    let reply = app
        .push(&cookie, vec![mutation("statementQuery.put", tracked)])
        .await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);
    let data = pulled(&app, &cookie, "statementQuery").await[0]["data"].clone();
    assert_eq!(
        (
            &data["sentOn"],
            &data["paidBackAmount"],
            &data["paidBackCheckId"],
            &data["closedOn"]
        ),
        (
            &json!("2026-03-21"),
            &json!(350),
            &json!(later),
            &json!("2026-04-11")
        )
    );
    assert_eq!(data["note"], "Agreed.\nPaid on the next statement.");
    assert_eq!(
        data["items"],
        json!(items),
        "the items are as first recorded"
    );
    assert_eq!(
        (&data["total"], &data["madeOn"]),
        (&json!(350), &json!("2026-03-20"))
    );

    let reply = app
        .push(
            &cookie,
            vec![mutation("statementQuery.delete", json!({"id": query_id}))],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"]);
    let tombstone = pulled(&app, &cookie, "statementQuery").await;
    assert_eq!(
        (tombstone.len(), &tombstone[0]["deleted"]),
        (1, &json!(true))
    );
}

async fn a_bad_query_names_every_problem_and_a_changed_item_breaks_the_chain(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("query-bad@example.com", "van-route-42").await;
    let queried = id();
    let reply = app.push(&cookie, vec![check(&queried, "2026-03-02")]).await;
    assert_eq!(statuses(&reply), ["applied"]);
    let mut items = chained(&[
        (Some("2026-03-02"), "3 stops", 450),
        (Some("2026-03-03"), "2 stops", 300),
    ]);
    let mut bad = query(&id(), &queried, items.clone(), 1);
    bad["madeOn"] = json!("2026-02-30");
    bad["itemsVersion"] = json!(9);
    bad["sentOn"] = json!("2026-03-19");
    bad["paidBackAmount"] = json!(0);
    bad["closedOn"] = json!("21/03/2026");
    bad["note"] = json!("bell\u{7}");
    items[1]["amount"] = json!(301);
    let changed = query(&id(), &queried, items, 751);
    let mut too_many = query(&id(), &queried, chained(&[(None, "x", 1)]), 201);
    too_many["items"] = json!(vec![too_many["items"][0].clone(); 201]);
    let reply = app
        .push(
            &cookie,
            vec![
                mutation("statementQuery.put", bad),
                mutation("statementQuery.put", changed),
                mutation("statementQuery.put", too_many),
                mutation(
                    "statementQuery.put",
                    json!({"id": id(), "statementCheckId": queried}),
                ),
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["rejected"; 4], "{}", reply.text);
    assert_eq!(codes(&reply), vec![json!("validation"); 4]);
    let fields = reply.body["results"][0]["fields"].as_object().unwrap();
    let mut named: Vec<&str> = fields.keys().map(String::as_str).collect();
    named.sort_unstable();
    assert_eq!(
        named,
        [
            "closedOn",
            "itemsVersion",
            "madeOn",
            "note",
            "paidBackAmount",
            "paidBackOn",
            "total"
        ],
        "{}",
        reply.text
    );
    assert_eq!(
        reply.body["results"][1]["fields"]["items"][0],
        "Item 2: its hash is not the chain's: the item changed after it was hashed"
    );
    assert!(
        reply.body["results"][2]["message"]
            .as_str()
            .unwrap()
            .contains("1 to 200")
    );
    assert!(pulled(&app, &cookie, "statementQuery").await.is_empty());
}

async fn another_accounts_queries_and_checks_are_not_theirs(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (owner, _) = app.sign_up("query-owner@example.com", "van-route-42").await;
    let (other, _) = app.sign_up("query-other@example.com", "van-route-42").await;
    let (owners_check, others_check, query_id) = (id(), id(), id());
    let items = chained(&[(Some("2026-03-02"), "3 stops", 450)]);
    let reply = app
        .push(
            &owner,
            vec![
                check(&owners_check, "2026-03-02"),
                mutation(
                    "statementQuery.put",
                    query(&query_id, &owners_check, items.clone(), 450),
                ),
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"; 2]);
    let mut paid_back_elsewhere = query(&id(), &others_check, items.clone(), 450);
    paid_back_elsewhere["paidBackAmount"] = json!(450);
    paid_back_elsewhere["paidBackOn"] = json!("2026-04-01");
    paid_back_elsewhere["paidBackCheckId"] = json!(owners_check);
    let reply = app
        .push(
            &other,
            vec![
                check(&others_check, "2026-03-02"),
                mutation(
                    "statementQuery.put",
                    query(&query_id, &others_check, items.clone(), 450),
                ),
                mutation(
                    "statementQuery.put",
                    query(&id(), &owners_check, items.clone(), 450),
                ),
                mutation("statementQuery.put", paid_back_elsewhere),
                mutation("statementQuery.delete", json!({"id": query_id})),
            ],
        )
        .await;
    assert_eq!(
        codes(&reply),
        [
            Value::Null,
            json!("not-owner"),
            json!("not-owner"),
            json!("not-owner"),
            json!("not-owner")
        ],
        "{}",
        reply.text
    );
    assert!(pulled(&app, &other, "statementQuery").await.is_empty());
    assert_eq!(pulled(&app, &owner, "statementQuery").await.len(), 1);
}

async fn the_query_reminder_setting_is_14_until_set_and_bounded(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("query-days@example.com", "van-route-42").await;
    let days = async || {
        let settings = pulled(&app, &cookie, "settings").await;
        settings.last().expect("settings")["data"]["queryReminderDays"].clone()
    };
    let reply = app
        .push(
            &cookie,
            vec![mutation("settings.put", json!({"theme": "light"}))],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"]);
    assert_eq!(days().await, json!(14), "the default");
    let reply = app
        .push(
            &cookie,
            vec![
                mutation("settings.put", json!({"queryReminderDays": 0})),
                mutation("settings.put", json!({"queryReminderDays": 91})),
                mutation("settings.put", json!({"queryReminderDays": 30})),
                mutation("settings.put", json!({"theme": "dark"})),
            ],
        )
        .await;
    assert_eq!(
        statuses(&reply),
        ["rejected", "rejected", "applied", "applied"]
    );
    assert_eq!(codes(&reply)[0], "validation");
    assert_eq!(days().await, json!(30), "a theme put keeps it");
}

on_both_backends!(
    a_query_is_made_tracked_and_deleted_with_its_items_frozen,
    a_bad_query_names_every_problem_and_a_changed_item_breaks_the_chain,
    another_accounts_queries_and_checks_are_not_theirs,
    the_query_reminder_setting_is_14_until_set_and_bounded,
);

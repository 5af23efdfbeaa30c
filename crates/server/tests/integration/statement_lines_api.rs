//! Statement lines and statement formats (issue 28) over HTTP, on SQLite and PostgreSQL: put,
//! re-import (the same ids again add nothing), delete, every bad field named, references to
//! the statement check and courier (missing and another account's), and the records quota.

use crate::common;

use common::{Backend, TestApp, spawn_app, spawn_app_with};
use reqwest::StatusCode;
use serde_json::{Value, json};
use uuid::Uuid;

/// Every account starts with its default courier and first card.
const S: i64 = domain::defaults::STARTER_RECORDS;

fn new_id() -> String {
    Uuid::now_v7().to_string()
}

fn mutation(name: &str, args: Value) -> Value {
    json!({"id": new_id(), "name": name, "args": args})
}

async fn user_id(app: &TestApp, cookie: &str) -> String {
    app.get("/api/v1/auth/session", Some(cookie)).await.body["user"]["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Each result's status, or its refusal code.
fn codes(reply: &common::Reply) -> Vec<String> {
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap_or("applied").to_owned())
        .collect()
}

async fn pull_all(app: &TestApp, cookie: &str) -> Vec<Value> {
    let reply = app
        .get(
            &format!("/api/v1/sync/pull?cursor={S}&limit=1000"),
            Some(cookie),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["hasMore"], false);
    reply.body["changes"].as_array().unwrap().clone()
}

fn check_args(id: &str, courier: &str) -> Value {
    json!({"id": id, "periodStart": "2025-03-17", "periodEnd": "2025-03-23", "paid": 81_000,
           "reference": "W12", "courierId": courier})
}

fn line_args(id: &str, check: &str, courier: &str, key: &str) -> Value {
    json!({"id": id, "invoiceId": check, "courierId": courier, "lineKey": key,
           "date": "2025-03-18", "lineType": "parcel", "band": "small", "quantity": 3,
           "rate": 45, "amount": 135, "reference": " EV123 "})
}

fn format_args(id: &str, courier: &str) -> Value {
    json!({"id": id, "courierId": courier, "source": "csv", "dateColumn": "Date",
           "dateOrder": "dayMonthYear", "amountColumn": "Amount", "typeColumn": "Service",
           "bandColumn": null, "quantityColumn": "Qty", "rateColumn": null,
           "referenceColumn": "Barcode", "defaultType": "parcel", "deductionsPositive": true,
           "typeWords": [{"word": " Van hire ", "lineType": "deduction", "band": null}]})
}

/// The pulled `data` without its timestamps.
fn content(change: &Value) -> Value {
    let mut data = change["data"].clone();
    let object = data.as_object_mut().unwrap();
    assert!(object.remove("createdAt").is_some() && object.remove("updatedAt").is_some());
    data
}

/// A line and a format are stored and pulled as the contract says; the same line pushed
/// again (a second import of the same file, on this device or another) is the same record;
/// a delete leaves a tombstone.
async fn lines_and_formats_put_reimport_and_delete(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("lines@example.com", "van-route-42").await;
    let me = user_id(&app, &cookie).await;
    let (check, line, format) = (new_id(), new_id(), new_id());
    let first_import = vec![
        mutation("invoice.put", check_args(&check, &me)),
        mutation(
            "statementLine.put",
            line_args(&line, &check, &me, "csv:3f2a:0"),
        ),
        mutation("statementFormat.put", format_args(&format, &me)),
    ];
    assert_eq!(
        codes(&app.push(&cookie, first_import).await),
        ["applied"; 3]
    );
    let stored = pull_all(&app, &cookie).await;
    assert_eq!(stored.len(), 3);
    assert_eq!(
        (&stored[1]["kind"], &stored[1]["id"]),
        (&json!("statementLine"), &json!(line))
    );
    assert_eq!(
        content(&stored[1]),
        json!({"invoiceId": check, "courierId": me, "lineKey": "csv:3f2a:0",
               "date": "2025-03-18", "lineType": "parcel", "band": "small", "quantity": 3,
               "rate": 45, "amount": 135, "reference": "EV123"})
    );
    let mut want_format = format_args(&format, &me);
    want_format.as_object_mut().unwrap().remove("id");
    want_format["typeWords"][0]["word"] = json!("Van hire");
    assert_eq!(content(&stored[2]), want_format);
    let typed: Vec<domain::sync::Change> = serde_json::from_value(json!(stored)).unwrap();
    assert!(matches!(
        typed[1].data,
        Some(domain::sync::ChangeData::StatementLine(_))
    ));
    assert!(matches!(
        typed[2].data,
        Some(domain::sync::ChangeData::StatementFormat(_))
    ));

    let again = vec![mutation(
        "statementLine.put",
        line_args(&line, &check, &me, "csv:3f2a:0"),
    )];
    assert_eq!(codes(&app.push(&cookie, again).await), ["applied"]);
    let after = pull_all(&app, &cookie).await;
    let lines: Vec<&Value> = after
        .iter()
        .filter(|c| c["kind"] == "statementLine")
        .collect();
    assert_eq!(lines.len(), 1, "the same line is one record: {after:?}");
    assert_eq!(content(lines[0]), content(&stored[1]), "and unchanged");

    let deletes = vec![
        mutation("statementLine.delete", json!({"id": line})),
        mutation("statementFormat.delete", json!({"id": format})),
    ];
    assert_eq!(codes(&app.push(&cookie, deletes).await), ["applied"; 2]);
    let gone = pull_all(&app, &cookie).await;
    let tombstones: Vec<(&Value, &Value)> = gone
        .iter()
        .filter(|c| c["deleted"] == true)
        .map(|c| (&c["kind"], &c["id"]))
        .collect();
    assert_eq!(
        tombstones,
        [
            (&json!("statementLine"), &json!(line)),
            (&json!("statementFormat"), &json!(format))
        ]
    );
}

/// A bad line or format is refused as `validation` naming every problem at once, and an
/// unknown field is refused too; nothing is written.
async fn bad_lines_and_formats_name_every_problem(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("bad-lines@example.com", "van-route-42").await;
    let me = user_id(&app, &cookie).await;
    let check = new_id();
    assert_eq!(
        codes(
            &app.push(
                &cookie,
                vec![mutation("invoice.put", check_args(&check, &me))]
            )
            .await
        ),
        ["applied"]
    );
    let mut line = line_args(&new_id(), &check, &me, "Not A Key");
    line["lineType"] = json!("stop");
    line["quantity"] = json!(-1);
    line["rate"] = json!(100_001);
    line["date"] = json!("18/03/2025");
    let mut deduction = line_args(&new_id(), &check, &me, "typed:1");
    deduction["lineType"] = json!("deduction");
    deduction["band"] = Value::Null;
    deduction["amount"] = json!(2_500);
    let mut extra = line_args(&new_id(), &check, &me, "typed:2");
    extra["paidBy"] = json!("cash");
    let mut format = format_args(&new_id(), &me);
    format["source"] = json!("xls");
    format["dateColumn"] = json!("");
    format["typeWords"] = json!([{"word": "Drop", "lineType": "stop", "band": "large"}]);
    let reply = app
        .push(
            &cookie,
            vec![
                mutation("statementLine.put", line),
                mutation("statementLine.put", deduction),
                mutation("statementLine.put", extra),
                mutation("statementFormat.put", format),
            ],
        )
        .await;
    assert_eq!(codes(&reply), ["validation"; 4]);
    let fields = |index: usize| -> Vec<String> {
        let mut names: Vec<String> = reply.body["results"][index]["fields"]
            .as_object()
            .map(|f| f.keys().cloned().collect())
            .unwrap_or_default();
        names.sort();
        names
    };
    assert_eq!(fields(0), ["band", "date", "lineKey", "quantity", "rate"]);
    assert_eq!(fields(1), ["amount"]);
    assert_eq!(fields(3), ["dateColumn", "source", "typeWords"]);
    assert_eq!(pull_all(&app, &cookie).await.len(), 1, "only the check");
}

/// A line must point at a statement check and courier of its own account: another account's
/// is `not-owner`, one that does not exist is `missing-reference`; so must a format's courier.
async fn lines_point_only_at_their_own_accounts_records(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (alice, _) = app.sign_up("alice-lines@example.com", "van-route-42").await;
    let (mallory, _) = app
        .sign_up("mallory-lines@example.com", "van-route-42")
        .await;
    let (alice_id, mallory_id) = (user_id(&app, &alice).await, user_id(&app, &mallory).await);
    let (alices_check, alices_line, mallorys_check) = (new_id(), new_id(), new_id());
    let reply = app
        .push(
            &alice,
            vec![
                mutation("invoice.put", check_args(&alices_check, &alice_id)),
                mutation(
                    "statementLine.put",
                    line_args(&alices_line, &alices_check, &alice_id, "typed:1"),
                ),
            ],
        )
        .await;
    assert_eq!(codes(&reply), ["applied"; 2]);
    let before = pull_all(&app, &alice).await;
    let attempts = vec![
        mutation("invoice.put", check_args(&mallorys_check, &mallory_id)),
        mutation(
            "statementLine.put",
            line_args(&new_id(), &alices_check, &mallory_id, "typed:2"),
        ),
        mutation(
            "statementLine.put",
            line_args(&new_id(), &mallorys_check, &alice_id, "typed:3"),
        ),
        mutation(
            "statementLine.put",
            line_args(&alices_line, &mallorys_check, &mallory_id, "typed:1"),
        ),
        mutation("statementLine.delete", json!({"id": alices_line})),
        mutation("statementFormat.put", format_args(&new_id(), &alice_id)),
        mutation(
            "statementLine.put",
            line_args(&new_id(), &new_id(), &mallory_id, "typed:4"),
        ),
    ];
    let reply = app.push(&mallory, attempts).await;
    assert_eq!(
        codes(&reply),
        [
            "applied",
            "not-owner",
            "not-owner",
            "not-owner",
            "not-owner",
            "not-owner",
            "missing-reference"
        ]
    );
    assert_eq!(
        pull_all(&app, &alice).await,
        before,
        "alice's records did not move"
    );
}

/// Lines count in the records quota like any record: past it a new line is refused on its
/// own, while a re-import of a line already stored still applies.
async fn lines_count_in_the_records_quota(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| {
        c.quotas.max_records_per_user = 3 + u32::try_from(S).unwrap();
    })
    .await
    else {
        return;
    };
    let (cookie, _) = app.sign_up("full-lines@example.com", "van-route-42").await;
    let me = user_id(&app, &cookie).await;
    let check = new_id();
    let ids: Vec<String> = (0..3).map(|_| new_id()).collect();
    let mut push = vec![mutation("invoice.put", check_args(&check, &me))];
    for (n, id) in ids.iter().enumerate() {
        push.push(mutation(
            "statementLine.put",
            line_args(id, &check, &me, &format!("csv:{n}")),
        ));
    }
    push.push(mutation(
        "statementLine.put",
        line_args(&ids[0], &check, &me, "csv:0"),
    ));
    assert_eq!(
        codes(&app.push(&cookie, push).await),
        ["applied", "applied", "applied", "quota-exceeded", "applied"]
    );
}

on_both_backends!(
    lines_and_formats_put_reimport_and_delete,
    bad_lines_and_formats_name_every_problem,
    lines_point_only_at_their_own_accounts_records,
    lines_count_in_the_records_quota,
);

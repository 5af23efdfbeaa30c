//! The evidence bundle the server builds (GET /api/v1/evidence-bundle, issue 28), on SQLite and
//! PostgreSQL: for the owner a ZIP whose manifest lists every file with the SHA-256 of its bytes
//! (the photo's are the stored photo's), the query's chain checked, the item's times; another
//! account's query is not found; bad input is refused with a clear 4xx. The ZIP is read back
//! here from the central directory, apart from the server's writer.

use crate::common;

use common::{
    Backend, TestApp,
    pictures::{fetch, file, gradient, jpeg, send_parts},
    spawn_app, spawn_app_with,
};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use uuid::Uuid;

fn id() -> String {
    Uuid::now_v7().to_string()
}

fn mutation(name: &str, args: Value) -> Value {
    json!({"id": id(), "name": name, "args": args})
}

fn sha256(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

fn u16_at(bytes: &[u8], at: usize) -> usize {
    usize::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]))
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The archive's entries, from its end record and central directory; each local header must
/// agree and each entry's CRC-32 match its bytes.
fn read_zip(zip: &[u8]) -> Vec<(String, Vec<u8>)> {
    let end = (0..=zip.len() - 22)
        .rev()
        .find(|&at| u32_at(zip, at) == 0x0605_4b50)
        .expect("end of central directory");
    let count = u16_at(zip, end + 10);
    let mut at = usize::try_from(u32_at(zip, end + 16)).unwrap();
    let mut entries = Vec::new();
    for _ in 0..count {
        assert_eq!(u32_at(zip, at), 0x0201_4b50, "central header");
        let flags = u16_at(zip, at + 8);
        assert_eq!(flags & 0x800, 0x800, "UTF-8 names");
        assert_eq!(u16_at(zip, at + 10), 0, "stored");
        let crc = u32_at(zip, at + 16);
        let size = usize::try_from(u32_at(zip, at + 24)).unwrap();
        let name_len = u16_at(zip, at + 28);
        let skip = name_len + u16_at(zip, at + 30) + u16_at(zip, at + 32);
        let offset = usize::try_from(u32_at(zip, at + 42)).unwrap();
        let name = String::from_utf8(zip[at + 46..at + 46 + name_len].to_vec()).unwrap();
        at += 46 + skip;
        assert_eq!(u32_at(zip, offset), 0x0403_4b50, "{name}: local header");
        assert_eq!(u32_at(zip, offset + 14), crc, "{name}: local CRC");
        let data = offset + 30 + u16_at(zip, offset + 26) + u16_at(zip, offset + 28);
        let bytes = zip[data..data + size].to_vec();
        assert_eq!(crc32fast::hash(&bytes), crc, "{name}: CRC-32 of its bytes");
        entries.push((name, bytes));
    }
    entries
}

/// A statement check, a query of one difference (its chain made as the device makes it), a
/// photo of proof of delivery and a waiting time kept on the query; the photo uploaded.
async fn a_query_with_a_photo(app: &TestApp, cookie: &str) -> (String, String, Vec<u8>) {
    let (check_id, query_id, photo_id) = (id(), id(), id());
    let canonical = r#"{"date":"2026-03-02","kind":"fewerStops","words":"3 stops logged but not paid","logged":"121 stops","paid":"118 stops","cardRate":150,"amount":350}"#;
    let hash = sha256(format!("{}{canonical}", "0".repeat(64)).as_bytes());
    let item = json!({"date": "2026-03-02", "kind": "fewerStops", "words": "3 stops logged but not paid",
                      "logged": "121 stops", "paid": "118 stops", "cardRate": 150, "amount": 350, "hash": hash});
    let evidence = |photo: Option<&str>, minutes: Option<u16>| {
        json!({"id": id(), "entryId": null, "statementLineId": null, "statementQueryId": query_id,
               "type": if photo.is_some() { "photo" } else { "waiting" },
               "recordedAt": if photo.is_some() { "2026-03-20T10:15:00.000Z" } else { "2026-03-20T09:00:00.000Z" },
               "text": "", "photoId": photo, "purpose": photo.map(|_| "proofOfDelivery"),
               "minutes": minutes, "place": "", "fromWhom": ""})
    };
    let reply = app
        .push(
            cookie,
            vec![
                mutation(
                    "invoice.put",
                    json!({"id": check_id, "periodStart": "2026-03-02", "periodEnd": "2026-03-08",
                           "paid": 10_000, "stops": 60, "reference": "S-1"}),
                ),
                mutation(
                    "statementQuery.put",
                    json!({"id": query_id, "statementCheckId": check_id, "madeOn": "2026-03-20",
                           "itemsVersion": 2, "items": [item], "total": 350, "sentOn": null,
                           "answeredOn": null, "paidBackAmount": null, "paidBackOn": null,
                           "paidBackCheckId": null, "closedOn": null, "note": ""}),
                ),
                mutation("evidence.put", evidence(Some(&photo_id), None)),
                mutation("evidence.put", evidence(None, Some(55))),
            ],
        )
        .await;
    let statuses: Vec<&str> = reply.body["results"]
        .as_array()
        .unwrap_or_else(|| panic!("{}", reply.text))
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["applied"; 4], "{}", reply.text);
    let uploaded = send_parts(
        app,
        Method::PUT,
        &format!("/api/v1/receipts/{photo_id}"),
        Some(cookie),
        &[file(&jpeg(&gradient(320, 200)))],
    )
    .await;
    assert_eq!(uploaded.status, StatusCode::CREATED, "{}", uploaded.text);
    let stored = fetch(app, &format!("/api/v1/receipts/{photo_id}"), Some(cookie)).await;
    assert_eq!(stored.status, StatusCode::OK);
    (query_id, photo_id, stored.bytes)
}

/// Checks every file the manifest lists against the archive and returns the manifest.
fn checked_manifest(entries: &[(String, Vec<u8>)]) -> Value {
    let manifest: Value = serde_json::from_slice(
        &entries
            .iter()
            .find(|(name, _)| name == "manifest.json")
            .expect("manifest.json")
            .1,
    )
    .unwrap();
    let files = manifest["files"].as_array().unwrap();
    assert_eq!(
        files.len() + 2,
        entries.len(),
        "every file but the manifests is listed"
    );
    for listed in files {
        let name = listed["name"].as_str().unwrap();
        let (_, bytes) = entries.iter().find(|(n, _)| n == name).expect(name);
        assert_eq!(listed["sha256"], sha256(bytes), "{name}");
        assert_eq!(listed["bytes"], bytes.len(), "{name}");
    }
    manifest
}

async fn the_owner_gets_a_bundle_whose_manifest_hashes_match_its_files(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("bundle@example.com", "van-route-42").await;
    let (query_id, photo_id, photo) = a_query_with_a_photo(&app, &cookie).await;

    let got = fetch(
        &app,
        &format!("/api/v1/evidence-bundle?queryId={query_id}"),
        Some(&cookie),
    )
    .await;
    assert_eq!(
        got.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&got.bytes)
    );
    assert_eq!(got.headers["content-type"], "application/zip");
    assert_eq!(
        got.headers["content-disposition"],
        "attachment; filename=\"evidence-query-2026-03-20.zip\""
    );
    let entries = read_zip(&got.bytes);
    let photo_name = format!("photos/2026-03-20-proof-of-delivery-{photo_id}.jpg");
    let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "summary.html",
            photo_name.as_str(),
            "manifest.json",
            "manifest.txt"
        ]
    );
    assert_eq!(entries[1].1, photo, "the stored photo, byte for byte");

    let manifest = checked_manifest(&entries);
    assert_eq!(manifest["format"], "delivery-tracker-evidence-bundle");
    assert_eq!(manifest["builtBy"], "server");
    assert_eq!(manifest["scope"], json!({"queryId": query_id}));
    assert_eq!(manifest["query"]["total"], 350);
    assert_eq!(manifest["query"]["chain"]["holds"], true);
    assert_eq!(
        manifest["files"][1]["recordedAt"],
        "2026-03-20T10:15:00.000Z"
    );
    assert!(
        manifest["files"][1]["createdAt"]
            .as_str()
            .unwrap()
            .ends_with('Z')
    );
    let words: Vec<&str> = manifest["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["words"].as_str().unwrap())
        .collect();
    assert_eq!(
        words,
        ["Waiting time: 55 minutes", "Photo (proof of delivery)"]
    );

    let summary = String::from_utf8(entries[0].1.clone()).unwrap();
    for said in [
        "This is the driver's own record, kept at the time on their device.",
        "Query about the statement for 02/03/2026 to 08/03/2026",
        "reference S-1",
        "Mon 02/03/2026",
        "3 stops logged but not paid",
        "Total owed to me: £3.50",
        "Card’s rate: £1.50",
        "Chain checked: every item is as recorded",
        &format!("<img src=\"{photo_name}\""),
    ] {
        assert!(summary.contains(said), "summary says {said:?}:\n{summary}");
    }
    let text = String::from_utf8(entries[3].1.clone()).unwrap();
    assert!(
        text.contains(&format!("SHA-256 {}", sha256(&photo))),
        "{text}"
    );

    // The range holds the query's day's items too.
    let range = fetch(
        &app,
        "/api/v1/evidence-bundle?from=2026-03-01&to=2026-03-31",
        Some(&cookie),
    )
    .await;
    assert_eq!(range.status, StatusCode::OK);
    assert_eq!(
        range.headers["content-disposition"],
        "attachment; filename=\"evidence-2026-03-01-to-2026-03-31.zip\""
    );
    let entries = read_zip(&range.bytes);
    let manifest = checked_manifest(&entries);
    assert_eq!(manifest["items"].as_array().unwrap().len(), 2);
    assert_eq!(manifest["query"], Value::Null);
    let outside = fetch(
        &app,
        "/api/v1/evidence-bundle?from=2026-04-01&to=2026-04-30",
        Some(&cookie),
    )
    .await;
    let manifest = checked_manifest(&read_zip(&outside.bytes));
    assert_eq!(manifest["items"], json!([]));
    assert_eq!(
        manifest["files"].as_array().unwrap().len(),
        1,
        "the summary alone"
    );
}

async fn another_account_and_bad_input_are_refused(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app
        .sign_up("bundle-owner@example.com", "van-route-42")
        .await;
    let (mallory, _) = app
        .sign_up("bundle-mallory@example.com", "van-route-42")
        .await;
    let (query_id, _, _) = a_query_with_a_photo(&app, &cookie).await;

    let theirs = app
        .get(
            &format!("/api/v1/evidence-bundle?queryId={query_id}"),
            Some(&mallory),
        )
        .await;
    assert_eq!(theirs.status, StatusCode::NOT_FOUND, "{}", theirs.text);
    assert_eq!(theirs.error_code(), "not-found");
    let anonymous = app
        .get(&format!("/api/v1/evidence-bundle?queryId={query_id}"), None)
        .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    // Another account's range holds nothing of the owner's.
    let range = fetch(
        &app,
        "/api/v1/evidence-bundle?from=2026-03-01&to=2026-03-31",
        Some(&mallory),
    )
    .await;
    assert_eq!(range.status, StatusCode::OK);
    assert_eq!(
        checked_manifest(&read_zip(&range.bytes))["items"],
        json!([])
    );

    for (query, status, code, message) in [
        (
            "",
            StatusCode::BAD_REQUEST,
            "bad-request",
            "Ask for a statement query",
        ),
        (
            "?from=2026-03-01",
            StatusCode::BAD_REQUEST,
            "bad-request",
            "Ask for a statement query",
        ),
        (
            &*format!("?queryId={query_id}&from=2026-03-01&to=2026-03-02"),
            StatusCode::BAD_REQUEST,
            "bad-request",
            "not both",
        ),
        (
            "?queryId=not-a-query",
            StatusCode::NOT_FOUND,
            "not-found",
            "Not found",
        ),
        (
            &*format!("?queryId={}", id()),
            StatusCode::NOT_FOUND,
            "not-found",
            "Not found",
        ),
        (
            "?from=2026-13-01&to=2026-12-31",
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation",
            "YYYY-MM-DD",
        ),
        (
            "?from=2026-03-01&to=31/03/2026",
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation",
            "YYYY-MM-DD",
        ),
        (
            "?from=2026-03-31&to=2026-03-01",
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation",
            "ends before it starts",
        ),
        (
            "?from=2025-01-01&to=2026-03-01",
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation",
            "at most 366 days",
        ),
    ] {
        let reply = app
            .get(&format!("/api/v1/evidence-bundle{query}"), Some(&cookie))
            .await;
        assert_eq!(reply.status, status, "{query}: {}", reply.text);
        assert_eq!(reply.error_code(), code, "{query}");
        assert!(reply.text.contains(message), "{query}: {}", reply.text);
    }
    // A year and a day is the longest range.
    let longest = fetch(
        &app,
        "/api/v1/evidence-bundle?from=2025-04-06&to=2026-04-06",
        Some(&cookie),
    )
    .await;
    assert_eq!(longest.status, StatusCode::OK);
}

/// A bundle reads the whole account and may hold its photos in memory: it counts as an upload,
/// so past UPLOADS_PER_USER_PER_MINUTE a user's bundles are refused with 429; others are not.
async fn bundles_past_the_upload_rate_get_429(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |config| {
        config.uploads.uploads_per_user_per_minute = 2;
    })
    .await
    else {
        return;
    };
    let (cookie, _) = app.sign_up("bundle-rate@example.com", "van-route-42").await;
    let (other, _) = app
        .sign_up("bundle-other@example.com", "van-route-42")
        .await;
    let range = "/api/v1/evidence-bundle?from=2026-03-01&to=2026-03-31";
    for _ in 0..2 {
        assert_eq!(
            fetch(&app, range, Some(&cookie)).await.status,
            StatusCode::OK
        );
    }
    let refused = app.get(range, Some(&cookie)).await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.text
    );
    assert_eq!(refused.error_code(), "rate-limited");
    assert_eq!(
        fetch(&app, range, Some(&other)).await.status,
        StatusCode::OK
    );
}

on_both_backends!(
    the_owner_gets_a_bundle_whose_manifest_hashes_match_its_files,
    another_account_and_bad_input_are_refused,
    bundles_past_the_upload_rate_get_429,
);

//! Receipt photos over HTTP, on SQLite and PostgreSQL: idempotent upload by the device's id
//! (a resend stores nothing), the picture pipeline at 2,048 px, owner-only reads, the bad-input
//! refusals, the per-user byte quota checked with the insert (also under concurrent uploads),
//! delete, and the housekeeping sweeps (orphans after a week, a deleted guest's receipts).

use crate::common;

use common::{
    Backend, Reply, TestApp,
    pictures::{
        assert_refused, decode_jpeg, fetch, file, files_under, gradient, jpeg, noise, png,
        png_of_exactly, send_parts,
    },
    spawn_app, spawn_app_with,
};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use server::{config::Config, files::FileStore, housekeeping};
use uuid::Uuid;

const MAX_BYTES: usize = 2_097_152;
const DAY_MS: i64 = 86_400_000;

fn receipt_path(id: &str) -> String {
    format!("/api/v1/receipts/{id}")
}

async fn put_receipt(app: &TestApp, cookie: &str, id: &str, data: &[u8]) -> Reply {
    send_parts(
        app,
        Method::PUT,
        &receipt_path(id),
        Some(cookie),
        &[file(data)],
    )
    .await
}

/// Uploads a photo that must be stored now; returns the answer's `bytes`.
async fn put_new(app: &TestApp, cookie: &str, id: &str, data: &[u8]) -> i64 {
    let reply = put_receipt(app, cookie, id, data).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    assert_eq!(reply.body["id"], id);
    reply.body["bytes"].as_i64().expect("bytes")
}

async fn delete_receipt(app: &TestApp, cookie: &str, id: &str) -> Reply {
    app.request(Method::DELETE, &receipt_path(id), None, Some(cookie))
        .await
}

fn new_id() -> String {
    Uuid::now_v7().to_string()
}

/// The receipt objects stored for `user_id` in the local file store, as `receipt_{id}` (each
/// upload's object also carries its version, `receipt_{id}_{version}`).
fn stored_receipts(app: &TestApp, user_id: &str) -> Vec<String> {
    let mut names: Vec<String> = receipt_files(app, user_id)
        .iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_str().unwrap();
            name[.."receipt_".len() + 36].to_owned()
        })
        .collect();
    names.sort();
    names
}

fn receipt_files(app: &TestApp, user_id: &str) -> Vec<std::path::PathBuf> {
    let dir = app.data_dir().join("files/users").join(user_id);
    if !dir.exists() {
        return Vec::new();
    }
    files_under(&dir)
        .into_iter()
        .filter(|path| {
            path.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("receipt_")
        })
        .collect()
}

async fn bytes_held(app: &TestApp, user_id: &str) -> i64 {
    app.store
        .receipt_bytes(Uuid::parse_str(user_id).unwrap())
        .await
        .unwrap()
}

fn id_of(user: &Value) -> String {
    user["id"].as_str().unwrap().to_owned()
}

/// JPEG and PNG receipts are stored once as JPEG at most 2,048 px on their long side, and
/// served to their owner; a resend of the same id answers 200 with what was stored and stores
/// nothing new; another account can neither read, replace nor delete one.
async fn receipts_upload_once_and_are_served_to_their_owner_only(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, user) = app.sign_up("receipts@example.com", "van-route-42").await;
    let (mallory, mallory_user) = app
        .sign_up("mallory-receipts@example.com", "van-route-42")
        .await;
    let me = id_of(&user);
    let (from_jpeg, from_png) = (new_id(), new_id());

    let first = put_receipt(&app, &cookie, &from_jpeg, &jpeg(&gradient(3_000, 1_500))).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    let bytes = first.body["bytes"].as_i64().unwrap();
    assert_eq!(first.body["id"], from_jpeg.as_str());
    assert!(first.body["createdAt"].as_str().unwrap().ends_with('Z'));
    let served = fetch(&app, &receipt_path(&from_jpeg), Some(&cookie)).await;
    assert_eq!(served.status, StatusCode::OK);
    assert_eq!(served.headers["content-type"], "image/jpeg");
    assert_eq!(served.headers["cache-control"], "private, no-cache");
    // The answer's URL names this photo: cacheable for good.
    let url = first.body["url"].as_str().unwrap();
    assert!(
        url.starts_with(&format!("{}?v=", receipt_path(&from_jpeg))),
        "{url}"
    );
    let versioned = fetch(&app, url, Some(&cookie)).await;
    assert_eq!(
        versioned.headers["cache-control"],
        "private, max-age=31536000, immutable"
    );
    assert_eq!(versioned.bytes, served.bytes);
    assert_eq!(versioned.headers["etag"], served.headers["etag"]);
    assert_eq!(served.headers["x-content-type-options"], "nosniff");
    assert_eq!(i64::try_from(served.bytes.len()).unwrap(), bytes);
    let picture = decode_jpeg(&served.bytes);
    assert_eq!((picture.width(), picture.height()), (2_048, 1_024));

    // A resend (the device never saw the answer): the same answer, nothing stored again.
    let again = put_receipt(&app, &cookie, &from_jpeg, &png(&noise(64, 64))).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(again.body, first.body);
    assert_eq!(
        fetch(&app, &receipt_path(&from_jpeg), Some(&cookie))
            .await
            .bytes,
        served.bytes
    );
    let small = put_new(&app, &cookie, &from_png, &png(&gradient(600, 800))).await;
    let picture = decode_jpeg(
        &fetch(&app, &receipt_path(&from_png), Some(&cookie))
            .await
            .bytes,
    );
    assert_eq!((picture.width(), picture.height()), (600, 800));
    assert_eq!(
        stored_receipts(&app, &me),
        {
            let mut names = vec![
                format!("receipt_{from_jpeg}"),
                format!("receipt_{from_png}"),
            ];
            names.sort();
            names
        },
        "one object per receipt"
    );
    assert_eq!(bytes_held(&app, &me).await, bytes + small);

    // Another account: every route says not found, and nothing of the owner's moves.
    let theirs = id_of(&mallory_user);
    assert_refused(
        &put_receipt(&app, &mallory, &from_jpeg, &jpeg(&gradient(64, 64))).await,
        StatusCode::NOT_FOUND,
        "not-found",
        "another account's PUT",
    );
    let read = fetch(&app, &receipt_path(&from_jpeg), Some(&mallory)).await;
    assert_eq!(
        (read.status, read.json()["error"]["code"].clone()),
        (StatusCode::NOT_FOUND, json!("not-found"))
    );
    assert_refused(
        &delete_receipt(&app, &mallory, &from_jpeg).await,
        StatusCode::NOT_FOUND,
        "not-found",
        "another account's DELETE",
    );
    assert!(stored_receipts(&app, &theirs).is_empty());
    assert_eq!(bytes_held(&app, &theirs).await, 0);
    assert_eq!(
        fetch(&app, &receipt_path(&from_jpeg), Some(&cookie))
            .await
            .bytes,
        served.bytes
    );

    // Only a canonical id names a receipt; only a signed-in user has any.
    for bad in [
        from_jpeg.to_uppercase(),
        from_jpeg.replace('-', ""),
        "..%2Fprofile_1".to_owned(),
        "receipt.jpg".to_owned(),
    ] {
        let reply = put_receipt(&app, &cookie, &bad, &jpeg(&gradient(64, 64))).await;
        assert_refused(&reply, StatusCode::NOT_FOUND, "not-found", &bad);
        let read = fetch(&app, &receipt_path(&bad), Some(&cookie)).await;
        assert_eq!(read.status, StatusCode::NOT_FOUND, "{bad}");
    }
    let anonymous = fetch(&app, &receipt_path(&from_jpeg), None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let reply = send_parts(
        &app,
        Method::PUT,
        &receipt_path(&new_id()),
        None,
        &[file(&jpeg(&gradient(64, 64)))],
    )
    .await;
    assert_refused(
        &reply,
        StatusCode::UNAUTHORIZED,
        "unauthenticated",
        "signed out",
    );
    assert_eq!(stored_receipts(&app, &me).len(), 2);
}

/// What is not a picture, too big, or not a form is refused in the picture routes' words,
/// and nothing is stored or counted.
async fn bad_receipts_are_refused_and_nothing_is_stored(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, user) = app
        .sign_up("bad-receipts@example.com", "van-route-42")
        .await;
    let me = id_of(&user);
    let id = new_id();
    for (what, data) in [
        ("text", b"Shell, 45.99".to_vec()),
        ("a GIF", b"GIF89a\x01\x00\x01\x00".to_vec()),
        ("a cut-off JPEG", {
            let whole = jpeg(&gradient(200, 200));
            whole[..whole.len() / 2].to_vec()
        }),
    ] {
        assert_refused(
            &put_receipt(&app, &cookie, &id, &data).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-image",
            what,
        );
    }
    let over = put_receipt(&app, &cookie, &id, &png_of_exactly(MAX_BYTES + 1)).await;
    assert_refused(
        &over,
        StatusCode::PAYLOAD_TOO_LARGE,
        "file-too-large",
        "2 MiB + 1",
    );
    assert_eq!(over.headers["connection"], "close");
    let no_file = send_parts(
        &app,
        Method::PUT,
        &receipt_path(&id),
        Some(&cookie),
        &[common::pictures::Part {
            name: "photo",
            filename: Some("receipt.jpg"),
            content_type: Some("image/jpeg"),
            data: &jpeg(&gradient(64, 64)),
        }],
    )
    .await;
    assert_refused(
        &no_file,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation",
        "no file part",
    );
    let not_a_form = app
        .request(
            Method::PUT,
            &receipt_path(&id),
            Some(json!({"file": "x"})),
            Some(&cookie),
        )
        .await;
    assert_refused(
        &not_a_form,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported-media-type",
        "JSON",
    );
    assert!(stored_receipts(&app, &me).is_empty());
    assert_eq!(bytes_held(&app, &me).await, 0);
    // The id was never taken: the real photo is stored under it.
    put_new(&app, &cookie, &id, &png_of_exactly(MAX_BYTES)).await;
    assert_eq!(
        fetch(&app, &receipt_path(&id), Some(&cookie)).await.status,
        StatusCode::OK
    );
}

/// The byte quota: uploads that fit are stored, the one that would pass it is refused with
/// 413 `quota-exceeded` naming the quota and stores nothing; of concurrent uploads that each
/// fit alone, only as many as fit together are stored; a delete frees the space.
async fn the_receipt_quota_holds_under_concurrent_uploads(backend: Backend) {
    const QUOTA: i64 = 2 * 1_048_576;
    let Some(app) = spawn_app_with(backend, |config| {
        config.quotas.max_receipt_bytes_per_user = 2_097_152;
    })
    .await
    else {
        return;
    };
    // A photo that stays large when re-encoded (noise), and how large it is stored.
    let photo = png(&noise(700, 700));
    let (probe, _) = app.sign_up("probe@example.com", "van-route-42").await;
    let size = put_new(&app, &probe, &new_id(), &photo).await;
    let fit = QUOTA / size;
    assert!(
        fit >= 2,
        "a stored photo of {size} bytes fits the quota {fit} times"
    );

    let (cookie, user) = app.sign_up("quota@example.com", "van-route-42").await;
    let me = id_of(&user);
    let mut kept = Vec::new();
    for _ in 0..fit {
        let id = new_id();
        put_new(&app, &cookie, &id, &photo).await;
        kept.push(id);
    }
    let refused_id = new_id();
    let refused = put_receipt(&app, &cookie, &refused_id, &photo).await;
    assert_refused(
        &refused,
        StatusCode::PAYLOAD_TOO_LARGE,
        "quota-exceeded",
        "past the quota",
    );
    assert_eq!(
        refused.body["error"]["message"],
        "Your receipt photos have used your 2 MB of storage. Delete old receipts to add new ones."
    );
    assert_eq!(bytes_held(&app, &me).await, fit * size);
    assert_eq!(stored_receipts(&app, &me).len(), kept.len());
    assert_eq!(
        fetch(&app, &receipt_path(&refused_id), Some(&cookie))
            .await
            .status,
        StatusCode::NOT_FOUND
    );

    // A delete frees one photo's room; four uploads race for it: exactly one is stored.
    let freed = kept.pop().unwrap();
    let reply = delete_receipt(&app, &cookie, &freed).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT, "{}", reply.text);
    let racers: Vec<String> = (0..4).map(|_| new_id()).collect();
    let replies = futures_util::future::join_all(
        racers
            .iter()
            .map(|id| put_receipt(&app, &cookie, id, &photo)),
    )
    .await;
    let created: Vec<&String> = racers
        .iter()
        .zip(&replies)
        .filter(|(_, reply)| reply.status == StatusCode::CREATED)
        .map(|(id, _)| id)
        .collect();
    for reply in &replies {
        assert!(
            reply.status == StatusCode::CREATED || reply.error_code() == "quota-exceeded",
            "{}",
            reply.text
        );
    }
    assert_eq!(created.len(), 1, "exactly one fits");
    kept.push(created[0].clone());
    let mut expected: Vec<String> = kept.iter().map(|id| format!("receipt_{id}")).collect();
    expected.sort();
    assert_eq!(
        stored_receipts(&app, &me),
        expected,
        "nothing refused is kept"
    );
    assert_eq!(bytes_held(&app, &me).await, fit * size);
}

/// DELETE removes the photo and its row (and is 204 when there is none); the id may then be
/// uploaded again.
async fn deleted_receipts_are_gone_and_their_ids_free(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, user) = app
        .sign_up("delete-receipts@example.com", "van-route-42")
        .await;
    let me = id_of(&user);
    let id = new_id();
    put_new(&app, &cookie, &id, &jpeg(&gradient(300, 500))).await;
    for _ in 0..2 {
        let reply = delete_receipt(&app, &cookie, &id).await;
        assert_eq!(reply.status, StatusCode::NO_CONTENT, "{}", reply.text);
    }
    assert_eq!(
        fetch(&app, &receipt_path(&id), Some(&cookie)).await.status,
        StatusCode::NOT_FOUND
    );
    assert!(stored_receipts(&app, &me).is_empty());
    assert_eq!(bytes_held(&app, &me).await, 0);
    let reply = delete_receipt(&app, &cookie, &new_id()).await;
    assert_eq!(
        reply.status,
        StatusCode::NO_CONTENT,
        "absent: {}",
        reply.text
    );
    put_new(&app, &cookie, &id, &jpeg(&gradient(300, 500))).await;
    assert_eq!(stored_receipts(&app, &me), [format!("receipt_{id}")]);
}

/// Issue 31: a tiny and a large picture under one id at the same moment, twenty times. The
/// object was written before the row, under one key for the id, so the loser overwrote the
/// winner's photo and answered "already stored": 11.7 times the quota on disk. Now each upload
/// writes its own object and the loser removes it: what is on disk is what is recorded.
async fn racing_uploads_of_one_id_keep_the_recorded_photo_within_the_quota(backend: Backend) {
    const QUOTA: u64 = 2 * 1_048_576;
    let Some(app) = spawn_app_with(backend, |config| {
        config.quotas.max_receipt_bytes_per_user = QUOTA;
    })
    .await
    else {
        return;
    };
    let (cookie, user) = app.sign_up("race@example.com", "van-route-42").await;
    let me = id_of(&user);
    let (tiny, large) = (png(&gradient(16, 16)), png(&noise(700, 700)));
    for _ in 0..20 {
        let id = new_id();
        let (a, b) = futures_util::join!(
            put_receipt(&app, &cookie, &id, &tiny),
            put_receipt(&app, &cookie, &id, &large)
        );
        for reply in [&a, &b] {
            assert!(
                reply.status.is_success() || reply.error_code() == "quota-exceeded",
                "{}",
                reply.text
            );
        }
        // Whoever won, both answers (and the photo served) are the one recorded.
        let served = fetch(&app, &receipt_path(&id), Some(&cookie)).await;
        if served.status == StatusCode::OK {
            for reply in [&a, &b].into_iter().filter(|r| r.status.is_success()) {
                assert_eq!(
                    reply.body["bytes"].as_u64(),
                    Some(served.bytes.len() as u64)
                );
            }
        }
    }
    let on_disk: u64 = receipt_files(&app, &me)
        .iter()
        .map(|path| std::fs::metadata(path).unwrap().len())
        .sum();
    let recorded = u64::try_from(bytes_held(&app, &me).await).unwrap();
    assert_eq!(on_disk, recorded, "every byte on disk is recorded");
    assert!(
        recorded <= QUOTA,
        "{recorded} bytes against a quota of {QUOTA}"
    );
    let mut rows = stored_receipts(&app, &me);
    rows.dedup();
    assert_eq!(
        rows.len(),
        receipt_files(&app, &me).len(),
        "one object per receipt"
    );
}

/// A receipt deleted and uploaded again under the same id is a new photo: a new version (ETag
/// and URL), and the old URL no longer serves anything.
async fn a_receipt_uploaded_again_gets_a_new_url(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("again@example.com", "van-route-42").await;
    let id = new_id();
    let first = put_receipt(&app, &cookie, &id, &jpeg(&gradient(300, 500))).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    let old_url = first.body["url"].as_str().unwrap().to_owned();
    let old = fetch(&app, &old_url, Some(&cookie)).await;
    assert_eq!(old.status, StatusCode::OK);
    let etag = old.headers["etag"].to_str().unwrap().to_owned();
    let revalidated = app
        .http
        .get(format!("{}{}", app.base, receipt_path(&id)))
        .header("cookie", &cookie)
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(revalidated.status(), StatusCode::NOT_MODIFIED);

    assert_eq!(
        delete_receipt(&app, &cookie, &id).await.status,
        StatusCode::NO_CONTENT
    );
    let second = put_receipt(&app, &cookie, &id, &jpeg(&noise(400, 300))).await;
    assert_eq!(second.status, StatusCode::CREATED, "{}", second.text);
    let new_url = second.body["url"].as_str().unwrap();
    assert_ne!(new_url, old_url, "a new photo, a new URL");
    assert_eq!(
        fetch(&app, &old_url, Some(&cookie)).await.status,
        StatusCode::NOT_FOUND
    );
    let revalidated = app
        .http
        .get(format!("{}{}", app.base, receipt_path(&id)))
        .header("cookie", &cookie)
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(
        revalidated.status(),
        StatusCode::OK,
        "the old ETag is stale"
    );
    let picture = decode_jpeg(&revalidated.bytes().await.unwrap());
    assert_eq!((picture.width(), picture.height()), (400, 300));
}

fn expense(id: &str, receipts: &[&str]) -> Value {
    json!({"id": Uuid::now_v7().to_string(), "name": "expense.put",
           "args": {"id": id, "date": "2025-04-06", "amount": 4_599, "category": "fuel",
                    "note": "", "courierId": null, "vehicleId": null, "repeat": "once",
                    "repeatUntil": null, "receipts": receipts}})
}

/// Housekeeping: a week after upload, a receipt no live expense lists is removed (row and
/// photo) while a listed one stays; an abandoned guest's receipts go with the guest.
async fn the_sweeps_remove_orphaned_and_abandoned_receipts(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, user) = app
        .sign_up("sweep-receipts@example.com", "van-route-42")
        .await;
    let me = id_of(&user);
    let (listed, unlisted, replaced) = (new_id(), new_id(), new_id());
    for id in [&listed, &unlisted, &replaced] {
        put_new(&app, &cookie, id, &jpeg(&gradient(200, 300))).await;
    }
    let expense_id = new_id();
    let reply = app
        .push(
            &cookie,
            vec![
                expense(&expense_id, &[&replaced]),
                // Edited: the photo was swapped for another.
                expense(&expense_id, &[&listed]),
            ],
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let reply = app
        .request(Method::POST, "/api/v1/auth/guest", None, None)
        .await;
    let guest_cookie = reply.session_cookie().unwrap();
    let guest = id_of(&reply.body["user"]);
    put_new(&app, &guest_cookie, &new_id(), &jpeg(&gradient(64, 64))).await;

    let config = Config::for_data_dir(app.data_dir());
    let files = FileStore::from_config(&config).unwrap();
    let now = domain::time_fmt::now_ms();
    let early = housekeeping::sweep(&app.store, &files, &config.quotas, now + 6 * DAY_MS)
        .await
        .unwrap();
    assert_eq!(early.orphan_receipts, 0, "{early:?}");
    assert_eq!(stored_receipts(&app, &me).len(), 3);

    let week = housekeeping::sweep(&app.store, &files, &config.quotas, now + 8 * DAY_MS)
        .await
        .unwrap();
    // The guest's receipt is listed by no expense either.
    assert_eq!(week.orphan_receipts, 3, "{week:?}");
    assert_eq!(stored_receipts(&app, &me), [format!("receipt_{listed}")]);
    for (id, status) in [
        (&listed, StatusCode::OK),
        (&unlisted, StatusCode::NOT_FOUND),
        (&replaced, StatusCode::NOT_FOUND),
    ] {
        assert_eq!(
            fetch(&app, &receipt_path(id), Some(&cookie)).await.status,
            status
        );
    }
    let listed_bytes = bytes_held(&app, &me).await;
    assert!(listed_bytes > 0);

    // The guest, unused for a month, goes with every file and row it had.
    put_new(&app, &guest_cookie, &new_id(), &jpeg(&gradient(64, 64))).await;
    assert_eq!(stored_receipts(&app, &guest).len(), 1);
    let month = housekeeping::sweep(&app.store, &files, &config.quotas, now + 31 * DAY_MS)
        .await
        .unwrap();
    assert_eq!((month.guests, month.files), (1, 1), "{month:?}");
    assert!(stored_receipts(&app, &guest).is_empty());
    assert_eq!(bytes_held(&app, &guest).await, 0);
    assert_eq!(bytes_held(&app, &me).await, listed_bytes);
}

on_both_backends!(
    racing_uploads_of_one_id_keep_the_recorded_photo_within_the_quota,
    a_receipt_uploaded_again_gets_a_new_url,
    receipts_upload_once_and_are_served_to_their_owner_only,
    bad_receipts_are_refused_and_nothing_is_stored,
    the_receipt_quota_holds_under_concurrent_uploads,
    deleted_receipts_are_gone_and_their_ids_free,
    the_sweeps_remove_orphaned_and_abandoned_receipts,
);

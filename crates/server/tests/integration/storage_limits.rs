//! Issue 10's storage limits over HTTP, on SQLite and PostgreSQL: the records quota answered
//! per mutation, push volume answered 429 with Retry-After, guest creation limits, the sweep
//! of abandoned guests with their files, and two accounts racing for one new record id. Issue
//! 31's replay records quota: kept answers count, and the pruning sweep gives room back.

use crate::common;

use common::{Backend, Reply, TestApp, spawn_app_with};
use image::{ExtendedColorType, ImageEncoder, RgbImage, codecs::png::PngEncoder};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use server::{config::Config, files::FileStore, housekeeping};
use uuid::Uuid;

const DAY_MS: i64 = 86_400_000;

fn new_id() -> String {
    Uuid::now_v7().to_string()
}

fn put(entry_id: &str, stops: i64) -> Value {
    json!({"id": new_id(), "name": "entry.put",
           "args": {"id": entry_id, "date": "2024-06-01", "stops": stops, "extra": 0,
                    "notes": "", "total": stops * 198}})
}

async fn guest(app: &TestApp) -> (String, String) {
    let reply = app
        .request(Method::POST, "/api/v1/auth/guest", None, None)
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    (
        reply.session_cookie().unwrap(),
        reply.body["user"]["id"].as_str().unwrap().to_owned(),
    )
}

fn statuses(reply: &Reply) -> Vec<(String, Option<String>)> {
    reply.body["results"]
        .as_array()
        .unwrap_or_else(|| panic!("no results: {}", reply.text))
        .iter()
        .map(|r| {
            (
                r["status"].as_str().unwrap().to_owned(),
                r["code"].as_str().map(str::to_owned),
            )
        })
        .collect()
}

/// Past the records quota, each new record is rejected on its own with `quota-exceeded` and
/// a message for the driver; the rest of the push (an edit) still applies.
async fn records_quota_is_a_per_mutation_rejection(backend: Backend) {
    // Room for three records beside the account's starter courier and card.
    let Some(app) = spawn_app_with(backend, |c| {
        c.quotas.max_records_per_user =
            3 + u32::try_from(domain::defaults::STARTER_RECORDS).unwrap();
    })
    .await
    else {
        return;
    };
    let (cookie, _) = app.sign_up("full@example.com", "correct horse").await;
    let ids: Vec<String> = (0..5).map(|_| new_id()).collect();
    let reply = app
        .push(
            &cookie,
            ids.iter()
                .map(|id| put(id, 10))
                .chain([put(&ids[0], 11)])
                .collect(),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let applied = ("applied".to_owned(), None);
    let refused = ("rejected".to_owned(), Some("quota-exceeded".to_owned()));
    assert_eq!(
        statuses(&reply),
        [
            applied.clone(),
            applied.clone(),
            applied.clone(),
            refused.clone(),
            refused,
            applied
        ]
    );
    let message = reply.body["results"][3]["message"].as_str().unwrap();
    assert!(message.contains("most records"), "{message}");
}

/// More mutations in a minute than allowed: 429 `quota-exceeded` with Retry-After, the JSON
/// error shape, nothing applied; other users are unaffected.
async fn push_volume_is_limited_per_user(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| c.quotas.push_mutations_per_minute = 500).await
    else {
        return;
    };
    let (cookie, _) = app.sign_up("busy@example.com", "correct horse").await;
    let (other, _) = app.sign_up("calm@example.com", "correct horse").await;
    let batch = || (0..500).map(|_| put(&new_id(), 1)).collect::<Vec<Value>>();
    assert_eq!(app.push(&cookie, batch()).await.status, StatusCode::OK);
    // The allowance refills at 500 a minute: a second full push right after cannot fit
    // unless the first one took most of a minute.
    let refused = app.push(&cookie, batch()).await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.text
    );
    assert_eq!(refused.error_code(), "quota-exceeded");
    assert!(refused.body["error"]["message"].is_string());
    let retry_after: u64 = refused.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    let after_first = 500 + domain::defaults::STARTER_RECORDS;
    let pulled = app
        .get(
            &format!("/api/v1/sync/pull?cursor={after_first}&limit=10"),
            Some(&cookie),
        )
        .await;
    assert_eq!(
        pulled.body["changes"],
        json!([]),
        "the refused push changed nothing"
    );
    assert_eq!(
        app.push(&other, vec![put(&new_id(), 1)]).await.status,
        StatusCode::OK
    );
}

async fn guest_creation_is_limited_per_ip(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| {
        c.quotas.guest_rate_limit_per_ip_per_hour = 3;
    })
    .await
    else {
        return;
    };
    for _ in 0..3 {
        guest(&app).await;
    }
    let refused = app
        .request(Method::POST, "/api/v1/auth/guest", None, None)
        .await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.error_code(), "rate-limited");
    assert!(refused.headers.contains_key("retry-after"));
}

fn png() -> Vec<u8> {
    let picture = RgbImage::from_fn(32, 32, |x, y| {
        let (x, y) = (u8::try_from(x).unwrap(), u8::try_from(y).unwrap());
        image::Rgb([x * 8, y * 8, 99])
    });
    let mut out = Vec::new();
    PngEncoder::new(&mut out)
        .write_image(&picture, 32, 32, ExtendedColorType::Rgb8)
        .unwrap();
    out
}

async fn upload_photo(app: &TestApp, cookie: &str) {
    const BOUNDARY: &str = "----storage-limits-test";
    let mut body = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p.png\"\r\n\
         Content-Type: image/png\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(&png());
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    let reply = common::read(
        app.http
            .post(format!("{}/api/v1/profile/photo", app.base))
            .header("cookie", cookie)
            .header(
                "content-type",
                format!("multipart/form-data; boundary={BOUNDARY}"),
            )
            .body(body),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

fn files_of(app: &TestApp, user_id: &str) -> usize {
    std::fs::read_dir(app.data_dir().join("files/users").join(user_id))
        .map_or(0, std::iter::Iterator::count)
}

/// A guest nobody used for GUEST_INACTIVE_DAYS goes with its records, sessions and picture;
/// a guest still in use and an account stay.
async fn sweep_deletes_abandoned_guests_with_their_files(backend: Backend) {
    // The sweep runs 31 days ahead of the server's clock here, so the guest's session is still
    // fresh in the session cache; for real, a guest idle that long cannot have a cached session.
    let no_cache = |c: &mut server::config::Config| c.sessions.session_cache_seconds = 0;
    let Some(app) = spawn_app_with(backend, no_cache).await else {
        return;
    };
    let (abandoned, abandoned_id) = guest(&app).await;
    upload_photo(&app, &abandoned).await;
    let entry = new_id();
    assert_eq!(
        app.push(&abandoned, vec![put(&entry, 3)]).await.status,
        StatusCode::OK
    );
    let (account, _) = app.sign_up("stays@example.com", "correct horse").await;
    assert_eq!(files_of(&app, &abandoned_id), 1);

    let config = Config::for_data_dir(app.data_dir());
    let files = FileStore::from_config(&config).unwrap();
    let now = domain::time_fmt::now_ms();
    // A day short of the limit: nothing goes.
    let early = housekeeping::sweep(&app.store, &files, &config.quotas, now + 29 * DAY_MS)
        .await
        .unwrap();
    assert_eq!(early.guests, 0);
    let report = housekeeping::sweep(&app.store, &files, &config.quotas, now + 31 * DAY_MS)
        .await
        .unwrap();
    assert_eq!((report.guests, report.files), (1, 1), "{report:?}");
    assert_eq!(files_of(&app, &abandoned_id), 0);
    let gone = app.get("/api/v1/auth/session", Some(&abandoned)).await;
    gone.assert_signed_out("the abandoned guest's session");
    let kept = app.get("/api/v1/auth/session", Some(&account)).await;
    assert_eq!(kept.status, StatusCode::OK, "{}", kept.text);
    // Its entry id went with it: another user may now use it.
    let (other, _) = guest(&app).await;
    assert_eq!(
        statuses(&app.push(&other, vec![put(&entry, 4)]).await),
        [("applied".to_owned(), None)]
    );
}

/// Issue 31: every pushed change keeps its answer for APPLIED_MUTATIONS_RETENTION_DAYS, and
/// one guest editing one record at the push limit stored 0.29 GB of them a day. Now a user
/// holds at most MAX_REPLAY_RECORDS_PER_USER: past it a change is refused (`quota-exceeded`,
/// nothing changed, not kept), a resend of a kept one is still answered, and the pruning sweep
/// gives room back.
async fn replay_records_are_capped_per_user(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| {
        c.quotas.max_replay_records_per_user = 500;
    })
    .await
    else {
        return;
    };
    let (cookie, _) = app.sign_up("replays@example.com", "correct horse").await;
    let entry = new_id();
    let edits: Vec<Value> = (1..=500).map(|stops| put(&entry, stops)).collect();
    let first = edits[0].clone();
    let reply = app.push(&cookie, edits).await;
    assert!(
        statuses(&reply)
            .iter()
            .all(|(status, _)| status == "applied"),
        "{}",
        reply.text
    );

    let over = app.push(&cookie, vec![put(&entry, 999)]).await;
    assert_eq!(over.status, StatusCode::OK, "{}", over.text);
    assert_eq!(
        statuses(&over),
        [("rejected".to_owned(), Some("quota-exceeded".to_owned()))]
    );
    let message = over.body["results"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("(500)") && message.contains("Nothing was saved"),
        "{message}"
    );
    let pulled = app.get("/api/v1/sync/pull", Some(&cookie)).await;
    let stops = pulled.body["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == entry.as_str())
        .map(|c| c["data"]["stops"].clone());
    assert_eq!(stops, Some(json!(500)), "the refused edit changed nothing");
    // A resend of a kept change is still recognised.
    assert_eq!(
        statuses(&app.push(&cookie, vec![first]).await),
        [("applied".to_owned(), None)]
    );

    let config = Config::for_data_dir(app.data_dir());
    let files = FileStore::from_config(&config).unwrap();
    let later = domain::time_fmt::now_ms() + 91 * DAY_MS;
    let report = housekeeping::sweep(&app.store, &files, &config.quotas, later)
        .await
        .unwrap();
    assert_eq!(report.replay_records, 500, "{report:?}");
    assert_eq!(
        statuses(&app.push(&cookie, vec![put(&entry, 7)]).await),
        [("applied".to_owned(), None)],
        "room again once the old answers are pruned"
    );
}

/// Two accounts push the same new entry id at the same moment, each with an unrelated new
/// entry: one gets the id, the other a `not-owner` rejection for it alone; never a 500, and
/// the loser's other mutation is applied.
async fn racing_accounts_for_one_new_id(backend: Backend) {
    const ROUNDS: usize = 60;
    let Some(app) = spawn_app_with(backend, |_| {}).await else {
        return;
    };
    let (a, _) = app.sign_up("racer-a@example.com", "correct horse").await;
    let (b, _) = app.sign_up("racer-b@example.com", "correct horse").await;
    let mut server_errors = 0;
    for round in 0..ROUNDS {
        let shared = new_id();
        let (a_own, b_own) = (new_id(), new_id());
        let (ra, rb) = tokio::join!(
            app.push(&a, vec![put(&shared, 1), put(&a_own, 2)]),
            app.push(&b, vec![put(&shared, 3), put(&b_own, 4)]),
        );
        if ra.status.is_server_error() || rb.status.is_server_error() {
            server_errors += 1;
            continue;
        }
        assert_eq!((ra.status, rb.status), (StatusCode::OK, StatusCode::OK));
        let (sa, sb) = (statuses(&ra), statuses(&rb));
        let applied = ("applied".to_owned(), None);
        let not_owner = ("rejected".to_owned(), Some("not-owner".to_owned()));
        assert_eq!((&sa[1], &sb[1]), (&applied, &applied), "round {round}");
        let winners = [&sa[0], &sb[0]].iter().filter(|s| ***s == applied).count();
        assert_eq!(winners, 1, "round {round}: {sa:?} {sb:?}");
        assert!(sa[0] == not_owner || sb[0] == not_owner, "round {round}");
    }
    assert_eq!(
        server_errors, 0,
        "{server_errors} of {ROUNDS} rounds answered 5xx"
    );
}

on_both_backends!(
    replay_records_are_capped_per_user,
    records_quota_is_a_per_mutation_rejection,
    push_volume_is_limited_per_user,
    guest_creation_is_limited_per_ip,
    sweep_deletes_abandoned_guests_with_their_files,
    racing_accounts_for_one_new_id,
);

//! Profile pictures over HTTP, on SQLite and PostgreSQL: upload limits and the bad-input
//! corpus (never a 5xx), re-encoding that strips metadata and payloads, owner-only download,
//! replacement, sync of the new photoURL, and the S3 backend against a local moto_server.

use crate::common;

use std::{
    net::TcpListener as StdListener,
    path::PathBuf,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use common::{
    Backend, Reply, TestApp,
    pictures::{
        BOUNDARY, Part, assert_refused, contains, decode_jpeg, fetch, file, files_under, gradient,
        jpeg, jpeg_claiming, jpeg_with_exif, multipart_body, noise, png, png_claiming,
        png_of_exactly, send_parts, webp,
    },
    spawn_app, spawn_app_with,
};
use futures_util::StreamExt;
use object_store::{ObjectStore, ObjectStoreExt, aws::AmazonS3Builder, path::Path as ObjectPath};
use reqwest::{Method, StatusCode};
use serde_json::Value;
use server::config::StorageKind;

const UPLOAD: &str = "/api/v1/profile/photo";
const MAX_BYTES: usize = 2_097_152;

// ---------------------------------------------------------------------------------------------

async fn upload_parts(app: &TestApp, cookie: Option<&str>, parts: &[Part<'_>]) -> Reply {
    send_parts(app, Method::POST, UPLOAD, cookie, parts).await
}

async fn upload(app: &TestApp, cookie: &str, data: &[u8]) -> Reply {
    upload_parts(app, Some(cookie), &[file(data)]).await
}

/// Uploads a picture that must be accepted; returns the new photoURL.
async fn upload_ok(app: &TestApp, cookie: &str, data: &[u8]) -> String {
    let reply = upload(app, cookie, data).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body["user"]["photoURL"]
        .as_str()
        .expect("photoURL set")
        .to_owned()
}

/// `/api/v1/files/users/{uid}/profile_{ts}` → `DATA_DIR/files/users/{uid}/profile_{ts}`.
fn stored_path(app: &TestApp, photo_url: &str) -> PathBuf {
    let key = photo_url
        .strip_prefix("/api/v1/files/")
        .expect("a files URL");
    app.data_dir().join("files").join(key)
}

fn assert_photo_url(photo_url: &str, user_id: &str) {
    let name = photo_url
        .strip_prefix(&format!("/api/v1/files/users/{user_id}/profile_"))
        .unwrap_or_else(|| panic!("unexpected photoURL {photo_url}"));
    assert!(
        !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()),
        "{photo_url}"
    );
}

// ---------------------------------------------------------------------------------------------

async fn jpeg_png_and_webp_are_stored_as_jpeg_for_their_owner(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, user) = app.sign_up("pics@example.com", "van-route-42").await;
    let user_id = user["id"].as_str().unwrap();
    assert!(user["photoURL"].is_null());

    for (format, bytes, size) in [
        ("png", png(&gradient(1_600, 900)), (1_024, 576)),
        ("jpeg", jpeg(&gradient(640, 480)), (640, 480)),
        ("webp", webp(&gradient(512, 2_048)), (256, 1_024)),
    ] {
        let photo_url = upload_ok(&app, &cookie, &bytes).await;
        assert_photo_url(&photo_url, user_id);

        let served = fetch(&app, &photo_url, Some(&cookie)).await;
        assert_eq!(served.status, StatusCode::OK, "{format}");
        assert_eq!(served.headers["content-type"], "image/jpeg", "{format}");
        assert_eq!(served.headers["x-content-type-options"], "nosniff");
        assert_eq!(
            served.headers["cache-control"],
            "private, max-age=31536000, immutable"
        );
        assert_eq!(served.headers["content-disposition"], "inline");
        let picture = decode_jpeg(&served.bytes);
        assert_eq!((picture.width(), picture.height()), size, "{format}");

        let session = app.get("/api/v1/auth/session", Some(&cookie)).await;
        assert_eq!(session.body["user"]["photoURL"], photo_url.as_str());
    }
}

async fn new_photo_url_reaches_other_devices(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (phone, user) = app.sign_up("devices@example.com", "van-route-42").await;
    let laptop = app
        .post(
            "/api/v1/auth/login",
            serde_json::json!({"email": "devices@example.com", "password": "van-route-42"}),
        )
        .await
        .session_cookie()
        .unwrap();
    let events = app
        .http
        .get(format!("{}/api/v1/sync/events", app.base))
        .header("cookie", &laptop)
        .send()
        .await
        .unwrap();
    assert_eq!(events.status(), StatusCode::OK);
    let mut events = events.bytes_stream();
    let mut seen = String::new();
    let pokes_seen = |seen: &str| seen.matches("event: poke").count();
    // The greeting poke, then the one for the upload.
    for expected in 1..=2 {
        if expected == 2 {
            upload_ok(&app, &phone, &png(&gradient(64, 64))).await;
        }
        while pokes_seen(&seen) < expected {
            let chunk = tokio::time::timeout(Duration::from_secs(10), events.next())
                .await
                .expect("a poke within 10 s")
                .expect("stream open")
                .unwrap();
            seen.push_str(&String::from_utf8_lossy(&chunk));
        }
    }

    let page = app
        .get("/api/v1/sync/pull?cursor=0&limit=100", Some(&laptop))
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    let profile = page.body["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "profile")
        .expect("profile change pulled");
    assert_photo_url(
        profile["data"]["photoURL"].as_str().unwrap(),
        user["id"].as_str().unwrap(),
    );
}

async fn size_limit_is_exactly_two_mebibytes(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("size@example.com", "van-route-42").await;

    let exactly = png_of_exactly(MAX_BYTES);
    let photo_url = upload_ok(&app, &cookie, &exactly).await;
    let stored = std::fs::read(stored_path(&app, &photo_url)).unwrap();
    decode_jpeg(&stored);
    assert!(
        stored.len() < 1_000_000,
        "re-encoded, not copied: {}",
        stored.len()
    );

    let over = png_of_exactly(MAX_BYTES + 1);
    let reply = upload(&app, &cookie, &over).await;
    assert_refused(
        &reply,
        StatusCode::PAYLOAD_TOO_LARGE,
        "file-too-large",
        "2 MiB + 1",
    );
    assert_eq!(
        reply.body["error"]["message"],
        "Image size must be less than 2MB"
    );
    assert_eq!(
        reply.headers["connection"], "close",
        "not reused after a refusal"
    );
    assert_eq!(reply.headers["x-content-type-options"], "nosniff");

    // Far over the route's body limit the server stops reading and answers 413; a client
    // still sending may see the connection close before it reads that answer. Never a 5xx.
    let huge = multipart_body(&[file(&vec![0x42; 5 * 1024 * 1024])]);
    let sent = app
        .http
        .post(format!("{}{UPLOAD}", app.base))
        .header("cookie", &cookie)
        .header(
            "content-type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(huge)
        .send()
        .await;
    match sent {
        Ok(response) => {
            assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
            let body: Value = response.json().await.unwrap();
            assert_eq!(body["error"]["code"], "file-too-large");
        }
        Err(err) => eprintln!("5 MiB upload: connection closed mid-send ({err})"),
    }

    // The refused uploads changed nothing.
    let session = app.get("/api/v1/auth/session", Some(&cookie)).await;
    assert_eq!(session.body["user"]["photoURL"], photo_url.as_str());
}

async fn bad_input_corpus_is_refused_with_4xx(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("corpus@example.com", "van-route-42").await;
    let real_jpeg = jpeg(&noise(400, 300));
    let corpus: Vec<(&str, Vec<u8>)> =
        vec![
        ("empty file", Vec::new()),
        (
            "HTML",
            b"<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>"
                .to_vec(),
        ),
        (
            "PDF",
            b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
                .to_vec(),
        ),
        (
            "SVG with script",
            br#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.to_vec(),
        ),
        ("GIF", b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00;".to_vec()),
        ("JPEG magic only", vec![0xFF, 0xD8, 0xFF]),
        ("PNG signature only", b"\x89PNG\r\n\x1a\n".to_vec()),
        ("truncated JPEG", real_jpeg[..real_jpeg.len() / 2].to_vec()),
        ("truncated PNG", {
            let whole = png(&noise(200, 200));
            whole[..whole.len() / 2].to_vec()
        }),
        ("truncated WebP", {
            let whole = webp(&noise(200, 200));
            whole[..whole.len() / 2].to_vec()
        }),
        ("PNG claiming 60000 x 60000", png_claiming(60_000, 60_000)),
        ("JPEG claiming 60000 x 60000", jpeg_claiming(60_000, 60_000)),
        ("PNG claiming 8000 x 8000 (64 MP)", png_claiming(8_000, 8_000)),
        ("PNG claiming 0 x 0", png_claiming(0, 0)),
    ];
    for (what, bytes) in &corpus {
        let reply = upload(&app, &cookie, bytes).await;
        assert_refused(
            &reply,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-image",
            what,
        );
    }
    let flood = upload(&app, &cookie, &png_claiming(60_000, 60_000)).await;
    let message = flood.body["error"]["message"].as_str().unwrap();
    assert!(message.contains("dimensions"), "{message}");
    let reply = upload(&app, &cookie, b"<html>").await;
    assert_eq!(
        reply.body["error"]["message"],
        "Please select an image file"
    );

    let session = app.get("/api/v1/auth/session", Some(&cookie)).await;
    assert!(session.body["user"]["photoURL"].is_null(), "nothing stored");
    let stored = app.data_dir().join("files").join("users");
    assert!(!stored.exists() || files_under(&stored).is_empty());
}

async fn payloads_and_metadata_are_stripped(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("strip@example.com", "van-route-42").await;

    let mut polyglot = png(&gradient(120, 80));
    polyglot.extend_from_slice(b"<html><script>fetch('/steal?'+document.cookie)</script></html>");
    let photo_url = upload_ok(&app, &cookie, &polyglot).await;
    for bytes in [
        fetch(&app, &photo_url, Some(&cookie)).await.bytes,
        std::fs::read(stored_path(&app, &photo_url)).unwrap(),
    ] {
        let picture = decode_jpeg(&bytes);
        assert_eq!((picture.width(), picture.height()), (120, 80));
        assert!(!contains(&bytes, b"<script"), "payload removed");
        assert!(!contains(&bytes, b"<html"), "payload removed");
    }

    let secret = b"GPSLatitude 51.5007N 0.1246W";
    let with_exif = jpeg_with_exif(secret);
    assert!(contains(&with_exif, secret));
    let photo_url = upload_ok(&app, &cookie, &with_exif).await;
    let served = fetch(&app, &photo_url, Some(&cookie)).await.bytes;
    decode_jpeg(&served);
    assert!(!contains(&served, secret), "EXIF removed");
    assert!(!contains(&served, b"Exif\0\0"), "EXIF removed");
}

async fn client_file_names_never_reach_the_disk(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, user) = app.sign_up("names@example.com", "van-route-42").await;
    let user_id = user["id"].as_str().unwrap();
    let picture = png(&gradient(50, 50));
    for filename in [
        "../../etc/passwd",
        "..\\..\\evil.jpg",
        "/tmp/absolute.jpg",
        "%2e%2e%2fencoded.jpg",
        "photo.html",
    ] {
        let reply = upload_parts(
            &app,
            Some(&cookie),
            &[Part {
                name: "file",
                filename: Some(filename),
                content_type: Some("text/html"),
                data: &picture,
            }],
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{filename}: {}", reply.text);
        assert_photo_url(reply.body["user"]["photoURL"].as_str().unwrap(), user_id);
    }
    let files_dir = app.data_dir().join("files");
    let user_dir = files_dir.join("users").join(user_id);
    for path in files_under(app.data_dir()) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.parent() == Some(app.data_dir()) && name.starts_with("test.db") {
            continue;
        }
        assert_eq!(
            path.parent(),
            Some(user_dir.as_path()),
            "{}",
            path.display()
        );
        let digits = name.strip_prefix("profile_").unwrap_or("x");
        assert!(digits.bytes().all(|b| b.is_ascii_digit()), "{name}");
    }
    assert_eq!(
        files_under(&user_dir).len(),
        1,
        "replaced pictures are deleted"
    );
}

async fn malformed_requests_get_4xx(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("forms@example.com", "van-route-42").await;
    let picture = png(&gradient(40, 40));

    let no_file = upload_parts(
        &app,
        Some(&cookie),
        &[Part {
            name: "photo",
            filename: Some("a.png"),
            content_type: Some("image/png"),
            data: &picture,
        }],
    )
    .await;
    assert_refused(
        &no_file,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation",
        "no file part",
    );
    assert!(no_file.body["error"]["fields"]["file"].is_array());
    let no_parts = upload_parts(&app, Some(&cookie), &[]).await;
    assert_refused(
        &no_parts,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation",
        "no parts",
    );

    let json = app
        .http
        .post(format!("{}{UPLOAD}", app.base))
        .header("cookie", &cookie)
        .json(&serde_json::json!({"file": "aGVsbG8="}));
    let json = common::read(json).await;
    assert_refused(
        &json,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported-media-type",
        "JSON",
    );
    let raw = app
        .http
        .post(format!("{}{UPLOAD}", app.base))
        .header("cookie", &cookie)
        .header("content-type", "image/png")
        .body(picture.clone());
    let raw = common::read(raw).await;
    assert_refused(
        &raw,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported-media-type",
        "raw",
    );

    let no_boundary = app
        .http
        .post(format!("{}{UPLOAD}", app.base))
        .header("cookie", &cookie)
        .header("content-type", "multipart/form-data")
        .body(multipart_body(&[file(&picture)]));
    let no_boundary = common::read(no_boundary).await;
    assert_refused(
        &no_boundary,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "no boundary",
    );

    let mut cut = multipart_body(&[file(&picture)]);
    cut.truncate(cut.len() / 2);
    let cut = app
        .http
        .post(format!("{}{UPLOAD}", app.base))
        .header("cookie", &cookie)
        .header(
            "content-type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(cut);
    let cut = common::read(cut).await;
    assert_refused(
        &cut,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "body cut short",
    );

    let anonymous = upload_parts(&app, None, &[file(&picture)]).await;
    assert_refused(
        &anonymous,
        StatusCode::UNAUTHORIZED,
        "unauthenticated",
        "no session",
    );
}

async fn pictures_are_readable_only_by_their_owner(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (alice, alice_user) = app.sign_up("alice@example.com", "van-route-42").await;
    let (bob, _) = app.sign_up("bob@example.com", "van-route-42").await;
    let uid = alice_user["id"].as_str().unwrap();
    let photo_url = upload_ok(&app, &alice, &png(&gradient(64, 64))).await;
    let name = photo_url.rsplit('/').next().unwrap();

    assert_eq!(
        fetch(&app, &photo_url, Some(&alice)).await.status,
        StatusCode::OK
    );
    let anonymous = fetch(&app, &photo_url, None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);

    let not_found = [
        photo_url.clone(),
        format!("/api/v1/files/users/{uid}/profile_1"),
        format!("/api/v1/files/users/{uid}/{name}%2F..%2F..%2F..%2Ftest.db"),
        format!("/api/v1/files/users/{uid}/..%2F..%2F..%2Ftest.db"),
        format!("/api/v1/files/users/{uid}%2F{name}/x"),
        format!("/api/v1/files/users/{}/{name}", uid.to_uppercase()),
        format!("/api/v1/files/users/{}/{name}", uid.replace('-', "")),
        format!("/api/v1/files/users/{uid}/{name}.jpg"),
        format!("/api/v1/files/users/{uid}/profile_%FF"),
        "/api/v1/files/users/..%2F..%2Ftest.db/x".to_owned(),
        "/api/v1/files/test.db".to_owned(),
    ];
    for (index, path) in not_found.iter().enumerate() {
        // The first is Alice's real picture asked for by Bob; the rest are Alice's own tries.
        let cookie = if index == 0 { &bob } else { &alice };
        let reply = fetch(&app, path, Some(cookie)).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(reply.json()["error"]["code"], "not-found", "{path}");
    }
}

async fn a_new_picture_replaces_the_old_one(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("replace@example.com", "van-route-42").await;
    let first = upload_ok(&app, &cookie, &png(&gradient(64, 64))).await;
    let second = upload_ok(&app, &cookie, &jpeg(&gradient(64, 64))).await;
    let third = upload_ok(&app, &cookie, &webp(&gradient(64, 64))).await;
    assert!(first != second && second != third && first != third);
    for old in [&first, &second] {
        assert_eq!(
            fetch(&app, old, Some(&cookie)).await.status,
            StatusCode::NOT_FOUND
        );
        assert!(!stored_path(&app, old).exists(), "{old} deleted");
    }
    assert_eq!(
        fetch(&app, &third, Some(&cookie)).await.status,
        StatusCode::OK
    );
    let session = app.get("/api/v1/auth/session", Some(&cookie)).await;
    assert_eq!(session.body["user"]["photoURL"], third.as_str());
}

/// Eight uploads at once from one session, twice: each replaces exactly one picture, so the
/// store ends with the one the account points to and nothing else.
async fn concurrent_uploads_leave_only_the_referenced_file(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("race@example.com", "van-route-42").await;
    upload_ok(&app, &cookie, &png(&gradient(64, 64))).await;
    // Noise decodes slowly enough that the eight overlap.
    let picture = png(&noise(600, 600));
    for round in 0..2 {
        let replies =
            futures_util::future::join_all((0..8).map(|_| upload(&app, &cookie, &picture))).await;
        for reply in &replies {
            assert_eq!(
                reply.status,
                StatusCode::OK,
                "round {round}: {}",
                reply.text
            );
        }
        let session = app.get("/api/v1/auth/session", Some(&cookie)).await;
        let current = session.body["user"]["photoURL"]
            .as_str()
            .unwrap()
            .to_owned();
        assert_eq!(
            files_under(&app.data_dir().join("files")),
            vec![stored_path(&app, &current)],
            "round {round}: only the current picture is stored"
        );
        assert_eq!(
            fetch(&app, &current, Some(&cookie)).await.status,
            StatusCode::OK
        );
    }
}

/// Past UPLOADS_PER_USER_PER_MINUTE a user's uploads are refused with 429 and Retry-After,
/// before the body is used; other users are unaffected.
async fn uploads_past_the_user_rate_get_429(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |config| {
        config.uploads.uploads_per_user_per_minute = 3;
    })
    .await
    else {
        return;
    };
    let (cookie, _) = app.sign_up("rate@example.com", "van-route-42").await;
    let picture = png(&gradient(32, 32));
    let mut last = String::new();
    for _ in 0..3 {
        last = upload_ok(&app, &cookie, &picture).await;
    }
    let reply = upload(&app, &cookie, &picture).await;
    assert_refused(
        &reply,
        StatusCode::TOO_MANY_REQUESTS,
        "rate-limited",
        "4th upload",
    );
    let retry_after: u64 = reply.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    assert_eq!(reply.headers["x-content-type-options"], "nosniff");
    let session = app.get("/api/v1/auth/session", Some(&cookie)).await;
    assert_eq!(session.body["user"]["photoURL"], last.as_str());

    let (other, _) = app.sign_up("other-rate@example.com", "van-route-42").await;
    upload_ok(&app, &other, &picture).await;
}

/// With UPLOADS_IN_FLIGHT uploads being received, another is answered 503 at once (not
/// queued until a timeout); when the first finishes, uploads are accepted again.
async fn uploads_past_the_in_flight_bound_get_503(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |config| {
        config.uploads.uploads_in_flight = 1;
        // A slow upload that lost the race may end only when the server stops waiting for
        // its body: 8 s rather than the default 30 keeps a retry from costing half a minute
        // (seen: 60 s on a busy CI machine), and is still far longer than the few probes the
        // winning attempt needs before its rest is sent.
        config.connections.request_timeout_secs = 8;
    })
    .await
    else {
        return;
    };
    let (slow_cookie, _) = app.sign_up("slow@example.com", "van-route-42").await;
    let (cookie, _) = app.sign_up("quick@example.com", "van-route-42").await;

    // The slow upload sends half its body, then waits, holding the only slot. Once it holds it,
    // others are refused at once. A probe can itself hold the slot at the moment the slow upload
    // arrives: then the slow one is the one refused (it ends with 503, or 408 once the server
    // stops waiting for the rest of its body), and it starts again.
    let deadline = Instant::now() + Duration::from_secs(180);
    let (slow, send_rest, refused) = 'attempt: loop {
        let (slow, send_rest) = start_half_upload(&app, &slow_cookie);
        loop {
            let reply = upload(&app, &cookie, b"not a picture").await;
            if reply.status == StatusCode::SERVICE_UNAVAILABLE {
                break 'attempt (slow, send_rest, reply);
            }
            assert_refused(
                &reply,
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid-image",
                "before",
            );
            assert!(
                Instant::now() < deadline,
                "the slow upload never took the slot"
            );
            if slow.is_finished() {
                let lost = slow.await.unwrap();
                assert_ne!(lost.status, StatusCode::OK, "{}", lost.text);
                drop(send_rest);
                continue 'attempt;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    assert_refused(
        &refused,
        StatusCode::SERVICE_UNAVAILABLE,
        "busy",
        "second upload",
    );
    assert!(refused.headers.contains_key("retry-after"));

    send_rest.send(()).unwrap();
    let slow = slow.await.unwrap();
    assert_eq!(slow.status, StatusCode::OK, "{}", slow.text);
    upload_ok(&app, &cookie, &png(&gradient(16, 16))).await;
}

/// Starts an upload that sends half its body and the rest only when told (or when the sender
/// is dropped). A fresh connection: a streamed body cannot be replayed if a pooled one turns out
/// closed.
fn start_half_upload(
    app: &TestApp,
    cookie: &str,
) -> (
    tokio::task::JoinHandle<Reply>,
    tokio::sync::oneshot::Sender<()>,
) {
    let body = multipart_body(&[file(&png(&gradient(64, 64)))]);
    let (first_half, second_half) = body.split_at(body.len() / 2);
    let (first_half, second_half) = (first_half.to_vec(), second_half.to_vec());
    let (send_rest, rest) = tokio::sync::oneshot::channel::<()>();
    let stream = futures_util::stream::once(async move { Ok::<_, std::io::Error>(first_half) })
        .chain(futures_util::stream::once(async move {
            let _ = rest.await;
            Ok(second_half)
        }));
    let request = reqwest::Client::new()
        .post(format!("{}{UPLOAD}", app.base))
        .header("cookie", cookie)
        .header(
            "content-type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .header("content-length", body.len())
        .body(reqwest::Body::wrap_stream(stream));
    (tokio::spawn(common::read(request)), send_rest)
}

on_both_backends!(
    concurrent_uploads_leave_only_the_referenced_file,
    uploads_past_the_user_rate_get_429,
    uploads_past_the_in_flight_bound_get_503,
    jpeg_png_and_webp_are_stored_as_jpeg_for_their_owner,
    new_photo_url_reaches_other_devices,
    size_limit_is_exactly_two_mebibytes,
    bad_input_corpus_is_refused_with_4xx,
    payloads_and_metadata_are_stripped,
    client_file_names_never_reach_the_disk,
    malformed_requests_get_4xx,
    pictures_are_readable_only_by_their_owner,
    a_new_picture_replaces_the_old_one,
);

/// A few hundred bytes claiming 8000 × 5000 pixels are refused from the header, before the
/// 0.8 s decode they would cost; an honest picture of that size class is still accepted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cheap_header_claiming_many_pixels_is_refused() {
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    let (cookie, _) = app.sign_up("bomb@example.com", "van-route-42").await;
    let bomb = jpeg_claiming(8000, 5000);
    assert!(bomb.len() < 2_000, "{}", bomb.len());
    let reply = upload(&app, &cookie, &bomb).await;
    assert_refused(
        &reply,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid-image",
        "bomb",
    );
    assert_eq!(
        reply.body["error"]["message"],
        "The image file is too small for the dimensions it claims"
    );
    let session = app.get("/api/v1/auth/session", Some(&cookie)).await;
    assert!(session.body["user"]["photoURL"].is_null());

    // A real 3000 × 2000 photo-like picture (smooth, so small for its size) still passes.
    let honest = jpeg(&gradient(3000, 2000));
    let photo_url = upload_ok(&app, &cookie, &honest).await;
    let stored = std::fs::read(stored_path(&app, &photo_url)).unwrap();
    assert_eq!(decode_jpeg(&stored).width(), 1024);
}

// ---------------------------------------------------------------------------------------------
// S3-compatible storage against a real server: moto_server, which `make test` installs into the
// tools venv and names in MOTO_SERVER (else the one on the PATH).

/// A moto_server process on a free loopback port, stopped (by its PID) when dropped.
struct Moto {
    child: Child,
    endpoint: String,
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn moto_missing(why: &str) -> Option<Moto> {
    assert!(
        std::env::var("CI").is_err(),
        "CI must provide moto_server (`make test` installs it) so S3 storage is tested: {why}"
    );
    eprintln!("skipping S3 round trip: {why} (`make test` installs moto_server)");
    None
}

async fn start_moto() -> Option<Moto> {
    let port = StdListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let moto_server = std::env::var_os("MOTO_SERVER").unwrap_or_else(|| "moto_server".into());
    let child = Command::new(moto_server)
        .args(["-H", "127.0.0.1", "-p", &port.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let child = match child {
        Ok(child) => child,
        Err(err) => return moto_missing(&format!("moto_server could not start: {err}")),
    };
    let mut moto = Moto {
        child,
        endpoint: format!("http://127.0.0.1:{port}"),
    };
    let http = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        // A pyenv shim without moto behind it exits at once.
        if let Ok(Some(status)) = moto.child.try_wait() {
            return moto_missing(&format!("moto_server exited with {status}"));
        }
        let answer = http.get(&moto.endpoint).send().await;
        if answer.is_ok_and(|response| response.status().is_success()) {
            return Some(moto);
        }
        assert!(
            Instant::now() < deadline,
            "moto_server did not answer in 60 s"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_storage_round_trip_against_moto() {
    let Some(moto) = start_moto().await else {
        return;
    };
    let bucket = "delivery-tracker-test";
    let http = reqwest::Client::new();
    // object_store cannot create buckets; moto accepts an unsigned PUT.
    let created = http
        .put(format!("{}/{bucket}", moto.endpoint))
        .send()
        .await
        .unwrap();
    assert!(created.status().is_success(), "{}", created.status());

    let endpoint = moto.endpoint.clone();
    let app = spawn_app_with(Backend::Sqlite, move |config| {
        config.storage.storage = StorageKind::S3;
        config.storage.s3_bucket = Some(bucket.into());
        config.storage.s3_endpoint = Some(endpoint);
        config.storage.s3_allow_http = true;
        config.storage.s3_access_key_id = Some("testing".into());
        config.storage.s3_secret_access_key = Some("testing".into());
    })
    .await
    .unwrap();
    let (cookie, _) = app.sign_up("s3@example.com", "van-route-42").await;

    let first = upload_ok(&app, &cookie, &png(&gradient(300, 200))).await;
    let served = fetch(&app, &first, Some(&cookie)).await;
    assert_eq!(served.status, StatusCode::OK);
    let picture = decode_jpeg(&served.bytes);
    assert_eq!((picture.width(), picture.height()), (300, 200));

    // The object is in the bucket, byte for byte, and nothing went to the local directory.
    let bucket_view = AmazonS3Builder::new()
        .with_bucket_name(bucket)
        .with_region("us-east-1")
        .with_endpoint(&moto.endpoint)
        .with_allow_http(true)
        .with_access_key_id("testing")
        .with_secret_access_key("testing")
        .build()
        .unwrap();
    let object =
        |photo_url: &str| ObjectPath::from(photo_url.strip_prefix("/api/v1/files/").unwrap());
    let in_bucket = bucket_view.get(&object(&first)).await.unwrap();
    assert_eq!(
        in_bucket.bytes().await.unwrap().as_ref(),
        served.bytes.as_slice()
    );
    let local = app.data_dir().join("files");
    assert!(!local.exists() || files_under(&local).is_empty());

    let second = upload_ok(&app, &cookie, &jpeg(&gradient(100, 100))).await;
    assert_ne!(first, second);
    assert!(
        matches!(
            bucket_view.get(&object(&first)).await,
            Err(object_store::Error::NotFound { .. })
        ),
        "replaced object deleted"
    );
    assert_eq!(
        fetch(&app, &first, Some(&cookie)).await.status,
        StatusCode::NOT_FOUND
    );
    let served = fetch(&app, &second, Some(&cookie)).await;
    assert_eq!(served.status, StatusCode::OK);
    assert_eq!(decode_jpeg(&served.bytes).width(), 100);

    // Eight uploads at once leave exactly the referenced object in the bucket.
    let picture = png(&noise(600, 600));
    let replies =
        futures_util::future::join_all((0..8).map(|_| upload(&app, &cookie, &picture))).await;
    for reply in &replies {
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    }
    let session = app.get("/api/v1/auth/session", Some(&cookie)).await;
    let current = session.body["user"]["photoURL"]
        .as_str()
        .unwrap()
        .to_owned();
    let listed: Vec<String> = bucket_view
        .list(None)
        .map(|meta| meta.unwrap().location.to_string())
        .collect()
        .await;
    assert_eq!(
        listed,
        vec![current.strip_prefix("/api/v1/files/").unwrap().to_owned()]
    );
    drop(moto);
}

/// A bucket that cannot be reached is a server-side failure, reported in the error shape.
#[tokio::test]
async fn unreachable_s3_fails_cleanly() {
    let port = StdListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let app = spawn_app_with(Backend::Sqlite, move |config| {
        config.storage.storage = StorageKind::S3;
        config.storage.s3_bucket = Some("nowhere".into());
        config.storage.s3_endpoint = Some(format!("http://127.0.0.1:{port}"));
        config.storage.s3_allow_http = true;
        config.storage.s3_access_key_id = Some("testing".into());
        config.storage.s3_secret_access_key = Some("testing".into());
    })
    .await
    .unwrap();
    let (cookie, _) = app.sign_up("down@example.com", "van-route-42").await;
    let reply = upload(&app, &cookie, &png(&gradient(20, 20))).await;
    assert_eq!(
        reply.status,
        StatusCode::INTERNAL_SERVER_ERROR,
        "{}",
        reply.text
    );
    assert_eq!(reply.error_code(), "internal");
    let session = app.get("/api/v1/auth/session", Some(&cookie)).await;
    assert!(session.body["user"]["photoURL"].is_null());
}

#[test]
fn the_colour_profile_bomb_is_a_valid_png_whose_profile_inflates_as_claimed() {
    let bomb = common::pictures::colour_profile_bomb(64 << 20);
    assert!(bomb.len() < (64 << 20) / 900, "{} bytes", bomb.len());
    let start = bomb.windows(4).position(|w| w == b"iCCP").unwrap() + 4 + 5;
    let mut inflated = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::ZlibDecoder::new(&bomb[start..]),
        &mut inflated,
    )
    .unwrap();
    assert_eq!(inflated.len(), 64 << 20);
    assert!(image::load_from_memory(&bomb).is_ok());
}

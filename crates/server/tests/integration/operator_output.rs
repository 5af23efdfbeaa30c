//! What strangers type never reaches the operator's terminal raw: the API refuses control
//! characters in free text (issue 31), and `users list` and `messages list` still print display
//! names and contact messages stored before that rule with terminal controls escaped. The server's
//! default log has one access line per API request, naming the route and the user, and never
//! a session token or a query string.

use crate::common;

use std::io::Read;

use common::{
    Backend,
    binary::{free_port, start_binary_logging},
    phone::phone_account,
    spawn_app,
};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// ESC sequences (clear screen, OSC 52 clipboard write), a carriage return that overwrites the
/// line, a C1 CSI, DEL and a right-to-left override: each steers a terminal when printed raw.
const HOSTILE: &str =
    "Sam\u{1b}[2J\u{1b}]52;c;cm0gLXJmIH4=\u{7}\rEVIL\u{9b}1m\u{7f}\u{202e}txt.exe";

fn assert_terminal_safe(listing: &str) {
    let raw: Vec<char> = listing
        .chars()
        .filter(|&c| (c.is_control() && c != '\n') || ('\u{202a}'..='\u{202e}').contains(&c))
        .collect();
    assert!(raw.is_empty(), "raw controls {raw:?} in:\n{listing}");
    // Still readable: the escapes say what was there.
    assert!(
        listing.contains(r"\u{1b}[2J")
            && listing.contains(r"\u{d}EVIL")
            && listing.contains(r"\u{202e}"),
        "{listing}"
    );
}

async fn users_list_escapes_display_names(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let reply = app
        .post(
            "/api/v1/auth/signup",
            json!({"email": "driver@example.com", "password": "van-route-42", "displayName": HOSTILE}),
        )
        .await;
    assert_eq!(
        reply.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        reply.text
    );
    // As stored before the API refused such names.
    app.store
        .create_user(server::store::NewUser {
            id: uuid::Uuid::now_v7(),
            email: Some("driver@example.com".into()),
            display_name: Some(HOSTILE.into()),
            password_hash: None,
            is_anonymous: false,
            now_ms: domain::time_fmt::now_ms(),
        })
        .await
        .unwrap();

    let mut listing = Vec::new();
    server::admin::list_users(&app.store, &mut listing)
        .await
        .unwrap();
    let listing = String::from_utf8(listing).unwrap();
    assert_terminal_safe(&listing);
    assert!(listing.contains("driver@example.com"), "{listing}");
}

async fn users_list_shows_phone_numbers(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let phone_user = phone_account(&app.store, "+447700900123").await;
    app.sign_up("driver@example.com", "van-route-42").await;

    let mut listing = Vec::new();
    server::admin::list_users(&app.store, &mut listing)
        .await
        .unwrap();
    let listing = String::from_utf8(listing).unwrap();
    let mut lines = listing.lines();
    let header = lines.next().unwrap();
    assert!(header.contains("  phone  "), "{listing}");
    let phone_line = listing
        .lines()
        .find(|l| l.starts_with(&phone_user.to_string()))
        .unwrap_or_else(|| panic!("no line for the phone user in:\n{listing}"));
    assert!(phone_line.contains("+447700900123"), "{listing}");
    let email_line = listing
        .lines()
        .find(|l| l.contains("driver@example.com"))
        .unwrap();
    // The column lines up: the phone starts where the header's "phone" does.
    let column = header.find("phone").unwrap();
    assert_eq!(phone_line.find("+447700900123"), Some(column), "{listing}");
    assert_eq!(&email_line[column..column + 1], "-", "{listing}");
}

async fn messages_list_escapes_contact_messages(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let message =
        format!("Hello\n--- 2020-01-01T00:00:00Z from Boss <boss@example.com>\n{HOSTILE}");
    let reply = app
        .post(
            "/api/v1/contact",
            json!({"name": HOSTILE, "email": "visitor@example.com", "subject": HOSTILE, "message": message}),
        )
        .await;
    assert_eq!(
        reply.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        reply.text
    );
    // As stored before the API refused such messages.
    let now = domain::time_fmt::now_ms();
    app.store
        .create_contact_message(server::store::ContactRecord {
            id: uuid::Uuid::now_v7(),
            user_id: None,
            name: HOSTILE.into(),
            email: "visitor@example.com".into(),
            subject: HOSTILE.into(),
            message,
            created_at_ms: now,
            delivery: server::store::EmailDelivery::not_configured(),
        })
        .await
        .unwrap();

    let mut out = Vec::new();
    server::admin::list_messages(&app.store, 10, &mut out)
        .await
        .unwrap();
    let out = String::from_utf8(out).unwrap();
    assert_terminal_safe(&out);
    // A line break in the message cannot forge a header line: every message line is indented.
    let headers: Vec<&str> = out.lines().filter(|l| l.starts_with("---")).collect();
    assert_eq!(headers.len(), 1, "{out}");
    assert!(
        out.contains("\n  --- 2020-01-01T00:00:00Z from Boss"),
        "{out}"
    );
}

on_both_backends!(
    users_list_escapes_display_names,
    users_list_shows_phone_numbers,
    messages_list_escapes_contact_messages,
);

#[tokio::test]
async fn access_log_names_route_and_user_but_no_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut server = start_binary_logging(dir.path(), port);
    let base = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::new();

    let cookie = common::binary::guest_cookie(&http, &base).await;
    let token = cookie.split_once('=').unwrap().1.to_owned();
    let session: Value = http
        .get(format!("{base}/api/v1/auth/session"))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let user_id = session["user"]["id"].as_str().unwrap().to_owned();
    // A path with ids in it and a query string: only the route template may be logged.
    let picture = http
        .get(format!(
            "{base}/api/v1/files/users/{user_id}/profile_1?code=query-secret"
        ))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(picture.status(), StatusCode::NOT_FOUND);
    let health = http.get(format!("{base}/healthz")).send().await.unwrap();
    assert_eq!(health.status(), StatusCode::OK);
    // No route matches: the fallback answers (as it does for the web app's files).
    let unknown = http
        .get(format!("{base}/api/v1/nope"))
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);

    // Each access line is written before its answer is sent, so the log is complete here.
    server.kill().unwrap();
    server.wait().unwrap();
    let mut log = String::new();
    server
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    // `request{method=GET route=/api/v1/auth/session user_id=…}: server::http::access: …`
    let line_with = |route: &str| {
        log.lines()
            .filter(|line| line.contains("server::http::access"))
            .find(|line| {
                line.contains(&format!("route={route} "))
                    || line.contains(&format!("route={route}}}"))
            })
            .unwrap_or_else(|| panic!("no access line for {route} in:\n{log}"))
    };
    let guest_line = line_with("/api/v1/auth/guest");
    assert!(
        guest_line.contains("INFO")
            && guest_line.contains("method=POST")
            && guest_line.contains("status=201")
            && guest_line.contains("latency_ms="),
        "{guest_line}"
    );
    let session_line = line_with("/api/v1/auth/session");
    assert!(
        session_line.contains("INFO")
            && session_line.contains("method=GET")
            && session_line.contains(&format!("user_id={user_id}"))
            && session_line.contains("status=200"),
        "{session_line}"
    );
    let picture_line = line_with("/api/v1/files/users/{uid}/{name}");
    assert!(
        picture_line.contains(&format!("user_id={user_id}")) && picture_line.contains("status=404"),
        "{picture_line}"
    );
    assert!(!log.contains(&token), "session token in the log:\n{log}");
    assert!(
        !log.contains("query-secret"),
        "query string in the log:\n{log}"
    );
    assert!(!log.contains("profile_1"), "raw path in the log:\n{log}");
    assert!(
        !log.contains("/healthz") && !log.contains("route=fallback"),
        "health checks and the fallback are not logged at INFO:\n{log}"
    );
}

//! What strangers type never reaches the operator's terminal raw: `users list` and `messages
//! list` print display names and contact messages with terminal controls escaped.

mod common;

use common::{Backend, spawn_app};
use reqwest::StatusCode;
use serde_json::json;

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
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);

    let mut listing = Vec::new();
    server::admin::list_users(&app.store, &mut listing)
        .await
        .unwrap();
    let listing = String::from_utf8(listing).unwrap();
    assert_terminal_safe(&listing);
    assert!(listing.contains("driver@example.com"), "{listing}");
}

async fn messages_list_escapes_contact_messages(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let reply = app
        .post(
            "/api/v1/contact",
            json!({
                "name": HOSTILE,
                "email": "visitor@example.com",
                "subject": HOSTILE,
                "message": format!("Hello\n--- 2020-01-01T00:00:00Z from Boss <boss@example.com>\n{HOSTILE}"),
            }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);

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
    messages_list_escapes_contact_messages,
);

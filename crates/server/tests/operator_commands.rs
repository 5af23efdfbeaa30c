//! `users delete`, `users reset-password` and `users set-role`: each finds the user by e-mail,
//! phone number or id, on both backends; and operator commands refuse to create a database
//! where there is none; `healthcheck` tells a running server from none.

mod common;

use std::process::Command;

use common::{
    Backend, TestApp,
    phone::phone_account,
    pictures::{file, gradient, png, send_parts},
    spawn_app, spawn_app_with,
};
use domain::{Role, phone::PhoneRegion};
use reqwest::{Method, StatusCode};
use serde_json::json;
use server::{config::Config, files::FileStore};
use uuid::Uuid;

const PASSWORD: &str = "van-route-42";

/// A signed-up driver with an entry, a profile picture and a receipt photo.
async fn driver_with_data(app: &TestApp, email: &str) -> (String, Uuid) {
    let (cookie, user) = app.sign_up(email, PASSWORD).await;
    let id: Uuid = user["id"].as_str().unwrap().parse().unwrap();
    let reply = app
        .push(
            &cookie,
            vec![
                json!({"id": Uuid::new_v4().to_string(), "name": "entry.put", "args": {
                "id": Uuid::now_v7().to_string(), "date": "2026-03-21", "stops": 100,
                "extra": 0, "notes": "", "total": 19_800}}),
            ],
        )
        .await;
    assert_eq!(
        reply.body["results"][0]["status"], "applied",
        "{}",
        reply.text
    );
    let picture = png(&gradient(32, 32));
    let photo = send_parts(
        app,
        Method::POST,
        "/api/v1/profile/photo",
        Some(&cookie),
        &[file(&picture)],
    )
    .await;
    assert_eq!(photo.status, StatusCode::OK, "{}", photo.text);
    let receipt = send_parts(
        app,
        Method::PUT,
        &format!("/api/v1/receipts/{}", Uuid::new_v4()),
        Some(&cookie),
        &[file(&picture)],
    )
    .await;
    assert_eq!(receipt.status, StatusCode::CREATED, "{}", receipt.text);
    (cookie, id)
}

fn files_of(app: &TestApp, id: Uuid) -> std::path::PathBuf {
    app.data_dir()
        .join("files")
        .join("users")
        .join(id.to_string())
}

async fn users_delete_removes_everything_and_nobody_else(backend: Backend) {
    // Here the CLI's code runs inside the test on the server's own store, so no server could
    // tell its commit from one of its own: this server caches nothing. A real CLI is another
    // process, which servers notice (`a_cli_deletion_ends_the_session_on_a_running_server`).
    let no_cache = |c: &mut Config| c.sessions.session_cache_seconds = 0;
    let Some(app) = spawn_app_with(backend, no_cache).await else {
        return;
    };
    let (cookie, id) = driver_with_data(&app, "gone@example.com").await;
    let (other_cookie, other) = driver_with_data(&app, "stays@example.com").await;
    assert!(files_of(&app, id).exists());
    let files = FileStore::from_config(&Config::for_data_dir(app.data_dir())).unwrap();

    let (deleted, removed) =
        server::admin::delete_user(&app.store, &files, "Gone@Example.com", PhoneRegion::GB)
            .await
            .unwrap();
    assert_eq!(deleted.id, id);
    assert_eq!(removed, 2, "the picture and the receipt photo");

    assert!(app.store.get_user(id).await.unwrap().is_none());
    assert!(app.store.list_sessions(id).await.unwrap().is_empty());
    // Issue 31: the folder goes too, not only what was in it.
    assert!(!files_of(&app, id).exists(), "users/{id}/ is removed");
    assert!(files_of(&app, other).exists());
    let session = app.get("/api/v1/auth/session", Some(&cookie)).await;
    session.assert_signed_out("the session ended");
    // A second delete finds nobody.
    let again =
        server::admin::delete_user(&app.store, &files, &id.to_string(), PhoneRegion::GB).await;
    assert!(again.unwrap_err().to_string().contains("no user"));

    // The other driver keeps everything.
    assert!(app.store.get_user(other).await.unwrap().is_some());
    let pulled = app
        .get("/api/v1/sync/pull?cursor=0&limit=1000", Some(&other_cookie))
        .await;
    assert_eq!(pulled.status, StatusCode::OK);
    assert!(std::fs::read_dir(files_of(&app, other)).unwrap().count() >= 1);
}

async fn a_user_is_found_by_email_phone_or_id(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (_, id) = app.sign_up("driver@example.com", PASSWORD).await;
    let id: Uuid = id["id"].as_str().unwrap().parse().unwrap();
    for who in [
        "driver@example.com",
        " DRIVER@example.com ",
        &id.to_string(),
    ] {
        let found = server::admin::find_user(&app.store, who, PhoneRegion::GB)
            .await
            .unwrap();
        assert_eq!(found.id, id, "{who}");
    }
    for (who, why) in [
        ("nobody@example.com", "no user"),
        ("+447700900999", "no user"),
        (&Uuid::new_v4().to_string(), "no user"),
        ("rm -rf \u{1b}[2J", "is not an e-mail"),
        // Too short to be a UK number: refused, not looked up.
        ("07700 9001", "is not an e-mail"),
    ] {
        let err = server::admin::find_user(&app.store, who, PhoneRegion::GB)
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains(why), "{who}: {err}");
        assert!(!err.contains('\u{1b}'), "escaped: {err}");
    }
}

async fn set_role_and_reset_password_by_phone_or_id(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    // A phone-only account: no e-mail, so set-role could not name it before.
    let phone_user = phone_account(&app.store, "+447700900123").await;
    // The number as the operator types it: international, national, or the UK's "(0)".
    for who in ["+447700900123", "07700 900123", "+44 (0)7700 900123"] {
        let found = server::admin::find_user(&app.store, who, PhoneRegion::GB)
            .await
            .unwrap();
        assert_eq!(found.id, phone_user, "{who}");
    }
    let user = server::admin::set_role(&app.store, "+44 7700 900123", PhoneRegion::GB, Role::Pro)
        .await
        .unwrap();
    assert_eq!(user.id, phone_user);
    let stored = app.store.get_user(phone_user).await.unwrap().unwrap();
    assert_eq!(stored.role, Role::Pro);
    // No password sign-in to reset.
    let err = server::admin::reset_password(&app.store, &phone_user.to_string(), PhoneRegion::GB)
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("no e-mail"), "{err}");

    let (cookie, user) = app.sign_up("forgot@example.com", PASSWORD).await;
    let id: Uuid = user["id"].as_str().unwrap().parse().unwrap();
    let (reset, password, ended) =
        server::admin::reset_password(&app.store, &id.to_string(), PhoneRegion::GB)
            .await
            .unwrap();
    assert_eq!(reset.id, id);
    assert_eq!(ended, 1, "the sign-up session ended");
    assert_eq!(password.chars().count(), 20);
    let session = app.get("/api/v1/auth/session", Some(&cookie)).await;
    session.assert_signed_out("the session ended");
    let old = app
        .post(
            "/api/v1/auth/login",
            json!({"email": "forgot@example.com", "password": PASSWORD}),
        )
        .await;
    assert_eq!(old.status, StatusCode::UNAUTHORIZED, "{}", old.text);
    let new = app
        .post(
            "/api/v1/auth/login",
            json!({"email": "forgot@example.com", "password": password}),
        )
        .await;
    assert_eq!(new.status, StatusCode::OK, "{}", new.text);
}

on_both_backends!(
    users_delete_removes_everything_and_nobody_else,
    a_user_is_found_by_email_phone_or_id,
    set_role_and_reset_password_by_phone_or_id,
);

#[test]
fn operator_commands_refuse_a_data_dir_without_a_database() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("not-here");
    for args in [
        &["users", "list"][..],
        &["users", "set-role", "a@example.com", "pro"],
        &["users", "delete", "a@example.com", "--yes"],
        &["users", "reset-password", "a@example.com"],
        &["messages", "list"],
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_delivery-tracker"))
            .args(args)
            .env("DATA_DIR", &missing)
            .env("LOG", "error")
            .env_remove("DATABASE_URL")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?}");
        assert!(stderr.contains("no database at"), "{args:?}: {stderr}");
        assert!(!missing.exists(), "{args:?} created {}", missing.display());
    }
}

#[test]
fn users_delete_needs_yes() {
    let dir = tempfile::tempdir().unwrap();
    let binary = env!("CARGO_BIN_EXE_delivery-tracker");
    // Create the database the way an operator would: start the server once.
    let port = common::binary::free_port();
    let mut server = common::binary::start_binary(dir.path(), port, &[], None);
    let _ = server.kill();
    let _ = server.wait();
    let output = Command::new(binary)
        .args(["users", "delete", "a@example.com"])
        .env("DATA_DIR", dir.path())
        .env("LOG", "error")
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--yes"));
}

/// Runs `users list` in `cwd` with `env` (and no inherited DATA_DIR); returns stderr.
fn users_list_in(cwd: &std::path::Path, env: &[(&str, &str)]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_delivery-tracker"))
        .args(["users", "list"])
        .current_dir(cwd)
        .env_remove("DATA_DIR")
        .env_remove("DATABASE_URL")
        .env("LOG", "error")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn dotenv_is_read_and_the_real_environment_wins() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(".env"),
        "# a comment\nDATA_DIR=/nonexistent/from-dotenv\n",
    )
    .unwrap();
    let (ok, stderr) = users_list_in(dir.path(), &[]);
    assert!(!ok);
    assert!(stderr.contains("/nonexistent/from-dotenv"), "{stderr}");
    let (ok, stderr) = users_list_in(dir.path(), &[("DATA_DIR", "/nonexistent/from-env")]);
    assert!(!ok);
    assert!(
        stderr.contains("/nonexistent/from-env") && !stderr.contains("from-dotenv"),
        "{stderr}"
    );

    std::fs::write(dir.path().join(".env"), "DATA_DIR='unterminated\n").unwrap();
    let (ok, stderr) = users_list_in(dir.path(), &[]);
    assert!(!ok);
    assert!(stderr.contains(".env"), "{stderr}");
}

/// `healthcheck`, the container image's HEALTHCHECK: exit 0 while a server answers `/healthz`
/// on LISTEN's port (a wildcard LISTEN is probed on loopback), failure once nothing listens.
#[test]
fn healthcheck_succeeds_only_while_the_server_answers() {
    let dir = tempfile::tempdir().unwrap();
    let port = common::binary::free_port();
    let mut server = common::binary::start_binary(dir.path(), port, &[], None);
    let healthcheck = |listen: String| {
        Command::new(env!("CARGO_BIN_EXE_delivery-tracker"))
            .arg("healthcheck")
            .env("LISTEN", listen)
            .env("DATA_DIR", dir.path())
            .env("LOG", "error")
            .output()
            .unwrap()
    };
    for listen in [format!("127.0.0.1:{port}"), format!("0.0.0.0:{port}")] {
        let output = healthcheck(listen.clone());
        assert!(
            output.status.success(),
            "{listen}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let _ = server.kill();
    let _ = server.wait();
    let output = healthcheck(format!("127.0.0.1:{port}"));
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("/healthz"));
}

/// The admin CLI is another process with no way to signal a running server, and the server
/// caches sessions: on SQLite the server notices the CLI's commit (the writer's
/// `PRAGMA data_version`) and drops what it cached, so a deleted account is signed out well
/// before its cached session would expire (30 s here).
#[tokio::test]
async fn a_cli_deletion_ends_the_session_on_a_running_server() {
    let dir = tempfile::tempdir().unwrap();
    let port = common::binary::free_port();
    let mut server =
        common::binary::start_binary(dir.path(), port, &[("SESSION_CACHE_SECONDS", "30")], None);
    let base = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::new();
    let cookie = common::binary::guest_cookie(&http, &base).await;
    let session = || async {
        http.get(format!("{base}/api/v1/auth/session"))
            .header("cookie", &cookie)
            .send()
            .await
            .unwrap()
            .json::<serde_json::Value>()
            .await
            .unwrap()
    };
    let id = session().await["user"]["id"].as_str().unwrap().to_owned();
    assert_eq!(session().await["user"]["id"], id.as_str(), "served again");

    let output = Command::new(env!("CARGO_BIN_EXE_delivery-tracker"))
        .args(["users", "delete", &id, "--yes"])
        .env("DATA_DIR", dir.path())
        .env("LOG", "error")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let signed_out = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        while !session().await["user"].is_null() {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    })
    .await;
    let _ = server.kill();
    let _ = server.wait();
    assert!(
        signed_out.is_ok(),
        "the running server still served the deleted account's cached session"
    );
}

/// A session the admin CLI ends closes that session's open event stream and no other: the
/// server notices the CLI's commit and checks its open streams against the database in one
/// batch. The fallback check is set far beyond the test's deadline, so only that can pass it.
#[tokio::test]
async fn a_cli_deletion_closes_only_that_users_event_stream() {
    use futures_util::StreamExt;
    let dir = tempfile::tempdir().unwrap();
    let port = common::binary::free_port();
    let mut server = common::binary::start_binary(
        dir.path(),
        port,
        &[
            ("EVENTS_RECHECK_SECONDS", "600"),
            ("SESSION_CACHE_SECONDS", "30"),
        ],
        None,
    );
    let base = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::new();
    let deadline = std::time::Duration::from_secs(10);
    let (gone, stays) = (
        common::binary::guest_cookie(&http, &base).await,
        common::binary::guest_cookie(&http, &base).await,
    );
    let open = |cookie: &str| {
        let request = http
            .get(format!("{base}/api/v1/sync/events"))
            .header("cookie", cookie);
        async move {
            let mut events = request.send().await.unwrap().bytes_stream();
            let greeting = tokio::time::timeout(deadline, events.next()).await.unwrap();
            assert!(String::from_utf8_lossy(&greeting.unwrap().unwrap()).contains("poke"));
            events
        }
    };
    let mut gone_events = open(&gone).await;
    let mut stays_events = open(&stays).await;
    let id = http
        .get(format!("{base}/api/v1/auth/session"))
        .header("cookie", &gone)
        .send()
        .await
        .unwrap()
        .json::<serde_json::Value>()
        .await
        .unwrap()["user"]["id"]
        .as_str()
        .unwrap()
        .to_owned();

    let output = Command::new(env!("CARGO_BIN_EXE_delivery-tracker"))
        .args(["users", "delete", &id, "--yes"])
        .env("DATA_DIR", dir.path())
        .env("LOG", "error")
        .output()
        .unwrap();
    let closed = tokio::time::timeout(deadline, async {
        while let Some(Ok(_)) = gone_events.next().await {}
    })
    .await
    .is_ok();
    let pushed = http
        .post(format!("{base}/api/v1/sync/push"))
        .header("cookie", &stays)
        .json(
            &json!({"clientId": "phone", "mutations": [{"id": Uuid::now_v7().to_string(),
            "name": "entry.put", "args": {"id": Uuid::now_v7().to_string(), "date": "2026-03-21",
            "stops": 10, "extra": 0, "notes": "", "total": 1_980}}]}),
        )
        .send()
        .await
        .unwrap()
        .status();
    let poked = tokio::time::timeout(deadline, async {
        while let Some(Ok(chunk)) = stays_events.next().await {
            if String::from_utf8_lossy(&chunk).contains("cursor") {
                return true;
            }
        }
        false
    })
    .await
    .unwrap_or(false);
    let _ = server.kill();
    let _ = server.wait();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(closed, "the deleted guest's stream closed");
    assert_eq!(pushed, StatusCode::OK);
    assert!(poked, "the other guest's stream is still open and poked");
}

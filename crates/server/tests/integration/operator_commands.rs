//! `users delete`, `users reset-password` and `users set-role`: each finds the user by e-mail,
//! phone number or id, on both backends; and operator commands refuse to create a database
//! where there is none; `healthcheck` tells a running server from none.

use crate::common;

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
        &["users", "set-plan", "a@example.com", "pro"],
        // The command's old name still works.
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

/// Each command's help fits on a screen: its own arguments and the few settings it takes as
/// flags (where the data is), while the server's settings are listed under `serve --help`.
#[test]
fn each_commands_help_is_short_and_its_own() {
    let help = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_delivery-tracker"))
            .args(args)
            .output()
            .unwrap();
        assert!(output.status.success(), "{args:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    let finds_data: &[&[&str]] = &[
        &["users"],
        &["users", "list"],
        &["users", "set-plan"],
        &["users", "set-role"],
        &["users", "delete"],
        &["users", "reset-password"],
        &["backup"],
        &["restore"],
        &["messages"],
        &["messages", "list"],
    ];
    let others: &[&[&str]] = &[&[], &["healthcheck"]];
    for (command, shows_data) in finds_data
        .iter()
        .map(|c| (c, true))
        .chain(others.iter().map(|c| (c, false)))
    {
        for flag in ["--help", "-h"] {
            let args = [command.to_vec(), vec![flag]].concat();
            let text = help(&args);
            let lines = text.lines().count();
            assert!(lines < 40, "{args:?}: {lines} lines\n{text}");
            assert!(
                !text.contains("SMTP_URL") && !text.contains("SESSION_IDLE_DAYS"),
                "{args:?} lists the server's settings:\n{text}"
            );
            assert_eq!(
                text.contains("--data-dir") && text.contains("DATABASE_URL"),
                shows_data,
                "{args:?}:\n{text}"
            );
        }
    }
    assert!(help(&["users", "set-plan", "--help"]).contains("<PLAN>"));
    assert!(help(&["healthcheck", "--help"]).contains("--listen"));
    let serve = help(&["serve", "--help"]);
    for setting in ["--listen", "SMTP_URL", "BACKUP_DIR", "COOKIE_SECURE"] {
        assert!(serve.contains(setting), "serve --help lacks {setting}");
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
    // A guest with no photos: the count in words, not "0 file(s)".
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        said.ends_with("with all their data and 0 files\n"),
        "{said}"
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

/// `users create` and `users invite` on a server with sign-ups closed (SIGNUPS_OPEN=false): the
/// operator decides who is in. The library functions on both backends, then the binary itself.
mod created_and_invited {
    use super::*;
    use common::spawn_app_with_link_clock;
    use server::admin::{FirstPassword, create_user, invite_user};

    const DAY_MS: i64 = 24 * 60 * 60 * 1000;

    pub(super) fn closed(config: &mut Config) {
        config.signups.signups_open = false;
        config.signups.guests_enabled = false;
    }

    /// The token of an invitation link naming `origin`.
    pub(super) fn invite_token(url: &str, origin: &str) -> String {
        url.strip_prefix(&format!("{origin}/invite#"))
            .unwrap_or_else(|| panic!("{url} is not an invitation on {origin}"))
            .to_owned()
    }

    async fn login(app: &TestApp, email: &str, password: &str) -> common::Reply {
        app.post(
            "/api/v1/auth/login",
            json!({"email": email, "password": password}),
        )
        .await
    }

    async fn users_create_works_with_sign_ups_closed(backend: Backend) {
        let Some(app) = spawn_app_with(backend, closed).await else {
            return;
        };
        let signup = app
            .post(
                "/api/v1/auth/signup",
                json!({"email": "temp@example.com", "password": PASSWORD}),
            )
            .await;
        assert_eq!(signup.error_code(), "signups-closed", "{}", signup.text);

        // A temporary password, to be changed at first sign-in.
        let (user, temporary) = create_user(
            &app.store,
            "Temp@Example.com",
            Some("Temp Driver"),
            FirstPassword::Temporary,
        )
        .await
        .unwrap();
        assert_eq!(user.email.as_deref(), Some("temp@example.com"));
        assert_eq!(user.display_name.as_deref(), Some("Temp Driver"));
        let temporary = temporary.expect("printed once");
        assert_eq!(temporary.chars().count(), 20);
        let signed_in = login(&app, "temp@example.com", &temporary).await;
        assert_eq!(signed_in.status, StatusCode::OK, "{}", signed_in.text);
        assert_eq!(signed_in.body["user"]["mustChangePassword"], true);

        // The operator's own password, held to the same rules.
        let refused = create_user(
            &app.store,
            "given@example.com",
            None,
            FirstPassword::Given("van123".into()),
        )
        .await
        .expect_err("a weak password is refused")
        .to_string();
        assert!(refused.contains("app's name"), "{refused}");
        assert!(
            app.store
                .find_user_by_email("given@example.com")
                .await
                .unwrap()
                .is_none()
        );
        let (_, none) = create_user(
            &app.store,
            "given@example.com",
            None,
            FirstPassword::Given(PASSWORD.into()),
        )
        .await
        .unwrap();
        assert!(none.is_none());
        let signed_in = login(&app, "given@example.com", PASSWORD).await;
        assert_eq!(signed_in.status, StatusCode::OK, "{}", signed_in.text);
        assert_eq!(signed_in.body["user"]["mustChangePassword"], false);

        let again = create_user(
            &app.store,
            "given@example.com",
            None,
            FirstPassword::Temporary,
        )
        .await
        .err()
        .unwrap()
        .to_string();
        assert!(again.contains("already has an account"), "{again}");
    }

    async fn an_invitation_signs_up_once_with_sign_ups_closed(backend: Backend) {
        let Some((app, time)) = spawn_app_with_link_clock(backend, closed).await else {
            return;
        };
        let invitation = invite_user(&app.store, "New.Driver@example.com", 1, &app.base)
            .await
            .unwrap();
        assert_eq!(invitation.email.as_str(), "new.driver@example.com");
        let token = invite_token(&invitation.url, &app.base);

        let check = app
            .post("/api/v1/auth/links/check", json!({"token": token}))
            .await;
        assert_eq!(check.status, StatusCode::OK, "{}", check.text);
        assert_eq!(check.body["kind"], "invite");
        assert_eq!(check.body["email"], "new.driver@example.com");
        // A reset needs a reset link: an invitation is not one.
        let reset = app
            .post(
                "/api/v1/auth/password/reset",
                json!({"token": token, "password": PASSWORD}),
            )
            .await;
        assert_eq!(reset.error_code(), "link-expired", "{}", reset.text);

        let accept = |password: &str| {
            app.post(
                "/api/v1/auth/invite/accept",
                json!({"token": token, "password": password, "displayName": "Nat"}),
            )
        };
        let weak = accept("NewDriver1").await;
        assert_eq!(weak.error_code(), "weak-password", "{}", weak.text);
        assert!(
            weak.body["error"]["fields"]["password"][0]
                .as_str()
                .unwrap()
                .contains("email")
        );
        time.advance_ms(DAY_MS - 60 * 60 * 1000);
        let joined = accept(PASSWORD).await;
        assert_eq!(joined.status, StatusCode::CREATED, "{}", joined.text);
        assert_eq!(joined.body["user"]["email"], "new.driver@example.com");
        assert_eq!(joined.body["user"]["displayName"], "Nat");
        assert_eq!(joined.body["isNewUser"], true);
        let cookie = joined.session_cookie().expect("signed in");
        let session = app.get("/api/v1/auth/session", Some(&cookie)).await;
        assert_eq!(session.body["user"]["email"], "new.driver@example.com");
        let used = accept("another-good-9x").await;
        assert_eq!(used.status, StatusCode::GONE, "once only: {}", used.text);

        // An address with an account is not invited; an invitation expires.
        let taken = invite_user(&app.store, "new.driver@example.com", 7, &app.base)
            .await
            .err()
            .unwrap()
            .to_string();
        assert!(taken.contains("already has an account"), "{taken}");
        let late = invite_user(&app.store, "late@example.com", 1, &app.base)
            .await
            .unwrap();
        time.advance_ms(2 * DAY_MS);
        let expired = app
            .post(
                "/api/v1/auth/invite/accept",
                json!({"token": invite_token(&late.url, &app.base), "password": PASSWORD}),
            )
            .await;
        assert_eq!(expired.status, StatusCode::GONE, "{}", expired.text);
        assert!(
            app.store
                .find_user_by_email("late@example.com")
                .await
                .unwrap()
                .is_none()
        );
    }

    on_both_backends!(
        users_create_works_with_sign_ups_closed,
        an_invitation_signs_up_once_with_sign_ups_closed,
    );
}

/// The binary's `users create` and `users invite` with sign-ups closed, against a running
/// server: a printed temporary password, a password on stdin, an e-mailed invitation (a real
/// SMTP server on a loopback port) and a printed one.
mod from_the_command_line {
    use std::{io::Write, process::Stdio};

    use super::{PASSWORD, created_and_invited::invite_token};
    use crate::common::{
        binary::{free_port, start_binary},
        smtp::SmtpSink,
    };
    use serde_json::json;

    const CLOSED: [(&str, &str); 3] = [
        ("SIGNUPS_OPEN", "false"),
        ("GUESTS_ENABLED", "false"),
        ("LOG", "error"),
    ];

    /// Runs the binary with `args`, `env` and `stdin`, off the async runtime (the SMTP server
    /// the command may talk to runs on it).
    async fn run(
        data_dir: &std::path::Path,
        args: &[&str],
        env: Vec<(String, String)>,
        stdin: Option<&str>,
    ) -> (bool, String, String) {
        let (data_dir, args, stdin) = (
            data_dir.to_owned(),
            args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>(),
            stdin.map(str::to_owned),
        );
        tokio::task::spawn_blocking(move || {
            let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_delivery-tracker"))
                .args(&args)
                .env("DATA_DIR", &data_dir)
                .envs(CLOSED)
                .envs(env)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let mut input = child.stdin.take().unwrap();
            if let Some(text) = stdin {
                input.write_all(text.as_bytes()).unwrap();
            }
            drop(input);
            let output = child.wait_with_output().unwrap();
            (
                output.status.success(),
                String::from_utf8_lossy(&output.stdout).into_owned(),
                String::from_utf8_lossy(&output.stderr).into_owned(),
            )
        })
        .await
        .unwrap()
    }

    async fn post(base: &str, path: &str, body: serde_json::Value) -> reqwest::Response {
        reqwest::Client::new()
            .post(format!("{base}{path}"))
            .json(&body)
            .send()
            .await
            .unwrap()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn users_create_prints_a_temporary_password_or_takes_one_on_stdin() {
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        let mut server = start_binary(dir.path(), port, &CLOSED, None);
        let base = format!("http://127.0.0.1:{port}");
        let login = |email: &'static str, password: String| {
            let base = base.clone();
            async move {
                let response = post(
                    &base,
                    "/api/v1/auth/login",
                    json!({"email": email, "password": password}),
                )
                .await;
                let status = response.status();
                (status, response.json::<serde_json::Value>().await.unwrap())
            }
        };

        let (ok, stdout, stderr) = run(
            dir.path(),
            &["users", "create", "temp@example.com"],
            vec![],
            None,
        )
        .await;
        assert!(ok, "{stderr}");
        let temporary = stdout
            .lines()
            .map(str::trim)
            .find(|line| line.len() == 20 && line.chars().all(|c| c.is_ascii_alphanumeric()))
            .unwrap_or_else(|| panic!("no temporary password in {stdout}"))
            .to_owned();
        let (status, body) = login("temp@example.com", temporary).await;
        assert_eq!(status, reqwest::StatusCode::OK, "{body}");
        assert_eq!(body["user"]["mustChangePassword"], true);

        let args = [
            "users",
            "create",
            "own@example.com",
            "--password-stdin",
            "--name",
            "Own",
        ];
        let (ok, _, stderr) = run(dir.path(), &args, vec![], Some("van123\n")).await;
        assert!(!ok);
        assert!(stderr.contains("app's name"), "{stderr}");
        let (ok, stdout, stderr) =
            run(dir.path(), &args, vec![], Some(&format!("{PASSWORD}\n"))).await;
        assert!(ok, "{stderr}");
        assert!(stdout.contains("own@example.com"), "{stdout}");
        assert!(
            !stdout.contains(PASSWORD),
            "the operator's password is not echoed"
        );
        let (status, body) = login("own@example.com", PASSWORD.to_owned()).await;
        assert_eq!(status, reqwest::StatusCode::OK, "{body}");
        assert_eq!(body["user"]["mustChangePassword"], false);
        assert_eq!(body["user"]["displayName"], "Own");
        let _ = server.kill();
        let _ = server.wait();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn users_invite_e_mails_the_link_with_smtp_and_prints_it_without() {
        let sink = SmtpSink::start().await;
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        let base = format!("http://127.0.0.1:{port}");
        let smtp = vec![
            ("SMTP_URL".to_owned(), sink.url(None)),
            ("CONTACT_EMAIL_TO".to_owned(), "ops@example.test".to_owned()),
            (
                "CONTACT_EMAIL_FROM".to_owned(),
                "noreply@example.test".to_owned(),
            ),
            ("PUBLIC_URL".to_owned(), base.clone()),
        ];
        let server_env: Vec<(&str, &str)> = smtp
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .chain(CLOSED)
            .collect();
        let mut server = start_binary(dir.path(), port, &server_env, None);
        let accept = |token: String| {
            let base = base.clone();
            async move {
                post(
                    &base,
                    "/api/v1/auth/invite/accept",
                    json!({"token": token, "password": PASSWORD}),
                )
                .await
                .status()
            }
        };

        // With SMTP and PUBLIC_URL: e-mailed.
        let (ok, stdout, stderr) = run(
            dir.path(),
            &["users", "invite", "mailed@example.com", "--days", "3"],
            smtp.clone(),
            None,
        )
        .await;
        assert!(ok, "{stderr}");
        assert!(
            stdout.contains("e-mailed an invitation to mailed@example.com"),
            "{stdout}"
        );
        let mails = sink.wait_for(1, std::time::Duration::from_secs(20)).await;
        assert_eq!(mails[0].rcpt_to, ["mailed@example.com"]);
        let body = mails[0].body();
        let url = body
            .split_whitespace()
            .find(|word| word.starts_with(&format!("{base}/invite#")))
            .unwrap_or_else(|| panic!("no link in {body}"));
        assert!(!stdout.contains(url), "the link went by e-mail only");
        let signup = post(
            &base,
            "/api/v1/auth/signup",
            json!({"email": "mailed@example.com", "password": PASSWORD}),
        )
        .await;
        assert_eq!(
            signup.status(),
            reqwest::StatusCode::FORBIDDEN,
            "sign-ups are closed"
        );
        assert_eq!(
            accept(invite_token(url, &base)).await,
            reqwest::StatusCode::CREATED
        );

        // Without SMTP: printed, naming LISTEN's address when PUBLIC_URL is unset too.
        let listen = vec![("LISTEN".to_owned(), format!("0.0.0.0:{port}"))];
        let (ok, stdout, stderr) = run(
            dir.path(),
            &["users", "invite", "printed@example.com"],
            listen,
            None,
        )
        .await;
        assert!(ok, "{stderr}");
        let url = stdout
            .split_whitespace()
            .find(|word| word.starts_with(&format!("{base}/invite#")))
            .unwrap_or_else(|| panic!("no link in {stdout}"));
        assert!(stdout.contains("PUBLIC_URL"), "{stdout}");
        assert_eq!(
            accept(invite_token(url, &base)).await,
            reqwest::StatusCode::CREATED
        );
        assert_eq!(sink.mails().len(), 1, "nothing e-mailed without SMTP");
        let _ = server.kill();
        let _ = server.wait();
    }
}

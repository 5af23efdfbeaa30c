//! The contact endpoint on SQLite and PostgreSQL: validation order, bounds, rate limit,
//! storage, and e-mail to the operator through a real SMTP server on a loopback port.

use crate::common;

use std::time::Duration;

use common::{
    Backend, TestApp, TestStore,
    smtp::{ReceivedMail, SmtpSink, decode_words},
    spawn_app, spawn_app_on, spawn_app_with, store_for,
};
use reqwest::{Method, StatusCode};
use serde_json::json;
use server::{
    config::Config,
    store::{ContactRecord, EmailAttempt, EmailDelivery, EmailStatus},
};
use uuid::Uuid;

const CONTACT: &str = "/api/v1/contact";

async fn messages_are_checked_in_the_spec_order(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let cases = [
        (json!({}), "name", "Name is required"),
        (
            json!({"name": "  ", "email": "bad", "message": ""}),
            "name",
            "Name is required",
        ),
        (json!({"name": "Sam"}), "email", "Email is required"),
        (
            json!({"name": "Sam", "email": "sam@example"}),
            "email",
            "Please enter a valid email address",
        ),
        (
            json!({"name": "Sam", "email": "sam @example.com", "message": "Hi"}),
            "email",
            "Please enter a valid email address",
        ),
        (
            json!({"name": "Sam", "email": "sam@example.com"}),
            "message",
            "Message is required",
        ),
        (
            json!({"name": "Sam", "email": "sam@example.com", "message": "x".repeat(5_001)}),
            "message",
            "Please keep this under 5000 characters",
        ),
        (
            json!({"name": "n".repeat(101), "email": "sam@example.com", "message": "Hi"}),
            "name",
            "Please keep this under 100 characters",
        ),
        (
            json!({"name": "Sam", "email": "sam@example.com", "subject": "s".repeat(201), "message": "Hi"}),
            "subject",
            "Please keep this under 200 characters",
        ),
    ];
    for (body, field, message) in cases {
        let reply = app.post(CONTACT, body.clone()).await;
        assert_eq!(
            (reply.status, reply.error_code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "validation"),
            "{body}"
        );
        assert_eq!(reply.body["error"]["fields"][field][0], message, "{body}");
    }
    let wrong_type = app.post(CONTACT, json!({"name": 5})).await;
    assert_eq!(wrong_type.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        app.store
            .list_contact_messages(10)
            .await
            .unwrap()
            .is_empty(),
        "nothing stored"
    );
}

async fn messages_are_stored_signed_in_or_out_and_listed(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let anonymous = app.post(CONTACT, json!({"name": " Visitor ", "email": "v@example.com", "message": "Do you support Evri?"})).await;
    assert_eq!(
        (anonymous.status, anonymous.body.clone()),
        (StatusCode::CREATED, json!({"received": true}))
    );
    let (cookie, user) = app.sign_up("driver@example.com", "van-route-42").await;
    let signed_in = app
        .request(Method::POST, CONTACT, Some(json!({"name": "Sam", "email": "sam@example.com", "subject": "Tiers", "message": "Can I add a fourth tier?"})), Some(&cookie))
        .await;
    assert_eq!(signed_in.status, StatusCode::CREATED);

    let stored = app.store.list_contact_messages(10).await.unwrap();
    assert_eq!(stored.len(), 2);
    assert_eq!(
        (
            stored[0].subject.as_str(),
            stored[0].user_id.map(|u| u.to_string())
        ),
        ("Tiers", user["id"].as_str().map(str::to_owned))
    );
    assert_eq!(
        (stored[1].name.as_str(), stored[1].user_id),
        ("Visitor", None)
    );
    assert!(
        stored
            .iter()
            .all(|m| m.delivery == EmailDelivery::not_configured()),
        "without SMTP nothing is queued for e-mail"
    );

    let mut out = Vec::new();
    server::admin::list_messages(&app.store, 10, &mut out)
        .await
        .unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("Subject: Tiers")
            && out.contains("Do you support Evri?")
            && out.contains("E-mail: not sent (SMTP was not configured)")
            && out.ends_with("\n2 messages\n"),
        "{out}"
    );
    assert!(
        out.find("Tiers").unwrap() < out.find("Evri").unwrap(),
        "newest first"
    );
}

async fn contact_is_rate_limited_per_ip(backend: Backend) {
    let Some(app) =
        spawn_app_with(backend, |c| c.rate_limits.contact_rate_limit_per_minute = 2).await
    else {
        return;
    };
    let body = json!({"name": "Sam", "email": "sam@example.com", "message": "Hello"});
    for _ in 0..2 {
        assert_eq!(
            app.post(CONTACT, body.clone()).await.status,
            StatusCode::CREATED
        );
    }
    let limited = app.post(CONTACT, body).await;
    assert_eq!(
        (limited.status, limited.error_code()),
        (StatusCode::TOO_MANY_REQUESTS, "rate-limited")
    );
    assert!(limited.headers.contains_key("retry-after"));
    assert_eq!(app.store.list_contact_messages(10).await.unwrap().len(), 2);
}

/// Generous: only a broken build ever waits this long.
const DEADLINE: Duration = Duration::from_secs(20);

fn mail_to(sink_url: String) -> impl FnOnce(&mut Config) {
    move |config| {
        config.smtp.smtp_url = Some(sink_url);
        config.smtp.contact_email_to = Some("Operator <ops@example.com>".into());
        config.smtp.contact_email_from = Some("Delivery Tracker <noreply@example.com>".into());
        config.smtp.contact_email_first_retry_ms = 50;
        config.smtp.contact_email_max_attempts = 4;
    }
}

/// Polls the store until the message with this subject passes `done`; panics at the deadline.
async fn wait_for_delivery(
    app: &TestApp,
    subject: &str,
    done: impl Fn(&EmailDelivery) -> bool,
) -> ContactRecord {
    let until = tokio::time::Instant::now() + DEADLINE;
    loop {
        let messages = app.store.list_contact_messages(100).await.unwrap();
        let message = messages.iter().find(|m| m.subject == subject);
        if let Some(message) = message.filter(|m| done(&m.delivery)) {
            return message.clone();
        }
        assert!(
            tokio::time::Instant::now() < until,
            "delivery state not reached: {message:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn header_names(mail: &ReceivedMail) -> Vec<String> {
    mail.headers()
        .into_iter()
        .map(|(name, _)| name.to_ascii_lowercase())
        .collect()
}

async fn messages_are_emailed_to_the_operator(backend: Backend) {
    let sink = SmtpSink::start().await;
    let Some(app) = spawn_app_with(backend, mail_to(sink.url(Some("mailer:s3cret%21")))).await
    else {
        return;
    };
    let (cookie, user) = app.sign_up("driver@example.com", "van-route-42").await;
    let signed_in = app
        .request(Method::POST, CONTACT, Some(json!({"name": "Sam Driver", "email": "sam@example.com", "subject": "Tiers", "message": "Can I add a fourth tier?\n.\nThanks"})), Some(&cookie))
        .await;
    assert_eq!(
        (signed_in.status, signed_in.body),
        (StatusCode::CREATED, json!({"received": true}))
    );
    let mails = sink.wait_for(1, DEADLINE).await;
    let anonymous = app
        .post(CONTACT, json!({"name": "Visitor", "email": "v@example.com", "message": "Do you support Evri? £4.99 — 🚚"}))
        .await;
    assert_eq!(anonymous.status, StatusCode::CREATED);
    let mails = [
        mails[0].clone(),
        sink.wait_for(2, DEADLINE).await[1].clone(),
    ];

    let mail = &mails[0];
    assert_eq!(
        mail.auth.as_deref(),
        Some("mailer:s3cret!"),
        "URL credentials, decoded"
    );
    assert_eq!(mail.mail_from, "noreply@example.com");
    assert_eq!(mail.rcpt_to, ["ops@example.com"]);
    assert_eq!(mail.header("To").unwrap(), "Operator <ops@example.com>");
    assert_eq!(
        mail.header("From").unwrap(),
        "\"Delivery Tracker\" <noreply@example.com>"
    );
    assert_eq!(
        mail.header("Reply-To").unwrap(),
        "\"Sam Driver\" <sam@example.com>"
    );
    assert_eq!(mail.header("Subject").unwrap(), "[Delivery Tracker] Tiers");
    assert!(
        mail.header("Content-Type")
            .unwrap()
            .starts_with("text/plain"),
        "{mail:?}"
    );
    let body = mail.body();
    let user_id = user["id"].as_str().unwrap();
    for expected in [
        "Name:    Sam Driver",
        "E-mail:  sam@example.com",
        &format!("User:    {user_id} (signed in)"),
        "Sent:    20",
        "Subject: Tiers",
        "Can I add a fourth tier?\n.\nThanks",
    ] {
        assert!(body.contains(expected), "{expected:?} in {body}");
    }

    let mail = &mails[1];
    assert_eq!(
        mail.header("Subject").unwrap(),
        "[Delivery Tracker] Contact message"
    );
    assert_eq!(mail.header("Reply-To").unwrap(), "Visitor <v@example.com>");
    assert!(mail.body().contains("User:    not signed in"), "{mail:?}");
    assert!(
        mail.body().contains("Do you support Evri? £4.99 — 🚚"),
        "{mail:?}"
    );

    let sent = wait_for_delivery(&app, "Tiers", |d| d.status == EmailStatus::Sent).await;
    assert_eq!(
        (sent.delivery.attempts, sent.delivery.last_error.as_deref()),
        (1, None)
    );
    assert!(sent.delivery.emailed_at_ms.is_some());
    let mut out = Vec::new();
    server::admin::list_messages(&app.store, 10, &mut out)
        .await
        .unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("E-mail: sent 20") && out.contains("after 1 try"),
        "{out}"
    );
    assert_eq!(sink.data_commands(), 2, "each message sent once");
}

/// Line breaks in a one-line field are refused at the door (issue 31: no control characters in
/// free text); a message stored before that rule, with them, still cannot add headers.
async fn line_breaks_in_name_or_subject_cannot_add_headers(backend: Backend) {
    let sink = SmtpSink::start().await;
    let Some(app) = spawn_app_with(backend, mail_to(sink.url(None))).await else {
        return;
    };
    let (name, subject) = (
        "Eve\r\nBcc: victim@example.com",
        "Hello\r\nX-Injected: yes\nCc: other@example.com\r\n\r\nfake body",
    );
    let reply = app
        .post(
            CONTACT,
            json!({"name": name, "email": "eve@example.com", "subject": subject, "message": "Hi"}),
        )
        .await;
    assert_eq!(
        reply.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        reply.text
    );
    assert_eq!(
        reply.body["error"]["fields"]["name"][0],
        "Please remove control characters and text-direction marks"
    );
    let now = domain::time_fmt::now_ms();
    app.store
        .create_contact_message(ContactRecord {
            id: Uuid::now_v7(),
            user_id: None,
            name: name.into(),
            email: "eve@example.com".into(),
            subject: subject.into(),
            message: "Hi".into(),
            created_at_ms: now,
            delivery: EmailDelivery::pending(now),
        })
        .await
        .unwrap();
    // A clean message wakes the mailer, which sends both, oldest first.
    let clean = app
        .post(
            CONTACT,
            json!({"name": "Sam", "email": "sam@example.com", "message": "Hello"}),
        )
        .await;
    assert_eq!(clean.status, StatusCode::CREATED, "{}", clean.text);
    let mail = sink.wait_for(2, DEADLINE).await.remove(0);
    assert_eq!(mail.rcpt_to, ["ops@example.com"], "no extra recipients");
    let mut names = header_names(&mail);
    names.sort();
    assert_eq!(
        names,
        [
            "content-transfer-encoding",
            "content-type",
            "date",
            "from",
            "message-id",
            "mime-version",
            "reply-to",
            "subject",
            "to"
        ],
        "{}",
        mail.data
    );
    let subject = mail.header("Subject").unwrap();
    assert!(
        subject.starts_with("[Delivery Tracker] =?utf-8?") && !subject.contains("Injected"),
        "the visitor's subject is encoded: {}",
        mail.data
    );
    let one_line = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(
        one_line(&decode_words(&subject)),
        "[Delivery Tracker] Hello X-Injected: yes Cc: other@example.com fake body",
        "and reads back as typed"
    );
    assert_eq!(
        decode_words(&mail.header("Reply-To").unwrap()),
        "Eve Bcc: victim@example.com <eve@example.com>",
        "the name on one line, encoded"
    );
    let body = mail.body();
    assert!(
        body.contains("Name:    Eve Bcc: victim@example.com\n")
            && body.contains("Subject: Hello X-Injected: yes Cc: other@example.com fake body\n"),
        "labelled fields on one line each: {body}"
    );
    assert!(
        !mail.data.contains("\r\nBcc:")
            && !mail.data.contains("\r\nX-Injected:")
            && !mail.data.contains("\r\nCc:"),
        "{}",
        mail.data
    );
}

async fn refused_emails_are_retried_until_the_relay_takes_them(backend: Backend) {
    let sink = SmtpSink::start().await;
    sink.refuse_next(2);
    let Some(app) = spawn_app_with(backend, mail_to(sink.url(None))).await else {
        return;
    };
    let reply = app
        .post(CONTACT, json!({"name": "Sam", "email": "sam@example.com", "subject": "Retry", "message": "Hello"}))
        .await;
    assert_eq!(
        reply.status,
        StatusCode::CREATED,
        "stored, whatever SMTP says"
    );
    assert_eq!(app.store.list_contact_messages(10).await.unwrap().len(), 1);

    let mails = sink.wait_for(1, DEADLINE).await;
    assert_eq!(
        mails[0].header("Subject").unwrap(),
        "[Delivery Tracker] Retry"
    );
    let sent = wait_for_delivery(&app, "Retry", |d| d.status == EmailStatus::Sent).await;
    assert_eq!(sent.delivery.attempts, 3, "two refusals, then delivered");
    assert_eq!(sent.delivery.last_error, None);
    assert_eq!((sink.data_commands(), sink.mails().len()), (3, 1));
}

async fn emails_are_marked_failed_after_the_last_try(backend: Backend) {
    let sink = SmtpSink::start().await;
    sink.refuse_all(true);
    let Some(app) = spawn_app_with(backend, mail_to(sink.url(None))).await else {
        return;
    };
    let reply = app
        .post(CONTACT, json!({"name": "Sam", "email": "sam@example.com", "subject": "Doomed", "message": "Hello"}))
        .await;
    assert_eq!(reply.status, StatusCode::CREATED);
    let failed = wait_for_delivery(&app, "Doomed", |d| d.status == EmailStatus::Failed).await;
    assert_eq!(failed.delivery.attempts, 4, "CONTACT_EMAIL_MAX_ATTEMPTS");
    let error = failed.delivery.last_error.clone().unwrap();
    assert!(
        error.contains("554") && error.contains("refused by the test sink"),
        "{error}"
    );
    assert_eq!(failed.delivery.next_attempt_at_ms, None);
    assert_eq!(sink.data_commands(), 4, "no try after the last");

    let mut out = Vec::new();
    server::admin::list_messages(&app.store, 10, &mut out)
        .await
        .unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("E-mail: FAILED after 4 tries (last error: "),
        "{out}"
    );
    assert!(out.contains("Hello"), "the message itself is kept: {out}");
}

/// The visitor's answer never waits on SMTP: a relay that accepts the connection and then says
/// nothing (each command may wait 30 s) does not hold up the 201.
async fn a_silent_relay_does_not_hold_up_the_visitor(backend: Backend) {
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("smtp://{}", silent.local_addr().unwrap());
    let Some(app) = spawn_app_with(backend, mail_to(url)).await else {
        return;
    };
    let reply = common::read(
        app.http
            .post(format!("{}{CONTACT}", app.base))
            .json(&json!({"name": "Sam", "email": "sam@example.com", "subject": "Silent", "message": "Hello"}))
            .timeout(Duration::from_secs(10)),
    )
    .await;
    assert_eq!(reply.status, StatusCode::CREATED);
    let stored = app.store.list_contact_messages(10).await.unwrap();
    assert_eq!(stored[0].delivery.status, EmailStatus::Pending);
    drop(silent);
}

async fn pending_emails_survive_a_restart(backend: Backend) {
    let Some(TestStore { store, dir: _db }) = store_for(backend).await else {
        return;
    };
    let on_store = || TestStore {
        store: store.clone(),
        dir: tempfile::tempdir().unwrap(),
    };
    // Nothing listens on this port: connections are refused.
    let dead = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let first = spawn_app_on(on_store(), |config| {
        mail_to(format!("smtp://{dead}"))(config);
        config.smtp.contact_email_first_retry_ms = 300;
        config.smtp.contact_email_max_attempts = 100;
    })
    .await;
    let reply = first
        .post(CONTACT, json!({"name": "Sam", "email": "sam@example.com", "subject": "Restart", "message": "Hello"}))
        .await;
    assert_eq!(reply.status, StatusCode::CREATED);
    let pending = wait_for_delivery(&first, "Restart", |d| d.attempts >= 1).await;
    assert_eq!(pending.delivery.status, EmailStatus::Pending);
    assert!(
        pending
            .delivery
            .last_error
            .as_deref()
            .is_some_and(|e| e.to_lowercase().contains("refused")),
        "{pending:?}"
    );
    drop(first);

    let sink = SmtpSink::start().await;
    let second = spawn_app_on(on_store(), mail_to(sink.url(None))).await;
    let mails = sink.wait_for(1, DEADLINE).await;
    assert_eq!(
        mails[0].header("Subject").unwrap(),
        "[Delivery Tracker] Restart"
    );
    let sent = wait_for_delivery(&second, "Restart", |d| d.status == EmailStatus::Sent).await;
    assert!(sent.delivery.attempts >= 2, "{sent:?}");
}

/// A claimed message is leased: a second worker (another process) does not take it meanwhile,
/// and a message no longer pending ignores late results.
async fn claims_lease_messages_to_one_worker(backend: Backend) {
    let Some(TestStore { store, dir: _db }) = store_for(backend).await else {
        return;
    };
    let record = |subject: &str, delivery| ContactRecord {
        id: Uuid::now_v7(),
        user_id: None,
        name: "Sam".into(),
        email: "sam@example.com".into(),
        subject: subject.into(),
        message: "Hello".into(),
        created_at_ms: 1_000,
        delivery,
    };
    let due = record("due", EmailDelivery::pending(1_000));
    store.create_contact_message(due.clone()).await.unwrap();
    store
        .create_contact_message(record("later", EmailDelivery::pending(9_000)))
        .await
        .unwrap();
    store
        .create_contact_message(record("off", EmailDelivery::not_configured()))
        .await
        .unwrap();
    assert_eq!(store.next_contact_email_at().await.unwrap(), Some(1_000));

    let claimed = store.claim_contact_emails(2_000, 5_000, 10).await.unwrap();
    assert_eq!(
        claimed
            .iter()
            .map(|c| c.subject.as_str())
            .collect::<Vec<_>>(),
        ["due"]
    );
    assert!(
        store
            .claim_contact_emails(3_000, 6_000, 10)
            .await
            .unwrap()
            .is_empty(),
        "leased until 5000"
    );
    assert_eq!(store.next_contact_email_at().await.unwrap(), Some(5_000));
    let again = store.claim_contact_emails(5_000, 8_000, 10).await.unwrap();
    assert_eq!(again.len(), 1, "lease over: offered again");

    store
        .record_contact_email(due.id, EmailAttempt::Sent { at_ms: 5_500 })
        .await
        .unwrap();
    store
        .record_contact_email(
            due.id,
            EmailAttempt::GaveUp {
                error: "late".into(),
            },
        )
        .await
        .unwrap();
    let stored = store.list_contact_messages(10).await.unwrap();
    let sent = stored.iter().find(|m| m.id == due.id).unwrap();
    assert_eq!(
        (
            sent.delivery.status,
            sent.delivery.attempts,
            sent.delivery.emailed_at_ms
        ),
        (EmailStatus::Sent, 1, Some(5_500))
    );
    assert_eq!(store.next_contact_email_at().await.unwrap(), Some(9_000));
}

on_both_backends!(
    messages_are_checked_in_the_spec_order,
    messages_are_stored_signed_in_or_out_and_listed,
    contact_is_rate_limited_per_ip,
    messages_are_emailed_to_the_operator,
    line_breaks_in_name_or_subject_cannot_add_headers,
    refused_emails_are_retried_until_the_relay_takes_them,
    emails_are_marked_failed_after_the_last_try,
    a_silent_relay_does_not_hold_up_the_visitor,
    pending_emails_survive_a_restart,
    claims_lease_messages_to_one_worker,
);

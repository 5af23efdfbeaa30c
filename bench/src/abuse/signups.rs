//! Closed sign-ups and odd forwarded addresses (issue 31 items 4 and 9). Three guests are made
//! while the server is open; it restarts with SIGNUPS_OPEN=false and GUESTS_ENABLED=false, and
//! the guests try to keep working and to add an e-mail and password or a phone; a code is asked
//! for a number without an account. Then, behind TRUST_PROXY, `/metrics` and the login limit
//! with a last forwarded hop of `unknown`.

use std::{path::Path, time::Duration};

use serde_json::{Value, json};

use super::{Figure, Server, guest, phone::solve, quotas::sqlite};

const PHONE: &[(&str, &str)] = &[
    ("SMS_SENDER", "log"),
    ("PHONE_CAPTCHA_MAX_NUMBER", "1000"),
    ("PHONE_CAPTCHA_MAX_NUMBER_CEILING", "4000"),
    ("PHONE_SEND_INTERVAL_SECS", "0"),
];

fn figure(name: &str, value: String) -> Figure {
    Figure::new(format!("signups: {name}"), value)
}

pub async fn run(binary: &Path) -> Vec<Figure> {
    let mut figures = closed(binary).await;
    figures.extend(forwarded(binary).await);
    figures
}

async fn closed(binary: &Path) -> Vec<Figure> {
    let dir = tempfile::tempdir().expect("temp dir");
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .expect("client");
    let mut guests = Vec::new();
    {
        let open = Server::start_in(binary, dir.path(), PHONE, None).await;
        for _ in 0..3 {
            guests.push(guest(&http, &open.base).await);
        }
    }
    let mut env = PHONE.to_vec();
    env.extend([("SIGNUPS_OPEN", "false"), ("GUESTS_ENABLED", "false")]);
    let server = Server::start_in(binary, dir.path(), &env, None).await;
    let accounts = |server: &Server| {
        sqlite(server, |conn| {
            conn.query_row(
                "SELECT COUNT(*) FROM users WHERE is_anonymous = 0",
                [],
                |r| r.get::<_, i64>(0),
            )
        })
        .unwrap_or(-1)
    };
    let before = accounts(&server);
    let status =
        |reply: Result<reqwest::Response, reqwest::Error>| reply.map_or(0, |r| r.status().as_u16());
    let pull = status(
        http.get(format!("{}/api/v1/sync/pull", server.base))
            .header("cookie", &guests[0])
            .send()
            .await,
    );
    let linked = status(
        http.post(format!("{}/api/v1/auth/link/password", server.base))
            .header("cookie", &guests[1])
            .json(&json!({"email": "was-a-guest@example.com", "password": "van-route-42"}))
            .send()
            .await,
    );
    let phone_link = link_phone(&http, &server, &guests[2], "+447700900777").await;
    let sent_before = texts(&server, "+447700900888");
    let _ = send_code(&http, &server, None, "+447700900888").await;
    let unknown_texted = texts(&server, "+447700900888") - sent_before;
    vec![
        figure(
            "a guest made before, GUESTS_ENABLED=false: pull answered",
            pull.to_string(),
        ),
        figure(
            "such guests adding e-mail+password / phone: answers",
            format!("{linked} / {phone_link}"),
        ),
        figure(
            "accounts before / after those attempts",
            format!("{before} / {}", accounts(&server)),
        ),
        figure(
            "codes texted to a number without an account, sign-ups closed",
            unknown_texted.to_string(),
        ),
    ]
}

/// Codes in the log sender's outbox for `number`.
fn texts(server: &Server, number: &str) -> usize {
    std::fs::read_to_string(server.data_dir().join("sms-outbox.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|line| line["to"] == number)
        .count()
}

async fn send_code(
    http: &reqwest::Client,
    server: &Server,
    cookie: Option<&str>,
    number: &str,
) -> Option<String> {
    let challenge: Value = http
        .get(format!("{}/api/v1/auth/phone/challenge", server.base))
        .send()
        .await
        .ok()?
        .json()
        .await
        .ok()?;
    let mut request = http
        .post(format!("{}/api/v1/auth/phone/send", server.base))
        .json(&json!({"phone": number, "captcha": solve(&challenge)?}));
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    let reply: Value = request.send().await.ok()?.json().await.ok()?;
    reply["verificationId"].as_str().map(str::to_owned)
}

/// A guest adding a phone: the verify's status (0 when no code came to verify).
async fn link_phone(http: &reqwest::Client, server: &Server, cookie: &str, number: &str) -> u16 {
    let Some(verification) = send_code(http, server, Some(cookie), number).await else {
        return 0;
    };
    let Some(code) = std::fs::read_to_string(server.data_dir().join("sms-outbox.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .rfind(|line| line["to"] == number)
        .and_then(|line| line["code"].as_str().map(str::to_owned))
    else {
        return 0;
    };
    http.post(format!("{}/api/v1/auth/phone/verify", server.base))
        .header("cookie", cookie)
        .json(&json!({"verificationId": verification, "code": code}))
        .send()
        .await
        .map_or(0, |r| r.status().as_u16())
}

async fn forwarded(binary: &Path) -> Vec<Figure> {
    let server = Server::start(
        binary,
        &[
            ("TRUST_PROXY", "true"),
            ("METRICS_ENABLED", "true"),
            ("AUTH_RATE_LIMIT_PER_MINUTE", "5"),
        ],
        None,
    )
    .await;
    let http = reqwest::Client::new();
    let metrics = http
        .get(format!("{}/metrics", server.base))
        .header("x-forwarded-for", "unknown")
        .send()
        .await
        .map_or(0, |r| r.status().as_u16());
    let login = |hop: Option<&'static str>| {
        let mut request = http
            .post(format!("{}/api/v1/auth/login", server.base))
            .json(&json!({"email": "nobody@example.com", "password": "not-it-at-all"}));
        if let Some(hop) = hop {
            request = request.header("x-forwarded-for", hop);
        }
        async move { request.send().await.map_or(0, |r| r.status().as_u16()) }
    };
    for _ in 0..5 {
        login(Some("unknown")).await;
    }
    let proxy_itself = login(None).await;
    vec![
        figure(
            "/metrics without a token, last forwarded hop `unknown`",
            metrics.to_string(),
        ),
        figure(
            "the proxy's own login after 5 from clients it named `unknown` (limit 5)",
            proxy_itself.to_string(),
        ),
    ]
}

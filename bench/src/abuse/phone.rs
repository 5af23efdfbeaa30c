//! Issue 10 item 3: scripts on three IPv4 addresses solve the phone captcha as fast as they can
//! and ask for codes to fresh numbers for ATTACK_FOR, then a real user on a fourth address asks
//! for one. Run with SMS_SENDER=log, TRUST_PROXY=true and the default limits; the addresses
//! travel in X-Forwarded-For. Counts answers by status, so it measures any binary.

use std::{
    path::Path,
    sync::Arc,
    time::{Duration, Instant},
};

use reqwest::StatusCode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::{Figure, Server};

const ATTACK_FOR: Duration = Duration::from_secs(25);
const ATTACKER_IPS: [&str; 3] = ["198.51.100.1", "198.51.100.2", "198.51.100.3"];
const REAL_USER_IP: &str = "203.0.113.50";
/// Bounds each attacker's loop whatever the server answers.
const MAX_TRIES_PER_IP: usize = 5_000;

#[derive(Default)]
struct Tally {
    sent: u32,
    tries: u32,
    solve_time: Duration,
    last_max: u64,
}

/// Finds the number like the browser does (SHA-256 of salt + number until it matches).
pub(super) fn solve(challenge: &Value) -> Option<Value> {
    let salt = challenge["salt"].as_str()?;
    let target = challenge["challenge"].as_str()?;
    let max = challenge["maxnumber"].as_u64()?;
    let mut target_bytes = [0u8; 32];
    for (i, byte) in target_bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(target.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    let number =
        (0..=max).find(|n| Sha256::digest(format!("{salt}{n}")).as_slice() == target_bytes)?;
    Some(json!({
        "algorithm": challenge["algorithm"],
        "challenge": target,
        "number": number,
        "salt": salt,
        "signature": challenge["signature"],
    }))
}

/// One challenge, solved, and one send from `ip`; the status and the time spent solving.
async fn try_send(
    http: &reqwest::Client,
    base: &str,
    ip: &str,
    phone: &str,
) -> Option<(StatusCode, Duration, u64)> {
    let challenge: Value = http
        .get(format!("{base}/api/v1/auth/phone/challenge"))
        .header("x-forwarded-for", ip)
        .send()
        .await
        .ok()?
        .json()
        .await
        .ok()?;
    let max = challenge["maxnumber"].as_u64().unwrap_or(0);
    let started = Instant::now();
    let captcha = tokio::task::spawn_blocking(move || solve(&challenge))
        .await
        .ok()??;
    let solving = started.elapsed();
    let status = http
        .post(format!("{base}/api/v1/auth/phone/send"))
        .header("x-forwarded-for", ip)
        .json(&json!({"phone": phone, "captcha": captcha}))
        .send()
        .await
        .ok()?
        .status();
    Some((status, solving, max))
}

async fn attack(http: reqwest::Client, base: Arc<str>, index: usize, until: Instant) -> Tally {
    let ip = ATTACKER_IPS[index];
    let mut tally = Tally::default();
    for n in 0..MAX_TRIES_PER_IP {
        if Instant::now() >= until {
            break;
        }
        let phone = format!("+4477009{index}{n:04}");
        let Some((status, solving, max)) = try_send(&http, &base, ip, &phone).await else {
            continue;
        };
        tally.tries += 1;
        tally.solve_time += solving;
        tally.last_max = max;
        if status == StatusCode::ACCEPTED {
            tally.sent += 1;
        }
    }
    tally
}

pub async fn run(binary: &Path) -> Vec<Figure> {
    let server = Server::start(
        binary,
        &[("SMS_SENDER", "log"), ("TRUST_PROXY", "true")],
        None,
    )
    .await;
    let base: Arc<str> = server.base.clone().into();
    let http = reqwest::Client::new();
    let until = Instant::now() + ATTACK_FOR;
    let attackers: Vec<_> = (0..ATTACKER_IPS.len())
        .map(|i| tokio::spawn(attack(http.clone(), base.clone(), i, until)))
        .collect();
    let mut total = Tally::default();
    for attacker in attackers {
        let tally = attacker.await.unwrap_or_default();
        total.sent += tally.sent;
        total.tries += tally.tries;
        total.solve_time += tally.solve_time;
        total.last_max = total.last_max.max(tally.last_max);
    }
    let user = try_send(&http, &base, REAL_USER_IP, "+447700900123").await;
    let mean =
        |d: Duration, n: u32| format!("{:.1} ms", d.as_secs_f64() * 1000.0 / f64::from(n.max(1)));
    vec![
        Figure::new("sends the attacker got (3 IPs, 25 s)", total.sent),
        Figure::new(
            "attacker's mean solve time per send",
            mean(total.solve_time, total.tries),
        ),
        Figure::new(
            "attacker's solve time per code obtained",
            mean(total.solve_time, total.sent),
        ),
        Figure::new("attacker's last captcha maxnumber", total.last_max),
        Figure::new(
            "real user got a code",
            match user {
                Some((StatusCode::ACCEPTED, _, _)) => "yes".to_owned(),
                Some((status, _, _)) => format!("no ({})", status.as_u16()),
                None => "no (no answer)".to_owned(),
            },
        ),
        Figure::new(
            "real user's captcha maxnumber",
            user.map_or(0, |(_, _, max)| max),
        ),
    ]
}

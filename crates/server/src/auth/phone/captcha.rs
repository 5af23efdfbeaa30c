//! The invisible proof-of-work captcha (ALTCHA v1, SHA-256), through `altcha-lib-rs`.
//!
//! A challenge is `sha256(salt + n)` for a secret random `n ≤ maxnumber`, signed with
//! HMAC-SHA256 under a key every server process shares. The salt carries `?expires=<unix>&`
//! and `max=<maxnumber>&` (in either order) so the signature covers the expiry and the
//! difficulty the challenge was issued at. The browser finds `n` by brute force; the server
//! checks the answer, then records it so each solution is accepted once.

use altcha_lib_rs::{ChallengeOptions, Payload, algorithm::AltchaAlgorithm};
use base64::{Engine, engine::general_purpose::STANDARD};
use hmac::{Hmac, Mac};
use rand::{RngCore, rngs::OsRng};
use serde_json::Value;
use sha2::{Digest, Sha256};

pub use altcha_lib_rs::Challenge;

/// How long a challenge may take to solve and submit.
pub const CHALLENGE_TTL_SECS: i64 = 600;

/// Why a solution was refused (logged at debug; the client only learns "captcha-failed").
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    Malformed,
    Expired,
    BadSignature,
    WrongAnswer,
}

pub fn create(hmac_key: &str, max_number: u64, now_ms: i64) -> anyhow::Result<Challenge> {
    let mut random = [0u8; 12];
    OsRng.fill_bytes(&mut random);
    let salt = hex::encode(random);
    let expires = now_ms / 1000 + CHALLENGE_TTL_SECS;
    altcha_lib_rs::create_challenge(ChallengeOptions {
        algorithm: Some(AltchaAlgorithm::Sha256),
        max_number: Some(max_number),
        hmac_key,
        // The library keeps `?…&` parameters of a given salt inside the hashed, signed salt.
        salt: Some(format!("{salt}?expires={expires}&max={max_number}&")),
        ..ChallengeOptions::default()
    })
    .map_err(|err| anyhow::anyhow!("creating a captcha challenge: {err}"))
}

/// The solution as the client sent it: the payload object, or the ALTCHA widget's base64 of
/// its JSON.
pub fn parse(value: &Value) -> Option<Payload> {
    match value {
        Value::String(encoded) => {
            let json = STANDARD.decode(encoded.trim()).ok()?;
            serde_json::from_slice(&json).ok()
        }
        Value::Object(_) => serde_json::from_value(value.clone()).ok(),
        _ => None,
    }
}

/// A parameter the signed salt carries, if it carries it properly terminated.
fn salt_param<T: std::str::FromStr>(salt: &str, name: &str) -> Option<T> {
    let (_, params) = salt.split_once('?')?;
    params
        .split_inclusive('&')
        .find_map(|p| p.strip_prefix(name)?.strip_prefix('='))
        .and_then(|v| v.strip_suffix('&'))
        .and_then(|v| v.parse().ok())
}

/// What a verified solution tells.
#[derive(Debug, PartialEq, Eq)]
pub struct Solved {
    /// When its challenge expires (ms): how long the replay record must be kept.
    pub expires_at_ms: i64,
    /// The difficulty its challenge was issued at.
    pub max_number: u64,
}

/// Checks a solution.
pub fn verify(payload: &Payload, hmac_key: &str, now_ms: i64) -> Result<Solved, Refusal> {
    if !matches!(payload.algorithm, AltchaAlgorithm::Sha256) {
        return Err(Refusal::Malformed);
    }
    // Every challenge we issue expires and states its difficulty, so one without is not ours.
    let expires: i64 = salt_param(&payload.salt, "expires").ok_or(Refusal::Malformed)?;
    let max_number: u64 = salt_param(&payload.salt, "max").ok_or(Refusal::Malformed)?;
    if expires.saturating_mul(1000) < now_ms {
        return Err(Refusal::Expired);
    }
    // Constant-time signature check first: the library compares hex strings with `!=`.
    let signature = hex::decode(&payload.signature).map_err(|_| Refusal::BadSignature)?;
    let mut mac = Hmac::<Sha256>::new_from_slice(hmac_key.as_bytes()).expect("any key length");
    mac.update(payload.challenge.as_bytes());
    mac.verify_slice(&signature)
        .map_err(|_| Refusal::BadSignature)?;
    // Checked here rather than by `altcha_lib_rs::verify_solution`, which rebuilds the salt from
    // a HashMap of its parameters: with two of them their order, and so the hash, is random.
    let digest = Sha256::digest(format!("{}{}", payload.salt, payload.number));
    if hex::decode(&payload.challenge).ok().as_deref() != Some(digest.as_slice()) {
        return Err(Refusal::WrongAnswer);
    }
    Ok(Solved {
        expires_at_ms: expires * 1000,
        max_number,
    })
}

#[cfg(test)]
pub mod tests {
    use super::*;

    const KEY: &str = "test-key";

    /// Brute-forces a challenge like the browser does.
    pub fn solve(challenge: &Challenge) -> Payload {
        let number = (0..=challenge.maxnumber)
            .find(|n| {
                let digest = Sha256::digest(format!("{}{n}", challenge.salt));
                hex::encode(digest) == challenge.challenge
            })
            .expect("solvable");
        Payload {
            algorithm: challenge.algorithm,
            challenge: challenge.challenge.clone(),
            number,
            salt: challenge.salt.clone(),
            signature: challenge.signature.clone(),
            took: None,
        }
    }

    #[test]
    fn a_solved_challenge_verifies_until_it_expires() {
        let now = 1_700_000_000_000;
        let challenge = create(KEY, 1_000, now).unwrap();
        assert!(
            challenge.salt.contains("expires=1700000600&") && challenge.salt.contains("max=1000&"),
            "{}",
            challenge.salt
        );
        let payload = solve(&challenge);
        let solved = Solved {
            expires_at_ms: 1_700_000_600_000,
            max_number: 1_000,
        };
        assert_eq!(verify(&payload, KEY, now), Ok(solved));
        assert!(verify(&payload, KEY, 1_700_000_600_000).is_ok());
        // Whatever order the library writes the salt's two parameters in.
        for _ in 0..20 {
            let challenge = create(KEY, 10, now).unwrap();
            assert!(
                verify(&solve(&challenge), KEY, now).is_ok(),
                "{}",
                challenge.salt
            );
        }
        assert_eq!(
            verify(&payload, KEY, 1_700_000_600_001),
            Err(Refusal::Expired)
        );
    }

    #[test]
    fn wrong_answers_keys_and_tampering_are_refused() {
        let now = 1_700_000_000_000;
        let challenge = create(KEY, 1_000, now).unwrap();
        let good = solve(&challenge);
        assert_eq!(verify(&good, "other-key", now), Err(Refusal::BadSignature));
        let wrong_number = Payload {
            number: good.number + 1,
            ..good.clone()
        };
        assert_eq!(verify(&wrong_number, KEY, now), Err(Refusal::WrongAnswer));
        // A later expiry changes the salt, so the signed challenge no longer matches.
        let extended = Payload {
            salt: good
                .salt
                .replace("expires=1700000600", "expires=1800000000"),
            ..good.clone()
        };
        assert_eq!(verify(&extended, KEY, now), Err(Refusal::WrongAnswer));
        // A claim of a harder challenge changes the salt too.
        let harder = Payload {
            salt: good.salt.replace("max=1000&", "max=9000&"),
            ..good.clone()
        };
        assert_eq!(verify(&harder, KEY, now), Err(Refusal::WrongAnswer));
        let unsigned_expiry = Payload {
            salt: good.salt.split('?').next().unwrap().to_owned(),
            ..good.clone()
        };
        assert_eq!(verify(&unsigned_expiry, KEY, now), Err(Refusal::Malformed));
        let no_difficulty = Payload {
            salt: good.salt.replace("max=1000&", ""),
            ..good.clone()
        };
        assert_eq!(verify(&no_difficulty, KEY, now), Err(Refusal::Malformed));
        let garbage_signature = Payload {
            signature: "zz".into(),
            ..good.clone()
        };
        assert_eq!(
            verify(&garbage_signature, KEY, now),
            Err(Refusal::BadSignature)
        );
    }

    #[test]
    fn the_widget_base64_form_and_the_object_form_both_parse() {
        let challenge = create(KEY, 10, 0).unwrap();
        let payload = solve(&challenge);
        let json = serde_json::to_value(&payload).unwrap();
        assert_eq!(parse(&json).unwrap().number, payload.number);
        let encoded = Value::String(STANDARD.encode(json.to_string()));
        assert_eq!(parse(&encoded).unwrap().number, payload.number);
        assert!(parse(&Value::String("not base64!".into())).is_none());
        assert!(parse(&Value::Null).is_none());
    }
}

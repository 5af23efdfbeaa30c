//! Stripe webhook signatures: `Stripe-Signature: t=<unix>,v1=<hex hmac>` where the HMAC-SHA256
//! key is the endpoint secret and the message is `"{t}.{raw body}"`. Old timestamps are
//! refused so a captured event cannot be replayed later.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// Stripe's own default tolerance.
pub const TOLERANCE_SECS: i64 = 300;

pub fn verify(header: &str, body: &[u8], secret: &str, now_secs: i64) -> bool {
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", t)) => timestamp = t.parse::<i64>().ok(),
            Some(("v1", sig)) => signatures.push(sig),
            _ => {}
        }
    }
    let Some(timestamp) = timestamp else {
        return false;
    };
    if (now_secs - timestamp).abs() > TOLERANCE_SECS {
        return false;
    }
    signatures.into_iter().any(|signature| {
        let Some(expected) = decode_hex(signature) else {
            return false;
        };
        let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("any key length");
        mac.update(timestamp.to_string().as_bytes());
        mac.update(b".");
        mac.update(body);
        mac.verify_slice(&expected).is_ok() // constant-time comparison
    })
}

/// The header Stripe would send for `body` at `timestamp` (used by tests and local tools).
pub fn sign(body: &[u8], secret: &str, timestamp: i64) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("any key length");
    mac.update(format!("{timestamp}.").as_bytes());
    mac.update(body);
    let hex = hex::encode(mac.finalize().into_bytes());
    format!("t={timestamp},v1={hex}")
}

fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "whsec_test";

    #[test]
    fn accepts_only_a_fresh_correct_signature() {
        let body = br#"{"type":"checkout.session.completed"}"#;
        let header = sign(body, SECRET, 1_000);
        assert!(verify(&header, body, SECRET, 1_000));
        assert!(verify(&header, body, SECRET, 1_000 + TOLERANCE_SECS));
        assert!(
            !verify(&header, body, SECRET, 1_000 + TOLERANCE_SECS + 1),
            "too old"
        );
        assert!(!verify(&header, b"{}", SECRET, 1_000), "body changed");
        assert!(!verify(&header, body, "whsec_other", 1_000), "other secret");
        assert!(!verify("t=1000", body, SECRET, 1_000), "no signature");
        assert!(!verify("v1=00", body, SECRET, 1_000), "no timestamp");
        assert!(!verify("t=1000,v1=zz", body, SECRET, 1_000), "not hex");
        // Several signatures (secret rotation): one valid is enough.
        let rotated = format!("{},v1=deadbeef", header);
        assert!(verify(&rotated, body, SECRET, 1_000));
    }
}

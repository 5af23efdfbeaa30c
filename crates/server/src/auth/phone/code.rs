//! Sign-in codes: six digits from the OS random generator, kept only as a salted SHA-256.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use rand::{Rng, RngCore, rngs::OsRng};
use sha2::{Digest, Sha256};

pub const CODE_DIGITS: usize = 6;

/// A fresh code, e.g. "042917" (leading zeros kept: every code is six digits).
pub fn new_code() -> String {
    format!("{:06}", OsRng.gen_range(0..1_000_000u32))
}

pub fn new_salt() -> String {
    let mut bytes = [0u8; 16];
    OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Hex SHA-256 of salt and code. A per-code salt means equal codes never hash alike.
pub fn hash_code(salt: &str, code: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(salt.as_bytes());
    hasher.update(b":");
    hasher.update(code.as_bytes());
    hex::encode(hasher.finalize())
}

/// Compares in constant time, so the response time says nothing about how close a guess was.
pub fn code_matches(salt: &str, code: &str, stored_hash: &str) -> bool {
    let candidate = hash_code(salt, code);
    candidate.len() == stored_hash.len()
        && candidate
            .bytes()
            .zip(stored_hash.bytes())
            .fold(0u8, |diff, (a, b)| diff | (a ^ b))
            == 0
}

/// Six ASCII digits, nothing else.
pub fn is_well_formed(code: &str) -> bool {
    code.len() == CODE_DIGITS && code.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_six_digits_and_vary() {
        let codes: std::collections::HashSet<String> = (0..200).map(|_| new_code()).collect();
        assert!(codes.iter().all(|c| is_well_formed(c)), "{codes:?}");
        assert!(
            codes.len() > 150,
            "200 draws from a million should rarely repeat"
        );
    }

    #[test]
    fn hashes_are_salted_and_verify_only_the_right_code() {
        let (a, b) = (new_salt(), new_salt());
        assert_ne!(a, b);
        assert_ne!(hash_code(&a, "123456"), hash_code(&b, "123456"));
        let stored = hash_code(&a, "123456");
        assert!(!stored.contains("123456"));
        assert_eq!(stored.len(), 64);
        assert!(code_matches(&a, "123456", &stored));
        assert!(!code_matches(&a, "123457", &stored));
        assert!(!code_matches(&b, "123456", &stored));
        assert!(!code_matches(&a, "123456", ""));
    }

    #[test]
    fn only_six_ascii_digits_are_well_formed() {
        assert!(is_well_formed("000000"));
        for bad in ["", "12345", "1234567", "12345a", " 12345", "١٢٣٤٥٦"] {
            assert!(!is_well_formed(bad), "{bad:?}");
        }
    }
}

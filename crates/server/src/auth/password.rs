//! Password hashing with argon2id, off the async runtime and with bounded concurrency so a
//! burst of sign-ins cannot starve every other request of CPU.

use std::sync::Arc;

use anyhow::anyhow;
use argon2::{
    Argon2, PasswordHash, PasswordHasher as _, PasswordVerifier as _,
    password_hash::{SaltString, rand_core::OsRng},
};
use tokio::sync::Semaphore;

#[derive(Clone)]
pub struct PasswordHasher {
    permits: Arc<Semaphore>,
    /// Verified against when an e-mail is unknown, so both answers take the same time.
    decoy_hash: Arc<String>,
}

impl PasswordHasher {
    pub fn new() -> anyhow::Result<PasswordHasher> {
        let parallel = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        let decoy = hash_blocking("decoy password that nobody can use")?;
        Ok(PasswordHasher {
            permits: Arc::new(Semaphore::new(parallel * 2)),
            decoy_hash: Arc::new(decoy),
        })
    }

    pub async fn hash(&self, password: &str) -> anyhow::Result<String> {
        let _permit = self.permits.acquire().await?;
        let password = password.to_owned();
        tokio::task::spawn_blocking(move || hash_blocking(&password)).await?
    }

    /// `stored` is `None` for an unknown account: the decoy is checked instead and the
    /// answer is always false.
    pub async fn verify(&self, password: &str, stored: Option<&str>) -> anyhow::Result<bool> {
        let _permit = self.permits.acquire().await?;
        let password = password.to_owned();
        let known = stored.is_some();
        let hash = stored.map_or_else(|| self.decoy_hash.as_str().to_owned(), str::to_owned);
        let matches = tokio::task::spawn_blocking(move || {
            let parsed = PasswordHash::new(&hash).map_err(|e| anyhow!("stored hash: {e}"))?;
            anyhow::Ok(
                Argon2::default()
                    .verify_password(password.as_bytes(), &parsed)
                    .is_ok(),
            )
        })
        .await??;
        Ok(known && matches)
    }
}

fn hash_blocking(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| anyhow!("hashing password: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn verifies_only_the_right_password() {
        let hasher = PasswordHasher::new().unwrap();
        let hash = hasher.hash("van-route-42").await.unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(hasher.verify("van-route-42", Some(&hash)).await.unwrap());
        assert!(!hasher.verify("van-route-43", Some(&hash)).await.unwrap());
        assert!(
            !hasher
                .verify("decoy password that nobody can use", None)
                .await
                .unwrap()
        );
    }
}

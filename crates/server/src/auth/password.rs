//! Password hashing with argon2id, off the async runtime and with bounded concurrency so a
//! burst of sign-ins cannot starve every other request of CPU.
//!
//! Each argon2id hash needs 19 MiB of working memory. Allocated afresh per hash, glibc's
//! dynamic mmap threshold kept those buffers in its arenas, and 64 sign-ups left the server
//! at 1 GB RSS. So:
//! - buffers are shared by the hashes of a burst (never more than the permits), and all of
//!   them go back to the system when no hash is running or waiting, so an idle server holds
//!   no hash memory;
//! - a freed buffer goes back to the system at once. The server binary allocates with jemalloc,
//!   which does that for every allocation of 8 MiB or more. Under glibc's malloc (the library's
//!   tests, or a build without jemalloc) each buffer reserves more than glibc's largest dynamic
//!   mmap threshold (32 MiB on 64-bit): an allocation that size is always its own mapping,
//!   unmapped when dropped, and freeing it never raises the threshold. Only the blocks a hash
//!   uses are ever touched, so the rest of the reservation costs address space, not memory.

use std::sync::{Arc, Mutex};

use anyhow::anyhow;
use argon2::{
    Algorithm, Argon2, Block, Params, PasswordHash, Version,
    password_hash::{Output, SaltString, rand_core::OsRng},
};
use tokio::sync::Semaphore;

/// Never more hashes at once than this, whatever the cores: each holds 19 MiB.
const MAX_CONCURRENT_HASHES: usize = 4;

/// Blocks (1 KiB each) reserved at least per buffer: just over glibc's `DEFAULT_MMAP_THRESHOLD_MAX`.
const RESERVED_BLOCKS: usize = 32 * 1024 + 1;

#[derive(Clone)]
pub struct PasswordHasher {
    permits: Arc<Semaphore>,
    buffers: Arc<Mutex<Pool>>,
    /// Verified against when an e-mail is unknown, so both answers take the same time.
    decoy_hash: Arc<String>,
}

/// Working memory shared by the hashes of a burst.
#[derive(Default)]
struct Pool {
    /// Buffers no hash is using now; never more than the permits.
    idle: Vec<Vec<Block>>,
    /// Hashes asked for and not yet finished (running, or waiting for a permit).
    wanted: usize,
}

/// One hash's claim on the pool, from the moment it is asked for until its buffer is back (or
/// it was abandoned while waiting): the last claim to go empties the pool.
struct Claim(Arc<Mutex<Pool>>);

impl Claim {
    fn new(pool: &Arc<Mutex<Pool>>) -> Claim {
        lock(pool).wanted += 1;
        Claim(Arc::clone(pool))
    }

    /// Runs `work` with a buffer from the pool (or a new one), then puts the buffer back. The
    /// caller holds a permit, so the pool never grows past the permits.
    fn with_buffer<T>(&self, work: impl FnOnce(&mut Vec<Block>) -> T) -> T {
        let taken = lock(&self.0).idle.pop();
        let mut memory = taken.unwrap_or_default();
        let result = work(&mut memory);
        lock(&self.0).idle.push(memory);
        result
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        let mut pool = lock(&self.0);
        pool.wanted -= 1;
        if pool.wanted == 0 {
            pool.idle.clear();
        }
    }
}

fn lock(pool: &Mutex<Pool>) -> std::sync::MutexGuard<'_, Pool> {
    pool.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl PasswordHasher {
    pub fn new() -> anyhow::Result<PasswordHasher> {
        // argon2id with one lane is CPU-bound: more hashes at once than cores only queue.
        let parallel = std::thread::available_parallelism()
            .map_or(2, std::num::NonZero::get)
            .min(MAX_CONCURRENT_HASHES);
        // Its buffer is dropped here rather than kept: an idle server holds no hash memory.
        let decoy = hash_with("decoy password that nobody can use", &mut Vec::new())?;
        Ok(PasswordHasher {
            permits: Arc::new(Semaphore::new(parallel)),
            buffers: Arc::default(),
            decoy_hash: Arc::new(decoy),
        })
    }

    pub async fn hash(&self, password: &str) -> anyhow::Result<String> {
        let claim = Claim::new(&self.buffers);
        let _permit = self.permits.acquire().await?;
        let password = password.to_owned();
        // The claim moves into the blocking task: it ends when the buffer is back, even if
        // this future is dropped meanwhile.
        tokio::task::spawn_blocking(move || {
            claim.with_buffer(|memory| hash_with(&password, memory))
        })
        .await?
    }

    /// `stored` is `None` for an unknown account: the decoy is checked instead and the
    /// answer is always false.
    pub async fn verify(&self, password: &str, stored: Option<&str>) -> anyhow::Result<bool> {
        let claim = Claim::new(&self.buffers);
        let _permit = self.permits.acquire().await?;
        let password = password.to_owned();
        let known = stored.is_some();
        let hash = stored.map_or_else(|| self.decoy_hash.as_str().to_owned(), str::to_owned);
        let matches = tokio::task::spawn_blocking(move || {
            claim.with_buffer(|memory| verify_with(&password, &hash, memory))
        })
        .await??;
        Ok(known && matches)
    }
}

/// Makes `memory` at least `blocks` long; a buffer only ever grows to the largest cost seen.
/// A new buffer reserves `RESERVED_BLOCKS` (see the module's comment) but touches only `blocks`.
fn fit(memory: &mut Vec<Block>, blocks: usize) -> &mut [Block] {
    if memory.len() < blocks {
        if memory.capacity() == 0 {
            memory.reserve_exact(blocks.max(RESERVED_BLOCKS));
        }
        memory.resize(blocks, Block::default());
    }
    &mut memory[..blocks]
}

/// A PHC string (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`), as `Argon2::hash_password`
/// writes it, computed in `memory`.
fn hash_with(password: &str, memory: &mut Vec<Block>) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    let argon2 = Argon2::default();
    let mut salt_bytes = [0u8; 64];
    let salt_raw = salt
        .as_salt()
        .decode_b64(&mut salt_bytes)
        .map_err(|e| anyhow!("salt: {e}"))?;
    let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
    let blocks = argon2.params().block_count();
    argon2
        .hash_password_into_with_memory(
            password.as_bytes(),
            salt_raw,
            &mut out,
            fit(memory, blocks),
        )
        .map_err(|e| anyhow!("hashing password: {e}"))?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: argon2
            .params()
            .try_into()
            .map_err(|e| anyhow!("params: {e}"))?,
        salt: Some(salt.as_salt()),
        hash: Some(Output::new(&out).map_err(|e| anyhow!("output: {e}"))?),
    };
    Ok(phc.to_string())
}

/// Whether `password` matches the PHC string `stored`, with the algorithm, version and costs
/// the string names (as `PasswordVerifier::verify_password` does), computed in `memory`.
fn verify_with(password: &str, stored: &str, memory: &mut Vec<Block>) -> anyhow::Result<bool> {
    let parsed = PasswordHash::new(stored).map_err(|e| anyhow!("stored hash: {e}"))?;
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        return Err(anyhow!("stored hash has no salt or output"));
    };
    let algorithm = Algorithm::try_from(parsed.algorithm).map_err(|e| anyhow!("algorithm: {e}"))?;
    let version = parsed
        .version
        .map(Version::try_from)
        .transpose()
        .map_err(|e| anyhow!("version: {e}"))?
        .unwrap_or_default();
    let params = Params::try_from(&parsed).map_err(|e| anyhow!("params: {e}"))?;
    let blocks = params.block_count();
    let argon2 = Argon2::new(algorithm, version, params);
    let mut salt_bytes = [0u8; 64];
    let salt_raw = salt
        .decode_b64(&mut salt_bytes)
        .map_err(|e| anyhow!("salt: {e}"))?;
    let mut out = vec![0u8; expected.len()];
    argon2
        .hash_password_into_with_memory(
            password.as_bytes(),
            salt_raw,
            &mut out,
            fit(memory, blocks),
        )
        .map_err(|e| anyhow!("verifying password: {e}"))?;
    // `Output`'s equality is constant-time.
    Ok(Output::new(&out).map_err(|e| anyhow!("output: {e}"))? == expected)
}

#[cfg(test)]
mod tests {
    use argon2::{PasswordHasher as _, PasswordVerifier as _};

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

    #[tokio::test]
    async fn hashes_match_the_argon2_crates_own_format_both_ways() {
        let hasher = PasswordHasher::new().unwrap();
        let ours = hasher.hash("parcel-7").await.unwrap();
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(
            Argon2::default()
                .verify_password(b"parcel-7", &parsed)
                .is_ok()
        );
        assert!(ours.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        let salt = SaltString::generate(&mut OsRng);
        let theirs = Argon2::default()
            .hash_password(b"parcel-7", &salt)
            .unwrap()
            .to_string();
        assert!(hasher.verify("parcel-7", Some(&theirs)).await.unwrap());
        assert!(!hasher.verify("parcel-8", Some(&theirs)).await.unwrap());
    }

    #[tokio::test]
    async fn other_costs_in_a_stored_hash_are_honoured() {
        let hasher = PasswordHasher::new().unwrap();
        let salt = SaltString::generate(&mut OsRng);
        let params = Params::new(8 * 1024, 3, 1, None).unwrap();
        let cheaper = Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
            .hash_password(b"route-9", &salt)
            .unwrap()
            .to_string();
        assert!(hasher.verify("route-9", Some(&cheaper)).await.unwrap());
        assert!(!hasher.verify("route-0", Some(&cheaper)).await.unwrap());
    }

    #[tokio::test]
    async fn a_burst_shares_buffers_and_gives_them_all_back_when_it_ends() {
        let hasher = PasswordHasher::new().unwrap();
        let permits = hasher.permits.available_permits();
        let hashes = (0..12).map(|i| {
            let hasher = hasher.clone();
            async move { hasher.hash(&format!("password {i}")).await.unwrap() }
        });
        let hashes = futures_util::future::join_all(hashes).await;
        assert_eq!(hashes.len(), 12);
        let pool = lock(&hasher.buffers);
        assert_eq!(pool.wanted, 0);
        assert!(pool.idle.is_empty(), "an idle server holds no hash memory");
        drop(pool);
        assert_eq!(hasher.permits.available_permits(), permits);
    }

    #[test]
    fn a_buffer_stays_for_the_next_hash_only_while_one_is_wanted() {
        let pool = Arc::new(Mutex::new(Pool::default()));
        let first = Claim::new(&pool);
        let waiting = Claim::new(&pool);
        let len = first.with_buffer(|memory| fit(memory, 8).len());
        assert_eq!(len, 8);
        drop(first);
        // Another hash is waiting: the buffer is kept for it, not freed and made again.
        assert_eq!(lock(&pool).idle.len(), 1);
        let reused = waiting.with_buffer(|memory| memory.len());
        assert_eq!(reused, 8);
        drop(waiting);
        assert!(lock(&pool).idle.is_empty());
    }

    #[test]
    fn a_new_buffer_reserves_past_the_mmap_threshold_but_touches_only_what_it_uses() {
        let mut memory = Vec::new();
        assert_eq!(fit(&mut memory, 19 * 1024).len(), 19 * 1024);
        assert!(memory.capacity() * std::mem::size_of::<Block>() > 32 * 1024 * 1024);
        assert_eq!(memory.len(), 19 * 1024);
        // A costlier stored hash grows it.
        assert_eq!(fit(&mut memory, 40 * 1024).len(), 40 * 1024);
    }
}

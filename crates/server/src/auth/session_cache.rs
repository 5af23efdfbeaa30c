//! Resolved sessions kept in memory, so a signed-in request does not read its session and user
//! from the database every time. Bounded (the oldest entry goes first) and short-lived: an
//! entry older than the TTL is read again, so a change made where no signal reaches this
//! process (the admin CLI on SQLite) takes effect within the TTL. Signals drop entries at once:
//! a session's end drops that session (notify: local and relayed from other processes), and any
//! change to a user row drops all of that user's sessions (`Notifier::user_changed`).

use std::{
    collections::{HashMap, VecDeque},
    sync::{Arc, Mutex, MutexGuard, PoisonError},
    time::{Duration, Instant},
};

use uuid::Uuid;

use crate::store::{SessionRecord, UserRecord};

/// Enough for every active device of a small deployment; ~1 KB each.
pub const CAPACITY: usize = 10_000;

#[derive(Clone)]
pub struct SessionCache {
    inner: Arc<Mutex<Entries>>,
    ttl: Duration,
    capacity: usize,
}

#[derive(Default)]
struct Entries {
    by_token: HashMap<String, Entry>,
    /// Insertion order for eviction: (token hash, the entry's `seq`); stale pairs are skipped.
    order: VecDeque<(String, u64)>,
    next_seq: u64,
    /// Moves on every invalidation, so a read that raced one is not stored (see `generation`).
    generation: u64,
}

struct Entry {
    session: SessionRecord,
    user: UserRecord,
    stored: Instant,
    seq: u64,
}

impl SessionCache {
    pub fn new(ttl: Duration, capacity: usize) -> SessionCache {
        SessionCache {
            inner: Arc::default(),
            ttl,
            capacity: capacity.max(1),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Entries> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The cached session and user for `token_hash`, if stored within the TTL as of `now`.
    pub fn get(&self, token_hash: &str, now: Instant) -> Option<(SessionRecord, UserRecord)> {
        let mut entries = self.lock();
        let entry = entries.by_token.get(token_hash)?;
        if now.saturating_duration_since(entry.stored) < self.ttl {
            return Some((entry.session.clone(), entry.user.clone()));
        }
        entries.by_token.remove(token_hash);
        None
    }

    /// Take before reading the database; pass to [`SessionCache::put`] with what was read.
    pub fn generation(&self) -> u64 {
        self.lock().generation
    }

    /// Stores a resolved session, unless an invalidation happened since `generation` was taken
    /// (the rows read may predate it). A zero TTL stores nothing.
    pub fn put(&self, generation: u64, session: SessionRecord, user: UserRecord, now: Instant) {
        if self.ttl.is_zero() {
            return;
        }
        let mut entries = self.lock();
        if entries.generation != generation {
            return;
        }
        let seq = entries.next_seq;
        entries.next_seq += 1;
        let token = session.token_hash.clone();
        entries.order.push_back((token.clone(), seq));
        entries.by_token.insert(
            token,
            Entry {
                session,
                user,
                stored: now,
                seq,
            },
        );
        while entries.by_token.len() > self.capacity {
            let Some((token, seq)) = entries.order.pop_front() else {
                break;
            };
            if entries.by_token.get(&token).is_some_and(|e| e.seq == seq) {
                entries.by_token.remove(&token);
            }
        }
        // Replaced and dropped entries leave stale pairs behind: keep the queue bounded too.
        if entries.order.len() > 2 * self.capacity {
            let Entries {
                by_token, order, ..
            } = &mut *entries;
            order.retain(|(token, seq)| by_token.get(token).is_some_and(|e| e.seq == *seq));
        }
    }

    /// Records a `last_seen` write made for a cached session, so it is not repeated each request.
    pub fn touched(&self, token_hash: &str, last_seen_ms: i64) {
        if let Some(entry) = self.lock().by_token.get_mut(token_hash) {
            entry.session.last_seen_ms = last_seen_ms;
        }
    }

    /// Drops one session (it ended).
    pub fn forget_session(&self, token_hash: &str) {
        let mut entries = self.lock();
        entries.generation += 1;
        entries.by_token.remove(token_hash);
    }

    /// Drops every session of one user (their row changed or is gone). Rare: a scan is fine.
    pub fn forget_user(&self, user_id: Uuid) {
        let mut entries = self.lock();
        entries.generation += 1;
        entries.by_token.retain(|_, e| e.user.id != user_id);
    }

    /// Drops every session: another process changed the database in ways no signal described
    /// (the admin CLI on SQLite).
    pub fn forget_all(&self) {
        let mut entries = self.lock();
        entries.generation += 1;
        entries.by_token.clear();
        entries.order.clear();
    }

    pub fn len(&self) -> usize {
        self.lock().by_token.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl crate::notify::Forgets for SessionCache {
    fn forget_session(&self, token_hash: &str) {
        SessionCache::forget_session(self, token_hash);
    }

    fn forget_user(&self, user_id: Uuid) {
        SessionCache::forget_user(self, user_id);
    }

    fn forget_all(&self) {
        SessionCache::forget_all(self);
    }
}

#[cfg(test)]
mod tests {
    use domain::Role;

    use super::*;

    fn resolved(token: &str, user_id: Uuid) -> (SessionRecord, UserRecord) {
        let session = SessionRecord {
            token_hash: token.to_owned(),
            user_id,
            created_at_ms: 1,
            last_seen_ms: 1,
            user_agent: None,
            temporary_password: false,
        };
        let user = UserRecord {
            id: user_id,
            email: Some(format!("{user_id}@example.com")),
            display_name: None,
            photo_url: None,
            bio: String::new(),
            role: Role::Free,
            is_anonymous: false,
            created_at_ms: 1,
            last_login_ms: 1,
            updated_at_ms: 1,
            must_change_password: false,
        };
        (session, user)
    }

    fn store(cache: &SessionCache, token: &str, user_id: Uuid, now: Instant) {
        let (session, user) = resolved(token, user_id);
        cache.put(cache.generation(), session, user, now);
    }

    #[test]
    fn each_token_gets_its_own_user_until_the_ttl_passes() {
        let cache = SessionCache::new(Duration::from_secs(10), CAPACITY);
        let (sam, kim) = (Uuid::now_v7(), Uuid::now_v7());
        let t0 = Instant::now();
        store(&cache, "a", sam, t0);
        store(&cache, "b", kim, t0);
        assert_eq!(cache.get("a", t0).unwrap().1.id, sam);
        assert_eq!(cache.get("b", t0).unwrap().1.id, kim);
        assert!(cache.get("c", t0).is_none());
        let later = t0 + Duration::from_secs(9);
        assert!(cache.get("a", later).is_some());
        let expired = t0 + Duration::from_secs(10);
        assert!(
            cache.get("a", expired).is_none(),
            "past the TTL it is read again"
        );
        assert_eq!(cache.len(), 1, "and the stale entry is gone");
    }

    #[test]
    fn a_zero_ttl_caches_nothing() {
        let cache = SessionCache::new(Duration::ZERO, CAPACITY);
        let now = Instant::now();
        store(&cache, "a", Uuid::now_v7(), now);
        assert!(cache.get("a", now).is_none());
        assert!(cache.is_empty());
    }

    #[test]
    fn signals_drop_entries_and_a_read_that_raced_one_is_not_stored() {
        let cache = SessionCache::new(Duration::from_secs(10), CAPACITY);
        let (sam, kim) = (Uuid::now_v7(), Uuid::now_v7());
        let now = Instant::now();
        store(&cache, "sam-phone", sam, now);
        store(&cache, "sam-laptop", sam, now);
        store(&cache, "kim", kim, now);
        cache.forget_session("sam-phone");
        assert!(cache.get("sam-phone", now).is_none());
        assert!(cache.get("sam-laptop", now).is_some());
        cache.forget_user(sam);
        assert!(cache.get("sam-laptop", now).is_none());
        assert!(cache.get("kim", now).is_some(), "other users stay");

        let before_read = cache.generation();
        cache.forget_user(sam); // e.g. a role change lands while the rows are being read
        let (session, user) = resolved("sam-laptop", sam);
        cache.put(before_read, session, user, now);
        assert!(
            cache.get("sam-laptop", now).is_none(),
            "the stale read was not kept"
        );
    }

    #[test]
    fn it_is_bounded_and_evicts_the_oldest() {
        let cache = SessionCache::new(Duration::from_secs(10), 3);
        let now = Instant::now();
        let user = Uuid::now_v7();
        for token in ["a", "b", "c", "a", "d", "e"] {
            store(&cache, token, user, now);
        }
        assert_eq!(cache.len(), 3);
        assert!(
            cache.get("a", now).is_some(),
            "re-stored, so newer than b and c"
        );
        assert!(cache.get("d", now).is_some() && cache.get("e", now).is_some());
        assert!(cache.get("b", now).is_none() && cache.get("c", now).is_none());
    }

    #[test]
    fn a_touch_updates_the_cached_last_seen() {
        let cache = SessionCache::new(Duration::from_secs(10), CAPACITY);
        let now = Instant::now();
        store(&cache, "a", Uuid::now_v7(), now);
        cache.touched("a", 99);
        assert_eq!(cache.get("a", now).unwrap().0.last_seen_ms, 99);
    }
}

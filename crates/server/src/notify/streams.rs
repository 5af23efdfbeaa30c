//! The open event streams of this process, by user: each user's streams share one watch of the
//! user's change cursor, so a change wakes only that user's streams, and a session's end closes
//! only that session's streams. The entry is made by the user's first stream and goes with the
//! last one.
//!
//! Caps on open event streams per session and per user (in this process). A new stream beyond
//! a cap closes the oldest one rather than being refused: the newest stream is the device
//! that is really there (an older one is most likely a dead connection left behind by a
//! network change), and only the session's or user's own streams are ever closed. The web
//! client reopens a stream the server ended, and pulls every 30 s regardless.
//!
//! Streams never read the database themselves. When something may have happened that no signal
//! described (another process committed, the relay was down, a signal was dropped, or just time
//! passing towards a session's expiry), the registry marks streams as due for a check and wakes
//! the one task that checks them all with two batched reads (sync/stream_check.rs).

use std::{
    collections::{HashMap, HashSet},
    sync::{Arc, Mutex},
};

use tokio::sync::{Notify, oneshot, watch};
use uuid::Uuid;

#[derive(Clone, Default)]
pub struct Streams {
    inner: Arc<Mutex<Registry>>,
    /// Wakes the stream check; a wake while it runs is kept, so it runs once more after.
    check_wanted: Arc<Notify>,
}

#[derive(Default)]
struct Registry {
    next_id: u64,
    by_user: HashMap<Uuid, UserStreams>,
    /// Streams due for a check against the database.
    due: Due,
}

#[derive(Default)]
struct Due {
    all: bool,
    users: HashSet<Uuid>,
}

/// One session with open streams here, as a check needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenSession {
    pub user_id: Uuid,
    pub token_hash: String,
}

struct UserStreams {
    /// Oldest first.
    open: Vec<Entry>,
    /// The highest change cursor signalled for the user since the entry was made.
    cursor: watch::Sender<i64>,
}

struct Entry {
    id: u64,
    token_hash: String,
    close: oneshot::Sender<()>,
}

/// One open stream's place in the registry; dropping it (the stream ended) frees the place.
pub struct StreamTicket {
    id: u64,
    user_id: Uuid,
    streams: Streams,
    /// Resolves when a newer stream displaced this one or its session ended.
    pub displaced: oneshot::Receiver<()>,
    /// Changes when the user's data changed (the value is the new cursor).
    pub cursor: watch::Receiver<i64>,
}

#[derive(Clone, Copy, Debug)]
pub struct StreamCaps {
    pub per_session: usize,
    pub per_user: usize,
}

impl Streams {
    /// Registers a new stream, closing the oldest ones of the session and then of the user
    /// beyond `caps`.
    pub fn open(&self, user_id: Uuid, token_hash: &str, caps: StreamCaps) -> StreamTicket {
        let (close, displaced) = oneshot::channel();
        let mut registry = self
            .inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let id = registry.next_id;
        registry.next_id += 1;
        let user = registry
            .by_user
            .entry(user_id)
            .or_insert_with(|| UserStreams {
                open: Vec::new(),
                cursor: watch::channel(0).0,
            });
        let cursor = user.cursor.subscribe();
        let open = &mut user.open;
        open.push(Entry {
            id,
            token_hash: token_hash.to_owned(),
            close,
        });
        let session_count = open.iter().filter(|e| e.token_hash == token_hash).count();
        for _ in caps.per_session.max(1)..session_count {
            if let Some(oldest) = open.iter().position(|e| e.token_hash == token_hash) {
                let _ = open.remove(oldest).close.send(());
            }
        }
        while open.len() > caps.per_user.max(1) {
            let _ = open.remove(0).close.send(());
        }
        drop(registry);
        StreamTicket {
            id,
            user_id,
            streams: self.clone(),
            displaced,
            cursor,
        }
    }

    /// Wakes `user_id`'s streams, if any, with a cursor higher than any they were sent.
    pub fn changed(&self, user_id: Uuid, cursor: i64) {
        let registry = self.lock();
        if let Some(user) = registry.by_user.get(&user_id) {
            user.cursor.send_if_modified(|seen| {
                let newer = cursor > *seen;
                if newer {
                    *seen = cursor;
                }
                newer
            });
        }
    }

    /// Closes the streams of one session (whose user is not always known: a sign-out names
    /// only the cookie). Rare, so a scan of the registry is fine; only those streams wake.
    pub fn end_session(&self, token_hash: &str) {
        self.end_sessions(|ended| ended == token_hash);
    }

    /// Closes the streams of every session `ended` names, in one scan.
    pub fn end_sessions(&self, ended: impl Fn(&str) -> bool) {
        let mut registry = self.lock();
        for user in registry.by_user.values_mut() {
            let (ended, kept) = std::mem::take(&mut user.open)
                .into_iter()
                .partition(|e| ended(&e.token_hash));
            user.open = kept;
            for entry in ended {
                let _ = entry.close.send(());
            }
        }
    }

    /// Every open stream is due for a check: something happened that no signal described.
    pub fn check_all(&self) {
        self.lock().due.all = true;
        self.check_wanted.notify_one();
    }

    /// `user_id`'s open streams, if any, are due for a check (their user row changed: sessions
    /// may have ended with it, and the change sequence may have moved).
    pub fn check_user(&self, user_id: Uuid) {
        let mut registry = self.lock();
        if registry.by_user.contains_key(&user_id) {
            registry.due.users.insert(user_id);
            drop(registry);
            self.check_wanted.notify_one();
        }
    }

    /// Resolves when a check is wanted (at once if one was asked for since the last wait).
    pub async fn check_wanted(&self) {
        self.check_wanted.notified().await;
    }

    /// The sessions of the streams due for a check, each once, and clears the marks.
    pub fn take_due(&self) -> Vec<OpenSession> {
        let mut registry = self.lock();
        let due = std::mem::take(&mut registry.due);
        let mut seen = HashSet::new();
        let mut sessions = Vec::new();
        for (user_id, user) in &registry.by_user {
            if !due.all && !due.users.contains(user_id) {
                continue;
            }
            for entry in &user.open {
                if seen.insert(entry.token_hash.as_str()) {
                    sessions.push(OpenSession {
                        user_id: *user_id,
                        token_hash: entry.token_hash.clone(),
                    });
                }
            }
        }
        sessions
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Registry> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Open streams of one user (for tests and logs).
    pub fn count(&self, user_id: Uuid) -> usize {
        self.lock()
            .by_user
            .get(&user_id)
            .map_or(0, |u| u.open.len())
    }
}

impl Drop for StreamTicket {
    fn drop(&mut self) {
        let mut registry = self.streams.lock();
        if let Some(user) = registry.by_user.get_mut(&self.user_id) {
            user.open.retain(|e| e.id != self.id);
            if user.open.is_empty() {
                registry.by_user.remove(&self.user_id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAPS: StreamCaps = StreamCaps {
        per_session: 2,
        per_user: 3,
    };

    #[test]
    fn a_change_wakes_only_its_users_streams_and_a_session_end_only_its_own() {
        let streams = Streams::default();
        let (sam, kim) = (Uuid::now_v7(), Uuid::now_v7());
        let mut phone = streams.open(sam, "phone", CAPS);
        let mut laptop = streams.open(sam, "laptop", CAPS);
        let mut other = streams.open(kim, "kim", CAPS);
        streams.changed(sam, 7);
        assert!(phone.cursor.has_changed().unwrap());
        assert_eq!(*laptop.cursor.borrow_and_update(), 7);
        assert!(
            !other.cursor.has_changed().unwrap(),
            "another user's stream sleeps"
        );
        streams.changed(sam, 6);
        assert!(
            !laptop.cursor.has_changed().unwrap(),
            "an older cursor is no news"
        );
        streams.changed(Uuid::now_v7(), 1); // nobody listening: nothing to do

        streams.end_session("phone");
        assert!(
            phone.displaced.try_recv().is_ok(),
            "the ended session's stream closes"
        );
        assert!(laptop.displaced.try_recv().is_err());
        assert!(other.displaced.try_recv().is_err());
        assert_eq!(streams.count(sam), 1);
        drop((phone, laptop));
        assert_eq!(streams.count(sam), 0);
        assert!(
            !streams.lock().by_user.contains_key(&sam),
            "the last stream takes the entry"
        );
        assert!(other.displaced.try_recv().is_err());
    }

    #[test]
    fn checks_take_the_due_sessions_once_and_close_only_the_ended() {
        let streams = Streams::default();
        let (sam, kim) = (Uuid::now_v7(), Uuid::now_v7());
        let mut phone = streams.open(sam, "phone", CAPS);
        let _phone_again = streams.open(sam, "phone", CAPS);
        let mut laptop = streams.open(sam, "laptop", CAPS);
        let mut other = streams.open(kim, "kim", CAPS);
        assert!(streams.take_due().is_empty(), "nothing asked for");

        streams.check_user(kim);
        streams.check_user(Uuid::now_v7()); // no streams here: nothing to check
        assert_eq!(
            streams.take_due(),
            [OpenSession {
                user_id: kim,
                token_hash: "kim".into()
            }]
        );
        assert!(streams.take_due().is_empty(), "taking clears the marks");

        streams.check_all();
        let mut due: Vec<_> = streams
            .take_due()
            .into_iter()
            .map(|s| (s.user_id, s.token_hash))
            .collect();
        due.sort();
        let mut expected = vec![
            (sam, "phone".to_owned()),
            (sam, "laptop".to_owned()),
            (kim, "kim".to_owned()),
        ];
        expected.sort();
        assert_eq!(due, expected, "each session once");

        streams.end_sessions(|t| t == "phone" || t == "gone");
        assert!(phone.displaced.try_recv().is_ok());
        assert!(laptop.displaced.try_recv().is_err());
        assert!(other.displaced.try_recv().is_err());
        assert_eq!(streams.count(sam), 1);
    }

    #[tokio::test]
    async fn a_check_asked_for_while_none_waits_is_not_lost() {
        let streams = Streams::default();
        streams.check_all();
        tokio::time::timeout(std::time::Duration::from_secs(10), streams.check_wanted())
            .await
            .expect("the earlier ask is kept");
    }

    #[test]
    fn the_oldest_stream_of_the_session_then_of_the_user_is_closed() {
        let streams = Streams::default();
        let user = Uuid::now_v7();
        let mut a1 = streams.open(user, "a", CAPS);
        let mut a2 = streams.open(user, "a", CAPS);
        let mut a3 = streams.open(user, "a", CAPS);
        assert!(
            a1.displaced.try_recv().is_ok(),
            "oldest of the session closed"
        );
        assert!(a2.displaced.try_recv().is_err());
        assert_eq!(streams.count(user), 2);
        let mut b1 = streams.open(user, "b", CAPS);
        assert_eq!(streams.count(user), 3);
        let _b2 = streams.open(user, "b", CAPS);
        assert!(a2.displaced.try_recv().is_ok(), "oldest of the user closed");
        assert!(a3.displaced.try_recv().is_err());
        assert!(b1.displaced.try_recv().is_err());
        assert_eq!(streams.count(user), 3);
        drop((a1, a2, a3, b1));
        assert_eq!(streams.count(user), 1, "ended streams free their place");
        assert_eq!(
            streams.count(Uuid::now_v7()),
            0,
            "other users are untouched"
        );
    }
}

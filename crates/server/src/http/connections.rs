//! The server's own accept loop (in place of `axum::serve`), so hostile connections cannot
//! exhaust file descriptors: a header-read timeout that also closes idle keep-alive
//! connections, a bound on open connections (more wait in the kernel's accept queue rather
//! than failing with "Too many open files"), and a per-client-address cap so one attacker
//! cannot take every slot. HTTP/1.1 only: browsers never speak cleartext HTTP/2 and its
//! version sniff had no timeout. Also raises the process's open-file limit at start, and
//! keeps the event streams' share of the slots ([`StreamSlots`]).

use std::{
    collections::HashMap,
    future::Future,
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{Router, extract::ConnectInfo};
use hyper::{body::Incoming, server::conn::http1};
use hyper_util::{
    rt::{TokioIo, TokioTimer},
    server::graceful::GracefulShutdown,
};
use tokio::{
    net::TcpListener,
    sync::{OwnedSemaphorePermit, Semaphore},
};
use tower::ServiceExt;

use crate::{config::ConnectionLimits, http::client_ip::IpKey};

/// After an accept error (e.g. out of file descriptors) wait this long before trying again,
/// instead of spinning.
const ACCEPT_ERROR_PAUSE: Duration = Duration::from_millis(100);

/// Raises the soft open-file limit to the hard limit and returns the limit now in force.
pub fn raise_open_file_limit() -> u64 {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let before = getrlimit(Resource::Nofile);
    if let (Some(current), Some(maximum)) = (before.current, before.maximum)
        && current < maximum
        && let Err(err) = setrlimit(
            Resource::Nofile,
            Rlimit {
                current: Some(maximum),
                maximum: Some(maximum),
            },
        )
    {
        tracing::warn!(error = %err, current, maximum, "could not raise the open-file limit");
    }
    let limit = open_file_limit();
    tracing::info!(
        open_files = limit,
        was = before.current,
        hard = before.maximum,
        "open-file limit"
    );
    limit
}

/// The soft open-file limit (unlimited counts as a large number).
pub fn open_file_limit() -> u64 {
    rustix::process::getrlimit(rustix::process::Resource::Nofile)
        .current
        .unwrap_or(1 << 20)
}

/// Connections (or event streams) per client, counted under its [`IpKey`] (IPv4 address,
/// IPv6 /64) like every other per-IP limit.
#[derive(Clone, Default)]
struct PerAddress {
    open: Arc<Mutex<HashMap<IpKey, usize>>>,
}

struct AddressSlot {
    key: IpKey,
    open: Arc<Mutex<HashMap<IpKey, usize>>>,
}

impl PerAddress {
    fn try_take(&self, key: IpKey, cap: usize) -> Option<AddressSlot> {
        let mut open = self
            .open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let count = open.entry(key).or_insert(0);
        if *count >= cap {
            return None;
        }
        *count += 1;
        Some(AddressSlot {
            key,
            open: self.open.clone(),
        })
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut open = self
            .open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.key) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.remove(&self.key);
            }
        }
    }
}

/// The event streams' share of the connection slots: a stream holds a slot of the whole share
/// and one of its client's (the forwarded address behind a trusted proxy, which the accept
/// loop cannot see) while it is open.
#[derive(Clone)]
pub struct StreamSlots {
    all: Arc<Semaphore>,
    per_address: PerAddress,
    per_address_cap: usize,
}

/// Held by an open event stream; dropping it frees both slots.
pub struct StreamSlot {
    _all: OwnedSemaphorePermit,
    _address: AddressSlot,
}

/// Why a stream was not given a slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamRefusal {
    /// The client's address holds its share already.
    Address,
    /// Every stream slot is taken.
    Full,
}

impl StreamSlots {
    pub fn new(limits: &ConnectionLimits) -> StreamSlots {
        StreamSlots {
            all: Arc::new(Semaphore::new(limits.max_event_streams)),
            per_address: PerAddress::default(),
            per_address_cap: limits.event_streams_per_ip,
        }
    }

    /// A slot for one more stream from `client`, at once or not at all.
    pub fn try_take(&self, client: IpKey) -> Result<StreamSlot, StreamRefusal> {
        let address = self
            .per_address
            .try_take(client, self.per_address_cap)
            .ok_or(StreamRefusal::Address)?;
        let all = self
            .all
            .clone()
            .try_acquire_owned()
            .map_err(|_| StreamRefusal::Full)?;
        Ok(StreamSlot {
            _all: all,
            _address: address,
        })
    }
}

/// Serves `app` on `listener` within `limits` until `shutdown` resolves, then lets open
/// connections finish their requests (idle ones close at once) and returns.
pub async fn serve_bounded(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let per_address = PerAddress::default();
    let graceful = GracefulShutdown::new();
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout);
    tokio::pin!(shutdown);
    loop {
        // Wait for a free slot before accepting: at the bound, new connections queue in the
        // kernel instead of taking a file descriptor we might need.
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => slot.expect("never closed"),
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    if !is_connection_error(&err) {
                        tracing::warn!(error = %err, "accept error");
                        tokio::time::sleep(ACCEPT_ERROR_PAUSE).await;
                    }
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let address_slot = match limits.max_per_ip {
            Some(cap) => match per_address.try_take(IpKey::of(peer.ip()), cap) {
                Some(taken) => Some(taken),
                None => {
                    tracing::debug!(peer = %peer.ip(), "connection refused: per-address cap");
                    continue; // dropping the stream closes it
                }
            },
            None => None,
        };
        let _ = stream.set_nodelay(true);
        let router = app.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            router.clone().oneshot(request)
        });
        let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            if let Err(err) = connection.await {
                tracing::debug!(error = %err, peer = %peer, "connection ended with an error");
            }
            drop(address_slot);
            drop(slot);
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

/// Errors about one incoming connection (it went away before we took it), not the listener.
fn is_connection_error(err: &std::io::Error) -> bool {
    matches!(
        err.kind(),
        std::io::ErrorKind::ConnectionRefused
            | std::io::ErrorKind::ConnectionAborted
            | std::io::ErrorKind::ConnectionReset
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::IpAddr;

    struct Keyed<'a>(&'a PerAddress);

    impl Keyed<'_> {
        fn try_take(&self, ip: IpAddr, cap: usize) -> Option<AddressSlot> {
            self.0.try_take(IpKey::of(ip), cap)
        }
    }

    #[test]
    fn per_address_slots_are_returned() {
        let per = PerAddress::default();
        let per = Keyed(&per);
        let ip: IpAddr = "127.0.0.2".parse().unwrap();
        let first = per.try_take(ip, 2).unwrap();
        let _second = per.try_take(ip, 2).unwrap();
        assert!(per.try_take(ip, 2).is_none());
        assert!(per.try_take("127.0.0.3".parse().unwrap(), 2).is_some());
        // One IPv6 /64 is one client.
        let v6 = |ip: &str| ip.parse::<IpAddr>().unwrap();
        let _a = per.try_take(v6("2001:db8:1:2::1"), 2).unwrap();
        let _b = per.try_take(v6("2001:db8:1:2:ffff::9"), 2).unwrap();
        assert!(per.try_take(v6("2001:db8:1:2::7"), 2).is_none());
        assert!(per.try_take(v6("2001:db8:1:3::1"), 2).is_some());
        drop(first);
        assert!(per.try_take(ip, 2).is_some());
    }

    #[test]
    fn streams_take_a_slot_of_their_address_and_of_the_whole_share() {
        let limits = ConnectionLimits {
            max_connections: 8,
            max_per_ip: None,
            header_read_timeout: Duration::from_secs(1),
            max_event_streams: 3,
            event_streams_per_ip: 2,
        };
        let slots = StreamSlots::new(&limits);
        let key = |ip: &str| IpKey::of(ip.parse().unwrap());
        let a1 = slots.try_take(key("198.51.100.7")).unwrap();
        let _a2 = slots.try_take(key("198.51.100.7")).unwrap();
        assert_eq!(
            slots.try_take(key("198.51.100.7")).err(),
            Some(StreamRefusal::Address)
        );
        let _b1 = slots.try_take(key("203.0.113.9")).unwrap();
        assert_eq!(
            slots.try_take(key("192.0.2.1")).err(),
            Some(StreamRefusal::Full)
        );
        assert_eq!(
            slots.try_take(IpKey::UNKNOWN).err(),
            Some(StreamRefusal::Full),
            "a refused address slot is given back"
        );
        drop(a1);
        assert!(slots.try_take(key("198.51.100.7")).is_ok());
    }
}

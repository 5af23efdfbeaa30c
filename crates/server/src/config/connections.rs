//! Connection and event-stream bounds, flattened into [`super::Config`]. Unset
//! connection caps are derived from the open-file limit the server gets at start-up, so an
//! operator with a low `ulimit -n` is still safe; explicit values are checked for sense.
//!
//! Event streams are connections that never finish, so they get a share of the connection
//! slots and no more: at most half by default, never more than three quarters, so `/healthz`
//! and ordinary requests always find a slot. Within that share one client address (IPv6: a
//! /64; behind TRUST_PROXY the forwarded address) holds at most an eighth, and every stream
//! ends after EVENT_STREAM_MAX_SECONDS (the browser's EventSource reconnects by itself).

use std::time::Duration;

use clap::Args;

use super::ConfigError;

/// File descriptors kept back from connections for the database, uploaded files, logs and
/// outbound HTTP: a quarter of the limit, at least 64 (half of a very low limit).
fn reserved_fds(nofile: u64) -> u64 {
    (nofile / 4).max(64.min(nofile / 2))
}

/// A small server never needs more than this many connections by default.
const DEFAULT_MAX_CONNECTIONS_CEILING: u64 = 4_096;
/// By default one client address may hold this share of all connections (1/8): an attacker
/// needs eight addresses (IPv4, or IPv6 /64 networks) to fill the server. The same share of the
/// event streams' slots by default.
const DEFAULT_PER_IP_SHARE: u64 = 8;
/// Event streams take at most this share of the connection slots by default (1/2)…
const DEFAULT_STREAM_SHARE: u64 = 2;
/// …and never more than three quarters of them, whatever MAX_EVENT_STREAMS says.
fn stream_ceiling(max_connections: u64) -> u64 {
    (max_connections * 3 / 4).max(1)
}

#[derive(Args, Clone, Debug)]
pub struct ConnectionsConfig {
    /// Seconds a connection gets to send a complete request head, counted from when it opens
    /// and again from the end of each answer: a connection that sends nothing, or sits idle
    /// between requests (keep-alive), is closed after this long.
    #[arg(
        long,
        env = "HEADER_READ_TIMEOUT_SECS",
        default_value_t = 15,
        global = true
    )]
    pub header_read_timeout_secs: u64,

    /// Seconds a request (reading its body and computing the answer) may take before it is
    /// answered 408. Event streams are not cut: only the wait for their first byte counts.
    #[arg(
        long,
        env = "REQUEST_TIMEOUT_SECS",
        default_value_t = 30,
        global = true
    )]
    pub request_timeout_secs: u64,

    /// Open client connections at most; further ones wait in the kernel's accept queue until
    /// one closes. Unset: three quarters of the open-file limit (the rest is kept for the
    /// database and files), at most 4096.
    #[arg(long, env = "MAX_CONNECTIONS", global = true)]
    pub max_connections: Option<u64>,

    /// Open connections from one client address (IPv6: one /64) at most; more are closed at
    /// once. Unset: an eighth of MAX_CONNECTIONS, or no separate cap with TRUST_PROXY (every
    /// connection then comes from the proxy, which must bound its clients itself).
    #[arg(long, env = "MAX_CONNECTIONS_PER_IP", global = true)]
    pub max_connections_per_ip: Option<u64>,

    /// Open event streams (`GET /api/v1/sync/events`) at most, over every user: the rest of
    /// the connections are always free for other requests. Unset: half of MAX_CONNECTIONS;
    /// never more than three quarters of it. A stream beyond it is answered 503 `busy`.
    #[arg(long, env = "MAX_EVENT_STREAMS", global = true)]
    pub max_event_streams: Option<u64>,

    /// Open event streams from one client address (IPv6: one /64), counted under the
    /// forwarded address with TRUST_PROXY. Unset: an eighth of MAX_EVENT_STREAMS. A stream
    /// beyond it is answered 429 `too-many-streams`.
    #[arg(long, env = "EVENT_STREAMS_PER_IP", global = true)]
    pub event_streams_per_ip: Option<u64>,

    /// Seconds an event stream stays open at most; then the server ends it and the browser
    /// reconnects (a fresh check of its session). Each stream ends at a random moment in the
    /// last tenth of this, so a restart's reconnections spread out.
    #[arg(
        long,
        env = "EVENT_STREAM_MAX_SECONDS",
        default_value_t = 1_800,
        global = true
    )]
    pub event_stream_max_seconds: u64,

    /// Open event streams (`GET /api/v1/sync/events`) per session; a new one beyond it closes
    /// that session's oldest stream (most likely a dead connection the device left behind).
    #[arg(
        long,
        env = "EVENT_STREAMS_PER_SESSION",
        default_value_t = 4,
        global = true
    )]
    pub event_streams_per_session: u32,

    /// Open event streams per user, over all their sessions; a new one beyond it closes the
    /// user's oldest stream.
    #[arg(
        long,
        env = "EVENT_STREAMS_PER_USER",
        default_value_t = 16,
        global = true
    )]
    pub event_streams_per_user: u32,
}

impl Default for ConnectionsConfig {
    fn default() -> Self {
        ConnectionsConfig {
            header_read_timeout_secs: 15,
            request_timeout_secs: 30,
            max_connections: None,
            max_connections_per_ip: None,
            max_event_streams: None,
            event_streams_per_ip: None,
            event_stream_max_seconds: 1_800,
            event_streams_per_session: 4,
            event_streams_per_user: 16,
        }
    }
}

/// The connection bounds in force, once the open-file limit is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionLimits {
    pub max_connections: usize,
    /// `None`: no cap beyond `max_connections` (behind a trusted proxy).
    pub max_per_ip: Option<usize>,
    pub header_read_timeout: Duration,
    /// Event streams open at once, at most (below `max_connections`).
    pub max_event_streams: usize,
    /// Event streams from one client address (the forwarded one behind a trusted proxy).
    pub event_streams_per_ip: usize,
}

impl ConnectionsConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.header_read_timeout_secs == 0 || self.request_timeout_secs == 0 {
            return Err(ConfigError(
                "HEADER_READ_TIMEOUT_SECS and REQUEST_TIMEOUT_SECS must be at least 1".into(),
            ));
        }
        if self.max_connections == Some(0) || self.max_connections_per_ip == Some(0) {
            return Err(ConfigError(
                "MAX_CONNECTIONS and MAX_CONNECTIONS_PER_IP must be at least 1 (unset them for \
                 limits derived from the open-file limit)"
                    .into(),
            ));
        }
        if let (Some(all), Some(per_ip)) = (self.max_connections, self.max_connections_per_ip)
            && per_ip > all
        {
            return Err(ConfigError(
                "MAX_CONNECTIONS_PER_IP cannot be above MAX_CONNECTIONS".into(),
            ));
        }
        if self.max_event_streams == Some(0) || self.event_streams_per_ip == Some(0) {
            return Err(ConfigError(
                "MAX_EVENT_STREAMS and EVENT_STREAMS_PER_IP must be at least 1 (unset them for \
                 limits derived from MAX_CONNECTIONS)"
                    .into(),
            ));
        }
        if let (Some(all), Some(per_ip)) = (self.max_event_streams, self.event_streams_per_ip)
            && per_ip > all
        {
            return Err(ConfigError(
                "EVENT_STREAMS_PER_IP cannot be above MAX_EVENT_STREAMS".into(),
            ));
        }
        if let (Some(connections), Some(streams)) = (self.max_connections, self.max_event_streams)
            && streams > stream_ceiling(connections)
        {
            return Err(ConfigError(
                "MAX_EVENT_STREAMS can be at most three quarters of MAX_CONNECTIONS: event \
                 streams never end by themselves, and other requests need the rest"
                    .into(),
            ));
        }
        if !(1..=86_400).contains(&self.event_stream_max_seconds) {
            return Err(ConfigError(
                "EVENT_STREAM_MAX_SECONDS must be from 1 to 86400".into(),
            ));
        }
        if self.event_streams_per_session == 0
            || self.event_streams_per_user < self.event_streams_per_session
        {
            return Err(ConfigError(
                "EVENT_STREAMS_PER_SESSION must be at least 1 and not above \
                 EVENT_STREAMS_PER_USER"
                    .into(),
            ));
        }
        Ok(())
    }

    pub fn request_timeout(&self) -> Duration {
        Duration::from_secs(self.request_timeout_secs)
    }

    pub fn event_stream_max_age(&self) -> Duration {
        Duration::from_secs(self.event_stream_max_seconds)
    }

    /// The bounds for a process allowed `nofile` open files.
    pub fn limits(&self, nofile: u64, trust_proxy: bool) -> ConnectionLimits {
        let derived = nofile
            .saturating_sub(reserved_fds(nofile))
            .clamp(1, DEFAULT_MAX_CONNECTIONS_CEILING);
        let max_connections = self.max_connections.unwrap_or(derived);
        let max_per_ip = match self.max_connections_per_ip {
            Some(per_ip) => Some(per_ip),
            None if trust_proxy => None,
            None => Some((max_connections / DEFAULT_PER_IP_SHARE).max(1)),
        };
        // An explicit MAX_EVENT_STREAMS is checked against an explicit MAX_CONNECTIONS in
        // validate(); against a derived one it is held to the same ceiling here.
        let max_event_streams = self
            .max_event_streams
            .unwrap_or(max_connections / DEFAULT_STREAM_SHARE)
            .clamp(1, stream_ceiling(max_connections));
        let event_streams_per_ip = self
            .event_streams_per_ip
            .unwrap_or(max_event_streams / DEFAULT_PER_IP_SHARE)
            .clamp(1, max_event_streams);
        let size = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        ConnectionLimits {
            max_connections: size(max_connections),
            max_per_ip: max_per_ip.map(size),
            header_read_timeout: Duration::from_secs(self.header_read_timeout_secs),
            max_event_streams: size(max_event_streams),
            event_streams_per_ip: size(event_streams_per_ip),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_derive_from_the_file_limit() {
        let config = ConnectionsConfig::default();
        assert!(config.validate().is_ok());
        let at_1024 = config.limits(1024, false);
        assert_eq!(at_1024.max_connections, 768);
        assert_eq!(at_1024.max_per_ip, Some(96));
        assert_eq!(at_1024.header_read_timeout, Duration::from_secs(15));
        assert_eq!(config.limits(256, false).max_connections, 192);
        assert_eq!(config.limits(64, false).max_connections, 32, "tiny limit");
        assert_eq!(config.limits(1 << 20, false).max_connections, 4096);
        assert_eq!(config.limits(1024, true).max_per_ip, None, "behind a proxy");
        // Streams: half the connections, an eighth of that per address, proxy or not.
        assert_eq!(at_1024.max_event_streams, 384);
        assert_eq!(at_1024.event_streams_per_ip, 48);
        let at_256 = config.limits(256, true);
        assert_eq!(
            (at_256.max_event_streams, at_256.event_streams_per_ip),
            (96, 12)
        );
        assert_eq!(config.limits(64, false).max_event_streams, 16, "tiny limit");
        assert_eq!(config.event_stream_max_age(), Duration::from_secs(1_800));
    }

    #[test]
    fn streams_never_take_more_than_three_quarters_of_the_connections() {
        let wants_all = ConnectionsConfig {
            max_event_streams: Some(10_000),
            ..Default::default()
        };
        assert!(
            wants_all.validate().is_ok(),
            "MAX_CONNECTIONS derived: held at start"
        );
        assert_eq!(wants_all.limits(256, false).max_event_streams, 144);
        let explicit = ConnectionsConfig {
            max_event_streams: Some(20),
            event_streams_per_ip: Some(3),
            ..Default::default()
        };
        let limits = explicit.limits(1024, true);
        assert_eq!(
            (limits.max_event_streams, limits.event_streams_per_ip),
            (20, 3)
        );
    }

    #[test]
    fn explicit_values_win() {
        let config = ConnectionsConfig {
            max_connections: Some(50),
            max_connections_per_ip: Some(5),
            ..Default::default()
        };
        assert!(config.validate().is_ok());
        let limits = config.limits(1024, true);
        assert_eq!((limits.max_connections, limits.max_per_ip), (50, Some(5)));
        let only_total = ConnectionsConfig {
            max_connections: Some(80),
            ..Default::default()
        };
        assert_eq!(only_total.limits(1024, false).max_per_ip, Some(10));
    }

    #[test]
    fn nonsense_is_refused() {
        let refused = |config: ConnectionsConfig| config.validate().unwrap_err().0;
        assert!(
            refused(ConnectionsConfig {
                header_read_timeout_secs: 0,
                ..Default::default()
            })
            .contains("HEADER_READ_TIMEOUT_SECS")
        );
        assert!(
            refused(ConnectionsConfig {
                max_connections: Some(0),
                ..Default::default()
            })
            .contains("MAX_CONNECTIONS")
        );
        assert!(
            refused(ConnectionsConfig {
                max_connections: Some(10),
                max_connections_per_ip: Some(11),
                ..Default::default()
            })
            .contains("cannot be above")
        );
        assert!(
            refused(ConnectionsConfig {
                event_streams_per_session: 0,
                ..Default::default()
            })
            .contains("EVENT_STREAMS_PER_SESSION")
        );
        assert!(
            refused(ConnectionsConfig {
                max_connections: Some(100),
                max_event_streams: Some(76),
                ..Default::default()
            })
            .contains("three quarters")
        );
        assert!(
            refused(ConnectionsConfig {
                max_event_streams: Some(5),
                event_streams_per_ip: Some(6),
                ..Default::default()
            })
            .contains("EVENT_STREAMS_PER_IP")
        );
        assert!(
            refused(ConnectionsConfig {
                event_streams_per_ip: Some(0),
                ..Default::default()
            })
            .contains("EVENT_STREAMS_PER_IP")
        );
        assert!(
            refused(ConnectionsConfig {
                event_stream_max_seconds: 0,
                ..Default::default()
            })
            .contains("EVENT_STREAM_MAX_SECONDS")
        );
        assert!(
            refused(ConnectionsConfig {
                event_streams_per_session: 8,
                event_streams_per_user: 4,
                ..Default::default()
            })
            .contains("EVENT_STREAMS_PER_USER")
        );
    }
}

//! The client's IP address, for rate limits: the socket peer, or with TRUST_PROXY the last
//! `X-Forwarded-For` hop (the one our own proxy appended; earlier hops are client-supplied),
//! and [`IpKey`], the one key every per-IP limit counts under.
//!
//! A last hop that is not an address (`unknown`, empty, an obfuscated name, octal) makes the
//! client unknown: never the socket peer, which behind a local proxy is loopback and would
//! pass for the operator's own machine (`/metrics`) and share the proxy's buckets. Unknown
//! clients share one bucket of their own. A port after the address (`203.0.113.7:4711`,
//! `[2001:db8::1]:4711`), which some proxies append, is dropped.

use std::{
    fmt,
    net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr},
};

use axum::extract::{ConnectInfo, FromRef, FromRequestParts};
use axum::http::request::Parts;

use crate::AppState;

/// The client's address; `None` when a trusted proxy named the client in a form that is not
/// an address.
#[derive(Debug, Clone, Copy)]
pub struct ClientIp(pub Option<IpAddr>);

impl<S> FromRequestParts<S> for ClientIp
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let state = AppState::from_ref(state);
        if state.config.http.trust_proxy
            && let Some(header) = parts.headers.get_all("x-forwarded-for").iter().next_back()
        {
            // The right-most hop was appended by our proxy; everything left of it is
            // whatever the client claimed.
            let last_hop = header
                .to_str()
                .ok()
                .and_then(|v| v.rsplit(',').next())
                .unwrap_or_default();
            return Ok(ClientIp(parse_hop(last_hop)));
        }
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |info| info.0.ip());
        Ok(ClientIp(Some(peer)))
    }
}

/// A forwarded hop as an address: `ip`, `ip:port`, `[v6]` or `[v6]:port`; `None` otherwise.
pub fn parse_hop(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim();
    if let Ok(ip) = hop.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Some(rest) = hop.strip_prefix('[') {
        let (inside, after) = rest.split_once(']')?;
        let port_ok = after.is_empty() || after.strip_prefix(':').is_some_and(is_port);
        return port_ok
            .then(|| inside.parse::<Ipv6Addr>().ok())
            .flatten()
            .map(IpAddr::V6);
    }
    let (address, port) = hop.split_once(':')?;
    if !is_port(port) {
        return None;
    }
    address.parse::<Ipv4Addr>().ok().map(IpAddr::V4)
}

fn is_port(text: &str) -> bool {
    !text.is_empty() && text.len() <= 5 && text.bytes().all(|b| b.is_ascii_digit())
}

/// The key every per-client limit counts under: an IPv4 address, or the /64 of an IPv6
/// address. One IPv6 subscriber is handed at least a /64 and picks the low 64 bits freely, so
/// keying on the whole address would give one client 2^64 buckets. IPv4-mapped IPv6
/// (`::ffff:a.b.c.d`, from dual-stack sockets) counts as the IPv4 address it carries.
/// An unknown client (see the module's comment) is one key of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IpKey(Option<IpAddr>);

impl IpKey {
    pub fn of(ip: IpAddr) -> IpKey {
        match ip {
            IpAddr::V4(v4) => IpKey(Some(IpAddr::V4(v4))),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => IpKey(Some(IpAddr::V4(v4))),
                None => IpKey(Some(IpAddr::V6(Ipv6Addr::from(
                    u128::from(v6) & !u128::from(u64::MAX),
                )))),
            },
        }
    }

    /// The one key of every client whose address is unknown.
    pub const UNKNOWN: IpKey = IpKey(None);
}

/// `203.0.113.7`, `2001:db8:1:2::/64` or `unknown`: how the key is stored where limits are
/// counted in the database.
impl fmt::Display for IpKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(IpAddr::V4(v4)) => write!(f, "{v4}"),
            Some(IpAddr::V6(v6)) => write!(f, "{v6}/64"),
            None => f.write_str("unknown"),
        }
    }
}

impl ClientIp {
    /// The rate-limit key of this client (see [`IpKey`]).
    pub fn key(&self) -> IpKey {
        self.0.map_or(IpKey::UNKNOWN, IpKey::of)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(ip: &str) -> String {
        IpKey::of(ip.parse().unwrap()).to_string()
    }

    #[test]
    fn ipv4_is_the_whole_address_and_ipv6_its_slash_64() {
        assert_eq!(key("203.0.113.7"), "203.0.113.7");
        assert_ne!(key("203.0.113.7"), key("203.0.113.8"));
        assert_eq!(key("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::/64");
        assert_eq!(
            key("2001:db8:1:2::1"),
            key("2001:db8:1:2:ffff:ffff:ffff:ffff")
        );
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("::ffff:198.51.100.9"), "198.51.100.9");
        assert_eq!(
            IpKey::of("::ffff:198.51.100.9".parse().unwrap()),
            IpKey::of("198.51.100.9".parse().unwrap())
        );
        assert_eq!(IpKey::UNKNOWN.to_string(), "unknown");
    }

    #[test]
    fn a_hop_is_an_address_with_or_without_a_port_or_else_unknown() {
        let hop = |text: &str| parse_hop(text).map(|ip| ip.to_string());
        assert_eq!(hop(" 203.0.113.7 ").as_deref(), Some("203.0.113.7"));
        assert_eq!(hop("203.0.113.7:4711").as_deref(), Some("203.0.113.7"));
        assert_eq!(hop("2001:db8::1").as_deref(), Some("2001:db8::1"));
        assert_eq!(hop("[2001:db8::1]").as_deref(), Some("2001:db8::1"));
        assert_eq!(hop("[2001:db8::1]:443").as_deref(), Some("2001:db8::1"));
        for unreadable in [
            "",
            " ",
            "unknown",
            "_hidden",
            "0177.0.0.1",
            "127.1",
            "0x7f.0.0.1",
            "203.0.113.7:",
            "203.0.113.7:port",
            "203.0.113.7:123456",
            "[203.0.113.7]",
            "[2001:db8::1]x",
            "[2001:db8::1",
            "localhost",
        ] {
            assert_eq!(hop(unreadable), None, "{unreadable:?}");
        }
    }
}

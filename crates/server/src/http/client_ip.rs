//! The client's IP address, for rate limits: the socket peer, or with TRUST_PROXY the last
//! `X-Forwarded-For` hop (the one our own proxy appended; earlier hops are client-supplied),
//! and [`IpKey`], the one key every per-IP limit counts under.

use std::{
    fmt,
    net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr},
};

use axum::extract::{ConnectInfo, FromRef, FromRequestParts};
use axum::http::request::Parts;

use crate::AppState;

#[derive(Debug, Clone, Copy)]
pub struct ClientIp(pub IpAddr);

impl<S> FromRequestParts<S> for ClientIp
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let state = AppState::from_ref(state);
        if state.config.http.trust_proxy {
            // The right-most hop was appended by our proxy; everything left of it is
            // whatever the client claimed.
            let forwarded = parts
                .headers
                .get_all("x-forwarded-for")
                .iter()
                .next_back()
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.rsplit(',').next())
                .and_then(|hop| hop.trim().parse::<IpAddr>().ok());
            if let Some(ip) = forwarded {
                return Ok(ClientIp(ip));
            }
        }
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |info| info.0.ip());
        Ok(ClientIp(peer))
    }
}

/// The key every per-client limit counts under: an IPv4 address, or the /64 of an IPv6
/// address. One IPv6 subscriber is handed at least a /64 and picks the low 64 bits freely, so
/// keying on the whole address would give one client 2^64 buckets. IPv4-mapped IPv6
/// (`::ffff:a.b.c.d`, from dual-stack sockets) counts as the IPv4 address it carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IpKey(IpAddr);

impl IpKey {
    pub fn of(ip: IpAddr) -> IpKey {
        match ip {
            IpAddr::V4(v4) => IpKey(IpAddr::V4(v4)),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => IpKey(IpAddr::V4(v4)),
                None => IpKey(IpAddr::V6(Ipv6Addr::from(
                    u128::from(v6) & !u128::from(u64::MAX),
                ))),
            },
        }
    }
}

/// `203.0.113.7` or `2001:db8:1:2::/64`: how the key is stored where limits are counted in
/// the database.
impl fmt::Display for IpKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            IpAddr::V4(v4) => write!(f, "{v4}"),
            IpAddr::V6(v6) => write!(f, "{v6}/64"),
        }
    }
}

impl ClientIp {
    /// The rate-limit key of this client (see [`IpKey`]).
    pub fn key(&self) -> IpKey {
        IpKey::of(self.0)
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
    }
}

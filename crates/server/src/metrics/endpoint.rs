//! `GET /metrics`: who may scrape, and the answer. Refused or disabled answers the API's 404,
//! so the endpoint is not advertised; it is not in the OpenAPI document either.

use std::net::IpAddr;

use axum::{
    extract::State,
    http::{HeaderMap, header},
    response::{IntoResponse, Response},
};
use sha2::{Digest, Sha256};

use crate::{AppState, config::MetricsConfig, error::AppError, http::client_ip::ClientIp};

const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

pub async fn scrape(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
) -> Response {
    if !allowed(&state.config.metrics, ip, &headers) {
        return AppError::not_found().into_response();
    }
    // A store that cannot answer leaves its gauges out rather than failing the whole scrape.
    let store = match state.store.gauges().await {
        Ok(gauges) => Some(gauges),
        Err(err) => {
            tracing::warn!(error = %err, "metrics: store gauges unavailable");
            None
        }
    };
    (
        [(header::CONTENT_TYPE, CONTENT_TYPE)],
        state.metrics.render(store),
    )
        .into_response()
}

/// With a token, the right bearer token from anywhere; without, loopback peers only (the
/// client IP honours TRUST_PROXY, so a proxy on the same host does not make everyone local,
/// and a client the proxy named unreadably, `None`, is never local).
fn allowed(config: &MetricsConfig, ip: Option<IpAddr>, headers: &HeaderMap) -> bool {
    if !config.metrics_enabled {
        return false;
    }
    match &config.metrics_token {
        Some(token) => headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .is_some_and(|given| same_secret(given, token)),
        None => ip.is_some_and(is_loopback),
    }
}

/// Compares digests, so the time taken says nothing about the token's length or prefix.
fn same_secret(given: &str, expected: &str) -> bool {
    let (a, b) = (Sha256::digest(given), Sha256::digest(expected));
    a.iter()
        .zip(b.iter())
        .fold(0u8, |acc, (x, y)| acc | (x ^ y))
        == 0
}

fn is_loopback(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => v6
            .to_ipv4_mapped()
            .map_or(v6.is_loopback(), |v4| v4.is_loopback()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bearer(token: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::AUTHORIZATION,
            format!("Bearer {token}").parse().unwrap(),
        );
        headers
    }

    #[test]
    fn token_or_loopback_decides() {
        let local: Option<IpAddr> = Some("127.0.0.1".parse().unwrap());
        let mapped: Option<IpAddr> = Some("::ffff:127.0.0.1".parse().unwrap());
        let remote: Option<IpAddr> = Some("203.0.113.7".parse().unwrap());
        let off = MetricsConfig::default();
        assert!(!allowed(&off, local, &HeaderMap::new()));
        let loopback = MetricsConfig {
            metrics_enabled: true,
            metrics_token: None,
        };
        assert!(allowed(&loopback, local, &HeaderMap::new()));
        assert!(allowed(&loopback, mapped, &HeaderMap::new()));
        assert!(allowed(
            &loopback,
            Some("::1".parse().unwrap()),
            &HeaderMap::new()
        ));
        assert!(!allowed(&loopback, remote, &HeaderMap::new()));
        assert!(!allowed(&loopback, None, &HeaderMap::new()), "unknown");
        let token = MetricsConfig {
            metrics_enabled: true,
            metrics_token: Some("0123456789abcdef".into()),
        };
        assert!(allowed(&token, remote, &bearer("0123456789abcdef")));
        assert!(allowed(&token, None, &bearer("0123456789abcdef")));
        assert!(!allowed(&token, remote, &bearer("0123456789abcdeF")));
        assert!(!allowed(&token, remote, &bearer("0123456789abcdef0")));
        // A token, once set, is asked of loopback peers too.
        assert!(!allowed(&token, local, &HeaderMap::new()));
    }
}

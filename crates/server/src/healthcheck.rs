//! `delivery-tracker healthcheck`: asks a running server on this machine for `/healthz` and
//! turns the answer into an exit status. A `FROM scratch` container has no curl or wget, so its
//! HEALTHCHECK runs the binary itself; a systemd or cron probe can use it the same way.

use std::{
    net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr},
    time::Duration,
};

use anyhow::{Context, bail};

/// The address to probe for a server listening on `listen`: a wildcard listen address
/// (`0.0.0.0`, `::`) is not one a client can connect to, so its loopback stands in.
pub fn probe_address(listen: SocketAddr) -> SocketAddr {
    let ip = match listen.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, listen.port())
}

/// GETs `http://ADDRESS/healthz` for the server listening on `listen`; Ok only for a 200.
pub async fn probe(listen: SocketAddr, timeout: Duration) -> anyhow::Result<()> {
    let url = format!("http://{}/healthz", probe_address(listen));
    let client = reqwest::Client::builder()
        .timeout(timeout)
        // A proxy from the environment must not answer for the server on this machine.
        .no_proxy()
        .build()
        .context("HTTP client")?;
    let response = client
        .get(&url)
        .send()
        .await
        .with_context(|| format!("GET {url}"))?;
    let status = response.status();
    if !status.is_success() {
        bail!("GET {url}: {status}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wildcard_listen_address_is_probed_on_loopback() {
        let probe = |listen: &str| probe_address(listen.parse().unwrap()).to_string();
        assert_eq!(probe("0.0.0.0:8080"), "127.0.0.1:8080");
        assert_eq!(probe("[::]:8080"), "[::1]:8080");
        assert_eq!(probe("192.0.2.7:80"), "192.0.2.7:80");
    }
}

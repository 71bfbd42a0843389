//! Requests to addresses users give us (webhook endpoints), guarded against server-side
//! request forgery. A URL is parsed the way browsers do (so `http://2130706433/`,
//! `http://0x7f.1/` and `http://0177.0.0.1/` are all 127.0.0.1), must be `https` (plain `http`
//! only when configured for local development), carries no credentials, and its host is
//! resolved once: every address it resolves to must be public, and the connection goes to the
//! checked address (no second lookup a rebinding DNS server could answer differently). No
//! redirects are followed; the answer's size and the time are capped.
//!
//! Refused: loopback, private (RFC 1918), link-local (including the cloud metadata address
//! 169.254.169.254), CGNAT (100.64/10), unspecified, broadcast, multicast, reserved and
//! documentation ranges, benchmarking, and in IPv6 loopback, unspecified, link-local,
//! unique-local, site-local, multicast, documentation, and the IPv4 addresses embedded in
//! IPv4-mapped, IPv4-compatible, NAT64 and 6to4 addresses. Metadata host names are refused by
//! name as well.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

/// How outgoing requests may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guard {
    /// Allow `http://` (local development only).
    pub allow_http: bool,
    /// Allow private and loopback addresses (local development only).
    pub allow_private: bool,
    /// Most bytes of an answer read.
    pub max_response_bytes: usize,
    pub timeout: Duration,
}

impl Default for Guard {
    fn default() -> Self {
        Guard { allow_http: false, allow_private: false, max_response_bytes: 64 * 1024, timeout: Duration::from_secs(10) }
    }
}

/// Why a URL is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("Not a valid URL.")]
    Invalid,
    #[error("The URL must use https.")]
    NotHttps,
    #[error("The URL must not carry a user name or password.")]
    Credentials,
    #[error("The URL's host is a private, loopback, link-local or otherwise non-public address.")]
    NonPublic,
    #[error("The URL's host could not be resolved.")]
    Unresolved,
    #[error("The URL is longer than 2,000 characters.")]
    TooLong,
}

/// A URL that passed the checks, with the one address to connect to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub url: url::Url,
    pub host: String,
    pub address: SocketAddr,
}

const METADATA_NAMES: [&str; 4] = ["metadata.google.internal", "metadata", "metadata.azure.com", "instance-data"];

/// Whether `ip` is an address requests may go to.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || a == 0
        || (a == 100 && (64..128).contains(&b))
        || (a == 192 && b == 0 && c == 0)
        || (a == 198 && (b == 18 || b == 19))
        || a >= 240)
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    if let Some(v4) = ip.to_ipv4_mapped() {
        return is_public_v4(v4);
    }
    let embedded = |hi: u16, lo: u16| Ipv4Addr::new((hi >> 8) as u8, hi as u8, (lo >> 8) as u8, lo as u8);
    // IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002::/16) carry an IPv4 address.
    if s[..6] == [0, 0, 0, 0, 0, 0] && !(ip.is_unspecified() || ip.is_loopback()) {
        return is_public_v4(embedded(s[6], s[7]));
    }
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return is_public_v4(embedded(s[6], s[7]));
    }
    if s[0] == 0x2002 {
        return is_public_v4(embedded(s[1], s[2]));
    }
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_multicast()
        || (s[0] & 0xffc0) == 0xfe80 // link-local
        || (s[0] & 0xffc0) == 0xfec0 // site-local
        || (s[0] & 0xfe00) == 0xfc00 // unique-local
        || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
        || (s[0] == 0x2001 && s[1] == 0)) // Teredo
}

/// Parses and checks `raw` without resolving it: scheme, credentials, and a host that is an
/// address is checked here. Used when a URL is saved (422 at creation).
pub fn parse(raw: &str, guard: &Guard) -> Result<url::Url, Refusal> {
    if raw.len() > 2_000 {
        return Err(Refusal::TooLong);
    }
    let url = url::Url::parse(raw.trim()).map_err(|_| Refusal::Invalid)?;
    match url.scheme() {
        "https" => {}
        "http" if guard.allow_http => {}
        _ => return Err(Refusal::NotHttps),
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(Refusal::Credentials);
    }
    match url.host() {
        None => Err(Refusal::Invalid),
        Some(url::Host::Ipv4(ip)) if !guard.allow_private && !is_public_v4(ip) => Err(Refusal::NonPublic),
        Some(url::Host::Ipv6(ip)) if !guard.allow_private && !is_public_v6(ip) => Err(Refusal::NonPublic),
        Some(url::Host::Domain(name)) if !guard.allow_private && refused_name(name) => Err(Refusal::NonPublic),
        Some(_) => Ok(url),
    }
}

fn refused_name(name: &str) -> bool {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost"
        || name.ends_with(".localhost")
        || name.ends_with(".internal")
        || name.ends_with(".local")
        || METADATA_NAMES.contains(&name.as_str())
}

/// Checks `raw` and resolves its host once: every address must be public; the first is the
/// one to connect to. Used at each delivery (a host may have moved since it was saved).
pub async fn resolve(raw: &str, guard: &Guard) -> Result<Target, Refusal> {
    let url = parse(raw, guard)?;
    let port = url.port_or_known_default().ok_or(Refusal::Invalid)?;
    let host = url.host_str().ok_or(Refusal::Invalid)?.trim_start_matches('[').trim_end_matches(']').to_owned();
    let addresses: Vec<SocketAddr> = match url.host() {
        Some(url::Host::Ipv4(ip)) => vec![SocketAddr::new(IpAddr::V4(ip), port)],
        Some(url::Host::Ipv6(ip)) => vec![SocketAddr::new(IpAddr::V6(ip), port)],
        _ => tokio::time::timeout(guard.timeout, tokio::net::lookup_host((host.as_str(), port)))
            .await
            .map_err(|_| Refusal::Unresolved)?
            .map_err(|_| Refusal::Unresolved)?
            .collect(),
    };
    let first = *addresses.first().ok_or(Refusal::Unresolved)?;
    if !guard.allow_private && addresses.iter().any(|a| !is_public(a.ip())) {
        return Err(Refusal::NonPublic);
    }
    Ok(Target { url, host, address: first })
}

/// What an outgoing request came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivery {
    pub status: u16,
    /// The start of the answer, at most the guard's byte cap.
    pub body: Vec<u8>,
}

/// POSTs `body` with `headers` to a checked target: connected to its checked address only, no
/// redirects, the answer read up to the cap, the whole within the guard's time.
pub async fn post(target: &Target, headers: &[(&str, String)], body: Vec<u8>, guard: &Guard) -> Result<Delivery, String> {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(guard.timeout)
        .connect_timeout(guard.timeout)
        .no_proxy()
        .resolve(&target.host, target.address)
        .build()
        .map_err(|e| e.to_string())?;
    let mut request = client.post(target.url.clone()).body(body).header("content-type", "application/json");
    for (name, value) in headers {
        request = request.header(*name, value);
    }
    let mut response = request.send().await.map_err(|e| e.to_string())?;
    let status = response.status().as_u16();
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| e.to_string())? {
        let room = guard.max_response_bytes.saturating_sub(bytes.len());
        bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if bytes.len() >= guard.max_response_bytes {
            break;
        }
    }
    Ok(Delivery { status, body: bytes })
}

/// Standard Webhooks (standardwebhooks.com) signing: a secret is `whsec_` + base64 of random
/// bytes; a delivery carries `webhook-id`, `webhook-timestamp` (Unix seconds) and
/// `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{payload}">`.
pub mod standard_webhooks {
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;
    use hmac::{Hmac, Mac};
    use rand::RngCore;
    use sha2::Sha256;

    /// A new endpoint secret (shown once to its owner).
    pub fn new_secret() -> String {
        let mut bytes = [0u8; 24];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        format!("whsec_{}", STANDARD.encode(bytes))
    }

    /// The `webhook-signature` value for a message; `None` when the secret is not `whsec_`
    /// followed by base64.
    pub fn sign(secret: &str, id: &str, timestamp: i64, payload: &[u8]) -> Option<String> {
        let key = STANDARD.decode(secret.strip_prefix("whsec_")?).ok()?;
        let mut mac = Hmac::<Sha256>::new_from_slice(&key).ok()?;
        mac.update(format!("{id}.{timestamp}.").as_bytes());
        mac.update(payload);
        Some(format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_webhooks_signatures_match_the_specifications_example() {
        let signature = standard_webhooks::sign(
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1_614_265_330,
            br#"{"test": 2432232314}"#,
        );
        assert_eq!(signature.as_deref(), Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="));
        assert_eq!(standard_webhooks::sign("not-a-secret", "msg", 1, b"{}"), None);
        let secret = standard_webhooks::new_secret();
        assert!(secret.starts_with("whsec_") && standard_webhooks::sign(&secret, "msg", 1, b"{}").is_some());
        assert_ne!(secret, standard_webhooks::new_secret());
    }

    #[test]
    fn non_public_addresses_are_recognised_in_every_family() {
        for bad in [
            "127.0.0.1",
            "127.255.255.254",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "100.127.255.255",
            "0.0.0.0",
            "0.1.2.3",
            "255.255.255.255",
            "224.0.0.1",
            "240.0.0.1",
            "192.0.0.8",
            "192.0.2.1",
            "198.18.0.1",
            "::",
            "::1",
            "fe80::1",
            "fc00::1",
            "fd12:3456::1",
            "fec0::1",
            "ff02::1",
            "2001:db8::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "::127.0.0.1",
            "64:ff9b::10.0.0.1",
            "2002:7f00:1::1",
            "2001:0:4136:e378::1",
        ] {
            assert!(!is_public(bad.parse().expect(bad)), "{bad} must be refused");
        }
        for good in ["93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "::ffff:93.184.216.34", "64:ff9b::808:808"]
        {
            assert!(is_public(good.parse().expect(good)), "{good} is public");
        }
    }

    #[test]
    fn every_spelling_of_an_internal_address_is_refused_before_any_lookup() {
        let guard = Guard { allow_http: true, ..Guard::default() };
        for raw in [
            "http://127.0.0.1/",
            "http://2130706433/",
            "http://0x7f000001/",
            "http://0177.0.0.1/",
            "http://0x7f.1/",
            "http://127.1/",
            "http://[::1]/",
            "http://[::ffff:7f00:1]/",
            "http://[::ffff:127.0.0.1]/",
            "http://169.254.169.254/latest/meta-data/",
            "http://[fd00::1]/",
            "http://localhost:8080/",
            "http://LOCALHOST./",
            "http://app.localhost/",
            "http://metadata.google.internal/",
            "http://0/",
            "http://10.0.0.1/",
            "http://100.64.0.1/",
        ] {
            assert_eq!(parse(raw, &guard), Err(Refusal::NonPublic), "{raw}");
        }
        let strict = Guard::default();
        assert_eq!(parse("http://example.com/hook", &strict), Err(Refusal::NotHttps));
        assert_eq!(parse("ftp://example.com/", &strict), Err(Refusal::NotHttps));
        assert_eq!(parse("https://user:pw@example.com/", &strict), Err(Refusal::Credentials));
        assert_eq!(parse("not a url", &strict), Err(Refusal::Invalid));
        assert!(parse("https://hooks.example.com/strikeline?x=1", &strict).is_ok());
        let local = Guard { allow_http: true, allow_private: true, ..Guard::default() };
        assert!(parse("http://127.0.0.1:9000/hook", &local).is_ok(), "local development may opt in");
    }
}

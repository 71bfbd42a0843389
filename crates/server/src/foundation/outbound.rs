//! Requests to addresses we do not control (webhook endpoints users give us, and the redirects
//! feeds answer), guarded against server-side request forgery. A URL is parsed the way browsers
//! do (so `http://2130706433/`, `http://0x7f.1/` and `http://0177.0.0.1/` are all 127.0.0.1),
//! must be `https` (plain `http` only when the guard allows it), carries no credentials, names
//! (or defaults to) a port on the allow-list, and its host is resolved once: every address it
//! resolves to must be public, and the connection goes to the checked address (no second lookup
//! a rebinding DNS server could answer differently). POSTs follow no redirects; GETs follow at
//! most [`MAX_REDIRECTS`], each hop checked again like a new URL. Answers are capped in size and
//! time.
//!
//! Public means outside every range of the IANA IPv4 and IPv6 Special-Purpose Address
//! Registries (as of 2024; see [`V4_REFUSED`] and [`V6_REFUSED`]), which include loopback,
//! private, link-local (with the cloud metadata address 169.254.169.254), CGNAT, documentation,
//! benchmarking, multicast and reserved space; an IPv6 address must moreover be global unicast
//! (2000::/3). IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4,
//! Teredo) are refused outright: a webhook on a public IPv4 host is given as that address.
//! Metadata and local host names are refused by name as well.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

/// Ports requests may go to unless configured otherwise (`outbound.allowed_ports`).
pub const DEFAULT_PORTS: [u16; 2] = [80, 443];

/// Most redirects a GET follows.
pub const MAX_REDIRECTS: usize = 3;

/// How outgoing requests may go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guard {
    /// Allow `http://` (local development only, and feeds).
    pub allow_http: bool,
    /// Allow private and loopback addresses, on any port (local development only).
    pub allow_private: bool,
    /// Ports a URL may name, explicitly or by its scheme's default.
    pub allowed_ports: Vec<u16>,
    /// Most bytes of an answer read.
    pub max_response_bytes: usize,
    pub timeout: Duration,
}

impl Default for Guard {
    fn default() -> Self {
        Guard {
            allow_http: false,
            allow_private: false,
            allowed_ports: DEFAULT_PORTS.to_vec(),
            max_response_bytes: 64 * 1024,
            timeout: Duration::from_secs(10),
        }
    }
}

/// What one delivery attempt came to (a webhook, an email, a push, a text), as the outbox
/// records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub delivered: bool,
    pub status_code: Option<u16>,
    pub latency_ms: i64,
    pub error: Option<String>,
}

impl Outcome {
    /// Not sent at all (nothing was asked of the receiver), for `error`.
    pub fn not_sent(error: impl Into<String>) -> Outcome {
        Outcome { delivered: false, status_code: None, latency_ms: 0, error: Some(error.into()) }
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
    #[error("The URL's port {port} is not allowed; outgoing requests may use port {allowed}.")]
    Port { port: u16, allowed: String },
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

/// The IANA IPv4 Special-Purpose Address Registry (2024), every entry, plus multicast: no
/// request goes to an address in these. A few entries are marked globally reachable (anycast
/// relays, AS112 sinks, 192.0.0.9/32 and .10/32); no webhook or feed lives there, so they are
/// refused with the rest.
pub const V4_REFUSED: [(Ipv4Addr, u8); 18] = [
    (Ipv4Addr::new(0, 0, 0, 0), 8),       // "this network" (0.0.0.0/32 "this host" included)
    (Ipv4Addr::new(10, 0, 0, 0), 8),      // private (RFC 1918)
    (Ipv4Addr::new(100, 64, 0, 0), 10),   // shared address space (CGNAT)
    (Ipv4Addr::new(127, 0, 0, 0), 8),     // loopback
    (Ipv4Addr::new(169, 254, 0, 0), 16),  // link-local, cloud metadata 169.254.169.254
    (Ipv4Addr::new(172, 16, 0, 0), 12),   // private
    (Ipv4Addr::new(192, 0, 0, 0), 24),    // IETF protocol assignments: DS-Lite /29, .8, .9, .10, .170, .171
    (Ipv4Addr::new(192, 0, 2, 0), 24),    // documentation (TEST-NET-1)
    (Ipv4Addr::new(192, 31, 196, 0), 24), // AS112-v4
    (Ipv4Addr::new(192, 52, 193, 0), 24), // AMT
    (Ipv4Addr::new(192, 88, 99, 0), 24),  // deprecated 6to4 relay anycast
    (Ipv4Addr::new(192, 168, 0, 0), 16),  // private
    (Ipv4Addr::new(192, 175, 48, 0), 24), // direct delegation AS112 service
    (Ipv4Addr::new(198, 18, 0, 0), 15),   // benchmarking
    (Ipv4Addr::new(198, 51, 100, 0), 24), // documentation (TEST-NET-2)
    (Ipv4Addr::new(203, 0, 113, 0), 24),  // documentation (TEST-NET-3)
    (Ipv4Addr::new(224, 0, 0, 0), 4),     // multicast
    (Ipv4Addr::new(240, 0, 0, 0), 4),     // reserved, limited broadcast 255.255.255.255/32 included
];

/// The IANA IPv6 Special-Purpose Address Registry (2024), every entry, plus the IPv4-compatible
/// and IPv4-translated forms, site-local and multicast: no request goes to an address in these.
/// An address must moreover lie in 2000::/3, the only space assigned for global unicast.
pub const V6_REFUSED: [(Ipv6Addr, u8); 19] = [
    (Ipv6Addr::new(0, 0, 0, 0, 0, 0, 0, 0), 128),             // unspecified
    (Ipv6Addr::new(0, 0, 0, 0, 0, 0, 0, 1), 128),             // loopback
    (Ipv6Addr::new(0, 0, 0, 0, 0, 0, 0, 0), 96),              // IPv4-compatible (deprecated)
    (Ipv6Addr::new(0, 0, 0, 0, 0, 0xffff, 0, 0), 96),         // IPv4-mapped
    (Ipv6Addr::new(0, 0, 0, 0, 0xffff, 0, 0, 0), 96),         // IPv4-translated (RFC 2765)
    (Ipv6Addr::new(0x64, 0xff9b, 0, 0, 0, 0, 0, 0), 96),      // NAT64 well-known prefix
    (Ipv6Addr::new(0x64, 0xff9b, 1, 0, 0, 0, 0, 0), 48),      // NAT64 local use
    (Ipv6Addr::new(0x100, 0, 0, 0, 0, 0, 0, 0), 64),          // discard-only
    (Ipv6Addr::new(0x100, 0, 0, 1, 0, 0, 0, 0), 64),          // dummy prefix
    (Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0), 23),         // IETF protocol assignments (Teredo, ORCHID, AMT, …)
    (Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0), 32),     // documentation
    (Ipv6Addr::new(0x2002, 0, 0, 0, 0, 0, 0, 0), 16),         // 6to4
    (Ipv6Addr::new(0x2620, 0x4f, 0x8000, 0, 0, 0, 0, 0), 48), // direct delegation AS112 service
    (Ipv6Addr::new(0x3fff, 0, 0, 0, 0, 0, 0, 0), 20),         // documentation
    (Ipv6Addr::new(0x5f00, 0, 0, 0, 0, 0, 0, 0), 16),         // segment routing (SRv6) SIDs
    (Ipv6Addr::new(0xfc00, 0, 0, 0, 0, 0, 0, 0), 7),          // unique-local
    (Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0), 10),         // link-local
    (Ipv6Addr::new(0xfec0, 0, 0, 0, 0, 0, 0, 0), 10),         // site-local (deprecated)
    (Ipv6Addr::new(0xff00, 0, 0, 0, 0, 0, 0, 0), 8),          // multicast
];

/// Whether `ip` is an address requests may go to.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let bits = u32::from(ip);
    !V4_REFUSED.iter().any(|&(net, len)| bits & mask32(len) == u32::from(net))
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let bits = u128::from(ip);
    let global_unicast = bits >> 125 == 0b001;
    global_unicast && !V6_REFUSED.iter().any(|&(net, len)| bits & mask128(len) == u128::from(net))
}

fn mask32(len: u8) -> u32 {
    u32::MAX.checked_shl(32 - u32::from(len)).unwrap_or(0)
}

fn mask128(len: u8) -> u128 {
    u128::MAX.checked_shl(128 - u32::from(len)).unwrap_or(0)
}

/// Parses and checks `raw` without resolving it: scheme, credentials, a host that is an
/// address, and the port. Used when a URL is saved (422 at creation).
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
        None => return Err(Refusal::Invalid),
        Some(url::Host::Ipv4(ip)) if !guard.allow_private && !is_public_v4(ip) => return Err(Refusal::NonPublic),
        Some(url::Host::Ipv6(ip)) if !guard.allow_private && !is_public_v6(ip) => return Err(Refusal::NonPublic),
        Some(url::Host::Domain(name)) if !guard.allow_private && refused_name(name) => return Err(Refusal::NonPublic),
        Some(_) => {}
    }
    let port = url.port_or_known_default().ok_or(Refusal::Invalid)?;
    if !guard.allow_private && !guard.allowed_ports.contains(&port) {
        let allowed = guard.allowed_ports.iter().map(u16::to_string).collect::<Vec<_>>().join(" or ");
        return Err(Refusal::Port { port, allowed });
    }
    Ok(url)
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
/// one to connect to. Used at each delivery (a host may have moved since it was saved) and at
/// each redirect a GET follows.
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

/// A client that connects to `target`'s checked address only (no proxy, no lookup of its own)
/// and follows no redirect, within `timeout`.
fn pinned_client(target: &Target, timeout: Duration) -> reqwest::Result<reqwest::Client> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(timeout)
        .connect_timeout(timeout)
        .no_proxy()
        .resolve(&target.host, target.address)
        .build()
}

/// POSTs `body` with `headers` to a checked target: connected to its checked address only, no
/// redirects, the answer read up to the cap, the whole within the guard's time.
pub async fn post(target: &Target, headers: &[(&str, String)], body: Vec<u8>, guard: &Guard) -> Result<Delivery, String> {
    let client = pinned_client(target, guard.timeout).map_err(|e| e.to_string())?;
    let mut request = client.post(target.url.clone()).body(body);
    if !headers.iter().any(|(name, _)| name.eq_ignore_ascii_case("content-type")) {
        request = request.header("content-type", "application/json");
    }
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

/// Why a GET got no answer to read.
#[derive(Debug, thiserror::Error)]
pub enum GetError {
    /// A redirect pointed somewhere the guard refuses; nothing was sent there.
    #[error("redirected to {url}, refused: {refusal}")]
    Redirect { url: String, refusal: Refusal },
    #[error("a redirect without a usable Location")]
    BadLocation,
    #[error("more than {MAX_REDIRECTS} redirects")]
    TooManyRedirects,
    #[error("unreachable: {0}")]
    Unreachable(String),
}

/// GETs `start` with `headers`, following at most [`MAX_REDIRECTS`] redirects (301, 302, 303,
/// 307, 308) by hand: each `Location`, taken relative to the URL that answered it, is checked
/// and resolved by `guard` as a new URL would be (scheme, credentials, public addresses, port),
/// and the next request goes to its checked address only. `start` is checked by the caller,
/// with whatever guard the caller's own address deserves. The answer is returned unread, with
/// the URL that gave it; all the hops, and reading the answer, are within the guard's time.
pub async fn get(start: Target, headers: &reqwest::header::HeaderMap, guard: &Guard) -> Result<(url::Url, reqwest::Response), GetError> {
    let deadline = tokio::time::Instant::now() + guard.timeout;
    let mut target = start;
    for hop in 0..=MAX_REDIRECTS {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        if left.is_zero() {
            return Err(GetError::Unreachable("timed out".into()));
        }
        let client = pinned_client(&target, left).map_err(|e| GetError::Unreachable(e.without_url().to_string()))?;
        let response = client
            .get(target.url.clone())
            .headers(headers.clone())
            .send()
            .await
            .map_err(|e| GetError::Unreachable(e.without_url().to_string()))?;
        if !matches!(response.status().as_u16(), 301 | 302 | 303 | 307 | 308) {
            return Ok((target.url, response));
        }
        if hop == MAX_REDIRECTS {
            break;
        }
        let location = response.headers().get(reqwest::header::LOCATION).and_then(|v| v.to_str().ok()).ok_or(GetError::BadLocation)?;
        let next = target.url.join(location).map_err(|_| GetError::BadLocation)?;
        target = resolve(next.as_str(), guard).await.map_err(|refusal| GetError::Redirect { url: next.to_string(), refusal })?;
    }
    Err(GetError::TooManyRedirects)
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
        for good in ["93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "2a00:1450:4001:80b::200e"] {
            assert!(is_public(good.parse().expect(good)), "{good} is public");
        }
        // IPv6 forms carrying an IPv4 address are refused outright, even around a public one.
        for embedded in ["::ffff:93.184.216.34", "::93.184.216.34", "64:ff9b::808:808", "2002:5db8:d822::1", "::ffff:0:808:808"] {
            assert!(!is_public(embedded.parse().expect(embedded)), "{embedded} must be refused");
        }
    }

    /// Whether `ip` lies in `cidr` (`a.b.c.d/n` or `x::y/n`), to check the table below itself.
    fn within(cidr: &str, ip: IpAddr) -> bool {
        let (net, len) = cidr.split_once('/').expect("a prefix length");
        let len: u32 = len.parse().expect("a number");
        match (net.parse::<IpAddr>().expect("a network"), ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX.checked_shl(32 - len).unwrap_or(0);
                u32::from(ip) & mask == u32::from(net) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX.checked_shl(128 - len).unwrap_or(0);
                u128::from(ip) & mask == u128::from(net) & mask
            }
            _ => false,
        }
    }

    /// Every range of the IANA special-purpose registries (2024), with an address inside it
    /// (refused) and, where the neighbouring space is public, one just outside it (allowed).
    /// Ranges outside 2000::/3 have no public neighbour: all of that space is refused.
    const SPECIAL_PURPOSE: &[(&str, &str, Option<&str>)] = &[
        ("0.0.0.0/8", "0.255.255.255", Some("1.0.0.0")),
        ("10.0.0.0/8", "10.20.30.40", Some("11.0.0.0")),
        ("100.64.0.0/10", "100.127.255.255", Some("100.128.0.0")),
        ("100.64.0.0/10", "100.64.0.0", Some("100.63.255.255")),
        ("127.0.0.0/8", "127.0.0.1", Some("128.0.0.0")),
        ("169.254.0.0/16", "169.254.169.254", Some("169.255.0.0")),
        ("172.16.0.0/12", "172.31.255.255", Some("172.32.0.0")),
        ("172.16.0.0/12", "172.16.0.0", Some("172.15.255.255")),
        ("192.0.0.0/24", "192.0.0.255", Some("192.0.1.0")),
        ("192.0.0.0/29", "192.0.0.7", None),
        ("192.0.0.8/32", "192.0.0.8", None),
        ("192.0.0.9/32", "192.0.0.9", None),
        ("192.0.0.10/32", "192.0.0.10", None),
        ("192.0.0.170/32", "192.0.0.170", None),
        ("192.0.0.171/32", "192.0.0.171", None),
        ("192.0.2.0/24", "192.0.2.1", Some("192.0.3.0")),
        ("192.31.196.0/24", "192.31.196.1", Some("192.31.197.0")),
        ("192.52.193.0/24", "192.52.193.1", Some("192.52.192.255")),
        ("192.88.99.0/24", "192.88.99.1", Some("192.88.100.0")),
        ("192.168.0.0/16", "192.168.1.1", Some("192.169.0.0")),
        ("192.175.48.0/24", "192.175.48.1", Some("192.175.49.0")),
        ("198.18.0.0/15", "198.19.255.255", Some("198.20.0.0")),
        ("198.18.0.0/15", "198.18.0.0", Some("198.17.255.255")),
        ("198.51.100.0/24", "198.51.100.1", Some("198.51.101.0")),
        ("203.0.113.0/24", "203.0.113.1", Some("203.0.114.0")),
        ("224.0.0.0/4", "224.0.0.1", Some("223.255.255.255")),
        ("224.0.0.0/4", "239.255.255.255", None),
        ("240.0.0.0/4", "240.0.0.1", None),
        ("255.255.255.255/32", "255.255.255.255", None),
        ("::/128", "::", None),
        ("::1/128", "::1", None),
        ("::/96", "::a00:1", None),
        ("::ffff:0:0/96", "::ffff:8.8.8.8", None),
        ("::ffff:0:0/96", "::ffff:169.254.169.254", None),
        ("::ffff:0:0:0/96", "::ffff:0:a9fe:a9fe", None),
        ("64:ff9b::/96", "64:ff9b::808:808", None),
        ("64:ff9b:1::/48", "64:ff9b:1:ffff::1", None),
        ("100::/64", "100::1", None),
        ("100:0:0:1::/64", "100:0:0:1::1", None),
        ("2001::/23", "2001:1ff:ffff::1", Some("2001:200::1")),
        ("2001::/32", "2001:0:4136:e378:8000:63bf:3fff:fdd2", None),
        ("2001:1::1/128", "2001:1::1", None),
        ("2001:1::2/128", "2001:1::2", None),
        ("2001:2::/48", "2001:2::1", None),
        ("2001:3::/32", "2001:3::1", None),
        ("2001:4:112::/48", "2001:4:112::1", None),
        ("2001:10::/28", "2001:10::1", None),
        ("2001:20::/28", "2001:20::1", None),
        ("2001:30::/28", "2001:30::1", None),
        ("2001:db8::/32", "2001:db8::1", Some("2001:db9::1")),
        ("2001:db8::/32", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", Some("2001:db7:ffff:ffff:ffff:ffff:ffff:ffff")),
        ("2002::/16", "2002:c000:0201::1", Some("2003::1")),
        ("2620:4f:8000::/48", "2620:4f:8000::1", Some("2620:4f:8001::1")),
        ("2620:4f:8000::/48", "2620:4f:8000:ffff::1", Some("2620:4f:7fff:ffff::1")),
        ("3fff::/20", "3fff:fff:ffff::1", Some("3fff:1000::1")),
        ("3fff::/20", "3fff::1", Some("3ffe:ffff::1")),
        ("5f00::/16", "5f00::1", None),
        ("fc00::/7", "fd00:ec2::254", None),
        ("fc00::/7", "fc00::1", None),
        ("fe80::/10", "fe80::1", None),
        ("fe80::/10", "febf:ffff::1", None),
        ("fec0::/10", "fec0::1", None),
        ("ff00::/8", "ff02::1", None),
        ("ff00::/8", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", None),
        // Outside global unicast altogether.
        ("::/8", "1::1", None),
        ("4000::/2", "4000::1", Some("3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff")),
    ];

    #[test]
    fn every_special_purpose_range_is_refused_and_its_neighbours_are_not() {
        for &(range, inside, outside) in SPECIAL_PURPOSE {
            let ip: IpAddr = inside.parse().expect(inside);
            assert!(within(range, ip), "the table is wrong: {inside} is not in {range}");
            assert!(!is_public(ip), "{inside} is in {range} and must be refused");
            if let Some(outside) = outside {
                let ip: IpAddr = outside.parse().expect(outside);
                assert!(!within(range, ip), "the table is wrong: {outside} is in {range}");
                assert!(is_public(ip), "{outside} is just outside {range} and public");
            }
        }
        // Every entry of the refusal tables is exercised by the table above.
        let parsed = |range: &str| {
            let (net, len) = range.split_once('/').expect("a prefix length");
            (net.parse::<IpAddr>().expect("a network"), len.parse::<u8>().expect("a number"))
        };
        let entries =
            V4_REFUSED.iter().map(|&(net, len)| (IpAddr::V4(net), len)).chain(V6_REFUSED.iter().map(|&(net, len)| (IpAddr::V6(net), len)));
        for entry in entries {
            assert!(SPECIAL_PURPOSE.iter().any(|(range, _, _)| parsed(range) == entry), "{entry:?} has no case");
        }
    }

    #[test]
    fn only_allowed_ports_pass_unless_private_addresses_are_allowed() {
        let strict = Guard::default();
        assert!(parse("https://hooks.example.com/x", &strict).is_ok(), "443 by default");
        assert!(parse("https://hooks.example.com:443/x", &strict).is_ok());
        assert!(parse("http://hooks.example.com/x", &Guard { allow_http: true, ..Guard::default() }).is_ok(), "80 by default");
        for (raw, port) in
            [("https://hooks.example.com:8443/x", 8443), ("https://hooks.example.com:22/", 22), ("https://93.184.216.34:6379/", 6379)]
        {
            let refusal = parse(raw, &strict).expect_err(raw);
            assert_eq!(refusal, Refusal::Port { port, allowed: "80 or 443".into() }, "{raw}");
            assert!(refusal.to_string().contains(&port.to_string()), "the message names the port: {refusal}");
        }
        let custom = Guard { allowed_ports: vec![443, 8443], ..Guard::default() };
        assert!(parse("https://hooks.example.com:8443/x", &custom).is_ok());
        assert_eq!(parse("https://hooks.example.com:80/x", &custom), Err(Refusal::Port { port: 80, allowed: "443 or 8443".into() }));
        let local = Guard { allow_http: true, allow_private: true, ..Guard::default() };
        assert!(parse("http://127.0.0.1:9000/hook", &local).is_ok(), "local development: any port");
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

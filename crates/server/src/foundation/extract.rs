//! Extractors whose rejections are [`AppError`]s, so a bad request gets the same
//! problem+json shape as every other error.

use std::net::{IpAddr, SocketAddr};

use axum::body::Bytes;
use axum::extract::{ConnectInfo, FromRef, FromRequest, FromRequestParts, Request};
use axum::http::header;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::foundation::error::{AppError, FieldError};
use crate::foundation::state::AppState;

/// A JSON body. Malformed JSON is a 400; a wrong type, a missing or an unknown field is a 422
/// naming the field; a body over the limit is a 413; a missing JSON content type is a 415.
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let is_json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .map(|mime| {
                let mime = mime.trim().to_ascii_lowercase();
                mime == "application/json" || (mime.starts_with("application/") && mime.ends_with("+json"))
            })
            .unwrap_or(false);
        if !is_json {
            return Err(AppError::UnsupportedMediaType("Send the body as JSON with Content-Type: application/json.".into()));
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                AppError::PayloadTooLarge
            } else {
                AppError::MalformedBody("The request body could not be read.".into())
            }
        })?;
        parse_json(&bytes).map(ApiJson)
    }
}

/// Deserialises a JSON object from `bytes`, turning serde's error into the field at fault.
/// Every request body of this API is an object; serde would also accept an array for a struct.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, AppError> {
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(match serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
            Ok(_) => AppError::field("body", "The body must be a JSON object"),
            Err(err) => AppError::MalformedBody(format!("The body is not valid JSON: {err}.")),
        });
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        match inner.classify() {
            serde_json::error::Category::Data => data_error(&path, &inner),
            // serde_json reports a value of the wrong form for a tagged enum (a number where
            // `{"all": …}` belongs) as a syntax error; in valid JSON it is the field at fault.
            _ if serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok() => {
                data_error_message(&path, "Not one of the forms this field accepts")
            }
            _ => AppError::MalformedBody(format!("The body is not valid JSON: {inner}.")),
        }
    })?;
    de.end().map_err(|err| AppError::MalformedBody(format!("The body is not valid JSON: {err}.")))?;
    Ok(value)
}

/// Deserialises a query string into `T`; a bad or unknown parameter is a 422 naming it.
pub fn parse_query<T: DeserializeOwned>(raw: Option<&str>) -> Result<T, AppError> {
    let raw = raw.unwrap_or("");
    let de = serde_urlencoded::Deserializer::new(form_urlencoded::parse(raw.as_bytes()));
    serde_path_to_error::deserialize(de).map_err(|err| {
        let path = err.path().to_string();
        data_error_message(&path, &err.into_inner().to_string())
    })
}

fn data_error(path: &str, err: &serde_json::Error) -> AppError {
    data_error_message(path, &err.to_string())
}

fn data_error_message(path: &str, message: &str) -> AppError {
    let message = message.to_owned();
    let message = message.split(" at line ").next().unwrap_or(&message).to_owned();
    // `missing field `x`` and `unknown field `x`` are reported at the parent's path.
    let named = message.split('`').nth(1).filter(|_| message.starts_with("missing field") || message.starts_with("unknown field"));
    let field = match (path, named) {
        (".", Some(name)) => name.to_owned(),
        // serde reports an unknown key at its own path, a missing one at its parent's.
        (_, Some(name)) if path == name || path.ends_with(&format!(".{name}")) => path.to_owned(),
        (_, Some(name)) => format!("{path}.{name}"),
        (".", None) => "body".to_owned(),
        (_, None) => path.to_owned(),
    };
    let sentence = if message.starts_with("missing field") {
        "This field is required".to_owned()
    } else if message.starts_with("unknown field") {
        "This field is not accepted here".to_owned()
    } else {
        let mut s = message.clone();
        if let Some(first) = s.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        s
    };
    AppError::Validation(vec![FieldError::new(field, sentence)])
}

/// The client's IP address. With no proxies configured it is the socket's peer. Behind
/// `proxy_hops` proxies it is the rightmost address of `X-Forwarded-For` + peer that none of
/// those proxies added: each proxy appends the address it received from, so everything left of
/// that point is whatever the client chose to send and is ignored.
#[derive(Clone, Copy, Debug)]
pub struct ClientIp(pub IpAddr);

/// The client address behind `hops` trusted proxies, given the socket `peer` and the
/// `X-Forwarded-For` values in order. A missing or malformed entry at the client's place
/// falls back to the leftmost address the proxies vouch for.
pub fn client_address(peer: IpAddr, forwarded_for: &[&str], hops: usize) -> IpAddr {
    if hops == 0 {
        return peer;
    }
    let mut chain: Vec<&str> = forwarded_for.iter().flat_map(|v| v.split(',')).map(str::trim).collect();
    chain.retain(|s| !s.is_empty());
    // chain + [peer]; the last `hops` entries are our proxies (the peer being the nearest).
    let len = chain.len() + 1;
    let at = |i: usize| if i == len - 1 { Some(peer) } else { chain[i].parse::<IpAddr>().ok() };
    match len.checked_sub(hops + 1) {
        Some(i) => at(i).unwrap_or_else(|| at(i + 1).unwrap_or(peer)),
        None => at(0).unwrap_or(peer),
    }
}

impl<S> FromRequestParts<S> for ClientIp
where
    S: Send + Sync,
    AppState: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let state = AppState::from_ref(state);
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map_or(IpAddr::from([0, 0, 0, 0]), |ConnectInfo(addr)| addr.ip());
        let forwarded: Vec<&str> = parts.headers.get_all("x-forwarded-for").iter().filter_map(|v| v.to_str().ok()).collect();
        Ok(ClientIp(client_address(peer, &forwarded, state.config.proxy_hops)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[expect(dead_code, reason = "only deserialised, to see what is refused")]
    struct Login {
        email: String,
        age: u8,
    }

    fn fields(err: AppError) -> Vec<FieldError> {
        match err {
            AppError::Validation(errors) => errors,
            other => panic!("expected a validation error, got {other:?}"),
        }
    }

    #[test]
    fn a_missing_field_is_named() {
        let errors = fields(parse_json::<Login>(br#"{"age": 3}"#).unwrap_err());
        assert_eq!(errors, vec![FieldError::new("email", "This field is required")]);
    }

    #[test]
    fn an_unknown_field_is_named() {
        let errors = fields(parse_json::<Login>(br#"{"email":"a","age":3,"admin":true}"#).unwrap_err());
        assert_eq!(errors, vec![FieldError::new("admin", "This field is not accepted here")]);
    }

    #[test]
    fn a_wrong_type_is_named() {
        let errors = fields(parse_json::<Login>(br#"{"email":"a","age":"old"}"#).unwrap_err());
        assert_eq!(errors[0].field, "age");
        assert!(errors[0].message.starts_with("Invalid type"), "{}", errors[0].message);
    }

    #[test]
    fn the_client_is_the_rightmost_address_our_proxies_did_not_add() {
        let peer: IpAddr = "10.0.0.2".parse().expect("ip");
        let ip = |s: &str| s.parse::<IpAddr>().expect("ip");
        // No proxies: the header is ignored, whatever it says.
        assert_eq!(client_address(peer, &["1.2.3.4"], 0), peer);
        // One proxy (the peer): it appended the client's address last.
        assert_eq!(client_address(peer, &["6.6.6.6, 203.0.113.9"], 1), ip("203.0.113.9"));
        // Two proxies: the nearest is the peer, the next appended its own peer.
        assert_eq!(client_address(peer, &["6.6.6.6, 203.0.113.9, 10.0.0.1"], 2), ip("203.0.113.9"));
        // Several header lines read as one list.
        assert_eq!(client_address(peer, &["6.6.6.6", "203.0.113.9"], 1), ip("203.0.113.9"));
        // A spoofed left part cannot win, a garbage entry falls back to the proxy that saw it.
        assert_eq!(client_address(peer, &["203.0.113.9, nonsense"], 1), peer);
        // Fewer entries than proxies: the leftmost known address.
        assert_eq!(client_address(peer, &[], 2), peer);
        assert_eq!(client_address(peer, &["198.51.100.7"], 3), ip("198.51.100.7"));
    }

    #[test]
    fn malformed_json_and_trailing_garbage_are_bad_requests() {
        assert!(matches!(parse_json::<Login>(b"{\"email\":"), Err(AppError::MalformedBody(_))));
        assert!(matches!(parse_json::<Login>(br#"{"email":"a","age":1} x"#), Err(AppError::MalformedBody(_))));
        assert_eq!(fields(parse_json::<Login>(br#"["a", 1]"#).unwrap_err())[0].field, "body");
    }
}

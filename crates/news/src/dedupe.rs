//! The key two copies of one article share.

/// Query parameters that only track where a click came from.
const TRACKING_PARAMETERS: &[&str] = &["fbclid", "gclid"];

/// The key articles are de-duplicated by: `"url:"` and the URL normalised when there is a web
/// address, else `"title:"` and the title normalised.
///
/// The URL is normalised by lower-casing the scheme and host, treating `http` and `https` as one,
/// dropping `www.`, a default port, the fragment, tracking parameters (`utm_*`, `fbclid`,
/// `gclid`) and a trailing `/`. The title is normalised by lower-casing it and collapsing every
/// run of punctuation and whitespace to one space.
///
/// ```
/// use strikeline_news::dedupe_key;
/// assert_eq!(
///     dedupe_key(Some("https://WWW.Example.com/a/b/?utm_source=x&id=7#top"), "A"),
///     dedupe_key(Some("https://example.com/a/b?id=7"), "B"),
/// );
/// assert_eq!(dedupe_key(None, "Apple's  iPhone: sales up!"), "title:apple s iphone sales up");
/// ```
pub fn dedupe_key(url: Option<&str>, title: &str) -> String {
    match url.and_then(normalise_url) {
        Some(url) => format!("url:{url}"),
        None => format!("title:{}", normalise_title(title)),
    }
}

/// An http(s) address normalised, or `None` if `url` is not one.
fn normalise_url(url: &str) -> Option<String> {
    let url = url.trim();
    let scheme_end = url.find("://")?;
    let scheme = url[..scheme_end].to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let rest = &url[scheme_end + 3..];
    let rest = rest.split('#').next().unwrap_or_default();
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, path_and_query) = rest.split_at(authority_end);
    let host_and_port = authority.rsplit('@').next().unwrap_or_default().to_ascii_lowercase();
    let host_and_port = host_and_port.strip_suffix(":80").or_else(|| host_and_port.strip_suffix(":443")).unwrap_or(&host_and_port);
    let host_and_port = host_and_port.strip_prefix("www.").unwrap_or(host_and_port);
    let host_and_port = host_and_port.trim_end_matches('.');
    if host_and_port.is_empty() {
        return None;
    }
    let (path, query) = path_and_query.split_once('?').unwrap_or((path_and_query, ""));
    let path = path.trim_end_matches('/');
    let kept: Vec<&str> = query
        .split('&')
        .filter(|parameter| {
            let name = parameter.split('=').next().unwrap_or_default().to_ascii_lowercase();
            !name.is_empty() && !name.starts_with("utm_") && !TRACKING_PARAMETERS.contains(&name.as_str())
        })
        .collect();
    let mut out = format!("https://{host_and_port}{path}");
    if !kept.is_empty() {
        out.push('?');
        out.push_str(&kept.join("&"));
    }
    Some(out)
}

/// Lower-cased, with every run of non-alphanumeric characters made one space.
fn normalise_title(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    for word in title.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().flat_map(char::to_lowercase));
    }
    out
}

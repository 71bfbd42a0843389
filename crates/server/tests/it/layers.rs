//! The server's modules depend one way, and the folder a module sits in is its layer:
//!
//! - the app wiring at the root of `src` (`lib.rs`, `main.rs`, `http/`, `openapi.rs`, `cli/`)
//!   composes everything;
//! - `handlers/<feature>`: one feature each; a handler reads and writes one aggregate through
//!   the store, or calls a service; it never reaches into another feature;
//! - `services/<service>`: anything that crosses aggregates or calls the engine; a service never
//!   reaches a handler, and the services do not call each other in circles;
//! - `foundation/`: errors, state, the clock, limits, entitlements, money, …; it reaches neither
//!   handlers nor services.
//!
//! This test reads the sources, places every file by its path (a file it cannot place fails),
//! and fails on an edge that points the wrong way.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What sits at the root of `src`: the app wiring, and the three layer folders.
const APP: &[&str] = &["lib", "main", "http", "openapi", "cli"];

#[derive(Clone, Debug, PartialEq, Eq)]
enum Layer {
    App,
    Handler(String),
    Service(Option<String>),
    Foundation,
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The layer of a file, from its path under `src`; `None` for a file in no known place.
fn layer_of(rel: &Path) -> Option<Layer> {
    let parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned()).collect();
    let inner = parts.get(1).filter(|p| *p != "mod").cloned();
    match parts[0].as_str() {
        "handlers" => Some(match inner {
            Some(feature) => Layer::Handler(feature),
            None => Layer::App, // handlers/mod.rs only lists the features
        }),
        "services" => Some(Layer::Service(inner)),
        "foundation" => Some(Layer::Foundation),
        top if APP.contains(&top) => Some(Layer::App),
        _ => None,
    }
}

/// What a source names through `crate::…` (also in grouped imports): pairs of the top-level
/// module and the one below it (`("handlers", "signals")`, `("foundation", "error")`), and the
/// sibling services it names through `super::…`.
fn references(text: &str) -> (BTreeSet<(String, String)>, BTreeSet<String>) {
    let mut paths = BTreeSet::new();
    let mut siblings = BTreeSet::new();
    let code: String = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    // `top::below…`, or each item of `top::{a, b::c}`.
    let pairs = |path: &str| -> Vec<(String, String)> {
        let top = ident(path);
        let rest = path.get(top.len()..).and_then(|rest| rest.strip_prefix("::")).unwrap_or_default();
        match rest.strip_prefix('{') {
            Some(group) => first_level(group).iter().map(|item| (top.clone(), ident(item))).collect(),
            None => vec![(top.clone(), ident(rest))],
        }
    };
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + 7..];
        match rest.strip_prefix('{') {
            Some(group) => first_level(group).iter().for_each(|item| paths.extend(pairs(item))),
            None => paths.extend(pairs(rest)),
        }
    }
    for (i, _) in code.match_indices("super::") {
        siblings.insert(ident(&code[i + 7..]));
    }
    paths.retain(|(top, _)| !top.is_empty() && top != "self");
    (paths, siblings)
}

/// The items at the first level of a group whose `{` has been read, up to its `}`:
/// `a, b::{c, d}, e}` gives `a`, `b::{c, d}` and `e`.
fn first_level(group: &str) -> Vec<String> {
    let mut items = vec![String::new()];
    let mut depth = 0usize;
    for c in group.chars() {
        match c {
            '}' if depth == 0 => break,
            ',' if depth == 0 => {
                items.push(String::new());
                continue;
            }
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        items.last_mut().expect("one item at least").push(c);
    }
    items.iter().map(|i| i.trim().to_owned()).filter(|i| !i.is_empty()).collect()
}

/// Why the edge from `from` to `(top, below)` points the wrong way, if it does.
fn wrong_way(from: &Layer, (top, below): &(String, String)) -> Option<&'static str> {
    let to_handler = top == "handlers";
    let to_service = top == "services";
    let to_app = APP.contains(&top.as_str()) && top != "main";
    match from {
        Layer::App => None,
        Layer::Handler(own) if to_handler && below != own => Some("a handler reaches into another feature"),
        Layer::Handler(_) if to_app => Some("a handler reaches the app wiring"),
        Layer::Service(_) if to_handler || to_app => Some("a service reaches a handler or the app"),
        Layer::Foundation if to_handler || to_service || to_app => Some("the foundation reaches up"),
        _ => None,
    }
}

#[test]
fn modules_depend_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut unplaced = Vec::new();
    let mut wrong = Vec::new();
    let mut service_edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let known_services: BTreeSet<String> = std::fs::read_dir(src.join("services"))
        .expect("services")
        .map(|e| e.expect("entry").path().file_stem().expect("name").to_string_lossy().into_owned())
        .filter(|n| n != "mod")
        .collect();
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src");
        let Some(layer) = layer_of(rel) else {
            unplaced.push(rel.display().to_string());
            continue;
        };
        let (paths, siblings) = references(&std::fs::read_to_string(file).expect("read"));
        for path in &paths {
            if let Some(why) = wrong_way(&layer, path) {
                wrong.push(format!("{} -> crate::{}::{} ({why})", rel.display(), path.0, path.1));
            }
        }
        if let Layer::Service(Some(service)) = &layer {
            let named = paths.iter().filter(|(top, _)| top == "services").map(|(_, below)| below.clone());
            for other in siblings.into_iter().chain(named).filter(|s| known_services.contains(s) && s != service) {
                service_edges.entry(service.clone()).or_default().insert(other);
            }
        }
    }
    assert!(
        unplaced.is_empty(),
        "modules in no layer's folder (move them under handlers/, services/ or foundation/):\n{}",
        unplaced.join("\n")
    );
    assert!(wrong.is_empty(), "dependencies against the layering:\n{}", wrong.join("\n"));
    // No cycle among the services: repeatedly remove services nobody else depends on.
    let mut left: BTreeSet<String> = known_services.clone();
    while let Some(leaf) = left.iter().find(|s| service_edges.get(*s).is_none_or(|deps| deps.iter().all(|d| !left.contains(d)))).cloned() {
        left.remove(&leaf);
    }
    assert!(left.is_empty(), "services depend on each other in a cycle: {left:?} ({service_edges:?})");
    for layer in ["handlers/mod.rs", "services/mod.rs", "foundation/mod.rs"] {
        assert!(files.iter().any(|f| f.ends_with(layer)), "{layer} exists");
    }
}

#[test]
fn the_checker_places_files_by_their_folder_and_refuses_the_rest() {
    assert_eq!(layer_of(Path::new("handlers/signals/window.rs")), Some(Layer::Handler("signals".into())));
    assert_eq!(layer_of(Path::new("handlers/stocks.rs")), Some(Layer::Handler("stocks".into())));
    assert_eq!(layer_of(Path::new("services/billing/stripe.rs")), Some(Layer::Service(Some("billing".into()))));
    assert_eq!(layer_of(Path::new("foundation/limits/redis.rs")), Some(Layer::Foundation));
    assert_eq!(layer_of(Path::new("http/serve.rs")), Some(Layer::App));
    assert_eq!(layer_of(Path::new("lib.rs")), Some(Layer::App));
    assert_eq!(layer_of(Path::new("email.rs")), None, "a module at the root that is not app wiring has no layer");
}

#[test]
fn the_checker_sees_grouped_imports_siblings_and_wrong_edges() {
    let (paths, siblings) = references(
        "use crate::{handlers::auth, foundation::{error, state::AppState}};\nuse super::market_refresh::x;\nlet a = crate::services::figures::f();",
    );
    for (top, below) in [("handlers", "auth"), ("foundation", "error"), ("foundation", "state"), ("services", "figures")] {
        assert!(paths.contains(&(top.to_owned(), below.to_owned())), "{top}::{below} in {paths:?}");
    }
    assert!(siblings.contains("market_refresh"), "{siblings:?}");
    let edge = |top: &str, below: &str| (top.to_owned(), below.to_owned());
    let signals = Layer::Handler("signals".into());
    assert_eq!(wrong_way(&signals, &edge("handlers", "signals")), None, "within its own feature");
    assert!(wrong_way(&signals, &edge("handlers", "stocks")).is_some(), "into another feature");
    assert_eq!(wrong_way(&signals, &edge("services", "figures")), None);
    assert!(wrong_way(&Layer::Service(Some("mailing".into())), &edge("handlers", "auth")).is_some());
    assert!(wrong_way(&Layer::Foundation, &edge("services", "mailing")).is_some());
    assert!(wrong_way(&Layer::Foundation, &edge("http", "")).is_some());
    assert_eq!(wrong_way(&Layer::App, &edge("handlers", "auth")), None);
}

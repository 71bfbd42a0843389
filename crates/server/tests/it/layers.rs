//! The server's modules depend one way: handlers (one module per feature) → application
//! services → the foundation (errors, state, limits, entitlements, money, …) and the pure
//! crates. A handler never reaches into another feature, a service never into a handler, and
//! the services do not call each other in circles. This test reads the sources and fails on
//! an edge that points the wrong way.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One module per feature: parse, ask the entitlement check, call a service, shape the answer.
const HANDLERS: &[&str] = &[
    "ai",
    "api_keys",
    "auth",
    "billing",
    "email",
    "news",
    "webhooks",
    "automation",
    "backtest",
    "health",
    "live",
    "notifications",
    "portfolio",
    "signals",
    "site",
    "stocks",
];
/// Where the features are composed (the router, the OpenAPI document, the command line).
const APP: &[&str] = &["lib", "http", "openapi", "cli", "main"];
const SERVICES: &str = "services";

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

/// The top-level module a source file belongs to, and (for services) its service.
fn owner(src: &Path, file: &Path) -> (String, Option<String>) {
    let rel = file.strip_prefix(src).expect("under src");
    let parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned()).collect();
    let top = parts[0].clone();
    let service = (top == SERVICES && parts.len() > 1 && parts[1] != "mod").then(|| parts[1].clone());
    (top, service)
}

/// Top-level modules a source refers to through `crate::…` (also in grouped imports), and the
/// sibling services it names through `super::…` or `crate::services::…`.
fn references(text: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut modules = BTreeSet::new();
    let mut services = BTreeSet::new();
    let code: String = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + 7..];
        if let Some(group) = rest.strip_prefix('{') {
            for item in group.split('}').next().unwrap_or("").split(',') {
                let name = ident(item.trim());
                if !name.is_empty() && name != "self" {
                    modules.insert(name);
                }
            }
        } else {
            let name = ident(rest);
            if name == SERVICES {
                services.insert(ident(rest.trim_start_matches("services::")));
            }
            modules.insert(name);
        }
    }
    for (i, _) in code.match_indices("super::") {
        services.insert(ident(&code[i + 7..]));
    }
    (modules, services)
}

#[test]
fn modules_depend_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut wrong = Vec::new();
    let mut service_edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let known_services: BTreeSet<String> = std::fs::read_dir(src.join(SERVICES))
        .expect("services")
        .map(|e| e.expect("entry").path().file_stem().expect("name").to_string_lossy().into_owned())
        .filter(|n| n != "mod")
        .collect();
    for file in &files {
        let (top, service) = owner(&src, file);
        let (modules, siblings) = references(&std::fs::read_to_string(file).expect("read"));
        let is_handler = HANDLERS.contains(&top.as_str());
        let is_app = APP.contains(&top.as_str());
        let is_service = top == SERVICES;
        for m in modules.iter().filter(|m| **m != top) {
            let to_handler = HANDLERS.contains(&m.as_str());
            let to_app = APP.contains(&m.as_str()) && m != "main";
            let to_service = m == SERVICES;
            // The app composes everything; handlers and services never reach a handler (or the
            // app); the foundation reaches neither handlers nor services.
            let bad = !is_app && (to_handler || to_app || (!is_handler && !is_service && to_service));
            if bad {
                wrong.push(format!("{} -> {m}", file.strip_prefix(&src).expect("rel").display()));
            }
        }
        if let Some(service) = service {
            for other in siblings.into_iter().filter(|s| known_services.contains(s) && *s != service) {
                service_edges.entry(service.clone()).or_default().insert(other);
            }
        }
    }
    assert!(wrong.is_empty(), "dependencies against the layering:\n{}", wrong.join("\n"));
    // No cycle among the services: repeatedly remove services nobody else depends on.
    let mut left: BTreeSet<String> = known_services.clone();
    loop {
        let leaf = left.iter().find(|s| service_edges.get(*s).is_none_or(|deps| deps.iter().all(|d| !left.contains(d)))).cloned();
        match leaf {
            Some(s) => {
                left.remove(&s);
            }
            None => break,
        }
    }
    assert!(left.is_empty(), "services depend on each other in a cycle: {left:?} ({service_edges:?})");
    // Every top-level module is classified on purpose.
    assert!(files.iter().any(|f| f.ends_with("services/mod.rs")), "the services module exists");
}

#[test]
fn the_checker_sees_grouped_imports_and_siblings() {
    let (modules, siblings) =
        references("use crate::{auth, signals::dto};\nuse super::market_refresh::x;\nlet a = crate::services::figures::f();");
    assert!(modules.contains("auth") && modules.contains("signals") && modules.contains("services"), "{modules:?}");
    assert!(siblings.contains("market_refresh") && siblings.contains("figures"), "{siblings:?}");
}

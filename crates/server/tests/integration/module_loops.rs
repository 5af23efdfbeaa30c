//! No import loops between the server's top-level modules (`store`, `notify`, `auth`, …), as
//! ESLint's `import/no-cycle` keeps them out of the web app: a module that a lower one imports
//! cannot import it back, so each can be read, tested and changed from the bottom up. Reads
//! every `crate::<module>` path in crates/server/src (grouped `use crate::{a::…, b}` too) and
//! fails naming each loop.
//!
//! `KNOWN_LOOP_EDGES` are the imports that still close the one loop left when this check came
//! in (issue 32 broke store → notify → auth and records ↔ registry): a new loop fails, and so
//! does an entry here once its import is gone, so the list only shrinks.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file belongs to (`store/sqlite/sync.rs` → `store`), or None for
/// the crate root (`lib.rs`, `main.rs`), which composes everything.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src).unwrap();
    let first = relative
        .components()
        .next()?
        .as_os_str()
        .to_str()?
        .to_owned();
    match first.as_str() {
        "lib.rs" | "main.rs" => None,
        name => Some(name.trim_end_matches(".rs").to_owned()),
    }
}

fn identifier(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The top-level modules `code` names through `crate::`, with grouped imports opened.
fn modules_named(code: &str) -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level items of the group: split on commas outside nested braces.
            let mut depth = 0usize;
            let mut start = 0;
            for (index, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        named.insert(identifier(group[start..index].trim()).to_owned());
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        named.insert(identifier(group[start..index].trim()).to_owned());
                        start = index + 1;
                    }
                    _ => {}
                }
            }
        } else {
            named.insert(identifier(rest).to_owned());
        }
    }
    named.remove("");
    named
}

/// Every module's imports of other top-level modules.
fn edges(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeSet<String> = files.iter().filter_map(|f| module_of(src, f)).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let Some(from) = module_of(src, file) else {
            continue;
        };
        let code = std::fs::read_to_string(file).unwrap();
        let targets = edges.entry(from.clone()).or_default();
        for to in modules_named(&code) {
            if to != from && modules.contains(&to) {
                targets.insert(to);
            }
        }
    }
    edges
}

/// The loops: each strongly connected group of two or more modules (Tarjan's algorithm).
fn loops(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(state: &mut State<'a>, node: &'a str) {
        let next = state.index.len();
        state.index.insert(node, next);
        state.low.insert(node, next);
        state.stack.push(node);
        state.on_stack.insert(node);
        let edges = state.edges;
        for to in edges.get(node).into_iter().flatten() {
            let to = to.as_str();
            if !state.index.contains_key(to) {
                visit(state, to);
                let low = state.low[node].min(state.low[to]);
                state.low.insert(node, low);
            } else if state.on_stack.contains(to) {
                let low = state.low[node].min(state.index[to]);
                state.low.insert(node, low);
            }
        }
        if state.low[node] == state.index[node] {
            let mut group = Vec::new();
            while let Some(member) = state.stack.pop() {
                state.on_stack.remove(member);
                group.push(member.to_owned());
                if member == node {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                state.found.push(group);
            }
        }
    }
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for node in edges.keys() {
        if !state.index.contains_key(node.as_str()) {
            visit(&mut state, node);
        }
    }
    state.found
}

/// (from, to): imports that close the loop {admin, auth, error, files, http, metrics, store}.
/// The store quotes names with `admin::terminal_safe`; `error` turns a `StoreError` into a
/// response; `metrics` reads the client address type from `http`.
const KNOWN_LOOP_EDGES: &[(&str, &str)] =
    &[("store", "admin"), ("error", "store"), ("metrics", "http")];

#[test]
fn top_level_modules_import_each_other_without_loops() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut edges = edges(&src);
    for (from, to) in KNOWN_LOOP_EDGES {
        assert!(
            edges
                .get_mut(*from)
                .is_some_and(|targets| targets.remove(*to)),
            "{from} no longer imports {to}: take it off KNOWN_LOOP_EDGES"
        );
    }
    let found = loops(&edges);
    let described: Vec<String> = found
        .iter()
        .map(|group| {
            let links: Vec<String> = group
                .iter()
                .flat_map(|from| {
                    edges[from]
                        .iter()
                        .filter(|to| group.contains(to))
                        .map(move |to| format!("{from} → {to}"))
                })
                .collect();
            format!("{{{}}}: {}", group.join(", "), links.join(", "))
        })
        .collect();
    assert!(
        found.is_empty(),
        "modules that import each other in a loop:\n{}",
        described.join("\n")
    );
}

#[test]
fn grouped_and_plain_crate_paths_are_read() {
    let code = "use crate::{\n    couriers::Couriers,\n    records::{self, Kind},\n    store,\n};\nfn f() { crate::notify::poke(); }";
    assert_eq!(
        modules_named(code),
        ["couriers", "notify", "records", "store"]
            .map(String::from)
            .into()
    );
}

#[test]
fn a_loop_is_found_and_a_chain_is_not() {
    let graph = |pairs: &[(&str, &str)]| {
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (from, to) in pairs {
            edges
                .entry((*from).into())
                .or_default()
                .insert((*to).into());
            edges.entry((*to).into()).or_default();
        }
        edges
    };
    assert!(loops(&graph(&[("a", "b"), ("b", "c")])).is_empty());
    assert_eq!(
        loops(&graph(&[
            ("store", "notify"),
            ("notify", "auth"),
            ("auth", "store"),
            ("x", "store")
        ])),
        [vec!["auth".to_owned(), "notify".into(), "store".into()]]
    );
}

//! `make abuse`: the attacks of issues 10 and 31 replayed against release binaries on loopback, with the
//! figures printed side by side. Not a test (nothing here passes or fails): it reproduces what
//! a hostile visitor could do to a binary, so a fix can be shown before and after.
//!
//! `abuse --after target/release/delivery-tracker [--before OLD_BINARY] [--only NAME]`
//!
//! Every scenario starts its own server(s) with a fresh DATA_DIR, is bounded in time and count,
//! and sends traffic only to 127.0.0.0/8.

mod archives;
mod bomb;
mod connections;
mod gaps;
mod phone;
mod quotas;
mod signups;
mod storage;
mod streams;
mod uploads;

use std::{
    path::{Path, PathBuf},
    time::Instant,
};

/// One measured figure of a scenario.
pub struct Figure {
    pub name: String,
    pub value: String,
}

impl Figure {
    pub fn new(name: impl Into<String>, value: impl ToString) -> Figure {
        Figure {
            name: name.into(),
            value: value.to_string(),
        }
    }
}

pub use bench::served::{Server, guest};

/// Milliseconds since `since`, to one decimal.
pub fn ms(since: Instant) -> String {
    format!("{:.1} ms", since.elapsed().as_secs_f64() * 1000.0)
}

/// The scenarios, in the order of the findings.
type Scenario = fn(&Path) -> std::pin::Pin<Box<dyn std::future::Future<Output = Vec<Figure>> + '_>>;

fn scenarios() -> Vec<(&'static str, Scenario)> {
    vec![
        ("connections", |b| Box::pin(connections::run(b))),
        ("storage", |b| Box::pin(storage::run(b))),
        ("uploads", |b| Box::pin(uploads::run(b))),
        ("phone", |b| Box::pin(phone::run(b))),
        // Issue 31.
        ("streams", |b| Box::pin(streams::run(b))),
        ("bomb", |b| Box::pin(bomb::run(b))),
        ("quotas", |b| Box::pin(quotas::run(b))),
        ("signups", |b| Box::pin(signups::run(b))),
        ("archives", |b| Box::pin(archives::run(b))),
        ("gaps", |b| Box::pin(gaps::run(b))),
    ]
}

struct Args {
    before: Option<PathBuf>,
    after: PathBuf,
    only: Option<String>,
}

fn parse_args() -> Args {
    let mut args = std::env::args().skip(1);
    let (mut before, mut after, mut only) = (None, None, None);
    while let Some(flag) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| panic!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--before" => {
                before = Some(PathBuf::from(value())).filter(|p| !p.as_os_str().is_empty());
            }
            "--after" => after = Some(PathBuf::from(value())),
            "--only" => only = Some(value()),
            other => panic!("unknown argument {other}"),
        }
    }
    Args {
        before,
        after: after.unwrap_or_else(|| PathBuf::from("target/release/delivery-tracker")),
        only,
    }
}

#[tokio::main]
async fn main() {
    let args = parse_args();
    let mut rows: Vec<(String, String, Option<String>)> = Vec::new();
    for (name, scenario) in scenarios() {
        if args.only.as_deref().is_some_and(|only| only != name) {
            continue;
        }
        eprintln!("== {name}");
        let before = match &args.before {
            Some(binary) => Some(scenario(binary).await),
            None => None,
        };
        let after = scenario(&args.after).await;
        for (i, figure) in after.into_iter().enumerate() {
            let old = before
                .as_ref()
                .and_then(|b| b.get(i))
                .map(|f| f.value.clone());
            // As it comes, so a later scenario that fails loses nothing measured so far.
            eprintln!(
                "   {}: {} -> {}",
                figure.name,
                old.as_deref().unwrap_or("-"),
                figure.value
            );
            let label = if figure.name.starts_with(&format!("{name}: ")) {
                figure.name
            } else {
                format!("{name}: {}", figure.name)
            };
            rows.push((label, figure.value, old));
        }
    }
    let with_before = args.before.is_some();
    if with_before {
        println!("| attack | before | after |\n|---|---|---|");
    } else {
        println!("| attack | figure |\n|---|---|");
    }
    for (name, after, before) in rows {
        if with_before {
            println!(
                "| {name} | {} | {after} |",
                before.unwrap_or_else(|| "-".into())
            );
        } else {
            println!("| {name} | {after} |");
        }
    }
}

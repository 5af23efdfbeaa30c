//! The README and docs/ stay true as the code changes: every `delivery-tracker …` command they
//! show runs against a real data directory (placeholders such as USER filled in), every
//! `make` target they name exists, every relative link and its #anchor points at something,
//! and the README stays short enough to read. (Commands that need a package, a container or
//! systemd are run by `make package-test`, `make container-test` and `make dist-test`.)

use crate::common;

use std::{
    collections::BTreeSet,
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use common::binary::{free_port, start_binary};

const README_MAX_LINES: usize = 120;
/// Who USER stands for in the documented commands.
const DRIVER: &str = "driver@example.com";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The pages an operator or contributor reads: README, CONTRIBUTING and docs/*.md.
fn pages() -> Vec<(PathBuf, String)> {
    let mut paths = vec![repo().join("README.md"), repo().join("CONTRIBUTING.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(repo().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    paths.extend(docs);
    paths
        .into_iter()
        .map(|p| {
            let text = fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}

/// Each piece of shell a page shows: the lines of its ```sh blocks and its inline code spans.
fn shell_snippets(text: &str) -> Vec<String> {
    let mut snippets = Vec::new();
    let mut fence: Option<bool> = None;
    for line in text.lines() {
        if let Some(rest) = line.trim_start().strip_prefix("```") {
            fence = match fence {
                Some(_) => None,
                None => Some(rest.trim() == "sh"),
            };
            continue;
        }
        match fence {
            Some(true) => snippets.push(line.to_owned()),
            Some(false) => {}
            None => snippets.extend(line.split('`').skip(1).step_by(2).map(str::to_owned)),
        }
    }
    snippets
}

/// The arguments of every `delivery-tracker` invocation in `snippet` (the command word itself
/// left out): up to a comment, a closing quote or the end of the command.
fn invocations(snippet: &str) -> Vec<Vec<String>> {
    const SUBCOMMANDS: [&str; 6] = [
        "serve",
        "users",
        "backup",
        "restore",
        "healthcheck",
        "messages",
    ];
    let mut found = Vec::new();
    let words: Vec<&str> = snippet.split_whitespace().collect();
    for (at, word) in words.iter().enumerate() {
        let word = word.trim_start_matches(['\'', '"', '(']);
        if word != "delivery-tracker" && word != "./delivery-tracker" {
            continue;
        }
        let mut args = Vec::new();
        for next in &words[at + 1..] {
            if next.starts_with('#') || ["&&", "||", "|", ";", "\\"].contains(next) {
                break;
            }
            let ends = next.ends_with(['\'', '"', ')']);
            args.push(next.trim_end_matches(['\'', '"', ')']).to_owned());
            if ends {
                break;
            }
        }
        let runs_something = args
            .first()
            .is_none_or(|first| SUBCOMMANDS.contains(&first.as_str()) || first.starts_with('-'));
        if runs_something && !(word == "delivery-tracker" && args.is_empty()) {
            found.push(args);
        }
    }
    found
}

fn binary(data_dir: &Path, cwd: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_delivery-tracker"));
    command
        .current_dir(cwd)
        .env("DATA_DIR", data_dir)
        .env("LOG", "error")
        .env_remove("DATABASE_URL");
    command
}

#[test]
fn the_readme_is_short() {
    let lines = fs::read_to_string(repo().join("README.md"))
        .unwrap()
        .lines()
        .count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines; the rest belongs in docs/"
    );
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix('#'))
        .map(|l| anchor(l.trim_start_matches('#')))
        .collect()
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let mut broken = Vec::new();
    for (page, text) in pages() {
        let dir = page.parent().unwrap();
        let targets = text
            .split("](")
            .skip(1)
            .filter_map(|rest| rest.split(')').next())
            .chain(
                text.split("src=\"")
                    .skip(1)
                    .filter_map(|rest| rest.split('"').next()),
            );
        for target in targets {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, fragment) = target.split_once('#').unwrap_or((target, ""));
            let file = if path.is_empty() {
                page.clone()
            } else {
                dir.join(path)
            };
            if !file.exists() {
                broken.push(format!("{}: {target} (no such file)", page.display()));
                continue;
            }
            if !fragment.is_empty()
                && !anchors(&fs::read_to_string(&file).unwrap()).contains(fragment)
            {
                broken.push(format!("{}: {target} (no such heading)", page.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_documented_make_target_exists() {
    let makefile = fs::read_to_string(repo().join("Makefile")).unwrap();
    let targets: BTreeSet<&str> = makefile
        .lines()
        .filter_map(|l| l.split_once(':').map(|(t, _)| t))
        .filter(|t| !t.is_empty() && t.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
        .collect();
    let mut missing = Vec::new();
    let mut named = 0;
    for (page, text) in pages() {
        for snippet in shell_snippets(&text) {
            let words: Vec<&str> = snippet.split_whitespace().collect();
            for pair in words.windows(2) {
                if pair[0] == "make"
                    && pair[1]
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_lowercase())
                {
                    named += 1;
                    if !targets.contains(pair[1]) {
                        missing.push(format!("{}: make {}", page.display(), pair[1]));
                    }
                }
            }
        }
    }
    assert!(named >= 5, "the docs name make targets: found {named}");
    assert!(
        missing.is_empty(),
        "no such target:\n{}",
        missing.join("\n")
    );
}

/// Every `delivery-tracker …` command the pages show, run for real: the read-only ones and
/// backups against a server's data directory with a driver signed up, restores into a new
/// data directory each, and deletions last. `serve` and `healthcheck` lines only have their
/// arguments checked (`--help`): other tests start the server.
#[test]
fn every_documented_command_runs() {
    let mut commands: Vec<(String, Vec<String>)> = Vec::new();
    for (page, text) in pages() {
        for snippet in shell_snippets(&text) {
            for args in invocations(&snippet) {
                let args: Vec<String> = args
                    .into_iter()
                    .map(|a| if a == "USER" { DRIVER.to_owned() } else { a })
                    .collect();
                let source = format!("{}: {snippet}", page.display());
                if !commands.iter().any(|(_, a)| a == &args) {
                    commands.push((source, args));
                }
            }
        }
    }
    let subcommand = |args: &[String]| args.first().map_or("serve", String::as_str).to_owned();
    let rank = |args: &[String]| match (subcommand(args).as_str(), args.get(1).map(String::as_str))
    {
        ("restore", _) => 2,
        ("users", Some("delete")) => 3,
        _ => 1,
    };
    commands.sort_by_key(|(_, args)| rank(args));
    let kinds: BTreeSet<String> = commands.iter().map(|(_, a)| subcommand(a)).collect();
    for expected in ["users", "backup", "restore", "messages", "serve"] {
        assert!(
            kinds.contains(expected),
            "no documented `{expected}` command: {kinds:?}"
        );
    }

    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // The server's data directory, with a driver signed up the way a driver does.
    let port = free_port();
    let mut server = start_binary(&data, port, &[], None);
    let signed_up = tokio::runtime::Runtime::new().unwrap().block_on(async {
        reqwest::Client::new()
            .post(format!("http://127.0.0.1:{port}/api/v1/auth/signup"))
            .json(&serde_json::json!({"email": DRIVER, "password": "van-route-42"}))
            .send()
            .await
            .map(|r| r.status())
    });
    let _ = server.kill();
    let _ = server.wait();
    assert_eq!(signed_up.unwrap(), reqwest::StatusCode::CREATED);

    let mut failures = Vec::new();
    for (index, (source, args)) in commands.iter().enumerate() {
        let mut argv = args.clone();
        if matches!(subcommand(args).as_str(), "serve" | "healthcheck")
            && !argv.iter().any(|a| a == "--help")
        {
            argv.push("--help".into());
        }
        let data_dir = if subcommand(args) == "restore" {
            dir.path().join(format!("restored-{index}"))
        } else {
            data.clone()
        };
        let output = binary(&data_dir, dir.path()).args(&argv).output().unwrap();
        if !output.status.success() {
            failures.push(format!(
                "{source}\n    ran: delivery-tracker {}\n    {}",
                argv.join(" "),
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "documented commands that fail:\n{}",
        failures.join("\n")
    );
}

#[test]
fn invocations_are_read_as_a_shell_would() {
    let read = |s: &str| invocations(s);
    assert_eq!(
        read("delivery-tracker users set-plan USER pro    # set a plan (--limit N)"),
        [["users", "set-plan", "USER", "pro"]]
    );
    assert_eq!(
        read(
            "sudo -u delivery-tracker sh -c 'set -a; . /etc/x.env; exec delivery-tracker users list'"
        ),
        [["users", "list"]]
    );
    assert_eq!(
        read("podman exec tracker delivery-tracker users list"),
        [["users", "list"]]
    );
    assert!(read("sudo systemctl restart delivery-tracker").is_empty());
    assert!(read("sudo install -m 0755 delivery-tracker /usr/bin/delivery-tracker").is_empty());
    assert_eq!(read("./delivery-tracker"), [Vec::<String>::new()]);
}

//! What every record kind does the same way, run over the table of kinds (`kinds::TABLE`):
//! put, edit and delete pulled with their versions, a delete winning over a late edit,
//! replays, concurrent pushes, ownership, references, bad input, paging, the records quota.
//! Each assertion names the kind it failed for. A write-once kind (the registry's
//! `write_once`) gets the same scenarios, with its edits and deletes refused `immutable`.

use std::sync::Arc;

use reqwest::StatusCode;
use serde_json::{Value, json};

use super::{
    S, codes,
    common::{Backend, Reply, TestApp, spawn_app, spawn_app_with},
    content, cursor_now,
    kinds::{Ref, Row, TABLE, Targets, row, write_once},
    mutation, new_id, pull, pull_all, pull_since, statuses, summarise,
};

const PASSWORD: &str = "van-route-42";
const NIL: &str = "00000000-0000-0000-0000-000000000000";
const MAX: &str = "ffffffff-ffff-ffff-ffff-ffffffffffff";

fn put_of(row: &Row, args: Value) -> Value {
    mutation(&format!("{}.put", row.kind), args)
}

fn delete_of(kind: &str, id: &str) -> Value {
    mutation(&format!("{kind}.delete"), json!({"id": id}))
}

/// A valid put of `id` with every reference field pointing at `targets` (a row's valid record
/// may leave a nullable one null).
fn pointing_at_all(row: &Row, id: &str, targets: &Targets) -> Value {
    let mut args = (row.valid)(id, targets);
    if row.one_of_references {
        // Only one may name a record: `valid`'s.
        return args;
    }
    for reference in row.references {
        args[reference.field] = json!(targets.of(reference.target));
    }
    args
}

/// A valid put of `id` whose `reference` names its target in `targets` (as every other
/// reference does, or, where only one may, none of them).
fn pointing_through(row: &Row, reference: &Ref, id: &str, targets: &Targets) -> Value {
    if !row.one_of_references {
        return pointing_at_all(row, id, targets);
    }
    let mut args = (row.valid)(id, targets);
    for other in row.references {
        args[other.field] = Value::Null;
    }
    args[reference.field] = json!(targets.of(reference.target));
    args
}

/// `kinds`, each after the kinds its records point at (so a push of them in this order
/// finds what each points at).
fn in_dependency_order(mut kinds: Vec<&'static str>) -> Vec<&'static str> {
    kinds.dedup();
    let mut ordered: Vec<&'static str> = Vec::new();
    while !kinds.is_empty() {
        let next = kinds
            .iter()
            .position(|kind| {
                row(kind).references.iter().all(|r| {
                    r.kind == *kind || ordered.contains(&r.kind) || !kinds.contains(&r.kind)
                })
            })
            .expect("the references form no cycle");
        let kind = kinds.remove(next);
        if !ordered.contains(&kind) {
            ordered.push(kind);
        }
    }
    ordered
}

async fn account(app: &TestApp, email: &str) -> (String, Targets) {
    let (cookie, _) = app.sign_up(email, PASSWORD).await;
    let targets = Targets::create(app, &cookie).await;
    (cookie, targets)
}

/// Put, edit and delete of each kind, each pulled with its version: exactly the documented
/// content (trimmed, normalised, defaults filled in), an edit keeping `createdAt`, a delete
/// leaving a contentless tombstone. A write-once kind refuses the edit and the delete.
async fn every_kind_is_put_edited_and_deleted_with_versions(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, t) = account(&app, "kinds@example.com").await;
    for row in TABLE {
        let kind = row.kind;
        let start = cursor_now(&app, &cookie).await;
        let id = new_id();
        let reply = app
            .push(&cookie, vec![put_of(row, (row.valid)(&id, &t))])
            .await;
        assert_eq!(statuses(&reply), ["applied"], "{kind}: {}", reply.text);
        let first = pull(&app, &cookie, start, 10).await;
        assert_eq!(first["cursor"], start + 1, "{kind}");
        let change = &first["changes"][0];
        assert_eq!(
            summarise(first["changes"].as_array().unwrap()),
            [(kind.to_owned(), id.clone(), start + 1, false)],
            "{kind}"
        );
        assert_eq!(
            content(change),
            (row.stored)(&t),
            "{kind}: exactly the documented fields"
        );
        let created = change["data"]["createdAt"].clone();
        assert!(created.as_str().unwrap().ends_with('Z'), "{kind}: {change}");

        let reply = app
            .push(&cookie, vec![put_of(row, (row.edit)(&id, &t))])
            .await;
        let edited = pull(&app, &cookie, start + 1, 10).await;
        let version = if write_once(kind) {
            assert_eq!(codes(&reply), ["immutable"], "{kind}: {}", reply.text);
            assert_eq!(edited["changes"], json!([]), "{kind}: kept as sent");
            start + 1
        } else {
            assert_eq!(statuses(&reply), ["applied"], "{kind}: {}", reply.text);
            let changes = edited["changes"].as_array().unwrap();
            assert_eq!(
                summarise(changes),
                [(kind.to_owned(), id.clone(), start + 2, false)],
                "{kind}: the edit moved the version"
            );
            assert_eq!(content(&changes[0]), (row.edited)(&t), "{kind}: edited");
            assert_eq!(changes[0]["data"]["createdAt"], created, "{kind}");
            start + 2
        };
        assert_eq!(edited["cursor"], version, "{kind}");

        let reply = app.push(&cookie, vec![delete_of(kind, &id)]).await;
        let gone = pull(&app, &cookie, version, 10).await;
        if write_once(kind) {
            assert_eq!(codes(&reply), ["immutable"], "{kind}: {}", reply.text);
            assert_eq!(gone["changes"], json!([]), "{kind}: never deleted");
            let kept = pull_since(&app, &cookie, start).await;
            assert_eq!(content(&kept[0]), (row.stored)(&t), "{kind}: as sent");
        } else {
            assert_eq!(statuses(&reply), ["applied"], "{kind}: {}", reply.text);
            let changes = gone["changes"].as_array().unwrap();
            assert_eq!(
                summarise(changes),
                [(kind.to_owned(), id.clone(), version + 1, true)],
                "{kind}"
            );
            assert!(
                changes[0].get("data").is_none(),
                "{kind}: tombstones carry no content"
            );
            assert_eq!(gone["cursor"], version + 1, "{kind}");
        }
    }
}

/// A delete wins over an edit arriving after it (an offline edit arriving late), and over a
/// put of a record deleted on one device before another synced it. A write-once kind's
/// stored record refuses both, while a delete of a record it never held stands.
async fn a_delete_wins_over_a_later_edit(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, t) = account(&app, "deleter@example.com").await;
    for row in TABLE {
        let kind = row.kind;
        let start = cursor_now(&app, &cookie).await;
        let (record, never_seen) = (new_id(), new_id());
        let reply = app
            .push(
                &cookie,
                vec![
                    put_of(row, (row.valid)(&record, &t)),
                    delete_of(kind, &record),
                    put_of(row, (row.edit)(&record, &t)), // an offline edit arriving late
                    delete_of(kind, &never_seen), // deleted on one device before another synced it
                    put_of(row, (row.valid)(&never_seen, &t)),
                ],
            )
            .await;
        let changes = pull_since(&app, &cookie, start).await;
        if write_once(kind) {
            assert_eq!(
                codes(&reply),
                ["applied", "immutable", "immutable", "applied", "immutable"],
                "{kind}: {}",
                reply.text
            );
            assert_eq!(
                summarise(&changes),
                [
                    (kind.to_owned(), record, start + 1, false),
                    (kind.to_owned(), never_seen, start + 2, true)
                ],
                "{kind}"
            );
        } else {
            assert_eq!(codes(&reply), ["applied"; 5], "{kind}: {}", reply.text);
            assert_eq!(
                summarise(&changes),
                [
                    (kind.to_owned(), record, start + 2, true),
                    (kind.to_owned(), never_seen, start + 3, true)
                ],
                "{kind}: the late puts wrote nothing"
            );
            assert!(changes.iter().all(|c| c.get("data").is_none()), "{kind}");
            assert_eq!(cursor_now(&app, &cookie).await, start + 3, "{kind}");
        }
    }
}

/// A push replayed (a device that never got the answer) answers the same and changes
/// nothing; in order, the second put of a record wins; a malformed put is refused.
async fn replayed_pushes_change_nothing_and_answer_the_same(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, t) = account(&app, "replay@example.com").await;
    for row in TABLE {
        let kind = row.kind;
        let start = cursor_now(&app, &cookie).await;
        let (kept, deleted) = (new_id(), new_id());
        let batch = vec![
            put_of(row, (row.valid)(&kept, &t)),
            put_of(row, (row.edit)(&kept, &t)),
            put_of(row, (row.valid)(&deleted, &t)),
            delete_of(kind, &deleted),
            put_of(row, json!({"id": "nope"})),
        ];
        let first = app.push(&cookie, batch.clone()).await;
        assert_eq!(first.status, StatusCode::OK, "{kind}: {}", first.text);
        let state = pull_since(&app, &cookie, start).await;
        for replay in 1..=5 {
            let again = app.push(&cookie, batch.clone()).await;
            assert_eq!(
                again.body, first.body,
                "{kind}: replay {replay} answers the same"
            );
            assert_eq!(
                pull_since(&app, &cookie, start).await,
                state,
                "{kind}: replay {replay} changes nothing"
            );
        }
        let versions: Vec<(&str, i64)> = state
            .iter()
            .map(|c| (c["id"].as_str().unwrap(), c["version"].as_i64().unwrap()))
            .collect();
        let last = if write_once(kind) {
            assert_eq!(
                codes(&first),
                ["applied", "immutable", "applied", "immutable", "validation"],
                "{kind}: {}",
                first.text
            );
            assert_eq!(
                versions,
                [(kept.as_str(), start + 1), (deleted.as_str(), start + 2)],
                "{kind}"
            );
            assert_eq!(content(&state[0]), (row.stored)(&t), "{kind}: as sent");
            start + 2
        } else {
            assert_eq!(
                statuses(&first),
                ["applied", "applied", "applied", "applied", "rejected"],
                "{kind}: {}",
                first.text
            );
            assert_eq!(first.body["results"][4]["code"], "validation", "{kind}");
            assert_eq!(
                versions,
                [(kept.as_str(), start + 2), (deleted.as_str(), start + 4)],
                "{kind}"
            );
            assert_eq!(
                content(&state[0]),
                (row.edited)(&t),
                "{kind}: in order, the second put won"
            );
            start + 4
        };
        let beyond = pull(&app, &cookie, last, 10).await;
        assert_eq!(beyond["changes"], json!([]), "{kind}: no more writes");
    }
}

/// Ten devices pushing the same batch at once: every one gets the same answer and each
/// record is written exactly once.
async fn concurrent_identical_pushes_apply_once(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, t) = account(&app, "race@example.com").await;
    let app = Arc::new(app);
    for row in TABLE {
        let kind = row.kind;
        let start = cursor_now(&app, &cookie).await;
        let batch = vec![
            put_of(row, (row.valid)(&new_id(), &t)),
            put_of(row, (row.valid)(&new_id(), &t)),
        ];
        let mut tasks = Vec::new();
        for _ in 0..10 {
            let (app, cookie, batch) = (app.clone(), cookie.clone(), batch.clone());
            tasks.push(tokio::spawn(async move { app.push(&cookie, batch).await }));
        }
        let mut bodies = Vec::new();
        for task in tasks {
            let reply = task.await.unwrap();
            assert_eq!(reply.status, StatusCode::OK, "{kind}: {}", reply.text);
            bodies.push(reply.body);
        }
        assert!(
            bodies.windows(2).all(|w| w[0] == w[1]),
            "{kind}: every push got the same answer"
        );
        assert_eq!(
            codes(&app.push(&cookie, batch).await),
            ["applied"; 2],
            "{kind}"
        );
        let versions: Vec<i64> = pull_since(&app, &cookie, start)
            .await
            .iter()
            .map(|c| c["version"].as_i64().unwrap())
            .collect();
        assert_eq!(
            versions,
            [start + 1, start + 2],
            "{kind}: two records, each written exactly once"
        );
    }
}

/// Another account's record, live or deleted, is `not-owner` to put or delete, and so is a
/// record of one's own pointing at another account's (its default courier and card
/// included); the refusals are recorded (a replay answers the same); nothing of either
/// account moves, and neither sees the other's. Ownership goes both ways: an id deleted
/// first by one account is theirs. A mutation id another account used is a different key.
async fn other_accounts_records_are_untouchable_and_invisible(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (alice, alices) = account(&app, "alice@example.com").await;
    let (mallory, mallorys) = account(&app, "mallory@example.com").await;
    let mut live = Vec::new();
    for row in TABLE {
        let (record, gone) = (new_id(), new_id());
        let mut mutations = vec![put_of(row, (row.valid)(&record, &alices))];
        if !write_once(row.kind) {
            mutations.extend([
                put_of(row, (row.valid)(&gone, &alices)),
                delete_of(row.kind, &gone),
            ]);
        }
        let reply = app.push(&alice, mutations).await;
        assert!(
            statuses(&reply).iter().all(|s| s == "applied"),
            "{}: {}",
            row.kind,
            reply.text
        );
        live.push((row, record, (!write_once(row.kind)).then_some(gone)));
    }
    let alice_before = pull_since(&app, &alice, 0).await;
    let mallory_before = pull_since(&app, &mallory, 0).await;

    // (what it tries, the mutation)
    let mut attempts: Vec<(String, Value)> = Vec::new();
    for (row, record, gone) in &live {
        let kind = row.kind;
        // Guessed (or leaked) ids: a live record and a tombstone are both alice's for good.
        attempts.push((
            format!("{kind}: put alice's"),
            put_of(row, (row.valid)(record, &mallorys)),
        ));
        attempts.push((format!("{kind}: delete alice's"), delete_of(kind, record)));
        if let Some(gone) = gone {
            attempts.push((
                format!("{kind}: put alice's deleted"),
                put_of(row, (row.valid)(gone, &mallorys)),
            ));
            attempts.push((
                format!("{kind}: delete alice's deleted"),
                delete_of(kind, gone),
            ));
        }
        // Her own ids, pointing at alice's records.
        for reference in row.references {
            let mut args = pointing_through(row, reference, &new_id(), &mallorys);
            args[reference.field] = json!(alices.of(reference.target));
            attempts.push((
                format!("{kind}.{} at alice's {}", reference.field, reference.kind),
                put_of(row, args),
            ));
        }
    }
    let mut targeted: Vec<(&str, &str)> = TABLE
        .iter()
        .flat_map(|row| row.references.iter().map(|r| (r.target, r.kind)))
        .collect();
    targeted.sort_unstable();
    targeted.dedup();
    for (target, kind) in targeted {
        attempts.push((
            format!("delete alice's {target} (the default one for couriers and cards)"),
            delete_of(kind, alices.of(target)),
        ));
    }
    let mutations: Vec<Value> = attempts.iter().map(|(_, m)| m.clone()).collect();
    let reply = app.push(&mallory, mutations.clone()).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    for ((what, _), result) in attempts
        .iter()
        .zip(reply.body["results"].as_array().unwrap())
    {
        assert_eq!(
            (result["status"].as_str(), result["code"].as_str()),
            (Some("rejected"), Some("not-owner")),
            "{what}: {result}"
        );
    }
    assert_eq!(codes(&reply).len(), attempts.len());
    // Recorded: the same mutations again get the same answers.
    let again = app.push(&mallory, mutations).await;
    assert_eq!(again.body, reply.body);
    assert_eq!(
        pull_since(&app, &alice, 0).await,
        alice_before,
        "alice's records did not move"
    );
    assert_eq!(
        pull_since(&app, &mallory, 0).await,
        mallory_before,
        "mallory never sees them and wrote nothing"
    );

    // Ownership goes both ways: an id mallory deleted first is hers, alice cannot claim it.
    for row in TABLE {
        let claimed = new_id();
        let reply = app
            .push(&mallory, vec![delete_of(row.kind, &claimed)])
            .await;
        assert_eq!(codes(&reply), ["applied"], "{}", row.kind);
        let reply = app
            .push(&alice, vec![put_of(row, (row.valid)(&claimed, &alices))])
            .await;
        assert_eq!(codes(&reply), ["not-owner"], "{}: {}", row.kind, reply.text);
    }
    assert_eq!(pull_since(&app, &alice, 0).await, alice_before);

    // A mutation id used by another user is a different key: no cross-user replay answers.
    for row in TABLE {
        let start = cursor_now(&app, &mallory).await;
        let shared = new_id();
        let put_with =
            |args: Value| json!({"id": shared, "name": format!("{}.put", row.kind), "args": args});
        let reply = app
            .push(&alice, vec![put_with((row.valid)(&new_id(), &alices))])
            .await;
        assert_eq!(codes(&reply), ["applied"], "{}", row.kind);
        let reply = app
            .push(&mallory, vec![put_with((row.valid)(&new_id(), &mallorys))])
            .await;
        assert_eq!(codes(&reply), ["applied"], "{}: {}", row.kind, reply.text);
        assert_eq!(
            pull_since(&app, &mallory, start).await.len(),
            1,
            "{}",
            row.kind
        );
    }
}

/// What a record points at is checked on every put, in push order: one that does not exist
/// is `missing-reference`, naming its kind, and not recorded (the same mutation applies once
/// it arrives, even earlier in the same push, and a replay then writes nothing more); the
/// user's own deleted record is fine (a record logged offline for it is kept); a nullable
/// reference left null needs nothing.
async fn references_are_checked_in_push_order(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, t) = account(&app, "references@example.com").await;
    for row in TABLE.iter().filter(|row| !row.references.is_empty()) {
        let kind = row.kind;
        let start = cursor_now(&app, &cookie).await;
        // Each reference alone pointing at nothing, refused alike twice: not recorded.
        for reference in row.references {
            let mut args = pointing_through(row, reference, &new_id(), &t);
            args[reference.field] = json!(new_id());
            let orphan = put_of(row, args);
            for _ in 0..2 {
                let reply = app.push(&cookie, vec![orphan.clone()]).await;
                let result = &reply.body["results"][0];
                assert_eq!(
                    (&result["status"], &result["code"]),
                    (&json!("rejected"), &json!("missing-reference")),
                    "{kind}.{}: {}",
                    reference.field,
                    reply.text
                );
                assert!(
                    result["message"].as_str().unwrap().contains(reference.kind),
                    "{kind}.{}: {result}",
                    reference.field
                );
            }
        }
        // Everything it points at missing, then arriving (in one push, each before what
        // points at it): the very same mutation is looked at afresh and applied.
        let kinds = in_dependency_order(row.references.iter().map(|r| r.kind).collect());
        // Each record it points at (target, kind), in the kinds' dependency order.
        let mut referenced_targets: Vec<(&'static str, &'static str)> = Vec::new();
        for kind in &kinds {
            for r in row.references.iter().filter(|r| r.kind == *kind) {
                if !referenced_targets.contains(&(r.target, r.kind)) {
                    referenced_targets.push((r.target, r.kind));
                }
            }
        }
        let mut fresh = t.clone();
        for (target, _) in &referenced_targets {
            fresh = fresh.with(target, &new_id());
        }
        let early = put_of(row, pointing_at_all(row, &new_id(), &fresh));
        let reply = app.push(&cookie, vec![early.clone()]).await;
        assert_eq!(
            codes(&reply),
            ["missing-reference"],
            "{kind}: {}",
            reply.text
        );
        assert!(
            pull_since(&app, &cookie, start).await.is_empty(),
            "{kind}: nothing refused was written"
        );
        let mut arrivals: Vec<Value> = referenced_targets
            .iter()
            .map(|(target, kind)| {
                let referenced = super::kinds::row(kind);
                put_of(referenced, (referenced.valid)(fresh.of(target), &fresh))
            })
            .collect();
        arrivals.push(early.clone());
        let count = arrivals.len();
        let reply = app.push(&cookie, arrivals).await;
        assert_eq!(
            codes(&reply),
            vec!["applied"; count],
            "{kind}: {}",
            reply.text
        );
        let replay = app.push(&cookie, vec![early]).await;
        assert_eq!(codes(&replay), ["applied"], "{kind}");
        assert_eq!(
            pull_since(&app, &cookie, start).await.len(),
            count,
            "{kind}: the replay wrote nothing more"
        );

        // Deleted on another device: a record logged offline for it is still kept.
        let mut deleted: Vec<Value> = referenced_targets
            .iter()
            .rev()
            .filter(|(_, kind)| !write_once(kind))
            .map(|(target, kind)| delete_of(kind, fresh.of(target)))
            .collect();
        if !deleted.is_empty() {
            deleted.push(put_of(row, pointing_at_all(row, &new_id(), &fresh)));
            let count = deleted.len();
            let reply = app.push(&cookie, deleted).await;
            assert_eq!(
                codes(&reply),
                vec!["applied"; count],
                "{kind}: {}",
                reply.text
            );
        }

        // Left null, a nullable reference points at nothing and needs nothing.
        let nullable: Vec<&str> = row
            .references
            .iter()
            .filter(|r| r.nullable)
            .map(|r| r.field)
            .collect();
        if !nullable.is_empty() {
            let mut args = pointing_at_all(row, &new_id(), &t);
            for field in &nullable {
                args[*field] = Value::Null;
            }
            let reply = app.push(&cookie, vec![put_of(row, args)]).await;
            assert_eq!(
                codes(&reply),
                ["applied"],
                "{kind} with {nullable:?} null: {}",
                reply.text
            );
        }
    }
}

/// A refused put names each problem under its field, as a REST answer does, and the same
/// problems as its message.
#[track_caller]
fn assert_names_every_problem(reply: &Reply, name: &str, problems: usize) {
    let result = &reply.body["results"][0];
    let message = result["message"].as_str().unwrap();
    let by_field: Vec<&str> = result["fields"]
        .as_object()
        .unwrap_or_else(|| panic!("{name} names its fields: {}", reply.text))
        .values()
        .flat_map(|messages| messages.as_array().unwrap().iter())
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(by_field.len(), problems, "{name}: {}", reply.text);
    assert!(
        by_field.iter().all(|m| message.contains(m)),
        "{name}: {}",
        reply.text
    );
}

/// Bad input of each kind is refused as `validation` (naming every problem at once, and each
/// under its field, where the row says how many), a replay answers the same, and nothing is
/// written. So are a field the kind does not have, a left-out field where every one is
/// required, the nil and max UUIDs as a record's id or a reference (issue 31), and a delete
/// without a UUID.
async fn bad_input_is_refused_naming_every_problem(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, t) = account(&app, "bad-kinds@example.com").await;
    let start = cursor_now(&app, &cookie).await;
    for row in TABLE {
        let kind = row.kind;
        let name = format!("{kind}.put");
        for case in (row.invalid)(&t) {
            let args = &case.args;
            let pushed = mutation(&name, case.args.clone());
            let reply = app.push(&cookie, vec![pushed.clone()]).await;
            let result = &reply.body["results"][0];
            assert_eq!(
                (&result["status"], &result["code"]),
                (&json!("rejected"), &json!("validation")),
                "{name} {args}: {}",
                reply.text
            );
            let message = result["message"].as_str().unwrap();
            if let Some(problems) = case.problems {
                assert_eq!(message.split("; ").count(), problems, "{name}: {message}");
                assert_names_every_problem(&reply, &name, problems);
            }
            if let Some(fields) = &case.fields {
                assert_eq!(&result["fields"], fields, "{name}: {}", reply.text);
            }
            if let Some(names) = &case.field_names {
                let mut named: Vec<&str> = result["fields"]
                    .as_object()
                    .map(|f| f.keys().map(String::as_str).collect())
                    .unwrap_or_default();
                named.sort_unstable();
                assert_eq!(&named, names, "{name}: {}", reply.text);
            }
            if let Some(phrase) = &case.says {
                assert!(
                    message.contains(phrase.as_str()),
                    "{name} {args}: {message}"
                );
            }
            if let Some(exact) = case.message {
                assert_eq!(message, exact, "{name} {args}");
            }
            let replay = app.push(&cookie, vec![pushed]).await;
            assert_eq!(replay.body, reply.body, "{name}: a replay keeps the fields");
        }

        let valid = (row.valid)(&new_id(), &t);
        let mut refused = vec![(
            "an unknown field".to_owned(),
            put_of(
                row,
                super::kinds::patched(&valid, json!({"userId": new_id()})),
            ),
        )];
        if row.every_field_required {
            for field in valid.as_object().unwrap().keys() {
                refused.push((
                    format!("without {field}"),
                    put_of(row, super::kinds::without(&valid, field)),
                ));
            }
        }
        for odd in [NIL, MAX] {
            refused.push((
                format!("id {odd}"),
                put_of(row, pointing_at_all(row, odd, &t)),
            ));
            refused.push((format!("delete {odd}"), delete_of(kind, odd)));
        }
        for reference in row.references {
            let mut args = pointing_through(row, reference, &new_id(), &t);
            args[reference.field] = json!(NIL);
            refused.push((format!("{} nil", reference.field), put_of(row, args)));
        }
        let count = refused.len();
        let reply = app
            .push(&cookie, refused.iter().map(|(_, m)| m.clone()).collect())
            .await;
        for ((what, _), code) in refused.iter().zip(codes(&reply)) {
            assert_eq!(code, "validation", "{kind}: {what}: {}", reply.text);
        }
        assert_eq!(codes(&reply).len(), count);

        let reply = app
            .push(
                &cookie,
                vec![
                    mutation(&format!("{kind}.delete"), json!({"id": "INV-1"})),
                    mutation(&format!("{kind}.delete"), json!({})),
                ],
            )
            .await;
        for result in reply.body["results"].as_array().unwrap() {
            assert_eq!(result["code"], "validation", "{kind}");
            assert!(
                result["message"]
                    .as_str()
                    .unwrap()
                    .contains(&format!("{kind}.delete needs")),
                "{kind}: {result}"
            );
        }
    }
    assert!(
        pull_since(&app, &cookie, start).await.is_empty(),
        "nothing refused was written"
    );
}

/// 25 records of each kind pulled 10 at a time: three pages in write order; a pull with
/// nothing new keeps the cursor; a delete comes as a contentless tombstone.
async fn pull_pages_and_returns_tombstones(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, t) = account(&app, "pager@example.com").await;
    for row in TABLE {
        let kind = row.kind;
        let start = cursor_now(&app, &cookie).await;
        let ids: Vec<String> = (0..25).map(|_| new_id()).collect();
        let reply = app
            .push(
                &cookie,
                ids.iter()
                    .map(|id| put_of(row, (row.valid)(id, &t)))
                    .collect(),
            )
            .await;
        assert_eq!(codes(&reply), ["applied"; 25], "{kind}: {}", reply.text);

        let (mut cursor, mut seen, mut pages) = (start, Vec::new(), 0);
        loop {
            let page = pull(&app, &cookie, cursor, 10).await;
            pages += 1;
            let changes = page["changes"].as_array().unwrap();
            seen.extend(changes.iter().map(|c| c["id"].as_str().unwrap().to_owned()));
            cursor = page["cursor"].as_i64().unwrap();
            if !page["hasMore"].as_bool().unwrap() {
                break;
            }
            assert_eq!(changes.len(), 10, "{kind}");
        }
        assert_eq!(
            (pages, seen),
            (3, ids.clone()),
            "{kind}: all 25, in write order, in 3 pages"
        );
        assert_eq!(cursor, start + 25, "{kind}");

        let empty = pull(&app, &cookie, cursor, 10).await;
        assert_eq!(empty["changes"], json!([]), "{kind}");
        assert_eq!(
            empty["cursor"],
            start + 25,
            "{kind}: cursor stays put when nothing changed"
        );

        let reply = app.push(&cookie, vec![delete_of(kind, &ids[3])]).await;
        let after = pull(&app, &cookie, cursor, 10).await;
        if write_once(kind) {
            assert_eq!(codes(&reply), ["immutable"], "{kind}");
            assert_eq!(after["changes"], json!([]), "{kind}");
            assert_eq!(after["cursor"], start + 25, "{kind}");
        } else {
            let tombstone = &after["changes"][0];
            assert_eq!(
                (tombstone["id"].as_str(), tombstone["deleted"].as_bool()),
                (Some(ids[3].as_str()), Some(true)),
                "{kind}"
            );
            assert!(
                tombstone.get("data").is_none(),
                "{kind}: tombstones carry no content"
            );
            assert_eq!(after["cursor"], start + 26, "{kind}");
        }
    }
}

/// Every kind in one pull, paged at every size: the starter records first, then runs longer
/// than a page of one kind, then strict alternation, a settings write, deletes and edits:
/// every way the per-kind reads can meet at a page boundary. Each record comes once, at its
/// latest version, in version order, read as its own kind.
async fn every_kind_interleaves_in_one_pull_with_paging(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("interleave@example.com", PASSWORD).await;
    let me = super::user_id(&app, &cookie).await;
    let (t, target_puts) = Targets::plan(&me);
    let ids: Vec<Vec<String>> = TABLE
        .iter()
        .map(|_| (0..8).map(|_| new_id()).collect())
        .collect();
    let mut mutations = Vec::new();
    let mut expected = vec![
        ("courier".to_owned(), me.clone(), 1, false),
        ("rateCard".to_owned(), me.clone(), 2, false),
    ];
    let mut add = |mutation: Value, kind: &str, id: &str, deleted: bool| {
        mutations.push(mutation);
        expected.push((
            kind.to_owned(),
            id.to_owned(),
            i64::try_from(expected.len()).unwrap() + 1,
            deleted,
        ));
    };
    for (put, kind, id) in target_puts {
        add(put, kind, &id, false);
    }
    for (row, ids) in TABLE.iter().zip(&ids) {
        for id in &ids[..5] {
            add(put_of(row, (row.valid)(id, &t)), row.kind, id, false);
        }
    }
    for i in 5..8 {
        for (row, ids) in TABLE.iter().zip(&ids) {
            add(
                put_of(row, (row.valid)(&ids[i], &t)),
                row.kind,
                &ids[i],
                false,
            );
        }
    }
    add(
        json!({"id": new_id(), "name": "settings.put", "args": {"theme": "light"}}),
        "settings",
        "",
        false,
    );
    for (row, ids) in TABLE.iter().zip(&ids) {
        if !write_once(row.kind) {
            add(delete_of(row.kind, &ids[0]), row.kind, &ids[0], true);
        }
    }
    for (row, ids) in TABLE.iter().zip(&ids) {
        if !write_once(row.kind) {
            add(
                put_of(row, (row.edit)(&ids[1], &t)),
                row.kind,
                &ids[1],
                false,
            );
        }
    }
    let total = i64::try_from(expected.len()).unwrap();
    let count = mutations.len();
    let reply = app.push(&cookie, mutations).await;
    assert_eq!(codes(&reply), vec!["applied"; count], "{}", reply.text);

    // Later writes replace earlier ones: the pull shows each record once, at its last version.
    let latest = |kind: &str, id: &str| {
        expected
            .iter()
            .rev()
            .find(|(k, i, _, _)| k == kind && (i == id || k == "settings"))
            .unwrap()
            .2
    };
    let mut want: Vec<(String, String, i64, bool)> = expected
        .iter()
        .filter(|(kind, id, version, _)| latest(kind, id) == *version)
        .cloned()
        .collect();
    for change in &mut want {
        if change.0 == "settings" {
            change.1 = me.clone();
        }
    }

    for limit in [1, 3, 4, 5, 1000] {
        let (mut cursor, mut seen, mut pages) = (0, Vec::new(), 0);
        loop {
            let page = pull(&app, &cookie, cursor, limit).await;
            let changes = summarise(page["changes"].as_array().unwrap());
            pages += 1;
            let more = page["hasMore"].as_bool().unwrap();
            if more {
                assert_eq!(changes.len(), limit as usize, "only the last page is short");
            }
            let next = page["cursor"].as_i64().unwrap();
            assert_eq!(next, changes.last().map_or(cursor, |c| c.2));
            seen.extend(changes);
            cursor = next;
            if !more {
                break;
            }
        }
        assert_eq!(
            seen, want,
            "limit {limit}: every latest change once, in version order"
        );
        assert_eq!(
            pages,
            want.len().div_ceil(limit as usize).max(1),
            "limit {limit}"
        );
        assert_eq!(cursor, total);
    }
    // A cursor in the middle returns only what came after it, of every kind.
    let tail = pull(&app, &cookie, 12, 1000).await;
    let tail = summarise(tail["changes"].as_array().unwrap());
    assert_eq!(
        tail,
        want.iter()
            .filter(|c| c.2 > 12)
            .cloned()
            .collect::<Vec<_>>()
    );
}

/// A pull must never hand out a cursor past a change it did not return, even while a push of
/// every kind (and the settings) commits between its reads.
async fn pulls_racing_pushes_never_skip_a_change(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, t) = account(&app, "racing-pull@example.com").await;
    let start = cursor_now(&app, &cookie).await;
    let app = Arc::new(app);
    let writer = {
        let (app, cookie) = (app.clone(), cookie.clone());
        tokio::spawn(async move {
            let mut written = std::collections::BTreeSet::new();
            for round in 0..60 {
                let ids: Vec<String> = TABLE.iter().map(|_| new_id()).collect();
                let mut mutations: Vec<Value> = TABLE
                    .iter()
                    .zip(&ids)
                    .map(|(row, id)| put_of(row, (row.valid)(id, &t)))
                    .collect();
                mutations.push(json!({"id": new_id(), "name": "settings.put",
                    "args": {"theme": if round % 2 == 0 { "light" } else { "dark" }}}));
                let reply = app.push(&cookie, mutations).await;
                assert_eq!(reply.status, StatusCode::OK);
                assert!(
                    statuses(&reply).iter().all(|s| s == "applied"),
                    "{}",
                    reply.text
                );
                written.extend(ids);
            }
            written
        })
    };
    let mut seen = std::collections::BTreeSet::new();
    let mut cursor = 0;
    while !writer.is_finished() {
        let page = pull(&app, &cookie, cursor, 1000).await;
        for change in page["changes"].as_array().unwrap() {
            seen.insert(change["id"].as_str().unwrap().to_owned());
        }
        cursor = page["cursor"].as_i64().unwrap();
    }
    let written = writer.await.unwrap();
    loop {
        let page = pull(&app, &cookie, cursor, 1000).await;
        for change in page["changes"].as_array().unwrap() {
            seen.insert(change["id"].as_str().unwrap().to_owned());
        }
        cursor = page["cursor"].as_i64().unwrap();
        if !page["hasMore"].as_bool().unwrap() {
            break;
        }
    }
    let missed: Vec<_> = written.difference(&seen).collect();
    assert!(
        missed.is_empty(),
        "records skipped by an incremental pull: {missed:?}"
    );
    let per_round = i64::try_from(TABLE.len()).unwrap() + 1;
    assert_eq!(cursor, start + 60 * per_round);
}

/// Every kind counts in the records quota: past it a new record of any kind is refused on its
/// own (`quota-exceeded`, saying why), while an edit of a stored record still applies.
async fn every_kind_counts_in_the_records_quota(backend: Backend) {
    let (_, target_puts) = Targets::plan(&new_id());
    // Room for the starter records, the targets and one record of each kind.
    let room = S + i64::try_from(target_puts.len() + TABLE.len()).unwrap();
    let Some(app) = spawn_app_with(backend, |c| {
        c.quotas.max_records_per_user = u32::try_from(room).unwrap();
    })
    .await
    else {
        return;
    };
    let (cookie, t) = account(&app, "full@example.com").await;
    let first: Vec<String> = TABLE.iter().map(|_| new_id()).collect();
    let reply = app
        .push(
            &cookie,
            TABLE
                .iter()
                .zip(&first)
                .map(|(row, id)| put_of(row, (row.valid)(id, &t)))
                .collect(),
        )
        .await;
    assert_eq!(
        codes(&reply),
        vec!["applied"; TABLE.len()],
        "{}",
        reply.text
    );
    for (row, id) in TABLE.iter().zip(&first) {
        let mut mutations = vec![put_of(row, (row.valid)(&new_id(), &t))];
        if !write_once(row.kind) {
            mutations.push(put_of(row, (row.edit)(id, &t)));
        }
        let reply = app.push(&cookie, mutations).await;
        let codes = codes(&reply);
        assert_eq!(codes[0], "quota-exceeded", "{}: {}", row.kind, reply.text);
        let message = reply.body["results"][0]["message"].as_str().unwrap();
        assert!(message.contains("most records"), "{}: {message}", row.kind);
        if !write_once(row.kind) {
            assert_eq!(codes[1], "applied", "{}: the edit still applies", row.kind);
        }
    }
    assert_eq!(
        pull_all(&app, &cookie).await.len(),
        usize::try_from(room - S).unwrap(),
        "nothing past the quota was written"
    );
}

crate::on_both_backends!(
    every_kind_is_put_edited_and_deleted_with_versions,
    a_delete_wins_over_a_later_edit,
    replayed_pushes_change_nothing_and_answer_the_same,
    concurrent_identical_pushes_apply_once,
    other_accounts_records_are_untouchable_and_invisible,
    references_are_checked_in_push_order,
    bad_input_is_refused_naming_every_problem,
    pull_pages_and_returns_tombstones,
    every_kind_interleaves_in_one_pull_with_paging,
    pulls_racing_pushes_never_skip_a_change,
    every_kind_counts_in_the_records_quota,
);

//! Rules only one kind has, beyond the shared scenarios (`scenarios`): a statement check's
//! bounds, a deduction's purpose and vehicle, a day's card belonging to its courier, free
//! text without control characters, a vehicle's commute, a sent update kept as sent, a
//! statement line imported again.

use serde_json::{Value, json};

use super::{
    S,
    common::{Backend, spawn_app},
    content,
    kinds::{card_args, courier_args, day_args, deduction_args, line_args, vehicle_args},
    mutation, new_id, pull_all, put_statement_check, statement_check_args, statuses, user_id,
};

/// Every bound of a statement check is itself accepted (the refusals past them are rows of
/// the kinds table): a whole leap year, a one-day period, the largest and smallest amounts,
/// a reference of 100 characters (not bytes), and no stops.
async fn a_statement_checks_bounds_are_each_accepted(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app
        .sign_up("invoice-rules@example.com", "van-route-42")
        .await;
    let id = new_id();
    let args = |patch: Value| {
        let mut args = statement_check_args(&id, "2025-03-01", "2025-03-31", 100);
        for (key, value) in patch.as_object().unwrap() {
            args[key] = value.clone();
        }
        args
    };
    let boundaries = [
        args(json!({"periodStart": "2024-01-01", "periodEnd": "2024-12-31"})),
        args(json!({"periodStart": "2025-03-01", "periodEnd": "2025-03-01"})),
        args(json!({"paid": 10_000_000, "stops": 100_000})),
        args(json!({"paid": 0, "stops": 0})),
        args(json!({"stops": null, "reference": "é".repeat(100)})),
    ];
    let reply = app
        .push(
            &cookie,
            boundaries
                .iter()
                .map(|a| put_statement_check(&new_id(), a.clone()))
                .collect(),
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"; 5], "{}", reply.text);
    let stored = pull_all(&app, &cookie).await;
    assert_eq!(stored.len(), 1, "five edits of one invoice");
    assert_eq!(stored[0]["version"], S + 5);
    assert_eq!(stored[0]["data"]["reference"], "é".repeat(100));
    assert_eq!(stored[0]["data"]["stops"], Value::Null);
}

/// A deduction says what it is for and which vehicle: the vehicle must be the user's and must
/// exist, as an expense's; an app from before the fields edits a deduction without undoing them;
/// a newer app changes them, "No vehicle" (null) included.
async fn a_deduction_says_what_it_is_for_and_which_vehicle(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("van-hire@example.com", "van-route-42").await;
    let (mallory, _) = app
        .sign_up("mallory-van-hire@example.com", "van-route-42")
        .await;
    let (courier, van, hire) = (new_id(), new_id(), new_id());
    let mallory_van = new_id();
    let reply = app
        .push(
            &mallory,
            vec![mutation("vehicle.put", vehicle_args(&mallory_van, "Hers"))],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);
    let with = |id: &str, purpose: Value, vehicle: Value| {
        let mut args = deduction_args(id, &courier);
        args["purpose"] = purpose;
        args["vehicleId"] = vehicle;
        args
    };
    let reply = app
        .push(
            &cookie,
            vec![
                mutation("courier.put", courier_args(&courier, "DPD")),
                mutation("vehicle.put", vehicle_args(&van, "Hired van")),
                mutation(
                    "deduction.put",
                    with(&hire, json!("vehicleHire"), json!(van)),
                ),
                // Another account's vehicle, and one that does not exist.
                mutation(
                    "deduction.put",
                    with(&new_id(), json!("vehicleHire"), json!(mallory_van)),
                ),
                mutation(
                    "deduction.put",
                    with(&new_id(), json!("vehicleHire"), json!(new_id())),
                ),
                // Not a purpose from the list; a vehicle with no purpose.
                mutation(
                    "deduction.put",
                    with(&new_id(), json!("vanHire"), Value::Null),
                ),
                mutation("deduction.put", with(&new_id(), Value::Null, json!(van))),
            ],
        )
        .await;
    let codes: Vec<&str> = reply.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap_or("applied"))
        .collect();
    assert_eq!(
        codes,
        [
            "applied",
            "applied",
            "applied",
            "not-owner",
            "missing-reference",
            "validation",
            "validation"
        ],
        "{}",
        reply.text
    );
    let deduction = |changes: &[Value]| {
        changes
            .iter()
            .rev()
            .find(|c| c["kind"] == "deduction" && c["id"] == json!(hire))
            .map(|c| c["data"].clone())
            .unwrap()
    };
    let stored = deduction(&pull_all(&app, &cookie).await);
    assert_eq!(
        (&stored["purpose"], &stored["vehicleId"]),
        (&json!("vehicleHire"), &json!(van))
    );

    // An old cached app renames it: it sends neither field, and both are kept.
    let mut old = deduction_args(&hire, &courier);
    old["label"] = json!("Van hire (DPD)");
    let reply = app
        .push(&cookie, vec![mutation("deduction.put", old)])
        .await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);
    let kept = deduction(&pull_all(&app, &cookie).await);
    assert_eq!(
        (&kept["label"], &kept["purpose"], &kept["vehicleId"]),
        (&json!("Van hire (DPD)"), &json!("vehicleHire"), &json!(van))
    );
    // An old app's new deduction says nothing: both null.
    let fee = new_id();
    let reply = app
        .push(
            &cookie,
            vec![mutation("deduction.put", deduction_args(&fee, &courier))],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);
    let changes = pull_all(&app, &cookie).await;
    let fee = changes.iter().find(|c| c["id"] == json!(fee)).unwrap();
    assert_eq!(
        (&fee["data"]["purpose"], &fee["data"]["vehicleId"]),
        (&Value::Null, &Value::Null)
    );

    // A newer app says it is no vehicle's after all.
    let reply = app
        .push(
            &cookie,
            vec![mutation(
                "deduction.put",
                with(&hire, json!("vehicleHire"), Value::Null),
            )],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);
    let unlinked = deduction(&pull_all(&app, &cookie).await);
    assert_eq!(
        (&unlinked["purpose"], &unlinked["vehicleId"]),
        (&json!("vehicleHire"), &Value::Null)
    );
}

/// Issue 31: a day could name one courier with another courier's rate card. The card must be
/// a card of the day's courier (`mismatched-reference`, not recorded: the same day applies
/// once it is corrected); a day of the default courier from an app before couriers, and a day
/// priced with no card, are fine.
async fn a_days_rate_card_must_be_its_couriers(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app
        .sign_up("card-courier@example.com", "van-route-42")
        .await;
    let me = user_id(&app, &cookie).await;
    let (evri, dpd, evri_card, dpd_card) = (new_id(), new_id(), new_id(), new_id());
    let setup = app
        .push(
            &cookie,
            vec![
                mutation("courier.put", courier_args(&evri, "Evri")),
                mutation("courier.put", courier_args(&dpd, "DPD")),
                mutation("rateCard.put", card_args(&evri_card, &evri)),
                mutation("rateCard.put", card_args(&dpd_card, &dpd)),
            ],
        )
        .await;
    assert_eq!(statuses(&setup), ["applied"; 4], "{}", setup.text);

    let crossed = mutation("entry.put", day_args(&new_id(), &evri, Some(&dpd_card)));
    for _ in 0..2 {
        let reply = app.push(&cookie, vec![crossed.clone()]).await;
        let result = &reply.body["results"][0];
        assert_eq!(result["code"], "mismatched-reference", "{}", reply.text);
        assert_eq!(
            result["message"],
            "This day's rate card is another courier's. Nothing was saved."
        );
    }
    let reply = app
        .push(
            &cookie,
            vec![
                mutation("entry.put", day_args(&new_id(), &evri, Some(&evri_card))),
                mutation("entry.put", day_args(&new_id(), &dpd, None)),
                mutation("entry.put", day_args(&new_id(), &me, Some(&me))),
                mutation(
                    "entry.put",
                    json!({"id": new_id(), "date": "2025-09-03", "stops": 3, "total": 594}),
                ),
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"; 4], "{}", reply.text);
    // An edit that moves a day to another courier must move its card too.
    let day = new_id();
    app.push(
        &cookie,
        vec![mutation(
            "entry.put",
            day_args(&day, &evri, Some(&evri_card)),
        )],
    )
    .await;
    let moved = app
        .push(
            &cookie,
            vec![mutation(
                "entry.put",
                day_args(&day, &dpd, Some(&evri_card)),
            )],
        )
        .await;
    assert_eq!(moved.body["results"][0]["code"], "mismatched-reference");
}

/// Issue 31: `entry.notes` took NUL, ESC, DEL and C1 controls, and names and labels took
/// bidi overrides. Every free-text field refuses them now; notes keep line breaks and tabs.
async fn free_text_refuses_control_characters_and_direction_marks(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("free-text@example.com", "van-route-42").await;
    let me = user_id(&app, &cookie).await;
    let notes = |text: &str| {
        let mut args = day_args(&new_id(), &me, Some(&me));
        args["notes"] = json!(text);
        mutation("entry.put", args)
    };
    let refused = [
        notes("nul\u{0}"),
        notes("esc\u{1b}[2J"),
        notes("del\u{7f}"),
        notes("c1\u{9b}31m"),
        notes("gnp.\u{202e}exe"),
        mutation("courier.put", courier_args(&new_id(), "Evri\u{202e}")),
        mutation("profile.update", json!({"displayName": "Sam\u{2066}"})),
        mutation("profile.update", json!({"bio": "bell\u{7}"})),
    ];
    let reply = app.push(&cookie, refused.to_vec()).await;
    let codes: Vec<&str> = reply.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap_or("applied"))
        .collect();
    assert_eq!(codes, ["validation"; 8], "{}", reply.text);
    let fine = app
        .push(
            &cookie,
            vec![
                notes("first line\nsecond\ttabbed"),
                mutation("profile.update", json!({"bio": "two\nlines"})),
            ],
        )
        .await;
    assert_eq!(statuses(&fine), ["applied"; 2], "{}", fine.text);
}

/// A vehicle's commute, home to depot one way (issue 26): pulled as put, bounded 0–500 miles
/// (each bad value refused as `validation` on `commuteMiles`, nothing written), and an app from
/// before it, which sends no `commuteMiles`, keeps the stored one when it edits the vehicle.
async fn a_vehicles_commute_is_bounded_and_an_old_apps_edit_keeps_it(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("commute@example.com", "van-route-42").await;
    let van = new_id();
    let with_commute = |miles: Value| {
        let mut args = vehicle_args(&van, "Transit");
        args["commuteMiles"] = miles;
        args
    };
    let reply = app
        .push(
            &cookie,
            vec![mutation("vehicle.put", with_commute(json!(6)))],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);

    let bad = [json!(-1), json!(501), json!(2.5), json!("6")];
    let reply = app
        .push(
            &cookie,
            bad.iter()
                .map(|miles| mutation("vehicle.put", with_commute(miles.clone())))
                .collect(),
        )
        .await;
    assert_eq!(statuses(&reply), ["rejected"; 4], "{}", reply.text);
    for result in reply.body["results"].as_array().unwrap() {
        assert_eq!(result["code"], "validation", "{result}");
    }
    // The out-of-range ones say the bounds; the malformed ones fail parsing.
    for result in &reply.body["results"].as_array().unwrap()[..2] {
        assert_eq!(
            result["message"],
            "Commute must be a whole number of miles from 0 to 500"
        );
    }

    // The old app renames the van: the commute stays 6.
    let reply = app
        .push(
            &cookie,
            vec![mutation(
                "vehicle.put",
                vehicle_args(&van, "Transit (white)"),
            )],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);
    let stored = pull_all(&app, &cookie).await;
    let vans: Vec<&Value> = stored.iter().filter(|c| c["kind"] == "vehicle").collect();
    assert_eq!(vans.len(), 1);
    assert_eq!(
        content(vans[0]),
        json!({"name": "Transit (white)", "type": "carVan", "method": "flatRate", "commuteMiles": 6})
    );

    // A newer app's edit sets it, 0 included.
    let reply = app
        .push(
            &cookie,
            vec![mutation("vehicle.put", with_commute(json!(0)))],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);
    let stored = pull_all(&app, &cookie).await;
    let van_now = stored.iter().find(|c| c["kind"] == "vehicle").unwrap();
    assert_eq!(van_now["data"]["commuteMiles"], 0);
}

/// A sent quarterly update (issue 29) is kept as sent: stored once, its SHA-256 checked against
/// its file, never edited or deleted (`immutable`, recorded so a replay answers the same), and
/// superseded only by a new record naming it. Another account's sent update is not theirs.
async fn a_sent_update_is_immutable_and_only_superseded(backend: Backend) {
    use sha2::{Digest, Sha256};
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("sent@example.com", "van-route-42").await;
    let file = "{\"periodDates\":{\"periodStartDate\":\"2026-04-06\",\"periodEndDate\":\"2026-07-05\"},\"periodIncome\":{\"turnover\":300}}\n";
    let sha = hex::encode(Sha256::digest(file.as_bytes()));
    let sent = |id: &str, reference: &str, supersedes: Option<&str>, sha: &str| {
        json!({"id": new_id(), "name": "sentUpdate.put", "args": {"id": id, "taxYear": "2026-27",
            "quarter": 1, "quarters": "standard", "periodStart": "2026-04-06", "periodEnd": "2026-07-05",
            "shape": "itemised", "file": file, "sha256": sha, "sentOn": "2026-08-01",
            "product": "Bridger", "reference": reference, "supersedes": supersedes}})
    };
    let (first, second) = (new_id(), new_id());
    let edit = sent(&first, "CHANGED", None, &sha);
    let reply = app
        .push(
            &cookie,
            vec![
                sent(&first, "REF-1", None, &sha),
                edit.clone(),
                json!({"id": new_id(), "name": "sentUpdate.delete", "args": {"id": first}}),
                sent(&new_id(), "REF-X", None, &"0".repeat(64)),
                sent(&second, "REF-2", Some(&first), &sha),
                sent(&new_id(), "REF-3", Some(&new_id()), &sha),
            ],
        )
        .await;
    assert_eq!(
        statuses(&reply),
        [
            "applied", "rejected", "rejected", "rejected", "applied", "rejected"
        ],
        "{}",
        reply.text
    );
    let codes: Vec<_> = (1..=3)
        .map(|i| reply.body["results"][i]["code"].clone())
        .collect();
    assert_eq!(
        codes,
        [json!("immutable"), json!("immutable"), json!("validation")]
    );
    assert_eq!(reply.body["results"][5]["code"], "missing-reference");
    // A replay of the refused edit answers the same, and still changes nothing.
    let again = app.push(&cookie, vec![edit]).await;
    assert_eq!(again.body["results"][0]["code"], "immutable");
    let changes = pull_all(&app, &cookie).await;
    let sent_updates: Vec<_> = changes
        .iter()
        .filter(|c| c["kind"] == "sentUpdate")
        .collect();
    assert_eq!(sent_updates.len(), 2);
    assert_eq!(sent_updates[0]["data"]["reference"], "REF-1");
    assert_eq!(sent_updates[0]["data"]["file"], file);
    assert_eq!(sent_updates[0]["data"]["sha256"], sha.as_str());
    assert_eq!(sent_updates[1]["data"]["supersedes"], first.as_str());

    let (other, _) = app.sign_up("sent-other@example.com", "van-route-42").await;
    let reply = app
        .push(&other, vec![sent(&first, "MINE", None, &sha)])
        .await;
    assert_eq!(reply.body["results"][0]["code"], "not-owner");
}

/// Importing the same statement file again (on this device or another) writes the same ids,
/// which push takes as updates: the same line pushed again is still one record, unchanged
/// (the line is the kinds table's statementLine row).
async fn a_statement_line_imported_again_is_the_same_record(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("lines@example.com", "van-route-42").await;
    let me = user_id(&app, &cookie).await;
    let (check, line) = (new_id(), new_id());
    let import = || {
        mutation(
            "statementLine.put",
            line_args(&line, &check, &me, " EV123 "),
        )
    };
    let check_put = mutation(
        "invoice.put",
        statement_check_args(&check, "2025-03-17", "2025-03-23", 81_000),
    );
    let reply = app.push(&cookie, vec![check_put, import()]).await;
    assert_eq!(statuses(&reply), ["applied"; 2], "{}", reply.text);
    let stored = pull_all(&app, &cookie).await;
    let first = stored
        .iter()
        .find(|c| c["kind"] == "statementLine")
        .unwrap();

    let again = app.push(&cookie, vec![import()]).await;
    assert_eq!(statuses(&again), ["applied"]);
    let after = pull_all(&app, &cookie).await;
    let lines: Vec<&Value> = after
        .iter()
        .filter(|c| c["kind"] == "statementLine")
        .collect();
    assert_eq!(lines.len(), 1, "the same line is one record: {after:?}");
    assert_eq!(content(lines[0]), content(first), "and unchanged");
}

crate::on_both_backends!(
    a_statement_checks_bounds_are_each_accepted,
    a_deduction_says_what_it_is_for_and_which_vehicle,
    a_days_rate_card_must_be_its_couriers,
    free_text_refuses_control_characters_and_direction_marks,
    a_vehicles_commute_is_bounded_and_an_old_apps_edit_keeps_it,
    a_sent_update_is_immutable_and_only_superseded,
    a_statement_line_imported_again_is_the_same_record,
);

//! Apps from before a field or a kind, still cached on drivers' phones: what they push keeps
//! its meaning, and their edits keep what a newer app recorded.

use serde_json::{Value, json};

use super::{
    S,
    common::{Backend, spawn_app},
    new_id, pull_all, put, put_statement_check, statement_check_args, statuses, summarise, user_id,
};

/// A day and a statement check recorded by a newer app (a second courier, parcels, times, a
/// status and a note), then edited by an old cached app that pulled them without those fields:
/// the edit changes what the old app knows about and keeps the rest as stored.
async fn an_old_apps_edit_keeps_what_a_newer_app_recorded(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("old-edit@example.com", "van-route-42").await;
    let (evri, card, day, check) = (new_id(), new_id(), new_id(), new_id());
    let newer = vec![
        json!({"id": new_id(), "name": "courier.put", "args": {"id": evri, "name": "Evri",
               "colour": "#16a34a", "periodKind": "weekly", "periodAnchor": "2025-01-05", "arrearsWeeks": 1}}),
        json!({"id": new_id(), "name": "rateCard.put", "args": {"id": card, "courierId": evri,
               "validFrom": "2000-01-01", "label": "", "perStop": null, "perParcel": 45,
               "parcelCapPerStop": null, "perCollection": null, "perFailed": null, "dayRate": null,
               "hourly": null, "peaks": []}}),
        json!({"id": new_id(), "name": "entry.put", "args": {"id": day, "date": "2025-03-21",
               "stops": 30, "extra": 0, "notes": "Evri round", "total": 4_500, "courierId": evri,
               "rateCardId": card, "parcels": 100, "collections": 4, "failed": 1,
               "startTime": "08:00", "finishTime": "13:30", "separateShift": true}}),
        put_statement_check(
            &new_id(),
            json!({"id": check, "periodStart": "2025-03-16", "periodEnd": "2025-03-22",
               "paid": 4_000, "stops": 30, "reference": "E-1", "courierId": evri, "parcels": 90,
               "collections": 4, "deductions": 500, "status": "disputed", "note": "10 parcels short"}),
        ),
    ];
    let reply = app.push(&cookie, newer).await;
    assert_eq!(statuses(&reply), ["applied"; 4], "{}", reply.text);

    // The old app: only the fields it knows, with the notes and the reference edited.
    let old = vec![
        json!({"id": new_id(), "name": "entry.put", "args": {"id": day, "date": "2025-03-21",
               "stops": 30, "extra": 0, "notes": "Evri round, rain", "total": 4_500}}),
        put_statement_check(
            &new_id(),
            json!({"id": check, "periodStart": "2025-03-16", "periodEnd": "2025-03-22",
               "paid": 4_000, "stops": 30, "reference": "E-1 (emailed)"}),
        ),
    ];
    let reply = app.push(&cookie, old).await;
    assert_eq!(statuses(&reply), ["applied"; 2], "{}", reply.text);

    let changes = pull_all(&app, &cookie).await;
    let data = |kind: &str| {
        changes
            .iter()
            .find(|c| c["kind"] == kind)
            .map(|c| c["data"].clone())
            .unwrap()
    };
    let entry = data("entry");
    assert_eq!(entry["notes"], "Evri round, rain");
    assert_eq!(
        [
            &entry["courierId"],
            &entry["rateCardId"],
            &entry["parcels"],
            &entry["collections"],
            &entry["failed"],
            &entry["startTime"],
            &entry["finishTime"],
            &entry["total"],
            &entry["separateShift"]
        ],
        [
            &json!(evri),
            &json!(card),
            &json!(100),
            &json!(4),
            &json!(1),
            &json!("08:00"),
            &json!("13:30"),
            &json!(4_500),
            &json!(true)
        ]
    );
    let invoice = data("invoice");
    assert_eq!(invoice["reference"], "E-1 (emailed)");
    assert_eq!(
        [
            &invoice["courierId"],
            &invoice["parcels"],
            &invoice["collections"],
            &invoice["deductions"],
            &invoice["status"],
            &invoice["note"]
        ],
        [
            &json!(evri),
            &json!(90),
            &json!(4),
            &json!(500),
            &json!("disputed"),
            &json!("10 parcels short")
        ]
    );
}

/// A day kept as a separate shift (issue 25) stays one through an edit by an app from before
/// shifts (it knows couriers but sends no separateShift); a new day from such an app is not
/// one; and a newer app can still turn it off.
async fn a_separate_shift_survives_an_edit_from_an_app_before_shifts(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("shifts@example.com", "van-route-42").await;
    let me = user_id(&app, &cookie).await;
    let (first, second) = (new_id(), new_id());
    let day = |id: &str, notes: &str, shift: Option<bool>| {
        let mut args = json!({"id": id, "date": "2025-11-27", "stops": 60, "extra": 0,
            "notes": notes, "total": 11_880, "courierId": me, "rateCardId": me, "parcels": null,
            "collections": null, "failed": null, "startTime": null, "finishTime": null});
        if let Some(shift) = shift {
            args["separateShift"] = json!(shift);
        }
        json!({"id": new_id(), "name": "entry.put", "args": args})
    };
    let shift_of = |changes: &[Value], id: &str| {
        changes
            .iter()
            .find(|c| c["id"] == id)
            .map(|c| c["data"]["separateShift"].clone())
            .unwrap()
    };
    let reply = app
        .push(
            &cookie,
            vec![
                day(&first, "Morning", None),
                day(&second, "Evening", Some(true)),
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"; 2], "{}", reply.text);
    let changes = pull_all(&app, &cookie).await;
    assert_eq!(
        (shift_of(&changes, &first), shift_of(&changes, &second)),
        (json!(false), json!(true))
    );

    let reply = app
        .push(&cookie, vec![day(&second, "Evening, late finish", None)])
        .await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);
    let changes = pull_all(&app, &cookie).await;
    assert_eq!(
        shift_of(&changes, &second),
        json!(true),
        "kept through the old app's edit"
    );
    let edited = changes.iter().find(|c| c["id"] == second.as_str()).unwrap();
    assert_eq!(edited["data"]["notes"], "Evening, late finish");

    let reply = app
        .push(&cookie, vec![day(&second, "Evening", Some(false))])
        .await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);
    assert_eq!(
        shift_of(&pull_all(&app, &cookie).await, &second),
        json!(false)
    );

    let bad = json!({"id": new_id(), "name": "entry.put", "args": {"id": new_id(),
        "date": "2025-11-27", "stops": 1, "total": 198, "separateShift": "yes"}});
    let reply = app.push(&cookie, vec![bad]).await;
    assert_eq!(
        reply.body["results"][0]["code"], "validation",
        "{}",
        reply.text
    );
}

/// An app from before couriers keeps working: its days and checks belong to the default
/// courier (and days to its first card), and its pay tiers go into that card.
async fn an_old_apps_pushes_keep_their_meaning(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("old-app@example.com", "van-route-42").await;
    let me = user_id(&app, &cookie).await;
    let (day, check) = (new_id(), new_id());
    let tiers =
        json!([{"stopCount": 100, "rate": 180}, {"stopCount": 140, "rate": 160}, {"rate": 150}]);
    let reply = app
        .push(
            &cookie,
            vec![
                put(&new_id(), &day, "2025-03-21", 120),
                put_statement_check(&new_id(), statement_check_args(&check, "2025-03-17", "2025-03-23", 123_456)),
                json!({"id": new_id(), "name": "profile.update", "args": {"paymentConfig": {"tiers": tiers}}}),
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"; 3], "{}", reply.text);
    let changes = pull_all(&app, &cookie).await;
    summarise(&changes);
    let kinds: Vec<(&str, i64)> = changes
        .iter()
        .map(|c| (c["kind"].as_str().unwrap(), c["version"].as_i64().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("entry", S + 1),
            ("invoice", S + 2),
            ("profile", S + 3),
            ("rateCard", S + 4)
        ]
    );
    let entry = &changes[0]["data"];
    assert_eq!(
        (&entry["courierId"], &entry["rateCardId"], &entry["total"]),
        (&json!(me), &json!(me), &json!(120 * 198 + 250))
    );
    for field in [
        "parcels",
        "collections",
        "failed",
        "startTime",
        "finishTime",
    ] {
        assert_eq!(entry[field], Value::Null, "{field}");
    }
    let invoice = &changes[1]["data"];
    assert_eq!(
        (
            &invoice["courierId"],
            &invoice["status"],
            &invoice["note"],
            &invoice["deductions"],
            &invoice["parcels"]
        ),
        (
            &json!(me),
            &json!("unchecked"),
            &json!(""),
            &Value::Null,
            &Value::Null
        )
    );
    assert_eq!(
        changes[2]["data"]["paymentConfig"]["tiers"], tiers,
        "the old app reads its tiers back"
    );
    assert_eq!(
        (&changes[3]["id"], &changes[3]["data"]["perStop"]),
        (&json!(me), &tiers)
    );
    assert_eq!(changes[3]["data"]["validFrom"], "2000-01-01");
}

/// Parcels by size band (issue 28): a day's bands are kept when they add up to its parcels and
/// refused, named on `bands`, when they do not; an edit from an app older than bands stores the
/// day as not counted by band (its parcels may have changed). A card's band rates round-trip.
async fn parcels_by_band_add_up_and_an_old_apps_edit_drops_them(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("bands@example.com", "van-route-42").await;
    let me = user_id(&app, &cookie).await;
    let (day, card) = (new_id(), new_id());
    let bands = json!({"packet": 40, "small": 25, "medium": 0, "large": 3, "extraLarge": 0});
    let rates =
        json!({"packet": 35, "small": 55, "medium": null, "large": 120, "extraLarge": null});
    let put_day = |parcels: i64, bands: Option<&Value>| {
        let mut args = json!({"id": day, "date": "2025-11-27", "stops": 0, "total": 4_135,
                              "courierId": me, "rateCardId": card, "parcels": parcels});
        if let Some(bands) = bands {
            args["bands"] = bands.clone();
        }
        json!({"id": new_id(), "name": "entry.put", "args": args})
    };
    let card_put = json!({"id": new_id(), "name": "rateCard.put", "args": {"id": card,
        "courierId": me, "validFrom": "2025-09-01", "bandRates": rates}});
    let reply = app
        .push(&cookie, vec![card_put, put_day(68, Some(&bands))])
        .await;
    assert_eq!(statuses(&reply), ["applied"; 2], "{}", reply.text);
    let stored = |changes: &[Value], id: &str| {
        changes
            .iter()
            .rfind(|c| c["id"] == id)
            .map(|c| c["data"].clone())
            .unwrap()
    };
    let changes = pull_all(&app, &cookie).await;
    assert_eq!(stored(&changes, &card)["bandRates"], rates);
    assert_eq!(stored(&changes, &day)["bands"], bands);

    let reply = app.push(&cookie, vec![put_day(67, Some(&bands))]).await;
    assert_eq!(
        (
            &reply.body["results"][0]["code"],
            &reply.body["results"][0]["fields"]["bands"]
        ),
        (
            &json!("validation"),
            &json!(["The parcels by band add up to 68, not the 67 parcels given"])
        ),
        "{}",
        reply.text
    );
    assert_eq!(stored(&pull_all(&app, &cookie).await, &day)["parcels"], 68);

    let reply = app.push(&cookie, vec![put_day(70, None)]).await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);
    let day_now = stored(&pull_all(&app, &cookie).await, &day);
    assert_eq!(
        (&day_now["parcels"], &day_now["bands"]),
        (&json!(70), &Value::Null)
    );
}

crate::on_both_backends!(
    an_old_apps_edit_keeps_what_a_newer_app_recorded,
    a_separate_shift_survives_an_edit_from_an_app_before_shifts,
    an_old_apps_pushes_keep_their_meaning,
    parcels_by_band_add_up_and_an_old_apps_edit_drops_them,
);

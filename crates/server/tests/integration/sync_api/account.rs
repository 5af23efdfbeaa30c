//! The account's own records: the profile and settings singletons, and the starter courier
//! and card every new account has.

use serde_json::{Value, json};

use super::{
    common::{self, Backend, spawn_app},
    new_id, pull, pull_all, statuses, user_id,
};

async fn profile_and_settings_sync_and_server_fields_are_ignored(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, user) = app.sign_up("profile@example.com", "van-route-42").await;
    let (mallory, _) = app.sign_up("mallory2@example.com", "van-route-42").await;
    let tiers =
        json!([{"stopCount": 100, "rate": 200}, {"stopCount": 120, "rate": 175}, {"rate": 150}]);
    let reply = app
        .push(
            &cookie,
            vec![
                json!({"id": new_id(), "name": "profile.update", "args": {
            "displayName": "Sam Driver", "bio": "Van 2", "paymentConfig": {"tiers": tiers},
            "email": "evil@example.com", "role": "pro", "createdAt": "2000-01-01T00:00:00Z"}}),
                json!({"id": new_id(), "name": "settings.put", "args": {"theme": "light"}}),
                json!({"id": new_id(), "name": "profile.update", "args": {"displayName": "   "}}),
            ],
        )
        .await;
    let statuses: Vec<&str> = reply.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["applied", "applied", "rejected"]);
    assert_eq!(
        reply.body["results"][2]["message"],
        "Display name is required"
    );

    let changes = pull_all(&app, &cookie).await;
    let profile = changes
        .iter()
        .find(|c| c["kind"] == "profile")
        .expect("profile change");
    assert_eq!(profile["id"], user["id"]);
    assert_eq!(profile["data"]["displayName"], "Sam Driver");
    assert_eq!(profile["data"]["bio"], "Van 2");
    assert_eq!(
        profile["data"]["email"], "profile@example.com",
        "e-mail is server-owned"
    );
    assert_eq!(profile["data"]["role"], "free", "role is server-owned");
    assert_eq!(profile["data"]["createdAt"], user["createdAt"]);
    assert_eq!(profile["data"]["paymentConfig"]["tiers"], tiers);
    let settings = changes
        .iter()
        .find(|c| c["kind"] == "settings")
        .expect("settings change");
    assert_eq!(settings["data"]["theme"], "light");
    let session = app.get("/api/v1/auth/session", Some(&cookie)).await;
    assert_eq!(session.body["user"]["displayName"], "Sam Driver");

    // Another user's push only ever touches their own profile.
    app.push(&mallory, vec![json!({"id": new_id(), "name": "profile.update", "args": {"displayName": "Hacked", "id": user["id"]}})]).await;
    let again = pull_all(&app, &cookie).await;
    assert_eq!(again, changes, "the first user's records did not move");
    let theirs = pull_all(&app, &mallory).await;
    assert_eq!(theirs.len(), 1);
    assert_eq!(theirs[0]["data"]["displayName"], "Hacked");
    assert_ne!(theirs[0]["id"], user["id"]);
}

/// Every way an account is made over HTTP here (password, guest) starts with the default
/// courier and its first card holding the spec's tiers (OpenID and phone accounts: the store
/// conformance suite).
async fn starter_records_come_first_in_every_new_account(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (password, _) = app.sign_up("starter@example.com", "van-route-42").await;
    let guest = common::binary::guest_cookie(&app.http, &app.base).await;
    for cookie in [password, guest] {
        let me = user_id(&app, &cookie).await;
        let first = pull(&app, &cookie, 0, 10).await;
        let records: Vec<&Value> = first["changes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["kind"] != "profile" && c["kind"] != "settings")
            .collect();
        assert_eq!(records.len(), 2, "{first}");
        let (courier, card) = (records[0], records[1]);
        assert_eq!(
            (&courier["kind"], &courier["id"], &courier["version"]),
            (&json!("courier"), &json!(me), &json!(1))
        );
        assert_eq!(
            (&card["kind"], &card["id"], &card["version"]),
            (&json!("rateCard"), &json!(me), &json!(2))
        );
        let data = |change: &Value| {
            let mut data = change["data"].clone();
            let object = data.as_object_mut().unwrap();
            assert!(object.remove("createdAt").is_some() && object.remove("updatedAt").is_some());
            data
        };
        assert_eq!(
            data(courier),
            json!({"name": "My courier", "colour": "#2f6fde", "periodKind": "weekly",
                   "periodAnchor": "2000-01-02", "arrearsWeeks": 0})
        );
        assert_eq!(
            data(card),
            json!({"courierId": me, "validFrom": "2000-01-01", "label": "",
                   "perStop": [{"stopCount": 110, "rate": 198}, {"rate": 148}],
                   "perParcel": null, "parcelCapPerStop": null, "perCollection": null,
                   "perFailed": null, "dayRate": null, "hourly": null, "peaks": [],
                   "bandRates": null})
        );
    }
}

/// The settings' tax region syncs to every device; an app from before it (a put with only
/// `theme`) keeps the region a newer app chose.
async fn the_tax_region_syncs_and_an_old_apps_theme_keeps_it(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("region@example.com", "van-route-42").await;
    let settings = |args: Value| json!({"id": new_id(), "name": "settings.put", "args": args});
    let latest = async || {
        let changes = pull_all(&app, &cookie).await;
        let found = changes.iter().rev().find(|c| c["kind"] == "settings");
        let data = found.expect("settings change")["data"].clone();
        (data["theme"].clone(), data["taxRegion"].clone())
    };
    let reply = app
        .push(&cookie, vec![settings(json!({"theme": "light"}))])
        .await;
    assert_eq!(statuses(&reply), ["applied"]);
    assert_eq!(latest().await, (json!("light"), json!("uk")), "the default");
    let reply = app
        .push(
            &cookie,
            vec![settings(json!({"theme": "dark", "taxRegion": "scotland"}))],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"]);
    assert_eq!(latest().await, (json!("dark"), json!("scotland")));
    let reply = app
        .push(&cookie, vec![settings(json!({"theme": "light"}))])
        .await;
    assert_eq!(statuses(&reply), ["applied"]);
    assert_eq!(
        latest().await,
        (json!("light"), json!("scotland")),
        "an old app's put keeps the region"
    );
    let reply = app
        .push(
            &cookie,
            vec![
                settings(json!({"taxRegion": "wales"})),
                settings(json!({})),
                settings(json!({"taxRegion": "uk"})),
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["rejected", "rejected", "applied"]);
    assert_eq!(reply.body["results"][1]["code"], "validation");
    assert_eq!(latest().await, (json!("light"), json!("uk")));

    // The MTD quarters election (issue 29): standard until chosen, kept by puts that leave it
    // out, and only the two HMRC elections are taken.
    let quarters = async || {
        let changes = pull_all(&app, &cookie).await;
        let found = changes.iter().rev().find(|c| c["kind"] == "settings");
        found.expect("settings change")["data"]["quarters"].clone()
    };
    assert_eq!(quarters().await, json!("standard"), "the default");
    let reply = app
        .push(
            &cookie,
            vec![
                settings(json!({"quarters": "monthly"})),
                settings(json!({"quarters": "calendar"})),
                settings(json!({"theme": "dark"})),
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["rejected", "applied", "applied"]);
    assert_eq!(quarters().await, json!("calendar"), "a theme put keeps it");
    assert_eq!(latest().await, (json!("dark"), json!("uk")));
}

crate::on_both_backends!(
    profile_and_settings_sync_and_server_fields_are_ignored,
    starter_records_come_first_in_every_new_account,
    the_tax_region_syncs_and_an_old_apps_theme_keeps_it,
);

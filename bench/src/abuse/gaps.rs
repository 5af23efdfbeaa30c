//! The smaller gaps of issue 31 item 10, one push or request each: control characters and a
//! bidi override in free text, a day naming another courier's rate card, nil and max UUIDs and
//! a signed date, a receipt id deleted and uploaded again (its cache header), and the folder
//! `users delete` leaves. (The CSV neutralisation is the web app's: its tests cover it.)

use std::path::Path;

use serde_json::{Value, json};
use uuid::Uuid;

use super::{Figure, Server, guest, quotas::user_id, uploads::noisy_png};

fn figure(name: &str, value: String) -> Figure {
    Figure::new(format!("gaps: {name}"), value)
}

fn mutation(name: &str, args: Value) -> Value {
    json!({"id": Uuid::now_v7().to_string(), "name": name, "args": args})
}

fn day(id: &str, courier: &str, card: Option<&str>, date: &str, notes: &str) -> Value {
    json!({"id": id, "date": date, "stops": 10, "extra": 0, "notes": notes, "total": 1_980,
           "courierId": courier, "rateCardId": card})
}

pub async fn run(binary: &Path) -> Vec<Figure> {
    let server = Server::start(binary, &[("UPLOADS_PER_USER_PER_MINUTE", "1000")], None).await;
    let http = reqwest::Client::new();
    let cookie = guest(&http, &server.base).await;
    let me = user_id(&http, &server.base, &cookie).await;
    let (courier, card) = (Uuid::now_v7().to_string(), Uuid::now_v7().to_string());
    let push = |mutations: Vec<Value>| {
        let (http, base, cookie) = (http.clone(), server.base.clone(), cookie.clone());
        async move {
            let reply: Value = http
                .post(format!("{base}/api/v1/sync/push"))
                .header("cookie", cookie)
                .json(&json!({"clientId": "gaps", "mutations": mutations}))
                .send()
                .await
                .expect("push")
                .json()
                .await
                .unwrap_or(Value::Null);
            reply["results"]
                .as_array()
                .map(|results| {
                    results
                        .iter()
                        .map(|r| r["code"].as_str().unwrap_or("applied").to_owned())
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        }
    };
    push(vec![
        mutation(
            "courier.put",
            json!({"id": courier, "name": "DPD", "colour": "#2f6fde",
            "periodKind": "weekly", "periodAnchor": "2000-01-02", "arrearsWeeks": 0}),
        ),
        mutation(
            "rateCard.put",
            json!({"id": card, "courierId": courier, "validFrom": "2020-01-01",
            "label": "", "perStop": [{"stopCount": 100, "rate": 150}, {"rate": 100}]}),
        ),
    ])
    .await;
    let new = || Uuid::now_v7().to_string();
    let accepted = |codes: &[String]| codes.iter().filter(|c| *c == "applied").count();
    let free_text = push(vec![
        mutation(
            "entry.put",
            day(
                &new(),
                &me,
                Some(&me),
                "2025-01-02",
                "nul\u{0} esc\u{1b}[2J del\u{7f} c1\u{9b}",
            ),
        ),
        mutation(
            "courier.put",
            json!({"id": new(), "name": "Evri\u{202e}", "colour": "#2f6fde",
            "periodKind": "weekly", "periodAnchor": "2000-01-02", "arrearsWeeks": 0}),
        ),
    ])
    .await;
    let crossed = push(vec![mutation(
        "entry.put",
        day(&new(), &me, Some(&card), "2025-01-03", ""),
    )])
    .await;
    let odd_ids = push(vec![
        mutation(
            "entry.put",
            day(
                "00000000-0000-0000-0000-000000000000",
                &me,
                Some(&me),
                "2025-01-04",
                "",
            ),
        ),
        mutation(
            "entry.put",
            day(
                "ffffffff-ffff-ffff-ffff-ffffffffffff",
                &me,
                Some(&me),
                "2025-01-05",
                "",
            ),
        ),
        mutation("entry.put", day(&new(), &me, Some(&me), "+2025-01-06", "")),
    ])
    .await;

    // A receipt deleted and uploaded again under its id: how the second photo is served.
    let receipt = format!("{}/api/v1/receipts/{}", server.base, Uuid::now_v7());
    let upload = |side: u32| {
        let boundary = "----abuse-gaps-Z2Fwcw";
        let mut body = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"r.png\"\r\n\r\n"
        )
        .into_bytes();
        body.extend(noisy_png(side));
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        http.put(&receipt)
            .header("cookie", &cookie)
            .header(
                "content-type",
                format!("multipart/form-data; boundary={boundary}"),
            )
            .body(body)
            .send()
    };
    let _ = upload(64).await;
    let _ = http.delete(&receipt).header("cookie", &cookie).send().await;
    let _ = upload(96).await;
    let cache = http
        .get(&receipt)
        .header("cookie", &cookie)
        .send()
        .await
        .ok()
        .and_then(|r| {
            r.headers()
                .get("cache-control")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        })
        .unwrap_or_else(|| "none".into());

    let deleted = std::process::Command::new(binary)
        .args(["users", "delete", &me, "--yes"])
        .env("DATA_DIR", server.data_dir())
        .env("LOG", "error")
        .output()
        .expect("users delete");
    let folder = server.data_dir().join("files/users").join(&me);
    vec![
        figure(
            "control characters in notes / a bidi override in a courier name: applied",
            format!("{} of 2", accepted(&free_text)),
        ),
        figure(
            "a day of the default courier with another courier's rate card",
            crossed.join(", "),
        ),
        figure(
            "nil id, max id, date +2025-01-06: applied",
            format!("{} of 3", accepted(&odd_ids)),
        ),
        figure(
            "a receipt deleted and uploaded again: Cache-Control of its plain URL",
            cache,
        ),
        figure(
            "users delete: the user's folder afterwards",
            if !deleted.status.success() {
                "delete failed".into()
            } else if folder.exists() {
                "left (empty)".into()
            } else {
                "removed".into()
            },
        ),
    ]
}

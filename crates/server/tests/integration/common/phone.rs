//! Phone sign-in helpers: a server with the `log` SMS sender and a hand-moved clock, a captcha
//! solver, and the outbox reader.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use server::{
    AppState,
    auth::phone::clock::{Clock, ManualTime},
    config::{Config, SmsSenderKind},
};
use sha2::{Digest, Sha256};
use tokio::{net::TcpListener, sync::oneshot};
use uuid::Uuid;

use super::{Backend, Reply, TestApp, store_for};

pub const CHALLENGE: &str = "/api/v1/auth/phone/challenge";
pub const SEND: &str = "/api/v1/auth/phone/send";
pub const VERIFY: &str = "/api/v1/auth/phone/verify";

pub struct PhoneApp {
    pub app: TestApp,
    /// Moves the server's phone clock (send limits, code and captcha expiry).
    pub time: ManualTime,
}

impl std::ops::Deref for PhoneApp {
    type Target = TestApp;
    fn deref(&self) -> &TestApp {
        &self.app
    }
}

/// A server with SMS_SENDER=log, generous send limits unless `tweak` tightens them, a small
/// captcha, and a manual clock.
pub async fn spawn_phone_app(
    backend: Backend,
    tweak: impl FnOnce(&mut Config),
) -> Option<PhoneApp> {
    let super::TestStore { store, dir } = store_for(backend).await?;
    let mut config = Config::for_data_dir(dir.path());
    config.rate_limits.auth_rate_limit_per_minute = 10_000;
    config.rate_limits.login_rate_limit_per_minute = 10_000;
    config.phone.sms_sender = Some(SmsSenderKind::Log);
    config.phone.phone_captcha_max_number = 1_000;
    config.phone.phone_captcha_max_number_ceiling = 16_000;
    config.phone.phone_send_interval_secs = 0;
    config.phone.phone_sends_per_number_per_hour = 1_000;
    config.phone.phone_sends_per_ip_per_minute = 250;
    config.phone.phone_sends_per_minute = 1_000;
    tweak(&mut config);
    let mut state = AppState::new(config, store.clone()).unwrap();
    let (clock, time) = Clock::manual();
    let services = state.services_mut().expect("not shared yet");
    if let Some(phone) = services.phone.as_mut() {
        phone.clock = clock;
    }
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(server::serve(listener, state, async {
        let _ = stopped.await;
    }));
    Some(PhoneApp {
        app: TestApp {
            base: format!("http://{addr}"),
            addr,
            store,
            http: reqwest::Client::new(),
            _dir: dir,
            _stop: stop,
        },
        time,
    })
}

/// Finds the number the way the browser does.
pub fn solve(challenge: &Value) -> Value {
    let salt = challenge["salt"].as_str().unwrap();
    let target = challenge["challenge"].as_str().unwrap();
    let max = challenge["maxnumber"].as_u64().unwrap();
    let number = (0..=max)
        .find(|n| {
            let digest = Sha256::digest(format!("{salt}{n}"));
            hex::encode(digest) == target
        })
        .expect("challenge solvable within maxnumber");
    json!({
        "algorithm": challenge["algorithm"],
        "challenge": target,
        "number": number,
        "salt": salt,
        "signature": challenge["signature"],
    })
}

impl TestApp {
    pub async fn solved_captcha(&self) -> Value {
        solve(&self.challenge_from(None).await)
    }

    /// A challenge as priced for `ip` (needs TRUST_PROXY) or the socket.
    pub async fn challenge_from(&self, ip: Option<&str>) -> Value {
        let mut request = self.http.get(format!("{}{CHALLENGE}", self.base));
        if let Some(ip) = ip {
            request = request.header("x-forwarded-for", ip);
        }
        let reply = super::read(request).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        reply.body
    }

    /// Asks for a code with a fresh captcha, from `ip` (needs TRUST_PROXY) or the socket.
    pub async fn send_code_from(&self, phone: &str, ip: Option<&str>) -> Reply {
        let captcha = solve(&self.challenge_from(ip).await);
        self.send_solved_from(phone, &captcha, ip).await
    }

    /// Asks for a code with a given captcha solution, from `ip` or the socket.
    pub async fn send_solved_from(&self, phone: &str, captcha: &Value, ip: Option<&str>) -> Reply {
        let mut request = self
            .http
            .post(format!("{}{SEND}", self.base))
            .json(&json!({"phone": phone, "captcha": captcha}));
        if let Some(ip) = ip {
            request = request.header("x-forwarded-for", ip);
        }
        super::read(request).await
    }

    pub async fn send_code(&self, phone: &str) -> Reply {
        self.send_code_from(phone, None).await
    }

    /// Sends and returns the verificationId, asserting the 202.
    pub async fn sent_code(&self, phone: &str) -> String {
        let reply = self.send_code(phone).await;
        assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
        reply.body["verificationId"].as_str().unwrap().to_owned()
    }

    pub async fn verify_code(
        &self,
        verification_id: &str,
        code: &str,
        cookie: Option<&str>,
    ) -> Reply {
        self.request(
            Method::POST,
            VERIFY,
            Some(json!({"verificationId": verification_id, "code": code})),
            cookie,
        )
        .await
    }

    /// Every line of DATA_DIR/sms-outbox.jsonl (one per texted code).
    pub fn outbox(&self) -> Vec<Value> {
        match std::fs::read_to_string(self.data_dir().join("sms-outbox.jsonl")) {
            Ok(text) => text
                .lines()
                .map(|l| serde_json::from_str(l).expect("JSON line"))
                .collect(),
            Err(_) => Vec::new(),
        }
    }

    /// The newest code texted to `phone`.
    pub fn last_code(&self, phone: &str) -> String {
        self.outbox()
            .iter()
            .rev()
            .find(|m| m["to"] == phone)
            .and_then(|m| m["code"].as_str())
            .expect("a code was texted")
            .to_owned()
    }

    /// Signs in by phone (sending and verifying); returns the reply of the verify.
    pub async fn phone_sign_in(&self, phone: &str, cookie: Option<&str>) -> Reply {
        let id = self.sent_code(phone).await;
        let code = self.last_code(phone);
        self.verify_code(&id, &code, cookie).await
    }
}

/// A user whose only way in is `phone`, made through the store's phone sign-in.
pub async fn phone_account(store: &server::store::DynStore, phone: &str) -> Uuid {
    use domain::phone::SendLimits;
    use server::store::{
        NewUser,
        phone::{PhoneCodeStart, PhoneSignIn, PhoneSignInRequest},
    };
    let verification_id = Uuid::now_v7();
    let limits = SendLimits {
        min_interval_ms: 0,
        per_number_per_hour: 10,
        per_ip_per_minute: 10,
        global_per_minute: 10,
    };
    let now = domain::time_fmt::now_ms();
    let start = PhoneCodeStart {
        verification_id,
        phone: phone.into(),
        ip: "203.0.113.9".into(),
        code_salt: "salt".into(),
        code_hash: "hash".into(),
        attempts: 0,
        expires_at_ms: now + 600_000,
        now_ms: now,
    };
    assert_eq!(store.start_phone_code(start, limits).await.unwrap(), Ok(()));
    let signed_in = store
        .complete_phone_sign_in(PhoneSignInRequest {
            verification_id,
            link_to: None,
            new_user: NewUser {
                id: Uuid::now_v7(),
                email: None,
                display_name: None,
                password_hash: None,
                is_anonymous: false,
                now_ms: now,
            },
            now_ms: now,
        })
        .await
        .unwrap();
    let PhoneSignIn::SignedIn { user, .. } = signed_in else {
        panic!("{signed_in:?}");
    };
    user.id
}

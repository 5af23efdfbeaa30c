//! Reset requests are answered before anything depends on whether the address has an account:
//! the handler queues the address and answers at once, the same words in the same time either
//! way. One worker takes the queue in order, looks the address up and, for an account, stores
//! a link and e-mails it. One at a time, so a burst of requests costs the server one lookup and
//! one e-mail at a time, and a test that asks for an unknown address and then a known one knows
//! the first was done (sending nothing) once the second's e-mail arrives.

use std::sync::OnceLock;

use domain::Email;
use tokio::sync::mpsc;

use super::{LinkMail, RESET_LINK_TTL_MS, issue_link, link_url, messages};
use crate::{
    auth::clock::Clock,
    store::{DynStore, LinkPurpose},
};

/// Requests waiting beyond this are refused with 503 `busy` (the rate limits keep a real
/// server far below it).
const CAPACITY: usize = 256;

#[derive(Default)]
pub(super) struct ResetQueue(OnceLock<mpsc::Sender<Email>>);

/// What the worker needs; not the whole app state, so the worker ends when the state is
/// dropped (its sender goes with it).
pub(super) struct Worker {
    pub store: DynStore,
    pub mail: LinkMail,
    pub clock: Clock,
}

impl ResetQueue {
    /// Queues a request for `email`, starting the worker on first use; false when the queue is
    /// full.
    pub fn push(&self, email: Email, worker: impl FnOnce() -> Worker) -> bool {
        let sender = self.0.get_or_init(|| {
            let (sender, receiver) = mpsc::channel(CAPACITY);
            tokio::spawn(run(receiver, worker()));
            sender
        });
        sender.try_send(email).is_ok()
    }
}

async fn run(mut queue: mpsc::Receiver<Email>, worker: Worker) {
    while let Some(email) = queue.recv().await {
        if let Err(err) = send_reset(&worker, &email).await {
            tracing::warn!(error = %err, "password reset e-mail not sent");
        }
    }
}

async fn send_reset(worker: &Worker, email: &Email) -> anyhow::Result<()> {
    let Some((user, _)) = worker.store.find_password_login(email.as_str()).await? else {
        // Nothing to send, and nothing the asker learns: their answer went out already.
        tracing::info!("password reset asked for an address with no account");
        return Ok(());
    };
    let now = worker.clock.now_ms();
    let token = issue_link(
        &worker.store,
        LinkPurpose::PasswordReset,
        email,
        Some(user.id),
        now,
        RESET_LINK_TTL_MS,
    )
    .await?;
    let url = link_url(&worker.mail.origin, LinkPurpose::PasswordReset, &token);
    let message = messages::password_reset(worker.mail.mailer.from(), email, &url)?;
    worker
        .mail
        .mailer
        .send(message)
        .await
        .map_err(anyhow::Error::msg)?;
    tracing::info!(user_id = %user.id, "password reset link e-mailed");
    Ok(())
}

//! Carries sync signals between server processes that share one PostgreSQL database: what one
//! process raises (a user's data changed, a session ended) is sent with NOTIFY, and every
//! process LISTENs and hands what others raised to its own open event streams. Best effort, with
//! the gaps covered: each time the connection is (re)made this process checks its open streams
//! against the database (what others sent meanwhile is gone), and when one of this process's
//! signals was dropped (a full queue, a failed send) the others are told to do the same.

use std::time::Duration;

use futures_util::{StreamExt, stream};
use tokio::{sync::mpsc, task::JoinHandle};
use tokio_postgres::{AsyncMessage, NoTls};
use uuid::Uuid;

use crate::notify::{Notifier, Signal};

const CHANNEL: &str = "delivery_tracker_signals";
const QUEUE: usize = 1_024;
/// Signals sent in one statement at most (what is queued when the relay gets to it).
const SEND_AT_ONCE: usize = 256;
const RECONNECT_AFTER: Duration = Duration::from_secs(2);

/// Starts relaying `notifier`'s signals through `config`'s database; runs until aborted.
pub fn start(config: tokio_postgres::Config, notifier: Notifier) -> JoinHandle<()> {
    let (outgoing, queue) = mpsc::channel(QUEUE);
    notifier.attach_relay(outgoing);
    // Tells this process's own notifications apart from other processes'.
    let origin = Uuid::new_v4();
    tokio::spawn(run(config, notifier, queue, origin))
}

async fn run(
    config: tokio_postgres::Config,
    notifier: Notifier,
    mut queue: mpsc::Receiver<Signal>,
    origin: Uuid,
) {
    loop {
        match relay_once(&config, &notifier, &mut queue, origin).await {
            Ok(()) => return, // the notifier is gone: the server is shutting down
            Err(err) => {
                tracing::warn!(error = %err, "signal relay disconnected; reconnecting");
                tokio::time::sleep(RECONNECT_AFTER).await;
            }
        }
    }
}

/// One connection's life: LISTEN, then forward both ways until it fails.
async fn relay_once(
    config: &tokio_postgres::Config,
    notifier: &Notifier,
    queue: &mut mpsc::Receiver<Signal>,
    origin: Uuid,
) -> anyhow::Result<()> {
    let (client, mut connection) = config.connect(NoTls).await?;
    // The connection must be polled for anything to happen; its messages carry the NOTIFYs.
    let (incoming, mut notifications) = mpsc::unbounded_channel::<String>();
    let driver = tokio::spawn(async move {
        let mut messages = stream::poll_fn(move |cx| connection.poll_message(cx));
        while let Some(message) = messages.next().await {
            match message {
                Ok(AsyncMessage::Notification(note)) => {
                    let _ = incoming.send(note.payload().to_owned());
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
    });
    let outcome: anyhow::Result<()> = async {
        client.batch_execute(&format!("LISTEN {CHANNEL}")).await?;
        // Prepared once: a statement sent as text is prepared on every send, a round trip more.
        let notify = client
            .prepare(&format!(
                "SELECT pg_notify('{CHANNEL}', payload) FROM unnest($1::text[]) payload"
            ))
            .await?;
        tracing::info!("signal relay listening");
        // Signals other processes sent while this one was not listening are gone.
        notifier.outside_change();
        let mut batch = Vec::with_capacity(SEND_AT_ONCE);
        loop {
            if notifier.take_lost() {
                send(&client, &notify, &[Signal::Lost], origin, notifier).await?;
            }
            tokio::select! {
                payload = notifications.recv() => match payload {
                    Some(payload) => {
                        if let Some(signal) = decode(&payload, origin) {
                            notifier.deliver_from_elsewhere(signal);
                        }
                    }
                    None => anyhow::bail!("the connection closed"),
                },
                // Whatever else is queued goes with it: under load (a push per signal) one
                // statement and one transaction for many pushes' signals.
                received = queue.recv_many(&mut batch, SEND_AT_ONCE) => {
                    if received == 0 {
                        return Ok(());
                    }
                    send(&client, &notify, &batch, origin, notifier).await?;
                    batch.clear();
                }
            }
        }
    }
    .await;
    driver.abort();
    outcome
}

/// Sends this process's `signals` to the others, in order, with `notify` (one transaction);
/// ones that fail are marked lost, so the others are told to check their streams once the
/// connection is back.
async fn send(
    client: &tokio_postgres::Client,
    notify: &tokio_postgres::Statement,
    signals: &[Signal],
    origin: Uuid,
    notifier: &Notifier,
) -> Result<(), tokio_postgres::Error> {
    let payloads: Vec<String> = signals.iter().map(|s| encode(s, origin)).collect();
    let sent = client.execute(notify, &[&payloads]).await;
    if sent.is_err() {
        notifier.signal_lost();
    }
    sent.map(drop)
}

/// Sends one signal to every listening server process, from a process that runs no relay (the
/// admin CLI): its origin is its own, so every server takes it.
pub async fn announce(
    client: &tokio_postgres::Client,
    signal: &Signal,
) -> Result<(), tokio_postgres::Error> {
    client
        .execute(
            "SELECT pg_notify($1, $2)",
            &[&CHANNEL, &encode(signal, Uuid::new_v4())],
        )
        .await
        .map(drop)
}

/// `c <origin> <user> <cursor>`, `s <origin> <token hash>`, `u <origin> <user>` or `l <origin>`:
/// small, fixed and easy to check.
fn encode(signal: &Signal, origin: Uuid) -> String {
    match signal {
        Signal::Changed { user_id, cursor } => format!("c {origin} {user_id} {cursor}"),
        Signal::SessionEnded { token_hash } => format!("s {origin} {token_hash}"),
        Signal::UserChanged { user_id } => format!("u {origin} {user_id}"),
        Signal::Lost => format!("l {origin}"),
    }
}

fn decode(payload: &str, own_origin: Uuid) -> Option<Signal> {
    let mut parts = payload.split(' ');
    let kind = parts.next()?;
    let origin = Uuid::parse_str(parts.next()?).ok()?;
    if origin == own_origin {
        return None; // raised here and already delivered here
    }
    let signal = match kind {
        "c" => Signal::Changed {
            user_id: Uuid::parse_str(parts.next()?).ok()?,
            cursor: parts.next()?.parse().ok()?,
        },
        "s" => Signal::SessionEnded {
            token_hash: parts.next()?.to_owned(),
        },
        "u" => Signal::UserChanged {
            user_id: Uuid::parse_str(parts.next()?).ok()?,
        },
        "l" => Signal::Lost,
        _ => return None,
    };
    parts.next().is_none().then_some(signal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signals_round_trip_and_own_ones_are_ignored() {
        let (here, there) = (Uuid::new_v4(), Uuid::new_v4());
        let user_id = Uuid::new_v4();
        let changed = encode(
            &Signal::Changed {
                user_id,
                cursor: 42,
            },
            here,
        );
        assert!(
            matches!(decode(&changed, there), Some(Signal::Changed { user_id: u, cursor: 42 }) if u == user_id)
        );
        assert!(decode(&changed, here).is_none());
        let ended = encode(
            &Signal::SessionEnded {
                token_hash: "ab12".into(),
            },
            here,
        );
        assert!(
            matches!(decode(&ended, there), Some(Signal::SessionEnded { token_hash }) if token_hash == "ab12")
        );
        let user = encode(&Signal::UserChanged { user_id }, here);
        assert!(
            matches!(decode(&user, there), Some(Signal::UserChanged { user_id: u }) if u == user_id)
        );
        let lost = encode(&Signal::Lost, here);
        assert!(matches!(decode(&lost, there), Some(Signal::Lost)));
        assert!(decode(&lost, here).is_none());
    }

    #[test]
    fn junk_is_ignored() {
        let other = Uuid::new_v4();
        for payload in [
            "",
            "x",
            "c not-a-uuid",
            &format!("c {other} {other}"),
            &format!("c {other} {other} 1 extra"),
            &format!("z {other} a"),
            &format!("l {other} extra"),
        ] {
            assert!(decode(payload, Uuid::new_v4()).is_none(), "{payload}");
        }
    }
}

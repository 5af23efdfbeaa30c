//! `/api/v1/sync`: push mutations, pull changes, and the event stream that pokes devices.

use std::{convert::Infallible, time::Duration};

use axum::{
    Json,
    extract::State,
    http::{HeaderValue, StatusCode, header},
    response::{
        IntoResponse, Response,
        sse::{Event, KeepAlive, Sse},
    },
};
use domain::{
    sync::{
        DEFAULT_PULL_LIMIT, MAX_MUTATIONS_PER_PUSH, MAX_PULL_LIMIT, PullResponse, PushRequest,
        PushResponse,
    },
    time_fmt::now_ms,
};
use futures_util::stream;
use rand::Rng;
use serde::Deserialize;
use utoipa::IntoParams;

use super::mutations::{prepare, valid_mutation_id};
use crate::{
    AppState,
    auth::session::CurrentUser,
    error::{ApiJson, ApiQuery, ApiResult, AppError, ErrorBody},
    http::{
        client_ip::ClientIp,
        connections::{StreamRefusal, StreamSlot},
    },
    notify::streams::{StreamCaps, StreamTicket},
    store::MutationAction,
};

/// How often an idle stream sends a comment, so proxies and the browser keep it open.
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// When a refused stream may try again. The browser's EventSource does not retry a refusal
/// by itself; the web app reopens the stream after 15 s and pulls every 30 s meanwhile.
const STREAM_RETRY_AFTER_SECS: u64 = 15;
const MAX_CLIENT_ID_CHARS: usize = 100;

#[utoipa::path(post, path = "/push", tag = "sync", request_body = PushRequest,
    responses(
        (status = 200, description = "Each mutation applied or rejected, in order", body = PushResponse),
        (status = 401, description = "unauthenticated", body = ErrorBody),
        (status = 413, description = "payload-too-large (over 1 MiB)", body = ErrorBody),
        (status = 422, description = "too-many-mutations (over 500) or validation", body = ErrorBody),
        (status = 429, description = "quota-exceeded: too many mutations this minute; send again after Retry-After", body = ErrorBody),
    ))]
pub async fn push_changes(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(push): ApiJson<PushRequest>,
) -> ApiResult<Json<PushResponse>> {
    if push.client_id.is_empty() || push.client_id.chars().count() > MAX_CLIENT_ID_CHARS {
        return Err(AppError::validation(
            "clientId",
            "clientId must be 1 to 100 characters",
        ));
    }
    if push.mutations.len() > MAX_MUTATIONS_PER_PUSH {
        return Err(AppError::client(
            StatusCode::UNPROCESSABLE_ENTITY,
            "too-many-mutations",
            format!("At most {MAX_MUTATIONS_PER_PUSH} mutations per push"),
        ));
    }
    if let Some(bad) = push.mutations.iter().find(|m| !valid_mutation_id(&m.id)) {
        let shown: String = bad.id.chars().take(70).collect();
        return Err(AppError::validation(
            "mutations",
            format!("Mutation id '{shown}' must be 1 to 64 letters, digits, '-' or '_'"),
        ));
    }
    if push.mutations.is_empty() {
        state.metrics.pushed(&[]);
        return Ok(Json(PushResponse {
            results: Vec::new(),
        }));
    }
    state
        .quotas
        .check_push(current.user.id, push.mutations.len())?;
    let user_id = current.user.id;
    let prepared: Vec<_> = push
        .mutations
        .into_iter()
        .map(|mutation| prepare(mutation, user_id))
        .collect();
    // The profile lives in the user row that signed-in requests carry (display name, bio).
    let profile_updated = prepared
        .iter()
        .any(|m| matches!(m.action, MutationAction::UpdateProfile(_)));
    let outcome = state
        .store
        .push(
            current.user.id,
            prepared,
            now_ms(),
            state.quotas.push_quota(),
        )
        .await?;
    if profile_updated {
        state.notifier.user_changed(user_id);
    }
    if outcome.changed {
        state.notifier.changed(current.user.id, outcome.cursor);
    }
    state.metrics.pushed(&outcome.results);
    Ok(Json(PushResponse {
        results: outcome.results,
    }))
}

#[derive(Deserialize, IntoParams)]
pub struct PullParams {
    /// Return changes after this cursor (0 = from the beginning).
    cursor: Option<i64>,
    /// Page size, 1 to 1000 (default 500).
    limit: Option<u32>,
}

#[utoipa::path(get, path = "/pull", tag = "sync", params(PullParams),
    responses(
        (status = 200, description = "Changed records after the cursor, tombstones included", body = PullResponse),
        (status = 401, description = "unauthenticated", body = ErrorBody),
        (status = 422, description = "validation", body = ErrorBody),
    ))]
pub async fn pull_changes(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiQuery(params): ApiQuery<PullParams>,
) -> ApiResult<Json<PullResponse>> {
    let cursor = params.cursor.unwrap_or(0);
    if cursor < 0 {
        return Err(AppError::validation("cursor", "cursor must be 0 or more"));
    }
    let limit = params.limit.unwrap_or(DEFAULT_PULL_LIMIT);
    if !(1..=MAX_PULL_LIMIT).contains(&limit) {
        return Err(AppError::validation(
            "limit",
            "limit must be from 1 to 1000",
        ));
    }
    let page = state.store.pull(current.user.id, cursor, limit).await?;
    let next = page.changes.last().map_or(cursor, |c| c.version);
    state.metrics.pulled();
    Ok(Json(PullResponse {
        changes: page.changes,
        cursor: next,
        has_more: page.has_more,
    }))
}

#[utoipa::path(get, path = "/events", tag = "sync",
    responses(
        (status = 200, description = "text/event-stream of `poke` events; ends when the session does, after EVENT_STREAM_MAX_SECONDS (the browser reconnects by itself), or when a newer stream of the same session or user goes over EVENT_STREAMS_PER_SESSION / EVENT_STREAMS_PER_USER (the oldest is closed)", content_type = "text/event-stream"),
        (status = 401, description = "unauthenticated", body = ErrorBody),
        (status = 429, description = "too-many-streams: the client's address (IPv6: its /64; behind TRUST_PROXY the forwarded one) holds EVENT_STREAMS_PER_IP streams; Retry-After, and the connection closes", body = ErrorBody),
        (status = 503, description = "busy: MAX_EVENT_STREAMS streams are open; Retry-After, and the connection closes", body = ErrorBody),
    ))]
pub async fn stream_events(
    State(state): State<AppState>,
    client: ClientIp,
    current: CurrentUser,
) -> Response {
    let slot = match state.stream_slots.try_take(client.key()) {
        Ok(slot) => slot,
        Err(refusal) => return stream_refused(refusal),
    };
    let caps = StreamCaps {
        per_session: state.config.connections.event_streams_per_session as usize,
        per_user: state.config.connections.event_streams_per_user as usize,
    };
    let ticket = state
        .notifier
        .streams
        .open(current.user.id, &current.session_token_hash, caps);
    let open = state.metrics.stream_opened();
    let closing = state.notifier.closing();
    // Read after the ticket is open, so a change between the two still wakes the stream.
    let cursor = state
        .store
        .change_cursor(current.user.id)
        .await
        .ok()
        .flatten()
        .unwrap_or(0);
    let watch = StreamState {
        cursor,
        closing,
        greeted: false,
        ends: Box::pin(tokio::time::sleep(lifetime(
            state.config.connections.event_stream_max_age(),
        ))),
        ticket,
        _slot: slot,
        _open: open,
    };
    Sse::new(stream::unfold(watch, next_event))
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
        .into_response()
}

/// This stream's lifetime: in the last tenth of the maximum, so streams opened together (after
/// a restart) do not all reconnect together.
fn lifetime(max: Duration) -> Duration {
    max.mul_f64(rand::thread_rng().gen_range(0.9..=1.0))
}

/// A refused stream's answer. The connection closes with it: a refused stream must not keep
/// holding a connection slot as an idle keep-alive connection.
fn stream_refused(refusal: StreamRefusal) -> Response {
    let error = match refusal {
        StreamRefusal::Address => AppError::client(
            StatusCode::TOO_MANY_REQUESTS,
            "too-many-streams",
            "Too many live-update connections from your network. Changes still sync every 30 \
             seconds.",
        ),
        StreamRefusal::Full => AppError::Busy {
            retry_after_secs: STREAM_RETRY_AFTER_SECS,
        },
    };
    let mut response = error.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::RETRY_AFTER,
        HeaderValue::from(STREAM_RETRY_AFTER_SECS),
    );
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

struct StreamState {
    /// The user's change sequence this device was last told about (or that it had when the
    /// stream opened): the user's watch may carry an older one (a check wakes it with what it
    /// read), which is no news to this device.
    cursor: i64,
    closing: tokio::sync::watch::Receiver<bool>,
    greeted: bool,
    /// The end of this stream's lifetime (EVENT_STREAM_MAX_SECONDS).
    ends: std::pin::Pin<Box<tokio::time::Sleep>>,
    /// This stream's place under the caps and its user's change signals; it ends when a newer
    /// stream displaces it or its session ends (sync/stream_check.rs finds sessions that ended
    /// where no signal said so).
    ticket: StreamTicket,
    /// Its place in the event streams' share of the connection slots.
    _slot: StreamSlot,
    /// Counts the stream in `event_streams_open` while it lives.
    _open: crate::metrics::StreamGuard,
}

fn poke(cursor: Option<i64>) -> Result<Event, Infallible> {
    let data = cursor.map_or_else(|| "{}".to_owned(), |c| format!("{{\"cursor\":{c}}}"));
    Ok(Event::default().event("poke").data(data))
}

/// The next event for one stream, or `None` to end it.
async fn next_event(mut s: StreamState) -> Option<(Result<Event, Infallible>, StreamState)> {
    if !s.greeted {
        // A (re)connected device may have missed pokes: tell it to pull now.
        s.greeted = true;
        return Some((poke(None), s));
    }
    loop {
        tokio::select! {
            changed = s.ticket.cursor.changed() => {
                if changed.is_err() {
                    return None; // the registry entry is gone: the stream was closed
                }
                let cursor = *s.ticket.cursor.borrow_and_update();
                if cursor > s.cursor {
                    s.cursor = cursor;
                    return Some((poke(Some(cursor)), s));
                }
            },
            _ = s.closing.changed() => return None,
            _ = &mut s.ticket.displaced => return None,
            () = &mut s.ends => return None,
        }
    }
}

//! The contact form: messages are validated, rate limited, stored for the operator
//! (`delivery-tracker messages list`) and work signed in or out. With SMTP configured they
//! are also e-mailed to the operator, after storing and off the request path (`mailer`).

pub mod mailer;

use std::sync::Arc;

use axum::{Json, extract::State, http::StatusCode};
use domain::{contact::ContactInput, time_fmt::now_ms};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use crate::{
    AppState,
    auth::{rate_limit::Limiter, session::CurrentUser},
    error::{ApiJson, ApiResult, AppError, ErrorBody},
    http::client_ip::{ClientIp, IpKey},
    store::{ContactRecord, EmailDelivery},
};

pub type ContactLimit = Arc<Limiter<IpKey>>;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(send_message))
}

#[derive(Serialize, ToSchema)]
pub struct MessageReceived {
    pub received: bool,
}

#[utoipa::path(post, path = "", tag = "contact", request_body = ContactInput,
    responses(
        (status = 201, description = "Stored for the operator (and e-mailed to them afterwards when SMTP is configured)", body = MessageReceived),
        (status = 422, description = "validation: the first problem in the spec's order", body = ErrorBody),
        (status = 429, description = "rate-limited", body = ErrorBody),
    ))]
pub async fn send_message(
    State(state): State<AppState>,
    client: ClientIp,
    sender: Option<CurrentUser>,
    ApiJson(input): ApiJson<ContactInput>,
) -> ApiResult<(StatusCode, Json<MessageReceived>)> {
    state.contact_limit.check(client.key())?;
    let message = input
        .validate()
        .map_err(|(field, problem)| AppError::validation(field, problem))?;
    let record = ContactRecord {
        id: Uuid::now_v7(),
        user_id: sender.map(|s| s.user.id),
        name: message.name,
        email: message.email,
        subject: message.subject,
        message: message.message,
        created_at_ms: now_ms(),
        delivery: match state.contact_mailer {
            Some(_) => EmailDelivery::pending(now_ms()),
            None => EmailDelivery::not_configured(),
        },
    };
    state.store.create_contact_message(record).await?;
    tracing::info!("contact message stored");
    if let Some(mailer) = &state.contact_mailer {
        mailer.wake();
    }
    Ok((
        StatusCode::CREATED,
        Json(MessageReceived { received: true }),
    ))
}

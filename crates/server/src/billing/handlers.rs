//! `/api/v1/billing`: what the upgrade page may offer, checkout, and the provider's webhook.

use axum::{
    Json,
    body::Bytes,
    extract::State,
    http::{HeaderMap, StatusCode},
};
use domain::{Role, time_fmt::now_ms};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::signature;
use crate::{
    AppState,
    auth::session::CurrentUser,
    error::{ApiResult, AppError, ErrorBody},
};

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BillingInfo {
    /// True when the upgrade button can open a checkout; otherwise the operator sets plans.
    pub checkout_available: bool,
}

#[utoipa::path(get, path = "", tag = "billing",
    responses((status = 200, description = "Whether checkout is available", body = BillingInfo)))]
pub async fn get_billing(State(state): State<AppState>) -> Json<BillingInfo> {
    Json(BillingInfo {
        checkout_available: state.stripe.is_some(),
    })
}

#[derive(Serialize, ToSchema)]
pub struct CheckoutResponse {
    /// The provider's hosted checkout page.
    pub url: String,
}

#[derive(Deserialize)]
struct CheckoutSession {
    url: String,
}

#[utoipa::path(post, path = "/checkout", tag = "billing",
    responses(
        (status = 200, description = "Open this checkout page", body = CheckoutResponse),
        (status = 401, description = "unauthenticated", body = ErrorBody),
        (status = 404, description = "billing-disabled: plans are managed by the operator", body = ErrorBody),
        (status = 409, description = "already-pro", body = ErrorBody),
        (status = 502, description = "provider-unavailable", body = ErrorBody),
    ))]
pub async fn create_checkout(
    State(state): State<AppState>,
    current: CurrentUser,
) -> ApiResult<Json<CheckoutResponse>> {
    let Some(stripe) = state.stripe.as_ref() else {
        return Err(AppError::client(
            StatusCode::NOT_FOUND,
            "billing-disabled",
            "Plans are managed by the operator of this Delivery Tracker",
        ));
    };
    if current.user.role == Role::Pro {
        return Err(AppError::client(
            StatusCode::CONFLICT,
            "already-pro",
            "You are already on the Pro plan",
        ));
    }
    let user_id = current.user.id.to_string();
    let mut form = vec![
        ("mode", "subscription".to_owned()),
        ("line_items[0][price]", stripe.price_id.clone()),
        ("line_items[0][quantity]", "1".to_owned()),
        (
            "success_url",
            format!("{}/app/upgrade?checkout=success", stripe.public_origin),
        ),
        (
            "cancel_url",
            format!("{}/app/upgrade?checkout=cancelled", stripe.public_origin),
        ),
        ("client_reference_id", user_id),
    ];
    if let Some(email) = &current.user.email {
        form.push(("customer_email", email.clone()));
    }
    let response = state
        .http
        .post(format!("{}/v1/checkout/sessions", stripe.api_base))
        .bearer_auth(&stripe.secret_key)
        .form(&form)
        .send()
        .await;
    let session = match response {
        Ok(reply) if reply.status().is_success() => reply.json::<CheckoutSession>().await.ok(),
        Ok(reply) => {
            tracing::error!(status = %reply.status(), "payment provider refused the checkout session");
            None
        }
        Err(err) => {
            tracing::error!(error = %err, "payment provider unreachable");
            None
        }
    };
    let session = session.ok_or_else(|| {
        AppError::client(
            StatusCode::BAD_GATEWAY,
            "provider-unavailable",
            "The payment provider could not start a checkout. Please try again later.",
        )
    })?;
    Ok(Json(CheckoutResponse { url: session.url }))
}

#[derive(Deserialize)]
struct Event {
    #[serde(rename = "type")]
    kind: String,
    data: EventData,
}

#[derive(Deserialize)]
struct EventData {
    object: EventObject,
}

#[derive(Deserialize)]
struct EventObject {
    client_reference_id: Option<String>,
    customer: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct WebhookReceived {
    pub received: bool,
}

/// Called by the provider, not a browser: authenticated by its signature alone.
#[utoipa::path(post, path = "/webhook", tag = "billing",
    request_body(content = String, content_type = "application/json",
        description = "The provider's event, verified against the Stripe-Signature header byte for byte"),
    responses(
        (status = 200, description = "Event handled (or ignored)", body = WebhookReceived),
        (status = 400, description = "invalid-signature or bad event", body = ErrorBody),
        (status = 404, description = "billing-disabled", body = ErrorBody),
    ))]
pub async fn receive_webhook(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<WebhookReceived>> {
    let Some(stripe) = state.stripe.as_ref() else {
        return Err(AppError::client(
            StatusCode::NOT_FOUND,
            "billing-disabled",
            "Billing is not configured",
        ));
    };
    let header = headers
        .get("stripe-signature")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if !signature::verify(header, &body, &stripe.webhook_secret, now_ms() / 1000) {
        tracing::warn!("webhook with an invalid signature refused");
        return Err(AppError::client(
            StatusCode::BAD_REQUEST,
            "invalid-signature",
            "Invalid signature",
        ));
    }
    let event: Event = serde_json::from_slice(&body)
        .map_err(|_| AppError::client(StatusCode::BAD_REQUEST, "bad-event", "Unreadable event"))?;
    let object = event.data.object;
    match event.kind.as_str() {
        "checkout.session.completed" => {
            let user_id = object
                .client_reference_id
                .as_deref()
                .and_then(|id| Uuid::parse_str(id).ok())
                .ok_or_else(|| {
                    AppError::client(
                        StatusCode::BAD_REQUEST,
                        "bad-event",
                        "No user on the checkout",
                    )
                })?;
            if let Some(customer) = object.customer.as_deref() {
                state.store.set_billing_customer(user_id, customer).await?;
                state.notifier.user_changed(user_id);
            }
            set_plan(&state, user_id, Role::Pro).await?;
        }
        "customer.subscription.deleted" => {
            let user = match object.customer.as_deref() {
                Some(customer) => state.store.find_user_by_billing_customer(customer).await?,
                None => None,
            };
            if let Some(user_id) = user {
                set_plan(&state, user_id, Role::Free).await?;
            }
        }
        _ => {} // Other events are not ours to act on.
    }
    Ok(Json(WebhookReceived { received: true }))
}

async fn set_plan(state: &AppState, user_id: Uuid, role: Role) -> ApiResult<()> {
    if let Some(cursor) = state.store.set_role(user_id, role, now_ms()).await? {
        tracing::info!(%user_id, %role, "plan changed by the payment provider");
        state.notifier.user_changed(user_id);
        state.notifier.changed(user_id, cursor);
    }
    Ok(())
}

//! The OpenID provider as seen from here: discovery and signing keys (cached, refreshed when a
//! token names a key we do not know), the authorization URL, the code exchange and the full
//! validation of the ID token.

use std::time::{Duration, Instant};

use chrono::Utc;
use openidconnect::{
    AuthenticationFlow, AuthorizationCode, ClientId, ClientSecret, CsrfToken, IssuerUrl, Nonce,
    PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, Scope, TokenResponse,
    core::{CoreClient, CoreClientAuthMethod, CoreIdToken, CoreProviderMetadata, CoreResponseType},
};
use tokio::sync::Mutex;

use super::OidcFailure;
use crate::config::OidcSettings;

/// How long discovery and keys are trusted before being fetched again.
const METADATA_TTL: Duration = Duration::from_secs(3600);
/// A token naming an unknown key refetches the keys at most this often (a provider rotating
/// keys is served at once; a stream of forged key ids cannot hammer the provider).
const MIN_REFRESH_INTERVAL: Duration = Duration::from_secs(10);
/// Clock difference tolerated on `exp` and `iat`.
const CLOCK_LEEWAY: chrono::TimeDelta = chrono::TimeDelta::seconds(60);

/// What a validated ID token says about the person.
#[derive(Debug, Clone)]
pub struct VerifiedIdentity {
    pub issuer: String,
    pub subject: String,
    pub name: Option<String>,
}

/// The values to remember between the redirect to the provider and its callback.
pub struct AuthorizationStart {
    pub url: url::Url,
    pub pkce_verifier: String,
}

struct Cached {
    metadata: CoreProviderMetadata,
    fetched_at: Instant,
}

pub struct Provider {
    settings: OidcSettings,
    /// Redirects are not followed: a provider's endpoints answer directly (SSRF hardening).
    http: reqwest::Client,
    cached: Mutex<Option<Cached>>,
}

impl Provider {
    pub fn new(settings: OidcSettings) -> anyhow::Result<Provider> {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(15))
            .build()?;
        Ok(Provider {
            settings,
            http,
            cached: Mutex::new(None),
        })
    }

    pub fn settings(&self) -> &OidcSettings {
        &self.settings
    }

    /// Discovery and keys, from the cache unless stale (or `refresh` and not just fetched).
    async fn metadata(&self, refresh: bool) -> Result<CoreProviderMetadata, OidcFailure> {
        let mut cached = self.cached.lock().await;
        if let Some(entry) = cached.as_ref() {
            let age = entry.fetched_at.elapsed();
            let fresh = if refresh {
                age < MIN_REFRESH_INTERVAL
            } else {
                age < METADATA_TTL
            };
            if fresh {
                return Ok(entry.metadata.clone());
            }
        }
        let issuer = IssuerUrl::new(self.settings.issuer.clone()).map_err(|err| {
            tracing::error!(error = %err, "OIDC_ISSUER is not a valid issuer URL");
            OidcFailure::ProviderUnavailable
        })?;
        // Checks that the document's `issuer` is exactly ours and fetches the keys.
        let metadata = CoreProviderMetadata::discover_async(issuer, &self.http)
            .await
            .map_err(|err| {
                tracing::warn!(error = %err, "OpenID discovery failed");
                OidcFailure::ProviderUnavailable
            })?;
        *cached = Some(Cached {
            metadata: metadata.clone(),
            fetched_at: Instant::now(),
        });
        Ok(metadata)
    }

    fn client(
        &self,
        metadata: CoreProviderMetadata,
    ) -> Result<
        CoreClient<
            openidconnect::EndpointSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointMaybeSet,
            openidconnect::EndpointMaybeSet,
        >,
        OidcFailure,
    > {
        // client_secret_basic is the default when the provider lists nothing (OIDC Discovery).
        let auth_type = match metadata.token_endpoint_auth_methods_supported() {
            Some(methods)
                if !methods.contains(&CoreClientAuthMethod::ClientSecretBasic)
                    && methods.contains(&CoreClientAuthMethod::ClientSecretPost) =>
            {
                openidconnect::AuthType::RequestBody
            }
            _ => openidconnect::AuthType::BasicAuth,
        };
        let redirect = RedirectUrl::new(self.settings.redirect_uri.clone()).map_err(|err| {
            tracing::error!(error = %err, "the OpenID redirect URI is not a URL");
            OidcFailure::ProviderUnavailable
        })?;
        Ok(CoreClient::from_provider_metadata(
            metadata,
            ClientId::new(self.settings.client_id.clone()),
            Some(ClientSecret::new(self.settings.client_secret.clone())),
        )
        .set_redirect_uri(redirect)
        .set_auth_type(auth_type))
    }

    /// The provider's authorization URL for one sign-in (code flow, PKCE S256).
    pub async fn authorization_url(
        &self,
        state: &str,
        nonce: &str,
    ) -> Result<AuthorizationStart, OidcFailure> {
        let client = self.client(self.metadata(false).await?)?;
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (state, nonce) = (state.to_owned(), nonce.to_owned());
        let (url, _, _) = client
            .authorize_url(
                AuthenticationFlow::<CoreResponseType>::AuthorizationCode,
                move || CsrfToken::new(state),
                move || Nonce::new(nonce),
            )
            .add_scope(Scope::new("email".into()))
            .add_scope(Scope::new("profile".into()))
            .set_pkce_challenge(challenge)
            .url();
        Ok(AuthorizationStart {
            url,
            pkce_verifier: verifier.secret().clone(),
        })
    }

    /// Exchanges the code (with the stored PKCE verifier) and validates the ID token.
    pub async fn redeem(
        &self,
        code: String,
        pkce_verifier: String,
        nonce: &str,
    ) -> Result<VerifiedIdentity, OidcFailure> {
        let metadata = self.metadata(false).await?;
        let client = self.client(metadata.clone())?;
        let request = client
            .exchange_code(AuthorizationCode::new(code))
            .map_err(|err| {
                tracing::error!(error = %err, "the OpenID provider has no token endpoint");
                OidcFailure::ProviderUnavailable
            })?
            .set_pkce_verifier(PkceCodeVerifier::new(pkce_verifier));
        let tokens = request.request_async(&self.http).await.map_err(|err| {
            tracing::warn!(error = %err, "OpenID code exchange refused");
            OidcFailure::TokenExchange
        })?;
        let id_token = tokens.id_token().ok_or_else(|| {
            tracing::warn!("the token response has no ID token");
            OidcFailure::InvalidToken
        })?;
        let nonce = Nonce::new(nonce.to_owned());
        match self.verify(metadata, id_token, &nonce) {
            Err(openidconnect::ClaimsVerificationError::SignatureVerification(
                openidconnect::SignatureVerificationError::NoMatchingKey,
            )) => {
                // The provider may have rotated its keys since we cached them.
                let metadata = self.metadata(true).await?;
                self.verify(metadata, id_token, &nonce)
            }
            other => other,
        }
        .map_err(|err| {
            tracing::warn!(error = %err, "ID token refused");
            OidcFailure::InvalidToken
        })
    }

    /// Signature (provider's keys, an advertised algorithm), `iss` exact, `aud` holding our
    /// client id (and `azp` when several), `exp`/`iat` within the leeway, `nonce` ours.
    fn verify(
        &self,
        metadata: CoreProviderMetadata,
        id_token: &CoreIdToken,
        nonce: &Nonce,
    ) -> Result<VerifiedIdentity, openidconnect::ClaimsVerificationError> {
        let client = self
            .client(metadata)
            .map_err(|_| openidconnect::ClaimsVerificationError::Other("client".into()))?;
        // from_provider_metadata allows exactly the provider's advertised algorithms; an
        // unsigned token ("none") has no algorithm here and never parses as signed.
        let verifier = client
            .id_token_verifier()
            .set_time_fn(|| Utc::now() - CLOCK_LEEWAY)
            .set_issue_time_verifier_fn(|issued_at| {
                if issued_at > Utc::now() + CLOCK_LEEWAY {
                    Err(format!("issued in the future ({issued_at})"))
                } else {
                    Ok(())
                }
            });
        let claims = id_token.claims(&verifier, nonce)?;
        let client_id = self.settings.client_id.as_str();
        let several_audiences = claims.audiences().len() > 1;
        match claims.authorized_party() {
            Some(azp) if azp.as_str() != client_id => {
                return Err(openidconnect::ClaimsVerificationError::InvalidAudience(
                    format!("azp `{}` is not our client id", azp.as_str()),
                ));
            }
            None if several_audiences => {
                return Err(openidconnect::ClaimsVerificationError::InvalidAudience(
                    "several audiences and no azp".into(),
                ));
            }
            _ => {}
        }
        Ok(VerifiedIdentity {
            issuer: claims.issuer().as_str().to_owned(),
            subject: claims.subject().as_str().to_owned(),
            name: claims
                .name()
                .and_then(|name| name.get(None))
                .map(|name| name.as_str().to_owned()),
        })
    }
}

//! Sending e-mail through the operator's SMTP server (SMTP_URL): one transport for everything
//! the server e-mails, contact copies to the operator (`contact::mailer`) and links to users
//! (`auth::email_links`).

use std::time::Duration;

use lettre::{
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
    message::Mailbox,
    transport::smtp::{
        authentication::Credentials,
        client::{Tls, TlsParameters},
    },
};

use crate::config::{ContactEmailConfig, SmtpSecurity};

/// Each SMTP command may take this long; a whole send is bounded by `SEND_TIMEOUT`.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(30);
const SEND_TIMEOUT: Duration = Duration::from_secs(120);

#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    /// CONTACT_EMAIL_FROM: the sender of every e-mail the server sends.
    from: Mailbox,
}

impl Mailer {
    pub fn new(config: &ContactEmailConfig) -> anyhow::Result<Mailer> {
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&config.host)
            .port(config.port)
            .timeout(Some(COMMAND_TIMEOUT));
        builder = match config.security {
            SmtpSecurity::ImplicitTls => {
                builder.tls(Tls::Wrapper(TlsParameters::new(config.host.clone())?))
            }
            SmtpSecurity::StartTls => {
                builder.tls(Tls::Required(TlsParameters::new(config.host.clone())?))
            }
            SmtpSecurity::Plain => builder.tls(Tls::None),
        };
        if let Some((user, password)) = &config.credentials {
            builder = builder.credentials(Credentials::new(user.clone(), password.clone()));
        }
        Ok(Mailer {
            transport: builder.build(),
            from: config.from.clone(),
        })
    }

    pub fn from(&self) -> &Mailbox {
        &self.from
    }

    /// Sends `message`; the error says why it did not go (for the log or the operator).
    pub async fn send(&self, message: Message) -> Result<(), String> {
        match tokio::time::timeout(SEND_TIMEOUT, self.transport.send(message)).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(err)) => Err(err.to_string()),
            Err(_) => Err(format!("no answer within {} s", SEND_TIMEOUT.as_secs())),
        }
    }
}

//! Account input rules: e-mail addresses and display names (passwords: `password`).

const EMAIL_MAX_CHARS: usize = 254;
const DISPLAY_NAME_MAX_CHARS: usize = 80;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccountError {
    InvalidEmail,
    PasswordTooShort,
    PasswordTooLong,
    PasswordTooCommon,
    PasswordFromEmail,
    PasswordFromAppName,
    DisplayNameTooLong,
    DisplayNameUnclean,
}

impl AccountError {
    /// The user-facing text; the short-password text is the spec's own (§8 "Login errors").
    pub fn message(&self) -> &'static str {
        match self {
            AccountError::InvalidEmail => "Invalid email address",
            AccountError::PasswordTooShort => "Password should be at least 6 characters",
            AccountError::PasswordTooLong => "Password must be at most 256 characters",
            AccountError::PasswordTooCommon => {
                "This is one of the most common passwords, among the first anyone would try. \
                 Please choose a less predictable one"
            }
            AccountError::PasswordFromEmail => {
                "This password is made from your email address. Please choose one that is \
                 harder to guess"
            }
            AccountError::PasswordFromAppName => {
                "This password is made from the app's name or words of the job (like \"delivery\" \
                 or \"van\"). Please choose one that is harder to guess"
            }
            AccountError::DisplayNameTooLong => "Display name must be at most 80 characters",
            AccountError::DisplayNameUnclean => {
                "Display name must not contain line breaks, control characters or text-direction \
                 marks"
            }
        }
    }
}

/// A normalised (trimmed, lower-cased) e-mail address.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Email(String);

impl Email {
    /// Accepts `local@domain.tld` with no whitespace: the spec's contact pattern (something,
    /// an at sign, something, a dot, something), tightened to exactly one `@`.
    pub fn parse(raw: &str) -> Result<Email, AccountError> {
        let email = raw.trim().to_lowercase();
        if email.is_empty() || email.chars().count() > EMAIL_MAX_CHARS {
            return Err(AccountError::InvalidEmail);
        }
        if email
            .chars()
            .any(|c| c.is_whitespace() || !crate::fields::allowed_in_text(c, false))
        {
            return Err(AccountError::InvalidEmail);
        }
        let (local, domain) = email.split_once('@').ok_or(AccountError::InvalidEmail)?;
        let domain_ok = !domain.contains('@')
            && domain
                .split_once('.')
                .is_some_and(|(_, rest)| !rest.is_empty())
            && domain.split('.').all(|label| !label.is_empty());
        if local.is_empty() || !domain_ok {
            return Err(AccountError::InvalidEmail);
        }
        Ok(Email(email))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

/// An optional display name: trimmed, empty means "not set" (shown as 'User').
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisplayName;

impl DisplayName {
    pub const FALLBACK: &'static str = "User";

    pub fn parse_optional(raw: Option<&str>) -> Result<Option<String>, AccountError> {
        let Some(name) = raw.map(str::trim).filter(|n| !n.is_empty()) else {
            return Ok(None);
        };
        if name.chars().count() > DISPLAY_NAME_MAX_CHARS {
            return Err(AccountError::DisplayNameTooLong);
        }
        if !crate::fields::is_clean_text(name, false) {
            return Err(AccountError::DisplayNameUnclean);
        }
        Ok(Some(name.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn emails_are_normalised() {
        assert_eq!(
            Email::parse("  Driver@Example.COM ").unwrap().as_str(),
            "driver@example.com"
        );
    }

    #[test]
    fn malformed_emails_are_refused() {
        for bad in [
            "",
            "a",
            "a@b",
            "@b.com",
            "a@.com",
            "a@b.",
            "a b@c.com",
            "a@b@c.com",
            "a@b..com",
        ] {
            assert_eq!(
                Email::parse(bad),
                Err(AccountError::InvalidEmail),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn display_name_is_optional_and_bounded() {
        assert_eq!(DisplayName::parse_optional(None), Ok(None));
        assert_eq!(DisplayName::parse_optional(Some("   ")), Ok(None));
        assert_eq!(
            DisplayName::parse_optional(Some(" Sam Driver ")),
            Ok(Some("Sam Driver".into()))
        );
        assert_eq!(
            DisplayName::parse_optional(Some(&"n".repeat(81))),
            Err(AccountError::DisplayNameTooLong)
        );
    }

    proptest! {
        #[test]
        fn parsed_emails_are_stable(local in "[a-z0-9._+-]{1,20}", domain in "[a-z0-9-]{1,20}", tld in "[a-z]{2,6}") {
            let raw = format!("{local}@{domain}.{tld}");
            let once = Email::parse(&raw).unwrap();
            let twice = Email::parse(once.as_str()).unwrap();
            prop_assert_eq!(once, twice);
        }

        #[test]
        fn emails_with_whitespace_never_parse(a in "[a-z]{1,8}", b in "[a-z]{1,8}", ws in "[ \t\n]") {
            let raw = format!("{a}{ws}x@{b}.com");
            prop_assert!(Email::parse(&raw).is_err());
        }
    }
}

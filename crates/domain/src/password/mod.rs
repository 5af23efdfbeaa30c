//! The rule every new password meets, wherever it is set (sign-up, a guest adding a password,
//! changing it, a reset link, an invitation, the operator's `users create`): the spec's minimum
//! length, a sane maximum, not one of the most common passwords (SOURCE.md names the list), and
//! not made of the account's own e-mail address or of this app's name and trade. The server is
//! the one place this is checked; the web app shows its answer on the password field.

use std::{collections::HashSet, sync::OnceLock};

use crate::account::AccountError;

/// Spec §5 "Login": password minimum is 6 characters.
pub const PASSWORD_MIN_CHARS: usize = 6;
/// Upper bound so a hashing request cannot be made arbitrarily expensive.
pub const PASSWORD_MAX_CHARS: usize = 256;

/// The app's name and the words of the job it is for: a driver reaches for these first, and so
/// does anyone guessing a driver's password (`van123`).
const APP_WORDS: &[&str] = &[
    "delivery",
    "deliveries",
    "tracker",
    "deliverytracker",
    "courier",
    "parcel",
    "parcels",
    "driver",
    "van",
];

/// Parts of an e-mail address shorter than this are not refused on their own (`jo` in
/// `jo.smith@…` would refuse too much); the whole local part always counts.
const MIN_EMAIL_PART: usize = 3;

/// Checks a new password for the account with `email` (None for an account without one).
pub fn validate_password(password: &str, email: Option<&str>) -> Result<(), AccountError> {
    let chars = password.chars().count();
    if chars < PASSWORD_MIN_CHARS {
        return Err(AccountError::PasswordTooShort);
    }
    if chars > PASSWORD_MAX_CHARS {
        return Err(AccountError::PasswordTooLong);
    }
    let lowered = password.to_lowercase();
    if common_passwords().contains(lowered.as_str()) {
        return Err(AccountError::PasswordTooCommon);
    }
    if let Some(email) = email
        && made_of_email(&lowered, &email.to_lowercase())
    {
        return Err(AccountError::PasswordFromEmail);
    }
    let letters = letters_of(&lowered);
    if APP_WORDS.iter().any(|word| repeats(&letters, word)) {
        return Err(AccountError::PasswordFromAppName);
    }
    Ok(())
}

fn common_passwords() -> &'static HashSet<&'static str> {
    static LIST: OnceLock<HashSet<&'static str>> = OnceLock::new();
    LIST.get_or_init(|| {
        include_str!("common-passwords.txt")
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .collect()
    })
}

/// The password's letters, in order: what is left of `Driver2024!` is `driver`.
fn letters_of(text: &str) -> String {
    text.chars().filter(|c| c.is_alphabetic()).collect()
}

/// `letters` is `word` once or more (`van`, `vanvan`), so the password is that word dressed up
/// with digits and symbols.
fn repeats(letters: &str, word: &str) -> bool {
    !letters.is_empty()
        && letters.len().is_multiple_of(word.len())
        && letters == word.repeat(letters.len() / word.len())
}

/// The password is the address itself, or its local part (or a word of it) with digits and
/// symbols around: `sam.driver@…` refuses `samdriver1`, `Driver!23` and `sam.driver`.
fn made_of_email(password: &str, email: &str) -> bool {
    if password == email {
        return true;
    }
    let local = email.split('@').next().unwrap_or_default();
    let alphanumeric =
        |text: &str| -> String { text.chars().filter(|c| c.is_alphanumeric()).collect() };
    // Digits count here: `jsmith1985@…` refuses `jsmith1985` and `JSmith-1985`.
    if alphanumeric(local).chars().count() >= MIN_EMAIL_PART
        && alphanumeric(password) == alphanumeric(local)
    {
        return true;
    }
    let letters = letters_of(password);
    let whole = letters_of(local);
    let parts = local
        .split(|c: char| !c.is_alphabetic())
        .filter(|part| part.chars().count() >= MIN_EMAIL_PART);
    (!whole.is_empty() && repeats(&letters, &whole))
        || parts.into_iter().any(|part| repeats(&letters, part))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn length_is_the_specs_minimum_and_a_sane_maximum() {
        assert_eq!(
            validate_password("abc12", None),
            Err(AccountError::PasswordTooShort)
        );
        assert_eq!(
            validate_password(&"x".repeat(257), None),
            Err(AccountError::PasswordTooLong)
        );
        assert_eq!(validate_password("van-route-42", None), Ok(()));
        // Characters, not bytes: six multi-byte characters are enough.
        assert_eq!(validate_password("ééééé1", None), Ok(()));
    }

    #[test]
    fn the_shipped_list_is_the_whole_django_list() {
        // SOURCE.md names the file; a truncated or re-sorted copy would not keep these.
        let list = include_str!("common-passwords.txt");
        assert_eq!(list.lines().count(), 19_640);
        assert_eq!(list.lines().next(), Some("123456"));
        assert_eq!(list.lines().last(), Some("fallen_angel"));
        assert_eq!(common_passwords().len(), 19_640);
    }

    #[test]
    fn common_passwords_are_refused_whatever_their_case() {
        for common in [
            "Password1",
            "qwerty",
            "QWERTYUIOP",
            "1q2w3e4r5t",
            "trustno1",
            "letmein",
            "iloveyou",
            "fallen_angel",
        ] {
            assert_eq!(
                validate_password(common, None),
                Err(AccountError::PasswordTooCommon),
                "{common}"
            );
        }
    }

    #[test]
    fn the_apps_name_and_trade_dressed_up_are_refused() {
        for weak in [
            "van123",
            "VAN-123",
            "vanvan99",
            "Delivery2024!",
            "deliverytracker",
            "Delivery Tracker 1",
            "courier!!",
            "Parcel77",
            "driver2025",
            "tracker-7",
        ] {
            assert_eq!(
                validate_password(weak, None),
                Err(AccountError::PasswordFromAppName),
                "{weak}"
            );
        }
        // Words of the trade inside something longer are the driver's own choice.
        for fine in ["van-route-42", "my blue van at dawn", "parcel-shed-9-west"] {
            assert_eq!(validate_password(fine, None), Ok(()), "{fine}");
        }
    }

    #[test]
    fn passwords_made_of_the_accounts_email_are_refused() {
        let email = Some("Sam.Driver1985@Example.com");
        for weak in [
            "sam.driver1985@example.com",
            "samdriver1985",
            "SamDriver-1985",
            "samdriver!",
            "Sam2024!",
            "sam.sam.7",
        ] {
            assert_eq!(
                validate_password(weak, email),
                Err(AccountError::PasswordFromEmail),
                "{weak}"
            );
        }
        // The same passwords are someone else's to choose.
        assert_eq!(
            validate_password("samdriver1985", Some("pat@example.com")),
            Ok(())
        );
        assert_eq!(validate_password("samdriver1985", None), Ok(()));
        // Short parts of an address are not refused alone; the whole local part is.
        assert_eq!(
            validate_password("jo-1234567", Some("jo.smith@example.com")),
            Ok(())
        );
        assert_eq!(
            validate_password("JoSmith-1", Some("jo.smith@example.com")),
            Err(AccountError::PasswordFromEmail)
        );
        // A local part that is mostly digits.
        assert_eq!(
            validate_password("07700-900123", Some("07700900123@example.com")),
            Err(AccountError::PasswordFromEmail)
        );
    }

    proptest! {
        /// Any app word with any digits and symbols around it (not letters) is refused.
        #[test]
        fn dressed_up_app_words_are_refused(
            word in proptest::sample::select(APP_WORDS),
            before in "[0-9!@#$%^&*()_+=. -]{0,6}",
            after in "[0-9!@#$%^&*()_+=. -]{0,6}",
            upper in any::<bool>(),
        ) {
            let word = if upper { word.to_uppercase() } else { word.to_owned() };
            let password = format!("{before}{word}{after}");
            prop_assume!(password.chars().count() >= PASSWORD_MIN_CHARS);
            let refused = validate_password(&password, None);
            prop_assert!(
                matches!(refused, Err(AccountError::PasswordFromAppName | AccountError::PasswordTooCommon)),
                "{password:?}: {refused:?}"
            );
        }

        /// The local part of the account's address with digits or symbols around is refused.
        #[test]
        fn dressed_up_local_parts_are_refused(
            local in "[a-z]{3,12}",
            affix in "[0-9!#.-]{0,5}",
        ) {
            let email = format!("{local}@example.org");
            let password = format!("{local}{affix}");
            prop_assume!(password.chars().count() >= PASSWORD_MIN_CHARS);
            let refused = validate_password(&password, Some(&email));
            prop_assert!(refused.is_err(), "{password:?} for {email}");
        }
    }
}

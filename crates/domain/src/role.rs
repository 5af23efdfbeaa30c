use serde::{Deserialize, Serialize};
use std::{fmt, str::FromStr};

/// The user's plan. Only the server sets it (admin CLI or billing webhook); clients read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    #[default]
    Free,
    Pro,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Free => "free",
            Role::Pro => "pro",
        }
    }

    /// Stored values other than `pro` mean Free, as in the original product (spec §1).
    pub fn from_stored(value: &str) -> Role {
        if value == "pro" {
            Role::Pro
        } else {
            Role::Free
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "free" => Ok(Role::Free),
            "pro" => Ok(Role::Pro),
            other => Err(format!("unknown role '{other}': expected free or pro")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_pro_means_pro() {
        assert_eq!(Role::from_stored("pro"), Role::Pro);
        assert_eq!(Role::from_stored("free"), Role::Free);
        assert_eq!(Role::from_stored("admin"), Role::Free);
        assert_eq!("pro".parse::<Role>(), Ok(Role::Pro));
        assert!("Pro".parse::<Role>().is_err());
    }
}

//! Counts in words for what the command line prints: "1 file", "3 files", never "file(s)".

/// `n` with its noun: `one` for exactly 1, `many` otherwise ("0 files", "1 file", "2 files").
pub fn counted<N: std::fmt::Display + PartialEq + From<u8>>(n: N, one: &str, many: &str) -> String {
    let noun = if n == N::from(1) { one } else { many };
    format!("{n} {noun}")
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn singular_for_exactly_one() {
        assert_eq!(counted(0u32, "file", "files"), "0 files");
        assert_eq!(counted(1u32, "file", "files"), "1 file");
        assert_eq!(counted(2usize, "session", "sessions"), "2 sessions");
        assert_eq!(counted(1_000u64, "user", "users"), "1000 users");
    }
}

//! A session's device in words ("Chrome on Android"), from its User-Agent, so a driver can
//! tell their phone from the depot computer in the sessions list. Best effort: unknown agents
//! read "Unknown device" rather than a raw header.

/// Browser and operating system named by a User-Agent header.
pub fn describe_device(user_agent: Option<&str>) -> String {
    let Some(ua) = user_agent.filter(|ua| !ua.trim().is_empty()) else {
        return "Unknown device".to_owned();
    };
    match (browser(ua), system(ua)) {
        (Some(browser), Some(system)) => format!("{browser} on {system}"),
        (Some(name), None) | (None, Some(name)) => name.to_owned(),
        (None, None) => "Unknown device".to_owned(),
    }
}

/// Order matters: Edge and Samsung Internet also say "Chrome", Chrome also says "Safari".
fn browser(ua: &str) -> Option<&'static str> {
    const BROWSERS: [(&str, &str); 8] = [
        ("Edg/", "Edge"),
        ("SamsungBrowser/", "Samsung Internet"),
        ("OPR/", "Opera"),
        ("Firefox/", "Firefox"),
        ("FxiOS/", "Firefox"),
        ("CriOS/", "Chrome"),
        ("Chrome/", "Chrome"),
        ("Safari/", "Safari"),
    ];
    BROWSERS
        .iter()
        .find(|(marker, _)| ua.contains(marker))
        .map(|(_, name)| *name)
}

/// Order matters: Android agents also say "Linux", iPads may say "Macintosh" with "Mobile".
fn system(ua: &str) -> Option<&'static str> {
    if ua.contains("Android") {
        Some("Android")
    } else if ua.contains("iPhone") {
        Some("iPhone")
    } else if ua.contains("iPad") || (ua.contains("Macintosh") && ua.contains("Mobile/")) {
        Some("iPad")
    } else if ua.contains("Windows") {
        Some("Windows")
    } else if ua.contains("CrOS") {
        Some("ChromeOS")
    } else if ua.contains("Macintosh") || ua.contains("Mac OS X") {
        Some("macOS")
    } else if ua.contains("Linux") {
        Some("Linux")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_common_browsers_and_systems() {
        for (ua, expected) in [
            (
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
                "Chrome on Android",
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
                "Safari on iPhone",
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
                "Edge on Windows",
            ),
            (
                "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
                "Firefox on Linux",
            ),
            (
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
                "Safari on macOS",
            ),
            (
                "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
                "Samsung Internet on Android",
            ),
            (
                "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
                "Chrome on ChromeOS",
            ),
        ] {
            assert_eq!(describe_device(Some(ua)), expected, "{ua}");
        }
    }

    #[test]
    fn unknown_or_missing_agents_say_so() {
        assert_eq!(describe_device(None), "Unknown device");
        assert_eq!(describe_device(Some("  ")), "Unknown device");
        assert_eq!(describe_device(Some("curl/8.5.0")), "Unknown device");
        assert_eq!(
            describe_device(Some("Mozilla/5.0 (Windows NT 10.0)")),
            "Windows"
        );
    }
}

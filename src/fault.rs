//! Test-only fault injection, compiled into debug builds only (release builds
//! make every call a no-op): the crash-safety tests kill the process at each
//! step of a letter's life and check that nothing is lost or done twice.
//!
//! `SHTEMPEL_FAULT=<point>` aborts the process the first time `<point>` is
//! reached, `<point>:N` the N-th time. `SHTEMPEL_STALL=<point>:SECS` sleeps there
//! instead (to hold the run lock). `SHTEMPEL_FAULT=panic-letter:<text>` makes
//! planning panic on every letter whose raw bytes contain `<text>`;
//! `abort-letter:<text>` kills the process there instead.

/// A step where a fault may be injected.
pub fn point(name: &str) {
    #[cfg(debug_assertions)]
    debug::point(name);
    #[cfg(not(debug_assertions))]
    let _ = name;
}

/// Panics while planning a letter that contains the configured text.
pub fn poison(raw: &[u8]) {
    #[cfg(debug_assertions)]
    debug::poison(raw);
    #[cfg(not(debug_assertions))]
    let _ = raw;
}

#[cfg(debug_assertions)]
mod debug {
    use std::collections::HashMap;
    use std::sync::Mutex;
    use std::time::Duration;

    static PASSED: Mutex<Option<HashMap<String, usize>>> = Mutex::new(None);

    fn split(value: &str) -> (&str, usize) {
        match value.rsplit_once(':') {
            Some((point, n)) if n.parse::<usize>().is_ok() => (point, n.parse().unwrap_or(1)),
            _ => (value, 1),
        }
    }

    pub fn point(name: &str) {
        if let Ok(stall) = std::env::var("SHTEMPEL_STALL") {
            let (point, seconds) = split(&stall);
            if point == name {
                std::thread::sleep(Duration::from_secs(u64::try_from(seconds).unwrap_or(1)));
            }
        }
        let Ok(fault) = std::env::var("SHTEMPEL_FAULT") else {
            return;
        };
        let (point, nth) = split(&fault);
        if point != name {
            return;
        }
        let mut passed = PASSED.lock().unwrap_or_else(|e| e.into_inner());
        let count = passed
            .get_or_insert_with(HashMap::new)
            .entry(name.to_string())
            .or_insert(0);
        *count += 1;
        if *count == nth {
            eprintln!("shtempel: injected fault at {name} (passage {nth})");
            std::process::abort();
        }
    }

    pub fn poison(raw: &[u8]) {
        let Ok(fault) = std::env::var("SHTEMPEL_FAULT") else {
            return;
        };
        let contains = |needle: &str| {
            !needle.is_empty() && raw.windows(needle.len()).any(|w| w == needle.as_bytes())
        };
        if let Some(needle) = fault.strip_prefix("panic-letter:")
            && contains(needle)
        {
            panic!("injected panic on a letter containing {needle:?}");
        }
        if let Some(needle) = fault.strip_prefix("abort-letter:")
            && contains(needle)
        {
            eprintln!("shtempel: injected abort on a letter containing {needle:?}");
            std::process::abort();
        }
    }
}

//! The `Authentication-Results` reader on any text: no panic, and what it
//! reads keeps to the grammar (methods and results are lower-case keywords,
//! a property's value is never empty).
#![no_main]

use libfuzzer_sys::fuzz_target;
use shtempel::mail::format::authres;

fuzz_target!(|data: &[u8]| {
    let Ok(field) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(read) = authres::parse(field) {
        assert!(!read.authserv_id.is_empty());
        for result in &read.results {
            for word in [&result.method, &result.result] {
                assert!(!word.is_empty());
                assert!(word.bytes().all(|b| b.is_ascii_lowercase()
                    || b.is_ascii_digit()
                    || b == b'-'
                    || b == b'_'));
            }
            assert!(result.properties.iter().all(|p| !p.value.is_empty()));
        }
    }
    let _ = authres::authserv_id(field);
    let _ = authres::dkim_signing_domain(field);
    let _ = authres::domain_of(field);
});

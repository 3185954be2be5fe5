//! The MIME front end on any bytes: no panic; what it reads is clean of line
//! breaks where a header is built from it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shtempel::mail::format::mime;

fuzz_target!(|data: &[u8]| {
    if let Some(mail) = mime::parse(data, "clerk@example.org") {
        assert!(!mail.subject.contains('\n') && !mail.subject.contains('\r'));
        if let Some(name) = &mail.from_name {
            assert!(!name.contains('\n') && !name.contains('\r'));
        }
        let _ = shtempel::letter::read(&mail.text);
    }
});

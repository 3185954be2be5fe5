//! Names the build for `shtempel --version`: the commit it was made from
//! (`unknown` outside a git checkout).

use std::path::Path;
use std::process::Command;

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|text| text.trim().to_string())
        .filter(|text| !text.is_empty())
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=SHTEMPEL_COMMIT={commit}");
    // Named anew when the checkout moves to another commit; a path that is
    // not there would have cargo run this on every build.
    println!("cargo:rerun-if-changed=src/build.rs");
    for path in [".git/HEAD", ".git/refs/heads", ".git/packed-refs"] {
        if Path::new(path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}

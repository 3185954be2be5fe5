//! The Xfcc server speaking TLS itself (`[xfcc] tls_cert` and `tls_key`)
//! with the test stack's certificate (for `localhost`, signed by its
//! private authority), asked by curl trusting that authority alone.

use super::*;
use crate::support::{Cup, Tournament};
use crate::xfcc::{SERVED, Server, element, get_my_games, whites_login};

/// `body` POSTed by curl to the server over TLS as `localhost`, trusting
/// the stack's authority: curl's exit status and what it printed.
fn curl_tls(server: &Server, body: &str) -> (i32, String) {
    let port = server.address.rsplit(':').next().unwrap();
    let out = Command::new("curl")
        .args(["-s", "-S", "--max-time", "10", "--cacert"])
        .arg(root().join("tls/ca.pem"))
        .args(["--resolve", &format!("localhost:{port}:127.0.0.1")])
        .args([
            "-H",
            "Content-Type: text/xml; charset=utf-8",
            "--data-binary",
            body,
        ])
        .arg(format!("https://localhost:{port}/xfcc"))
        .output()
        .expect("curl runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

fn with_tls(t: &mut Tournament) {
    let file = t.path().join("shtempel.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let tls = root().join("tls");
    let keys = format!(
        "listen = \"127.0.0.1:0\"\ntls_cert = \"{}\"\ntls_key = \"{}\"",
        tls.join("server.pem").display(),
        tls.join("server.key").display()
    );
    std::fs::write(&file, text.replace("listen = \"127.0.0.1:0\"", &keys)).unwrap();
}

#[test]
fn the_xfcc_server_speaks_tls_with_a_private_authoritys_certificate() {
    if !mailstack() {
        return;
    }
    let mut t = Cup::new().table(SERVED).open();
    let password = whites_login(&mut t);
    with_tls(&mut t);
    let server = Server::start(&t, "2026-11-12");
    let (code, games) = curl_tls(&server, &get_my_games("white", &password));
    assert_eq!(code, 0, "{games}");
    assert_eq!(element(&games, "moves"), "1. e4 e5");
    // Plain HTTP to the TLS port is no request it answers; it stays up.
    let port = server.address.rsplit(':').next().unwrap();
    let plain = Command::new("curl")
        .args(["-s", "--max-time", "5", "--data-binary", "x"])
        .arg(format!("http://127.0.0.1:{port}/xfcc"))
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("XfccGame"));
    let (code, _) = curl_tls(&server, &get_my_games("white", &password));
    assert_eq!(code, 0);
    assert_eq!(server.stop(), Some(0));
}

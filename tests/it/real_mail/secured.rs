//! The clerk over TLS and OAuth 2.0 against the real servers: Dovecot on 993 (TLS) and 143 (STARTTLS), Postfix on 465
//! and 587, their certificate from the test stack's private authority
//! (`ca.pem`, for the host name `localhost`), 127.0.0.2 with an expired one;
//! logins by password or by an access token that Dovecot's OAuth 2.0 passdb
//! asks the stack's introspection endpoint about (`good-USER` is USER's,
//! `expired-USER` expired), Postfix taking its logins from Dovecot.

use super::*;

/// A tournament whose `[source]` and `[transport]` are these, each
/// written out whole (the other keys of [`Clerk::new`]'s).
fn clerk_with(source: &str, transport: &str) -> Clerk {
    let clerk = Clerk::new(3, "");
    let path = clerk.dir.path().join("shtempel.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let (head, rest) = text.split_once("[source]").unwrap();
    let (_, players) = rest.split_once("[[players]]").unwrap();
    let config = format!(
        "{head}[source]\nkind = \"imap\"\n{source}\n\n[transport]\nkind = \"smtp\"\n{transport}\n\n[[players]]{players}"
    );
    std::fs::write(&path, config).unwrap();
    clerk
}

/// The private authority's certificate, as a director's config names it.
fn ca_file() -> String {
    root().join("tls/ca.pem").display().to_string()
}

/// A server's keys: `host`, `port`, the bot's login and the test CA.
fn server(host: &str, port: u16, login: &str) -> String {
    format!(
        "host = \"{host}\"\nport = {port}\nusername = \"{BOT}\"\n{login}\nca_file = \"{}\"",
        ca_file()
    )
}

const PASSWORD: &str = "password_env = \"SHTEMPEL_TEST_IMAP_PASSWORD\"";

/// White's first move in the clerk's mailbox.
fn a_letter_waits() {
    clear_mailboxes();
    smtp_send(
        WHITE,
        &letter(WHITE, "Партия 1", "Партия 1\n1. c4\nВремя: 3/0\n", "tls-1"),
    );
    wait_for(BOT, 1);
}

/// A poll that read white's letter and forwarded it to black over the
/// transport.
fn forwarded(clerk: &Clerk) {
    let out = clerk.poll();
    assert!(
        out.stdout.contains("forward to black@test.local"),
        "{}\n{}",
        out.stdout,
        out.stderr
    );
    let black = wait_for(BLACK, 1);
    assert_eq!(black.len(), 1, "{:?}", subjects(BLACK));
    assert_eq!(black[0].kind, "forward");
}

/// A poll that failed with one line saying `words`; nothing read, nothing
/// sent.
fn refused(clerk: &Clerk, words: &str) {
    let out = clerk.run(&["poll"]);
    assert_eq!(out.code, 1, "{words}: {}\n{}", out.stdout, out.stderr);
    assert!(out.stderr.contains(words), "{words}:\n{}", out.stderr);
    assert_eq!(
        out.stderr.trim().lines().count(),
        1,
        "one line: {}",
        out.stderr
    );
    assert!(!out.stdout.contains("move"), "{}", out.stdout);
}

#[test]
fn tls_and_starttls_with_the_private_authority_poll_and_send() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    // (IMAP port, SMTP port): no `tls` key, the mode follows the port.
    for (imap, smtp) in [(993, 465), (143, 587)] {
        a_letter_waits();
        let clerk = clerk_with(
            &server("localhost", imap, PASSWORD),
            &server("localhost", smtp, PASSWORD),
        );
        let out = clerk.run(&["doctor"]);
        assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
        assert!(
            out.stdout.contains(&format!(
                "ok    source      IMAP localhost:{imap} as bot@test.local"
            )) && out.stdout.contains(&format!(
                "ok    transport   SMTP localhost:{smtp} as bot@test.local; PIPELINING yes"
            )),
            "{}",
            out.stdout
        );
        forwarded(&clerk);
    }
    // Postfix's submission ports take no letter without the login.
    a_letter_waits();
    let clerk = clerk_with(
        &server("localhost", 993, PASSWORD),
        &format!(
            "host = \"localhost\"\nport = 465\nca_file = \"{}\"",
            ca_file()
        ),
    );
    let out = clerk.run(&["poll"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(out.stdout.contains("send-failed"), "{}", out.stdout);
}

/// An unknown authority, a host name the certificate is not for, and an
/// expired certificate: each refused in one line naming the host and what
/// is wrong with it, exit 1, and the letter not marked done (a good run
/// after them reads it). For SMTP the same words from `doctor`, and a poll
/// keeps the messages in the outbox.
#[test]
fn a_refused_certificate_is_said_in_one_line_and_marks_no_letter_done() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    a_letter_waits();
    let good_smtp = server("localhost", 465, PASSWORD);
    let unknown = format!("host = \"localhost\"\nport = 993\nusername = \"{BOT}\"\n{PASSWORD}");
    // (source, the one line's words)
    let table = [
        (
            unknown.clone(),
            "IMAP localhost:993: TLS failed: the server's certificate is signed by a certificate authority not known here; if the server has one of its own, give that authority's certificate (PEM) as [source] ca_file",
        ),
        (
            server("127.0.0.1", 993, PASSWORD),
            "IMAP 127.0.0.1:993: TLS failed: the server's certificate is not for the host name 127.0.0.1 but for localhost; write the name it is for as [source] host",
        ),
        (
            server("127.0.0.2", 993, PASSWORD),
            "IMAP 127.0.0.2:993: TLS failed: the server's certificate expired on 2020-02-01; its administrator must renew it",
        ),
        (
            format!("host = \"localhost\"\nport = 143\nusername = \"{BOT}\"\n{PASSWORD}"),
            "IMAP localhost:143: TLS failed: the server's certificate is signed by a certificate authority not known here",
        ),
    ];
    for (source, words) in &table {
        refused(&clerk_with(source, &good_smtp), words);
    }
    // SMTP: doctor says what is wrong in its line; a poll keeps the
    // forward in the outbox for a run that can send it.
    let good_imap = server("localhost", 993, PASSWORD);
    let smtp_table = [
        (
            format!("host = \"localhost\"\nport = 465\nusername = \"{BOT}\"\n{PASSWORD}"),
            "FAIL  transport   SMTP localhost:465: TLS failed: the server's certificate is signed by a certificate authority not known here; if the server has one of its own, give that authority's certificate (PEM) as [transport] ca_file",
        ),
        (
            server("127.0.0.1", 587, PASSWORD),
            "FAIL  transport   SMTP 127.0.0.1:587: TLS failed: the server's certificate is not for the host name 127.0.0.1 but for localhost; write the name it is for as [transport] host",
        ),
        (
            server("127.0.0.2", 465, PASSWORD),
            "FAIL  transport   SMTP 127.0.0.2:465: TLS failed: the server's certificate expired on 2020-02-01; its administrator must renew it",
        ),
    ];
    for (transport, words) in &smtp_table {
        let out = clerk_with(&good_imap, transport).run(&["doctor"]);
        assert_eq!(out.code, 1, "{}", out.stdout);
        assert!(out.stdout.contains(words), "{words}:\n{}", out.stdout);
    }
    let clerk = clerk_with(&good_imap, &smtp_table[2].0);
    let out = clerk.run(&["poll"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout.contains("send-failed") && out.stdout.contains("expired on 2020-02-01"),
        "{}",
        out.stdout
    );
    assert!(mailbox(BLACK).is_empty());
    // Mended, the same tournament sends what waited (tomorrow: the retry's
    // pause is over), once.
    let path = clerk.dir.path().join("shtempel.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("127.0.0.2", "localhost")).unwrap();
    let tomorrow = (today() + chrono::Days::new(1)).to_string();
    let out = clerk.run(&["poll", "--today", &tomorrow]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert_eq!(wait_for(BLACK, 1).len(), 1, "{:?}", subjects(BLACK));

    // The letter the refused IMAP runs saw is still new to a good one.
    a_letter_waits();
    forwarded(&clerk_with(&good_imap, &good_smtp));
}

/// XOAUTH2 and OAUTHBEARER with the token a `password_command` prints, run
/// at each login (once for IMAP, once for SMTP); an expired token refused
/// with the server's error in one line; a command that fails named with
/// what it said.
#[test]
fn an_access_token_from_a_password_command_logs_in_by_xoauth2_and_oauthbearer() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    for (auth, imap, smtp) in [("xoauth2", 993, 465), ("oauthbearer", 143, 587)] {
        a_letter_waits();
        let logins = tempfile::NamedTempFile::new().unwrap();
        let helper = format!(
            "auth = \"{auth}\"\npassword_command = \"echo login >> {}; echo good-bot\"",
            logins.path().display()
        );
        let clerk = clerk_with(
            &server("localhost", imap, &helper),
            &server("localhost", smtp, &helper),
        );
        let out = clerk.run(&["doctor"]);
        let by = auth.to_uppercase();
        assert!(
            out.stdout.contains(&format!(
                "IMAP localhost:{imap} as bot@test.local by {by}, mailbox"
            )) && out
                .stdout
                .contains(&format!("SMTP localhost:{smtp} as bot@test.local by {by};")),
            "{}",
            out.stdout
        );
        std::fs::write(logins.path(), "").unwrap();
        forwarded(&clerk);
        let runs = std::fs::read_to_string(logins.path()).unwrap();
        assert_eq!(runs.lines().count(), 2, "{auth}: one run a login: {runs:?}");
    }
    a_letter_waits();
    let expired = "auth = \"xoauth2\"\npassword_command = \"echo expired-bot\"";
    refused(
        &clerk_with(
            &server("localhost", 993, expired),
            &server("localhost", 465, PASSWORD),
        ),
        r#"IMAP login to localhost:993 as bot@test.local by XOAUTH2 failed: NO [AUTHENTICATIONFAILED] Authentication failed. (its OAuth error: {"status":"401","schemes":"bearer","scope":"mail"}); check the user name, and that `echo expired-bot` prints a fresh access token for it"#,
    );
    let out = clerk_with(
        &server("localhost", 993, PASSWORD),
        &server("localhost", 465, expired),
    )
    .run(&["doctor"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout.contains(r#"FAIL  transport   SMTP localhost:465: 535 5.7.8 Error: authentication failed: (reason unavailable) (logging in as bot@test.local by XOAUTH2; its OAuth error: {"status":"401","schemes":"bearer","scope":"mail"}); check the user name, and that `echo expired-bot` prints a fresh access token for it"#),
        "{}",
        out.stdout
    );
    // A poll with it keeps the messages for a later run (a refused login
    // is not the messages' fault), having tried to log in once, not once a
    // message (a provider locks an account that fails over and over): sent
    // once the token is good again.
    let logins = tempfile::NamedTempFile::new().unwrap();
    let expired_logged = format!(
        "auth = \"xoauth2\"\npassword_command = \"echo login >> {}; echo expired-bot\"",
        logins.path().display()
    );
    let clerk = clerk_with(
        &server("localhost", 993, PASSWORD),
        &server("localhost", 465, &expired_logged),
    );
    let out = clerk.run(&["poll"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert_eq!(
        out.stdout.matches("535 5.7.8").count(),
        2,
        "the ack and the forward: {}",
        out.stdout
    );
    assert_eq!(
        out.stdout.matches("(will retry)").count(),
        2,
        "{}",
        out.stdout
    );
    let runs = std::fs::read_to_string(logins.path()).unwrap();
    assert_eq!(runs.lines().count(), 1, "one login a run: {runs:?}");
    let path = clerk.dir.path().join("shtempel.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("expired-bot", "good-bot")).unwrap();
    let tomorrow = (today() + chrono::Days::new(1)).to_string();
    let out = clerk.run(&["poll", "--today", &tomorrow]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert_eq!(wait_for(BLACK, 1).len(), 1, "{:?}", subjects(BLACK));

    a_letter_waits();
    let failing = "auth = \"oauthbearer\"\npassword_command = \"echo 'the refresh token was revoked' >&2; exit 4\"";
    refused(
        &clerk_with(
            &server("localhost", 993, failing),
            &server("localhost", 465, PASSWORD),
        ),
        "IMAP localhost:993: password_command `echo 'the refresh token was revoked' >&2; exit 4` failed (exit status: 4): the refresh token was revoked; check [source] password_command",
    );
    // None of them took the letter.
    forwarded(&clerk_with(
        &server("localhost", 993, PASSWORD),
        &server("localhost", 465, PASSWORD),
    ));
}

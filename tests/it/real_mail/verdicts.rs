//! The server's verdict through the real verdict writers of the test stack
//! (tests/mailstack.sh): OpenDKIM and OpenDMARC as Postfix milters (set up
//! with AlwaysAddARHeader and RemoveARFrom, and as Debian installs
//! OpenDKIM), rspamd as a milter, and delivery through Dovecot's LMTP under
//! the same host name. A letter signed by the stack's own OpenDKIM (for
//! player.test, its key served by the stack's resolver) and letters forged
//! every way the issue names are sent through each, and the clerk's check
//! reads what was delivered: the genuine taken, every forgery refused.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;

use shtempel::config::{Alignment, Require, Security, TrustedId};
use shtempel::mail::format::{auth, mime};

use super::*;

const ARBITER_OF_PLAYERS: &str = "arbiter@player.test";

/// One SMTP conversation with a listener of the stack: `helo` as the
/// client's name (an attacker's forms included), the letter dot-stuffed.
fn smtp_raw(port: u16, helo: &str, mail_from: &str, rcpt: &str, raw: &[u8]) {
    let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    let reply = |reader: &mut BufReader<TcpStream>, what: &str| {
        let mut line = String::new();
        loop {
            line.clear();
            assert_ne!(reader.read_line(&mut line).unwrap(), 0, "{what}: closed");
            if line.as_bytes().get(3) != Some(&b'-') {
                break;
            }
        }
        assert!(
            line.starts_with('2') || line.starts_with('3'),
            "port {port}, {what}: {line}"
        );
    };
    reply(&mut reader, "greeting");
    for (command, what) in [
        (format!("EHLO {helo}"), "EHLO"),
        (format!("MAIL FROM:<{mail_from}>"), "MAIL FROM"),
        (format!("RCPT TO:<{rcpt}>"), "RCPT TO"),
        ("DATA".to_string(), "DATA"),
    ] {
        write!(writer, "{command}\r\n").unwrap();
        reply(&mut reader, what);
    }
    let text = String::from_utf8_lossy(raw).replace("\r\n", "\n");
    for line in text.lines() {
        let dot = if line.starts_with('.') { "." } else { "" };
        write!(writer, "{dot}{line}\r\n").unwrap();
    }
    write!(writer, ".\r\n").unwrap();
    reply(&mut reader, "the letter");
    write!(writer, "QUIT\r\n").unwrap();
}

/// The letter of `user`'s Maildir whose Message-ID is `id`, once it came.
fn delivered(user: &str, id: &str) -> Vec<u8> {
    let start = Instant::now();
    let needle = format!("Message-ID: <{id}>");
    loop {
        for sub in ["new", "cur"] {
            for entry in std::fs::read_dir(maildir(user).join(sub))
                .into_iter()
                .flatten()
                .flatten()
            {
                let raw = std::fs::read(entry.path()).unwrap_or_default();
                if String::from_utf8_lossy(&raw).contains(&needle) {
                    return raw;
                }
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{id} never reached {user}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A letter of the chief arbiter of player.test, as his program writes it.
fn order(id: &str, extra_head: &str) -> String {
    format!(
        "{extra_head}From: Chief Arbiter <{ARBITER_OF_PLAYERS}>\r\nTo: {BOT}\r\nSubject: Re: [R #1]\r\n\
         Message-ID: <{id}>\r\nDate: Sun, 06 Dec 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\nFORFEIT 1 WHITE\r\n"
    )
}

/// `letter` as it leaves player.test's own server: signed by its OpenDKIM
/// (the stack's listener 2600), without what local delivery added.
fn signed(letter: &str, id: &str) -> Vec<u8> {
    smtp_raw(
        2600,
        "smtp.player.test",
        ARBITER_OF_PLAYERS,
        "signed@test.local",
        letter.as_bytes(),
    );
    let raw = String::from_utf8(delivered("signed", id)).unwrap();
    assert!(raw.contains("DKIM-Signature:"), "not signed:\n{raw}");
    raw.lines()
        .filter(|line| {
            !["Return-Path:", "X-Original-To:", "Delivered-To:"]
                .iter()
                .any(|field| line.starts_with(field))
        })
        .map(|line| format!("{line}\r\n"))
        .collect::<String>()
        .into_bytes()
}

/// What the clerk's check makes of a delivered letter, `require` asked.
fn check(raw: &[u8], require: Require) -> Result<(), String> {
    let mail = mime::parse(raw, BOT).expect("a letter");
    let security = Security {
        trusted: vec![TrustedId::Host("mail.test.local".into())],
        require,
        alignment: Alignment::Strict,
    };
    auth::verify(&mail, &security, None).map_err(|why| why.to_string())
}

/// The stack's verdict writers: a listener port, what it is, and the
/// recipient (Dovecot's LMTP delivers `bot+lmtp`).
const WRITERS: &[(u16, &str, &str)] = &[
    (2526, "OpenDKIM + OpenDMARC", BOT),
    (2527, "rspamd", BOT),
    (2528, "OpenDKIM as Debian installs it + OpenDMARC", BOT),
    (
        2526,
        "OpenDKIM + OpenDMARC, then Dovecot's LMTP",
        "bot+lmtp@test.local",
    ),
    (2527, "rspamd, then Dovecot's LMTP", "bot+lmtp@test.local"),
];

/// A forged pass under the trusted id, for player.test.
const FORGED: &str = "Authentication-Results: mail.test.local; dkim=pass header.d=player.test header.s=sel; spf=pass smtp.mailfrom=arbiter@player.test\r\n";
/// The attacker's own receipt under the trusted name.
const HIS_RECEIPT: &str = "Received: from smtp.player.test (smtp.player.test [203.0.113.5])\r\n\tby mail.test.local (Postfix) with ESMTPS id 4BC; Sun, 6 Dec 2026 09:59:00 +0000\r\n";
/// A signature of player.test that does not verify (its key is real).
const BOGUS_SIGNATURE: &str = "DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=player.test; s=sel;\r\n\th=From:To:Subject; bh=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=;\r\n\tb=dGhpcyBpcyBub3QgYSBzaWduYXR1cmU=\r\n";

#[test]
fn genuine_letters_pass_and_every_forgery_is_refused_through_each_real_verdict_writer() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    let run = std::process::id();
    // (what the attacker did, his HELO, his header above the letter's)
    let forgeries: Vec<(&str, &str, String)> = vec![
        (
            "nothing but an unsigned letter",
            "smtp.evil.example",
            String::new(),
        ),
        ("his pass on top", "smtp.evil.example", FORGED.to_string()),
        (
            "his pass above his own receipt by the trusted id",
            "smtp.evil.example",
            format!("{FORGED}{HIS_RECEIPT}"),
        ),
        (
            "his pass below his own receipt by the trusted id",
            "smtp.evil.example",
            format!("{HIS_RECEIPT}{FORGED}"),
        ),
        (
            "his pass on both sides of his receipt",
            "smtp.evil.example",
            format!("{FORGED}{HIS_RECEIPT}{FORGED}"),
        ),
        (
            "two passes",
            "smtp.evil.example",
            format!("{FORGED}{FORGED}"),
        ),
        (
            "a signature of player.test that does not verify, and his pass",
            "smtp.evil.example",
            format!("{FORGED}{BOGUS_SIGNATURE}"),
        ),
        ("HELO by", "by", format!("{FORGED}{HIS_RECEIPT}")),
        ("HELO BY", "BY", format!("{HIS_RECEIPT}{FORGED}")),
        ("HELO (x", "(x", format!("{FORGED}{HIS_RECEIPT}")),
        ("HELO \"x", "\"x", format!("{HIS_RECEIPT}{FORGED}")),
    ];
    for (port, writer, rcpt) in WRITERS {
        let id = format!("genuine-{port}-{}-{run}@player.test", rcpt.len());
        let letter = signed(&order(&id, ""), &id);
        smtp_raw(*port, "smtp.player.test", ARBITER_OF_PLAYERS, rcpt, &letter);
        let raw = delivered("bot", &id);
        let text = String::from_utf8_lossy(&raw);
        assert_eq!(
            check(&raw, Require::Dkim),
            Ok(()),
            "{writer}: signed\n{text}"
        );
        assert_eq!(check(&raw, Require::Spf), Ok(()), "{writer}: SPF\n{text}");
        for (n, (attack, helo, head)) in forgeries.iter().enumerate() {
            let id = format!("forged-{n}-{port}-{}-{run}@evil.example", rcpt.len());
            // His envelope sender is his own: SPF has nothing of
            // player.test to pass.
            smtp_raw(
                *port,
                helo,
                "attacker@evil.example",
                rcpt,
                order(&id, head).as_bytes(),
            );
            let raw = delivered("bot", &id);
            let text = String::from_utf8_lossy(&raw);
            for require in [Require::Dkim, Require::Spf] {
                assert!(
                    check(&raw, require).is_err(),
                    "{writer}, {attack}, {require:?}: taken\n{text}"
                );
            }
        }
    }
}

/// A tournament reading the bot's mailbox over IMAP whose chief arbiter
/// writes from player.test, with `[security] require` as given.
fn secured_clerk(require: &str) -> Clerk {
    let clerk = Clerk::new(3, "");
    let path = clerk.dir.path().join("shtempel.toml");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace(
            &format!("chief_arbiter = \"{ARBITER}\""),
            &format!("chief_arbiter = \"{ARBITER_OF_PLAYERS}\""),
        )
        .replace(
            "[source]",
            &format!(
                "[security]\ntrusted_authserv_id = \"mail.test.local\"\nrequire = \"{require}\"\n\n[source]"
            ),
        );
    std::fs::write(&path, text).unwrap();
    clerk
}

/// The doctor's `security` line.
fn security_line(clerk: &Clerk) -> String {
    let out = clerk.run(&["doctor"]);
    out.stdout
        .lines()
        .find(|line| line.contains(" security "))
        .unwrap_or_else(|| panic!("no security line:\n{}{}", out.stdout, out.stderr))
        .to_string()
}

#[test]
fn doctor_reads_the_real_servers_verdicts_in_the_imap_mailbox() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    clear_mailboxes();
    let run = std::process::id();
    let clerk = secured_clerk("dkim");
    for (n, port) in [2527, 2528, 2526].into_iter().enumerate() {
        let id = format!("doctor-{n}-{run}@player.test");
        let letter = signed(&order(&id, ""), &id);
        smtp_raw(port, "smtp.player.test", ARBITER_OF_PLAYERS, BOT, &letter);
        delivered("bot", &id);
    }
    assert_eq!(
        security_line(&clerk),
        "ok    security    mail.test.local wrote a dkim verdict on each of the last 3 signed letters (3 read); the topmost decides"
    );
    // A signed letter that came by a listener with no verifier (2525).
    let id = format!("doctor-unverified-{run}@player.test");
    let letter = signed(&order(&id, ""), &id);
    smtp_raw(2525, "smtp.player.test", ARBITER_OF_PLAYERS, BOT, &letter);
    delivered("bot", &id);
    let line = security_line(&clerk);
    assert!(
        line.starts_with("warn  security    mail.test.local wrote no dkim verdict on 1 of the last 4 signed letters"),
        "{line}"
    );
    // OpenDMARC and rspamd write SPF's result on every letter they see.
    let line = security_line(&secured_clerk("spf"));
    assert!(
        line.starts_with(
            "warn  security    mail.test.local wrote no spf verdict on 1 of the last 4 letters"
        ),
        "{line}"
    );
}

#[test]
fn the_arbiters_genuine_order_is_carried_out_and_a_forged_one_is_not_through_rspamd_and_lmtp() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    clear_mailboxes();
    let run = std::process::id();
    let clerk = secured_clerk("dkim");
    // The forgery first: HELO "by", his pass around his own receipt.
    let id = format!("forfeit-forged-{run}@evil.example");
    smtp_raw(
        2527,
        "by",
        "attacker@evil.example",
        "bot+lmtp@test.local",
        order(&id, &format!("{FORGED}{HIS_RECEIPT}{FORGED}")).as_bytes(),
    );
    delivered("bot", &id);
    let out = clerk.poll();
    assert!(out.stdout.contains("forged"), "{}", out.stdout);
    assert_eq!(clerk.chart()["result"], serde_json::Value::Null);
    let told = wait_for(ARBITER, 1);
    assert_eq!(told.len(), 1);
    assert_eq!(told[0].kind, "unverified");
    // The chief arbiter's own letter, signed by his server.
    let id = format!("forfeit-genuine-{run}@player.test");
    let letter = signed(&order(&id, ""), &id);
    smtp_raw(
        2527,
        "smtp.player.test",
        ARBITER_OF_PLAYERS,
        "bot+lmtp@test.local",
        &letter,
    );
    delivered("bot", &id);
    let out = clerk.poll();
    assert!(!out.stdout.contains("forged"), "{}", out.stdout);
    assert_eq!(clerk.chart()["result"], "0-1", "{}", out.stdout);
    let told = wait_for(ARBITER, 2);
    assert_eq!(told[1].kind, "order-done", "{:?}", subjects(ARBITER));
}

use super::*;
use crate::mail::format::mime;

/// The receiving server's receipt of a letter from outside.
const RECEIPT: &str = "Received: from mail-sor-f41.google.com (mail-sor-f41.google.com [209.85.220.41])\r\n\tby mail.example.net (Postfix) with ESMTPS id 4BC\r\n\tfor <clerk@example.net>; Thu, 12 Nov 2026 10:00:00 +0000\r\n";
/// Dovecot's LMTP delivery on top of it, by a host of another name.
const LMTP: &str = "Received: from mail.example.net by imap.example.net with LMTP id 7; Thu, 12 Nov 2026 10:00:01 +0000\r\n";
/// What the sender's own server wrote (below the receipt).
const SENDERS_HOP: &str =
    "Received: by 2002:a05:6000:1::1 with SMTP id x; Thu, 12 Nov 2026 09:59:58 +0000\r\n";

fn header(field: &str) -> String {
    format!("Authentication-Results: {field}\r\n")
}

/// Whether a letter from arbiter@example.org whose header is `trace` (top
/// first) passes `method` checked by `trusted`.
fn passes(trace: &str, trusted: &str, method: Require) -> Result<(), Unverified> {
    let raw = format!(
        "{trace}From: Arbiter <arbiter@Example.org>\r\nTo: clerk@example.net\r\nSubject: Re: [T #1]\r\nMessage-ID: <a@example.org>\r\n\r\nRESULT 1 1-0\r\n"
    );
    let mail = mime::parse(raw.as_bytes(), "clerk@example.net").expect("a letter");
    let security = Security {
        trusted_authserv_id: Some(trusted.into()),
        require: method,
    };
    verify(&mail, &security, None)
}

const ID: &str = "mail.example.net";

#[test]
fn each_forged_form_is_refused() {
    let dkim_none = header("mail.example.net; dkim=none");
    let forged_pass = header("mail.example.net; dkim=pass header.d=example.org");
    // (what the attacker did, the header top first)
    let table: Vec<(&str, String)> = vec![
        (
            "a pass inside a quoted local part",
            header(
                "mail.example.net; spf=pass smtp.mailfrom=\"x;dkim=pass header.d=example.org\"@evil.example",
            ) + RECEIPT,
        ),
        (
            "a pass inside a comment",
            header(
                "mail.example.net; dkim=fail (key; dkim=pass header.d=example.org) header.d=evil.example",
            ) + RECEIPT,
        ),
        (
            "a pass after a semicolon inside a quoted reason",
            header(
                "mail.example.net; dkim=fail reason=\"bad; dkim=pass header.d=example.org\" header.d=example.org",
            ) + RECEIPT,
        ),
        (
            "a pass in a HELO value",
            header(
                "mail.example.net; spf=none smtp.helo=\"x;dkim=pass header.d=example.org\"; dkim=none",
            ) + RECEIPT,
        ),
        (
            "the attacker's domain signed, the right one in other properties",
            header(
                "mail.example.net; dkim=pass header.d=evil.example header.from=example.org smtp.mailfrom=arbiter@example.org",
            ) + RECEIPT,
        ),
        (
            "no authserv-id",
            header("dkim=pass header.d=example.org") + RECEIPT,
        ),
        (
            "an empty authserv-id",
            header("; dkim=pass header.d=example.org") + RECEIPT,
        ),
        (
            "the trusted id as the method",
            header("mail.example.net=pass; dkim=pass header.d=example.org") + RECEIPT,
        ),
        (
            "his own pass below the server's receipt",
            dkim_none.clone() + RECEIPT + &forged_pass + SENDERS_HOP,
        ),
        (
            "straight to our server, his pass just below its receipt",
            RECEIPT.to_string() + &forged_pass,
        ),
        (
            "straight to our server, his own receipt under the trusted name too",
            dkim_none.clone()
                + RECEIPT
                + &forged_pass
                + "Received: from x by mail.example.net; Thu, 12 Nov 2026 09:00:00 +0000\r\n",
        ),
        (
            "another server's pass on top",
            header("mx.evil.example; dkim=pass header.d=example.org") + RECEIPT,
        ),
        (
            "the server's field cut off by an unclosed comment",
            header("mail.example.net; dkim=pass (unclosed header.d=example.org") + RECEIPT,
        ),
        (
            "a pass for a subdomain",
            header("mail.example.net; dkim=pass header.d=mail.example.org") + RECEIPT,
        ),
    ];
    for (attack, trace) in &table {
        let verdict = passes(trace, ID, Require::Dkim);
        assert!(
            matches!(verdict, Err(Unverified::NoPass { .. })),
            "{attack}: {verdict:?}"
        );
    }
}

#[test]
fn the_genuine_forms_real_servers_write_pass() {
    // (the server, its authserv-id, the method required, the header)
    let table: Vec<(&str, &str, Require, String)> = vec![
        (
            "folded over lines, a comment with a semicolon",
            ID,
            Require::Dkim,
            header(
                "mail.example.net;\r\n\tdkim=pass (2048-bit key; unprotected) header.d=example.org\r\n\theader.i=@example.org header.a=rsa-sha256 header.s=mail header.b=\"AbCd/+Ef\"",
            ) + RECEIPT
                + SENDERS_HOP,
        ),
        (
            "Postfix, OpenDMARC's field above OpenDKIM's, Dovecot's LMTP on top",
            ID,
            Require::Dkim,
            LMTP.to_string()
                + &header("mail.example.net; dmarc=pass (p=reject dis=none) header.from=example.org")
                + &header("mail.example.net;\r\n\tdkim=pass (2048-bit key; unprotected) header.d=example.org header.i=@example.org header.b=\"AbCdEfGh\"")
                + RECEIPT
                + SENDERS_HOP,
        ),
        (
            "OpenDMARC's SPF field above, OpenDKIM's below",
            ID,
            Require::Spf,
            header("mail.example.net; spf=pass smtp.mailfrom=arbiter@example.org")
                + &header("mail.example.net; dkim=fail header.d=example.org")
                + RECEIPT,
        ),
        (
            "a version number",
            ID,
            Require::Dkim,
            header("mail.example.net 1; dkim=pass header.d=example.org") + RECEIPT,
        ),
        (
            "spaces around =",
            ID,
            Require::Dkim,
            header("mail.example.net; dkim = pass header.d = example.org") + RECEIPT,
        ),
        (
            "two signatures, one bad",
            ID,
            Require::Dkim,
            header("mail.example.net; dkim=fail header.d=list.example; dkim=pass header.d=example.org")
                + RECEIPT,
        ),
        (
            "Gmail",
            "mx.google.com",
            Require::Dkim,
            header("mx.google.com;\r\n       dkim=pass header.i=@example.org header.s=sel1 header.b=Kx8L2+/q;\r\n       spf=pass (google.com: domain of arbiter@example.org designates 203.0.113.5 as permitted sender) smtp.mailfrom=arbiter@example.org;\r\n       dmarc=pass (p=REJECT sp=REJECT dis=NONE) header.from=example.org")
                + "Received: from mail.example.org (mail.example.org. [203.0.113.5])\r\n        by mx.google.com with ESMTPS id x;\r\n        Thu, 12 Nov 2026 10:00:00 -0800 (PST)\r\n",
        ),
        (
            "Yandex, SPF by smtp.mail",
            "mxfront1q.mail.yandex.net",
            Require::Spf,
            "Received: from mxfront1q.mail.yandex.net by mxback.mail.yandex.net with LMTP id 9; Thu, 12 Nov 2026 13:00:01 +0300\r\n".to_string()
                + &header("mxfront1q.mail.yandex.net; spf=pass (mxfront1q.mail.yandex.net: domain of example.org designates 203.0.113.5 as permitted sender, rule=[ip4:203.0.113.0/24]) smtp.mail=arbiter@example.org; dkim=pass header.i=@example.org")
                + "Received: from mail.example.org (mail.example.org [203.0.113.5])\r\n\tby mxfront1q.mail.yandex.net (Yandex) with ESMTPS id x; Thu, 12 Nov 2026 13:00:00 +0300\r\n",
        ),
        (
            "Mail.ru",
            "mxs.mail.ru",
            Require::Dkim,
            header("mxs.mail.ru; spf=pass (mx123.i.mail.ru: domain of example.org designates 203.0.113.5 as permitted sender) smtp.mailfrom=arbiter@example.org smtp.helo=mail.example.org;\r\n\t dkim=pass header.d=example.org; dmarc=pass header.from=arbiter@example.org")
                + "Received: by f123.i.mail.ru with local (envelope-from <arbiter@example.org>)\r\n\tid 1x; Thu, 12 Nov 2026 13:00:00 +0300\r\n",
        ),
        (
            "Fastmail",
            "mx3.messagingengine.com",
            Require::Dkim,
            header("mx3.messagingengine.com;\r\n    dkim=pass (2048-bit rsa key sha256) header.d=example.org header.i=@example.org header.b=Abc/dEf+ header.a=rsa-sha256 header.s=sel x-bits=2048;\r\n    dmarc=pass policy.published-domain-policy=reject (p=reject,d=none,d.eval=none) header.from=example.org;\r\n    spf=pass smtp.mailfrom=arbiter@example.org smtp.helo=mail.example.org;\r\n    x-vs=clean score=-100 state=0")
                + "Received: from mail.example.org (mail.example.org [203.0.113.5])\r\n\t(using TLSv1.3)\r\n\tby mx3.messagingengine.com (Postfix) with ESMTPS id x; Thu, 12 Nov 2026 05:00:00 -0500\r\n",
        ),
        (
            "rspamd",
            ID,
            Require::Dkim,
            header("mail.example.net;\r\n\tdkim=pass header.d=example.org header.s=dkim header.b=AbC123;\r\n\tdmarc=pass (policy=reject) header.from=example.org;\r\n\tspf=pass (mail.example.net: domain of arbiter@example.org designates 203.0.113.5 as permitted sender) smtp.mailfrom=arbiter@example.org")
                + RECEIPT,
        ),
        (
            "a letter that came by no SMTP hop (the director's own Maildir)",
            ID,
            Require::Dkim,
            header("mail.example.net; dkim=pass header.d=example.org"),
        ),
    ];
    for (server, trusted, method, trace) in &table {
        let verdict = passes(trace, trusted, *method);
        assert_eq!(verdict, Ok(()), "{server}");
    }
}

#[test]
fn microsoft_365_writes_no_authserv_id_so_it_can_vouch_for_nobody() {
    let field = header(
        "spf=pass (sender IP is 203.0.113.5) smtp.mailfrom=example.org; dkim=pass (signature was verified) header.d=example.org;dmarc=pass action=none header.from=example.org;compauth=pass reason=100",
    );
    let receipt = "Received: from EUR05-AM6-obe.outbound.protection.outlook.com (40.107.22.1)\r\n by AM4PEPF00027A5F.mail.protection.outlook.com (10.167.16.73) with Microsoft SMTP Server; Thu, 12 Nov 2026 10:00:00 +0000\r\n";
    let verdict = passes(
        &(field + receipt),
        "AM4PEPF00027A5F.mail.protection.outlook.com",
        Require::Dkim,
    );
    let Err(Unverified::NoPass { found, .. }) = verdict else {
        panic!("{verdict:?}");
    };
    assert_eq!(
        found.to_string(),
        "1 field(s) above its receipt could not be read"
    );
}

#[test]
fn the_refusal_says_what_the_server_said() {
    let said = |trace: &str| match passes(trace, ID, Require::Dkim) {
        Err(Unverified::NoPass { found, .. }) => found.to_string(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        said(&(header("mail.example.net; dkim=fail header.d=example.org") + RECEIPT)),
        "it said dkim=fail for example.org"
    );
    assert_eq!(
        said(&(header("mail.example.net; dkim=pass header.d=evil.example") + RECEIPT)),
        "it said dkim=pass for evil.example"
    );
    assert_eq!(
        said(&(header("mail.example.net; spf=pass smtp.mailfrom=example.org") + RECEIPT)),
        "it said nothing of dkim"
    );
    assert_eq!(said(RECEIPT), "it wrote no field above its receipt");
}

//! The rule on the forms an attacker writes. The layouts real servers
//! write, each from a public sample, are tested in tests/it/verdicts.rs,
//! and through the real milters in tests/it/real_mail/verdicts.rs.

use super::*;
use crate::config::Alignment;
use crate::mail::format::mime;

const ID: &str = "mail.example.net";

/// Our server's receipt, as Postfix writes it.
const RECEIPT: &str = "Received: from mail.example.org (mail.example.org [203.0.113.5])\r\n\tby mail.example.net (Postfix) with ESMTPS id 4BC\r\n\tfor <clerk@example.net>; Thu, 12 Nov 2026 10:00:00 +0000\r\n";
/// The sender's signature of his own domain.
const SIGNED: &str = "DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=example.org; s=sel;\r\n\th=From:To:Subject; bh=AbC=; b=DeF\r\n";

fn field(value: &str) -> String {
    format!("Authentication-Results: {value}\r\n")
}

fn trusted(ids: &[&str]) -> Vec<TrustedId> {
    ids.iter()
        .map(|id| match id.strip_prefix("*.") {
            Some(domain) => TrustedId::Under(domain.to_string()),
            None => TrustedId::Host(id.to_string()),
        })
        .collect()
}

/// What the check says of a letter from arbiter@example.org whose header
/// starts with `head` (top first).
fn verdict(
    head: &str,
    ids: &[&str],
    require: Require,
    alignment: Alignment,
) -> Result<(), Unverified> {
    let raw = format!(
        "{head}From: Arbiter <arbiter@Example.org>\r\nTo: clerk@example.net\r\nSubject: Re: [T #1]\r\nMessage-ID: <a@example.org>\r\n\r\nRESULT 1 1-0\r\n"
    );
    let mail = mime::parse(raw.as_bytes(), "clerk@example.net").expect("a letter");
    let security = Security {
        trusted: trusted(ids),
        require,
        alignment,
    };
    verify(&mail, &security, None)
}

fn dkim(head: &str) -> Result<(), Unverified> {
    verdict(head, &[ID], Require::Dkim, Alignment::Strict)
}

/// What the log says of a refused letter.
fn said(head: &str) -> String {
    match dkim(head) {
        Err(Unverified::NoPass { found, .. }) => found.to_string(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_servers_own_pass_is_taken_above_or_below_its_receipt() {
    let pass = field("mail.example.net; dkim=pass header.d=example.org");
    assert_eq!(dkim(&(pass.clone() + RECEIPT + SIGNED)), Ok(()));
    assert_eq!(dkim(&(RECEIPT.to_string() + &pass + SIGNED)), Ok(()));
}

#[test]
fn each_forged_form_is_refused() {
    let forged = field("mail.example.net; dkim=pass header.d=example.org");
    let none = field("mail.example.net; dkim=none");
    let fail = field("mail.example.net; dkim=fail header.d=example.org");
    let his_receipt = "Received: from x by mail.example.net (Postfix) with ESMTP id 1; Thu, 12 Nov 2026 09:00:00 +0000\r\n";
    // (what the attacker did, the header top first)
    let table: Vec<(&str, String)> = vec![
        (
            "his pass below the server's none, under its receipt",
            none.clone() + RECEIPT + &forged + SIGNED,
        ),
        (
            "his pass below the server's none, the server's field below the receipt",
            RECEIPT.to_string() + &none + &forged + SIGNED,
        ),
        (
            "his pass above a receipt of his own naming the trusted id",
            none.clone() + RECEIPT + &forged + his_receipt + SIGNED,
        ),
        (
            "his pass below a receipt of his own naming the trusted id",
            none.clone() + RECEIPT + his_receipt + &forged + SIGNED,
        ),
        (
            "his pass on both sides of his receipt",
            fail.clone() + RECEIPT + &forged + his_receipt + &forged + SIGNED,
        ),
        (
            "two forged passes below the server's fail",
            fail.clone() + &forged + &forged + SIGNED,
        ),
        (
            "a pass where the server wrote nothing of DKIM, on an unsigned letter",
            field("mail.example.net; spf=neutral smtp.mailfrom=arbiter@example.org")
                + RECEIPT
                + &forged,
        ),
        (
            "a pass where the server wrote no field, on an unsigned letter",
            RECEIPT.to_string() + &forged,
        ),
        (
            "a pass naming another signer's domain than the letter's signature",
            RECEIPT.to_string()
                + &field("mail.example.net; dkim=pass header.d=example.org")
                + "DKIM-Signature: v=1; d=evil.example; s=sel; b=x\r\n",
        ),
    ];
    assert_all_refused(&table);
}

/// The server's own field read word by word: a pass hidden in a quoted
/// string, a comment or a reason, or named for another domain, signer or
/// server, is no pass.
#[test]
fn each_forged_field_is_refused() {
    let forged = field("mail.example.net; dkim=pass header.d=example.org");
    let table: Vec<(&str, String)> = vec![
        (
            "a pass inside a quoted local part",
            field(
                "mail.example.net; spf=pass smtp.mailfrom=\"x;dkim=pass header.d=example.org\"@evil.example",
            ) + RECEIPT
                + SIGNED,
        ),
        (
            "a pass inside a comment",
            field(
                "mail.example.net; dkim=fail (key; dkim=pass header.d=example.org) header.d=evil.example",
            ) + SIGNED,
        ),
        (
            "a pass after a semicolon inside a quoted reason",
            field(
                "mail.example.net; dkim=fail reason=\"bad; dkim=pass header.d=example.org\" header.d=example.org",
            ) + SIGNED,
        ),
        (
            "the attacker's domain signed, the right one in other properties",
            field(
                "mail.example.net; dkim=pass header.d=evil.example header.from=example.org smtp.mailfrom=arbiter@example.org",
            ) + SIGNED,
        ),
        (
            "no authserv-id",
            field("dkim=pass header.d=example.org") + SIGNED,
        ),
        (
            "an empty authserv-id",
            field("; dkim=pass header.d=example.org") + SIGNED,
        ),
        (
            "the trusted id as the method",
            field("mail.example.net=pass; dkim=pass header.d=example.org") + SIGNED,
        ),
        (
            "another server's pass on top",
            field("mx.evil.example; dkim=pass header.d=example.org") + SIGNED,
        ),
        (
            "the trusted id as a subdomain of the attacker's",
            field("mail.example.net.evil.example; dkim=pass header.d=example.org") + SIGNED,
        ),
        (
            "the server's field cut off by an unclosed comment, his pass below",
            field("mail.example.net; dkim=fail (unclosed header.d=example.org") + &forged + SIGNED,
        ),
        (
            "a pass for a subdomain, alignment strict",
            field("mail.example.net; dkim=pass header.d=mail.example.org")
                + "DKIM-Signature: v=1; d=mail.example.org; s=sel; b=x\r\n",
        ),
    ];
    assert_all_refused(&table);
}

/// Each (attack, header) is refused for want of a pass.
fn assert_all_refused(table: &[(&str, String)]) {
    for (attack, head) in table {
        let verdict = dkim(head);
        assert!(
            matches!(verdict, Err(Unverified::NoPass { .. })),
            "{attack}: {verdict:?}"
        );
    }
}

#[test]
fn the_topmost_trusted_field_with_the_method_decides() {
    // OpenDMARC's field on top names no DKIM: the one below decides.
    let head = field("mail.example.net; dmarc=pass header.from=example.org")
        + &field("mail.example.net; dkim=pass header.d=example.org")
        + &field("mail.example.net; dkim=fail header.d=example.org")
        + SIGNED;
    assert_eq!(dkim(&head), Ok(()));
    // The fail on top decides, whatever passes below.
    let head = field("mail.example.net; dkim=fail header.d=example.org")
        + &field("mail.example.net; dkim=pass header.d=example.org")
        + SIGNED;
    assert_eq!(
        said(&head),
        "mail.example.net said dkim=fail for example.org"
    );
    // Two signatures in one field: one passing for the sender's domain is
    // enough.
    let head =
        field("mail.example.net; dkim=fail header.d=list.example; dkim=pass header.d=example.org")
            + SIGNED;
    assert_eq!(dkim(&head), Ok(()));
}

#[test]
fn a_trusted_field_that_cannot_be_read_decides_as_no_pass() {
    let head = field("mail.example.net; dkim=fail (unclosed")
        + &field("mail.example.net; dkim=pass header.d=example.org")
        + SIGNED;
    assert_eq!(
        said(&head),
        "a field of mail.example.net could not be read (unreadable at byte 29: the end of a comment expected)"
    );
}

#[test]
fn several_ids_and_patterns_are_trusted_a_bare_suffix_is_not_a_host() {
    let head = |id: &str| field(&format!("{id}; dkim=pass header.i=@example.org")) + SIGNED;
    let yandex = ["mx.example.net", "*.mail.yandex.net"];
    for (id, trusted) in [
        ("mxfront3q.mail.yandex.net", true),
        ("MXFRONT2G.Mail.Yandex.NET.", true),
        ("mx.example.net", true),
        ("mail.yandex.net", false),
        ("evilmail.yandex.net", false),
        ("mxfront3q.mail.yandex.net.evil.example", false),
    ] {
        let verdict = verdict(&head(id), &yandex, Require::Dkim, Alignment::Strict);
        assert_eq!(verdict.is_ok(), trusted, "{id}: {verdict:?}");
    }
}

#[test]
fn relaxed_alignment_takes_a_pass_for_a_subdomain_or_the_parent() {
    let signed_by = |domain: &str| {
        field(&format!("mail.example.net; dkim=pass header.d={domain}"))
            + &format!("DKIM-Signature: v=1; d={domain}; s=sel; b=x\r\n")
    };
    for (domain, strict, relaxed) in [
        ("example.org", true, true),
        ("mail.example.org", false, true),
        ("a.b.example.org", false, true),
        ("org", false, false),
        ("badexample.org", false, false),
        ("example.org.evil.example", false, false),
    ] {
        for (alignment, expected) in [(Alignment::Strict, strict), (Alignment::Relaxed, relaxed)] {
            let verdict = verdict(&signed_by(domain), &[ID], Require::Dkim, alignment);
            assert_eq!(
                verdict.is_ok(),
                expected,
                "{domain} {alignment:?}: {verdict:?}"
            );
        }
    }
}

#[test]
fn spf_reads_the_envelope_senders_domain_with_no_signature_needed() {
    let spf = |value: &str| verdict(&field(value), &[ID], Require::Spf, Alignment::Strict);
    assert_eq!(
        spf("mail.example.net; spf=pass smtp.mailfrom=arbiter@example.org"),
        Ok(())
    );
    assert_eq!(
        spf("mail.example.net; spf=pass smtp.mail=arbiter@example.org"),
        Ok(())
    );
    assert!(spf("mail.example.net; spf=pass smtp.mailfrom=bounce@evil.example").is_err());
    assert!(spf("mail.example.net; spf=pass smtp.helo=example.org").is_err());
    assert!(spf("mail.example.net; spf=softfail smtp.mailfrom=example.org").is_err());
}

#[test]
fn the_refusal_says_what_the_server_said() {
    assert_eq!(
        said(&(field("mail.example.net; dkim=pass header.d=evil.example") + SIGNED)),
        "mail.example.net said dkim=pass for evil.example"
    );
    assert_eq!(
        said(&(field("mail.example.net; dkim=none") + RECEIPT)),
        "mail.example.net said dkim=none"
    );
    assert_eq!(
        said(&(field("mail.example.net; spf=pass smtp.mailfrom=example.org") + RECEIPT)),
        "1 field(s) of the trusted server, none of them of dkim"
    );
    assert_eq!(
        said(RECEIPT),
        "no field of the trusted server said anything of dkim"
    );
    assert_eq!(
        said(&(RECEIPT.to_string() + &field("mail.example.net; dkim=pass header.d=example.org"))),
        "mail.example.net said dkim=pass for example.org, but the letter carries no signature of example.org: the field is not the server's"
    );
}

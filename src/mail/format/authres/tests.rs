use super::*;

/// `(ptype, property, value)`.
type Prop = (String, String, String);

/// Each result of a field as `(method, result, its properties)`.
fn results(field: &str) -> Vec<(String, String, Vec<Prop>)> {
    parse(field)
        .unwrap_or_else(|e| panic!("{field}: {e}"))
        .results
        .into_iter()
        .map(|r| {
            let properties = r
                .properties
                .into_iter()
                .map(|p| (p.ptype, p.property, p.value))
                .collect();
            (r.method, r.result, properties)
        })
        .collect()
}

fn prop(ptype: &str, property: &str, value: &str) -> Prop {
    (ptype.into(), property.into(), value.into())
}

#[test]
fn rfc_8601_appendix_b_examples_read_as_the_rfc_reads_them() {
    // B.2: a server that did no checks.
    let none = parse("example.org 1; none").unwrap();
    assert_eq!(none.authserv_id, "example.org");
    assert_eq!(none.version, Some(1));
    assert!(none.results.is_empty());
    // B.3: SPF.
    assert_eq!(
        results("example.com; spf=pass smtp.mailfrom=example.net"),
        [(
            "spf".into(),
            "pass".into(),
            vec![prop("smtp", "mailfrom", "example.net")]
        )]
    );
    // B.4: SMTP AUTH and SPF, then iprev.
    let auth = results(
        "example.com;\r\n          auth=pass (cram-md5) smtp.auth=sender@example.net;\r\n          spf=pass smtp.mailfrom=example.net",
    );
    assert_eq!(auth.len(), 2);
    assert_eq!(auth[0].2, [prop("smtp", "auth", "sender@example.net")]);
    assert_eq!(
        results("example.com; iprev=pass\r\n          policy.iprev=192.0.2.200")[0].2,
        [prop("policy", "iprev", "192.0.2.200")]
    );
    // B.5 and B.6: two DKIM signatures, one good, with comments.
    let dkim = results(
        "example.com;\r\n      dkim=pass (good signature) header.d=mail-router.example.net;\r\n      dkim=fail (bad signature) header.d=newyork.example.com",
    );
    assert_eq!(dkim[0].1, "pass");
    assert_eq!(dkim[0].2, [prop("header", "d", "mail-router.example.net")]);
    assert_eq!(dkim[1].1, "fail");
    let reasons = parse(
        "example.com; dkim=pass reason=\"good signature\" header.i=@mail-router.example.net; dkim=fail reason=\"bad signature\" header.i=@newyork.example.com",
    )
    .unwrap();
    assert_eq!(reasons.results[0].reason.as_deref(), Some("good signature"));
    assert_eq!(
        reasons.results[1].property("header", "i"),
        Some("@newyork.example.com")
    );
    // B.7: comments everywhere the grammar allows them.
    let comments = parse(
        "foo.example.net (foobar) 1 (baz);\r\n    dkim (Because I like it) / 1 (One yay) = (wait for it) fail\r\n      policy (A dot can go here) . (like that) expired\r\n      (this surprised me) = (as I wasn't expecting it) 1362471462",
    )
    .unwrap();
    assert_eq!(comments.authserv_id, "foo.example.net");
    assert_eq!(comments.version, Some(1));
    let dkim = &comments.results[0];
    assert_eq!(
        (dkim.method.as_str(), dkim.method_version),
        ("dkim", Some(1))
    );
    assert_eq!(dkim.result, "fail");
    assert_eq!(dkim.property("policy", "expired"), Some("1362471462"));
}

#[test]
fn what_stands_in_comments_and_quoted_strings_is_never_a_result() {
    // Each: the field, and the results it holds (method=result).
    let table: &[(&str, &[&str])] = &[
        (
            "mx.example.org; spf=pass smtp.mailfrom=\"x;dkim=pass header.d=example.org\"@evil.example",
            &["spf=pass"],
        ),
        (
            "mx.example.org; dkim=fail (dkim=pass header.d=example.org; spf=pass) header.d=evil.example",
            &["dkim=fail"],
        ),
        (
            "mx.example.org; dkim=fail reason=\"bad; dkim=pass header.d=example.org\" header.d=example.org",
            &["dkim=fail"],
        ),
        (
            "mx.example.org; spf=none (nested (dkim=pass) ; comment) smtp.helo=\"dkim=pass header.d=example.org\"",
            &["spf=none"],
        ),
        // A comment with a quoted pair: `\)` does not close it.
        (
            "mx.example.org; dkim=fail (a \\) dkim=pass header.d=example.org) header.d=x.example",
            &["dkim=fail"],
        ),
    ];
    for (field, expected) in table {
        let read: Vec<String> = parse(field)
            .unwrap_or_else(|e| panic!("{field}: {e}"))
            .results
            .iter()
            .map(|r| format!("{}={}", r.method, r.result))
            .collect();
        assert_eq!(read, *expected, "{field}");
    }
}

#[test]
fn fields_outside_the_grammar_are_refused_whole() {
    for field in [
        "",
        "; dkim=pass header.d=example.org",
        // An empty quoted string names no server (found by the fuzzer).
        "\"\";lOOOOOOOOkim=Fffss header.1d=a.:eple\"b\"@le.exampl",
        "\" \"; dkim=pass header.d=example.org",
        "dkim=pass header.d=example.org",
        // Microsoft 365 and Outlook.com write no authserv-id.
        "spf=pass (sender IP is 203.0.113.5) smtp.mailfrom=example.org; dkim=pass (signature was verified) header.d=example.org;dmarc=pass action=none header.from=example.org;compauth=pass reason=100",
        "mx.example.org",
        "mx.example.org; dkim=pass (unclosed comment header.d=example.org",
        "mx.example.org; dkim=pass reason=\"unclosed header.d=example.org",
        "mx.example.org; dkim",
        "mx.example.org; dkim=",
        "mx.example.org; =pass",
        "mx.example.org; dkim=pass header.=example.org",
        "mx.example.org; dkim=pass header.d=",
        "mx.example.org; none; dkim=pass header.d=example.org",
        "mx.example.org x; dkim=pass header.d=example.org",
    ] {
        assert!(
            parse(field).is_err(),
            "{field:?} read as {:?}",
            parse(field)
        );
    }
}

#[test]
fn the_fields_real_servers_write_are_read() {
    // (server, field, the results it holds)
    let table: &[(&str, &str, &[&str])] = &[
        (
            "Gmail",
            "mx.google.com;\r\n       dkim=pass header.i=@example.org header.s=sel1 header.b=Kx8L2+/q;\r\n       spf=pass (google.com: domain of arbiter@example.org designates 203.0.113.5 as permitted sender) smtp.mailfrom=arbiter@example.org;\r\n       dmarc=pass (p=REJECT sp=REJECT dis=NONE) header.from=example.org",
            &["dkim=pass", "spf=pass", "dmarc=pass"],
        ),
        (
            "Yandex",
            "mxfront1q.mail.yandex.net; spf=pass (mxfront1q.mail.yandex.net: domain of example.org designates 203.0.113.5 as permitted sender, rule=[ip4:203.0.113.0/24]) smtp.mail=arbiter@example.org; dkim=pass header.i=@example.org",
            &["spf=pass", "dkim=pass"],
        ),
        (
            "Mail.ru",
            "mxs.mail.ru; spf=pass (mx123.i.mail.ru: domain of example.org designates 203.0.113.5 as permitted sender) smtp.mailfrom=arbiter@example.org smtp.helo=mail.example.org;\r\n\t dkim=pass header.d=example.org; dmarc=pass header.from=arbiter@example.org",
            &["spf=pass", "dkim=pass", "dmarc=pass"],
        ),
        (
            "Fastmail",
            "mx3.messagingengine.com;\r\n    dkim=pass (2048-bit rsa key sha256) header.d=example.org header.i=@example.org header.b=Abc/dEf+ header.a=rsa-sha256 header.s=sel x-bits=2048;\r\n    dmarc=pass policy.published-domain-policy=reject policy.applied-disposition=none (p=reject,d=none,d.eval=none) policy.policy-from=p header.from=example.org;\r\n    iprev=pass smtp.remote-ip=203.0.113.5 (mail.example.org);\r\n    spf=pass smtp.mailfrom=arbiter@example.org smtp.helo=mail.example.org;\r\n    x-aligned-from=pass (Address match);\r\n    x-me-sender=none;\r\n    x-tls=pass smtp.version=TLSv1.3 smtp.cipher=TLS_AES_256_GCM_SHA384 smtp.bits=256/256;\r\n    x-vs=clean score=-100 state=0",
            &[
                "dkim=pass",
                "dmarc=pass",
                "iprev=pass",
                "spf=pass",
                "x-aligned-from=pass",
                "x-me-sender=none",
                "x-tls=pass",
                "x-vs=clean",
            ],
        ),
        (
            "OpenDKIM",
            "mail.example.net;\r\n\tdkim=pass (2048-bit key; unprotected) header.d=example.org header.i=@example.org header.a=rsa-sha256 header.s=mail header.b=AbCdEfGh",
            &["dkim=pass"],
        ),
        (
            "OpenDMARC",
            "mail.example.net; dmarc=pass (p=reject dis=none) header.from=example.org",
            &["dmarc=pass"],
        ),
        (
            "rspamd",
            "mail.example.net;\r\n\tdkim=pass header.d=example.org header.s=dkim header.b=AbC123;\r\n\tdmarc=pass (policy=reject) header.from=example.org;\r\n\tspf=pass (mail.example.net: domain of arbiter@example.org designates 203.0.113.5 as permitted sender) smtp.mailfrom=arbiter@example.org",
            &["dkim=pass", "dmarc=pass", "spf=pass"],
        ),
        (
            "spaces around =, a version, a closing ;",
            "mail.example.net 1; dkim = pass header . d = example.org;",
            &["dkim=pass"],
        ),
    ];
    for (server, field, expected) in table {
        let read: Vec<String> = parse(field)
            .unwrap_or_else(|e| panic!("{server}: {e}"))
            .results
            .iter()
            .map(|r| format!("{}={}", r.method, r.result))
            .collect();
        assert_eq!(read, *expected, "{server}");
    }
    let spaced = parse("mail.example.net 1; dkim = pass header . d = example.org").unwrap();
    assert_eq!(
        spaced.results[0].property("header", "d"),
        Some("example.org")
    );
}

#[test]
fn the_authserv_id_is_read_where_the_rest_is_not() {
    let table: &[(&str, Option<&str>)] = &[
        (
            "mx.google.com;\r\n       dkim=pass header.i=@example.org",
            Some("mx.google.com"),
        ),
        (
            "(a comment; dkim=pass) mail.example.net 1; dkim=pass",
            Some("mail.example.net"),
        ),
        (
            "mail.example.net; dkim=pass (unclosed",
            Some("mail.example.net"),
        ),
        ("\"mail.example.net\"; none", Some("mail.example.net")),
        // Microsoft's field has no authserv-id: its first word is a method.
        (
            "spf=pass (sender IP is 203.0.113.5) smtp.mailfrom=example.org",
            Some("spf"),
        ),
        ("; dkim=pass header.d=example.org", None),
        ("\"\"; dkim=pass", None),
        ("(unclosed mail.example.net; dkim=pass", None),
    ];
    for (field, expected) in table {
        assert_eq!(authserv_id(field).as_deref(), *expected, "{field}");
    }
}

#[test]
fn a_signature_names_its_domain_in_d() {
    let table: &[(&str, Option<&str>)] = &[
        // OpenDKIM's, folded (as the test stack's signer writes it).
        (
            "v=1; a=rsa-sha256; c=simple/simple; d=player.test; s=sel;\r\n\tt=1796517853; bh=rq5f1/OE3=;\r\n\th=From:To:Subject:Date;\r\n\tb=E7JTQVTH",
            Some("player.test"),
        ),
        // Gmail's: d= on a line of its own.
        (
            "v=1; a=rsa-sha256; c=relaxed/relaxed;\r\n        d=Gmail.com; s=20161025;\r\n        h=mime-version:from; bh=9Ad7=; b=Klr4",
            Some("gmail.com"),
        ),
        // Fastmail's: the value folded after `d=`.
        (
            "v=1; a=rsa-sha256; c=relaxed/relaxed; d=\r\n\tmessagingengine.com; h=cc",
            Some("messagingengine.com"),
        ),
        ("v=1; a=rsa-sha256; s=sel; bh=x=; b=y", None),
        ("v=1; dd=example.org; d=", None),
    ];
    for (field, expected) in table {
        assert_eq!(dkim_signing_domain(field).as_deref(), *expected, "{field}");
    }
}

#[test]
fn a_value_names_the_domain_after_its_last_unquoted_at() {
    for (value, domain) in [
        ("arbiter@Example.ORG", "example.org"),
        ("@example.org", "example.org"),
        ("example.org.", "example.org"),
        ("<arbiter@example.org>", "example.org"),
        (
            "\"x;dkim=pass header.d=example.org\"@evil.example",
            "evil.example",
        ),
        ("\"x@example.org\"@evil.example", "evil.example"),
        ("\"example.org\"", "example.org"),
    ] {
        assert_eq!(domain_of(value), domain, "{value}");
    }
}

#[test]
fn no_text_makes_the_parser_panic() {
    // Cut points inside multi-byte characters, escapes and comments.
    let field =
        "ёж.example (ко\\(мм) 1; dkim=pass reason=\"пр\\\"ичина\" header.d=\"ё@ж\"@пример.рф (x)";
    for end in 0..=field.len() {
        let Some(part) = field.get(..end) else {
            continue;
        };
        let _ = parse(part);
        let _ = authserv_id(part);
        let _ = dkim_signing_domain(part);
        let _ = domain_of(part);
    }
    assert!(parse(field).is_ok());
}

//! The server's verdict as real servers write it: each provider's
//! `Authentication-Results` layout from a public sample of a real message,
//! in its real order, read by the clerk's rule (src/mail/format/auth.rs);
//! then each provider's real field for an unsigned letter with a sender's
//! forged pass below it.
//!
//! Where each sample came from is beside it. Long base64 values (`b=`,
//! ARC seals) are cut, every other text kept as written. The samples of
//! Delta Chat's corpus (deltachat/deltachat-core-rust,
//! `test-data/message/dkimchecks-2022-09-28/RECEIVER/SENDER`, collected from
//! real accounts in 2022) keep the `Authentication-Results` fields, `From:`
//! and `To:` of each letter and drop the rest: there the sender's
//! `DKIM-Signature`, which the letter carried (the server verified it), is
//! written back as one line naming its domain. The trace lines around the
//! fields do not matter to the rule (its module says why).

use shtempel::config::{Alignment, Require, Security, TrustedId};
use shtempel::mail::format::auth::{self, Unverified};
use shtempel::mail::format::mime;

/// What the clerk makes of `head` (top first) above `From: from`.
fn verdict(head: &str, from: &str, trusted: &[&str], require: Require) -> Result<(), String> {
    let raw = format!(
        "{head}\nFrom: <{from}>\nTo: clerk@chess.example\nSubject: Re: [T #1]\nMessage-ID: <m@x>\n\nGame 1\n1. e4\n"
    )
    .replace("\r\n", "\n")
    .replace('\n', "\r\n");
    let mail = mime::parse(raw.as_bytes(), "clerk@chess.example").expect("a letter");
    let security = Security {
        trusted: trusted
            .iter()
            .map(|id| match id.strip_prefix("*.") {
                Some(domain) => TrustedId::Under(domain.into()),
                None => TrustedId::Host((*id).into()),
            })
            .collect(),
        require,
        alignment: Alignment::Strict,
    };
    auth::verify(&mail, &security, None).map_err(|why| match why {
        Unverified::NoPass { found, .. } => found.to_string(),
        other => other.to_string(),
    })
}

/// A provider's layout: who, where it came from, the header above `From:`,
/// the sender, the ids a director gives, and what the clerk must answer
/// (`None` for a pass, else words of the refusal).
struct Layout {
    provider: &'static str,
    source: &'static str,
    head: &'static str,
    from: &'static str,
    trusted: &'static [&'static str],
    require: Require,
    refused: Option<&'static str>,
}

const GMAIL_KVACK: &str = "\
ARC-Authentication-Results: i=1; mx.google.com;
       dkim=pass header.i=@gmail.com header.s=20161025 header.b=Klr4Aced;
       spf=pass (google.com: domain of alexander.duyck@gmail.com designates 209.85.220.41 as permitted sender) smtp.mailfrom=alexander.duyck@gmail.com;
       dmarc=pass (p=NONE sp=QUARANTINE dis=NONE) header.from=gmail.com
Received: from mail-sor-f41.google.com (mail-sor-f41.google.com. [209.85.220.41])
        by mx.google.com with SMTPS id 127sor59029516jaz.12.2019.04.08.08.18.46
        for <linux-mm@kvack.org>
        (Google Transport Security);
        Mon, 08 Apr 2019 08:18:46 -0700 (PDT)
Received-SPF: pass (google.com: domain of alexander.duyck@gmail.com designates 209.85.220.41 as permitted sender) client-ip=209.85.220.41;
Authentication-Results: mx.google.com;
       dkim=pass header.i=@gmail.com header.s=20161025 header.b=Klr4Aced;
       spf=pass (google.com: domain of alexander.duyck@gmail.com designates 209.85.220.41 as permitted sender) smtp.mailfrom=alexander.duyck@gmail.com;
       dmarc=pass (p=NONE sp=QUARANTINE dis=NONE) header.from=gmail.com
DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed;
        d=gmail.com; s=20161025;
        h=mime-version:references:in-reply-to:from:date:message-id:subject:to
         :cc;
        bh=9Ad7AdjXU9ameo2mNrt8hvSxpBLgf7Vhvuo315awnqU=;
        b=Klr4AcedXx6EGvpASoRhkbaiXG0ydzxtI+rPrewCYsTiVGFA+5bpdnsxDX8VtCpt0u";

const LORE: &str = "lore.kernel.org/linux-mm, Message-ID <CAKgT0UfyG=0wg5jzZPcnh7Q1rf0+gd9H5Q4626GTft85EiJNeA@mail.gmail.com> (8 April 2019), as archived";

fn layouts() -> Vec<Layout> {
    vec![
        Layout {
            provider: "Gmail: its field below its own receipt",
            source: LORE,
            head: GMAIL_KVACK,
            from: "alexander.duyck@gmail.com",
            trusted: &["mx.google.com"],
            require: Require::Dkim,
            refused: None,
        },
        Layout {
            provider: "Postfix + OpenDKIM + OpenDMARC (kernel.org): fields below the receipt, DKIM's on top",
            source: LORE,
            head: KERNEL_ORG_ABOVE_GMAIL,
            from: "alexander.duyck@gmail.com",
            trusted: &["mail.kernel.org"],
            require: Require::Dkim,
            refused: None,
        },
        Layout {
            provider: "Gmail under kernel.org's fields, Gmail trusted",
            source: LORE,
            head: KERNEL_ORG_ABOVE_GMAIL,
            from: "alexander.duyck@gmail.com",
            trusted: &["mx.google.com"],
            require: Require::Dkim,
            refused: None,
        },
        Layout {
            provider: "Gmail (Workspace delivery): a pass for the ESP's domain, not the From: one",
            source: "qianweicheng/hello-world, protocol/email/security/demo.md (the \"Gmail\" block)",
            head: "\
Delivered-To: weicheng@edison.tech
Received: by 2002:a0c:c44a:0:0:0:0:0 with SMTP id t10csp190775qvi;
        Fri, 31 Jan 2020 19:11:49 -0800 (PST)
X-Received: by 2002:aa7:90c5:: with SMTP id k5mr13791296pfk.143.1580526709246;
        Fri, 31 Jan 2020 19:11:49 -0800 (PST)
ARC-Authentication-Results: i=1; mx.google.com;
       dkim=pass header.i=@amazonses.com header.s=gdwg2y3kokkkj5a55z2ilkup5wp5hhxx header.b=FxxfSHRK;
       dmarc=fail (p=NONE sp=QUARANTINE dis=NONE) header.from=gmail.com
Return-Path: <0101016ffebba6b4-f270fd02-a80c-45bd-bf0b-419507e4e741-000000@us-west-2.amazonses.com>
Received: from a27-116.smtp-out.us-west-2.amazonses.com (a27-116.smtp-out.us-west-2.amazonses.com. [54.240.27.116])
        by mx.google.com with ESMTPS id s8si1925252pji.72.2020.01.31.19.11.48
        for <weicheng@edison.tech>
        (version=TLS1_2 cipher=ECDHE-RSA-AES128-SHA bits=128/128);
        Fri, 31 Jan 2020 19:11:49 -0800 (PST)
Received-SPF: pass (google.com: domain of 0101016ffebba6b4-f270fd02-a80c-45bd-bf0b-419507e4e741-000000@us-west-2.amazonses.com designates 54.240.27.116 as permitted sender) client-ip=54.240.27.116;
Authentication-Results: mx.google.com;
       dkim=pass header.i=@amazonses.com header.s=gdwg2y3kokkkj5a55z2ilkup5wp5hhxx header.b=FxxfSHRK;
       spf=pass (google.com: domain of 0101016ffebba6b4-f270fd02-a80c-45bd-bf0b-419507e4e741-000000@us-west-2.amazonses.com designates 54.240.27.116 as permitted sender) smtp.mailfrom=0101016ffebba6b4-f270fd02-a80c-45bd-bf0b-419507e4e741-000000@us-west-2.amazonses.com;
       dmarc=fail (p=NONE sp=QUARANTINE dis=NONE) header.from=gmail.com
DKIM-Signature: v=1; a=rsa-sha256; q=dns/txt; c=relaxed/simple; s=gdwg2y3kokkkj5a55z2ilkup5wp5hhxx; d=amazonses.com; t=1580526708; h=From:To:Subject; bh=WN9jjFu//8qtE8luk5bNJWZe8eu6jn90bWUEPF3q5DU=; b=FxxfSHRKNP62",
            from: "qweiczhong@gmail.com",
            trusted: &["mx.google.com"],
            require: Require::Dkim,
            refused: Some("mx.google.com said dkim=pass for amazonses.com"),
        },
        Layout {
            provider: "Yandex (mxfront, 2019): its field between its receipt and the sender's header",
            source: "ikvk/imap_tools, tests/messages_data/attachment_2_base64.py (its yandex_email.eml)",
            head: "\
Received: from mxfront2g.mail.yandex.net ([127.0.0.1])
	by mxfront2g.mail.yandex.net with LMTP id SONmnPb1
	for <KaukinVK@yandex.ru>; Sun, 28 Apr 2019 14:32:37 +0300
Received: from out-3.smtp.github.com (out-3.smtp.github.com [192.30.252.194])
	by mxfront2g.mail.yandex.net (nwsmtp/Yandex) with ESMTPS id IxG07LRtjb-Warm4eXW;
	Sun, 28 Apr 2019 14:32:36 +0300
	(using TLSv1.2 with cipher ECDHE-RSA-AES128-GCM-SHA256 (128/128 bits))
	(Client certificate not present)
Return-Path: noreply@github.com
X-Yandex-Front: mxfront2g.mail.yandex.net
X-Yandex-TimeMark: 1556451156.153
Authentication-Results: mxfront2g.mail.yandex.net; spf=pass (mxfront2g.mail.yandex.net: domain of github.com designates 192.30.252.194 as permitted sender, rule=[ip4:192.30.252.0/22]) smtp.mail=noreply@github.com; dkim=pass header.i=@github.com
X-Yandex-Spam: 2
X-Yandex-Fwd: OTM4OTM4Mjc2OTU3NTU3NTYyMyw5NzM5MTE2MTc5NzI0MTAxOTMw
Date: Sun, 28 Apr 2019 04:32:35 -0700
DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=github.com;
	s=pf2014; t=1556451155;
	bh=FsRPUKn3beupt2P3QB36UzfVESVClL07TVINnTX0nBg=;
	h=Date:From:Reply-To:To:Cc:Subject:List-ID:List-Archive:List-Post:
	 List-Unsubscribe:From;
	b=bzfQrv25o0IpZKiIrcGgLzDvM2VLfYficzjqSPPT0Rd3u3D66awwlxaVEHWqpE6dc",
            from: "notifications@github.com",
            trusted: &["*.mail.yandex.net"],
            require: Require::Dkim,
            refused: None,
        },
        Layout {
            provider: "Yandex (qloud, 2022): SPF by smtp.mail, one id a letter",
            source: "Delta Chat's corpus, alice@yandex.ru/alice@mail.ru",
            head: "\
Authentication-Results: myt6-50f129ea7c6f.qloud-c.yandex.net; spf=pass (myt6-50f129ea7c6f.qloud-c.yandex.net: domain of mail.ru designates 94.100.181.251 as permitted sender, rule=[ip4:94.100.176.0/20]) smtp.mail=alice@mail.ru; dkim=pass header.i=@mail.ru
DKIM-Signature: v=1; d=mail.ru; s=mail4; (trimmed in the corpus)",
            from: "alice@mail.ru",
            trusted: &["*.yandex.net"],
            require: Require::Spf,
            refused: None,
        },
        Layout {
            provider: "Mail.ru",
            source: "Delta Chat's corpus, alice@mail.ru/alice@gmail.com",
            head: "\
Authentication-Results: mxs.mail.ru; spf=pass (mx273.i.mail.ru: domain of gmail.com designates 209.85.221.66 as permitted sender) smtp.mailfrom=alice@gmail.com smtp.helo=mail-wr1-f66.google.com;
	 dkim=pass header.d=gmail.com; dmarc=pass header.from=alice@gmail.com
DKIM-Signature: v=1; d=gmail.com; s=20210112; (trimmed in the corpus)",
            from: "alice@gmail.com",
            trusted: &["mxs.mail.ru"],
            require: Require::Dkim,
            refused: None,
        },
        Layout {
            provider: "Yahoo: a result glued to its comment, a closing `;`",
            source: "Delta Chat's corpus, alice@yahoo.com/alice@mail.ru",
            head: "\
Authentication-Results: atlas119.free.mail.ne1.yahoo.com;
 dkim=pass header.i=@mail.ru header.s=mail4;
 spf=pass smtp.mailfrom=mail.ru;
 dmarc=pass(p=REJECT) header.from=mail.ru;
DKIM-Signature: v=1; d=mail.ru; s=mail4; (trimmed in the corpus)",
            from: "alice@mail.ru",
            trusted: &["*.mail.ne1.yahoo.com"],
            require: Require::Dkim,
            refused: None,
        },
        Layout {
            provider: "iCloud: one field a method, each under its own id",
            source: "Delta Chat's corpus, alice@icloud.com/alice@mail.ru",
            head: "\
Authentication-Results: bimi.icloud.com; bimi=none
Authentication-Results: dmarc.icloud.com; dmarc=pass header.from=mail.ru
Authentication-Results: dkim-verifier.icloud.com;
	dkim=pass (2048-bit key) header.d=mail.ru header.i=@mail.ru header.b=e36cIHLU
Authentication-Results: spf.icloud.com; spf=pass (spf.icloud.com: domain of alice@mail.ru designates 94.100.181.251 as permitted sender) smtp.mailfrom=alice@mail.ru
DKIM-Signature: v=1; d=mail.ru; s=mail4; (trimmed in the corpus)
Authentication-Results: smtpng1.m.smailru.net; auth=pass smtp.auth=alice@mail.ru smtp.mailfrom=alice@mail.ru",
            from: "alice@mail.ru",
            trusted: &["*.icloud.com"],
            require: Require::Dkim,
            refused: None,
        },
        Layout {
            provider: "Posteo: DMARC's and SPF's fields above DKIM's",
            source: "Delta Chat's corpus, alice@posteo.de/alice@mail.ru",
            head: "\
Authentication-Results: posteo.de; dmarc=pass (p=reject dis=none) header.from=mail.ru
Authentication-Results: posteo.de; spf=pass smtp.mailfrom=mail.ru
Authentication-Results: posteo.de;
	dkim=pass (2048-bit key) header.d=mail.ru header.i=@mail.ru header.b=SGc3jC2I;
	dkim-atps=neutral
DKIM-Signature: v=1; d=mail.ru; s=mail4; (trimmed in the corpus)",
            from: "alice@mail.ru",
            trusted: &["posteo.de"],
            require: Require::Dkim,
            refused: None,
        },
        Layout {
            provider: "Fastmail: four fields of one id, DKIM's the fourth",
            source: "lieser/dkim_verifier, test/data/original/Fastmail from Fastmail - How to keep your email private.eml",
            head: "\
Received: from mailmx.nyi.internal (localhost [127.0.0.1])
    by mx5.messagingengine.com (Authentication Milter) with ESMTP
    id B6B15C09D69.0FEB627200B2;
    Mon, 23 Oct 2023 17:05:28 -0400
ARC-Authentication-Results: i=1; mx5.messagingengine.com;
    x-csa=none;
    dkim=pass (2048-bit rsa key sha256) header.d=fastmail.com
    header.i=@fastmail.com header.b=DP7gdjFE header.a=rsa-sha256
    header.s=fm3
Authentication-Results: mx5.messagingengine.com;
    x-csa=none;
    x-me-sender=pass
      policy.xms=
      GOA2Zc6oq7Y9GlFaopwS_xcxqA_g098EEGHYseH2k4TlLEHyGxpLzSx-AHPooTndZgwXQQf2NhjcL4NN17nZioW58CC8lkiw_-EABUiX3gbWl4efIXxorFYAs_Jkr-YRpYAdd1rgmer0JQ;
    x-ptr=pass smtp.helo=out1-smtp.messagingengine.com
      policy.ptr=out1-smtp.messagingengine.com
Authentication-Results: mx5.messagingengine.com;
    bimi=skipped (DMARC Policy is not at enforcement)
Authentication-Results: mx5.messagingengine.com;
    arc=none (no signatures found)
Authentication-Results: mx5.messagingengine.com;
    dkim=pass (2048-bit rsa key sha256) header.d=fastmail.com
      header.i=@fastmail.com header.b=DP7gdjFE header.a=rsa-sha256
      header.s=fm3;
    dkim=pass (2048-bit rsa key sha256) header.d=messagingengine.com
      header.i=@messagingengine.com header.b=tpzZWGk1 header.a=rsa-sha256
      header.s=fm3;
    dmarc=pass policy.published-domain-policy=none
      policy.published-subdomain-policy=none policy.applied-disposition=none
      policy.evaluated-disposition=none (p=none,sp=none,d=none,d.eval=none)
      policy.policy-from=p header.from=fastmail.com;
    iprev=pass smtp.remote-ip=66.111.4.25 (out1-smtp.messagingengine.com);
    spf=pass smtp.mailfrom=bounce@messagingengine.com
      smtp.helo=out1-smtp.messagingengine.com
Received-SPF: pass
    (messagingengine.com: Sender is authorized to use 'bounce@messagingengine.com' in 'mfrom' identity (mechanism 'include:spf.messagingengine.com' matched))
    receiver=mx5.messagingengine.com;
    identity=mailfrom;
    envelope-from=\"bounce@messagingengine.com\";
    helo=out1-smtp.messagingengine.com;
    client-ip=66.111.4.25
Received: from mailout.nyi.internal (outbound1.nyi.internal [10.202.2.181])
	by mailmx.nyi.internal (Postfix) with ESMTPS id 0FEB627200B2;
	Mon, 23 Oct 2023 17:05:28 -0400 (EDT)
DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=fastmail.com; h=
	cc:content-transfer-encoding:content-type; s=fm3; t=1698095127; x=
	1698181527; bh=NEXks9VeZGh8MCbux9emzYUioaqUrMaTRkbWDXzwpDQ=; b=D
	P7gdjFEagihCbl2ImXMOdZbd0f5RQFcAceJ93jl1ejX+BhrMNU5dJVtRzfpTZfa9",
            from: "support@fastmail.com",
            trusted: &["*.messagingengine.com"],
            require: Require::Dkim,
            refused: None,
        },
        Layout {
            provider: "Outlook.com / Microsoft 365: no authserv-id, so no id can name it",
            source: "Delta Chat's corpus, alice@outlook.com/alice@mail.ru",
            head: "\
Authentication-Results: spf=pass (sender IP is 94.100.181.251)
 smtp.mailfrom=mail.ru; dkim=pass (signature was verified)
 header.d=mail.ru;dmarc=pass action=none header.from=mail.ru;compauth=pass
 reason=100
DKIM-Signature: v=1; d=mail.ru; s=mail4; (trimmed in the corpus)",
            from: "alice@mail.ru",
            trusted: &["*.outlook.com", "*.protection.outlook.com"],
            require: Require::Dkim,
            refused: Some("no field of the trusted server said anything of dkim"),
        },
    ]
}

/// The same letter as kernel.org's Postfix archived it: its OpenDKIM,
/// OpenDMARC and SPF fields below its own receipt, above Gmail's (the
/// fields between them cut).
const KERNEL_ORG_ABOVE_GMAIL: &str = concat!(
    "Received: from mail.kernel.org (mail.kernel.org [198.145.29.99])\n",
    "\tby smtp.lore.kernel.org (Postfix) with ESMTP id AFC38C10F13\n",
    "\tfor <linux-mm@archiver.kernel.org>; Mon,  8 Apr 2019 15:18:48 +0000 (UTC)\n",
    "Received: from kanga.kvack.org (kanga.kvack.org [205.233.56.17])\n",
    "\tby mail.kernel.org (Postfix) with ESMTP id 528C92148E\n",
    "\tfor <linux-mm@archiver.kernel.org>; Mon,  8 Apr 2019 15:18:48 +0000 (UTC)\n",
    "Authentication-Results: mail.kernel.org;\n",
    "\tdkim=pass (2048-bit key) header.d=gmail.com header.i=@gmail.com header.b=\"Klr4Aced\"\n",
    "DMARC-Filter: OpenDMARC Filter v1.3.2 mail.kernel.org 528C92148E\n",
    "Authentication-Results: mail.kernel.org; dmarc=fail (p=none dis=none) header.from=gmail.com\n",
    "Authentication-Results: mail.kernel.org; spf=pass smtp.mailfrom=owner-linux-mm@kvack.org\n",
    "Received: by kanga.kvack.org (Postfix)\n",
    "\tid E3B1E6B0007; Mon,  8 Apr 2019 11:18:47 -0400 (EDT)\n",
    "Received: from mail-io1-f69.google.com (mail-io1-f69.google.com [209.85.166.69])\n",
    "\tby kanga.kvack.org (Postfix) with ESMTP id B2D506B0007\n",
    "\tfor <linux-mm@kvack.org>; Mon,  8 Apr 2019 11:18:47 -0400 (EDT)\n",
    "ARC-Authentication-Results: i=1; mx.google.com;\n",
    "       dkim=pass header.i=@gmail.com header.s=20161025 header.b=Klr4Aced\n",
    "Received: from mail-sor-f41.google.com (mail-sor-f41.google.com. [209.85.220.41])\n",
    "        by mx.google.com with SMTPS id 127sor59029516jaz.12.2019.04.08.08.18.46;\n",
    "        Mon, 08 Apr 2019 08:18:46 -0700 (PDT)\n",
    "Authentication-Results: mx.google.com;\n",
    "       dkim=pass header.i=@gmail.com header.s=20161025 header.b=Klr4Aced;\n",
    "       spf=pass (google.com: domain of alexander.duyck@gmail.com designates 209.85.220.41 as permitted sender) smtp.mailfrom=alexander.duyck@gmail.com;\n",
    "       dmarc=pass (p=NONE sp=QUARANTINE dis=NONE) header.from=gmail.com\n",
    "DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed;\n",
    "        d=gmail.com; s=20161025; b=Klr4AcedXx6EGvpASoRhkbaiXG0ydzxtI"
);

#[test]
fn every_providers_genuine_layout_is_read_as_the_server_meant_it() {
    for layout in layouts() {
        let verdict = verdict(layout.head, layout.from, layout.trusted, layout.require);
        match layout.refused {
            None => assert_eq!(
                verdict,
                Ok(()),
                "{} ({}): refused",
                layout.provider,
                layout.source
            ),
            Some(words) => assert!(
                verdict.as_ref().is_err_and(|said| said.contains(words)),
                "{} ({}): {verdict:?}",
                layout.provider,
                layout.source
            ),
        }
    }
}

/// A provider's real field on a letter that had no signature (what the
/// server writes, and does not, for an unsigned letter).
struct Unsigned {
    provider: &'static str,
    source: &'static str,
    /// The server's fields, as written.
    fields: &'static str,
    /// An id of it.
    id: &'static str,
}

fn unsigned_letters() -> Vec<Unsigned> {
    vec![
        Unsigned {
            provider: "Gmail (no DKIM result at all for an unsigned letter)",
            source: "Delta Chat's corpus, alice@gmail.com/forged-authres-added@example.com",
            fields: "\
Authentication-Results: mx.google.com;
       spf=neutral (google.com: 89.22.108.212 is neither permitted nor denied by best guess record for domain of alice@delta.blinzeln.de) smtp.mailfrom=alice@delta.blinzeln.de",
            id: "mx.google.com",
        },
        Unsigned {
            provider: "Yahoo (dkim=unknown)",
            source: "Delta Chat's corpus, alice@yahoo.com/forged-authres-added@example.com",
            fields: "\
Authentication-Results: atlas324.free.mail.ne1.yahoo.com;
 dkim=unknown;
 spf=none smtp.mailfrom=delta.blinzeln.de;
 dmarc=unknown header.from=delta.blinzeln.de;",
            id: "atlas324.free.mail.ne1.yahoo.com",
        },
        Unsigned {
            provider: "iCloud (dkim=none)",
            source: "Delta Chat's corpus, alice@icloud.com/forged-authres-added@example.com",
            fields: "\
Authentication-Results: bimi.icloud.com; bimi=skipped reason=\"insufficient dmarc\"
Authentication-Results: dmarc.icloud.com; dmarc=none header.from=delta.blinzeln.de
Authentication-Results: dkim-verifier.icloud.com; dkim=none
Authentication-Results: spf.icloud.com; spf=none (spf.icloud.com: alice@delta.blinzeln.de does not designate permitted sender hosts) smtp.mailfrom=alice@delta.blinzeln.de",
            id: "dkim-verifier.icloud.com",
        },
        Unsigned {
            provider: "Posteo (no DKIM field)",
            source: "Delta Chat's corpus, alice@posteo.de/forged-authres-added@example.com",
            fields: "\
Authentication-Results: posteo.de; dmarc=none (p=none dis=none) header.from=delta.blinzeln.de
Authentication-Results: posteo.de; spf=tempfail smtp.mailfrom=delta.blinzeln.de",
            id: "posteo.de",
        },
        Unsigned {
            provider: "Mail.ru (SPF only)",
            source: "Delta Chat's corpus, alice@mail.ru/forged-authres-added@example.com",
            fields: "\
Authentication-Results: mxs.mail.ru; spf=none () smtp.mailfrom=alice@delta.blinzeln.de smtp.helo=nx170.node02.secure-mailgate.com",
            id: "mxs.mail.ru",
        },
        Unsigned {
            provider: "Fastmail (dkim=none)",
            source: "Delta Chat's corpus, alice@fastmail.com/forged-authres-added@example.com",
            fields: "\
Authentication-Results: mx1.messagingengine.com;
    x-csa=none;
    x-me-sender=none;
    x-ptr=pass smtp.helo=nx184.node01.secure-mailgate.com
      policy.ptr=nx184.node01.secure-mailgate.com
Authentication-Results: mx1.messagingengine.com;
    bimi=skipped (DMARC did not pass)
Authentication-Results: mx1.messagingengine.com;
    arc=none (no signatures found)
Authentication-Results: mx1.messagingengine.com;
    dkim=none (no signatures found);
    dmarc=none policy.published-domain-policy=none
      policy.applied-disposition=none policy.evaluated-disposition=none
      (p=none,d=none,d.eval=none) policy.policy-from=p
      header.from=delta.blinzeln.de;
    iprev=pass smtp.remote-ip=89.22.108.184
      (nx184.node01.secure-mailgate.com);
    spf=none smtp.mailfrom=alice@delta.blinzeln.de
      smtp.helo=nx184.node01.secure-mailgate.com",
            id: "mx1.messagingengine.com",
        },
        Unsigned {
            provider: "Yandex (no field at all)",
            source: "Delta Chat's corpus, alice@yandex.ru/forged-authres-added@example.com",
            fields: "",
            id: "mxfront1q.mail.yandex.net",
        },
    ]
}

#[test]
fn a_senders_forged_pass_under_each_providers_real_field_is_refused() {
    for letter in unsigned_letters() {
        // What the attacker wrote at the top of his own header: his
        // pass under the provider's own id, once and twice, and one
        // naming no domain of a signature he could show.
        for forged in [
            format!(
                "Authentication-Results: {}; dkim=pass header.d=victim.example",
                letter.id
            ),
            format!(
                "Authentication-Results: {0}; dkim=pass header.i=@victim.example\nAuthentication-Results: {0}; dkim=pass header.d=victim.example",
                letter.id
            ),
        ] {
            let head = match letter.fields {
                "" => forged.clone(),
                fields => format!("{fields}\n{forged}"),
            };
            let verdict = verdict(&head, "arbiter@victim.example", &[letter.id], Require::Dkim);
            assert!(
                verdict.is_err(),
                "{} ({}): a forged pass was taken",
                letter.provider,
                letter.source
            );
        }
    }
}

#[test]
fn a_forged_signature_beside_the_forged_pass_meets_the_servers_own_fail_first() {
    // Where the attacker adds a DKIM-Signature of the victim's domain so
    // that the pass has one to name, the server verifies it and writes its
    // own result on top: here in Gmail's words for a signature whose body
    // does not verify, as its field reads in public archives.
    let head = "\
Authentication-Results: mx.google.com;       dkim=neutral (body
 hash did not verify) header.i=@victim.example header.s=protonmail3
 header.b=p7ECMi6V;       spf=pass (google.com: domain of arbiter@victim.example
 designates 185.70.43.27 as permitted sender) smtp.mailfrom=arbiter@victim.example
Authentication-Results: mx.google.com; dkim=pass header.i=@victim.example
DKIM-Signature: v=1; a=rsa-sha256; d=victim.example; s=protonmail3; b=p7ECMi6V";
    assert_eq!(
        verdict(
            head,
            "arbiter@victim.example",
            &["mx.google.com"],
            Require::Dkim
        ),
        Err("mx.google.com said dkim=neutral for victim.example".into())
    );
}

/// GMX and a Stalwart server, from the shared corpus: mail-parser's
/// `resources/eml/thirdparty` message 015 (stalwartlabs/mail-parser at
/// 339a430), a letter delivered to GMX that carries, as attachments, two
/// letters a Stalwart server received.
#[test]
fn gmx_and_stalwart_as_the_shared_corpus_has_them() {
    let Some(dir) = crate::support::shared_dir("corpus/mail-parser-eml") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("thirdparty-015.eml")).unwrap();
    // GMX: two fields of gmx.net above its receipt, two signatures.
    let (gmx_head, _) = text.split_once("\nFrom: ").unwrap();
    assert_eq!(
        verdict(gmx_head, "jsterr@proxforge.de", &["gmx.net"], Require::Dkim),
        Ok(())
    );
    assert!(
        verdict(
            gmx_head,
            "jsterr@proxforge.de",
            &["mx-ha.gmx.net"],
            Require::Dkim
        )
        .is_err()
    );
    // Stalwart: its field below its receipt; the letter had no signature,
    // and Stalwart wrote no DKIM result for it (SPF twice: HELO, then
    // MAIL FROM).
    let start = text.find("Delivered-To: user@mailserver.de").unwrap();
    let nested = &text[start..];
    let (stalwart_head, _) = nested.split_once("\nFrom: ").unwrap();
    assert_eq!(
        verdict(
            stalwart_head,
            "training@proxmox.com",
            &["mail.mailserver.de"],
            Require::Spf
        ),
        Ok(())
    );
    assert_eq!(
        verdict(
            stalwart_head,
            "training@proxmox.com",
            &["mail.mailserver.de"],
            Require::Dkim
        ),
        Err("1 field(s) of the trusted server, none of them of dkim".into())
    );
    let forged = format!(
        "{stalwart_head}\nAuthentication-Results: mail.mailserver.de; dkim=pass header.d=proxmox.com"
    );
    assert!(
        verdict(
            &forged,
            "training@proxmox.com",
            &["mail.mailserver.de"],
            Require::Dkim
        )
        .is_err()
    );
}

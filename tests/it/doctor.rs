//! `shtempel doctor` on a tournament of files: every
//! check passes on a good setup, and each kind of failure is one line with
//! its fix and exit status 1. The mail servers' checks are in real_mail.

use crate::support::*;

fn doctor(t: &Tournament) -> Output {
    t.run(&["doctor"])
}

#[test]
fn doctor_passes_a_good_tournament_and_changes_nothing() {
    let t = Cup::new().open();
    let out = doctor(&t);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    for line in [
        "ok    time zone   T: Europe/Moscow (today there: ",
        "ok    templates   T: ",
        "ok    database    ",
        "not made yet; the first poll (or shtempel init) makes it",
        "ok    source      Maildir ",
        "ok    transport   outbox folder ",
        "doctor: all 7 checks pass",
    ] {
        assert!(out.stdout.contains(line), "{line:?} in\n{}", out.stdout);
    }
    assert!(
        !t.path().join("db.sqlite").exists(),
        "doctor makes no database"
    );
    // A test message through an outbox folder would test nothing: refused,
    // and the folder left empty.
    let out = t.run(&["doctor", "--send-test", WHITE]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout
            .contains("FAIL  send test   not sent: [transport] is an outbox folder"),
        "{}",
        out.stdout
    );
    assert!(t.outbox().is_empty());
}

#[test]
fn doctor_names_each_failure_with_its_fix() {
    // A database that is not the clerk's.
    let t = Cup::new().open();
    std::fs::write(t.path().join("db.sqlite"), "notes of the director\n").unwrap();
    let out = doctor(&t);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(out.stdout.contains("FAIL  database    "), "{}", out.stdout);
    assert!(
        out.stdout.contains("doctor: 1 of 7 checks failed"),
        "{}",
        out.stdout
    );

    // A director's phrase with a value the phrase does not have.
    let t = Cup::new().open();
    let folder = t.path().join("templates/en");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("phrases.toml"),
        "[note]\nannulled = \"{nobody}\"\n",
    )
    .unwrap();
    let out = doctor(&t);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout.contains("FAIL  templates   ") && out.stdout.contains("{nobody}"),
        "{}",
        out.stdout
    );

    // A report folder where a file stands.
    let t = Cup::new().table("[report]\nout = \"site\"").open();
    std::fs::write(t.path().join("site"), "").unwrap();
    let out = doctor(&t);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout.contains("FAIL  report      ") && out.stdout.contains("check [report] out"),
        "{}",
        out.stdout
    );

    // A config that does not load: one line, exit 1.
    let t = Tournament::with_config(&config("days_per_control = \"fifty\"", ""));
    let out = doctor(&t);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout.starts_with("FAIL  config      "),
        "{}",
        out.stdout
    );
}

#[test]
fn doctor_says_whether_the_trusted_server_writes_its_verdict_on_every_letter() {
    let security = |t: &Tournament| -> (i32, String) {
        let out = doctor(t);
        let line = out
            .stdout
            .lines()
            .find(|line| line.contains(" security "))
            .unwrap_or_else(|| panic!("no security line:\n{}", out.stdout))
            .to_string();
        (out.code, line)
    };
    let signature = "DKIM-Signature: v=1; a=rsa-sha256; d=test.example; s=mail; b=x\r\n";
    let letter = |seq: usize, head: &str| {
        let body = message(WHITE, CLERK, "2026-11-03", "Game 1", W1, "", seq);
        format!("{head}{body}")
    };

    // Nothing in the mailbox yet: it cannot tell, and says so.
    let mut t = Cup::new().secured().open();
    let (code, line) = security(&t);
    assert_eq!(code, 0, "{line}");
    assert!(
        line.starts_with(
            "warn  security    cannot tell whether mx.test.example writes a dkim verdict"
        ),
        "{line}"
    );

    // Only unsigned letters: still cannot tell, for DKIM.
    t.deliver_raw(
        letter(
            1,
            "Authentication-Results: mx.test.example; spf=pass smtp.mailfrom=test.example\r\n",
        )
        .as_bytes(),
    );
    let (_, line) = security(&t);
    assert!(
        line.contains("none of the last 1 letters carries a DKIM signature"),
        "{line}"
    );

    // Signed letters, each with the server's verdict: ok.
    for seq in 2..5 {
        t.deliver_raw(
            letter(seq, &format!("Authentication-Results: mx.test.example; dkim=pass header.d=test.example\r\n{signature}")).as_bytes(),
        );
    }
    let (code, line) = security(&t);
    assert_eq!(code, 0, "{line}");
    assert_eq!(
        line,
        "ok    security    mx.test.example wrote a dkim verdict on each of the last 3 signed letters (4 read); the topmost decides"
    );

    // A signed letter the server wrote nothing of DKIM on: a warning that
    // says what may go wrong and what to set.
    t.deliver_raw(
        letter(5, &format!("Authentication-Results: mx.test.example; spf=pass smtp.mailfrom=test.example\r\n{signature}")).as_bytes(),
    );
    let (code, line) = security(&t);
    assert_eq!(code, 0, "{line}");
    assert!(
        line.starts_with("warn  security    mx.test.example wrote no dkim verdict on 1 of the last 4 signed letters: on such a letter a field the sender wrote himself would be read"),
        "{line}"
    );
    assert!(
        doctor(&t)
            .stdout
            .contains("doctor: all 8 checks pass, 1 with a warning"),
        "{}",
        doctor(&t).stdout
    );

    // The id given is none the server writes: every letter would be
    // refused, so it fails, naming the ids the letters carry.
    let mut t = Cup::new().secured().open();
    for seq in 1..4 {
        t.deliver_raw(
            letter(seq, &format!("Authentication-Results: mx.other.example; dkim=pass header.d=test.example\r\n{signature}")).as_bytes(),
        );
    }
    let (code, line) = security(&t);
    assert_eq!(code, 1, "{line}");
    assert_eq!(
        line,
        "FAIL  security    none of the last 3 signed letters carries a dkim verdict of mx.test.example, so the clerk would refuse every one; their topmost fields name mx.other.example (3): set [security] trusted_authserv_id to the id your server writes"
    );

    // Without [security] require there is no such line.
    let t = Cup::new().open();
    assert!(!doctor(&t).stdout.contains(" security "));
}

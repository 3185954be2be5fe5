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
        "doctor: all 6 checks pass",
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
        out.stdout.contains("doctor: 1 of 6 checks failed"),
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

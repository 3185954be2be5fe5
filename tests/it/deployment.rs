//! A tournament as directors lay it out: its folder reached through a
//! symbolic link (the systemd unit's `--config /srv/chess/shtempel.toml`
//! with `/srv/chess` a link), its file itself a link, and a source path that
//! names nothing.

use std::process::Command;

use crate::support::*;

/// The binary with `--config config` and `args` (a `--today` after the
/// machine's date meant).
fn run_with(config: &std::path::Path, args: &[&str]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_shtempel"))
        .arg("--config")
        .arg(config)
        .arg("--future")
        .args(args)
        .output()
        .expect("run shtempel");
    Output {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

#[test]
fn a_tournament_folder_reached_through_a_link_runs_as_its_own() {
    let mut t = Cup::new().open();
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    let links = tempfile::tempdir().unwrap();
    let chess = links.path().join("chess");
    std::os::unix::fs::symlink(t.path(), &chess).unwrap();
    let out = run_with(
        &chess.join("shtempel.toml"),
        &["poll", "--today", "2026-11-03"],
    );
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", BLACK)]
    );
    assert!(t.path().join("db.sqlite").is_file());
    assert!(
        !t.path().join("db.sqlite.new").exists(),
        "no half-made database is left"
    );
    // Every later command opens it the same way.
    let out = run_with(&chess.join("shtempel.toml"), &["games"]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stdout
            .lines()
            .any(|line| line.starts_with("1 ") && line.contains(" 1 ")),
        "game 1 with its move:\n{}",
        out.stdout
    );
    // The database file itself a link is refused still, saying so.
    let elsewhere = tempfile::tempdir().unwrap();
    std::fs::rename(
        t.path().join("db.sqlite"),
        elsewhere.path().join("db.sqlite"),
    )
    .unwrap();
    std::os::unix::fs::symlink(
        elsewhere.path().join("db.sqlite"),
        t.path().join("db.sqlite"),
    )
    .unwrap();
    let out = run_with(&chess.join("shtempel.toml"), &["games"]);
    assert_ne!(out.code, 0, "{}", out.stdout);
    assert!(out.stderr.contains("is a symbolic link"), "{}", out.stderr);
}

#[test]
fn a_config_file_that_is_a_link_reads_its_paths_from_the_file_it_points_to() {
    let mut t = Cup::new().open();
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    let elsewhere = tempfile::tempdir().unwrap();
    let link = elsewhere.path().join("cup.toml");
    std::os::unix::fs::symlink(t.path().join("shtempel.toml"), &link).unwrap();
    let out = run_with(&link, &["poll", "--today", "2026-11-03"]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert!(
        t.path().join("db.sqlite").is_file(),
        "the record beside the file"
    );
    assert_eq!(
        std::fs::read_dir(elsewhere.path()).unwrap().count(),
        1,
        "nothing made beside the link"
    );
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", BLACK)]
    );
}

#[test]
fn a_source_path_that_names_nothing_is_said_not_made_and_init_makes_it() {
    let text = Cup::new()
        .text()
        .replace("path = \"inbox\"", "path = \"inbx\"");
    assert!(text.contains("path = \"inbx\""));
    let t = Tournament::with_config(&text);
    let out = t.run(&["poll", "--today", "2026-11-03"]);
    assert_eq!(out.code, 1, "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stderr
            .contains("inbx does not exist; check [source] path"),
        "{}",
        out.stderr
    );
    assert!(
        !t.path().join("inbx").exists(),
        "no Maildir is made by a poll"
    );
    let out = t.run(&["doctor"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout.contains("FAIL  source      Maildir ")
            && out.stdout.contains("inbx does not exist"),
        "{}",
        out.stdout
    );
    let out = t.run(&["init"]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("init: Maildir "), "{}", out.stdout);
    assert!(t.path().join("inbx/new").is_dir());
    let out = t.run(&["poll", "--today", "2026-11-03"]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
}

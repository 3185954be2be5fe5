//! A folder of tournaments: the clerk's tables shared, errors naming the
//! file, the folder read anew each run.

use super::*;

fn federation(clerk_extra: &str, tournaments: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let clerk = format!(
        "[bot]\naddress = \"clerk@example.org\"\ndatabase = \"db.sqlite\"\ntournaments = \"tournaments\"\n\
         [arbiters]\nchief_arbiter = \"arbiter@example.org\"\nchief_secretary = \"secretary@example.org\"\n\
         [rules]\npenalty_days = 6\n{clerk_extra}\n\
         [source]\nkind = \"maildir\"\npath = \"inbox\"\n[transport]\nkind = \"file\"\npath = \"outbox\"\n"
    );
    std::fs::write(dir.path().join("shtempel.toml"), clerk).unwrap();
    std::fs::create_dir(dir.path().join("tournaments")).unwrap();
    for (name, text) in tournaments {
        std::fs::write(dir.path().join("tournaments").join(name), text).unwrap();
    }
    dir
}

fn event(id: &str, extra: &str, second: &str) -> String {
    format!(
        "[tournament]\nid = \"{id}\"\nname = \"Cup {id}\"\nstart_date = 2026-11-01\nend_date = 2028-11-01\n\
         timezone = \"Europe/Moscow\"\nlanguage = \"ru\"\n{extra}\n\
         [[players]]\nid = \"ivanov\"\nname = \"Ivanov I.\"\nemail = \"ivanov@example.org\"\n\
         [[players]]\nid = \"{second}\"\nname = \"{second}\"\nemail = \"{second}@example.org\"\n\
         [[games]]\nid = \"1\"\nwhite = \"ivanov\"\nblack = \"{second}\"\n"
    )
}

#[test]
fn a_folder_of_tournaments_shares_the_clerks_tables_and_overrides_key_by_key() {
    let b_rules =
        "[rules]\ndays_per_control = 30\n[arbiters]\nchief_arbiter = \"judge@example.org\"";
    let dir = federation(
        "",
        &[
            ("b.toml", &event("B", b_rules, "sidorov")),
            ("a.toml", &event("A", "", "petrov")),
            ("notes.txt", "not a tournament"),
        ],
    );
    let all = load_all(&dir.path().join("shtempel.toml")).unwrap();
    let ids: Vec<&str> = all.iter().map(|t| t.tournament_id.as_str()).collect();
    assert_eq!(ids, ["A", "B"], "in the order of their file names");
    let (a, b) = (&all[0], &all[1]);
    assert_eq!(
        (a.rules.days_per_control, b.rules.days_per_control),
        (50, 30)
    );
    assert_eq!((a.rules.penalty_days, b.rules.penalty_days), (6, 6));
    assert_eq!(a.chief_arbiter, "arbiter@example.org");
    assert_eq!(b.chief_arbiter, "judge@example.org");
    assert_eq!(
        b.chief_secretary, "secretary@example.org",
        "the default kept"
    );
    assert_eq!(a.database, dir.path().join("db.sqlite"));
    assert_eq!(a.database, b.database, "one database");
    assert_eq!(b.file, dir.path().join("tournaments/b.toml"));
    // The same player in both is fine: he is one person.
    assert!(a.player("ivanov").is_some() && b.player("ivanov").is_some());
    // A single file is one tournament, as before.
    let single = tempfile::tempdir().unwrap();
    let path = single.path().join("shtempel.toml");
    std::fs::write(&path, EXAMPLE).unwrap();
    assert_eq!(load_all(&path).unwrap().len(), 1);
}

#[test]
fn a_folders_errors_name_the_file_the_key_was_written_in() {
    let clerk_file = |dir: &tempfile::TempDir| dir.path().join("shtempel.toml");
    let in_tournament =
        |dir: &tempfile::TempDir, name: &str| dir.path().join("tournaments").join(name);
    // (clerk's extra, tournament file's extra, file named, key named, words)
    let cases: [(&str, &str, bool, &str, &str); 5] = [
        (
            "",
            "[source]\nkind = \"maildir\"",
            false,
            "source",
            "move it to",
        ),
        (
            "",
            "[rules]\npenalty_dayz = 6",
            false,
            "rules.penalty_dayz",
            "penalty_dayz",
        ),
        (
            "penalty_dayz = 6",
            "",
            true,
            "rules.penalty_dayz",
            "penalty_dayz",
        ),
        (
            "",
            "[rules]\ndays_per_control = 0",
            false,
            "rules",
            "above 0",
        ),
        (
            "",
            "[arbiters]\nchief_arbiter = \"clerk@example.org\"",
            false,
            "arbiters.chief_arbiter",
            "clerk",
        ),
    ];
    for (clerk_extra, extra, clerks, key, words) in cases {
        let dir = federation(clerk_extra, &[("a.toml", &event("A", extra, "petrov"))]);
        let error = load_all(&clerk_file(&dir)).unwrap_err();
        let file = if clerks {
            clerk_file(&dir)
        } else {
            in_tournament(&dir, "a.toml")
        };
        assert_eq!(error.file, file, "{error}");
        assert_eq!(error.key, key, "{error}");
        assert!(error.to_string().contains(words), "{error}");
    }
    let twice = federation(
        "",
        &[
            ("a.toml", &event("A", "", "petrov")),
            ("b.toml", &event("A", "", "sidorov")),
        ],
    );
    let error = load_all(&clerk_file(&twice)).unwrap_err();
    assert_eq!(
        (error.file, error.key.as_str()),
        (in_tournament(&twice, "b.toml"), "tournament.id")
    );
    let empty = federation("", &[]);
    let error = load_all(&clerk_file(&empty)).unwrap_err();
    assert_eq!(error.key, "bot.tournaments", "{error}");
    assert!(error.problem.contains("no .toml files"), "{error}");
}

#[test]
fn a_folder_is_read_anew_each_time_even_files_swapped_at_the_same_length_and_time() {
    let dir = federation(
        "",
        &[
            ("a.toml", &event("A", "", "petrov")),
            ("b.toml", &event("B", "", "orlova")),
        ],
    );
    let clerk = dir.path().join("shtempel.toml");
    let first = load_all(&clerk).unwrap();
    assert_eq!(first[0].tournament_id, "A");
    assert_eq!(first[0].clerk_file, clerk);
    // The two files' texts swapped, each keeping the other's length and
    // time: the new mapping is what is read.
    let (a, b) = (
        dir.path().join("tournaments/a.toml"),
        dir.path().join("tournaments/b.toml"),
    );
    let (text_a, text_b) = (
        std::fs::read_to_string(&a).unwrap(),
        std::fs::read_to_string(&b).unwrap(),
    );
    assert_eq!(text_a.len(), text_b.len());
    let time = std::fs::metadata(&a).unwrap().modified().unwrap();
    std::fs::write(&a, &text_b).unwrap();
    std::fs::write(&b, &text_a).unwrap();
    for path in [&a, &b] {
        let file = std::fs::File::options().write(true).open(path).unwrap();
        file.set_modified(time).unwrap();
    }
    let again = load_all(&clerk).unwrap();
    assert_eq!(again[0].tournament_id, "B");
    assert_eq!(again[0].file, a);
    // Nothing is kept beside the database.
    let kept: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains("config.json"))
        .collect();
    assert!(kept.is_empty(), "{kept:?}");
}

#[test]
fn a_folder_is_loaded_with_one_files_text_given_in_place_of_the_disks() {
    let dir = federation(
        "",
        &[
            ("a.toml", &event("A", "", "petrov")),
            ("b.toml", &event("B", "", "sidorov")),
        ],
    );
    let clerk = dir.path().join("shtempel.toml");
    let a = dir.path().join("tournaments/a.toml");
    let text = std::fs::read_to_string(&a).unwrap();
    let edited = text.replace("Ivanov I.", "Ivanov J.");
    let loaded = load_all_over(&clerk, Some((&a, &edited))).unwrap();
    assert_eq!(loaded[0].player("ivanov").unwrap().name, "Ivanov J.");
    let broken = text.replace("ivanov@example.org", "\"ivanov office\"@example.org");
    let error = load_all_over(&clerk, Some((&a, &broken))).unwrap_err();
    assert_eq!(error.file, a, "{error}");
    assert_eq!(
        std::fs::read_to_string(&a).unwrap(),
        text,
        "the disk untouched"
    );
}

#[test]
fn ids_that_fold_to_one_ascii_are_refused_naming_both_files() {
    // (first id, second id, refused)
    let table = [
        ("КР-2026", "KR-2026", true),
        ("CC-A", "cc-a", true),
        ("Δ1", "ceb41", true),
        ("КР-2026", "КР-2027", false),
        ("A", "B", false),
    ];
    for (first, second, refused) in table {
        let dir = federation(
            "",
            &[
                ("a.toml", &event(first, "", "petrov")),
                ("b.toml", &event(second, "", "sidorov")),
            ],
        );
        match load_all(&dir.path().join("shtempel.toml")) {
            Ok(loaded) => assert!(!refused, "{first} {second}: {}", loaded.len()),
            Err(error) => {
                assert!(refused, "{first} {second}: {error}");
                assert_eq!(error.file, dir.path().join("tournaments/b.toml"));
                assert_eq!(error.key, "tournament.id");
                assert!(error.problem.contains("a.toml"), "{error}");
            }
        }
    }
}

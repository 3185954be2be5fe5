//! The configuration's checks, error by error.

use super::*;

const EXAMPLE: &str = include_str!("../../config.example.toml");

fn parse(text: &str) -> Result<Config, ConfigError> {
    Config::parse(Path::new("/srv/cc/shtempel.toml"), text)
}

#[test]
fn the_example_config_is_valid() {
    let config = parse(EXAMPLE).unwrap();
    assert_eq!(config.tournament_id, "CC-2026");
    assert_eq!(config.database, PathBuf::from("/srv/cc/shtempel.sqlite"));
    assert_eq!(
        config.source,
        Source::Maildir {
            path: "/srv/cc/mail/inbox".into()
        }
    );
    assert_eq!(config.rules, Rules::default());
    assert_eq!(
        config.players[1].start_sheet_received,
        Some("2026-11-05".parse().unwrap())
    );
    assert_eq!(config.games.len(), 2, "a player may be in several games");
}

#[test]
fn players_and_games_are_found_by_id_email_and_player() {
    let mut config = parse(EXAMPLE).unwrap();
    let ids = |games: Vec<&GameConfig>| games.iter().map(|g| g.id.clone()).collect::<Vec<_>>();
    assert_eq!(config.player("petrov").unwrap().email, "petrov@example.org");
    assert_eq!(
        config.player_by_email("ivanov@example.org").unwrap().id,
        "ivanov"
    );
    assert!(config.player("sidorov").is_none());
    assert_eq!(config.game("2").unwrap().white, "petrov");
    assert_eq!(ids(config.games_of("ivanov")), ["1", "2"]);
    assert!(config.games_of("sidorov").is_empty());
    // Lists changed after loading are still searched right.
    config.games.swap(0, 1);
    config.games.push(GameConfig {
        id: "3".into(),
        white: "sidorov".into(),
        black: "ivanov".into(),
        start_date: None,
    });
    config.players.swap(0, 1);
    assert_eq!(config.game("1").unwrap().white, "ivanov");
    assert_eq!(ids(config.games_of("ivanov")), ["2", "1", "3"]);
    assert_eq!(ids(config.games_of("sidorov")), ["3"]);
    assert_eq!(
        config.player_by_email("ivanov@example.org").unwrap().id,
        "ivanov"
    );
}

#[test]
fn errors_name_the_key_and_the_fix() {
    // (change to the example, key named, words in the problem)
    let table = [
        (
            "white = \"ivanov\"\nblack = \"petrov\"\n\n[[games]]\nid = \"2\"",
            "white = \"sidorov\"\nblack = \"petrov\"\n\n[[games]]\nid = \"2\"",
            "games[0].white",
            "unknown player \"sidorov\"",
        ),
        (
            "timezone = \"Europe/Moscow\"",
            "timezone = \"Mars/Olympus\"",
            "tournament.timezone",
            "not an IANA time zone",
        ),
        (
            "end_date = 2028-11-01",
            "end_date = 2026-10-01",
            "tournament.end_date",
            "is not after start_date",
        ),
        (
            "chief_arbiter = \"arbiter@example.org\"",
            "chief_arbiter = \"arbiter\"",
            "arbiters.chief_arbiter",
            "not an e-mail address",
        ),
        (
            "language = \"ru\"",
            "language = \"de\"",
            "tournament.language",
            "not a language",
        ),
        (
            "language = \"ru\"",
            "language = \"ru\"\ndate_order = \"ymd\"",
            "tournament.date_order",
            "not an order of day and month",
        ),
        (
            "kind = \"maildir\"",
            "kind = \"pigeon\"",
            "source.kind",
            "not a source",
        ),
        (
            "email = \"petrov@example.org\"",
            "email = \"ivanov@example.org\"",
            "players[1].email",
            "also the address",
        ),
        // Ids that would break a subject tag or a Message-ID (issue 19, 15).
        (
            "id = \"CC-2026\"",
            "id = \"CC 2026\"",
            "tournament.id",
            "Message-ID",
        ),
        (
            "id = \"CC-2026\"",
            "id = \"<CC-2026>\"",
            "tournament.id",
            "Message-ID",
        ),
        (
            "id = \"CC-2026\"",
            "id = \"CC\\u0007-2026\"",
            "tournament.id",
            "Message-ID",
        ),
        (
            "[[games]]\nid = \"2\"",
            "[[games]]\nid = \"2>\"",
            "games[1].id",
            "cannot name a game",
        ),
    ];
    for (from, to, key, words) in table {
        assert!(EXAMPLE.contains(from), "{from}");
        let error = parse(&EXAMPLE.replacen(from, to, 1)).unwrap_err();
        assert_eq!(error.key, key, "{error}");
        assert!(error.problem.contains(words), "{error}");
        assert!(!error.fix.is_empty(), "{error}");
        assert!(
            error.to_string().starts_with("/srv/cc/shtempel.toml: "),
            "{error}"
        );
    }
    let missing = parse(&EXAMPLE.replace(
        "[arbiters]\nchief_arbiter = \"arbiter@example.org\"\n",
        "[arbiters]\n",
    ))
    .unwrap_err();
    assert!(missing.problem.contains("chief_arbiter"), "{missing}");
    let unknown = parse(&EXAMPLE.replace("penalty_days = 6", "penalty_dayz = 6")).unwrap_err();
    assert!(unknown.problem.contains("penalty_dayz"), "{unknown}");
    assert!(unknown.key.starts_with("line "), "{unknown}");
}

#[test]
fn a_providers_limits_are_read_and_zero_is_refused() {
    let smtp = |extra: &str| {
        EXAMPLE.replacen(
            "kind = \"file\"                  # or \"smtp\" or \"sendmail\"\npath = \"mail/outbox\"",
            &format!("kind = \"smtp\"\nhost = \"smtp.example.org\"\n{extra}"),
            1,
        )
    };
    let limits = |text: &str| match parse(text).unwrap().transport {
        Transport::Smtp {
            max_per_connection,
            max_per_minute,
            ..
        } => (max_per_connection, max_per_minute),
        other => panic!("{other:?}"),
    };
    assert_eq!(limits(&smtp("")), (100, None));
    assert_eq!(
        limits(&smtp(
            "max_messages_per_connection = 20\nmax_per_minute = 30"
        )),
        (20, Some(30))
    );
    for key in ["max_messages_per_connection", "max_per_minute"] {
        let error = parse(&smtp(&format!("{key} = 0"))).unwrap_err();
        assert_eq!(error.key, format!("transport.{key}"), "{error}");
        assert!(error.problem.contains("send nothing"), "{error}");
    }
}

/// A server's TLS mode where `tls` is not given follows its port: the
/// ports of STARTTLS start plain (an implicit TLS on 587 never connects).
#[test]
fn a_servers_tls_mode_without_tls_follows_its_port() {
    let smtp = |extra: &str| {
        EXAMPLE.replacen(
            "kind = \"file\"                  # or \"smtp\" or \"sendmail\"\npath = \"mail/outbox\"",
            &format!("kind = \"smtp\"\nhost = \"smtp.example.org\"\n{extra}"),
            1,
        )
    };
    let tls = |text: &str| match parse(text).unwrap().transport {
        Transport::Smtp { server, .. } => (server.port, server.tls),
        other => panic!("{other:?}"),
    };
    let table = [
        ("", (587, Tls::StartTls)),
        ("port = 587", (587, Tls::StartTls)),
        ("port = 25", (25, Tls::StartTls)),
        ("port = 465", (465, Tls::Tls)),
        ("port = 587\ntls = \"tls\"", (587, Tls::Tls)),
        ("port = 2525\ntls = \"none\"", (2525, Tls::None)),
    ];
    for (extra, expected) in table {
        assert_eq!(tls(&smtp(extra)), expected, "{extra:?}");
    }
}

/// `ca_file` is resolved beside the config and must hold a certificate;
/// a file that is not there, or holds none, names the key.
#[test]
fn a_ca_file_is_read_beside_the_config_and_must_hold_a_certificate() {
    let folder = tempfile::tempdir().unwrap();
    let file = folder.path().join("shtempel.toml");
    let pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
    std::fs::write(folder.path().join("ca.pem"), pem).unwrap();
    std::fs::write(folder.path().join("notes.txt"), "not a certificate\n").unwrap();
    let smtp = |ca: &str| {
        EXAMPLE.replacen(
            "kind = \"file\"                  # or \"smtp\" or \"sendmail\"\npath = \"mail/outbox\"",
            &format!("kind = \"smtp\"\nhost = \"smtp.example.org\"\nca_file = \"{ca}\""),
            1,
        )
    };
    match Config::parse(&file, &smtp("ca.pem")).unwrap().transport {
        Transport::Smtp { server, .. } => {
            assert_eq!(server.ca_file, Some(folder.path().join("ca.pem")))
        }
        other => panic!("{other:?}"),
    }
    for (ca, words) in [
        ("notes.txt", "no PEM certificate"),
        ("gone.pem", "cannot be read"),
    ] {
        let error = Config::parse(&file, &smtp(ca)).unwrap_err();
        assert_eq!(error.key, "transport.ca_file", "{error}");
        assert!(error.problem.contains(words), "{error}");
    }
}

#[test]
fn a_player_may_have_several_addresses_each_his_own() {
    let several = EXAMPLE.replacen(
        "email = \"ivanov@example.org\"",
        "emails = [\"Ivanov@Example.org\", \"ivanov.home@example.org\"]",
        1,
    );
    let config = parse(&several).unwrap();
    let ivanov = config.player("ivanov").unwrap();
    assert_eq!(
        ivanov.email, "ivanov@example.org",
        "the first is written to"
    );
    assert_eq!(ivanov.other_emails, ["ivanov.home@example.org"]);
    for address in ["ivanov@example.org", "ivanov.home@example.org"] {
        assert_eq!(config.player_by_email(address).unwrap().id, "ivanov");
    }
    // Another player's address among them: the key says which.
    let taken = EXAMPLE.replacen(
        "email = \"ivanov@example.org\"",
        "emails = [\"ivanov@example.org\", \"petrov@example.org\"]",
        1,
    );
    let error = parse(&taken).unwrap_err();
    assert_eq!(error.key, "players[1].email", "{error}");
    assert!(error.problem.contains("also the address"), "{error}");
    let none = EXAMPLE.replacen("email = \"ivanov@example.org\"\n", "", 1);
    let error = parse(&none).unwrap_err();
    assert_eq!(error.key, "players[0].email", "{error}");
    assert!(error.fix.contains("emails = ["), "{error}");
}

/// A clerk's file naming a folder with the tournaments given (file name,
/// text); the folder itself.
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
fn point_7_a_folder_is_read_anew_each_time_even_files_swapped_at_the_same_length_and_time() {
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
fn point_3_a_folder_is_loaded_with_one_files_text_given_in_place_of_the_disks() {
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
fn an_offset_is_on_the_line_it_starts_or_is_within() {
    let text = "a = 1\n\n[b]\nc";
    let table = [(0, 1), (3, 1), (5, 1), (6, 2), (7, 3), (11, 4), (99, 4)];
    for (offset, line) in table {
        assert_eq!(super::line_at(text, offset), line, "offset {offset}");
    }
}

#[test]
fn point_10_a_players_name_nobody_means_is_refused_at_load_with_its_key() {
    let long = "Я".repeat(201);
    // (name, refused)
    let table: &[(&str, bool)] = &[
        ("Ivanov I.", false),
        ("Иванов Иван", false),
        ("Ivanov\0I.", true),
        ("Ivanov\nBcc: x@y", true),
        ("\u{202E}vonavI", true),
        ("Ivanov \u{2066}I.\u{2069}", true),
        ("   ", true),
        (&long, true),
        (&long[..400], false),
    ];
    let original = EXAMPLE
        .lines()
        .find(|line| line.trim_start().starts_with("name = ") && line.contains("Ivanov"))
        .expect("the example names Ivanov");
    for (name, refused) in table {
        let line = format!("name = {}", toml::Value::String(name.to_string()));
        let text = EXAMPLE.replacen(original, &line, 1);
        match parse(&text) {
            Ok(_) => assert!(!refused, "{name:?} was taken"),
            Err(error) => {
                assert!(refused, "{name:?}: {error}");
                assert!(error.key.ends_with("].name"), "{name:?}: {error}");
                assert!(!error.fix.is_empty());
            }
        }
    }
}

#[test]
fn issue_31_point_12_ids_that_fold_to_one_ascii_are_refused_naming_both_files() {
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

/// How a server is logged into: `auth` (by default the LOGIN command for
/// IMAP, AUTH PLAIN for SMTP), the secret from `password_env` or
/// `password_command` (one of them), and SMTP without a username not at
/// all.
#[test]
fn a_login_is_by_auth_with_the_secret_of_password_env_or_password_command() {
    let smtp = |extra: &str| {
        EXAMPLE.replacen(
            "kind = \"file\"                  # or \"smtp\" or \"sendmail\"\npath = \"mail/outbox\"",
            &format!("kind = \"smtp\"\nhost = \"smtp.example.org\"\n{extra}"),
            1,
        )
    };
    let login = |text: &str| match parse(text).map(|config| config.transport) {
        Ok(Transport::Smtp { server, .. }) => Ok((server.auth, server.secret)),
        Ok(other) => panic!("{other:?}"),
        Err(error) => Err((error.key, error.fix)),
    };
    let env = |name: &str| Secret::Env(name.into());
    let command = |text: &str| Secret::Command(text.into());
    let user = "username = \"bot@example.org\"\n";
    let table = [
        ("", Ok((Auth::Plain, Secret::None))),
        (
            &format!("{user}password_env = \"PW\"") as &str,
            Ok((Auth::Plain, env("PW"))),
        ),
        (
            &format!("{user}auth = \"login\"\npassword_env = \"PW\""),
            Ok((Auth::Login, env("PW"))),
        ),
        (
            &format!("{user}auth = \"xoauth2\"\npassword_command = \"oauth2ms --encode\""),
            Ok((Auth::XOAuth2, command("oauth2ms --encode"))),
        ),
        (
            &format!("{user}auth = \"oauthbearer\"\npassword_command = \"token\""),
            Ok((Auth::OAuthBearer, command("token"))),
        ),
    ];
    for (extra, expected) in table {
        assert_eq!(login(&smtp(extra)), expected, "{extra:?}");
    }
    // (keys, the key named, words of its fix)
    let wrong = [
        (
            format!("{user}auth = \"cram-md5\"\npassword_env = \"PW\""),
            "transport.auth",
            "\"xoauth2\"",
        ),
        (
            format!("{user}password_env = \"PW\"\npassword_command = \"x\""),
            "transport.password_command",
            "keep one",
        ),
        (
            format!("{user}password_command = \" \""),
            "transport.password_command",
            "prints the password",
        ),
        (
            user.to_string(),
            "transport.password_env",
            "or give password_command",
        ),
        (
            "auth = \"xoauth2\"".to_string(),
            "transport.username",
            "login name",
        ),
    ];
    for (extra, key, words) in wrong {
        let (named, fix) = login(&smtp(&extra)).unwrap_err();
        assert_eq!(named, key, "{extra:?}");
        assert!(fix.contains(words), "{extra:?}: {fix}");
    }
    // IMAP logs in by its LOGIN command unless told.
    let imap = EXAMPLE.replacen(
        "kind = \"maildir\"               # or \"imap\"",
        "kind = \"imap\"\nhost = \"imap.example.org\"\nusername = \"bot\"\npassword_env = \"PW\"",
        1,
    );
    match parse(&imap).map(|config| config.source) {
        Ok(Source::Imap { server, .. }) => assert_eq!(server.auth, Auth::Login),
        other => panic!("{other:?}"),
    }
}

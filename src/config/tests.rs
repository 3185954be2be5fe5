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

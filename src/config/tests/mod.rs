//! The configuration's checks, error by error.

use super::*;

mod folder;

const EXAMPLE: &str = include_str!("../../../config.example.toml");

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
    assert_eq!(config.draw().len(), 2, "a player may be in several games");
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
    assert_eq!(config.draw().game("2").unwrap().white, "petrov");
    assert_eq!(ids(config.draw().games_of("ivanov")), ["1", "2"]);
    assert!(config.draw().games_of("sidorov").is_empty());
    // The players' list changed after loading is still searched right (an
    // order's edit of the file changes it in place).
    config.players.swap(0, 1);
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
        // Ids that would break a subject tag or a Message-ID.
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
#[test]
fn an_offset_is_on_the_line_it_starts_or_is_within() {
    let text = "a = 1\n\n[b]\nc";
    let table = [(0, 1), (3, 1), (5, 1), (6, 2), (7, 3), (11, 4), (99, 4)];
    for (offset, line) in table {
        assert_eq!(super::line_at(text, offset), line, "offset {offset}");
    }
}

#[test]
fn a_players_name_nobody_means_is_refused_at_load_with_its_key() {
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

/// `tls = "none"` with a login is only for a server on
/// this machine: to another host it would send the password in the clear.
#[test]
fn a_login_in_the_clear_goes_only_to_this_machine() {
    let smtp = |host: &str, extra: &str| {
        EXAMPLE.replacen(
            "kind = \"file\"                  # or \"smtp\" or \"sendmail\"\npath = \"mail/outbox\"",
            &format!("kind = \"smtp\"\nhost = \"{host}\"\nport = 25\ntls = \"none\"\n{extra}"),
            1,
        )
    };
    let login = "username = \"bot@example.org\"\npassword_env = \"PW\"";
    // (host, keys, loads)
    let table = [
        ("smtp.example.org", login, false),
        ("192.168.1.10", login, false),
        ("127.0.0.1", login, true),
        ("localhost", login, true),
        ("::1", login, true),
        // No login: nothing secret goes (a relay that takes the clerk's
        // mail by its address).
        ("smtp.example.org", "", true),
    ];
    for (host, extra, loads) in table {
        match parse(&smtp(host, extra)) {
            Ok(_) => assert!(loads, "{host} {extra:?} loaded"),
            Err(error) => {
                assert!(!loads, "{host}: {error}");
                assert_eq!(error.key, "transport.tls");
                assert!(error.to_string().contains("in the clear"), "{error}");
                assert!(error.fix.contains("\"starttls\""), "{}", error.fix);
            }
        }
    }
}

#[test]
fn trusted_ids_are_one_a_list_or_a_pattern_never_a_bare_star() {
    let with = |security: &str| {
        let text = EXAMPLE.replace(
            "[security]                     # how far the From: line is trusted; all optional",
            &format!("[security]\n{security}"),
        );
        parse(&text)
    };
    let config = with("trusted_authserv_id = \"MX.Example.org.\"\nrequire = \"dkim\"").unwrap();
    assert_eq!(
        config.security.trusted,
        [TrustedId::Host("mx.example.org".into())]
    );
    assert_eq!(config.security.alignment, Alignment::Strict);
    let config = with(
        "trusted_authserv_id = [\"mx.google.com\", \"*.Yandex.net\"]\nrequire = \"spf\"\nalignment = \"relaxed\"",
    )
    .unwrap();
    assert_eq!(
        config.security.trusted,
        [
            TrustedId::Host("mx.google.com".into()),
            TrustedId::Under("yandex.net".into())
        ]
    );
    assert_eq!(config.security.alignment, Alignment::Relaxed);
    assert!(config.security.trusted[1].matches("myt6-50f129ea7c6f.qloud-c.yandex.net"));
    assert!(!config.security.trusted[1].matches("yandex.net"));
    assert!(!config.security.trusted[1].matches("evilyandex.net"));
    // (the [security] lines, the problem's words)
    for (security, problem) in [
        (
            "trusted_authserv_id = \"*\"\nrequire = \"dkim\"",
            "a bare \"*\"",
        ),
        (
            "trusted_authserv_id = [\"mx.example.org\", \"*.net\"]",
            "would trust the fields of servers you do not run",
        ),
        (
            "trusted_authserv_id = \"mx*.yandex.net\"",
            "has a * that is not its first label",
        ),
        (
            "trusted_authserv_id = \"mx.example.org; dkim=pass\"",
            "is not an authserv-id",
        ),
        ("trusted_authserv_id = [\"\"]", "has an empty name"),
        (
            "trusted_authserv_id = []\nrequire = \"dkim\"",
            "is missing, and security.require needs it",
        ),
    ] {
        let error = with(security).unwrap_err();
        assert_eq!(error.key, "security.trusted_authserv_id", "{security}");
        assert!(error.problem.contains(problem), "{security}: {error}");
        assert!(!error.fix.is_empty());
    }
    let error = with("alignment = \"loose\"").unwrap_err();
    assert_eq!(error.key, "security.alignment");
    assert!(error.fix.contains("\"relaxed\""), "{error}");
}

#[test]
fn the_xfcc_server_is_given_an_address_a_place_to_listen_and_both_tls_files_or_none() {
    let with = |xfcc: &str| {
        let text = EXAMPLE.replacen(
            "\n[[players]]",
            &format!("\n[xfcc]\n{xfcc}\n\n[[players]]"),
            1,
        );
        parse(&text)
    };
    assert_eq!(parse(EXAMPLE).unwrap().xfcc, None);
    let config = with("url = \"https://chess.example.org/xfcc\"").unwrap();
    let xfcc = config.xfcc.unwrap();
    assert_eq!(xfcc.url, "https://chess.example.org/xfcc");
    assert_eq!(xfcc.listen.to_string(), "127.0.0.1:8080");
    assert_eq!(xfcc.tls, None);
    let config = with(
        "url = \"https://chess.example.org/xfcc\"\nlisten = \"0.0.0.0:443\"\n\
         tls_cert = \"/etc/ssl/chess.pem\"\ntls_key = \"/etc/ssl/chess.key\"",
    )
    .unwrap();
    let xfcc = config.xfcc.unwrap();
    assert_eq!(xfcc.listen.port(), 443);
    assert_eq!(
        xfcc.tls,
        Some(("/etc/ssl/chess.pem".into(), "/etc/ssl/chess.key".into()))
    );
    // (the [xfcc] lines, the key refused, the problem's words)
    for (xfcc, key, problem) in [
        (
            "listen = \"0.0.0.0:443\"",
            "xfcc.url",
            "no address is given",
        ),
        (
            "url = \"chess.example.org/xfcc\"",
            "xfcc.url",
            "is not an http:// or https:// address",
        ),
        (
            "url = \"http://localhost:8080\"\nlisten = \"8080\"",
            "xfcc.listen",
            "\"8080\" is not an address and port",
        ),
        (
            "url = \"https://x.org\"\ntls_cert = \"c.pem\"",
            "xfcc.tls_key",
            "needs both",
        ),
    ] {
        let error = with(xfcc).unwrap_err();
        assert_eq!(error.key, key, "{xfcc}");
        assert!(error.problem.contains(problem), "{xfcc}: {error}");
        assert!(!error.fix.is_empty());
    }
}

#[test]
fn the_report_is_published_at_an_http_address_or_nowhere() {
    let with = |report: &str| {
        let text = EXAMPLE.replacen(
            "\n[[players]]",
            &format!("\n[report]\n{report}\n\n[[players]]"),
            1,
        );
        parse(&text)
    };
    assert_eq!(parse(EXAMPLE).unwrap().report_url, None);
    let config = with("url = \"https://chess.example.org/cup/\"").unwrap();
    assert_eq!(
        config.report_url.as_deref(),
        Some("https://chess.example.org/cup")
    );
    for (url, problem) in [
        (
            "chess.example.org/cup",
            "is not an http:// or https:// address",
        ),
        (" ", "the address is empty"),
    ] {
        let error = with(&format!("url = \"{url}\"")).unwrap_err();
        assert_eq!(error.key, "report.url", "{url}");
        assert!(error.problem.contains(problem), "{url}: {error}");
        assert!(error.fix.contains("[report] out"), "{error}");
    }
}

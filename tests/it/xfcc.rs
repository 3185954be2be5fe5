//! `XFCC` / `ИКСФЦЦ` by mail: a player asks for a login to the Xfcc server
//! and is sent its address, his user name and a new password, whose hash
//! alone the clerk keeps; asked again, the old password stops working.

use shtempel::xfcc::login::verify;

use crate::support::*;

const XFCC: &str = "[xfcc]\nurl = \"https://chess.example.org/xfcc\"";

/// The value after `label` on a line of the message's body.
fn line_value<'b>(body: &'b str, label: &str) -> &'b str {
    body.lines()
        .find_map(|line| line.trim().strip_prefix(label))
        .unwrap_or_else(|| panic!("no {label:?} in {body}"))
        .trim()
}

/// The hash the clerk keeps of `username`'s password.
fn kept_hash(t: &Tournament, username: &str) -> String {
    let configs = shtempel::config::load_all(&t.path().join("shtempel.toml")).unwrap();
    let store = shtempel::store::Store::open(&configs[0].database).unwrap();
    store
        .xfcc_login(username)
        .unwrap()
        .unwrap_or_else(|| panic!("no login of {username}"))
        .hash
}

#[test]
fn a_player_is_sent_a_login_and_a_new_one_replaces_it() {
    for language in ["en", "ru"] {
        let mut t = Cup::new().in_language(language).table(XFCC).open();
        let word = pick(language, "XFCC", "ИКСФЦЦ");
        let mail = t.exchange(WHITE, "2026-11-02", "xfcc", word);
        assert_eq!(kinds(&mail), [pair("xfcc-login", WHITE)], "{mail:#?}");
        let letter = &mail[0];
        let server = pick(language, "Server:", "Сервер:");
        let name = pick(language, "User name:", "Имя:");
        let password = pick(language, "Password:", "Пароль:");
        assert_eq!(
            line_value(&letter.body, server),
            "https://chess.example.org/xfcc"
        );
        assert_eq!(line_value(&letter.body, name), "white");
        let first = line_value(&letter.body, password).to_string();
        assert_eq!(first.len(), 16, "{first}");
        assert_eq!(
            letter.subject,
            pick(
                language,
                "[T] your login to the Xfcc server",
                "[T] ваш вход на сервер Xfcc"
            )
        );
        // The clerk keeps its hash, which the password matches.
        let hash = kept_hash(&t, "white");
        assert!(!hash.contains(&first));
        assert!(verify(&first, &hash));
        // Asked again: another password, and the first no longer works.
        let mail = t.exchange(WHITE, "2026-11-02", "xfcc", word);
        let second = line_value(&mail[0].body, password).to_string();
        assert_ne!(second, first);
        let hash = kept_hash(&t, "white");
        assert!(verify(&second, &hash));
        assert!(!verify(&first, &hash));
    }
}

#[test]
fn without_a_server_he_is_told_there_is_none_and_beside_a_move_to_ask_apart() {
    for language in ["en", "ru"] {
        let mut t = Cup::new().in_language(language).open();
        let mail = t.exchange(BLACK, "2026-11-02", "xfcc", "xfcc.");
        assert_eq!(kinds(&mail), [pair("xfcc-login", BLACK)], "{mail:#?}");
        mail[0].says(pick(
            language,
            "the clerk has no Xfcc server: play by letter, as before.",
            "У секретаря нет сервера Xfcc: играйте письмами, как прежде.",
        ));
        mail[0].never_says(pick(language, "Password:", "Пароль:"));
        // With a move, the move is taken and the login named as not sent.
        let mut t = Cup::new().in_language(language).table(XFCC).open();
        let mail = t.exchange(WHITE, "2026-11-03", "Game 1", &format!("{W1}\nXFCC"));
        let ack = mail.iter().find(|m| m.to == [WHITE]).expect("his answer");
        ack.says(pick(
            language,
            "send XFCC in a letter of its own",
            "пришлите XFCC отдельным письмом",
        ));
        assert!(mail.iter().any(|m| m.kind == "forward"), "{mail:#?}");
        assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 1);
    }
}

//! The documentation in `docs/` against the code: every key the config's
//! parser knows is in `docs/config.md`, and every key there is one it knows.

use std::collections::BTreeSet;
use std::path::Path;

use shtempel::config::Config;
use shtempel::letter::WrittenOrder;

use crate::support::*;

/// The tables of a tournament's file, as `docs/config.md` heads them.
const TABLES: &[&str] = &[
    "tournament",
    "rules",
    "bot",
    "arbiters",
    "source",
    "transport",
    "limits",
    "mail",
    "security",
    "report",
    "xfcc",
    "ratings",
    "players",
    "games",
];

/// The keys the parser knows in `table`, as its refusal of an unknown key
/// lists them ("unknown field `…`, expected one of `a`, `b`").
fn keys_the_parser_knows(table: &str) -> BTreeSet<String> {
    let text = Cup::new()
        .table("[limits]\n\n[mail]\n\n[security]\n\n[report]\n\n[xfcc]\n\n[ratings]")
        .text();
    let header = match table {
        "players" | "games" => format!("[[{table}]]\n"),
        _ => format!("[{table}]\n"),
    };
    let at = text.find(&header).unwrap_or_else(|| panic!("no {header}")) + header.len();
    let text = format!("{}not_a_key_of_ours = 1\n{}", &text[..at], &text[at..]);
    let error = Config::parse(Path::new("shtempel.toml"), &text)
        .err()
        .unwrap_or_else(|| panic!("[{table}] took a key it does not know"))
        .to_string();
    let expected = error
        .split("expected")
        .nth(1)
        .unwrap_or_else(|| panic!("[{table}]: no list of keys in {error:?}"));
    let expected = expected.lines().next().unwrap_or_default();
    expected
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The keys `docs/config.md` gives for each table: `| \`key\` |` rows under
/// its `## \`[table]\`` heading.
fn keys_the_docs_give() -> Vec<(String, BTreeSet<String>)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/config.md");
    let text = std::fs::read_to_string(&path).expect("docs/config.md");
    let mut tables: Vec<(String, BTreeSet<String>)> = Vec::new();
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("## `[") {
            let name = heading.trim_matches(|c| c == '[' || c == ']' || c == '`');
            tables.push((name.to_string(), BTreeSet::new()));
        } else if let Some(row) = line.strip_prefix("| `")
            && let Some((key, _)) = row.split_once('`')
            && let Some((_, keys)) = tables.last_mut()
        {
            keys.insert(key.to_string());
        }
    }
    tables
}

#[test]
fn docs_config_md_gives_every_key_the_parser_knows_and_no_other() {
    let docs = keys_the_docs_give();
    let named: Vec<&str> = docs.iter().map(|(table, _)| table.as_str()).collect();
    assert_eq!(named, TABLES, "the tables of docs/config.md");
    for (table, documented) in &docs {
        let mut known = keys_the_parser_knows(table);
        if table == "bot" {
            // A clerk's own file names its folder of tournaments; the
            // folder's loader takes the key before a tournament is parsed.
            known.insert("tournaments".into());
        }
        let missing: Vec<_> = known.difference(documented).collect();
        let unknown: Vec<_> = documented.difference(&known).collect();
        assert!(
            missing.is_empty(),
            "[{table}]: docs/config.md lacks {missing:?}"
        );
        assert!(
            unknown.is_empty(),
            "[{table}]: docs/config.md gives {unknown:?}, which the parser does not know"
        );
    }
}

/// The binary's help for `args`.
fn help(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_shtempel"))
        .args(args)
        .arg("--help")
        .output()
        .expect("run shtempel");
    assert!(out.status.success(), "shtempel {args:?} --help");
    String::from_utf8(out.stdout).unwrap()
}

/// The options every command has, which `docs/commands.md` gives once.
const EVERY_COMMAND: &[&str] = &["--config", "--tournament", "--future", "--help"];

/// A command's arguments (`GAME`) and options (`--today`), as its help
/// lists them.
fn words_of_command(command: &str) -> BTreeSet<String> {
    let text = help(&[command]);
    let mut words = BTreeSet::new();
    let mut section = "";
    for line in text.lines() {
        if !line.starts_with(' ') {
            section = line;
            continue;
        }
        let first = line.split_whitespace().next().unwrap_or_default();
        let word = match section {
            "Arguments:" => first.trim_matches(|c| "<>[].".contains(c)).to_string(),
            "Options:" => match line.find("--") {
                Some(at) => line[at..].split_whitespace().next().unwrap().to_string(),
                None => continue,
            },
            _ => continue,
        };
        if !EVERY_COMMAND.contains(&word.as_str()) {
            words.insert(word);
        }
    }
    words
}

/// The commands `docs/commands.md` gives (`### \`shtempel NAME …\``), each
/// with the first word of each of its table's rows.
fn commands_the_docs_give() -> Vec<(String, BTreeSet<String>)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/commands.md");
    let text = std::fs::read_to_string(&path).expect("docs/commands.md");
    let text = text.split("## Orders by mail").next().unwrap();
    let mut commands: Vec<(String, BTreeSet<String>)> = Vec::new();
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("### `shtempel ") {
            let name = heading.split([' ', '`']).next().unwrap();
            commands.push((name.to_string(), BTreeSet::new()));
        } else if let Some(row) = line.strip_prefix("| `")
            && let Some((_, words)) = commands.last_mut()
        {
            let word = row.split([' ', '`']).next().unwrap();
            words.insert(word.to_string());
        }
    }
    commands
}

#[test]
fn docs_commands_md_gives_every_command_with_its_arguments_and_options() {
    let top = help(&[]);
    let listed: BTreeSet<String> = top
        .split("Commands:")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .expect("the commands of --help")
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect();
    let docs = commands_the_docs_give();
    let documented: BTreeSet<String> = docs.iter().map(|(name, _)| name.clone()).collect();
    assert_eq!(documented, listed, "the commands of docs/commands.md");
    for (command, given) in &docs {
        let known = words_of_command(command);
        assert_eq!(
            given, &known,
            "`shtempel {command}`: docs/commands.md gives these, its --help those"
        );
    }
}

/// Each order the page shows, in English and in Russian, is read as the
/// same order by the clerk's reader, and every kind of order is shown.
#[test]
fn docs_commands_md_orders_are_read_as_the_orders_they_show() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/commands.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let table = text.split("## Orders by mail").nth(1).expect("the orders");
    let table = table.split("\n## ").next().unwrap();
    let mut kinds = BTreeSet::new();
    for row in table.lines().filter(|line| line.starts_with("| `")) {
        let cells: Vec<&str> = row.split('`').collect();
        let (english, russian) = (cells[1], cells[3]);
        let order = |line: &str| {
            let letter = shtempel::letter::read(&format!("{line}\n"));
            assert_eq!(letter.rulings.len(), 1, "{line:?} is not read as an order");
            // As the clerk means it, of no tournament's id (`WITHDRAW
            // ivanov illness` withdraws ivanov): what it orders, and of what.
            let meant = letter.rulings[0].resolved(&[]).order;
            let what = match &meant {
                WrittenOrder::Overstep { decision, .. } => format!("Overstep({decision:?})"),
                WrittenOrder::Result { result, .. } => format!("Result({result:?})"),
                WrittenOrder::Forfeit { result, .. } => format!("Forfeit({result:?})"),
                other => format!("{other:?}")
                    .split(' ')
                    .next()
                    .unwrap_or_default()
                    .to_string(),
            };
            format!("{what} {}", meant.named())
        };
        let kind = order(english);
        assert_eq!(order(russian), kind, "{english:?} and {russian:?}");
        kinds.insert(kind.split([' ', '(']).next().unwrap().to_string());
    }
    let every = [
        "Accept", "Forfeit", "Overstep", "Replace", "Result", "Retry", "Undo", "Withdraw",
    ];
    assert_eq!(kinds, every.iter().map(|k| k.to_string()).collect());
}

/// The letters `docs/letters.md` shows players are read as it says: both
/// examples give the move, the time and the three dates, and each phrase
/// the words it names.
#[test]
fn docs_letters_md_examples_read_as_the_page_says() {
    use shtempel::letter::Keyword;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/letters.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let for_players = text.split("## The details").next().unwrap();
    let examples: Vec<&str> = for_players.split("```").skip(1).step_by(2).collect();
    assert_eq!(examples.len(), 2, "a Russian and an English example");
    for example in examples {
        let letter = shtempel::letter::read(example);
        assert!(letter.errors.is_empty(), "{example}: {:?}", letter.errors);
        let moves: Vec<String> = letter.moves.iter().map(|m| m.text.to_string()).collect();
        assert_eq!(moves, ["Nf3"], "{example}");
        let fraction = letter.fraction.expect("the time");
        assert_eq!((fraction.white, fraction.black), (31, 27), "{example}");
        assert!(letter.dates.sent.is_some(), "{example}: {:?}", letter.dates);
        assert!(letter.dates.received.is_some(), "{example}");
        assert!(letter.dates.postmark.is_some(), "{example}");
    }
    let phrases = [
        ("Предлагаю ничью", Keyword::DrawOffer),
        ("Согласен на ничью", Keyword::DrawAccept),
        ("Сдаюсь", Keyword::Resign),
        ("I offer a draw", Keyword::DrawOffer),
        ("I accept the draw", Keyword::DrawAccept),
        ("I resign", Keyword::Resign),
    ];
    for (phrase, keyword) in phrases {
        assert!(
            text.contains(&format!("`{phrase}`")),
            "the page shows {phrase:?}"
        );
        let letter = shtempel::letter::read(&format!("{phrase}\n"));
        assert_eq!(letter.keywords, [keyword], "{phrase:?}");
    }
    for leave in [
        "ОТПУСК 10.12.2026 - 20.12.2026",
        "LEAVE 10.12.2026 - 20.12.2026",
    ] {
        assert!(
            text.contains(&format!("`{leave}`")),
            "the page shows {leave:?}"
        );
        let letter = shtempel::letter::read(&format!("{leave}\n"));
        assert_eq!(letter.leave.map(|dates| dates.len()), Some(2), "{leave:?}");
    }
}

/// Every kind of message the clerk sends is in docs/commands.md's table
/// of kinds, and the table names no other.
#[test]
fn docs_commands_md_gives_every_kind_of_message() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/commands.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let table = text
        .split("## What the clerk's messages carry")
        .nth(1)
        .expect("the kinds");
    let documented: BTreeSet<String> = table
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|row| row.split('`').next())
        .map(str::to_string)
        .collect();
    let kinds: BTreeSet<String> = shtempel::message::MessageKind::ALL
        .iter()
        .map(|kind| kind.header().to_string())
        .collect();
    assert_eq!(documented, kinds);
}

/// config.example.toml names every value `[mail] diagrams` takes.
#[test]
fn the_example_config_lists_every_diagrams_value() {
    let example =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("config.example.toml"))
            .unwrap();
    let at = example.find("# diagrams =").expect("the diagrams line");
    let said = &example[at..at + 400];
    for value in ["\"both\"", "\"text\"", "\"picture\"", "\"none\""] {
        assert!(said.contains(value), "{value} in {said}");
    }
}

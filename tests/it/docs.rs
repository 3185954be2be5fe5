//! The documentation in `docs/` against the code: every key the config's
//! parser knows is in `docs/config.md`, and every key there is one it knows.

use std::collections::BTreeSet;
use std::path::Path;

use shtempel::config::Config;

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
    "security",
    "report",
    "players",
    "games",
];

/// The keys the parser knows in `table`, as its refusal of an unknown key
/// lists them ("unknown field `…`, expected one of `a`, `b`").
fn keys_the_parser_knows(table: &str) -> BTreeSet<String> {
    let text = Cup::new()
        .table("[limits]\n\n[security]\n\n[report]")
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

//! The maps of the code hold to the tree: `lib.rs`'s layer map names every
//! module of `src/` and none that is not there, and says what each folder
//! holds; `clerk/mod.rs`, its folders' and `rules/mod.rs` name each module
//! they declare.

use std::collections::BTreeSet;
use std::path::Path;

fn source(path: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The modules a file declares (`mod x;`, `pub mod x;`), tests left out.
fn declared(file: &str) -> BTreeSet<String> {
    source(file)
        .lines()
        .filter_map(|line| {
            let line = line
                .trim_start_matches("pub ")
                .trim_start_matches("pub(crate) ");
            let name = line.strip_prefix("mod ")?.strip_suffix(';')?;
            (name != "tests").then(|| name.to_string())
        })
        .collect()
}

/// The layer map of `lib.rs`: each entry's name (`main.rs`, `cli/`) and
/// the words of its description.
fn lib_map() -> Vec<(String, String)> {
    let lib = source("lib.rs");
    let block = lib
        .split("//! ```text\n")
        .nth(1)
        .and_then(|rest| rest.split("//! ```\n").next())
        .expect("lib.rs opens with a ```text map");
    let mut entries: Vec<(String, String)> = Vec::new();
    for line in block.lines() {
        let line = line.trim_start_matches("//!");
        let named = line
            .strip_prefix(' ')
            .and_then(|rest| rest.split_whitespace().next())
            .filter(|word| {
                (word.ends_with(".rs") || word.ends_with('/')) && !line.starts_with("  ")
            });
        match named {
            Some(name) => entries.push((name.to_string(), line.to_string())),
            None => {
                if let Some((_, words)) = entries.last_mut() {
                    words.push_str(line);
                }
            }
        }
    }
    entries
}

#[test]
fn the_layer_map_names_every_module_of_the_tree_and_nothing_else() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let tree: BTreeSet<String> = std::fs::read_dir(&src)
        .unwrap()
        .map(|entry| entry.unwrap())
        .map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            match entry.file_type().unwrap().is_dir() {
                true => format!("{name}/"),
                false => name,
            }
        })
        .filter(|name| name != "lib.rs")
        .collect();
    let map: BTreeSet<String> = lib_map().into_iter().map(|(name, _)| name).collect();
    assert_eq!(
        map.difference(&tree).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "named in lib.rs's map, not in src/"
    );
    assert_eq!(
        tree.difference(&map).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "in src/, not in lib.rs's map"
    );
}

#[test]
fn the_layer_map_says_what_each_folder_holds() {
    for (name, words) in lib_map() {
        let Some(folder) = name.strip_suffix('/') else {
            continue;
        };
        let has_mod = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("src")
            .join(folder)
            .join("mod.rs")
            .exists();
        // The binary's commands (a file each, named by the commands' docs),
        // a folder of data (the demo's letters), and the folders with a map
        // of their own (held by the test below).
        if ["cli", "clerk", "rules"].contains(&folder) || !has_mod {
            continue;
        }
        let said: BTreeSet<&str> = words
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .collect();
        let missing: Vec<String> = declared(&format!("{folder}/mod.rs"))
            .into_iter()
            .filter(|module| !said.contains(module.as_str()))
            .collect();
        assert!(
            missing.is_empty(),
            "lib.rs's map of {name} leaves out {missing:?}"
        );
    }
}

#[test]
fn the_clerks_and_the_rules_maps_name_each_of_their_modules() {
    let files = [
        "clerk/mod.rs",
        "clerk/intake/mod.rs",
        "clerk/letters/mod.rs",
        "clerk/order/mod.rs",
        "clerk/calendar/mod.rs",
        "clerk/say/mod.rs",
        "rules/mod.rs",
    ];
    for file in files {
        let text = source(file);
        let docs: String = text
            .lines()
            .filter_map(|line| line.strip_prefix("//!"))
            .collect::<Vec<_>>()
            .join("\n");
        let missing: Vec<String> = declared(file)
            .into_iter()
            .filter(|module| !docs.contains(&format!("`{module}`")))
            .collect();
        assert!(missing.is_empty(), "{file}'s map leaves out {missing:?}");
    }
}

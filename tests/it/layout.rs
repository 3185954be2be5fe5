//! The maps of the code hold to the tree: `lib.rs`'s layer map names every
//! module of `src/` and none that is not there, and says what each folder
//! holds; `clerk/mod.rs`, its folders' and `rules/mod.rs` name each module
//! they declare; and the clerk's job folders call each other only down
//! `clerk/mod.rs`'s list.

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

/// The clerk's job folders, each calling only those after it (and the
/// files beside them, which all of them share): `clerk/mod.rs`'s list.
const CLERK_JOBS: [&str; 5] = ["intake", "calendar", "letters", "order", "say"];

/// The clerk's files: each one's path below `src/clerk/` and its text.
fn clerk_files() -> Vec<(String, String)> {
    fn walk(dir: &Path, below: &str, files: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = format!("{below}{name}");
            if entry.file_type().unwrap().is_dir() {
                walk(&entry.path(), &format!("{path}/"), files);
            } else if name.ends_with(".rs") {
                files.push((path, std::fs::read_to_string(entry.path()).unwrap()));
            }
        }
    }
    let mut files = Vec::new();
    let clerk = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/clerk");
    walk(&clerk, "", &mut files);
    files
}

/// The job folder a clerk's file is in; `None` for the shared files beside
/// the folders.
fn job_of(path: &str) -> Option<&str> {
    path.split_once('/').map(|(folder, _)| folder)
}

#[test]
fn the_clerks_job_folders_call_only_down_their_list() {
    let files = clerk_files();
    let method =
        regex::Regex::new(r"\bfn\s+(\w+)\s*(?:<[^>]*>)?\(\s*&(?:'\w+\s+)?(?:mut\s+)?self\b")
            .unwrap();
    // `self.plan_move(` within a job, `self.letters().plan_move(` from
    // another (a job is reached by the clerk's method of its name).
    let call = regex::Regex::new(
        r"\b(?:self|clerk|sibling|desk)\.(?:(?:intake|calendar|letters|orders)\(\)\.)?(\w+)\(",
    )
    .unwrap();
    // Each method of the clerk's by the job folder that defines it; a name
    // defined in two places (or beside the folders) is no folder's.
    let mut defined: std::collections::BTreeMap<String, Option<&str>> = Default::default();
    for (path, text) in &files {
        for found in method.captures_iter(text) {
            let job = job_of(path);
            defined
                .entry(found[1].to_string())
                .and_modify(|at| *at = at.filter(|at| Some(*at) == job))
                .or_insert(job);
        }
    }
    assert!(
        defined.get("plan_move").copied().flatten() == Some("letters"),
        "the methods were not found where they are"
    );
    let rank = |job: &str| CLERK_JOBS.iter().position(|j| *j == job);
    let mut upward = Vec::new();
    let mut across = BTreeSet::new();
    for (path, text) in &files {
        let Some(caller) = job_of(path) else {
            continue;
        };
        for found in call.captures_iter(text) {
            let Some(Some(callee)) = defined.get(&found[1]) else {
                continue;
            };
            if rank(callee) < rank(caller) {
                upward.push(format!("{path} calls {} of {callee}/", &found[1]));
            } else if *callee != caller {
                across.insert(format!("{path} calls {} of {callee}/", &found[1]));
            }
        }
    }
    assert!(
        across.contains("intake/mod.rs calls plan_player of letters/"),
        "a call through a job is read: {across:#?}"
    );
    assert!(
        upward.is_empty(),
        "calls up the clerk's list ({CLERK_JOBS:?}): {upward:#?}"
    );
    for job in CLERK_JOBS {
        assert!(
            files.iter().any(|(path, _)| job_of(path) == Some(job)),
            "{job}/ is in the list but not in src/clerk"
        );
    }
}

#[test]
fn each_job_folders_methods_are_its_own_types() {
    // A job's methods are on its type (`impl Letters`), the clerk's own on
    // `Clerk`, beside the folders and in `say/`, which every job calls.
    let job_types = [
        ("intake", "Intake"),
        ("calendar", "Calendar"),
        ("letters", "Letters"),
        ("order", "Orders"),
    ];
    let implemented = regex::Regex::new(r"(?m)^impl(?:<[^>]*>)? (\w+)<'_, '_> \{").unwrap();
    let clerk_impl = regex::Regex::new(r"(?m)^impl(?:<[^>]*>)? Clerk<").unwrap();
    let mut misplaced = Vec::new();
    let mut seen = BTreeSet::new();
    for (path, text) in clerk_files() {
        let own = job_of(&path)
            .and_then(|job| job_types.iter().find(|(folder, _)| *folder == job))
            .map(|(_, ty)| *ty);
        for found in implemented.captures_iter(&text) {
            let ty = found[1].to_string();
            if job_types.iter().any(|(_, t)| *t == ty) {
                seen.insert(ty.clone());
                if own != Some(ty.as_str()) {
                    misplaced.push(format!("{path} implements {ty}"));
                }
            }
        }
        if own.is_some() && clerk_impl.is_match(&text) {
            misplaced.push(format!("{path} implements Clerk"));
        }
    }
    assert_eq!(
        seen.len(),
        job_types.len(),
        "every job has methods: {seen:?}"
    );
    assert!(misplaced.is_empty(), "{misplaced:#?}");
}

//! The message templates: `templates/<lang>/<name>.txt`, loaded from disk once
//! per run and compiled. A file missing from the tournament's folder falls back to
//! the default built into the program, so a director may override only what he
//! wants to reword. Each template begins with a `Subject:` line and a blank line.
//!
//! Templates get a plain model (names, moves, dates already written in the
//! reader's language, totals, structured corrections: the clerk words its
//! facts before rendering) and never compute rules.

use std::path::Path;
use std::sync::Arc;

use minijinja::syntax::SyntaxConfig;
use minijinja::value::{Enumerator, Object};
use minijinja::{Environment, UndefinedBehavior};

use crate::Lang;
use crate::message::{BUILTIN_EN, BUILTIN_RU, MessageKind};
use crate::phrases::Phrases;

/// What a template reads: minijinja's own values, built directly (built as
/// JSON and converted, a message's model cost more than its rendering).
pub type Model = minijinja::Value;

/// A model's named values, looked up by name in a short list.
#[derive(Debug)]
pub struct Fields(pub Vec<(&'static str, Model)>);

impl Object for Fields {
    fn get_value(self: &Arc<Self>, key: &Model) -> Option<Model> {
        let key = key.as_str()?;
        self.0
            .iter()
            .find_map(|(name, value)| (*name == key).then(|| value.clone()))
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Values(self.0.iter().map(|(name, _)| Model::from(*name)).collect())
    }

    fn enumerator_len(self: &Arc<Self>) -> Option<usize> {
        Some(self.0.len())
    }
}

/// A model with named values: `model! { "moves" => text, "days" => 3 }`.
/// Names are strings, as the templates spell them (`move` is one).
#[macro_export]
macro_rules! model {
    ($($name:literal => $value:expr),* $(,)?) => {
        $crate::render::Model::from_object($crate::render::Fields(vec![
            $(($name, $crate::render::Model::from($value))),*
        ]))
    };
}

/// A model with the names of `first`, and those of `second` it lacks.
pub fn merged(first: Model, second: Model) -> Model {
    // merge_maps lets the later source win.
    minijinja::value::merge_maps([second, first])
}

/// Templates that others include, not messages of their own.
pub const PARTIALS: &[&str] = &["_next", "_read", "_board"];

macro_rules! partials {
    ($lang:literal) => {
        &[
            (
                "_next",
                include_str!(concat!("../templates/", $lang, "/_next.txt")),
            ),
            (
                "_read",
                include_str!(concat!("../templates/", $lang, "/_read.txt")),
            ),
            (
                "_board",
                include_str!(concat!("../templates/", $lang, "/_board.txt")),
            ),
        ]
    };
}

const PARTIALS_RU: &[(&str, &str)] = partials!("ru");
const PARTIALS_EN: &[(&str, &str)] = partials!("en");

/// Every template's name: the partials and one per message kind.
pub fn names() -> impl Iterator<Item = &'static str> {
    PARTIALS
        .iter()
        .copied()
        .chain(MessageKind::ALL.iter().map(|kind| kind.template()))
}

/// The built-in text of a template.
pub fn default_template(lang: Lang, name: &str) -> Option<&'static str> {
    let (partials, kinds) = match lang {
        Lang::Ru => (PARTIALS_RU, BUILTIN_RU),
        Lang::En => (PARTIALS_EN, BUILTIN_EN),
    };
    partials
        .iter()
        .chain(kinds)
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// A template that cannot be used.
#[derive(Debug)]
pub struct TemplateError(pub String);

impl std::fmt::Display for TemplateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TemplateError {}

/// The compiled templates of one language, and its phrases.
pub struct Templates {
    env: Environment<'static>,
    lang: Lang,
    phrases: Phrases,
}

fn folder(dir: &Path, lang: Lang) -> std::path::PathBuf {
    dir.join(match lang {
        Lang::Ru => "ru",
        Lang::En => "en",
    })
}

/// The phrases of `dir/<lang>/phrases.toml` over the built-in ones (all
/// built-in where there is no such file).
pub fn load_phrases(dir: &Path, lang: Lang) -> Result<Phrases, TemplateError> {
    let path = folder(dir, lang).join("phrases.toml");
    let own = match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => {
            return Err(TemplateError(format!(
                "{}: cannot be read: {error}",
                path.display()
            )));
        }
    };
    Phrases::parse(lang, own.as_deref())
        .map_err(|e| TemplateError(format!("{}: {e}", path.display())))
}

/// A rendered message: its subject and its body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    pub subject: String,
    pub body: String,
}

/// The templates' environment: strict about names, their whitespace rules,
/// and the `days` filter of the phrases.
fn environment(phrases: &Phrases) -> Result<Environment<'static>, TemplateError> {
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    let syntax = SyntaxConfig::builder()
        .trim_blocks(true)
        .lstrip_blocks(true)
        .keep_trailing_newline(true)
        .build()
        .map_err(|e| TemplateError(e.to_string()))?;
    env.set_syntax(syntax);
    // `{{ n | days }}`: "1 day", "5 days"; "5 дн.".
    let units = phrases.clone();
    env.add_filter("days", move |n: i64| units.days(n));
    Ok(env)
}

/// Names a template may read besides its model's: minijinja's own.
const TEMPLATE_GLOBALS: &[&str] = &["loop", "namespace", "range", "dict", "debug", "self"];

/// A director's template is checked at start for what would otherwise fail
/// every letter that needs it, to be quarantined: its
/// first line must be `Subject:` (a partial's need not), and every name it
/// reads must be one its letter's model gives. The model is known by what
/// the built-in template of that letter reads, in either language (with the
/// partials it includes, or, for a partial, the letters that include it):
/// a name none of them reads is taken for a typing error, and named with
/// its line and the names there are.
fn check_edited(
    name: &str,
    path: &Path,
    template: minijinja::Template<'_, '_>,
) -> Result<(), TemplateError> {
    let source = template.source();
    if !PARTIALS.contains(&name) && !source.trim_start().starts_with("Subject:") {
        return Err(TemplateError(format!(
            "{}:1: the first line must be `Subject: ...` (the subject of the message), then an empty line",
            path.display()
        )));
    }
    let given = given_names(name);
    let mut read: Vec<String> = template.undeclared_variables(true).into_iter().collect();
    read.sort();
    let Some(unknown) = read.iter().find_map(|path| given.lacks(path)) else {
        return Ok(());
    };
    let line = source
        .lines()
        .position(|text| {
            text.match_indices(unknown).any(|(at, _)| {
                let word = |c: char| c.is_alphanumeric() || c == '_';
                !text[..at].ends_with(word) && !text[at + unknown.len()..].starts_with(word)
            })
        })
        .map_or(1, |at| at + 1);
    let mut names: Vec<&str> = given.top.iter().map(String::as_str).collect();
    names.sort_unstable();
    Err(TemplateError(format!(
        "{}:{line}: `{unknown}` is not given to this template; it has: {}",
        path.display(),
        names.join(", ")
    )))
}

/// What the built-in templates read: the names one letter's templates
/// read, and the attributes (`game.white`) any template reads.
struct Given {
    top: std::collections::HashSet<String>,
    paths: std::collections::HashSet<String>,
}

impl Given {
    /// The part of `path` (`game.whit`) that is not given, if any: its
    /// name, or the whole path where the templates read that name's
    /// attributes and none of them reads this one.
    fn lacks<'p>(&self, path: &'p str) -> Option<&'p str> {
        let top = path.split('.').next().unwrap_or(path);
        if TEMPLATE_GLOBALS.contains(&top) {
            return None;
        }
        if !self.top.contains(top) {
            return Some(top);
        }
        let dotted = |p: &String| p.starts_with(top) && p[top.len()..].starts_with('.');
        let known = !path.contains('.')
            || !self.paths.iter().any(dotted)
            || self
                .paths
                .iter()
                .any(|p| p == path || (p.starts_with(path) && p[path.len()..].starts_with('.')));
        (!known).then_some(path)
    }
}

/// What the built-in templates of `name` read: its own in both languages,
/// with its partials' (or, for a partial, its includers'), and every
/// built-in template's attributes.
fn given_names(name: &str) -> Given {
    let mut env = Environment::new();
    let mut given = Given {
        top: std::collections::HashSet::new(),
        paths: std::collections::HashSet::new(),
    };
    for lang in [Lang::Ru, Lang::En] {
        let includes = |text: &str, partial: &str| text.contains(&format!("\"{partial}"));
        let own = default_template(lang, name).unwrap_or_default();
        for other in names() {
            let text = default_template(lang, other).unwrap_or_default();
            let related = other == name
                || (PARTIALS.contains(&other) && includes(own, other))
                || (PARTIALS.contains(&name) && includes(text, name));
            if env.add_template(other, text).is_ok()
                && let Ok(template) = env.get_template(other)
            {
                if related {
                    given.top.extend(template.undeclared_variables(false));
                }
                given.paths.extend(template.undeclared_variables(true));
            }
        }
    }
    given
}

impl Templates {
    /// Loads `dir/<lang>/*.txt`, falling back to the built-in text for a file that
    /// is not there; every template is compiled now, so a broken one is found at
    /// start, not in the middle of a run.
    pub fn load(dir: &Path, lang: Lang) -> Result<Templates, TemplateError> {
        let phrases = load_phrases(dir, lang)?;
        let mut env = environment(&phrases)?;
        let folder = folder(dir, lang);
        for name in names() {
            let path = folder.join(format!("{name}.txt"));
            let source = match std::fs::read_to_string(&path) {
                Ok(text) => text,
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                    default_template(lang, name).unwrap_or_default().to_string()
                }
                Err(error) => {
                    return Err(TemplateError(format!(
                        "{}: cannot be read: {error}",
                        path.display()
                    )));
                }
            };
            let builtin = default_template(lang, name).unwrap_or_default();
            let edited = source != builtin;
            env.add_template_owned(name.to_string(), source)
                .map_err(|e| TemplateError(format!("{}: {e}", path.display())))?;
            if edited {
                let template = env
                    .get_template(name)
                    .map_err(|e| TemplateError(format!("{}: {e}", path.display())))?;
                check_edited(name, &path, template)?;
            }
        }
        Ok(Templates { env, lang, phrases })
    }

    /// The built-in templates only.
    pub fn builtin(lang: Lang) -> Templates {
        Templates::load(Path::new("/nonexistent-shtempel-templates"), lang)
            .expect("built-in templates compile")
    }

    pub fn lang(&self) -> Lang {
        self.lang
    }

    pub fn phrases(&self) -> &Phrases {
        &self.phrases
    }

    /// Renders template `name` with `model`.
    pub fn render(&self, name: &str, model: Model) -> Result<Rendered, TemplateError> {
        let template = self
            .env
            .get_template(name)
            .map_err(|e| TemplateError(format!("{name}: {e}")))?;
        let text = template
            .render(model)
            .map_err(|e| TemplateError(format!("template {name}: {e}")))?;
        let (first, body) = text.split_once('\n').unwrap_or((&text, ""));
        let subject = first
            .strip_prefix("Subject:")
            .ok_or_else(|| {
                TemplateError(format!(
                    "template {name}: the first line must be `Subject: ...`"
                ))
            })?
            .trim()
            .to_string();
        let body = body.strip_prefix('\n').unwrap_or(body);
        // Collapse runs of blank lines that optional blocks leave behind.
        let mut clean = String::with_capacity(body.len());
        let mut blank = 0;
        for line in body.lines() {
            let line = line.trim_end();
            blank = if line.is_empty() { blank + 1 } else { 0 };
            if blank <= 1 {
                clean.push_str(&one_full_stop(line));
                clean.push('\n');
            }
        }
        Ok(Rendered {
            subject,
            body: clean.trim_end().to_string() + "\n",
        })
    }
}

/// A sentence that ends in a name's initial ("… by Petrov P.") ends
/// with that initial's full stop, not two: the template's stop after a
/// name is dropped where the name already ends in one.
fn one_full_stop(line: &str) -> std::borrow::Cow<'_, str> {
    static INITIAL_STOP: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(^|[\s(])(\p{Lu})\.\.(\s|$)").expect("a valid pattern")
    });
    INITIAL_STOP.replace_all(line, "$1$2.$3")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_ending_in_an_initial_has_one_full_stop() {
        for (line, said) in [
            ("It is now Petrov P..'s move", "It is now Petrov P..'s move"),
            ("sent to Petrov P..", "sent to Petrov P."),
            ("Петров П.. Ваш ход", "Петров П. Ваш ход"),
            ("answer 2... Nc6.", "answer 2... Nc6."),
            ("Wait...", "Wait..."),
        ] {
            assert_eq!(one_full_stop(line), said, "{line}");
        }
    }

    /// An `ack` template of `source`, as rendering sees it (without the
    /// start check, which refuses names the clerk does not give).
    fn env_with(source: &str) -> Templates {
        let phrases = load_phrases(Path::new("/nonexistent"), Lang::En).unwrap();
        let mut env = environment(&phrases).unwrap();
        env.add_template_owned("ack", source.to_string()).unwrap();
        Templates {
            env,
            lang: Lang::En,
            phrases,
        }
    }

    #[test]
    fn a_model_reads_its_names_and_the_first_of_a_merge_wins() {
        let templates = env_with(
            "Subject: {{ move }} {{ to }}\n\n{{ game.id }} {{ days }} {{ none_yet or \"-\" }} \
             {% for e in errors %}[{{ e }}]{% endfor %} {{ \"yes\" if inner.ok }} {{ flags | length }}\n",
        );
        let extra = model! {
            "move" => "12. Nf3",
            "to" => "Ivanov I.",
            "days" => 3_u32,
            "none_yet" => None::<String>,
            "errors" => vec!["one".to_string(), "two".to_string()],
            "inner" => model! { "ok" => true },
            "flags" => model! { "a" => 1, "b" => 2 },
        };
        let base = model! {
            "to" => "nobody",
            "game" => model! { "id" => "17" },
        };
        let rendered = templates.render("ack", merged(extra, base)).unwrap();
        assert_eq!(rendered.subject, "12. Nf3 Ivanov I.");
        assert_eq!(rendered.body, "17 3 - [one][two] yes 2\n");
    }

    #[test]
    fn every_built_in_template_passes_the_start_check_in_either_language() {
        let mut env = Environment::new();
        for lang in [Lang::Ru, Lang::En] {
            for name in names() {
                env.add_template(name, default_template(lang, name).unwrap())
                    .unwrap();
                let template = env.get_template(name).unwrap();
                check_edited(name, Path::new(name), template).unwrap();
            }
        }
    }

    #[test]
    fn a_name_the_model_lacks_is_an_error_not_an_empty_line() {
        let templates = env_with("Subject: x\n\n{{ missing }}\n");
        let error = templates.render("ack", model! { "to" => "A" }).unwrap_err();
        assert!(error.0.contains("template ack"), "{}", error.0);
    }
}

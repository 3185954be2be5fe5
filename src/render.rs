//! The message templates: `templates/<lang>/<name>.txt`, loaded from disk once
//! per run and compiled. A file missing from the tournament's folder falls back to
//! the default built into the program, so a director may override only what he
//! wants to reword. Each template begins with a `Subject:` line and a blank line.
//!
//! Templates get a plain model (names, moves, dates already formatted in the
//! language, totals, structured corrections) and never compute rules.

use std::path::Path;

use minijinja::syntax::SyntaxConfig;
use minijinja::{Environment, UndefinedBehavior};
use serde_json::Value;

use crate::Lang;

/// The templates every tournament needs, by name.
pub const NAMES: &[&str] = &[
    "_next",
    "_read",
    "ack",
    "correction",
    "warning",
    "penalty",
    "forward",
    "refused",
    "overstep-notice",
    "overstep-partner",
    "overstep-file",
    "overstep-supplement",
    "claim-notice",
    "protest",
    "no-protest",
    "decision",
    "repeat",
    "query",
    "reminder",
    "result",
    "adjudication",
    "limit",
];

macro_rules! defaults {
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
                "ack",
                include_str!(concat!("../templates/", $lang, "/ack.txt")),
            ),
            (
                "correction",
                include_str!(concat!("../templates/", $lang, "/correction.txt")),
            ),
            (
                "warning",
                include_str!(concat!("../templates/", $lang, "/warning.txt")),
            ),
            (
                "penalty",
                include_str!(concat!("../templates/", $lang, "/penalty.txt")),
            ),
            (
                "forward",
                include_str!(concat!("../templates/", $lang, "/forward.txt")),
            ),
            (
                "refused",
                include_str!(concat!("../templates/", $lang, "/refused.txt")),
            ),
            (
                "overstep-notice",
                include_str!(concat!("../templates/", $lang, "/overstep-notice.txt")),
            ),
            (
                "overstep-partner",
                include_str!(concat!("../templates/", $lang, "/overstep-partner.txt")),
            ),
            (
                "overstep-file",
                include_str!(concat!("../templates/", $lang, "/overstep-file.txt")),
            ),
            (
                "overstep-supplement",
                include_str!(concat!("../templates/", $lang, "/overstep-supplement.txt")),
            ),
            (
                "claim-notice",
                include_str!(concat!("../templates/", $lang, "/claim-notice.txt")),
            ),
            (
                "protest",
                include_str!(concat!("../templates/", $lang, "/protest.txt")),
            ),
            (
                "no-protest",
                include_str!(concat!("../templates/", $lang, "/no-protest.txt")),
            ),
            (
                "decision",
                include_str!(concat!("../templates/", $lang, "/decision.txt")),
            ),
            (
                "repeat",
                include_str!(concat!("../templates/", $lang, "/repeat.txt")),
            ),
            (
                "query",
                include_str!(concat!("../templates/", $lang, "/query.txt")),
            ),
            (
                "reminder",
                include_str!(concat!("../templates/", $lang, "/reminder.txt")),
            ),
            (
                "result",
                include_str!(concat!("../templates/", $lang, "/result.txt")),
            ),
            (
                "adjudication",
                include_str!(concat!("../templates/", $lang, "/adjudication.txt")),
            ),
            (
                "limit",
                include_str!(concat!("../templates/", $lang, "/limit.txt")),
            ),
        ]
    };
}

const RU: &[(&str, &str)] = defaults!("ru");
const EN: &[(&str, &str)] = defaults!("en");

/// The built-in text of a template.
pub fn default_template(lang: Lang, name: &str) -> Option<&'static str> {
    let table = match lang {
        Lang::Ru => RU,
        Lang::En => EN,
    };
    table
        .iter()
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

/// The compiled templates of one language.
pub struct Templates {
    env: Environment<'static>,
    lang: Lang,
}

/// A rendered message: its subject and its body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    pub subject: String,
    pub body: String,
}

impl Templates {
    /// Loads `dir/<lang>/*.txt`, falling back to the built-in text for a file that
    /// is not there; every template is compiled now, so a broken one is found at
    /// start, not in the middle of a run.
    pub fn load(dir: &Path, lang: Lang) -> Result<Templates, TemplateError> {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        let syntax = SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .keep_trailing_newline(true)
            .build()
            .map_err(|e| TemplateError(e.to_string()))?;
        env.set_syntax(syntax);
        let folder = dir.join(match lang {
            Lang::Ru => "ru",
            Lang::En => "en",
        });
        for name in NAMES {
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
            env.add_template_owned(name.to_string(), source)
                .map_err(|e| TemplateError(format!("{}: {e}", path.display())))?;
        }
        Ok(Templates { env, lang })
    }

    /// The built-in templates only.
    pub fn builtin(lang: Lang) -> Templates {
        Templates::load(Path::new("/nonexistent-shtempel-templates"), lang)
            .expect("built-in templates compile")
    }

    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// Renders template `name` with `model`.
    pub fn render(&self, name: &str, model: &Value) -> Result<Rendered, TemplateError> {
        let template = self
            .env
            .get_template(name)
            .map_err(|e| TemplateError(format!("{name}: {e}")))?;
        let text = template
            .render(minijinja::Value::from(minijinja::value::Serde(model)))
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
                clean.push_str(line);
                clean.push('\n');
            }
        }
        Ok(Rendered {
            subject,
            body: clean.trim_end().to_string() + "\n",
        })
    }
}

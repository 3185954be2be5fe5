//! The kinds of what the clerk does, as a run's events name them (`poll
//! --json`'s `event`, the log's first column): one enum, so that no name
//! is written twice nor mistyped.

use serde::{Serialize, Serializer};

/// What a run's event is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    Accepted,
    Adjudication,
    Annulled,
    ConfigEditFailed,
    ConfigEdited,
    Decision,
    Duplicate,
    Forged,
    ForgedRuling,
    Ignored,
    Leave,
    LetterFailed,
    MessageIdClash,
    Move,
    NoProtest,
    Overstep,
    Protest,
    Preferences,
    PutBack,
    PutBackFailed,
    PutBackUnread,
    Quarantined,
    Query,
    Refused,
    Reminder,
    Repeat,
    Replaced,
    ReplyLimit,
    Result,
    Retry,
    SendFailed,
    /// A reader's language cannot be written: its templates do not load.
    TemplatesFailed,
    Sent,
    Start,
    StartSheet,
    StartSheetSkipped,
    Status,
    TooLarge,
    Undone,
    Withheld,
}

impl EventKind {
    /// Its name, as the log and the JSON events write it.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Accepted => "accepted",
            EventKind::Adjudication => "adjudication",
            EventKind::Annulled => "annulled",
            EventKind::ConfigEditFailed => "config-edit-failed",
            EventKind::ConfigEdited => "config-edited",
            EventKind::Decision => "decision",
            EventKind::Duplicate => "duplicate",
            EventKind::Forged => "forged",
            EventKind::ForgedRuling => "forged-ruling",
            EventKind::Ignored => "ignored",
            EventKind::Leave => "leave",
            EventKind::LetterFailed => "letter-failed",
            EventKind::MessageIdClash => "message-id-clash",
            EventKind::Move => "move",
            EventKind::NoProtest => "no-protest",
            EventKind::Overstep => "overstep",
            EventKind::Protest => "protest",
            EventKind::PutBack => "put-back",
            EventKind::PutBackFailed => "put-back-failed",
            EventKind::PutBackUnread => "put-back-unread",
            EventKind::Quarantined => "quarantined",
            EventKind::Query => "query",
            EventKind::Refused => "refused",
            EventKind::Reminder => "reminder",
            EventKind::Repeat => "repeat",
            EventKind::Replaced => "replaced",
            EventKind::ReplyLimit => "reply-limit",
            EventKind::Result => "result",
            EventKind::Retry => "retry",
            EventKind::SendFailed => "send-failed",
            EventKind::TemplatesFailed => "templates-failed",
            EventKind::Sent => "sent",
            EventKind::Start => "start",
            EventKind::StartSheet => "start-sheet",
            EventKind::Status => "status",
            EventKind::Preferences => "preferences",
            EventKind::StartSheetSkipped => "start-sheet-skipped",
            EventKind::TooLarge => "too-large",
            EventKind::Undone => "undone",
            EventKind::Withheld => "withheld",
        }
    }
}

impl std::fmt::Display for EventKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // `pad`, so that a width (`{:<14}`) holds.
        f.pad(self.name())
    }
}

impl Serialize for EventKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

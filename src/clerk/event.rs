//! The kinds of what the clerk does, as a run's events name them (`poll
//! --json`'s `event`, the log's first column): one enum, so that no name
//! is written twice nor mistyped.

use serde::{Serialize, Serializer};

named_enum! {
    /// What a run's event is.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum EventKind {
        Accepted => "accepted",
        Adjudication => "adjudication",
        Annulled => "annulled",
        ConfigEditFailed => "config-edit-failed",
        ConfigEdited => "config-edited",
        Decision => "decision",
        Duplicate => "duplicate",
        Forged => "forged",
        ForgedRuling => "forged-ruling",
        Ignored => "ignored",
        Leave => "leave",
        LetterFailed => "letter-failed",
        MessageIdClash => "message-id-clash",
        Move => "move",
        NoProtest => "no-protest",
        Overstep => "overstep",
        Protest => "protest",
        Preferences => "preferences",
        Digest => "digest",
        PutBack => "put-back",
        PutBackFailed => "put-back-failed",
        PutBackUnread => "put-back-unread",
        Quarantined => "quarantined",
        Query => "query",
        Refused => "refused",
        Reminder => "reminder",
        Repeat => "repeat",
        Replaced => "replaced",
        ReplyLimit => "reply-limit",
        Result => "result",
        Retry => "retry",
        SendFailed => "send-failed",
        /// A reader's language cannot be written: its templates do not load.
        TemplatesFailed => "templates-failed",
        Sent => "sent",
        Start => "start",
        StartSheet => "start-sheet",
        StartSheetSkipped => "start-sheet-skipped",
        Status => "status",
        TooLarge => "too-large",
        Undone => "undone",
        XfccLogin => "xfcc-login",
        Withheld => "withheld",
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

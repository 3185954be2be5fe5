//! The kinds of message the clerk sends (contract.md 4). Each kind names its
//! template (`templates/<lang>/<template>.txt`), the `X-Shtempel-Kind` value
//! programs read, and whether it is a reply to a letter's sender, counted
//! against `[limits] max_replies_per_day`.
//!
//! A new kind is one line of the table below and its two templates, `ru` and
//! `en`: the built-in texts are taken from the same table.

macro_rules! message_kinds {
    ($($(#[$doc:meta])* $kind:ident: $template:literal, $header:literal, $reply:literal;)*) => {
        /// What a message of the clerk is.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum MessageKind {
            $($(#[$doc])* $kind,)*
        }

        impl MessageKind {
            /// Every kind, in the table's order.
            pub const ALL: &[MessageKind] = &[$(MessageKind::$kind),*];

            /// The template's name.
            pub fn template(self) -> &'static str {
                match self {
                    $(MessageKind::$kind => $template,)*
                }
            }

            /// The `X-Shtempel-Kind` header's value.
            pub fn header(self) -> &'static str {
                match self {
                    $(MessageKind::$kind => $header,)*
                }
            }

            /// A reply to the sender of a letter: counted against the daily limit.
            pub fn is_reply(self) -> bool {
                match self {
                    $(MessageKind::$kind => $reply,)*
                }
            }
        }

        /// The built-in templates of every kind, by language.
        pub(crate) const BUILTIN_RU: &[(&str, &str)] = &[
            $(($template, include_str!(concat!("../templates/ru/", $template, ".txt"))),)*
        ];
        pub(crate) const BUILTIN_EN: &[(&str, &str)] = &[
            $(($template, include_str!(concat!("../templates/en/", $template, ".txt"))),)*
        ];
    };
}

message_kinds! {
    /// A move passed on to the partner.
    Forward: "forward", "forward", false;
    /// The receipt of a letter with nothing to correct.
    Ack: "ack", "ack", true;
    /// The receipt of a letter with a correction (10.3.1).
    Correction: "correction", "correction", true;
    /// The receipt of a letter with a first omission (10.3.3).
    Warning: "warning", "warning", true;
    /// The receipt of a letter with a repeated omission: penalty days (10.3.3).
    Penalty: "penalty", "penalty", true;
    /// A letter that changed nothing, and why.
    Refused: "refused", "refused", true;
    /// The one notice that the day's replies to an address are used up.
    Limit: "limit", "refused", true;
    /// The offender's registered notice of his overstep (10.3.6).
    OverstepNotice: "overstep-notice", "overstep-notice", false;
    /// The partner's notice of the overstep: send the reply to the clerk.
    OverstepPartner: "overstep-partner", "overstep-notice", false;
    /// The chief arbiter's file of an overstep (10.3.6).
    OverstepFile: "overstep-file", "overstep-file", false;
    /// A letter received during a suspension, for the arbiter.
    OverstepSupplement: "overstep-supplement", "overstep-supplement", false;
    /// The chief secretary's notice of an overstep claim.
    ClaimNotice: "claim-notice", "claim-notice", false;
    /// A protest for the chief arbiter (10.3.8).
    Protest: "protest", "protest", false;
    /// The protest period ended without one (10.3.8).
    NoProtest: "no-protest", "no-protest", false;
    /// The chief arbiter's decision (10.3.7).
    Decision: "decision", "decision", false;
    /// An unanswered move repeated by registered letter (10.3.4).
    Repeat: "repeat", "repeat", false;
    /// The query of a first move not received (10.3.4).
    Query: "query", "query", false;
    /// Few days left in the current control.
    Reminder: "reminder", "reminder", false;
    /// A game's result.
    Result: "result", "result", false;
    /// A reader's daily digest: the messages kept for him since his last.
    Digest: "digest", "digest", false;
    /// The end date came without a result (10.3.2).
    Adjudication: "adjudication", "adjudication", false;
    /// An offender's letter during his suspension: passed to the arbiter,
    /// nothing changed (10.3.6).
    Withheld: "withheld", "refused", true;
    /// With the partner in copy, what the clerk corrected in the letter he had.
    PartnerCorrection: "partner-correction", "correction", false;
    /// A game added during the tournament has begun.
    Start: "start", "start", false;
    /// A player's start sheet, by registered letter (10.3.2): the day the
    /// server accepted it is the day he received it.
    StartSheet: "start-sheet", "start-sheet", false;
    /// A game's last letter taken back by the chief arbiter or the director.
    Undo: "undo", "undo", false;
    /// A player's leave taken (or refused: `refused`), to him.
    Leave: "leave", "leave", true;
    /// A partner's leave, to the other player of each of his games.
    LeaveNotice: "leave-notice", "leave-notice", false;
    /// A replacement player's games, to him (`shtempel replace`).
    Replacement: "replacement", "replacement", false;
    /// A partner replaced, to the other player of each of his games.
    Replaced: "replaced", "replaced", false;
    /// Letters set aside going back to be read (`RETRY`), to the chief
    /// arbiter.
    Retry: "retry", "retry", true;
    /// The chief arbiter's order by letter carried out, to him: which
    /// order, in which games, and who was told (only refusals
    /// reached him, so he could not tell an order done from a lost letter).
    OrderDone: "order-done", "order-done", true;
    /// A letter under a registered address that cannot be verified
    /// (`[security]`, a secret word): to that address, at most one a day;
    /// no reply, so never counted against the answers to his own letters.
    Unverified: "unverified", "unverified", false;
    /// Where a player's games stand, in every event of the clerk (or an
    /// event's games, to its chief arbiter or secretary), in answer to his
    /// `STATUS`.
    Status: "status", "status", true;
    /// A second `STATUS` the same day: the first was answered.
    StatusAgain: "status-again", "status", true;
    /// A player's own preferences set (`DIAGRAMS`, `LANGUAGE`): what his
    /// letters now carry.
    Preferences: "preferences", "preferences", true;
    /// A login to the Xfcc server (`XFCC`): its address, his user name and
    /// a new password.
    XfccLogin: "xfcc-login", "xfcc-login", true;
    /// The one message `shtempel doctor --send-test` sends: the mail path
    /// works, end to end.
    Test: "test", "test", false;
}

impl MessageKind {
    /// Whether a reader in digest mode (`DIGEST DAILY`) gets it in his
    /// day's digest: a forward, a receipt of his letter (with what it
    /// corrected or charged), a partner's letter corrected, the calendar's
    /// reminder. An overstep, a repeat by registered letter, a query, a
    /// decision, a refusal, a result and the rest go at once.
    pub fn waits_for_digest(self) -> bool {
        matches!(
            self,
            MessageKind::Forward
                | MessageKind::Ack
                | MessageKind::Correction
                | MessageKind::Warning
                | MessageKind::Penalty
                | MessageKind::PartnerCorrection
                | MessageKind::Reminder
        )
    }
}

impl MessageKind {
    /// The header values of the kinds that are replies, as the outbox stores
    /// them (a day's replies to an address are counted by them).
    pub fn reply_headers() -> Vec<&'static str> {
        let mut headers: Vec<&'static str> = MessageKind::ALL
            .iter()
            .filter(|kind| kind.is_reply())
            .map(|kind| kind.header())
            .collect();
        headers.dedup();
        headers
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_template_in_both_languages_and_a_header_of_the_contract() {
        const CONTRACT: &[&str] = &[
            "forward",
            "ack",
            "correction",
            "warning",
            "penalty",
            "refused",
            "overstep-notice",
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
            "start",
            // Beyond contract.md 4 (README: the director's guide).
            "start-sheet",
            "undo",
            "leave",
            "leave-notice",
            "replacement",
            "replaced",
            "retry",
            "unverified",
            "order-done",
            // A player's, the chief arbiter's or the secretary's STATUS.
            "status",
            // A player's DIAGRAMS, LANGUAGE and DIGEST.
            "preferences",
            // A player's daily digest (DIGEST DAILY).
            "digest",
            // A player's XFCC, or the director's xfcc-login (docs/xfcc.md).
            "xfcc-login",
            // doctor --send-test (docs/commands.md).
            "test",
        ];
        assert_eq!(BUILTIN_RU.len(), MessageKind::ALL.len());
        assert_eq!(BUILTIN_EN.len(), MessageKind::ALL.len());
        for kind in MessageKind::ALL {
            assert!(CONTRACT.contains(&kind.header()), "{kind:?}");
            for table in [BUILTIN_RU, BUILTIN_EN] {
                let (_, text) = table
                    .iter()
                    .find(|(name, _)| *name == kind.template())
                    .unwrap();
                assert!(text.starts_with("Subject:"), "{kind:?}");
                // A block tag ending the subject's line would join the
                // body's first line to it.
                let subject = text.lines().next().unwrap_or_default();
                assert!(!subject.contains("%}"), "{kind:?}: {subject}");
            }
        }
        assert_eq!(
            MessageKind::reply_headers(),
            [
                "ack",
                "correction",
                "warning",
                "penalty",
                "refused",
                "leave",
                "retry",
                "order-done",
                "status",
                "preferences",
                "xfcc-login"
            ]
        );
    }
}

#[cfg(test)]
mod digest_tests {
    use super::MessageKind;

    /// What a digest reader's digest keeps, and what goes at once.
    #[test]
    fn only_what_can_wait_is_kept_for_a_digest() {
        let kept: Vec<&str> = MessageKind::ALL
            .iter()
            .filter(|kind| kind.waits_for_digest())
            .map(|kind| kind.header())
            .collect();
        assert_eq!(
            kept,
            [
                "forward",
                "ack",
                "correction",
                "warning",
                "penalty",
                "reminder",
                "correction"
            ]
        );
        for urgent in [
            MessageKind::OverstepNotice,
            MessageKind::OverstepPartner,
            MessageKind::Repeat,
            MessageKind::Decision,
            MessageKind::Refused,
            MessageKind::Withheld,
            MessageKind::Result,
            MessageKind::Query,
        ] {
            assert!(!urgent.waits_for_digest(), "{urgent:?}");
        }
    }
}

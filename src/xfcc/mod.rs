//! PURE: the Xfcc web service as chess programs speak it (ChessBase and
//! Fritz, Scid vs PC, scidCommunity, Aquarium, Lucas Chess): a request's
//! SOAP envelope read into a [`Request`] (soap), the answers written
//! (soap), the WSDL that describes exactly what is served (wsdl), a game
//! as a player's program is shown it (game), a move asked checked against
//! it (moving), and a player's password and the hash kept of it (login).
//!
//! Xfcc is SOAP 1.1, document/literal wrapped as ASMX services write it,
//! in the namespace [`NAMESPACE`]; two operations: `GetMyGames` (every
//! game of the player, [`XfccGame`]) and `MakeAMove` (a move, a draw offer
//! or acceptance, a resignation; answered by a [`MoveResult`]). What this
//! module knows of the clients was read in their code: Scid vs PC's
//! `tcl/tools/correspondence.tcl` (adch99/scidvspc-modern), scidCommunity's
//! `tcl/tools/lss.tcl` and `iccf.tcl` (whelanh/scidCommunity), Lucas Chess's
//! `Code/GestorXFCC.py` (suds, from the WSDL). The tests post the envelopes
//! they build.

pub mod game;
pub mod letter;
pub mod login;
pub mod moving;
pub mod soap;
pub mod wsdl;

#[cfg(test)]
mod testing;

use chrono::NaiveDate;

/// The service's XML namespace, as every client and server writes it.
pub const NAMESPACE: &str = "http://www.bennedik.com/webservices/XfccBasic";

/// What a chess program asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    GetMyGames(Login),
    MakeAMove(MoveRequest),
    /// An operation the service does not serve (`MakeAMove2`, anything
    /// else in the body): answered `FeatureUnavailable`.
    Unserved {
        operation: String,
    },
}

/// The user name and password every operation carries.
#[derive(Clone, PartialEq, Eq)]
pub struct Login {
    pub username: String,
    pub password: String,
}

impl std::fmt::Debug for Login {
    /// The password is never printed (a log of requests keeps none).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Login")
            .field("username", &self.username)
            .finish_non_exhaustive()
    }
}

/// `MakeAMove`'s parameters, as the clients send all of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRequest {
    pub login: Login,
    pub game_id: u32,
    pub resign: bool,
    pub accept_draw: bool,
    /// The number of the move being made (Scid vs PC and scidCommunity
    /// send the full move number, `12` for White's and Black's 12th).
    pub movecount: u32,
    /// The move in SAN, empty with a resignation or an acceptance.
    pub my_move: String,
    pub offer_draw: bool,
    pub claim_draw: bool,
    /// The player's words to his partner, with the move.
    pub my_message: String,
}

named_enum! {
    /// What `MakeAMove` answers, in the protocol's words (`MoveIsAmbigous`
    /// as every client spells it).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum MoveResult {
        Success => "Success",
        ServerError => "ServerError",
        AuthenticationFailed => "AuthenticationFailed",
        InvalidGameId => "InvalidGameID",
        NotYourGame => "NotYourGame",
        NotYourTurn => "NotYourTurn",
        InvalidMoveNumber => "InvalidMoveNumber",
        InvalidMove => "InvalidMove",
        MoveIsAmbiguous => "MoveIsAmbigous",
        NoDrawWasOffered => "NoDrawWasOffered",
        LostOnTime => "LostOnTime",
        YouAreOnLeave => "YouAreOnLeave",
        FeatureUnavailable => "FeatureUnavailable",
    }
}

named_enum! {
    /// A game's result in the protocol's words.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum XfccResult {
        Ongoing => "Ongoing",
        WhiteWins => "WhiteWins",
        BlackWins => "BlackWins",
        Draw => "Draw",
        WhiteWinAdjudicated => "WhiteWinAdjudicated",
        BlackWinAdjudicated => "BlackWinAdjudicated",
        DrawAdjudicated => "DrawAdjudicated",
        WhiteDefaulted => "WhiteDefaulted",
        BlackDefaulted => "BlackDefaulted",
        BothDefaulted => "BothDefaulted",
        Cancelled => "Cancelled",
        AdjudicationPending => "AdjudicationPending",
    }
}

/// One game as `GetMyGames` gives it to one of its players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XfccGame {
    /// The game's number on the server, unique across the clerk's events.
    pub id: u32,
    pub white: String,
    pub black: String,
    pub event: String,
    pub site: String,
    pub my_turn: bool,
    pub has_white: bool,
    /// The days each has left in the time control as the rules count them
    /// (the protocol's hours and minutes are always 0).
    pub days_player: i64,
    pub days_opponent: i64,
    /// PGN movetext of the moves made (`1. e4 e5 2. Nf3`).
    pub moves: String,
    /// His partner offered a draw he has not answered.
    pub draw_offered: bool,
    pub result: XfccResult,
    /// The partner's words with his last move, if any.
    pub message: Option<String>,
    /// The event's first day, written as PGN dates are (`2026.11.01`):
    /// Scid vs PC and Lucas Chess put it into the game's `Date` tag as it is.
    pub event_date: NaiveDate,
    /// PGN's form: moves per control, then its seconds (`10/4320000`: 10
    /// moves in 50 days).
    pub time_control: String,
    pub round: String,
    /// The game's board in its round, where the pairing numbers boards.
    pub board: Option<u32>,
    /// The game's page in the report, where one is published.
    pub game_link: Option<String>,
}

//! `XFCC` / `ИКСФЦЦ` by mail: a player asks for a login to the Xfcc server
//! and is sent its address, his user name and a new password, whose hash
//! alone the clerk keeps; asked again, the old password stops working.

use shtempel::xfcc::login::verify;

use crate::support::*;

const XFCC: &str = "[xfcc]\nurl = \"https://chess.example.org/xfcc\"";

/// The value after `label` on a line of the message's body.
pub(crate) fn line_value<'b>(body: &'b str, label: &str) -> &'b str {
    body.lines()
        .find_map(|line| line.trim().strip_prefix(label))
        .unwrap_or_else(|| panic!("no {label:?} in {body}"))
        .trim()
}

/// The hash the clerk keeps of `username`'s password.
fn kept_hash(t: &Tournament, username: &str) -> String {
    let configs = shtempel::config::load_all(&t.path().join("shtempel.toml")).unwrap();
    let store = shtempel::store::Store::open(&configs[0].database).unwrap();
    store
        .xfcc_login(username)
        .unwrap()
        .unwrap_or_else(|| panic!("no login of {username}"))
        .hash
}

#[test]
fn a_player_is_sent_a_login_and_a_new_one_replaces_it() {
    for language in ["en", "ru"] {
        let mut t = Cup::new().in_language(language).table(XFCC).open();
        let word = pick(language, "XFCC", "ИКСФЦЦ");
        let mail = t.exchange(WHITE, "2026-11-02", "xfcc", word);
        assert_eq!(kinds(&mail), [pair("xfcc-login", WHITE)], "{mail:#?}");
        let letter = &mail[0];
        let server = pick(language, "Server:", "Сервер:");
        let name = pick(language, "User name:", "Имя:");
        let password = pick(language, "Password:", "Пароль:");
        assert_eq!(
            line_value(&letter.body, server),
            "https://chess.example.org/xfcc"
        );
        assert_eq!(line_value(&letter.body, name), "white");
        let first = line_value(&letter.body, password).to_string();
        assert_eq!(first.len(), 16, "{first}");
        assert_eq!(
            letter.subject,
            pick(
                language,
                "[T] your login to the Xfcc server",
                "[T] ваш вход на сервер Xfcc"
            )
        );
        // The clerk keeps its hash, which the password matches, and no
        // copy of the letter once it is sent.
        let hash = kept_hash(&t, "white");
        assert!(!hash.contains(&first));
        assert!(verify(&first, &hash));
        let configs = shtempel::config::load_all(&t.path().join("shtempel.toml")).unwrap();
        let store = shtempel::store::Store::open(&configs[0].database).unwrap();
        let kept: Vec<_> = store
            .outbox()
            .unwrap()
            .into_iter()
            .filter(|message| message.kind == "xfcc-login")
            .collect();
        assert_eq!(kept.len(), 1);
        assert!(
            kept[0].sent && kept[0].raw.is_empty(),
            "{:?}",
            kept[0].raw.len()
        );
        // Asked again: another password, and the first no longer works.
        let mail = t.exchange(WHITE, "2026-11-02", "xfcc", word);
        let second = line_value(&mail[0].body, password).to_string();
        assert_ne!(second, first);
        let hash = kept_hash(&t, "white");
        assert!(verify(&second, &hash));
        assert!(!verify(&first, &hash));
    }
}

#[test]
fn without_a_server_he_is_told_there_is_none_and_beside_a_move_to_ask_apart() {
    for language in ["en", "ru"] {
        let mut t = Cup::new().in_language(language).open();
        let mail = t.exchange(BLACK, "2026-11-02", "xfcc", "xfcc.");
        assert_eq!(kinds(&mail), [pair("xfcc-login", BLACK)], "{mail:#?}");
        mail[0].says(pick(
            language,
            "the clerk has no Xfcc server: play by letter, as before.",
            "У секретаря нет сервера Xfcc: играйте письмами, как прежде.",
        ));
        mail[0].never_says(pick(language, "Password:", "Пароль:"));
        // With a move, the move is taken and the login named as not sent.
        let mut t = Cup::new().in_language(language).table(XFCC).open();
        let mail = t.exchange(WHITE, "2026-11-03", "Game 1", &format!("{W1}\nXFCC"));
        let ack = mail.iter().find(|m| m.to == [WHITE]).expect("his answer");
        ack.says(pick(
            language,
            "send XFCC in a letter of its own",
            "пришлите XFCC отдельным письмом",
        ));
        assert!(mail.iter().any(|m| m.kind == "forward"), "{mail:#?}");
        assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 1);
    }
}

/// `shtempel serve` running on a port of its own choosing, stopped by
/// SIGTERM when dropped.
pub(crate) struct Server {
    child: std::process::Child,
    pub(crate) address: String,
}

impl Server {
    pub(crate) fn start(t: &Tournament, today: &str) -> Server {
        use std::io::BufRead;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_shtempel"))
            .arg("--config")
            .arg(t.path().join("shtempel.toml"))
            .args(["serve", "--today", today])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::inherit())
            .spawn()
            .expect("serve starts");
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .trim()
            .strip_prefix("shtempel serve: listening on ")
            .unwrap_or_else(|| panic!("{line:?}"))
            .to_string();
        Server { child, address }
    }

    /// The status and body of a request of `method` with `body`.
    pub(crate) fn ask(&self, method: &str, path: &str, body: &[u8]) -> (u16, String) {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(&self.address).unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: text/xml; charset=\"utf-8\"\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n",
            self.address,
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        // A body the server refuses may be cut off while it is written.
        let _ = stream.write_all(body);
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let answer = String::from_utf8_lossy(&answer).into_owned();
        let status = answer
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or_else(|| panic!("no status in {answer:?}"));
        let body = answer
            .split_once("\r\n\r\n")
            .map_or("", |(_, body)| body)
            .to_string();
        (status, body)
    }

    pub(crate) fn post(&self, body: &str) -> (u16, String) {
        self.ask("POST", "/xfcc", body.as_bytes())
    }

    /// Stopped as systemd stops it: its exit status.
    pub(crate) fn stop(mut self) -> Option<i32> {
        terminate(self.child.id());
        let status = self.child.wait().unwrap();
        std::mem::forget(self);
        status.code()
    }
}

/// SIGTERM to `pid`, as systemd stops a service.
fn terminate(pid: u32) {
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status();
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Scid vs PC's envelope (`tcl/tools/correspondence.tcl`) around `call`.
fn scid(call: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\t<soap:Envelope \
         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
         xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" \
         xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">\n\t<soap:Body>\n\t{call}</soap:Body>\n\t</soap:Envelope>"
    )
}

const NS: &str = "http://www.bennedik.com/webservices/XfccBasic";

pub(crate) fn get_my_games(user: &str, password: &str) -> String {
    scid(&format!(
        "<GetMyGames xmlns=\"{NS}\"><username>{user}</username><password>{password}</password></GetMyGames>"
    ))
}

fn make_a_move(user: &str, password: &str, game: u32, movecount: u32, my_move: &str) -> String {
    asking(user, password, game, movecount, my_move, Flags::default())
}

/// What a `MakeAMove` asks besides its move.
#[derive(Clone, Copy, Default)]
pub(crate) struct Flags {
    pub(crate) resign: bool,
    pub(crate) accept_draw: bool,
    pub(crate) offer_draw: bool,
    /// His words to his partner.
    pub(crate) message: &'static str,
}

/// A `MakeAMove` as Scid vs PC sends it, every parameter written.
pub(crate) fn asking(
    user: &str,
    password: &str,
    game: u32,
    movecount: u32,
    my_move: &str,
    flags: Flags,
) -> String {
    let Flags {
        resign,
        accept_draw,
        offer_draw,
        message,
    } = flags;
    scid(&format!(
        "<MakeAMove xmlns=\"{NS}\"><username>{user}</username><password>{password}</password>\
         <gameId>{game}</gameId><resign>{resign}</resign><acceptDraw>{accept_draw}</acceptDraw>\
         <movecount>{movecount}</movecount><myMove>{my_move}</myMove><offerDraw>{offer_draw}</offerDraw>\
         <claimDraw>false</claimDraw><myMessage>{message}</myMessage></MakeAMove>"
    ))
}

/// The text of the first element `name` in `xml`.
pub(crate) fn element<'x>(xml: &'x str, name: &str) -> &'x str {
    let open = format!("<{name}>");
    let start = xml
        .find(&open)
        .unwrap_or_else(|| panic!("no <{name}> in {xml}"))
        + open.len();
    let end = xml[start..].find(&format!("</{name}>")).unwrap() + start;
    &xml[start..end]
}

/// The login White gets by mail, after 1. e4 e5 (Black's move forwarded
/// on 7 November).
pub(crate) fn whites_login(t: &mut Tournament) -> String {
    t.opening();
    let mail = t.exchange(WHITE, "2026-11-08", "xfcc", "XFCC");
    line_value(&mail[0].body, "Password:").to_string()
}

pub(crate) const SERVED: &str = "[xfcc]\nurl = \"http://127.0.0.1/xfcc\"\nlisten = \"127.0.0.1:0\"";

#[test]
fn a_chess_program_gets_its_games_and_its_moves_are_checked() {
    let mut t = Cup::new().table(SERVED).open();
    let password = whites_login(&mut t);
    let server = Server::start(&t, "2026-11-12");
    let (status, games) = server.post(&get_my_games("white", &password));
    assert_eq!(status, 200, "{games}");
    assert_eq!(games.matches("<XfccGame>").count(), 1, "{games}");
    assert_eq!(element(&games, "white"), "White Player");
    assert_eq!(element(&games, "moves"), "1. e4 e5");
    assert_eq!(element(&games, "myTurn"), "true");
    assert_eq!(element(&games, "hasWhite"), "true");
    // White: 50 days less his 2, less the 5 his clock has run since
    // Black's move reached him on the 7th (rules.md 2.1); Black: 50 less 4.
    assert_eq!(element(&games, "daysPlayer"), "43");
    assert_eq!(element(&games, "daysOpponent"), "46");
    assert_eq!(element(&games, "timeControl"), "10/4320000");
    assert_eq!(element(&games, "result"), "Ongoing");
    let id: u32 = element(&games, "id").parse().unwrap();
    // Black has no login: told as a wrong password is.
    let (status, refused) = server.post(&get_my_games("black", &password));
    assert_eq!(status, 500);
    assert!(
        refused.contains("<faultstring>AuthenticationFailed</faultstring>"),
        "{refused}"
    );
    // (user, password, game, move number, move, the answer)
    let table = [
        ("white", password.as_str(), id, 2, "Nf6", "InvalidMove"),
        (
            "white",
            password.as_str(),
            id,
            1,
            "Nf3",
            "InvalidMoveNumber",
        ),
        (
            "white",
            password.as_str(),
            id + 100,
            2,
            "Nf3",
            "InvalidGameID",
        ),
        ("white", "wrong", id, 2, "Nf3", "AuthenticationFailed"),
    ];
    for (user, password, game, movecount, my_move, answer) in table {
        let (status, reply) = server.post(&make_a_move(user, password, game, movecount, my_move));
        assert_eq!(status, 200, "{reply}");
        assert_eq!(element(&reply, "MakeAMoveResult"), answer, "{my_move}");
    }
    // Nothing changed: the game is as it was.
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 2);
    // The description, for programs that read it.
    let (status, wsdl) = server.ask("GET", "/xfcc?wsdl", b"");
    assert_eq!(status, 200);
    assert!(
        wsdl.contains("location=\"http://127.0.0.1/xfcc\""),
        "{wsdl}"
    );
    assert_eq!(server.stop(), Some(0));
}

#[test]
fn a_guesser_a_flood_and_a_bomb_change_nothing_and_the_server_stays_up() {
    let mut t = Cup::new().table(SERVED).open();
    let password = whites_login(&mut t);
    let server = Server::start(&t, "2026-11-12");
    // Wrong passwords in a loop: after five, even the right one is
    // answered as wrong, for the window.
    for _ in 0..5 {
        let (_, refused) = server.post(&get_my_games("white", "guess"));
        assert!(refused.contains("AuthenticationFailed"), "{refused}");
    }
    let (status, held) = server.post(&get_my_games("white", &password));
    assert_eq!(status, 500);
    assert!(held.contains("AuthenticationFailed"), "{held}");
    // A body of 10 MB is refused unread.
    let (status, _) = server.ask("POST", "/xfcc", &vec![b'a'; 10 << 20]);
    assert_eq!(status, 413);
    // Entities declared in a DTD are never read.
    let bomb = "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">\
                <!ENTITY lol2 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">]>\
                <lolz>&lol2;</lolz>";
    let (status, fault) = server.post(bomb);
    assert_eq!(status, 500);
    assert!(fault.contains("may not carry a DOCTYPE"), "{fault}");
    // Not XML at all; an operation not served.
    let (status, _) = server.post("hello");
    assert_eq!(status, 500);
    let (_, unserved) = server.post(&scid(&format!("<MakeAMove2 xmlns=\"{NS}\"/>")));
    assert!(unserved.contains("FeatureUnavailable"), "{unserved}");
    // Still up: a new login by mail works at once.
    let mail = t.exchange(WHITE, "2026-11-09", "xfcc", "XFCC");
    let fresh = line_value(&mail[0].body, "Password:").to_string();
    let (status, _) = server.post(&get_my_games("white", &fresh));
    // The name is still held for its window (the new password too).
    assert_eq!(status, 500);
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 2);
    assert_eq!(server.stop(), Some(0));
}

/// Clients that send half a request and then nothing hold up nobody, and
/// are cut off once the time for headers has passed.
#[test]
fn slow_clients_hold_up_nobody_and_are_cut_off() {
    use std::io::{Read, Write};
    let mut t = Cup::new().table(SERVED).open();
    let password = whites_login(&mut t);
    let server = Server::start(&t, "2026-11-12");
    let slow: Vec<std::net::TcpStream> = (0..20)
        .map(|_| {
            let mut stream = std::net::TcpStream::connect(&server.address).unwrap();
            stream
                .write_all(b"POST /xfcc HTTP/1.1\r\nHost: x\r\n")
                .unwrap();
            stream
        })
        .collect();
    let (status, games) = server.post(&get_my_games("white", &password));
    assert_eq!(status, 200, "{games}");
    // The server closes a slow one (end of stream, or a reset), well
    // before the test's own bound of a minute.
    let mut first = &slow[0];
    first
        .set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .unwrap();
    let mut answer = Vec::new();
    match first.read_to_end(&mut answer) {
        Ok(_) => {}
        Err(error) => assert!(
            !matches!(
                error.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ),
            "still open after a minute"
        ),
    }
    assert_eq!(server.stop(), Some(0));
}

/// The Python with zeep the tests call: `SHTEMPEL_ZEEP` (CI makes one), or
/// `python3` where it has zeep; `None` where neither (then the test says
/// so and passes, unless `SHTEMPEL_REQUIRE_ZEEP` is set).
fn python_with_zeep() -> Option<String> {
    let python = std::env::var("SHTEMPEL_ZEEP").unwrap_or_else(|_| "python3".into());
    let has = std::process::Command::new(&python)
        .args(["-c", "import zeep"])
        .output()
        .is_ok_and(|out| out.status.success());
    if has {
        return Some(python);
    }
    assert!(
        std::env::var_os("SHTEMPEL_REQUIRE_ZEEP").is_none(),
        "zeep is required (SHTEMPEL_REQUIRE_ZEEP) and {python} has none"
    );
    eprintln!("no zeep: the test of a real SOAP client is left out");
    None
}

/// zeep, a SOAP client that builds its calls from the WSDL, against the
/// server: it loads the served WSDL, asks for the games and sends a move.
const ZEEP_CLIENT: &str = r#"
import json, sys, zeep
address, user, password = sys.argv[1:4]
client = zeep.Client(f"http://{address}/xfcc?wsdl")
# The WSDL names the configured url; the test's server listens elsewhere.
service = client.create_service(
    "{http://www.bennedik.com/webservices/XfccBasic}XfccBasicSoap", f"http://{address}/xfcc")
games = service.GetMyGames(username=user, password=password)
game = games[0]
answer = service.MakeAMove(username=user, password=password, gameId=game.id, resign=False,
    acceptDraw=False, movecount=2, myMove="Nf6", offerDraw=False, claimDraw=False, myMessage="")
print(json.dumps({"games": len(games), "white": game.white, "moves": game.moves,
    "myTurn": game.myTurn, "daysPlayer": game.daysPlayer, "result": game.result,
    "answer": answer}))
"#;

#[test]
fn zeep_loads_the_wsdl_and_calls_both_operations() {
    let Some(python) = python_with_zeep() else {
        return;
    };
    let mut t = Cup::new().table(SERVED).open();
    let password = whites_login(&mut t);
    let server = Server::start(&t, "2026-11-12");
    let out = std::process::Command::new(python)
        .args(["-c", ZEEP_CLIENT, &server.address, "white", &password])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(
        said,
        serde_json::json!({
            "games": 1, "white": "White Player", "moves": "1. e4 e5", "myTurn": true,
            "daysPlayer": 43, "result": "Ongoing", "answer": "InvalidMove"
        })
    );
    assert_eq!(server.stop(), Some(0));
}

/// A port nothing listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn doctor_says_whether_the_server_answers_and_whether_its_certificate_loads() {
    let port = free_port();
    let table =
        format!("[xfcc]\nurl = \"https://chess.example.org/xfcc\"\nlisten = \"127.0.0.1:{port}\"");
    let t = Cup::new().table(&table).open();
    let out = t.run(&["doctor"]);
    assert!(
        out.stdout.contains(&format!(
            "xfcc        nothing listens on 127.0.0.1:{port}: start `shtempel serve`"
        )),
        "{}",
        out.stdout
    );
    let server = Server::start(&t, "2026-11-12");
    assert_eq!(server.address, format!("127.0.0.1:{port}"));
    let out = t.run(&["doctor"]);
    assert!(
        out.stdout.contains(&format!(
            "ok    xfcc        something answers on 127.0.0.1:{port}; players reach it at https://chess.example.org/xfcc"
        )),
        "{}",
        out.stdout
    );
    assert_eq!(server.stop(), Some(0));
    // A certificate that is not one: named, with the fix.
    let t = Cup::new()
        .table(&format!(
            "{table}\ntls_cert = \"cert.pem\"\ntls_key = \"key.pem\""
        ))
        .open();
    std::fs::write(t.path().join("cert.pem"), "not a certificate").unwrap();
    std::fs::write(t.path().join("key.pem"), "not a key").unwrap();
    let out = t.run(&["doctor"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout.contains("FAIL  xfcc        [xfcc] tls_cert = ")
            && out
                .stdout
                .contains("no certificate in it; give the server's certificate chain"),
        "{}",
        out.stdout
    );
}

#[test]
fn the_director_sends_a_player_his_login_and_a_stranger_is_refused() {
    let mut t = Cup::new().in_language("ru").table(XFCC).open();
    let out = t.run(&["xfcc-login", "black", "--today", "2026-11-02"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("xfcc-login", BLACK)], "{mail:#?}");
    assert_eq!(line_value(&mail[0].body, "Имя:"), "black");
    let password = line_value(&mail[0].body, "Пароль:").to_string();
    assert!(verify(&password, &kept_hash(&t, "black")));
    // Issued again: another password, the first no longer works.
    let out = t.run(&["xfcc-login", "black", "--today", "2026-11-03"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let again = line_value(&t.new_mail()[0].body, "Пароль:").to_string();
    assert_ne!(again, password);
    assert!(!verify(&password, &kept_hash(&t, "black")));
    // No such player: said, nothing sent.
    let out = t.run(&["xfcc-login", "nobody", "--today", "2026-11-03"]);
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("nobody"), "{}", out.stderr);
    assert!(t.new_mail().is_empty());
}

#[test]
fn a_server_beside_no_database_says_it_failed_and_makes_none() {
    let t = Cup::new().table(SERVED).open();
    let server = Server::start(&t, "2026-11-02");
    let (status, fault) = server.post(&get_my_games("white", "whatever"));
    assert_eq!(status, 500);
    assert!(
        fault.contains("<faultstring>ServerError</faultstring>"),
        "{fault}"
    );
    // The database is a run's to make (with its first poll).
    assert!(!t.path().join("db.sqlite").exists());
    assert_eq!(server.stop(), Some(0));
}

#[test]
fn a_login_still_finds_its_player_after_the_director_changes_his_address() {
    let mut t = Cup::new().table(SERVED).open();
    let password = whites_login(&mut t);
    let file = t.path().join("shtempel.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains(WHITE));
    std::fs::write(&file, text.replace(WHITE, "white.new@test.example")).unwrap();
    let server = Server::start(&t, "2026-11-12");
    let (status, games) = server.post(&get_my_games("white", &password));
    assert_eq!(status, 200, "{games}");
    assert_eq!(games.matches("<XfccGame>").count(), 1, "{games}");
    assert_eq!(element(&games, "hasWhite"), "true");
    assert_eq!(element(&games, "white"), "White Player");
    // An edit while the server runs holds at its next request.
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("White Player", "White Player Jr")).unwrap();
    let (_, games) = server.post(&get_my_games("white", &password));
    assert_eq!(element(&games, "white"), "White Player Jr");
    assert_eq!(server.stop(), Some(0));
}

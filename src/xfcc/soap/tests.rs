use super::*;
use crate::xfcc::wsdl::GAME_FIELDS;
use crate::xfcc::{XfccResult, wsdl};
use chrono::NaiveDate;

/// Scid vs PC's envelope around a call, as `tcl/tools/correspondence.tcl`
/// (adch99/scidvspc-modern) builds it: `SOAPstart` and `SOAPend` are Tcl
/// brace strings, so their line breaks and the tab that indents the next
/// line are part of them.
fn scid_vs_pc(call: &str) -> String {
    let start = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\t<soap:Envelope \
                 xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
                 xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" \
                 xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">\n\t<soap:Body>\n\t";
    format!("{start}{call}</soap:Body>\n\t</soap:Envelope>")
}

/// scidCommunity's envelope (`::lss::soapRequest` in `tcl/tools/lss.tcl`,
/// whelanh/scidCommunity): the namespace bound to `ns:`, an empty header,
/// the body's call indented as the Tcl string writes it.
fn scid_community(call: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<soap:Envelope \
         xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:ns=\"{NAMESPACE}\">\n    \
         <soap:Header/>\n    <soap:Body>\n        {call}\n    </soap:Body>\n</soap:Envelope>"
    )
}

fn login(username: &str, password: &str) -> Login {
    Login {
        username: username.into(),
        password: password.into(),
    }
}

#[test]
fn scid_vs_pc_asks_for_its_games() {
    // `::Xfcc::Receive`: the user name and password appended unescaped.
    let call = format!(
        "<GetMyGames xmlns=\"{NAMESPACE}\"><username>ivanov</username>\
         <password>k7Qp2mZx</password></GetMyGames>"
    );
    assert_eq!(
        read_request(scid_vs_pc(&call).as_bytes()),
        Ok(Request::GetMyGames(login("ivanov", "k7Qp2mZx")))
    );
}

#[test]
fn scid_vs_pc_sends_a_move_with_its_words_escaped() {
    // `::Xfcc::SendMove`: the comment passed through `xmlencrypt` (& < > " '),
    // the flags as Scid's dialog sets them.
    let call = format!(
        "<MakeAMove xmlns=\"{NAMESPACE}\"><username>ivanov</username>\
         <password>k7Qp2mZx</password><gameId>3</gameId><resign>false</resign>\
         <acceptDraw>false</acceptDraw><movecount>12</movecount><myMove>Nf3</myMove>\
         <offerDraw>true</offerDraw><claimDraw>false</claimDraw>\
         <myMessage>R&amp;D says &lt;hi&gt; &quot;Ivan&apos;s&quot;</myMessage></MakeAMove>"
    );
    let Ok(Request::MakeAMove(request)) = read_request(scid_vs_pc(&call).as_bytes()) else {
        panic!("not a move");
    };
    assert_eq!(
        request,
        MoveRequest {
            login: login("ivanov", "k7Qp2mZx"),
            game_id: 3,
            resign: false,
            accept_draw: false,
            movecount: 12,
            my_move: "Nf3".into(),
            offer_draw: true,
            claim_draw: false,
            my_message: "R&D says <hi> \"Ivan's\"".into(),
        }
    );
}

#[test]
fn scid_community_asks_and_moves_with_a_prefix() {
    let get = "<ns:GetMyGames>\n            <ns:username>petrov</ns:username>\n            \
               <ns:password>p&amp;ss</ns:password>\n        </ns:GetMyGames>";
    assert_eq!(
        read_request(scid_community(get).as_bytes()),
        Ok(Request::GetMyGames(login("petrov", "p&ss")))
    );
    // `::lss::sendMoveSoap`: every parameter, the message empty.
    let make = "<ns:MakeAMove>\n            <ns:username>petrov</ns:username>\n            \
                <ns:password>secret</ns:password>\n            <ns:gameId>17</ns:gameId>\n            \
                <ns:resign>false</ns:resign>\n            <ns:acceptDraw>false</ns:acceptDraw>\n            \
                <ns:movecount>1</ns:movecount>\n            <ns:myMove>e5</ns:myMove>\n            \
                <ns:offerDraw>false</ns:offerDraw>\n            <ns:claimDraw>false</ns:claimDraw>\n            \
                <ns:myMessage></ns:myMessage>\n        </ns:MakeAMove>";
    let Ok(Request::MakeAMove(request)) = read_request(scid_community(make).as_bytes()) else {
        panic!("not a move");
    };
    assert_eq!(
        (request.game_id, request.movecount, request.my_move.as_str()),
        (17, 1, "e5")
    );
    assert_eq!(request.my_message, "");
    assert!(!request.resign && !request.offer_draw);
}

#[test]
fn an_operation_not_served_is_named() {
    let call = format!("<MakeAMove2 xmlns=\"{NAMESPACE}\"><username>a</username></MakeAMove2>");
    assert_eq!(
        read_request(scid_vs_pc(&call).as_bytes()),
        Ok(Request::Unserved {
            operation: "MakeAMove2".into()
        })
    );
}

#[test]
fn what_is_not_the_protocol_is_refused_in_words() {
    let table: &[(&str, &str)] = &[
        // An entity declared by a DTD (the "billion laughs") is never read.
        (
            "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">\
             <!ENTITY lol2 \"&lol;&lol;&lol;\">]><soap:Envelope \
             xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>\
             <GetMyGames><username>&lol2;</username></GetMyGames></soap:Body></soap:Envelope>",
            "a request may not carry a DOCTYPE",
        ),
        (
            "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>\
             <GetMyGames><username>&lol;</username></GetMyGames></soap:Body></soap:Envelope>",
            "the entity &lol; is not XML's own",
        ),
        (
            "<html><body>GetMyGames</body></html>",
            "the request is not a SOAP 1.1 envelope (its first element is html)",
        ),
        (
            "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\" \
             xmlns:x=\"urn:other\"><soap:Body><x:GetMyGames/></soap:Body></soap:Envelope>",
            "GetMyGames is not in the Xfcc namespace http://www.bennedik.com/webservices/XfccBasic",
        ),
        // scidCommunity's call without its envelope's declaration.
        (
            "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>\
             <ns:GetMyGames><ns:username>a</ns:username></ns:GetMyGames></soap:Body></soap:Envelope>",
            "the prefix ns: of GetMyGames is not declared",
        ),
        (
            "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>\
             <MakeAMove><gameId>three</gameId></MakeAMove></soap:Body></soap:Envelope>",
            "gameId must be a whole number, not \"three\"",
        ),
        (
            "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>\
             <MakeAMove><gameId>3</gameId></MakeAMove></soap:Body></soap:Envelope>",
            "movecount is missing",
        ),
        (
            "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>\
             <GetMyGames><username><b>x</b></username></GetMyGames></soap:Body></soap:Envelope>",
            "a parameter holds an element (b); Xfcc's parameters are text",
        ),
        (
            "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">\
             <soap:Body></soap:Body></soap:Envelope>",
            "no operation in a SOAP 1.1 envelope's body (GetMyGames, MakeAMove)",
        ),
    ];
    for (body, words) in table {
        assert_eq!(
            read_request(body.as_bytes()),
            Err(Unreadable(words.to_string())),
            "{body}"
        );
    }
    // Cut short, or its tags crossed: not XML at all.
    for body in [
        scid_vs_pc("<GetMyGames><username>a</password></GetMyGames>"),
        scid_vs_pc("<GetMyGames><username>a")[..60].to_string(),
    ] {
        let Err(Unreadable(words)) = read_request(body.as_bytes()) else {
            panic!("read: {body}");
        };
        assert!(words.starts_with("not well-formed XML") || words.starts_with("no operation"));
    }
}

fn game() -> XfccGame {
    XfccGame {
        id: 7,
        white: "Ivanov Ivan".into(),
        black: "Smith & <Sons>".into(),
        event: "Кубок 2026".into(),
        site: "shtempel".into(),
        my_turn: true,
        has_white: false,
        days_player: 38,
        days_opponent: 45,
        moves: "1. e4 e5 2. Nf3".into(),
        draw_offered: false,
        result: XfccResult::Ongoing,
        message: None,
        event_date: NaiveDate::from_ymd_opt(2026, 11, 1).unwrap(),
        time_control: "10/4320000".into(),
        round: "2".into(),
        board: Some(1),
        game_link: Some("https://example.org/cup/7.html".into()),
    }
}

/// The elements of the first `XfccGame` in `xml`, by name and text.
fn elements_of_game(xml: &str) -> Vec<(String, String)> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut fields = Vec::new();
    let mut inside = false;
    let mut text = String::new();
    loop {
        match reader.read_event().unwrap() {
            Event::Start(e) if e.local_name().as_ref() == b"XfccGame" => inside = true,
            Event::End(e) if e.local_name().as_ref() == b"XfccGame" => break,
            Event::Start(_) => text.clear(),
            Event::Text(t) if inside => text.push_str(&t.xml_content().unwrap()),
            Event::GeneralRef(r) if inside => {
                let name = r.decode().unwrap();
                text.push_str(resolve_predefined_entity(&name).unwrap());
            }
            Event::End(e) if inside => {
                let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
                fields.push((name, std::mem::take(&mut text)));
            }
            Event::Eof => break,
            _ => {}
        }
    }
    fields
}

#[test]
fn a_game_is_written_field_by_field_in_the_wsdls_order() {
    let xml = games_response(&[game()]);
    let fields = elements_of_game(&xml);
    let names: Vec<&str> = fields.iter().map(|(name, _)| name.as_str()).collect();
    // `message` has no value and is left out; every other field is there,
    // in the WSDL's order.
    let expected: Vec<&str> = GAME_FIELDS
        .iter()
        .map(|(name, _, _)| *name)
        .filter(|name| *name != "message")
        .collect();
    assert_eq!(names, expected);
    let value = |name: &str| {
        fields
            .iter()
            .find(|(field, _)| field == name)
            .map(|(_, value)| value.as_str())
    };
    assert_eq!(value("black"), Some("Smith & <Sons>"));
    assert_eq!(value("event"), Some("Кубок 2026"));
    assert_eq!(value("eventDate"), Some("2026.11.01"));
    assert_eq!(value("daysPlayer"), Some("38"));
    assert_eq!(value("hoursPlayer"), Some("0"));
    assert_eq!(value("myTurn"), Some("true"));
    assert_eq!(value("hasWhite"), Some("false"));
    assert_eq!(value("result"), Some("Ongoing"));
    // Scid vs PC cuts the answer at `<GetMyGamesResult>` as text.
    assert!(
        xml.contains("<GetMyGamesResult><XfccGame><id>7</id>"),
        "{xml}"
    );
}

#[test]
fn a_moves_answer_and_a_fault_are_as_scid_vs_pc_cuts_them() {
    // `::Xfcc::SOAPError` replaces `.*<MakeAMoveResponse.*">` and reads
    // `MakeAMoveResult`; a fault it finds by `<soap:Fault>`.
    let answer = move_response(MoveResult::MoveIsAmbiguous);
    assert!(
        answer.contains(&format!(
            "<MakeAMoveResponse xmlns=\"{NAMESPACE}\"><MakeAMoveResult>MoveIsAmbigous</MakeAMoveResult>"
        )),
        "{answer}"
    );
    let fault = fault(true, "gameId must be a whole number, not \"<x>\"");
    assert!(
        fault.contains("<soap:Fault><faultcode>soap:Client</faultcode>"),
        "{fault}"
    );
    assert!(fault.contains("not &quot;&lt;x&gt;&quot;"), "{fault}");
}

#[test]
fn the_wsdl_is_xml_and_names_every_result_served() {
    let text = wsdl::wsdl("https://chess.example.org/xfcc?a=1&b=2");
    let mut reader = quick_xml::Reader::from_str(&text);
    let mut elements = 0;
    loop {
        match reader.read_event() {
            Ok(Event::Eof) => break,
            Ok(Event::Start(_) | Event::Empty(_)) => elements += 1,
            Ok(_) => {}
            Err(e) => panic!("{e}: {text}"),
        }
    }
    assert!(elements > 100, "{elements}");
    for name in MoveResult::ALL.iter().map(|r| r.name()) {
        assert!(
            text.contains(&format!("<s:enumeration value=\"{name}\"/>")),
            "{name}"
        );
    }
    for result in XfccResult::ALL {
        assert!(text.contains(&format!("value=\"{}\"", result.name())));
    }
    assert!(text.contains("location=\"https://chess.example.org/xfcc?a=1&amp;b=2\""));
    assert!(text.contains(&format!("soapAction=\"{NAMESPACE}/MakeAMove\"")));
    assert!(!text.contains("MakeAMove2"));
}

/// What zeep 4.3.3 (PyPI) sends, made by its `Client.create_message` from
/// the WSDL this module serves (`wsdl::wsdl`): the envelope prefixed
/// `soap-env:`, the call `ns0:`.
const ZEEP_GET_MY_GAMES: &str = r#"<?xml version='1.0' encoding='utf-8'?>
<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Body><ns0:GetMyGames xmlns:ns0="http://www.bennedik.com/webservices/XfccBasic"><ns0:username>ivanov</ns0:username><ns0:password>p&amp;ss&lt;</ns0:password></ns0:GetMyGames></soap-env:Body></soap-env:Envelope>"#;
const ZEEP_MAKE_A_MOVE: &str = r#"<?xml version='1.0' encoding='utf-8'?>
<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Body><ns0:MakeAMove xmlns:ns0="http://www.bennedik.com/webservices/XfccBasic"><ns0:username>ivanov</ns0:username><ns0:password>x</ns0:password><ns0:gameId>3</ns0:gameId><ns0:resign>false</ns0:resign><ns0:acceptDraw>false</ns0:acceptDraw><ns0:movecount>12</ns0:movecount><ns0:myMove>Nf3</ns0:myMove><ns0:offerDraw>true</ns0:offerDraw><ns0:claimDraw>false</ns0:claimDraw><ns0:myMessage>привет</ns0:myMessage></ns0:MakeAMove></soap-env:Body></soap-env:Envelope>"#;

#[test]
fn zeep_asks_and_moves_as_the_wsdl_tells_it() {
    assert_eq!(
        read_request(ZEEP_GET_MY_GAMES.as_bytes()),
        Ok(Request::GetMyGames(login("ivanov", "p&ss<")))
    );
    let Ok(Request::MakeAMove(request)) = read_request(ZEEP_MAKE_A_MOVE.as_bytes()) else {
        panic!("not a move");
    };
    assert_eq!(
        (request.game_id, request.movecount, request.my_move.as_str()),
        (3, 12, "Nf3")
    );
    assert_eq!(request.my_message, "привет");
    assert!(request.offer_draw && !request.resign && !request.claim_draw);
}

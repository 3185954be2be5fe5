//! The board in the letters: every letter that asks its reader
//! for a move shows the position from his side as a text diagram with the
//! last move marked, and its FEN; a reply that quotes them is read as the
//! player's own words only.

use crate::support::*;

/// The position after 1. e4, from Black's side: rank 1 on top, the h-file
/// on the left, the pawn's two squares in brackets.
const AFTER_E4_FOR_BLACK: &[&str] = &[
    " 1 | R  N  B  K  Q  B  N  R |",
    " 2 | P  P  P [.] P  P  P  P |",
    " 4 | .  .  . [P] .  .  .  . |",
    " 8 | r  n  b  k  q  b  n  r |",
    "     h  g  f  e  d  c  b  a",
];
const FEN_AFTER_E4: &str = "FEN: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

#[test]
fn a_forward_shows_the_board_from_its_readers_side_in_either_language() {
    let mut t = Tournament::new();
    let mail = t.exchange(WHITE, "2026-11-03", "Game 1", W1);
    let forward = mail.iter().find(|m| m.kind == "forward").unwrap();
    assert_eq!(forward.to, [BLACK]);
    forward.says(
        "The position after 1. e4, from your side (White in capitals, the last move in brackets):",
    );
    for line in AFTER_E4_FOR_BLACK {
        forward.says(line);
    }
    forward.says(FEN_AFTER_E4);
    // The board comes before the lines for the next letter.
    let board = forward.body.find(FEN_AFTER_E4).unwrap();
    let lines = forward.body.find("Lines for your next letter").unwrap();
    assert!(board < lines, "{}", forward.body);
    // The receipt to White asks for nothing: no board.
    let ack = mail.iter().find(|m| m.kind == "ack").unwrap();
    ack.never_says("FEN:");

    // White's side, in Russian letters, after 1... e5.
    let mut t = Cup::new().in_language("ru").open();
    t.letter(WHITE, "2026-11-03", "Партия 1", W1);
    t.poll("2026-11-03");
    t.new_mail();
    let mail = t.exchange(BLACK, "2026-11-07", "Re: [T #1] 1. e4", B1);
    let forward = mail.iter().find(|m| m.kind == "forward").unwrap();
    assert_eq!(forward.to, [WHITE]);
    forward.says("Позиция после 1... e5, с вашей стороны");
    forward.says(" 8 | л   к   с   ф   кр  с   к   л  |");
    forward.says(" 5 | .   .   .   .  [п ] .   .   .  |");
    forward.says(" 1 | Л   К   С   Ф   Кр  С   К   Л  |");
    forward.says("     a   b   c   d   e   f   g   h");
    forward.says("FEN: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
}

/// The other letters that ask for a move: the repeat, the undo (to the one
/// to move again), the decision that resumes a game (to the one to move),
/// a game's start (to White).
#[test]
fn every_letter_that_asks_for_a_move_shows_the_board_and_no_other() {
    // The undo of 1... e5: Black is to move again, after 1. e4.
    let mut t = Tournament::new();
    t.opening();
    let mail = t.exchange(ARBITER, "2026-11-11", "Game 1", "UNDO 1\n");
    assert_eq!(
        kinds(&mail),
        [
            pair("undo", WHITE),
            pair("undo", BLACK),
            pair("order-done", ARBITER)
        ]
    );
    mail[1].says(FEN_AFTER_E4);
    mail[1].says(AFTER_E4_FOR_BLACK[2]);
    mail[0].never_says("FEN:");

    // The repeat of 1. e4, unanswered 40 days, to Black.
    let mut t = Tournament::new();
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    t.poll("2026-11-03");
    t.new_mail();
    t.poll("2026-12-13");
    let mail = t.new_mail();
    let repeat = mail
        .iter()
        .find(|m| m.kind == "repeat")
        .unwrap_or_else(|| panic!("{:?}", kinds(&mail)));
    assert_eq!(repeat.to, [BLACK]);
    repeat.says(FEN_AFTER_E4);

    // A decision that resumes the game: the board to Black, who moves.
    let (mut t, _) = white_oversteps(Cup::new());
    let mail = overstep_rejected(&mut t);
    let decision = |to: &str| {
        mail.iter()
            .find(|m| m.kind == "decision" && m.to == [to])
            .unwrap_or_else(|| panic!("{:?}", kinds(&mail)))
    };
    decision(BLACK).says(FEN_AFTER_E4);
    decision(WHITE).never_says("FEN:");
}

/// `[mail] diagrams = "none"`: the letters as they were, the FEN and the
/// diagram left out.
#[test]
fn diagrams_none_leaves_the_board_out() {
    let mut t = Cup::new().table("[mail]\ndiagrams = \"none\"").open();
    let mail = t.exchange(WHITE, "2026-11-03", "Game 1", W1);
    let forward = mail.iter().find(|m| m.kind == "forward").unwrap();
    forward.never_says("FEN:");
    forward.never_says("The position after");
    forward.says("Lines for your next letter in game 1");
}

/// A reply that quotes the forward, its diagram and its FEN line, as mail
/// programs quote (`>` lines; Outlook's header block with the text
/// unmarked below it), is read as the player's own words: his move and
/// nothing of the board.
#[test]
fn a_reply_quoting_the_board_is_read_right() {
    for quoting in ["marked", "outlook"] {
        let mut t = Tournament::new();
        let mail = t.exchange(WHITE, "2026-11-03", "Game 1", W1);
        let forward = mail.iter().find(|m| m.kind == "forward").unwrap();
        let quote = match quoting {
            "marked" => {
                let quoted: Vec<String> = forward
                    .body
                    .lines()
                    .map(|line| format!("> {line}"))
                    .collect();
                format!("On Tue, 3 Nov 2026, clerk wrote:\n{}", quoted.join("\n"))
            }
            _ => format!(
                "________________________________\nFrom: Test cup <clerk@test.example>\nSent: Tuesday, November 3, 2026 12:00 PM\nTo: Black Player\nSubject: [T #1] 1. e4\n\n{}",
                forward.body
            ),
        };
        let body = format!("{B1}\n{quote}\n");
        let mail = t.exchange(BLACK, "2026-11-07", "Re: [T #1] 1. e4", &body);
        assert_eq!(
            kinds(&mail),
            [pair("ack", BLACK), pair("forward", WHITE)],
            "{quoting}"
        );
        mail[0].never_says("Not carried out");
        let chart = t.chart("1");
        let moves = chart["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 2, "{quoting}");
        assert_eq!(moves[1]["san"], "e5", "{quoting}");
        // White's forward shows the board after 1... e5 from White's side.
        mail[1].says("FEN: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    }
}

/// The forward as a mail program reads it: the text as before (diagram
/// and FEN), and an HTML alternative whose picture is the PNG of the
/// board, sent in the message (`multipart/related`) and named by `cid:`;
/// the whole under 40 KB. `text` sends no HTML part.
#[test]
fn a_forward_carries_the_board_as_a_picture_its_html_shows() {
    use mail_parser::{MessageParser, MimeHeaders, PartType};
    for language in ["en", "ru"] {
        let mut t = Cup::new().in_language(language).open();
        let mail = t.exchange(WHITE, "2026-11-03", "Game 1", W1);
        let forward = mail.iter().find(|m| m.kind == "forward").unwrap();
        assert!(forward.raw.len() < 40_000, "{} bytes", forward.raw.len());
        forward.says(FEN_AFTER_E4);
        let message = MessageParser::default().parse(&forward.raw).unwrap();
        let html = message.body_html(0).expect("an HTML part").into_owned();
        assert!(html.contains(FEN_AFTER_E4), "{html}");
        assert!(
            !html.contains(AFTER_E4_FOR_BLACK[0]),
            "the picture in the diagram's place"
        );
        let image = message
            .parts
            .iter()
            .find(|part| {
                part.content_type()
                    .is_some_and(|ct| ct.ctype() == "image" && ct.subtype() == Some("png"))
            })
            .expect("the picture");
        let cid = image.content_id().expect("its Content-ID");
        assert!(html.contains(&format!("src=\"cid:{cid}\"")), "{html}");
        let bytes = match &image.body {
            PartType::Binary(bytes) | PartType::InlineBinary(bytes) => bytes.to_vec(),
            other => panic!("{other:?}"),
        };
        assert!(
            (8_000..30_000).contains(&bytes.len()),
            "{} bytes",
            bytes.len()
        );
        let picture = tiny_skia::Pixmap::decode_png(&bytes).unwrap();
        assert_eq!((picture.width(), picture.height()), (320, 320));
        // From Black's side (rank 1 on top, the h-file on the left): e4,
        // tinted, with White's pawn, is the fourth square of the fourth row.
        let (centre, corner) =
            shtempel::board::picture::pixels_of(shakmaty::Square::E4, shakmaty::Color::Black);
        let pixel = |(x, y): (u32, u32)| {
            let p = picture.pixel(x, y).unwrap();
            (p.red(), p.green(), p.blue())
        };
        assert_eq!((centre.0 / 40, centre.1 / 40), (3, 3));
        assert_eq!(pixel(centre), (0xff, 0xff, 0xff));
        assert_eq!(
            pixel(corner),
            shtempel::board::picture::square_colour(shakmaty::Square::E4, true)
        );
        let words = pick(
            language,
            "The position after 1. e4, from your side",
            "Позиция после 1. e4, с вашей стороны",
        );
        assert!(html.contains(&format!("alt=\"{words}\"")), "{html}");
        // The ranks beside the picture and the files below it, as Black
        // sees the board: 1 on top, h on the left.
        let labels: String = html
            .split("align=\"center\">")
            .skip(1)
            .filter_map(|cell| cell.split("</td>").next())
            .collect();
        assert_eq!(labels, "12345678hgfedcba", "{html}");
    }
    let mut t = Cup::new().table("[mail]\ndiagrams = \"text\"").open();
    let mail = t.exchange(WHITE, "2026-11-03", "Game 1", W1);
    let forward = mail.iter().find(|m| m.kind == "forward").unwrap();
    forward.says(FEN_AFTER_E4);
    let raw = String::from_utf8_lossy(&forward.raw);
    assert!(
        !raw.contains("text/html") && !raw.contains("image/png"),
        "{raw}"
    );
}

/// A reply from a mail program that shows HTML (Gmail's way): its text
/// quotes the forward with the picture as "[image: …]", its HTML quotes
/// the forward's HTML, picture and FEN in a `blockquote`. Read as the
/// player's own words: his move, nothing of the board.
#[test]
fn an_html_reply_quoting_the_picture_is_read_right() {
    use mail_parser::MessageParser;
    let mut t = Tournament::new();
    let mail = t.exchange(WHITE, "2026-11-03", "Game 1", W1);
    let forward = mail.iter().find(|m| m.kind == "forward").unwrap();
    let parsed = MessageParser::default().parse(&forward.raw).unwrap();
    let html = parsed.body_html(0).unwrap().into_owned();
    let inner = html
        .split("<body>")
        .nth(1)
        .and_then(|rest| rest.split("</body>").next())
        .unwrap();
    let alt = "The position after 1. e4, from your side";
    let plain_quote: String = forward
        .body
        .lines()
        .map(|line| {
            match line.starts_with("   +") || line.starts_with(" ") && line.contains(" | ") {
                true => String::new(),
                false => format!("> {line}\n"),
            }
        })
        .collect::<String>()
        .replacen("> FEN:", &format!("> [image: {alt}]\n> FEN:"), 1);
    let own = "Game 1\r\n1... e5\r\nTime: 2/4\r\nDates: 2026-11-03, 2026-11-03, 2026-11-07\r\n";
    let text = format!(
        "{own}\r\nOn Tue, Nov 3, 2026 at 12:00 PM Test cup <clerk@test.example> wrote:\r\n\r\n{}",
        plain_quote.replace('\n', "\r\n")
    );
    let html = format!(
        "<div dir=\"ltr\">{}</div><br><div class=\"gmail_quote\"><div dir=\"ltr\" class=\"gmail_attr\">On Tue, Nov 3, 2026 at 12:00 PM Test cup &lt;clerk@test.example&gt; wrote:<br></div><blockquote class=\"gmail_quote\" style=\"margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex\">{inner}</blockquote></div>",
        own.replace("\r\n", "<br>")
    );
    let raw = format!(
        "Received: from mx.test.example by mail.test.example; Sat, 07 Nov 2026 12:00:00 +0300\r\n\
         From: {BLACK}\r\nTo: {CLERK}\r\nSubject: Re: [T #1] 1. e4\r\n\
         Date: Sat, 07 Nov 2026 11:59:00 +0300\r\nMessage-ID: <gmail-reply@test.example>\r\n\
         In-Reply-To: <{}>\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/alternative; boundary=\"000000000000b\"\r\n\r\n\
         --000000000000b\r\nContent-Type: text/plain; charset=\"UTF-8\"\r\n\r\n{text}\r\n\
         --000000000000b\r\nContent-Type: text/html; charset=\"UTF-8\"\r\n\r\n{html}\r\n\
         --000000000000b--\r\n",
        forward.message_id
    );
    t.deliver_raw(raw.as_bytes());
    t.pass("2026-11-07");
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("ack", BLACK), pair("forward", WHITE)]);
    mail[0].never_says("Not carried out");
    let chart = t.chart("1");
    assert_eq!(chart["moves"].as_array().unwrap().len(), 2);
    assert_eq!(chart["moves"][1]["san"], "e5");
}

/// The replacement letter shows the newcomer each game's board from his
/// side, as text, and in its HTML a picture of each in its place: two
/// games, two PNGs, each named by the HTML once, in the games' order.
#[test]
fn a_replacement_shows_each_games_board_as_a_picture() {
    use mail_parser::{MessageParser, MimeHeaders};
    let mut t = Cup::new()
        .player("third", "Third Player", "third@test.example")
        .game("2", "third", "white")
        .open();
    t.opening();
    let newcomer = "new.player@test.example";
    let mail = t.exchange(
        ARBITER,
        "2026-11-10",
        "Replacement",
        &format!("REPLACE white New Player <{newcomer}>\n"),
    );
    let letter = mail
        .iter()
        .find(|m| m.kind == "replacement")
        .unwrap_or_else(|| panic!("{:?}", kinds(&mail)));
    // Game 1 after 1... e5 from White's side; game 2 unplayed, from Black's.
    letter.says("FEN: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    letter.says("FEN: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let message = MessageParser::default().parse(&letter.raw).unwrap();
    let html = message.body_html(0).expect("an HTML part").into_owned();
    let cids: Vec<String> = message
        .parts
        .iter()
        .filter(|part| {
            part.content_type()
                .is_some_and(|ct| ct.ctype() == "image" && ct.subtype() == Some("png"))
        })
        .map(|part| part.content_id().expect("a Content-ID").to_string())
        .collect();
    assert_eq!(cids.len(), 2, "{cids:?}");
    let at: Vec<usize> = cids
        .iter()
        .map(|cid| {
            let reference = format!("src=\"cid:{cid}\"");
            assert_eq!(html.matches(&reference).count(), 1, "{cid}: {html}");
            html.find(&reference).unwrap()
        })
        .collect();
    let game = |id: &str| html.find(&format!("Game {id}: you play")).unwrap();
    assert!(
        game("1") < at[0] && at[0] < game("2") && game("2") < at[1],
        "{html}"
    );
    assert!(
        !html.contains(" 8 | "),
        "the pictures in the diagrams' places"
    );
}

/// The position after 1. e4 e5, from White's side, as its FEN line gives it.
const FEN_AFTER_E5: &str = "FEN: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

/// The one message of `kind` to `to` among `mail`.
fn the<'m>(mail: &'m [Sent], kind: &str, to: &str) -> &'m Sent {
    mail.iter()
        .find(|m| m.kind == kind && m.to == [to])
        .unwrap_or_else(|| panic!("no {kind} to {to} in {:?}", kinds(mail)))
}

/// Every letter that asks its reader for a move he is to make now shows
/// the board, whatever its kind: the reminder, the receipt whose move a
/// conditional variant answered at once, the partner's notice of a leave
/// and of a replacement, the refusal of an illegal move; a letter to the
/// player who is not to move shows none.
#[test]
fn the_letters_that_ask_for_a_move_now_show_the_board_in_either_language() {
    for language in ["en", "ru"] {
        let cup = || {
            Cup::new()
                .in_language(language)
                .rules("leave_days_per_year = 30\nreminder_days = [10, 3]")
        };

        // The reminder: White silent since 1... e5 reached him.
        let mut t = cup().open();
        t.opening();
        t.pass("2026-12-16");
        let mail = t.new_mail();
        the(&mail, "reminder", WHITE).says(FEN_AFTER_E5);

        // The receipt of 2... Nc6, answered at once by White's 3. Bb5.
        let mut t = cup().open();
        t.opening();
        let conditional = "Game 1\n2. Nf3\nif 2... Nc6 3. Bb5\nTime: 3/4\nDates: 2026-11-07, 2026-11-07, 2026-11-08\n";
        t.exchange(WHITE, "2026-11-08", "Re: [T #1]", conditional);
        let reply = "Game 1\n2... Nc6\nTime: 3/6\nDates: 2026-11-08, 2026-11-08, 2026-11-10\n";
        let mail = t.exchange(BLACK, "2026-11-10", "Re: [T #1]", reply);
        let receipt = mail
            .iter()
            .find(|m| m.to == [BLACK] && m.kind != "forward")
            .unwrap_or_else(|| panic!("{language}: {:?}", kinds(&mail)));
        receipt.says("FEN: r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3");
        the(&mail, "forward", WHITE).never_says("FEN:");

        // The refusal of an illegal move, in the position it must be legal in.
        let mut t = cup().open();
        t.opening();
        let illegal = "Game 1\n2. Ke3\nTime: 3/4\nDates: 2026-11-07, 2026-11-07, 2026-11-08\n";
        let mail = t.exchange(WHITE, "2026-11-08", "Re: [T #1]", illegal);
        the(&mail, "refused", WHITE).says(FEN_AFTER_E5);

        // Black's leave, told to White, who is to move.
        let mut t = cup().open();
        t.opening();
        let leave = match language {
            "en" => "LEAVE 20.11.2026 - 29.11.2026\n",
            _ => "ОТПУСК 20.11.2026 - 29.11.2026\n",
        };
        let mail = t.exchange(BLACK, "2026-11-10", "Leave", leave);
        the(&mail, "leave-notice", WHITE).says(FEN_AFTER_E5);
        the(&mail, "leave", BLACK).never_says("FEN:");

        // The game's start, to White: the initial position, and no word of
        // a last move in brackets where there is none.
        let mut t = cup().game_from("2", "white", "black", "2026-12-01").open();
        t.pass("2026-12-01");
        let mail = t.new_mail();
        let start = the(&mail, "start", WHITE);
        start.says("FEN: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        start.never_says("brackets");
        start.never_says("скобках");

        // Black replaced: his partner, to move, is told with the board.
        let mut t = cup().open();
        t.opening();
        let order = "REPLACE black New Player <new.player@test.example>\n";
        let mail = t.exchange(ARBITER, "2026-11-10", "Replacement", order);
        the(&mail, "replaced", WHITE).says(FEN_AFTER_E5);
        // The newcomer's moves so far as a score is written.
        let newcomer = mail.iter().find(|m| m.kind == "replacement").unwrap();
        newcomer.says(pick(
            language,
            "Moves so far: 1. e4 e5\r\n  Position",
            "Ходы: 1. e4 e5\r\n",
        ));
    }
}

/// Each template of both languages that gives the lines of the reader's
/// next letter shows the board beside them (the board itself appears only
/// where the reader is to move now, `_board` asks). The start sheet is the
/// exception: it lists every game, and each game's own start letter to
/// White (`start.txt`) carries that game's board.
#[test]
fn every_template_with_the_next_letters_lines_has_the_board() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    for language in ["en", "ru"] {
        let mut checked = 0;
        for entry in std::fs::read_dir(root.join(language)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if !name.ends_with(".txt") || name.starts_with('_') || name == "start-sheet.txt" {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            if text.contains("{% include \"_next\" %}") {
                checked += 1;
                assert!(
                    text.contains("{% include \"_board\" %}"),
                    "{language}/{name} gives the next letter's lines without the board"
                );
            }
        }
        assert!(checked >= 13, "{language}: {checked} templates with lines");
    }
}

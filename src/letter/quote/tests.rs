use super::*;

fn own(body: &str) -> Vec<&str> {
    crate::letter::own_lines(body)
        .into_iter()
        .map(|(_, line)| line)
        .collect()
}

#[test]
fn quote_forms_are_cut() {
    let table = [
        ("2. Nf3\n> 1... e5\n", vec!["2. Nf3"]),
        (
            "2. Nf3\n\nOn Mon, 7 Nov 2026 at 10:00, Petrov <p@x.org> wrote:\nGame 1\n1... e5",
            vec!["2. Nf3", ""],
        ),
        (
            "2. Кf3\nПонедельник, 7 ноября 2026, 10:00 +03:00 от Петров <p@x.org>:\n1... e5",
            vec!["2. Кf3"],
        ),
        (
            "2. Кf3\n07.11.2026, 10:00, \"Петров\" <p@x.org>:\n1... e5",
            vec!["2. Кf3"],
        ),
        ("2. Кf3\nПетров пишет:\n1... e5", vec!["2. Кf3"]),
        (
            "2. Nf3\n-----Original Message-----\nFrom: p\n1... e5",
            vec!["2. Nf3"],
        ),
        (
            "2. Кf3\n-----Исходное сообщение-----\n1... e5",
            vec!["2. Кf3"],
        ),
        (
            "2. Nf3\nFrom: Petrov <p@x.org>\nSent: Monday, November 7, 2026\n1... e5",
            vec!["2. Nf3"],
        ),
        (
            "2. Кf3\nОт: Петров\nОтправлено: 7 ноября 2026 г.\n1... e5",
            vec!["2. Кf3"],
        ),
        (
            "2. Nf3\n________________________________\nstuff",
            vec!["2. Nf3"],
        ),
        ("2. Nf3\n-- \nIvan Ivanov\n3. Bb5", vec!["2. Nf3"]),
        ("2. Nf3\n--\nIvan", vec!["2. Nf3"]),
        // Other languages and forms.
        (
            "2. Nf3\n-----Ursprüngliche Nachricht-----\nVon: p\n1... e5",
            vec!["2. Nf3"],
        ),
        (
            "2. Nf3\nVon: Petrov\nGesendet: Montag\n1... e5",
            vec!["2. Nf3"],
        ),
        (
            "2. Nf3\nDe : Petrov <p@x.org>\nEnvoyé le : lundi\n1... e5",
            vec!["2. Nf3"],
        ),
        (
            "2. Nf3\nFrom:Petrov [mailto:p@x.org]\n Sent:Friday\n1... e5",
            vec!["2. Nf3"],
        ),
        (
            "2. Nf3\nLe 19/03/2014 11:34, Georges a écrit :\n1... e5",
            vec!["2. Nf3"],
        ),
        (
            "2. Nf3\nAm 25.06.2015 um 10:55 schrieb Petrov:\n1... e5",
            vec!["2. Nf3"],
        ),
        (
            "2. Nf3\n2016/11/08 14:26、Petrov <p@x.org> のメッセージ:\n1... e5",
            vec!["2. Nf3"],
        ),
        (
            "2. Nf3\n2013.02.08. 7:31 keltezéssel, \"Petrov\" írta:\n1... e5",
            vec!["2. Nf3"],
        ),
        (
            "2. Nf3\n---- On Tue, 10 Nov 2020 Petrov wrote ----\n1... e5",
            vec!["2. Nf3"],
        ),
        (
            "2. Nf3\n-------- Oprindelig besked --------\n1... e5",
            vec!["2. Nf3"],
        ),
        (
            "2. Nf3\n2013/7/20 Petrov <p@x.org>\n\n| 1... e5\n",
            vec!["2. Nf3", ""],
        ),
        ("2. Nf3\nBegin forwarded message:\n1... e5", vec!["2. Nf3"]),
    ];
    for (body, expected) in table {
        assert_eq!(own(body), expected, "{body:?}");
    }
}

/// Points 16-18: iOS Mail's Arabic attribution wrapped in
/// bidirectional marks, Outlook's header block in Arabic, Hebrew and
/// Persian, and a separator with the header's first label on its line.
#[test]
fn to_18_right_to_left_quote_headers_and_a_glued_separator_are_cut() {
    let table = [
        // 16: U+200F and U+202B around the words of "… wrote:".
        (
            "2. Nf3\n\u{200f}\u{202b}في 7 نوفمبر 2026، كتب Petrov <p@x.org>:\u{202c}\n\n> 1... e5\n",
            vec!["2. Nf3", ""],
        ),
        (
            "2. Nf3\n\u{202b}‏في ‏07‏/11‏/2026، الساعة 10:00، كتب \u{2067}Petrov\u{2069}:\u{202c}\n1... e5\n",
            vec!["2. Nf3"],
        ),
        // 17: Outlook's block, right to left.
        (
            "2. Nf3\nمن: Petrov <p@x.org>\nتم الإرسال: الاثنين، 7 نوفمبر 2026\nإلى: clerk@x.org\nالموضوع: Game 1\n1... e5\n",
            vec!["2. Nf3"],
        ),
        (
            "2. Nf3\nמאת: Petrov <p@x.org>\nנשלח: יום שני 7 נובמבר 2026\nאל: clerk@x.org\nנושא: Game 1\n1... e5\n",
            vec!["2. Nf3"],
        ),
        (
            "2. Nf3\nاز: Petrov <p@x.org>\nارسال شده: دوشنبه\nبه: clerk@x.org\nموضوع: Game 1\n1... e5\n",
            vec!["2. Nf3"],
        ),
        // 18: the separator and the header's first label on one line.
        (
            "2. Nf3\n-------- Ursprüngliche Nachricht --------Von: Petrov <p@x.org>\nDatum: 7.11.2026\n1... e5\n",
            vec!["2. Nf3"],
        ),
        (
            "2. Кf3\n-------- Исходное сообщение --------От: Петров <p@x.org>\n1... e5\n",
            vec!["2. Кf3"],
        ),
    ];
    for (body, expected) in table {
        assert_eq!(own(body), expected, "{body:?}");
    }
    // Dashes and words with no label after them are the writer's own.
    assert_eq!(
        own("2. Nf3\n--draw?--yes\n"),
        vec!["2. Nf3", "--draw?--yes"]
    );
    // The own lines come back as written, marks and all.
    assert_eq!(own("\u{200f}2. Nf3\n"), vec!["\u{200f}2. Nf3"]);
}

#[test]
fn bottom_posting_keeps_the_answer_below_the_quote() {
    let body =
        "On 7 Nov 2026, Petrov <p@x.org> wrote:\n> 1... e5\n> Time: 2/4\n\n2. Nf3\nTime: 7/4\n";
    assert_eq!(own(body), vec!["", "2. Nf3", "Time: 7/4"]);
    let numbers: Vec<usize> = crate::letter::own_lines(body)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert_eq!(numbers, vec![4, 5, 6], "line numbers are those of the body");
}

#[test]
fn quotes_marked_with_initials_or_bars_under_an_attribution_are_skipped() {
    let body =
        "Здравствуйте.\n\nВы писали 12 ноября 2026 г., 12:05:\n\nКК> 2. Кf3\nКК>\n\n2... Кc6\n";
    assert_eq!(own(body), vec!["Здравствуйте.", "", "", "", "2... Кc6"]);
    // Without an attribution such a line is the writer's own.
    assert_eq!(own("КК> 2. Кf3\n"), vec!["КК> 2. Кf3"]);
}

#[test]
fn a_wrapped_header_is_one_header() {
    for body in [
        "2. Nf3\nOn Mon, Nov 7, 2026 at 10:00 AM Petrov Petr <petrov@example.org>\nwrote:\n1... e5\n",
        "2. Кf3\n02.04.2012 14:20 пользователь \"bob@x.org\" <\nbob@x.org> написал:\n1... e5\n",
        "2. Nf3\n2014-10-17 11:28 GMT+03:00 Postmaster <\npostmaster@x.org>:\n1... e5\n",
        "2. Nf3\nEm 10 de julho de 2017 às 16:32:35, John Doe (\ncontact@stripe.com) escreveu:\n1... e5\n",
        "2. Nf3\nPetrov <p@x.org> schrieb am Di., 16. Aug. 2016\num 12:52 Uhr:\n1... e5\n",
    ] {
        assert_eq!(own(body), vec![body.lines().next().unwrap()], "{body:?}");
    }
}

#[test]
fn a_line_of_the_letter_never_starts_a_wrapped_header() {
    let body = "Dates: 07.11.2026, 07.11.2026, 12.11.2026\nPetrov <p@x.org> wrote:\n> 1... e5\n";
    let is_dates = |line: &str| line.starts_with("Dates:");
    let own: Vec<&str> = own_lines(body, &is_dates)
        .into_iter()
        .map(|(_, line)| line)
        .collect();
    assert_eq!(own, vec!["Dates: 07.11.2026, 07.11.2026, 12.11.2026"]);
}

#[test]
fn labels_of_the_letter_alone_are_not_a_header_block() {
    for body in [
        "Game 1\n2. Nf3\nSent: 2026-11-12\nReceived: 2026-11-07\n",
        "Game 1\n2. Nf3\nDate: 2026-11-12\nTo: Petrov\n",
        "Партия 1\n2. Кf3\nОтправлено: 12.11.2026\nПолучено: 07.11.2026\n",
    ] {
        assert_eq!(own(body).len(), 4, "{body:?}");
    }
}

/// Reply forms real mail programs write: an attribution glued to the last
/// line of the letter (the dates line kept, the quote cut), Outlook's
/// inline answer marked `[Name]` under its quote, and a citation that
/// opens with header lines over `>` lines (Emacs), the answer below it.
#[test]
fn glued_attributions_bracketed_answers_and_header_citations_are_read() {
    let dates = "Dates: 2026-11-03, 2026-11-03, 2026-11-07";
    let glued_en = format!(
        "Game 1\n1... e5\nTime: 2/4\n{dates}On Tue, Nov 3, 2026 at 6:35 PM, Clerk <clerk@test.example> wrote:\n> Game 1\n> 1. e4\n"
    );
    let glued_wrapped = format!(
        "1... e5\nTime: 2/4\n{dates}On Tue, Nov 3, 2026 at 6:35 PM Clerk <\nclerk@test.example> wrote:\n\n> 1. e4\n"
    );
    let glued_ru = "1... e5\nВремя: 2/4\nДаты: 03.11.2026, 03.11.2026, 07.11.2026вт, 3 нояб. 2026 г. в 18:35, Секретарь <clerk@test.example>:\n> 1. e4\n".to_string();
    let outlook_en = "________________________________\nFrom: Clerk <clerk@test.example>\nSent: Tuesday, November 3, 2026 12:00 PM\nTo: Black Player\nSubject: [T #1] 1. e4\n\nWhite Player has made a move:\n    1. e4\n[Black Player] 1... e5\n[Black Player] Time: 2/4\n\n[Black Player] Dates: 2026-11-03, 2026-11-03, 2026-11-07\nThe clerk of Test cup\n";
    let outlook_ru = "________________________________\nОт: Секретарь <clerk@test.example>\nОтправлено: 3 ноября 2026 г. 12:00\nКому: Петров П.\nТема: [T #1] 1. e4\n\nХод партнёра:\n    1. e4\n[Петров П.] 1... e5\n[Петров П.] Время: 2/4\n[Иванов И.] это не его\n";
    let emacs = "From: Clerk <clerk@test.example>\nDate: Tue, 03 Nov 2026 12:00:00 +0300\n\n> Game 1\n> 1. e4\n\nGame 1\n1... e5\nTime: 2/4\n";
    let emacs_ru = "От: Секретарь <clerk@test.example>\nДата: Вт, 03 нояб. 2026 12:00:00 +0300\n\n> 1. e4\n\n1... e5\nВремя: 2/4\n";
    let table: [(&str, Vec<&str>); 7] = [
        (&glued_en, vec!["Game 1", "1... e5", "Time: 2/4", dates]),
        (&glued_wrapped, vec!["1... e5", "Time: 2/4", dates, ""]),
        (
            &glued_ru,
            vec![
                "1... e5",
                "Время: 2/4",
                "Даты: 03.11.2026, 03.11.2026, 07.11.2026",
            ],
        ),
        (outlook_en, vec!["1... e5", "Time: 2/4", dates]),
        (outlook_ru, vec!["1... e5", "Время: 2/4"]),
        (emacs, vec!["", "Game 1", "1... e5", "Time: 2/4"]),
        (emacs_ru, vec!["", "1... e5", "Время: 2/4"]),
    ];
    for (body, expected) in table {
        assert_eq!(own(body), expected, "{body}");
    }
}

/// Forms a season's letters still misread: GroupWise's quote header
/// `>>> Name <address> date >>>` over the bare quote (the header's form as
/// GroupWise Internet Agent 7.0 wrote it in a linux-kernel list message of
/// 9 November 2005, Message-ID <43723B57.76F0.0078.0@novell.com>, and as
/// 18.3.1 writes it in 2021; the US date form as the season's letter had
/// it); a plain part that carries the program's HTML (Samsung's mail app,
/// as the season's letter had it); an Android attribution glued to a dates
/// line of dotted dates; Outlook 2003's own text marked `[Name]` with no
/// quote above it.
#[test]
fn groupwise_html_in_plain_glued_dotted_dates_and_marked_own_text_are_read() {
    let groupwise = "1... e5\nTime: 2/4\n\n>>> Clerk <clerk@test.example> 11/03/26 18:35 >>>\nGame 1\n1. e4\nTime: 2/0\n";
    let groupwise_eu = "1... e5\n>>> Greg KH <greg@kroah.com> 09.11.05 17:45:44 >>>\n1. e4\n";
    let samsung = "1... e5\nTime: 2/4\n\n<div>-------- Original message --------</div><div>From: Clerk &lt;clerk@test.example&gt; </div><div>Date: 11/3/26 18:35 (GMT+03:00) </div>\n1. e4\n";
    let android = "1... e5\nTime: 2/4\nDates: 03.11.2026, 03.11.2026, 04.11.2026On Mar 9, 2018 6:35 PM, \"Clerk\" <clerk@test.example> wrote:\n> 1. e4\n";
    let outlook = "[Petrov P.] 1... e5\n[Petrov P.] Time: 2/4\n";
    let android_ru = "1... e5\nВремя: 2/4\nДаты: 03.11.2026 04.11.2026On Mon, Nov 3, 2026, 18:35 Clerk <clerk@test.example> wrote:\n\n> 1. e4\n";
    let android_sent = "1... e5\nDates: 03.11.2026, 03.11.2026, sent 04.11.2026On Mar 9, 2018 6:35 PM, \"Clerk\" <clerk@test.example>\nwrote:\n> 1. e4\n";
    let table: [(&str, Vec<&str>); 7] = [
        (
            android_ru,
            vec!["1... e5", "Время: 2/4", "Даты: 03.11.2026 04.11.2026", ""],
        ),
        (
            android_sent,
            vec!["1... e5", "Dates: 03.11.2026, 03.11.2026, sent 04.11.2026"],
        ),
        (groupwise, vec!["1... e5", "Time: 2/4", ""]),
        (groupwise_eu, vec!["1... e5"]),
        (samsung, vec!["1... e5", "Time: 2/4", ""]),
        (
            android,
            vec![
                "1... e5",
                "Time: 2/4",
                "Dates: 03.11.2026, 03.11.2026, 04.11.2026",
            ],
        ),
        (outlook, vec!["1... e5", "Time: 2/4"]),
    ];
    for (body, expected) in table {
        assert_eq!(own(body), expected, "{body}");
    }
}

#[test]
fn the_clerks_own_heading_over_the_next_letters_lines_is_no_separator() {
    // The heading as the built-in templates write it, copied with the
    // block below it by a player: his letter's, read, not cut as a quote.
    for template in [
        include_str!("../../../templates/en/_next.txt"),
        include_str!("../../../templates/ru/_next.txt"),
    ] {
        let heading = template
            .lines()
            .next()
            .unwrap()
            .replace("{{ next.game }}", "1");
        assert!(!is_separator(heading.trim()), "{heading}");
        let letter = format!("{heading}\nGame 1\n1... e5\n");
        assert_eq!(own(&letter).len(), 3, "{letter}");
    }
    // A separator of the same shape in other words still is one.
    assert!(is_separator("---- On Tue, 10 Nov 2020 Petrov wrote ----"));
    assert_eq!(
        own("1... e5\n---- On Tue Petrov wrote ----\n1. e4\n"),
        ["1... e5"]
    );
}

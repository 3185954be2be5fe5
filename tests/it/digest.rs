//! A player's daily digest (`DIGEST DAILY`): what can wait kept and sent
//! in one letter a day from the digest hour, his received day the
//! digest's, urgent notices at once.

use crate::support::*;

#[test]
fn explore() {
    let mut t = Cup::new().table("[mail]\ndigest_hour = 20").open();
    let set = t.exchange(BLACK, "2026-11-02", "Settings", "DIGEST DAILY\n");
    for m in &set { eprintln!("---- {} to {:?}\n{}", m.kind, m.to, m.body); }
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    let _p = t.pass_at("2026-11-03", "13:00");
    eprintln!("{}", _p.log());
    let mail = t.new_mail();
    for m in &mail { eprintln!("---- {} to {:?}: {}", m.kind, m.to, m.subject); }
    let _p = t.pass_at("2026-11-03", "21:00");
    let mail = t.new_mail();
    for m in &mail { eprintln!("---- {} to {:?}: {}\n{}", m.kind, m.to, m.subject, m.body); }
    eprintln!("{}", serde_json::to_string_pretty(&t.chart("1")).unwrap());
}

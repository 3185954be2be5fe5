#!/usr/bin/env bash
# One poll of 100 new letters over IMAP on loopback (50 games x 2 letters, sent by
# SMTP to the private Postfix and read from the private Dovecot of
# tests/mailstack.sh), then idle polls; wall time and peak memory from
# /usr/bin/time -v. Prints figures; never fails on time.
#
#   bash benches/imap_poll.sh [games]
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-50}
ROOT=${MAILSTACK_ROOT:-/tmp/shtempel-mailstack}
bash tests/mailstack.sh start
cargo build --release -q
BIN=$PWD/target/release/shtempel
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
rm -f "$ROOT"/mail/*/Maildir/new/* "$ROOT"/mail/*/Maildir/cur/*

python3 - "$WORK" "$GAMES" <<'PY'
import smtplib, sys, datetime
work, games = sys.argv[1], int(sys.argv[2])
today = datetime.datetime.now(datetime.timezone(datetime.timedelta(hours=3))).date()
start = today - datetime.timedelta(days=2)
cfg = [f'''[tournament]
id = "B"
name = "Bench"
start_date = {start}
end_date = {start + datetime.timedelta(days=700)}
timezone = "Europe/Moscow"
language = "en"
[bot]
address = "bot@test.local"
database = "db.sqlite"
[arbiters]
chief_arbiter = "arbiter@test.local"
chief_secretary = "secretary@test.local"
[source]
kind = "imap"
host = "127.0.0.1"
port = 1143
tls = "none"
username = "bot@test.local"
password_env = "BENCH_PASSWORD"
[transport]
kind = "smtp"
host = "127.0.0.1"
port = 2525
tls = "none"
''']
for g in range(games):
    cfg.append(f'[[players]]\nid = "w{g}"\nname = "White {g}"\nemail = "white+g{g}@test.local"\n')
    cfg.append(f'[[players]]\nid = "b{g}"\nname = "Black {g}"\nemail = "black+g{g}@test.local"\n')
    cfg.append(f'[[games]]\nid = "{g}"\nwhite = "w{g}"\nblack = "b{g}"\n')
open(f"{work}/shtempel.toml", "w").write("\n".join(cfg))
d = today.strftime("%d.%m.%Y")
s = smtplib.SMTP("127.0.0.1", 2525)
for g in range(games):
    for frm, body in [(f"white+g{g}@test.local", f"Game {g}\n1. e4\nTime: 2/0\nDates: {d}\n"),
                      (f"black+g{g}@test.local", f"Game {g}\n1... e5\nTime: 2/0\nDates: {d}, {d}, {d}\n")]:
        msg = f"From: {frm}\r\nTo: bot@test.local\r\nSubject: Game {g}\r\nMessage-ID: <b{g}-{frm}>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body.replace("\n", "\r\n")
        s.sendmail(frm, ["bot@test.local"], msg.encode())
s.quit()
PY
for _ in $(seq 200); do
  [ "$(ls "$ROOT/mail/bot/Maildir/new" | wc -l)" -ge $((GAMES * 2)) ] && break
  sleep 0.1
done
export BENCH_PASSWORD=secret
measure() {
  /usr/bin/time -v "$BIN" --config "$WORK/shtempel.toml" poll > "$WORK/out" 2> "$WORK/time" || true
  local wall rss
  wall=$(grep "Elapsed (wall clock)" "$WORK/time" | awk '{print $NF}')
  rss=$(grep "Maximum resident set size" "$WORK/time" | awk '{print $NF}')
  echo "$1: wall $wall, peak RSS ${rss} kB, $(tail -n 1 "$WORK/out")"
}
measure "poll of $((GAMES * 2)) new letters over IMAP"
for i in 1 2 3 4 5; do measure "idle poll $i"; done

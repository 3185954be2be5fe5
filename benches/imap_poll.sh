#!/usr/bin/env bash
# One poll of 200 new letters (100 games x 2: 1. e4 and 1... e5) over IMAP and
# SMTP on loopback, against the private Dovecot and Postfix of
# tests/mailstack.sh; then idle polls. Beside it, in the same run, the floor:
# Python's imaplib fetching the same letters in one UID FETCH and smtplib
# sending as many messages over one connection. Then the same through a proxy
# that adds DELAY_MS each way (default 25), as a server across the internet
# would. Wall time and peak RSS from /usr/bin/time; then how soon `watch`
# answers a letter that arrives while it waits in IDLE. Prints figures; never
# fails on time.
#
#   bash benches/imap_poll.sh [games]        # default 100 games = 200 letters
#   DELAY_MS=0 bash benches/imap_poll.sh     # loopback only
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-100}
DELAY_MS=${DELAY_MS:-25}
ROOT=${MAILSTACK_ROOT:-/tmp/shtempel-mailstack}
bash tests/mailstack.sh start >/dev/null
cargo build --release -q
BIN=${CLERK:-$PWD/target/release/shtempel}
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
export BENCH_PASSWORD=secret

# A proxy adding a delay each way: listen port, upstream port, delay (ms).
# A delay line, as a long wire is: each chunk goes on `delay` after it came,
# whatever came before it (a proxy that slept before each chunk would add
# the delay once per chunk in a row, and a server writing its pipelined
# replies apart would pay it several times a turn).
proxy() {
    python3 - "$@" <<'PY' &
import asyncio, sys
listen, upstream, delay = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]) / 1000
async def pipe(reader, writer):
    loop = asyncio.get_running_loop()
    line = asyncio.Queue()
    async def deliver():
        while (item := await line.get())[1]:
            due, data = item
            if (wait := due - loop.time()) > 0:
                await asyncio.sleep(wait)
            writer.write(data)
            await writer.drain()
        writer.close()
    delivering = asyncio.create_task(deliver())
    try:
        while data := await reader.read(65536):
            line.put_nowait((loop.time() + delay, data))
    finally:
        line.put_nowait((0, b""))
        await delivering
async def serve(client_r, client_w):
    server_r, server_w = await asyncio.open_connection("127.0.0.1", upstream)
    await asyncio.gather(pipe(client_r, server_w), pipe(server_r, client_w), return_exceptions=True)
async def main():
    server = await asyncio.start_server(serve, "127.0.0.1", listen)
    async with server:
        await server.serve_forever()
asyncio.run(main())
PY
}

# One round: fresh mailboxes, database and letters; the floor, then the clerk.
round() { # label imap_port smtp_port
    local label=$1 imap=$2 smtp=$3 dir=$WORK/$1
    mkdir -p "$dir"
    rm -f "$ROOT"/mail/*/Maildir/new/* "$ROOT"/mail/*/Maildir/cur/*
    python3 - "$dir" "$GAMES" "$imap" "$smtp" <<'PY'
import imaplib, sys, datetime
work, games, imap, smtp = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
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
[limits]
max_replies_per_day = 100000
[source]
kind = "imap"
host = "127.0.0.1"
port = {imap}
tls = "none"
username = "bot@test.local"
password_env = "BENCH_PASSWORD"
[transport]
kind = "smtp"
host = "127.0.0.1"
port = {smtp}
tls = "none"
''']
for g in range(games):
    cfg.append(f'[[players]]\nid = "w{g}"\nname = "White {g}"\nemail = "white+g{g}@test.local"\n')
    cfg.append(f'[[players]]\nid = "b{g}"\nname = "Black {g}"\nemail = "black+g{g}@test.local"\n')
    cfg.append(f'[[games]]\nid = "{g}"\nwhite = "w{g}"\nblack = "b{g}"\n')
open(f"{work}/shtempel.toml", "w").write("\n".join(cfg))
d = today.strftime("%d.%m.%Y")
# By IMAP APPEND, in this order: by SMTP, Postfix delivers side by side and
# a reply may land before the move it answers.
m = imaplib.IMAP4("127.0.0.1", 1143)
m.login("bot@test.local", "secret")
for g in range(games):
    for frm, body in [(f"white+g{g}@test.local", f"Game {g}\n1. e4\nTime: 2/0\nDates: {d}\n"),
                      (f"black+g{g}@test.local", f"Game {g}\n1... e5\nTime: 2/0\nDates: {d}, {d}, {d}\n")]:
        msg = f"From: {frm}\r\nTo: bot@test.local\r\nSubject: Game {g}\r\nMessage-ID: <b{g}-{frm}-{work[-6:]}>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body.replace("\n", "\r\n")
        m.append("INBOX", None, None, msg.encode())
m.logout()
PY
    for _ in $(seq 300); do
        [ "$(ls "$ROOT/mail/bot/Maildir/new" | wc -l)" -ge $((GAMES * 2)) ] && break
        sleep 0.1
    done
    # The floor: one UID FETCH of every letter, then as many messages as the
    # clerk sends (an ack and a forward a letter; its own count is printed
    # beside) over one SMTP connection.
    local floor
    floor=$(python3 - "$imap" "$smtp" "$((GAMES * 4))" <<'PY'
import imaplib, smtplib, sys, time
imap, smtp, count = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
start = time.monotonic()
m = imaplib.IMAP4("127.0.0.1", imap)
m.login("bot@test.local", "secret")
m.select("INBOX")
_, data = m.uid("SEARCH", None, "ALL")
uids = data[0].split()
m.uid("FETCH", b",".join(uids), "(UID INTERNALDATE BODY.PEEK[])")
m.logout()
s = smtplib.SMTP("127.0.0.1", smtp)
msg = b"From: bot@test.local\r\nTo: secretary@test.local\r\nSubject: floor\r\n\r\n" + b"x" * 1500 + b"\r\n"
for _ in range(count):
    s.sendmail("bot@test.local", ["secretary@test.local"], msg)
s.quit()
print(f"{time.monotonic() - start:.2f}")
PY
)
    /usr/bin/time -f "%e %M" -o "$dir/time" "$BIN" --config "$dir/shtempel.toml" poll >"$dir/out" 2>&1 || true
    local wall rss sent
    read -r wall rss <"$dir/time"
    sent=$(grep -c '^sent' "$dir/out" || true)
    printf '%-22s %d letters: clerk %6.2f s (%d messages, peak RSS %d MB); floor (imaplib + smtplib, %d messages) %5.2f s; ratio %.1fx\n' \
        "$label" $((GAMES * 2)) "$wall" "$sent" $((rss / 1024)) $((GAMES * 4)) "$floor" "$(echo "$wall / $floor" | bc -l)"
    local idle=()
    for _ in 1 2 3 4 5; do
        /usr/bin/time -f "%e" -o "$dir/time" "$BIN" --config "$dir/shtempel.toml" poll >/dev/null 2>&1 || true
        idle+=("$(cat "$dir/time")")
    done
    echo "$label idle polls: ${idle[*]} s"
}

# watch: the time from a letter's arrival while the clerk waits in IDLE to
# its forward in the partner's mailbox (Postfix's delivery included).
watch_latency() { # dir
    local dir=$1
    "$BIN" --config "$dir/shtempel.toml" watch --interval 5 >"$dir/watch.out" 2>&1 &
    local watcher=$!
    sleep 2
    python3 - "$ROOT/mail/black/Maildir/new" <<'PY'
import imaplib, os, sys, time, datetime
inbox = sys.argv[1]
d = datetime.datetime.now(datetime.timezone(datetime.timedelta(hours=3))).date().strftime("%d.%m.%Y")
took = []
for g in range(3):
    before = len(os.listdir(inbox))
    msg = (f"From: white+g{g}@test.local\r\nTo: bot@test.local\r\nSubject: Game {g}\r\n"
           f"Message-ID: <watch{g}-{time.time()}>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
           f"Game {g}\r\n2. Nf3\r\nTime: 2/0\r\nDates: {d}, {d}, {d}\r\n")
    m = imaplib.IMAP4("127.0.0.1", 1143)
    m.login("bot@test.local", "secret")
    start = time.monotonic()
    m.append("INBOX", None, None, msg.encode())
    m.logout()
    while len(os.listdir(inbox)) <= before and time.monotonic() - start < 30:
        time.sleep(0.01)
    took.append(time.monotonic() - start)
    time.sleep(1)
print("watch (IDLE), loopback: a letter's forward in the partner's mailbox after " + " ".join(f"{t:.2f}" for t in took) + " s")
PY
    kill -TERM "$watcher"
    wait "$watcher" || true
    # The floor: how soon the server itself tells an IDLE client of a letter.
    python3 - <<'PY'
import imaplib, threading, time
m = imaplib.IMAP4("127.0.0.1", 1143)
m.login("bot@test.local", "secret")
m.select("INBOX")
m.send(m._new_tag() + b" IDLE\r\n")
m.readline()
appended = []
def append():
    time.sleep(1)
    a = imaplib.IMAP4("127.0.0.1", 1143)
    a.login("bot@test.local", "secret")
    appended.append(time.monotonic())
    a.append("INBOX", None, None, b"From: floor@test.local\r\nSubject: floor\r\n\r\nx\r\n")
    a.logout()
threading.Thread(target=append).start()
while not (b"EXISTS" in m.readline() and appended):
    pass
print(f"floor: Dovecot tells an IDLE client of a new letter after {time.monotonic() - appended[0]:.2f} s")
PY
}

echo "clerk: $BIN"
round loopback 1143 2525
watch_latency "$WORK/loopback"
if [ "$DELAY_MS" != 0 ]; then
    proxy 11143 1143 "$DELAY_MS"
    proxy 12525 2525 "$DELAY_MS"
    sleep 1
    round "delay ${DELAY_MS} ms each way" 11143 12525
fi

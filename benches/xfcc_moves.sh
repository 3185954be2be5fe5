#!/usr/bin/env bash
# 50 chess programs moving at once beside a poll of 10,000 letters.
#
# A tournament of 550 games (make-tournament, 20 letters each): games
# 501-550 have only White's first letter, polled, so each waits for Black,
# who has an Xfcc login (`shtempel xfcc-login`); the 10,000 letters of
# games 1-500 wait in the Maildir. Each run takes a fresh copy of that
# state and either polls it alone, or polls it while `shtempel serve` takes
# 50 clients at once, each calling GetMyGames and then MakeAMove (1... Nc6).
# Prints, per run, the poll's letters per second, and beside it the
# clients' requests per second, their 99th percentile, and how long the
# server's pass took to apply all 50 moves after the poll (the moves wait
# in the spool while the poll holds the lock).
#
#   bash benches/xfcc_moves.sh [RUNS]      # default 3 of each, in turns
#
# Work folder: $BENCH_DIR (default /tmp/shtempel-xfcc-moves).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
WORK=${BENCH_DIR:-/tmp/shtempel-xfcc-moves}
cargo build --release --quiet --features loadgen --bins
BIN=$(realpath target/release/shtempel)
rm -rf "$WORK" && mkdir -p "$WORK/held"
target/release/make-tournament --games 550 --letters 20 --out "$WORK/load" >/dev/null
TODAY=$(cat "$WORK/load/today.txt")
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 - "$WORK/load/config.toml" "$PORT" <<'PY'
import sys
path, port = sys.argv[1], sys.argv[2]
text = open(path).read()
first = text.index("\n[[players]]")
xfcc = f'\n[xfcc]\nurl = "http://127.0.0.1:{port}/xfcc"\nlisten = "127.0.0.1:{port}"\n'
open(path, "w").write(text[:first] + xfcc + text[first:])
PY
CONFIG="$WORK/load/config.toml"
NEW="$WORK/load/inbox/new"
# Games 1-500: held back. Games 501-550: White's first letter only.
find "$NEW" -name '*.g00[0-4]*' -exec mv -t "$WORK/held" {} +
find "$NEW" -name '*.g00500p*' -exec mv -t "$WORK/held" {} +
find "$NEW" -name '*.load' ! -name '*p0000.load' -delete
"$BIN" --config "$CONFIG" --future poll --today "$TODAY" >/dev/null 2>&1 || true
for n in $(seq 501 550); do
    "$BIN" --config "$CONFIG" --future xfcc-login "b$n" --today "$TODAY" >/dev/null
done
python3 - "$WORK/load" > "$WORK/passwords.txt" <<'PY'
import email, email.policy, pathlib, sys
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.eml")):
    m = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    if m.get("X-Shtempel-Kind") != "xfcc-login":
        continue
    body = m.get_body(("plain",)).get_content()
    fields = dict(l.split(":", 1) for l in body.splitlines() if l.startswith(("User name:", "Password:")))
    print(fields["User name"].strip(), fields["Password"].strip())
PY
[ "$(wc -l < "$WORK/passwords.txt")" -eq 50 ] || { echo "expected 50 logins"; exit 1; }
mv "$WORK"/held/* "$NEW"/
LETTERS=$(ls "$NEW" | wc -l)
echo "$LETTERS letters waiting, 50 games at Black's move, today $TODAY"

# 50 clients at once: each GetMyGames, then MakeAMove; prints JSON.
cat > "$WORK/clients.py" <<'PY'
import json, sys, threading, time, urllib.request
port, passwords = sys.argv[1], sys.argv[2]
NS = "http://www.bennedik.com/webservices/XfccBasic"
url = f"http://127.0.0.1:{port}/xfcc"
def call(body):
    envelope = ('<?xml version="1.0" encoding="utf-8"?><soap:Envelope '
                'xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>'
                f'{body}</soap:Body></soap:Envelope>').encode()
    request = urllib.request.Request(url, envelope, {"Content-Type": "text/xml; charset=utf-8"})
    start = time.monotonic()
    try:
        answer = urllib.request.urlopen(request, timeout=60).read().decode()
    except urllib.error.HTTPError as error:
        answer = error.read().decode()
    return time.monotonic() - start, answer
times, results, lock = [], [], threading.Lock()
def client(user, password):
    try:
        moved(user, password)
    except Exception as error:
        with lock:
            results.append(type(error).__name__)
def moved(user, password):
    login = f"<username>{user}</username><password>{password}</password>"
    took, games = call(f'<GetMyGames xmlns="{NS}">{login}</GetMyGames>')
    game = games.split("<id>", 1)[1].split("</id>", 1)[0]
    took2, moved = call(f'<MakeAMove xmlns="{NS}">{login}<gameId>{game}</gameId><resign>false</resign>'
                        '<acceptDraw>false</acceptDraw><movecount>1</movecount><myMove>Nc6</myMove>'
                        '<offerDraw>false</offerDraw><claimDraw>false</claimDraw><myMessage/></MakeAMove>')
    result = moved.split("<MakeAMoveResult>", 1)[-1].split("<", 1)[0]
    with lock:
        times.extend([took, took2]); results.append(result)
logins = [line.split() for line in open(passwords)]
start = time.monotonic()
threads = [threading.Thread(target=client, args=login) for login in logins]
for t in threads: t.start()
for t in threads: t.join()
wall = time.monotonic() - start
times.sort() if times else times.append(float("nan"))
print(json.dumps({"requests": len(times), "wall": wall, "per_second": len(times) / wall,
                  "p99_ms": times[min(len(times) - 1, int(len(times) * 0.99))] * 1000,
                  "success": results.count("Success"), "results": sorted(set(results))}))
PY

cp -a "$WORK/load" "$WORK/state"
one_run() { # $1: alone | beside
    rm -rf "$WORK/run" && cp -a "$WORK/state" "$WORK/run"
    local config="$WORK/run/config.toml" server= start end
    if [ "$1" = beside ]; then
        "$BIN" --config "$config" --future serve --today "$TODAY" > "$WORK/serve.out" 2>&1 &
        server=$!
        for _ in $(seq 100); do grep -q listening "$WORK/serve.out" && break; sleep 0.1; done
    fi
    start=$(date +%s.%N)
    "$BIN" --config "$config" --future poll --today "$TODAY" > "$WORK/poll.out" 2>&1 &
    local poll=$!
    if [ "$1" = beside ]; then
        python3 "$WORK/clients.py" "$PORT" "$WORK/passwords.txt" > "$WORK/clients.json" 2> "$WORK/clients.err"
    fi
    wait $poll || true
    end=$(date +%s.%N)
    local read
    read=$(grep -o '[0-9]* letter(s) read' "$WORK/poll.out" | cut -d' ' -f1)
    python3 -c "import sys; r,s,e=sys.argv[1:4]; print(f'  poll {sys.argv[4]:6}: {r} letters in {float(e)-float(s):.2f} s, {int(r)/(float(e)-float(s)):,.0f} letters/s')" \
        "$read" "$start" "$end" "$1"
    if [ "$1" = beside ]; then
        local spool="$WORK/run/shtempel.sqlite.xfcc-moves"
        for _ in $(seq 1200); do
            [ -z "$(ls -A "$spool/new" 2>/dev/null)" ] && break
            sleep 0.05
        done
        local applied
        applied=$(date +%s.%N)
        kill -TERM "$server"; wait "$server" || true
        python3 - "$WORK/clients.json" "$end" "$applied" "$(ls "$spool/cur" | wc -l)" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
print(f"  clients: {c['requests']} requests in {c['wall']:.2f} s, {c['per_second']:.0f}/s, "
      f"99th {c['p99_ms']:.0f} ms, {c['success']} moves Success ({', '.join(c['results'])}); "
      f"all {sys.argv[4]} applied {float(sys.argv[3]) - float(sys.argv[2]):.1f} s after the poll")
PY
    fi
}
for run in $(seq "$RUNS"); do
    echo "run $run"
    one_run alone
    one_run beside
done

#!/usr/bin/env bash
# The Xfcc server's GetMyGames for a player of 100 games: a round robin of
# 101 players (5,050 games, two letters each, polled), one player's login
# issued by `shtempel xfcc-login`, `shtempel serve` started, and REQUESTS
# calls timed one after another with curl. Prints the mean, the median and
# the 99th percentile in milliseconds, and the answer's size.
#
#   bash benches/xfcc.sh [REQUESTS]      # default 200
#
# Work folder: $BENCH_DIR (default /tmp/shtempel-xfcc).
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${1:-200}
WORK=${BENCH_DIR:-/tmp/shtempel-xfcc}
cargo build --release --quiet --features loadgen --bins
BIN=$(realpath target/release/shtempel)
rm -rf "$WORK" && mkdir -p "$WORK"
target/release/make-tournament --games 5050 --letters 2 --players 101 --out "$WORK/load" >/dev/null
TODAY=$(cat "$WORK/load/today.txt")
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
printf '\n[xfcc]\nurl = "http://127.0.0.1:%s/xfcc"\nlisten = "127.0.0.1:%s"\n' "$PORT" "$PORT" \
    >> "$WORK/load/config.toml"
# [xfcc] is a table before the players: move it up by rewriting the file.
python3 - "$WORK/load/config.toml" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
head, xfcc = text.rsplit("\n[xfcc]", 1)
first = head.index("\n[[players]]")
open(path, "w").write(head[:first] + "\n[xfcc]" + xfcc + head[first:])
PY
CONFIG="$WORK/load/config.toml"
"$BIN" --config "$CONFIG" --future poll --today "$TODAY" >/dev/null 2>&1 || true
"$BIN" --config "$CONFIG" --future xfcc-login p1 --today "$TODAY" >/dev/null
LETTER=$(ls -t "$WORK"/load/outbox/*p1@* 2>/dev/null | head -1 || true)
[ -n "$LETTER" ] || LETTER=$(grep -l "X-Shtempel-Kind: xfcc-login" -r "$WORK/load" | head -1)
PASSWORD=$(python3 - "$LETTER" <<'PY'
import email, email.policy, sys
m = email.message_from_bytes(open(sys.argv[1], "rb").read(), policy=email.policy.default)
for line in m.get_body(("plain",)).get_content().splitlines():
    if line.startswith("Password:"):
        print(line.split()[1])
PY
)
"$BIN" --config "$CONFIG" serve --today "$TODAY" > "$WORK/serve.out" 2>&1 &
SERVER=$!
trap 'kill -TERM $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 50); do grep -q listening "$WORK/serve.out" && break; sleep 0.1; done
NS=http://www.bennedik.com/webservices/XfccBasic
BODY="<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body><GetMyGames xmlns=\"$NS\"><username>p1</username><password>$PASSWORD</password></GetMyGames></soap:Body></soap:Envelope>"
curl -s --data-binary "$BODY" "http://127.0.0.1:$PORT/xfcc" > "$WORK/answer.xml"
GAMES=$(grep -o "<XfccGame>" "$WORK/answer.xml" | wc -l)
for _ in $(seq "$REQUESTS"); do
    curl -s -o /dev/null -w '%{time_total}\n' --data-binary "$BODY" "http://127.0.0.1:$PORT/xfcc"
done > "$WORK/times.txt"
python3 - "$WORK/times.txt" "$GAMES" "$(wc -c < "$WORK/answer.xml")" <<'PY'
import statistics, sys
times = sorted(float(t) * 1000 for t in open(sys.argv[1]))
p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
print(f"GetMyGames of {sys.argv[2]} games ({int(sys.argv[3]) // 1024} KB), {len(times)} calls: "
      f"mean {statistics.mean(times):.1f} ms, median {statistics.median(times):.1f} ms, 99th {p99:.1f} ms")
PY

#!/usr/bin/env bash
# What large letters cost: one `poll` over N letters of S bytes, from strangers
# or from a player, on the embedded default. Prints the database's growth
# (from the tournament's database before them) against the bytes that arrived, and the run's peak RSS (/usr/bin/time -v).
# Never fails on a figure.
#
#   bash benches/big_letters.sh                 # the issue's loads (below)
#   CLERK=/path/to/shtempel bash benches/big_letters.sh
#
# Loads: 100 letters of 1 MB from strangers; 40 of 1 MB from a player; 60 of
# 900 KB from a player (the peak-memory load). A letter is text a player could
# paste, mostly move lines, with a fraction, dates and prose, repeated to the size.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bins
CLERK=${CLERK:-$PWD/target/release/shtempel}
WORK=${BENCH_DIR:-/tmp/shtempel-big}

load() { # name count bytes from
    local dir="$WORK/$1"
    rm -rf "$dir"
    mkdir -p "$dir"/inbox/{new,cur,tmp}
    cat >"$dir/shtempel.toml" <<EOF
[tournament]
id = "T"
name = "Big letters"
start_date = 2026-11-01
end_date = 2028-11-01
timezone = "Europe/Moscow"
language = "en"

[bot]
address = "clerk@test.example"
database = "db.sqlite"
templates = "templates"

[arbiters]
chief_arbiter = "arbiter@test.example"
chief_secretary = "secretary@test.example"

[limits]
max_letter_bytes = 2000000

[source]
kind = "maildir"
path = "inbox"

[transport]
kind = "file"
path = "outbox"

[[players]]
id = "white"
name = "White Player"
email = "white@test.example"

[[players]]
id = "black"
name = "Black Player"
email = "black@test.example"

[[games]]
id = "1"
white = "white"
black = "black"
EOF
    python3 - "$dir" "$2" "$3" "$4" <<'EOF'
import sys
dir, count, size, sender = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
# Mostly move lines: the densest text for the reader (every word a move).
chunk = ("Game 1\nTime: 2/0\nDates: 03.11.2026\n"
         + "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5\n" * 8
         + "I think the Spanish is the best answer here, and I will write again soon.\n")
for n in range(count):
    frm = f"stranger{n}@elsewhere.example" if sender == "stranger" else "white@test.example"
    head = (f"Received: from mx by mail; Tue, 03 Nov 2026 12:00:00 +0300\r\n"
            f"From: {frm}\r\nTo: clerk@test.example\r\nSubject: Game 1\r\n"
            f"Message-ID: <big-{n}@elsewhere.example>\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\n")
    body = (chunk * (size // len(chunk) + 1))[: size - len(head)]
    open(f"{dir}/inbox/new/{n:04d}.eml", "wb").write((head + body).encode())
EOF
    local arrived empty
    arrived=$(du -sb "$dir/inbox/new" | cut -f1)
    # The database of the tournament before the letters: its growth is theirs.
    mkdir -p "$dir/waiting"
    mv "$dir"/inbox/new/* "$dir/waiting/"
    "$CLERK" --config "$dir/shtempel.toml" poll --today 2026-11-03 >/dev/null
    empty=$(du -cb "$dir"/db.sqlite* | tail -1 | cut -f1)
    mv "$dir"/waiting/* "$dir/inbox/new/"
    /usr/bin/time -f "%M" -o "$dir/rss.txt" "$CLERK" --config "$dir/shtempel.toml" poll --today 2026-11-03 >/dev/null 2>&1 || true
    local db
    db=$(du -cb "$dir"/db.sqlite* | tail -1 | cut -f1)
    awk -v name="$1" -v n="$2" -v a="$arrived" -v d="$((db - empty))" -v rss="$(cat "$dir/rss.txt")" 'BEGIN {
        printf "%-16s %4d letters, %6.1f MB arrived: database grew %7.1f MB (%.2fx, %.1f KB a letter), peak RSS %4.0f MB\n",
            name, n, a / 1e6, d / 1e6, d / a, d / n / 1024, rss / 1024 }'
}

echo "clerk: $CLERK ($(git describe --always --dirty 2>/dev/null || echo unknown))"
load strangers-1MB 100 1000000 stranger
load player-1MB 40 1000000 player
load player-900KB 60 900000 player

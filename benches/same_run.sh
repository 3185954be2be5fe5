#!/usr/bin/env bash
# Whether two builds of the clerk do the same work: each polls its own copy of
# one load, and their messages (the `Date:` header and MIME boundaries aside),
# database tables and `poll --json` events are compared; so are the messages
# of `shtempel demo` (every kind of message: corrections, penalties, an
# overstep and its file, a protest, a decision). For a change meant to keep
# behaviour (a refactor, a speed-up). Prints the differences; exits 1 when
# there are any.
#
#   bash benches/same_run.sh OLD_SHTEMPEL [NEW_SHTEMPEL]
#   GAMES=100 LETTERS=10 bash benches/same_run.sh ...   # the load's size
#
# The load is benches/make_tournament.rs's (default 500 games x 20 letters,
# 10,000 letters); NEW defaults to this tree's release build. Work folder:
# $BENCH_DIR (default /tmp/shtempel-same).
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=$(realpath "$1")
cargo build --release --quiet --features loadgen --bins
NEW=$(realpath "${2:-target/release/shtempel}")
GAMES=${GAMES:-500}
LETTERS=${LETTERS:-20}
WORK=${BENCH_DIR:-/tmp/shtempel-same}
LOAD=$WORK/load-$GAMES-$LETTERS
mkdir -p "$WORK"
if [ ! -f "$LOAD/config.toml" ]; then
    rm -rf "$LOAD"
    target/release/make-tournament --games "$GAMES" --letters "$LETTERS" --out "$LOAD" >/dev/null
fi
TODAY=$(cat "$LOAD/today.txt")

# One side: a copy of the load, one poll (as of the load's last day, which may be
# after this machine's: --future), and what it left in comparable form.
run() { # name binary
    local dir=$WORK/$1
    rm -rf "$dir" && cp -r "$LOAD" "$dir"
    "$2" --future poll --config "$dir/config.toml" --today "$TODAY" --json >"$dir/events.json" 2>"$dir/stderr.txt" ||
        { echo "$1: poll failed"; tail -5 "$dir/stderr.txt"; exit 1; }
    mkdir -p "$dir/compare/outbox"
    for eml in "$dir"/outbox/*.eml; do
        sed -E '/^Date: /d; s/boundary="?[^";]+"?/boundary=B/; s/^--[A-Za-z0-9]{20,}(--)?\r?$/--B\1/' \
            "$eml" >"$dir/compare/outbox/$(basename "$eml")"
    done
    cp "$dir/events.json" "$dir/compare/events.json"
    local db
    db=$(find "$dir" -maxdepth 1 -name '*.sqlite' | head -1)
    for query in \
        "games:SELECT * FROM games ORDER BY id" \
        "moves:SELECT * FROM moves ORDER BY game_id, ply" \
        "notes:SELECT game_id, ply, kind, text, created_on FROM notes ORDER BY id" \
        "duties:SELECT * FROM duties_done ORDER BY game_id, key" \
        "letters:SELECT dedup_key, source_key, postmark, sender, game_id, color, disposition, reason FROM letters ORDER BY id" \
        "outbox:SELECT game_id, kind, recipients, message_id, delivers_game, delivers_ply, created_on, attempts, failed FROM outbox ORDER BY id"; do
        sqlite3 "$db" "${query#*:}" >"$dir/compare/${query%%:*}.txt"
    done
}

# The demo's messages, as a folder of normalised files.
demo() { # name binary
    local dir=$WORK/demo-$1
    rm -rf "$dir"
    "$2" demo --keep "$dir" >/dev/null
    mkdir -p "$WORK/$1/compare/demo"
    for eml in "$dir"/mail/outbox/*.eml; do
        sed -E '/^Date: /d; s/boundary="?[^";]+"?/boundary=B/; s/^--[A-Za-z0-9]{20,}(--)?\r?$/--B\1/' \
            "$eml" >"$WORK/$1/compare/demo/$(basename "$eml")"
    done
}

run old "$OLD"
run new "$NEW"
demo old "$OLD"
demo new "$NEW"
echo "load: $GAMES games x $LETTERS letters; messages: $(ls "$WORK/old/outbox" | wc -l) old, $(ls "$WORK/new/outbox" | wc -l) new"
if diff -r "$WORK/old/compare" "$WORK/new/compare" >"$WORK/diff.txt"; then
    echo "the same messages, tables and events"
else
    echo "differences ($(wc -l <"$WORK/diff.txt") lines, in $WORK/diff.txt):"
    head -40 "$WORK/diff.txt"
    exit 1
fi

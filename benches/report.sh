#!/usr/bin/env bash
# What the report costs, release build; prints figures,
# never fails on time.
#
#   bash benches/report.sh [RUNS]        # RUNS per idle figure, default 10; medians
#   CLERK=/path/to/shtempel bash benches/report.sh   # another build (before/after)
#   LOADS=rr bash benches/report.sh                 # one of the two loads
#
# Two tournaments of about 3,000 games, 5 letters each, polled once without
# game 1's last letter:
#   rr:    a round robin of 78 players (3,003 games);
#   pairs: 3,000 games of two players each (6,000 players: the cross-table's
#          worst case, a square of 36 million cells before).
# For each: `report` over all games (wall time, index.html size), then with
# `[report] out` set, an idle poll (median of RUNS) and the poll of game 1's
# last letter (that game's pages and the index rewritten).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-10}
WORK=${BENCH_DIR:-/tmp/shtempel-report-bench}
cargo build --release --quiet --features loadgen --bins
BIN=$PWD/target/release
CLERK=${CLERK:-$BIN/shtempel}
LIMIT=${LIMIT:-600} # seconds a full report may take before it is given up

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

seconds() { # command...: its wall time in seconds
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

echo "clerk: $CLERK"
for load in ${LOADS:-rr pairs}; do
    dir=$WORK/$load
    if [ ! -f "$dir/stored" ]; then
        rm -rf "$dir"
        case $load in
            rr) "$BIN/make-tournament" --games 3003 --letters 5 --players 78 --out "$dir" >/dev/null ;;
            pairs) "$BIN/make-tournament" --games 3000 --letters 5 --out "$dir" >/dev/null ;;
        esac
        mv "$dir"/inbox/new/*g00001p0004* "$dir/last-letter"
        "$BIN/shtempel" --future --config "$dir/config.toml" poll --today "$(cat "$dir/today.txt")" >/dev/null
        cp "$dir/shtempel.sqlite" "$dir/stored.sqlite"
        touch "$dir/stored"
    fi
    today=$(cat "$dir/today.txt")
    # A folder of its own each time: files made where many were just
    # removed pay seconds of system time on this VM (benches/README.md).
    rm -rf "$dir"/site*
    # The database as the first poll left it: each build measured from there.
    rm -f "$dir"/shtempel.sqlite-*
    cp "$dir/stored.sqlite" "$dir/shtempel.sqlite"
    /usr/bin/time -f "%e %U" -o "$WORK/time.txt" timeout "$LIMIT" "$CLERK" --config "$dir/config.toml" \
        report --out "$dir/site-full" --today "$today" >/dev/null 2>&1 || true
    read -r full user < <(tail -1 "$WORK/time.txt")
    index=$(stat -c %s "$dir/site-full/index.html" 2>/dev/null || echo 0)
    # The same with [report] out: a first poll writes it all, then idle polls.
    cp "$dir/config.toml" "$dir/with-report.toml"
    printf '\n[report]\nout = "site"\n' >>"$dir/with-report.toml"
    timeout "$LIMIT" "$CLERK" --future --config "$dir/with-report.toml" poll --today "$today" >/dev/null 2>&1 || true
    idle=$(for _ in $(seq "$RUNS"); do
        seconds timeout "$LIMIT" "$CLERK" --future --config "$dir/with-report.toml" poll --today "$today"
    done | median)
    # Game 1's last letter, a copy of it each time (the database keeps it).
    cp "$dir/last-letter" "$dir/inbox/new/last.load"
    one=$(seconds timeout "$LIMIT" "$CLERK" --future --config "$dir/with-report.toml" poll --today "$today")
    printf '%-6s report %7.2f s (%6.2f s user; index.html %4.1f MB) | idle poll with [report] out %6.3f s | poll of 1 letter %6.2f s\n' \
        "$load" "$full" "$user" "$(echo "$index / 1000000" | bc -l)" "$idle" "$one"
done

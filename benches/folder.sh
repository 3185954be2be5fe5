#!/usr/bin/env bash
# A federation's load: 100 tournaments of 50 games (10,000 player entries),
# 10,000 letters in one Maildir, in RAM (/dev/shm). Per round and build, a
# fresh copy (`cp -a`): the first poll of the 10,000 letters (wall time,
# peak RSS), then IDLE idle polls (process start to exit). Prints figures;
# never fails on time.
#
#   bash benches/folder.sh [ROUNDS] [IDLE]          # default 3 rounds, 5 idle polls
#   BESIDE=/path/to/other/shtempel bash benches/folder.sh   # two builds, in turns
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
IDLE=${2:-5}
WORK=${BENCH_SHM:-/dev/shm/shtempel-folder}
mkdir -p "$WORK"

cargo build --release --quiet --features loadgen --bins
BIN=$PWD/target/release
CLERKS=("$BIN/shtempel")
[ -n "${BESIDE:-}" ] && CLERKS+=("$BESIDE")

LOAD=$WORK/load
if [ ! -f "$LOAD/config.toml" ]; then
    rm -rf "$LOAD.tmp"
    "$BIN/make-tournament" --games 5000 --letters 2 --tournaments 100 --out "$LOAD.tmp" >/dev/null
    mv "$LOAD.tmp" "$LOAD"
fi

millis() {
    local start=$EPOCHREALTIME
    "$@" >/dev/null 2>&1
    awk -v s="$start" -v e="$EPOCHREALTIME" 'BEGIN {printf "%.1f\n", (e - s) * 1000}'
}

echo "machine: $(nproc) cores; load: 100 events x 50 games, 10,000 letters, in $WORK"
for round in $(seq "$ROUNDS"); do
    for clerk in "${CLERKS[@]}"; do
        copy=$WORK/run
        rm -rf "$copy"
        cp -a "$LOAD" "$copy"
        /usr/bin/time -f "%e %M" -o "$WORK/time.txt" \
            "$clerk" --config "$copy/config.toml" poll --today 2026-11-08 >/dev/null 2>&1 ||
            { echo "failed: $clerk"; exit 1; }
        read -r wall rss <"$WORK/time.txt"
        idle=()
        for _ in $(seq "$IDLE"); do
            idle+=("$(millis "$clerk" --config "$copy/config.toml" poll --today 2026-11-08)")
        done
        printf 'round %s  %s\n  first poll: %s s, %s MB; idle polls (ms): %s\n' \
            "$round" "$clerk" "$wall" "$((rss / 1024))" "${idle[*]}"
    done
done
rm -rf "$WORK/run"

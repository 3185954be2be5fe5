#!/usr/bin/env bash
# Whole-run benchmarks of `shtempel poll` on the embedded default (Maildir in,
# SQLite, file outbox), release build. Prints figures; never fails on time.
#
#   bash benches/poll.sh [RUNS]          # RUNS per figure, default 5; medians
#   PARTS="idle" bash benches/poll.sh    # some of: throughput floor status digest idle
#
# 1. throughput: one poll over 10,000 new letters (500 games x 20), from a fresh
#    copy each run: wall time, letters/s, peak RSS (/usr/bin/time -v), and its
#    ratio to the floor (2.) taken over the same copy just before it;
# 2. the floor: mail-parser alone over the same 10,000 files, and the ratio;
# 3. status: the same load with 1,000 of its letters STATUS (500 games x 18,
#    and one STATUS from each player on the last day): wall time, letters/s;
# 4. digest: the same load with 1,000 players asking for a daily digest on
#    the first day (`--digest 1000`): their forwards and receipts kept, and
#    1,000 digests made and sent at the end of the run; wall time, letters/s;
# 5. idle: a poll with nothing new over 1,000 and over 100,000 stored letters
#    (500 games x 2 and x 200; the same config, only the history grows), wall
#    time from process start to exit, and the ratio between the two.
#
# Work folder: $BENCH_DIR (default /tmp/shtempel-bench); the stored databases
# are built once and reused. CLERK=path measures another build of the clerk
# (an older commit, for a before/after table); BESIDE=path measures a second
# build in the same sitting, the two taking turns run by run (the fairest
# before/after on this VM, whose speed drifts within minutes); STORER=path
# stores the 100,000 letters with another build than the one measured (the
# first builds needed hours for it).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
WORK=${BENCH_DIR:-/tmp/shtempel-bench}
mkdir -p "$WORK"

cargo build --release --quiet --features loadgen --bins
BIN=$PWD/target/release
CLERK=${CLERK:-$BIN/shtempel}
STORER=${STORER:-$CLERK}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# Figures of one timed command: "<wall s> <peak RSS KB>".
timed() {
    /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$@" >"$WORK/out.txt" 2>&1 ||
        { echo "failed: $*"; tail -5 "$WORK/out.txt"; exit 1; }
    cat "$WORK/time.txt"
}

# Milliseconds of one run, process start to exit (bash's clock: no fork).
millis() {
    local start=$EPOCHREALTIME
    "$@" >/dev/null 2>&1
    awk -v s="$start" -v e="$EPOCHREALTIME" 'BEGIN {printf "%.1f\n", (e - s) * 1000}'
}

make() { # games letters dir
    [ -f "$3/config.toml" ] && return
    rm -rf "$3.tmp"
    "$BIN/make-tournament" --games "$1" --letters "$2" --out "$3.tmp" >/dev/null
    mv "$3.tmp" "$3"
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {print int($2/1024)" MB"}' /proc/meminfo), $(uname -sr)"
# The tree's commit names only the tree's own build; another's is its path.
if [ "$CLERK" = "$BIN/shtempel" ]; then
    echo "clerk:   $CLERK (this tree: $(git describe --always --dirty 2>/dev/null || echo unknown)), release"
else
    echo "clerk:   $CLERK (another build; this tree's commit does not name it)"
fi

PARTS=${PARTS:-throughput floor status idle}
part() { [[ " $PARTS " == *" $1 "* ]]; }

make 500 20 "$WORK/t10k"
TODAY=$(cat "$WORK/t10k/today.txt")
RATE=0

if part throughput; then
echo
echo "== poll over 10,000 new letters (500 games x 20), $RUNS runs =="
# Each run in a copy of its own, all removed at the end. This VM's ext4 has
# no journal, and without one ext4 does not give out an inode freed in the
# last minute (six minutes where its inode table block is dirty, as making
# files next to it makes it): it scans past each, and a run that makes its
# files where many were just removed pays seconds of system time for it
# (perf: recently_deleted, find_inode_bit). So a sitting starts six minutes
# after the last removal of copies; removing anything else this large on the
# same filesystem does the same to the figures.
REMOVED_AT="$WORK/removed-at"
remove_copies() {
    rm -rf "$WORK"/run.*
    sync
    date +%s >"$REMOVED_AT"
}
if compgen -G "$WORK/run.*" >/dev/null; then
    echo "(removing the copies an interrupted script left)"
    remove_copies
fi
if [ -f "$REMOVED_AT" ]; then
    wait_s=$(($(cat "$REMOVED_AT") + 370 - $(date +%s)))
    if [ "$wait_s" -gt 0 ]; then
        echo "(copies were removed $((370 - wait_s)) s ago: waiting $wait_s s until ext4 gives their inodes out again)"
        sleep "$wait_s"
    fi
fi
CLERKS=("$CLERK")
[ -n "${BESIDE:-}" ] && CLERKS+=("$BESIDE")
LABELS=("measured" "beside")
# " (measured)" or " (beside)" after a figure when two builds are measured.
label_of() { if [ ${#CLERKS[@]} -gt 1 ]; then echo " (${LABELS[$1]}${2:-})"; fi; }
for c in "${!CLERKS[@]}"; do
    : >"$WORK/walls.$c"
    : >"$WORK/rss.$c"
    : >"$WORK/ratios.$c"
    for run in $(seq "$RUNS"); do
        cp -a "$WORK/t10k" "$WORK/run.$run.$c"
    done
done
sync
# Run $3 of build number $1 on copy $2: the floor over its own letters just
# before it (the VM's speed drifts within minutes), then the timed poll.
measure() {
    local c=$1 dir=$2 run=$3 floor wall rss read_count ratio
    # The letters in the page cache, as a copy just made and as mail just
    # delivered are (a copy made minutes ago may have left it on this VM).
    cat "$dir"/inbox/new/* >/dev/null
    floor=$("$BIN/parse-floor" "$dir/inbox/new" | awk '{print $(NF-5)}')
    read -r wall rss < <(cd "$dir" && timed "${CLERKS[$c]}" --future --config config.toml poll --today "$TODAY")
    read_count=$(grep -o '^poll .*: [0-9]* letter' "$WORK/out.txt" | grep -o '[0-9]* letter' | cut -d' ' -f1)
    [ "$read_count" = 10000 ] || { echo "$dir read $read_count letters, not 10000"; exit 1; }
    # The load is the normal path: every letter a correct move, acknowledged.
    if grep -qE '^(refused|correction|overstep|letter-failed)' "$WORK/out.txt"; then
        echo "$dir: the load was not all correct letters:"
        grep -E '^(refused|correction|overstep|letter-failed)' "$WORK/out.txt" | head -3
        exit 1
    fi
    ratio=$(awk -v f="$floor" -v w="$wall" 'BEGIN {printf "%.1f", f * w / 10000}')
    echo "run $run$(label_of "$c"): $wall s, peak RSS $rss KB; floor beside it $floor letters/s: ${ratio}x"
    echo "$wall" >>"$WORK/walls.$c"
    echo "$ratio" >>"$WORK/ratios.$c"
    echo "$rss" >>"$WORK/rss.$c"
}
for run in $(seq "$RUNS"); do
    # With BESIDE, the two builds take turns going first.
    order=("${!CLERKS[@]}")
    [ $((run % 2)) = 0 ] && [ ${#CLERKS[@]} -gt 1 ] && order=(1 0)
    for c in "${order[@]}"; do
        measure "$c" "$WORK/run.$run.$c" "$run"
    done
done
remove_copies
for c in "${!CLERKS[@]}"; do
    WALL=$(median <"$WORK/walls.$c")
    RSS=$(median <"$WORK/rss.$c")
    rate=$(awk -v w="$WALL" 'BEGIN {printf "%.0f", 10000 / w}')
    [ "$c" = 0 ] && RATE=$rate
    echo "median$(label_of "$c" ": ${CLERKS[$c]}"): $WALL s = $rate letters/s, peak RSS $((RSS / 1024)) MB; ratio to the floor beside each run: median $(median <"$WORK/ratios.$c")x"
done
fi

if part floor; then
echo
echo "== the floor: mail-parser alone over the same files, $RUNS runs =="
: >"$WORK/floor"
for run in $(seq "$RUNS"); do
    "$BIN/parse-floor" "$WORK/t10k/inbox/new" | tee -a "$WORK/floor.log" | awk '{print $(NF-5)}' >>"$WORK/floor"
done
FLOOR=$(median <"$WORK/floor")
echo "median: $FLOOR letters/s; poll is $(awk -v f="$FLOOR" -v r="$RATE" 'BEGIN {if (r > 0) printf "%.1f", f / r; else print "?"}')x the floor"
fi

idle() { # dir label
    local dir=$1 today
    today=$(cat "$dir/today.txt")
    if [ ! -f "$dir/shtempel.sqlite" ] || [ -n "$(ls -A "$dir/inbox/new")" ]; then
        echo "storing $2 letters (one poll, not timed here)..." >&2
        (cd "$dir" && timed "$STORER" --future --config config.toml poll --today "$today" >/dev/null) ||
            { echo "the storing poll failed" >&2; exit 1; }
        if grep -qE '^(refused|correction|overstep|letter-failed)' "$WORK/out.txt"; then
            echo "the stored load was not all correct letters" >&2
            exit 1
        fi
        # ext4 never shrinks a directory: new/ that held every letter at once
        # stays megabytes long and costs each later run a read of it. Letters
        # of a season arrive a few a day; give new/ the size it would have.
        rm -rf "$dir/inbox/new" && mkdir "$dir/inbox/new"
    fi
    (cd "$dir" && "$CLERK" --future --config config.toml poll --today "$today" >/dev/null 2>&1) # warm the page cache
    : >"$WORK/idle"
    for _ in $(seq "$RUNS"); do
        (cd "$dir" && millis "$CLERK" --future --config config.toml poll --today "$today") >>"$WORK/idle"
    done
    median <"$WORK/idle"
}

# One load of 9,000 moves and 1,000 letters of another kind, RUNS runs:
# counted NAME MAKE-FLAG TITLE GREP: the poll must read 10,000 letters and
# print GREP's lines 1,000 times (each asked letter's answer).
counted() {
    local name=$1 flag=$2 title=$3 pattern=$4
    echo
    echo "== poll over 10,000 new letters of which 1,000 $title (500 games x 18 + 1,000), $RUNS runs =="
    if [ ! -f "$WORK/t10k-$name/config.toml" ]; then
        rm -rf "$WORK/t10k-$name.tmp"
        "$BIN/make-tournament" --games 500 --letters 18 "$flag" 1000 --out "$WORK/t10k-$name.tmp" >/dev/null
        mv "$WORK/t10k-$name.tmp" "$WORK/t10k-$name"
    fi
    local today run dir wall rss answers read_count
    today=$(cat "$WORK/t10k-$name/today.txt")
    : >"$WORK/walls.$name"
    # Every run's copy made before the first (a copy removed just before a
    # run costs it the ext4 scan the throughput part describes).
    for run in $(seq "$RUNS"); do
        rm -rf "$WORK/$name-run.$run"
        cp -a "$WORK/t10k-$name" "$WORK/$name-run.$run"
    done
    sync
    for run in $(seq "$RUNS"); do
        dir="$WORK/$name-run.$run"
        cat "$dir"/inbox/new/* >/dev/null
        read -r wall rss < <(cd "$dir" && timed "$CLERK" --future --config config.toml poll --today "$today")
        answers=$(grep -c "$pattern" "$WORK/out.txt" || true)
        read_count=$(grep -o '^poll .*: [0-9]* letter' "$WORK/out.txt" | grep -o '[0-9]* letter' | cut -d' ' -f1)
        [ "$read_count" = 10000 ] && [ "$answers" = 1000 ] ||
            { echo "read $read_count letters, $answers answers ($pattern): not the load"; exit 1; }
        echo "run $run: $wall s, peak RSS $rss KB, $(du -sk "$dir/outbox" | cut -f1) KB sent"
        echo "$wall" >>"$WORK/walls.$name"
    done
    rm -rf "$WORK/$name"-run.*
    WALL=$(median <"$WORK/walls.$name")
    echo "median: $WALL s = $(awk -v w="$WALL" 'BEGIN {printf "%.0f", 10000 / w}') letters/s (target: at least 3,000)"
}

if part status; then counted status --status "are STATUS" '^status '; fi
if part digest; then counted digest --digest "ask for a digest" 'digest to '; fi

part idle || exit 0
echo
echo "== idle poll (nothing new), $RUNS runs each =="
make 500 2 "$WORK/s1k"
make 500 200 "$WORK/s100k"
IDLE1=$(idle "$WORK/s1k" 1,000)
echo "1,000 stored:   median $IDLE1 ms"
IDLE100=$(idle "$WORK/s100k" 100,000)
echo "100,000 stored: median $IDLE100 ms"
echo "ratio: $(awk -v a="$IDLE1" -v b="$IDLE100" 'BEGIN {printf "%.2f", b / a}')"

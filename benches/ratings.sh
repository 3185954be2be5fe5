#!/usr/bin/env bash
# What `shtempel ratings` costs a federation, release build; prints figures,
# never fails on time.
#
#   bash benches/ratings.sh [RUNS]       # RUNS per figure, default 5; medians
#   CLERK=/path/to/shtempel bash benches/ratings.sh   # another build
#
# A folder of 100 events of 20 players each, every one a round robin
# (19,000 games), 2,000 players in all, a third of them given a rating,
# and every game finished in the database (its result and end day written
# as the clerk writes them), the ends spread over 2027 to 2029: the list
# of twelve quarters, by FIDE's method and by Glicko-2, with the config
# read, the folder's people joined and the games read from SQLite.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
WORK=${BENCH_DIR:-/tmp/shtempel-ratings-bench}
cargo build --release --quiet --bins
CLERK=${CLERK:-$PWD/target/release/shtempel}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

if [ ! -f "$WORK/made" ]; then
    rm -rf "$WORK"
    mkdir -p "$WORK/tournaments" "$WORK/inbox"/{new,cur,tmp}
    python3 - "$WORK" <<'PY'
import sys, os
work = sys.argv[1]
clerk = f"""[bot]
address = "clerk@bench.example"
database = "db.sqlite"
tournaments = "tournaments"

[arbiters]
chief_arbiter = "arbiter@bench.example"
chief_secretary = "secretary@bench.example"

[source]
kind = "maildir"
path = "inbox"

[transport]
kind = "file"
path = "outbox"

[ratings]
method = "METHOD"
"""
open(os.path.join(work, "fide.toml"), "w").write(clerk.replace("METHOD", "fide"))
open(os.path.join(work, "glicko2.toml"), "w").write(clerk.replace("METHOD", "glicko2"))
for event in range(100):
    lines = [f'[tournament]\nid = "E{event:03}"\nname = "Event {event}"\n'
             f'start_date = 2027-01-01\nend_date = 2030-12-31\ntimezone = "UTC"\n'
             f'language = "en"\npairing = "round_robin"\n']
    for seat in range(20):
        n = event * 20 + seat
        rating = f"rating = {1600 + (n * 37) % 900}\n" if n % 3 == 0 else ""
        lines.append(f'\n[[players]]\nid = "p{n}"\nname = "Player {n}"\n'
                     f'email = "p{n}@bench.example"\n{rating}')
    open(os.path.join(work, "tournaments", f"e{event:03}.toml"), "w").write("".join(lines))
PY
    "$CLERK" --config "$WORK/fide.toml" --tournament E000 init >/dev/null
    python3 - "$WORK" <<'PY'
import sys, sqlite3, datetime
work = sys.argv[1]
db = sqlite3.connect(f"{work}/db.sqlite")
first = datetime.date(2027, 1, 1)
seed = 63
def rand():
    global seed
    seed = (seed * 6364136223846793005 + 1442695040888963407) % 2**64
    return seed >> 33
rows = []
for event in range(100):
    for game in range(1, 191):
        result = ["1-0", "0-1", "1/2-1/2"][rand() % 3]
        ended = first + datetime.timedelta(days=rand() % 1090)
        rows.append((f"E{event:03}/{game}", result, ended.isoformat()))
db.executemany("INSERT INTO games (id, status, result, result_reason, ended_on) "
               "VALUES (?, 'finished', ?, 'resignation', ?)", rows)
db.commit()
PY
    touch "$WORK/made"
fi

echo "clerk: $CLERK"
echo "load: 100 events x 20 players (2,000), 19,000 finished games, 12 quarters"
for method in fide glicko2; do
    for _ in $(seq "$RUNS"); do
        /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$CLERK" --config "$WORK/$method.toml" \
            ratings --today 2030-01-01 >"$WORK/list-$method.txt"
        tail -1 "$WORK/time.txt"
    done >"$WORK/runs-$method.txt"
    wall=$(awk '{print $1}' "$WORK/runs-$method.txt" | median)
    rss=$(awk '{print $2}' "$WORK/runs-$method.txt" | median)
    echo "ratings ($method): ${wall} s (median of $RUNS), peak RSS ${rss} KB; $(head -1 "$WORK/list-$method.txt")"
done

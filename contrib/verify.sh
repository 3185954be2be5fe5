#!/usr/bin/env bash
# Checks the systemd units of contrib/ with `systemd-analyze verify`, where
# the machine has it: each unit copied into a folder of its own with the
# binary's path (and the environment file) made ones that exist here.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v systemd-analyze >/dev/null 2>&1; then
    echo "contrib/verify.sh: no systemd-analyze here: skipped"
    exit 0
fi
BIN=$(realpath "${1:-target/release/shtempel}")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
touch "$WORK/shtempel.env"
for unit in contrib/*.service contrib/*.timer; do
    sed -e "s|/usr/local/bin/shtempel|$BIN|" -e "s|/srv/chess/shtempel.env|$WORK/shtempel.env|" \
        -e "s|^User=chess|User=root|" -e "s|^WorkingDirectory=/srv/chess|WorkingDirectory=$WORK|" \
        "$unit" >"$WORK/$(basename "$unit")"
done
cd "$WORK"
systemd-analyze verify --man=no ./*.service ./*.timer
echo "contrib/verify.sh: $(ls "$WORK" | grep -c -v shtempel.env) units verified"

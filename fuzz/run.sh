#!/usr/bin/env bash
# Fuzz the letter reader and the MIME front end, seeded with the test corpus.
#   bash fuzz/run.sh SECONDS   (each target runs that long; default 20)
# Needs cargo-fuzz (`cargo install cargo-fuzz`); RUSTC_BOOTSTRAP lets the stable
# toolchain take the sanitizer flags.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-20}
export RUSTC_BOOTSTRAP=1
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked -q
mkdir -p fuzz/corpus/letter_reader fuzz/corpus/mime_front
cp tests/letters/*.txt fuzz/corpus/letter_reader/
cp src/demo/*.eml tests/letters/*.eml fuzz/corpus/mime_front/
[ -d ../shared/corpus/mail-parser-eml ] && cp ../shared/corpus/mail-parser-eml/*.eml fuzz/corpus/mime_front/
for target in letter_reader mime_front; do
  echo "== fuzz $target for ${SECONDS_EACH}s"
  # -O: release with debug assertions off, as the clerk ships (mail-parser has
  # debug_assert!s that fire on malformed mail; a debug build catches them per letter).
  cargo fuzz run -O "$target" "fuzz/corpus/$target" -- -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 2>&1 \
    | grep -E "^#[0-9]+.*(DONE|pulse)|Done [0-9]+ runs|ERROR|panicked|SUMMARY" | tail -n 3
done

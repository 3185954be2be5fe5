#!/usr/bin/env bash
# Fuzz the letter reader, the MIME front end and the Authentication-Results reader, seeded with the test corpus.
#   bash fuzz/run.sh SECONDS   (each target runs that long; default 20)
# Needs cargo-fuzz (`cargo install cargo-fuzz`); RUSTC_BOOTSTRAP lets the stable
# toolchain take the sanitizer flags.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-20}
export RUSTC_BOOTSTRAP=1
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked -q
mkdir -p fuzz/corpus/letter_reader fuzz/corpus/mime_front fuzz/corpus/auth_results
cp tests/letters/*.txt fuzz/corpus/letter_reader/
cp src/demo/*.eml tests/letters/*.eml fuzz/corpus/mime_front/
[ -d ../shared/corpus/mail-parser-eml ] && cp ../shared/corpus/mail-parser-eml/*.eml fuzz/corpus/mime_front/
# The reader of Authentication-Results, seeded with every such field of the corpora.
grep -h -A3 -i '^Authentication-Results:' src/demo/*.eml tests/letters/*.eml 2>/dev/null \
  | split -l 4 - fuzz/corpus/auth_results/seed- || true
printf 'foo.example.net (foobar) 1 (baz); dkim (c) / 1 = fail policy . expired = 1362471462' > fuzz/corpus/auth_results/rfc-b7
printf 'mx.example.org; spf=pass smtp.mailfrom="x;dkim=pass header.d=a.example"@b.example' > fuzz/corpus/auth_results/quoted
for target in letter_reader mime_front auth_results; do
  echo "== fuzz $target for ${SECONDS_EACH}s"
  # -O: release with debug assertions off, as the clerk ships (mail-parser has
  # debug_assert!s that fire on malformed mail; a debug build catches them per letter).
  cargo fuzz run -O "$target" "fuzz/corpus/$target" -- -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 2>&1 \
    | grep -E "^#[0-9]+.*(DONE|pulse)|Done [0-9]+ runs|ERROR|panicked|SUMMARY" | tail -n 3
done

#!/bin/sh
# Runs a libFuzzer target for SECONDS on a scratch copy of its seed corpus
# and prints the number of executions.  Usage: run-fuzz.sh TARGET SECONDS
# SEEDS_DIR
target=$1
seconds=${FUZZ_SECONDS:-$2}
seeds=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -d "$seeds" ] && cp "$seeds"/* "$work"/ 2>/dev/null
# Leak detection stays on (LeakSanitizer); one process, no forks.
"$target" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$work/" "$work" 2>"$work.log"
rc=$?
grep -E 'stat::number_of_executed_units|stat::peak_rss_mb|FUZZ FAILURE|ERROR|SUMMARY' "$work.log"
if [ $rc -ne 0 ]; then
  tail -40 "$work.log"
  for f in "$work"/crash-* "$work"/leak-* "$work"/timeout-*; do
    [ -f "$f" ] && echo "reproducer: $(basename "$f") $(od -An -tx1 "$f" | head -4 | tr -d '\n')"
  done
fi
rm -f "$work.log"
# Any failure is a failure (77 would read as a skip to meson).
[ $rc -eq 0 ] || exit 1

#!/bin/sh
# Runs a test binary under the leaks tracer (GST_TRACERS=leaks,
# GST_DEBUG=GST_TRACER:7 from the environment) and fails when it fails or
# when the tracer logged any object still alive at gst_deinit ().
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$@" 2>"$log"
rc=$?
alive=$(grep -c 'object-alive, type-name=(string)[^%]' "$log")
grep -v 'GST_TRACER ' "$log" >&2
grep 'object-alive, type-name=(string)[^%]' "$log" | head -20 >&2
echo "leaks tracer: $alive object-alive line(s) at exit"
[ "$rc" -eq 0 ] && [ "$alive" -eq 0 ]

#!/bin/sh
# cudafilter
# Copyright (C) 2026 The cudafilter authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# An element that cannot start (filter=custom without a kernel) makes
# gst-launch-1.0 exit with its error, every time: 100 runs, 10 at once, each
# under a 10 s watchdog (a run takes a fraction of a second; one that
# reaches the watchdog hung).  Usage: test-start-error.sh GST_LAUNCH
launch=$1
runs=${CF_START_ERROR_RUNS:-100}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

run_one() {
  timeout -s KILL 10 "$launch" -q videotestsrc num-buffers=3 \
    ! video/x-raw,format=RGBA,width=64,height=48 \
    ! cudafilter backend=cpu filter=custom ! fakesink >"$dir/out.$1" 2>&1
  echo $? >"$dir/rc.$1"
}

i=0
while [ "$i" -lt "$runs" ]; do
  for j in 0 1 2 3 4 5 6 7 8 9; do
    run_one $((i + j)) &
  done
  wait
  i=$((i + 10))
done

hung=0
bad=0
for rc in "$dir"/rc.*; do
  n=${rc##*.}
  case $(cat "$rc") in
    124|137) hung=$((hung + 1)) ;;
    0) bad=$((bad + 1)); echo "run $n exited 0" ;;
    *) grep -q "needs the 'kernel' property" "$dir/out.$n" \
         || { bad=$((bad + 1)); echo "run $n: no error text"; cat "$dir/out.$n"; } ;;
  esac
done
echo "$runs runs: $hung hung, $bad without the error"
[ "$hung" -eq 0 ] && [ "$bad" -eq 0 ]

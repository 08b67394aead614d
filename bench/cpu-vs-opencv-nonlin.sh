#!/bin/sh
# The CPU backend's nonlinear filters beside OpenCV (the table "Median,
# morphology and bilateral" in bench/README.md): 1920x1080, GRAY8, and
# RGBA (colour filtered, alpha copied) or RGB where OpenCV takes it (its
# bilateral has no 4-channel form), one thread, each case ROUNDS times,
# the engines in alternation (a shared machine drifts: take the median of
# the rounds); BASE, a second build directory (an earlier commit), runs in
# the same alternation. One csv line a run:
# csv,backend,filter,format,size,threads,wall_ms,cpu_ms[,...].
#   bench/cpu-vs-opencv-nonlin.sh BUILDDIR [ROUNDS [BASE]]
B=${1:-build}/bench/cudafilter-cpu-bench
R=${2:-3}
BASE=${3:+$3/bench/cudafilter-cpu-bench}
PY=
for cand in /usr/bin/python3 python3; do
  if "$cand" -c 'import cv2' 2>/dev/null; then PY=$cand; break; fi
done
[ -n "$PY" ] || { echo "cpu-vs-opencv-nonlin: no python3 with cv2" >&2; exit 1; }
DIR=$(dirname "$0")
S=1920x1080
set -e
for CASE in median-3:gray8 median-5:gray8 median-7:gray8 erode-3:gray8 \
    dilate-3:gray8 erode-15:gray8 bilateral-9:gray8 median-3:rgba \
    median-5:rgba erode-3:rgba erode-15:rgba bilateral-9:rgb; do
  OP=${CASE%:*}
  FMT=${CASE#*:}
  F=${OP%-*}
  K=${OP##*-}
  N=100
  case $CASE in
    median-7*|erode-15*|*:rgba) N=30 ;;
  esac
  case $OP in
    bilateral-9) N=3 ;;
  esac
  set -- --filter $F --kernel-size $K --size $S --format $FMT --threads 1 \
      --frames $N
  [ "$F" = bilateral ] && set -- "$@" --sigma 3
  i=0
  while [ $i -lt "$R" ]; do
    [ -n "$BASE" ] && "$BASE" "$@" | grep '^csv' | sed 's/^csv,cpu,/csv,base,/'
    "$B" "$@" | grep '^csv'
    $PY "$DIR/cpu_opencv.py" --op $OP --size $S --format $FMT --threads 1 \
        --frames $N
    i=$((i + 1))
  done
done

#!/bin/sh
# Runs every example and recipe that needs no camera or display with
# backend=cuda, on a machine with an NVIDIA GPU, and says PASS or FAIL for
# each.  Python (GObject introspection) is run only where gi is installed.
#
#   examples/run-gpu-examples.sh [BUILD_DIR [LOG_DIR]]
#
# BUILD_DIR defaults to ./build, LOG_DIR to $OUT/gpu-examples or
# ./gpu-examples.  BACKEND=cpu runs the same on the CPU (for a dry run).
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=$(cd "${1:-build}" && pwd)
LOG=${2:-${OUT:-.}/gpu-examples}
BACKEND=${BACKEND:-cuda}
mkdir -p "$LOG"
LOG=$(cd "$LOG" && pwd)

export GST_PLUGIN_PATH="$BUILD/gst"
export GST_REGISTRY="$LOG/registry.bin"
FAILED=0

# run NAME COMMAND...: output into $LOG/NAME.log, PASS/FAIL and the last
# lines of the log on stdout.
run () {
  name=$1; shift
  start=$(date +%s.%N)
  if "$@" >"$LOG/$name.log" 2>&1; then result=PASS; else
    result=FAIL; FAILED=$((FAILED + 1)); fi
  end=$(date +%s.%N)
  printf '%s %-28s %6.2f s\n' "$result" "$name" \
    "$(echo "$end - $start" | bc 2>/dev/null || echo 0)"
  tail -n 3 "$LOG/$name.log" | sed 's/^/    /'
}

# A 4K stream from one frame (imagefreeze costs nothing per frame), with
# statistics every 100 frames; the run fails unless 3 messages arrive.
# (A CPU dry run uses 640x360: 4K takes about a second a frame there.)
if [ "$BACKEND" = cpu ]; then STATS_SIZE=width=640,height=360; else
  STATS_SIZE=width=3840,height=2160; fi
stats_4k () {
  gst-launch-1.0 -m videotestsrc num-buffers=1 pattern=smpte ! \
    video/x-raw,format=RGBA,$STATS_SIZE,framerate=60/1 ! \
    imagefreeze num-buffers=300 ! \
    cudafilter backend="$BACKEND" @preset="$1" post-stats=true \
      stats-interval=100 ! fakesink sync=false >"$LOG/stats-$1.txt" 2>&1
  grep cudafilter-stats "$LOG/stats-$1.txt"
  [ "$(grep -c cudafilter-stats "$LOG/stats-$1.txt")" = 3 ]
}

gst-inspect-1.0 cudafilter >"$LOG/gst-inspect.txt" 2>&1 || {
  echo "FAIL: cudafilter not found in $BUILD/gst"; exit 1; }
echo "cudafilter from $BUILD/gst, backend=$BACKEND, logs in $LOG"

run embed-appsrc "$BUILD/examples/embed-appsrc" "$BACKEND"
run animate-sigma "$BUILD/examples/animate-sigma" "$BACKEND"
run transcode-jpeg env ENCODER=jpegenc FRAMES=60 sh "$HERE/transcode.sh" "" \
  "$LOG/transcoded.mkv" -- @preset=sharpen backend="$BACKEND"
run webcam-test-1080p env SIZE=width=1920,height=1080 sh "$HERE/webcam.sh" \
  --test @preset=edges backend="$BACKEND"
for p in soft-blur strong-blur edges emboss; do
  run "stats-$p" stats_4k "$p"
done
if /usr/bin/python3 -c 'import gi' 2>/dev/null || python3 -c 'import gi' \
    2>/dev/null; then
  PY=/usr/bin/python3; /usr/bin/python3 -c 'import gi' 2>/dev/null || PY=python3
  run filter-video.py "$PY" "$HERE/filter-video.py" --backend "$BACKEND"
else
  echo "SKIP filter-video.py: no python3-gi on this machine"
fi

echo "$FAILED failed"
[ $FAILED = 0 ]

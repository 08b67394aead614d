#!/bin/sh
# Runs the CPU-backend suites under valgrind memcheck: the engine tests and
# the element tests (backend=cpu; the cuda test case skips without a
# device), with GLib's and our suppressions.  Fails on any memory error or
# definite leak.
#
# Usage: tools/valgrind/run.sh [BUILDDIR] [extra test binaries...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
[ $# -gt 0 ] && shift
build=$(cd "$build" && pwd)
plugins=$(pkg-config --variable=pluginsdir gstreamer-plugins-base-1.0 2>/dev/null || echo /usr/lib/x86_64-linux-gnu/gstreamer-1.0)

supps="--suppressions=$here/gst.supp"
[ -f /usr/share/glib-2.0/valgrind/glib.supp ] && supps="$supps --suppressions=/usr/share/glib-2.0/valgrind/glib.supp"
# gst-check's suppressions where a GStreamer tree provides them.
for s in /usr/share/gstreamer-1.0/valgrind/*.supp /usr/lib/valgrind/gst*.supp; do
  [ -f "$s" ] && supps="$supps --suppressions=$s"
done

export CK_FORK=no G_SLICE=always-malloc G_DEBUG=gc-friendly
# test-stream-inputs: fewer preset loads racing the stream (seconds, not
# minutes, under memcheck).
export CF_PRESET_LOADS=300
export GST_PLUGIN_PATH="$build/gst:$plugins" GST_PLUGIN_SYSTEM_PATH_1_0=
export GST_REGISTRY="$build/tests/valgrind-registry.bin"
# One registry scan outside valgrind, so that memcheck sees no forked scanner.
GST_REGISTRY_FORK=no gst-inspect-1.0 cudafilter >/dev/null 2>&1
export GST_REGISTRY_FORK=no GST_REGISTRY_UPDATE=no

status=0
# The engine's test files, then the element's, then the extra ones.
set -- "$build"/tests/engine/test-gaussian "$build"/tests/engine/test-border \
  "$build"/tests/engine/test-kernel-parse "$build"/tests/engine/test-spec \
  "$build"/tests/engine/test-backend-cpu "$build"/tests/engine/test-layout \
  "$build"/tests/engine/test-regions \
  "$build"/tests/element/test-element-formats \
  "$build"/tests/element/test-element-strides \
  "$build"/tests/element/test-element-samples \
  "$build"/tests/element/test-element-values \
  "$build"/tests/element/test-element-properties \
  "$build"/tests/element/test-element-pipeline \
  "$build"/tests/element/test-bounded-pools \
  "$build"/tests/element/test-upstream-queries \
  "$build"/tests/element/test-lying-meta \
  "$build"/tests/element/test-cpu-pools \
  "$build"/tests/element/test-stream-inputs \
  "$build"/tests/element/test-element-regions "$@"
for t in "$@"; do
  name=$(basename "$t")
  log="$build/valgrind-$name.log"
  echo "== valgrind $name"
  valgrind --tool=memcheck --leak-check=full --errors-for-leak-kinds=definite \
    --show-leak-kinds=definite --error-exitcode=1 --num-callers=30 \
    --track-origins=yes $supps --log-file="$log" "$t" >"$log.out" 2>&1
  rc=$?
  grep -E 'ERROR SUMMARY|definitely lost|indirectly lost' "$log"
  tail -3 "$log.out"
  if [ $rc -ne 0 ]; then
    echo "   FAILED ($rc): see $log"
    status=1
  fi
done
exit $status

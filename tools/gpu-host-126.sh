#!/usr/bin/env bash
# gpu-host-126.sh: the GPU suite on GStreamer 1.26 (Debian 13), on a GPU
# host that has no GStreamer of its own.
#
#   here:         tools/distro-check.sh trixie gpu-bundle
#                   (builds build-trixie/ for sm_90 in a Debian 13 chroot,
#                   also as build-trixie.tar.xz, and collects the runtime
#                   .gpu126/ from it)
#   on the host:  tools/gpu-host-126.sh [-o OUTDIR] [RUNTIME [BUILD]]
#                   (from the project root; defaults .gpu126 and build-trixie,
#                   unpacked from BUILD.tar.xz when only that came along)
#
# Runs, each a step with its own verdict:
#   inspect     the runtime's version, and the plugin loading next to nvcodec
#   suite       every test program (tools/gpu-suite.sh -g: nothing may skip)
#   memcheck    parity, frames in flight, producer streams and CUDA memory
#               (decoder case included) under compute-sanitizer memcheck
#   ordered     the CUDA-memory tests with stream-ordered allocation
#               (GST_CUDA_ENABLE_STREAM_ORDERED_ALLOC=1), under memcheck
#   no-cufft    parity with cuFFT made unloadable: the direct path stands in
# Logs go to OUTDIR/STEP/ when -o is given.  Exits 1 when any step failed.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUTDIR=""
while getopts "o:h" opt; do
  case $opt in
    o) OUTDIR=$OPTARG ;;
    *) sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
RUNTIME=${1:-.gpu126}
BUILD=${2:-build-trixie}
cd "$ROOT" || exit 1
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
if [ ! -d "$BUILD/tests" ] && [ -f "$BUILD.tar.xz" ]; then
  tar -C "$(dirname "$BUILD")" -xJf "$BUILD.tar.xz" ||
    { echo "gpu-host-126: cannot unpack $BUILD.tar.xz" >&2; exit 1; }
fi
[ -f "$RUNTIME/env.sh" ] || { echo "gpu-host-126: no $RUNTIME/env.sh" >&2; exit 1; }
[ -d "$BUILD/tests" ] || { echo "gpu-host-126: no $BUILD/tests" >&2; exit 1; }

# shellcheck disable=SC1091
source "$RUNTIME/env.sh"

# The test programs keep the source folder they were built from (the test
# clip's path); point it at this tree when the host's layout differs.
src=$(sed -n 's/.*"source": *"\([^"]*\)".*/\1/p' \
  "$BUILD/meson-info/meson-info.json" 2>/dev/null | head -n 1)
if [ -n "$src" ] && [ "$src" != "$ROOT" ] && [ ! -e "$src/tests/data" ]; then
  mkdir -p "$(dirname "$src")" && ln -sfn "$ROOT" "$src" &&
    echo "gpu-host-126: $src -> $ROOT (the build's source folder)"
fi

failed=()
step() {
  local name=$1 rc
  shift
  echo "=== $name: $*"
  "$@"
  rc=$?
  if [ -n "$OUTDIR" ] && [ -d "$BUILD/gpu-suite-logs" ]; then
    mkdir -p "$OUTDIR/$name"
    cp -r "$BUILD/gpu-suite-logs/." "$OUTDIR/$name/" 2>/dev/null
    rm -rf "$BUILD/gpu-suite-logs"
  fi
  [ $rc = 0 ] || failed+=("$name")
  echo "=== $name: $([ $rc = 0 ] && echo OK || echo "FAILED ($rc)")"
}

inspect() {
  gst-inspect-1.0 --version | sed -n '1,2p' &&
    GST_PLUGIN_PATH=$BUILD/gst GST_REGISTRY=/tmp/gpu-host-126-registry.bin \
      gst-inspect-1.0 cudafilter | sed -n '1,12p' &&
    GST_REGISTRY=/tmp/gpu-host-126-registry.bin gst-inspect-1.0 nvh264dec |
      sed -n '1,3p'
}

suite=("$ROOT/tools/gpu-suite.sh" -b "$BUILD" -g)
step inspect inspect
step suite "${suite[@]}"
step memcheck "${suite[@]}" -s memcheck test-parity test-inflight \
  test-wait-stream test-cuda-memory
step ordered env GST_CUDA_ENABLE_STREAM_ORDERED_ALLOC=1 "${suite[@]}" \
  -s memcheck test-cuda-memory
step no-cufft env CUDAFILTER_CUFFT=/nonexistent/libcufft.so "${suite[@]}" \
  test-parity

if [ ${#failed[@]} -gt 0 ]; then
  echo "gpu-host-126: FAILED: ${failed[*]}"
  exit 1
fi
echo "gpu-host-126: all passed (GStreamer $(gst-inspect-1.0 --version |
  sed -n 's/.*version //p' | head -n 1))"

#!/usr/bin/env bash
# The reliability checks that need a GPU, for one call on the GPU host:
# the reliability tests with backend=cuda, a soak (100 000 1080p frames,
# properties changing every 100), and the GPU suite under compute-sanitizer
# memcheck, racecheck, initcheck and synccheck on a representative subset,
# and the hostile-scenario fuzzer with backend=cuda (also under memcheck).
#
#   source .gpu/env.sh; tests/reliability/gpu-run.sh BUILD OUTDIR
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
out=${2:-/tmp/gpu-reliability}
mkdir -p "$out"
export GST_PLUGIN_PATH=$build/gst CK_FORK=no
export GST_REGISTRY=$out/registry.bin
rel=$build/tests/reliability
cs="compute-sanitizer --error-exitcode=1 --print-limit=20"
status=0
start=$(date +%s)
budget=${BUDGET:-450}

step () {
  local name=$1 limit=$2; shift 2
  local t0=$(date +%s)
  local left=$(( budget - (t0 - start) ))
  if [ $left -lt 10 ]; then
    echo "$name: not run (time budget spent)"; status=1; return
  fi
  [ $limit -gt $left ] && limit=$left
  timeout "$limit" "$@" >"$out/$name.log" 2>&1
  local rc=$?
  echo "$name: rc=$rc ($(( $(date +%s) - t0 )) s)"
  grep -E "SKIP|Checks:|ERROR SUMMARY|soak:|cycles|frames in|too large|:F:|:E:|FUZZ|leaked" "$out/$name.log" | head -20 | sed 's/^/    /'
  [ $rc -eq 0 ] || status=1
}

nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv,noheader
# Soak first, alone on the device, so that its free-memory figures are its own.
step soak 130 env SOAK_SECONDS=${SOAK_SECONDS:-90} "$rel/soak" 100000 cuda 1920 1080 NV12
step states 40 "$rel/test-states"
step stress 40 "$rel/test-stress"
step faults 30 "$rel/test-faults"
step seek-storm 60 env CUDAFILTER_SEEK_STORM_RUNS=8 "$rel/test-seek-storm"
step tee 40 "$rel/test-tee"

subset="-p /gpu-parity/gaussian-s2.5 -p /gpu-parity/sobel-5 -p /gpu-parity/custom-5x5 -p /gpu-parity/custom-4x2 -p /gpu-parity/box-7 -p /gpu-parity/sharpen -p /gpu-parity/laplacian-5 -p /gpu-parity/unaligned -p /gpu/device-errors"
for tool in memcheck initcheck synccheck; do
  step "cs-$tool-parity" 40 $cs --tool $tool "$build/tests/gpu/test-parity" $subset
done
# racecheck follows every shared-memory access: a smaller subset, one case
# per kernel family (general tiled, fast interleaved, fast planar 8-bit).
step cs-racecheck-parity 150 $cs --tool racecheck \
  "$build/tests/gpu/test-parity" -p /gpu-parity/gaussian-s2.5 \
  -p /gpu-parity/custom-5x5 -p /gpu-parity/sobel-5
step cs-memcheck-soak 25 $cs --tool memcheck "$rel/soak" 300 cuda 640 360 I420
step cs-initcheck-soak 25 $cs --tool initcheck "$rel/soak" 200 cuda 320 240 RGBA
step cs-racecheck-soak 25 $cs --tool racecheck "$rel/soak" 40 cuda 320 240 GRAY8
step cs-synccheck-soak 25 $cs --tool synccheck "$rel/soak" 100 cuda 320 240 NV12
# The fault test makes CUDA calls fail on purpose: API errors are expected
# there, memory errors are not.
step cs-memcheck-faults 30 $cs --tool memcheck --report-api-errors no "$rel/test-faults"
step leaks-cuda 40 env GST_TRACERS=leaks "$rel/test-leaks" 300 cuda
# The hostile-scenario fuzzer on the CUDA backend, then under memcheck;
# the classes left out are those of meson's reliability-hostile.
hostile_skip=${HOSTILE_SKIP:-preroll}
step hostile-cuda 40 env CF_HOSTILE_BACKENDS=cuda,auto \
  CF_HOSTILE_SKIP=$hostile_skip "$rel/test-hostile" --seconds 30
step cs-memcheck-hostile 60 env CF_HOSTILE_BACKENDS=cuda \
  CF_HOSTILE_SKIP=$hostile_skip CF_HOSTILE_STEP_TIMEOUT=50 \
  $cs --tool memcheck "$rel/test-hostile" --seconds 40
exit $status

#!/usr/bin/env bash
# gpu-cuda-memory.sh BUILD OUTDIR: the memory:CUDAMemory checks on a machine
# with an NVIDIA GPU, in one go: the zero-copy pipeline tests, the pipeline
# figures (bench --cuda-memory), compute-sanitizer memcheck on a quick pass
# of the tests, and the GPU tests the CUDA backend changes touch.  Run from
# the project root after sourcing the GStreamer runtime's environment; the
# steps' limits add up to about 7.5 minutes.
set -u
BUILD=${1:-build}
OUT=${2:-.}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
mkdir -p "$OUT"
export CK_FORK=no
export GST_PLUGIN_PATH=$BUILD/gst
export GST_REGISTRY=${GST_REGISTRY:-/tmp/cudafilter-cuda-memory-registry.bin}

step () {                       # step NAME SECONDS COMMAND...
  local name=$1 limit=$2 t0=$SECONDS rc
  shift 2
  timeout -k 5 "$limit" "$@" > "$OUT/$name.log" 2>&1
  rc=$?
  echo "$name: rc=$rc ($((SECONDS - t0)) s)" | tee -a "$OUT/summary.txt"
  return $rc
}

: > "$OUT/summary.txt"
nvidia-smi -L >> "$OUT/summary.txt" 2>&1
ldd "$BUILD/gst/libgstcudafilter.so" | grep -i cuda >> "$OUT/summary.txt"
step inspect 60 gst-inspect-1.0 cudafilter
gst-inspect-1.0 nvcodec 2>&1 | grep -E "^ +[a-z0-9]+:" > "$OUT/nvcodec-elements.txt"
step test-cuda-memory 120 "$BUILD/tests/element/test-cuda-memory"
step bench 30 "$BUILD/bench/cudafilter-pipeline-bench" --cuda-memory \
  --frames 200
grep -E "cudafilter adds|alone|csv,|D2D" "$OUT/bench.log" >> "$OUT/summary.txt"
# Where each element reads and writes, and which context it holds.
GST_DEBUG=cudafilter:5,cudamemorycopy:5,cudabasetransform:5 \
  GST_DEBUG_NO_COLOR=1 step bench-debug 30 \
  "$BUILD/bench/cudafilter-pipeline-bench" --cuda-memory --frames 20
grep -E "cudafilter.*(reading|CUDA context|through the host|now filtering)" \
  "$OUT/bench-debug.log" | cut -c1-300 | head -20 >> "$OUT/summary.txt"
CK_RUN_CASE=gpu CUDAFILTER_TEST_QUICK=1 step memcheck 90 \
  compute-sanitizer --tool memcheck --error-exitcode 1 \
  "$BUILD/tests/element/test-cuda-memory"
grep -E "ERROR SUMMARY|Checks" "$OUT/memcheck.log" >> "$OUT/summary.txt"
for t in tests/gpu/test-inflight:15 tests/element/test-element-formats:60 \
    tests/element/test-element-strides:30 tests/element/test-element-samples:30 \
    tests/element/test-element-values:30 tests/element/test-element-properties:30 \
    tests/element/test-element-pipeline:30 \
    tests/reliability/test-faults:15 tests/gpu/test-parity:60; do
  [ -x "$BUILD/${t%:*}" ] && step "$(basename "${t%:*}")" "${t#*:}" \
    "$BUILD/${t%:*}"
done
grep -H -E "Checks:|^not ok|^# (pass|fail|skip)" "$OUT"/test-*.log | head -40 \
  >> "$OUT/summary.txt"
cat "$OUT/summary.txt"
# Few files travel back well: the logs go in one archive.
(cd "$OUT" && tar czf logs.tgz ./*.log ./*.txt)

#!/usr/bin/env bash
# gpu-verify.sh BUILD OUTDIR [STEP...]: every check the GPU host is needed
# for, in one call (device time is scarce: start the machine once).  Steps,
# in order (default: all):
#
#   suite       the GPU tests of the build (tools/gpu-suite.sh -g), including
#               element/streaming/cuda-memory with backend=cuda
#   sanitize    compute-sanitizer memcheck on the GPU parity and in-flight tests
#   cudamem     memory:CUDAMemory pipelines (tests/element/gpu-cuda-memory.sh)
#   reliability states/stress/leaks with CUDA, soak, sanitizers
#               (tests/reliability/gpu-run.sh)
#   examples    examples/run-gpu-examples.sh with backend=cuda
#   pipeline    bench/cudafilter-pipeline-bench at 4K and 1080p, with floors
#               and the cudaupload ! cudadownload peer
#   racecheck   compute-sanitizer racecheck on one parity case per kernel
#   kernels     bench/targets.sh (kernel times against the D2D copy)
#   profile     Nsight Compute (ncu) sections on the slowest kernel cases
#   fft         (not in the default list) the FFT convolution: parity and
#               in-flight suites with CUDAFILTER_CONVOLUTION=fft, memcheck on
#               its parity cases, and bench/fft-crossover.sh
#   peers       (not in the default list) bench/compare_peers.py against
#               CuPy on the same GPU, 4K and 1080p
#   fastpaths   (not in the default list) Nsight Compute on the cases
#               cudafilter-npp-bench shows NPP winning: GRAY8 3x3, RGB,
#               16-bit, NV12 and P010
#   npp         (not in the default list) bench/cudafilter-npp-bench: NPP's
#               filters on the same frames, 4K and 1080p, the copy beside
#   nonlinear   (not in the default list) median, morphology and bilateral:
#               every parity case of theirs, memcheck and racecheck on one
#               case of each filter and kernel path, the reference test on
#               backend=cuda for them, and their bench rows beside the copy
#               and NPP
#   regions     (not in the default list) regions and pixelate: parity,
#               memcheck, racecheck and initcheck, the element's region
#               tests under memcheck on backend=cuda, the kernel and
#               pipeline figures beside the whole frame
#   formats     (not in the default list) the new formats' checks: parity
#               on their layouts, memcheck and racecheck on them, the
#               element and CUDA-memory tests (P010 from nvh265dec)
#
# Run from the project root after `source .gpu/env.sh` (see
# ../shared/gpu/README.md).  Everything lands in OUTDIR, with summary.txt and
# one logs.tgz (the device tool returns at most 8 files).  With
# CF_VERIFY_BUDGET=SECONDS, steps are cut short or skipped so that the whole
# run, logs included, ends within that time.
set -u
build=${1:?usage: gpu-verify.sh BUILD OUTDIR [STEP...]}
out=${2:?usage: gpu-verify.sh BUILD OUTDIR [STEP...]}
shift 2
steps=${*:-suite sanitize racecheck cudamem reliability examples pipeline kernels}
budget=${CF_VERIFY_BUDGET:-86400}
mkdir -p "$out/logs"
summary=$out/summary.txt
export GST_PLUGIN_PATH=$PWD/$build/gst CK_FORK=no

step () {
  local name=$1 limit=$2
  shift 2
  local start=$SECONDS left=$((budget - SECONDS - 15))
  if [ "$left" -lt 20 ]; then
    printf '%-12s skipped: out of time\n' "$name" | tee -a "$summary"
    return
  fi
  [ "$limit" -gt "$left" ] && limit=$left
  timeout "$limit" "$@" >"$out/logs/$name.log" 2>&1
  local rc=$?
  printf '%-12s rc=%-3d %4ds  %s\n' "$name" "$rc" $((SECONDS - start)) \
    "$(grep -E 'Checks:|SUMMARY|PASS|FAIL|fps|passed|failed' \
      "$out/logs/$name.log" | tail -n 1)" | tee -a "$summary"
}

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader \
  | tee "$summary"
for s in $steps; do
  case $s in
    suite)
      step suite 300 tools/gpu-suite.sh -b "$build" -g -t 180
      cp -r "$build/gpu-suite-logs" "$out/logs/suite" 2>/dev/null ;;
    sanitize)
      step memcheck-parity 240 compute-sanitizer --tool memcheck \
        "$build/tests/gpu/test-parity"
      step memcheck-inflight 120 compute-sanitizer --tool memcheck \
        "$build/tests/gpu/test-inflight" ;;
    cudamem) step cudamem 480 tests/element/gpu-cuda-memory.sh "$build" \
        "$out/logs/cudamem" ;;
    reliability) step reliability 480 tests/reliability/gpu-run.sh "$build" \
        "$out/logs/reliability" ;;
    examples) step examples 240 examples/run-gpu-examples.sh "$build" \
        "$out/logs/examples" ;;
    pipeline)
      step pipeline-4k 180 "$build/bench/cudafilter-pipeline-bench" \
        --size 3840x2160 --frames 600 --latency
      step pipeline-1080 120 "$build/bench/cudafilter-pipeline-bench" \
        --size 1920x1080 --frames 2000 --latency ;;
    racecheck) step racecheck-parity 200 compute-sanitizer --tool racecheck \
        "$build/tests/gpu/test-parity" -p /gpu-parity/gaussian-s2.5 \
        -p /gpu-parity/custom-5x5 -p /gpu-parity/sobel-5 ;;
    kernels) step kernels 300 bench/targets.sh "$build" 100 ;;
    nonlinear)
      # Every nonlinear parity case, then memcheck and racecheck on one case
      # of each filter and kernel path (the tiled window and line passes,
      # the per-sample pass), four sanitizer processes at a time: racecheck
      # takes minutes on the largest tiles.
      nl=$("$build/tests/gpu/test-parity" -l 2>/dev/null | grep -E \
        '/gpu-parity/(median|erode|dilate|open|close|gradient|tophat|blackhat|bilateral)' \
        | sed 's/^/-p /' | tr '\n' ' ')
      # shellcheck disable=SC2086
      step nonlinear-parity 300 "$build/tests/gpu/test-parity" $nl
      for tool in memcheck racecheck; do
        for c in median-3 median-5 median-9 erode-rect-3 dilate-rect-8 \
            erode-rect-33-it8 erode-ellipse-7-it2 dilate-rect-5-it3 \
            open-cross-3 close-ellipse-5 gradient-rect-3 tophat-kernel-it2 \
            blackhat-rect-7 bilateral-5 bilateral-7-auto; do
          step "nl-$tool-$c" 400 compute-sanitizer --tool "$tool" \
            --error-exitcode 9 "$build/tests/gpu/test-parity" \
            -p "/gpu-parity/$c" &
          [ "$(jobs -r | wc -l)" -ge 4 ] && wait -n
        done
      done
      wait
      step nonlinear-reference 600 /usr/bin/python3 \
        tests/reference/test_reference.py --tool "$build/tools/cf-filter-raw" \
        --backend cuda --filter median --filter erode --filter dilate \
        --filter open --filter close --filter gradient --filter tophat \
        --filter blackhat --filter bilateral
      step nonlinear-bench 300 "$build/bench/cudafilter-bench" \
        --filter median,erode,dilate,open,bilateral --kernel-size 3 \
        --format gray8,rgba,gray16 --size 3840x2160
      [ -x "$build/bench/cudafilter-npp-bench" ] && \
        step nonlinear-npp 300 "$build/bench/cudafilter-npp-bench" \
          --case median-3,median-5,median-15,erode-3,dilate-3,erode-15,bilateral-9 \
          --format gray8,rgb,rgba,gray16 -n 20 ;;
    regions)
      # Regions and pixelate: parity (the regions-device case ten times:
      # it failed once, 2026-12-02), the sanitizers, the element on
      # backend=cuda, and the figures beside the whole frame.
      step regions-parity 300 "$build/tests/gpu/test-parity" \
        -p /gpu-parity/regions -p /gpu-parity/regions-device \
        -p /gpu-parity/pixelate -p /gpu-parity/pixelate-5
      for i in 1 2 3 4 5 6 7 8 9 10; do
        step "regions-device-$i" 60 "$build/tests/gpu/test-parity" \
          -p /gpu-parity/regions-device
      done
      for tool in memcheck racecheck initcheck; do
        step "regions-$tool" 400 compute-sanitizer --tool "$tool" \
          --error-exitcode 9 "$build/tests/gpu/test-parity" \
          -p /gpu-parity/regions-device -p /gpu-parity/pixelate &
      done
      wait
      CF_TEST_BACKEND=cuda step regions-element 300 compute-sanitizer \
        --tool memcheck --error-exitcode 9 \
        "$build/tests/element/test-element-regions"
      step regions-bench 120 "$build/bench/cudafilter-bench" \
        -f gaussian,box,median -F rgba,gray8,i420 -r "1600,756,640,648" -n 50
      for m in "" --cuda-memory; do
        for r in "" --regions=1600,756,640,648; do
          # shellcheck disable=SC2086
          step "regions-pipeline$m$r" 60 \
            "$build/bench/cudafilter-pipeline-bench" --size 3840x2160 \
            --frames 300 --cases pool --no-peer $m $r
        done
      done ;;
    profile)
      # Nsight Compute on the cases furthest from the copy floor: achieved
      # bandwidth, occupancy and where warps stall (one launch each).
      for c in "rgba box -k 3" "rgba gaussian -s 2" "gray8 gaussian -s 2" \
          "rgba gaussian -s 8"; do
        set -- $c
        fmt=$1 f=$2
        shift 2
        step "ncu-$fmt-$f-$2" 90 ncu --launch-skip 3 --launch-count 1 \
          --section SpeedOfLight --section MemoryWorkloadAnalysis \
          --section Occupancy --section WarpStateStats --section LaunchStats \
          --section SchedulerStats "$build/bench/cudafilter-bench" -F "$fmt" \
          -f "$f" "$@" -n 5 -w 5
      done ;;
    peers)
      for size in 3840x2160 1920x1080; do
        step "peers-$size" 300 /usr/bin/env python3 bench/compare_peers.py \
          "$build" --peer cupy --size "$size" --iterations 50 \
          --filters gaussian,box,sobel,laplacian,custom
      done ;;
    fastpaths)
      # The layouts NPP still wins (NV12/P010, RGB, 16-bit, GRAY8 3x3):
      # where each cudafilter kernel stalls, one launch each, NPP's not.
      if [ -x "$build/bench/cudafilter-npp-bench" ]; then
        for c in "gray8 laplacian-3" "gray8 custom-3x3" "rgb box-3" \
            "rgb laplacian-3" "gray16 custom-3x3" "rgba16 box-3" \
            "nv12 gaussian-13" "p010 gaussian-13"; do
          set -- $c
          step "ncu-$1-$2" 120 ncu --kernel-name \
            regex:'^(sep_kernel|dense_kernel|filter_kernel|mma_kernel|long_kernel)' \
            --launch-skip 3 --launch-count 1 --section SpeedOfLight \
            --section MemoryWorkloadAnalysis --section Occupancy \
            --section WarpStateStats --section SchedulerStats \
            --section InstructionStats "$build/bench/cudafilter-npp-bench" \
            -S 3840x2160 -F "$1" -c "$2" -n 5 -w 5
        done
      else
        echo "fastpaths    skipped: not built (no nppi.h in the toolkit)" \
          | tee -a "$summary"
      fi ;;
    npp)
      if [ -x "$build/bench/cudafilter-npp-bench" ]; then
        step npp 400 "$build/bench/cudafilter-npp-bench" --iterations 50
      else
        echo "npp          skipped: not built (no nppi.h in the toolkit)" \
          | tee -a "$summary"
      fi ;;
    formats)
      step formats-parity 300 "$build/tests/gpu/test-parity"
      step formats-memcheck 300 compute-sanitizer --tool memcheck \
        "$build/tests/gpu/test-parity" -p /gpu-parity/gaussian-s1 \
        -p /gpu-parity/sobel-3 -p /gpu-parity/custom-5x5
      step formats-racecheck 300 compute-sanitizer --tool racecheck \
        "$build/tests/gpu/test-parity" -p /gpu-parity/gaussian-s1 \
        -p /gpu-parity/custom-3x3
      CK_RUN_CASE=cuda step formats-element 200 \
        "$build/tests/element/test-element"
      step formats-cudamem 200 "$build/tests/element/test-cuda-memory" ;;
    fft)
      step fft-parity 400 env CUDAFILTER_CONVOLUTION=fft \
        "$build/tests/gpu/test-parity"
      step fft-inflight 120 env CUDAFILTER_CONVOLUTION=fft \
        "$build/tests/gpu/test-inflight"
      step fft-memcheck 300 compute-sanitizer --tool memcheck \
        "$build/tests/gpu/test-parity" -p /gpu-parity/fft/custom-15x15 \
        -p /gpu-parity/fft/laplacian-7 -p /gpu-parity/fft-changes
      step fft-crossover 500 bench/fft-crossover.sh "$build" 20 ;;
    *) echo "unknown step $s" | tee -a "$summary" ;;
  esac
done
tar -C "$out" -czf "$out/logs.tgz" logs && rm -rf "$out/logs"

#!/usr/bin/env bash
# gpu-suite.sh: runs every test program of a build folder directly, without
# meson (a GPU host may have another meson version, or none), optionally under
# compute-sanitizer, and prints a pass/fail summary.
#
#   tools/gpu-suite.sh [-b BUILD] [-s TOOL] [-r] [-g] [-t SECONDS] [NAME...]
#
#   -b BUILD    build folder (default: build)
#   -s TOOL     run each program under `compute-sanitizer --tool TOOL`
#               (memcheck, racecheck, initcheck, synccheck)
#   -r          also run the OpenCV/SciPy reference test with --backend cuda
#               (needs a python3 with numpy, scipy and cv2)
#   -g          a skipped test (exit 77, e.g. "no CUDA device") counts as a
#               failure: use on the GPU host, where nothing may skip
#   -t SECONDS  time limit per program (default 600)
#   NAME...     only programs whose file name contains one of these
#
# Exits 0 when everything ran and passed, 1 otherwise.  Logs are kept in
# BUILD/gpu-suite-logs/.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=build
SANITIZER=""
REFERENCE=0
STRICT=0
LIMIT=600

while getopts "b:s:rgt:h" opt; do
  case $opt in
    b) BUILD=$OPTARG ;;
    s) SANITIZER=$OPTARG ;;
    r) REFERENCE=1 ;;
    g) STRICT=1 ;;
    t) LIMIT=$OPTARG ;;
    h) sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
FILTERS=("$@")

case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
[ -d "$BUILD/tests" ] || { echo "gpu-suite: no tests in $BUILD (build first)" >&2; exit 1; }

# The same environment meson's test_env gives, except that the system plugin
# path stays as the caller set it (the GPU host's runtime sets it).
export CK_FORK=no
export GST_PLUGIN_PATH="$BUILD/gst"
export GST_REGISTRY="$BUILD/tests/gpu-suite-registry.bin"
# The fuzzer's classes that CI leaves out too (tests/reliability/meson.build
# says why each).
export CF_HOSTILE_SKIP=${CF_HOSTILE_SKIP-preroll}
export CF_FILTER_RAW="$BUILD/tools/cf-filter-raw"

LOGS="$BUILD/gpu-suite-logs"
mkdir -p "$LOGS"

wrapper=()
if [ -n "$SANITIZER" ]; then
  command -v compute-sanitizer >/dev/null 2>&1 ||
    { echo "gpu-suite: compute-sanitizer not found on PATH" >&2; exit 1; }
  wrapper=(compute-sanitizer --tool "$SANITIZER" --error-exitcode 99
    --print-limit 20)
fi
if command -v timeout >/dev/null 2>&1; then
  wrapper=(timeout "$LIMIT" "${wrapper[@]}")
fi

wanted() {
  local f
  [ ${#FILTERS[@]} -eq 0 ] && return 0
  for f in "${FILTERS[@]}"; do
    case $1 in *"$f"*) return 0 ;; esac
  done
  return 1
}

names=()
results=()
seconds=()
failed=0

run_one() {
  local name=$1 rc start end status
  shift
  start=$(date +%s)
  echo "--- $name"
  "$@" >"$LOGS/$name.log" 2>&1
  rc=$?
  end=$(date +%s)
  case $rc in
    0)
      # GLib tests skip with exit 0 and "# SKIP" lines (TAP).
      if grep -qE '^(ok [0-9]+ .*# SKIP|SKIP:)' "$LOGS/$name.log"; then
        if [ "$STRICT" = 1 ]; then status="FAIL (skipped)"; else status=SKIP; fi
      else
        status=PASS
      fi
      ;;
    77) if [ "$STRICT" = 1 ]; then status="FAIL (skipped)"; else status=SKIP; fi ;;
    99) status="FAIL (sanitizer)" ;;
    124) status="FAIL (timeout)" ;;
    *) status="FAIL (exit $rc)" ;;
  esac
  case $status in
    FAIL*)
      failed=1
      grep -i -m 1 "skip" "$LOGS/$name.log" | sed 's/^/    /'
      tail -n 40 "$LOGS/$name.log" | sed 's/^/    /'
      ;;
    SKIP)
      grep -i -m 1 "skip" "$LOGS/$name.log" | sed 's/^/    /'
      ;;
  esac
  names+=("$name")
  results+=("$status")
  seconds+=($((end - start)))
}

mapfile -t programs < <(find "$BUILD/tests" -type f -perm -u+x -name 'test-*' \
  ! -name '*.so' ! -name '*.p' | sort)
[ ${#programs[@]} -gt 0 ] || { echo "gpu-suite: no test programs under $BUILD/tests" >&2; exit 1; }

cd "$ROOT" || exit 1
for prog in "${programs[@]}"; do
  name=$(basename "$prog")
  wanted "$name" || continue
  run_one "$name" "${wrapper[@]}" "$prog"
done

if [ "$REFERENCE" = 1 ] && wanted reference; then
  py=""
  for cand in python3 /usr/bin/python3; do
    if command -v "$cand" >/dev/null 2>&1 &&
        "$cand" -c 'import cv2, scipy, numpy' 2>/dev/null; then
      py=$cand
      break
    fi
  done
  if [ -z "$py" ]; then
    echo "--- reference-cuda: no python3 with cv2, scipy and numpy" >&2
    names+=(reference-cuda)
    results+=("FAIL (no python3 with cv2/scipy)")
    seconds+=(0)
    failed=1
  else
    timed=()
    command -v timeout >/dev/null 2>&1 && timed=(timeout "$LIMIT")
    run_one reference-cuda "${timed[@]}" "$py" \
      "$ROOT/tests/reference/test_reference.py" --tool "$CF_FILTER_RAW" \
      --backend cuda
  fi
fi

echo
printf '%-28s %-24s %8s\n' "test" "result" "seconds"
printf '%-28s %-24s %8s\n' "----" "------" "-------"
for i in "${!names[@]}"; do
  printf '%-28s %-24s %8s\n' "${names[$i]}" "${results[$i]}" "${seconds[$i]}"
done
echo
echo "sanitizer: ${SANITIZER:-none}; logs in $LOGS/"
if [ "$failed" = 0 ]; then
  echo "gpu-suite: all passed"
else
  echo "gpu-suite: FAILED"
fi
exit "$failed"

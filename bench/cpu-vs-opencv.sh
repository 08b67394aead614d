#!/bin/sh
# The CPU backend beside OpenCV on the same operations (the tables in
# bench/README.md): every operation of bench/cpu_opencv.py, 1920x1080 and
# 3840x2160, RGBA and GRAY8; one csv line per run,
# csv,backend,filter,format,size,threads,wall_ms,cpu_ms.
#   bench/cpu-vs-opencv.sh BUILDDIR [CUDAFILTER_THREADS [OPENCV_THREADS]]
#   bench/cpu-vs-opencv.sh build 1,2,16 "1 16"      (a 16-core host)
B=${1:-build}/bench/cudafilter-cpu-bench
T=${2:-1}
CV=${3:-1}
# The first Python that has OpenCV (Debian's python3-opencv, or a pip one).
PY=
for cand in /usr/bin/python3 python3; do
  if "$cand" -c 'import cv2' 2>/dev/null; then PY=$cand; break; fi
done
[ -n "$PY" ] || { echo "cpu-vs-opencv: no python3 with cv2 (OpenCV)" >&2; exit 1; }
DIR=$(dirname "$0")
set -e
for S in 1920x1080 3840x2160; do
  for F in rgba gray8; do
    case $S-$F in
      1920x1080-rgba) N=60 ;;
      1920x1080-gray8) N=200 ;;
      3840x2160-rgba) N=20 ;;
      *) N=60 ;;
    esac
    for OP in gaussian-s1 gaussian-s2 box-3 box-7 sobel laplacian \
        custom-3x3 custom-5x5; do
      case $OP in
        gaussian-s1) set -- --filter gaussian --sigma 1 ;;
        gaussian-s2) set -- --filter gaussian --sigma 2 ;;
        box-3) set -- --filter box --kernel-size 3 ;;
        box-7) set -- --filter box --kernel-size 7 ;;
        sobel) set -- --filter sobel ;;
        laplacian) set -- --filter laplacian ;;
        custom-3x3) set -- --filter custom --kernel "0 -1 0; -1 5 -1; 0 -1 0" ;;
        custom-5x5) set -- --filter custom --kernel \
            "1 4 6 4 1; 4 16 24 16 4; 6 24 36 24 6; 4 16 24 16 4; 1 4 6 4 1" ;;
      esac
      "$B" "$@" --size $S --format $F --threads $T --frames $N | grep '^csv'
      for C in $CV; do
        $PY "$DIR/cpu_opencv.py" --op $OP --size $S --format $F --threads $C \
            --frames $N
      done
    done
  done
done

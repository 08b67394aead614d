#!/bin/sh
# Runs cudafilter-bench over the cases the kernels are held to (README):
#   bench/targets.sh BUILDDIR [ITERATIONS] [core|layouts|all]
# core: 3840x2160 and 1920x1080, RGBA and GRAY8 (GRAY16 and I420 for
# sigma 2); layouts: the layouts GPU pipelines carry (semi-planar 8- and
# 16-bit, packed 4:2:2, planar, RGB, 16-bit) over every 3x3 to 7x7 and
# 13-tap case, each beside the copy of its frame.
B=${1:-build}/bench/cudafilter-bench
N=${2:-200}
SET=${3:-all}
set -e
if [ "$SET" != layouts ]; then
  for S in 3840x2160 1920x1080; do
    $B -S $S -n $N -F rgba,gray8 -f gaussian -s 1
    $B -S $S -n $N -F rgba,gray8,gray16,i420 -f gaussian -s 2
    $B -S $S -n $N -F rgba,gray8 -f gaussian -s 8
    $B -S $S -n $N -F rgba,gray8 -f box -k 3
    $B -S $S -n $N -F rgba,gray8 -f box -k 7
    $B -S $S -n $N -F rgba,gray8,i420 -f sobel,scharr,laplacian
    $B -S $S -n $N -F rgba,gray8 -f custom
    $B -S $S -n $N -F rgba,gray8 -f custom \
        --kernel "1 2 0 -1 3; 4 -2 7 1 0; 2 2 9 2 2; 0 1 -3 5 1; 3 -1 0 2 1"
  done
fi
if [ "$SET" != core ]; then
  L=nv12,p010,p016,yuy2,uyvy,i420,rgb,gray16,rgba64
  for S in 3840x2160 1920x1080; do
    $B -S $S -n $N -F $L -f box -k 3
    $B -S $S -n $N -F $L -f box -k 5
    $B -S $S -n $N -F $L -f box -k 7
    $B -S $S -n $N -F $L -f gaussian -s 1 -k 7
    $B -S $S -n $N -F $L -f gaussian -s 2 -k 13
    $B -S $S -n $N -F $L -f sobel-x,laplacian
    $B -S $S -n $N -F $L -f custom
    $B -S $S -n $N -F $L -f custom \
        --kernel "1 2 0 -1 3; 4 -2 7 1 0; 2 2 9 2 2; 0 1 -3 5 1; 3 -1 0 2 1"
  done
fi

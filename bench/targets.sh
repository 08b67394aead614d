#!/bin/sh
# Runs cudafilter-bench over the cases the kernels are held to (README):
# 3840x2160 and 1920x1080, RGBA and GRAY8 (GRAY16 and I420 for sigma 2).
#   bench/targets.sh BUILDDIR [ITERATIONS]
B=${1:-build}/bench/cudafilter-bench
N=${2:-200}
set -e
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

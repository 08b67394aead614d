#!/usr/bin/env bash
# ptx-arch-check.sh [NVCC]: checks that the kernels' PTX depends on the
# architecture only where the build expects it to: cicc's PTX must be the
# same text but the .target line for compute_75, compute_80 and compute_90
# of every file compiled from one PTX for all architectures
# (kernels/meson.build, nvcc_one), and for compute_80 and compute_90 of
# cf-mma.cu (one PTX a generation from sm_80 on: meson.build, base_of).
# ptxas then compiles the same SASS as from each architecture's own PTX
# (docs/building.md, "One PTX for most files").  Run it after changing a
# kernel file or header; 2 or 3 cicc runs a file (minutes on 2 cores).
# Exit status 1 when one differs.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
nvcc=${1:-${CUDA_PATH:-/usr/local/cuda}/bin/nvcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The files nvcc_one compiles, as kernels/meson.build lists them.
files=$(sed -n "/^  kernel_files = \[/,/\]/p; /kernel_files += /p" \
  "$here/kernels/meson.build" | grep -o "'cf-[a-z0-9-]*\.cu'" | tr -d "'")
bad=0
for f in $files cf-mma.cu; do
  archs="75 80 90"
  [ "$f" = cf-mma.cu ] && archs="80 90"
  for a in $archs; do
    "$nvcc" -ptx -arch=compute_$a -O2 --std=c++17 -I"$here/kernels" \
      "$here/kernels/$f" -o "$tmp/$a.ptx"
    grep -v '^\.target ' "$tmp/$a.ptx" >"$tmp/$a.body"
  done
  same=1
  for a in $archs; do
    cmp -s "$tmp/80.body" "$tmp/$a.body" || same=0
  done
  if [ $same = 1 ]; then
    echo "$f: the same PTX for compute_${archs// /, compute_}"
  else
    echo "$f: PTX differs between compute_${archs// /, compute_}:" \
      "compile it from one PTX a generation (kernels/meson.build, meson.build)"
    bad=1
  fi
done
exit $bad

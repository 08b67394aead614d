#!/usr/bin/env bash
# ptx-arch-check.sh [NVCC]: checks that every kernel file compiled from one
# PTX for all architectures (kernels/meson.build, nvcc_one) still has PTX
# that does not depend on the architecture: cicc's PTX for compute_75,
# compute_80 and compute_90 must be the same text but the .target line
# (ptxas then compiles the same SASS as from each generation's own PTX;
# docs/building.md, "One PTX for most files").  Run it after changing a
# kernel file or header; about 3 cicc runs a file (minutes on 2 cores).
# Exit status 1 names the files that must move to nvcc_gen.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
nvcc=${1:-${CUDA_PATH:-/usr/local/cuda}/bin/nvcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The files nvcc_one compiles, as kernels/meson.build lists them.
files=$(sed -n "/^  kernel_files = \[/,/\]/p; /kernel_files += /p" \
  "$here/kernels/meson.build" | grep -o "'cf-[a-z0-9-]*\.cu'" | tr -d "'")
bad=0
for f in $files; do
  for a in 75 80 90; do
    "$nvcc" -ptx -arch=compute_$a -O2 --std=c++17 -I"$here/kernels" \
      "$here/kernels/$f" -o "$tmp/$a.ptx"
    grep -v '^\.target ' "$tmp/$a.ptx" >"$tmp/$a.body"
  done
  if cmp -s "$tmp/75.body" "$tmp/80.body" &&
    cmp -s "$tmp/75.body" "$tmp/90.body"; then
    echo "$f: one PTX for every architecture"
  else
    echo "$f: PTX differs between architectures: compile it with nvcc_gen"
    bad=1
  fi
done
exit $bad

#!/usr/bin/env bash
# ptx-arch-check.sh [NVCC]: checks that sm_90, sm_100 and sm_120 may still be
# compiled from compute_80's PTX (meson.build, base_of): for every kernel
# file, cicc's PTX for compute_80 and compute_90 must be the same text but
# the .target line.  ptxas then compiles the same cubins as from
# compute_90's own PTX (docs/building.md, "Two PTX for five cubins").
# Run it after changing a kernel file or header: two cicc runs a file
# (minutes on 2 cores).  Exit status 1 names the files whose PTX differs.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
nvcc=${1:-${CUDA_PATH:-/usr/local/cuda}/bin/nvcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The kernel files, as kernels/meson.build lists them, but for those listed
# in kernel_files_own_90 (their sm_90 cubins come from compute_90's PTX).
files=$(sed -n "/^  kernel_files\(_short\)\? = \[/,/\]/p; /kernel_files_short += /p" \
  "$here/kernels/meson.build" | grep -o "'cf-[a-z0-9-]*\.cu'" | tr -d "'")
bad=0
for f in $files; do
  for a in 80 90; do
    "$nvcc" -ptx -arch=compute_$a -O2 --std=c++17 -I"$here/kernels" \
      "$here/kernels/$f" -o "$tmp/$a.ptx"
    grep -v '^\.target ' "$tmp/$a.ptx" >"$tmp/$a.body"
  done
  if cmp -s "$tmp/80.body" "$tmp/90.body"; then
    echo "$f: the same PTX for compute_80 and compute_90"
  else
    echo "$f: PTX differs between compute_80 and compute_90:" \
      "compile sm_90 and newer from compute_90 (meson.build, base_of)"
    bad=1
  fi
done
exit $bad

#!/usr/bin/env bash
# ptx-arch-check.sh [NVCC]: checks the PTX sharing of meson.build (base_of,
# gencode_one_ptx).  For every kernel file but those in kernel_files_own_90,
# cicc's PTX for compute_80 and compute_90 must be the same text but the
# .target line, so sm_90, sm_100 and sm_120 may be compiled from
# compute_80's; for those in kernel_files_one_ptx, compute_75's must be the
# same as compute_80's too, so every cubin may be compiled from it.  ptxas
# then compiles the same cubins as from each architecture's own PTX
# (docs/building.md, "Two PTX for five cubins").  Run it after changing a
# kernel file or header: two or three cicc runs a file (minutes on 2
# cores).  Exit status 1 names the files whose PTX differs.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
nvcc=${1:-${CUDA_PATH:-/usr/local/cuda}/bin/nvcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A list of kernels/meson.build: its files, up to the closing bracket.
list () {
  awk -v name="$1" '
    $1 == name && $2 == "=" { on = 1 }
    on { print; if (index($0, "]")) on = 0 }
    $1 == name && $2 == "+=" { print }' "$here/kernels/meson.build" |
    grep -o "'cf-[a-z0-9-]*\.cu'" | tr -d "'"
}
one_ptx=$(list kernel_files_one_ptx)
files="$(list kernel_files) $one_ptx $(list kernel_files_short)"
bad=0
for f in $files; do
  archs="80 90"
  case " $(echo $one_ptx) " in *" $f "*) archs="75 80 90" ;; esac
  for a in $archs; do
    "$nvcc" -ptx -arch=compute_$a -O2 --std=c++17 -I"$here/kernels" \
      "$here/kernels/$f" -o "$tmp/$a.ptx"
    grep -v '^\.target ' "$tmp/$a.ptx" >"$tmp/$a.body"
  done
  if ! cmp -s "$tmp/80.body" "$tmp/90.body"; then
    echo "$f: PTX differs between compute_80 and compute_90:" \
      "compile sm_90 and newer from compute_90 (kernel_files_own_90)"
    bad=1
  elif [ -f "$tmp/75.body" ] && ! cmp -s "$tmp/75.body" "$tmp/80.body"; then
    echo "$f: PTX differs between compute_75 and compute_80:" \
      "move it from kernel_files_one_ptx to kernel_files"
    bad=1
  else
    echo "$f: the same PTX for compute_${archs// /, compute_}"
  fi
  rm -f "$tmp"/*.body
done
exit $bad

#!/bin/sh
# Times the direct kernel against the FFT path for custom (dense) kernels
# of growing size, on 4K RGBA and GRAY8 frames, and prints where the FFT
# starts to win: the value for CF_FFT_CROSSOVER_AREA in src/fft/cf-fft-plan.h.
#   bench/fft-crossover.sh BUILDDIR [ITERATIONS] [WxH]
# SIZES="3 5 ..." overrides the kernel sizes (ascending), FORMATS the
# formats (default rgba,gray8).
B=${1:-build}/bench/cudafilter-bench
N=${2:-20}
S=${3:-3840x2160}
SIZES=${SIZES:-"3 5 7 9 11 13 15 17 19 23 27 31 39 47 55 63"}
FORMATS=${FORMATS:-rgba,gray8}
set -e
out=$(mktemp)
trap 'rm -f "$out"' EXIT

for k in $SIZES; do
  echo "kernel ${k}x${k} ..." >&2
  "$B" -S "$S" -n "$N" -w 3 -F "$FORMATS" -f custom -k "$k" \
      -m direct,fft >> "$out"
done
grep -m1 '^device' "$out" || true

# csv fields: 3 format, 6 kw, 10 kernel_us, 18 method, 19-21 fft tiles
awk -F, -v size="$S" '
$1 == "csv" && $2 != "filter" {
  if (!(($3) in seen_f)) { seen_f[$3] = 1; fmts[++nf] = $3 }
  if (!(($6) in seen_k)) { seen_k[$6] = 1; ks[++nk] = $6 }
  if ($18 == "direct") d[$3, $6] = $10
  else { f[$3, $6] = $10; tile[$3, $6] = $19 "x" $20 " x" $21 }
}
END {
  worst = 0
  for (i = 1; i <= nf; i++) {
    fmt = fmts[i]
    printf "\n%s %s, custom kernels (us, median)\n", fmt, size
    printf "%7s %6s %10s %10s %8s  %-7s %s\n", "kernel", "area", "direct",
        "fft", "fft/dir", "faster", "fft tiles"
    for (j = 1; j <= nk; j++) {
      k = ks[j]
      if ((fmt, k) in f) {
        r = f[fmt, k] / d[fmt, k]
        printf "%7s %6d %10.1f %10.1f %8.2f  %-7s %s\n", k "x" k, k * k,
            d[fmt, k], f[fmt, k], r, r < 1 ? "fft" : "direct", tile[fmt, k]
      } else {
        printf "%7s %6d %10.1f %10s %8s  %-7s\n", k "x" k, k * k,
            d[fmt, k], "-", "-", "direct"
      }
    }
    # smallest size from which the FFT wins at every larger size
    cross = 0
    for (j = nk; j >= 1; j--) {
      k = ks[j]
      if (!((fmt, k) in f) || f[fmt, k] >= d[fmt, k])
        break
      cross = k
    }
    if (cross) {
      printf "%s: FFT faster from %dx%d (area %d)\n", fmt, cross, cross,
          cross * cross
      if (cross * cross > worst)
        worst = cross * cross
    } else {
      printf "%s: FFT never faster up to the largest size\n", fmt
      worst = -1
    }
  }
  if (worst > 0)
    printf "\nCF_FFT_CROSSOVER_AREA (src/fft/cf-fft-plan.h): %d, where the FFT wins for every format\n", worst
  else
    printf "\nCF_FFT_CROSSOVER_AREA: no crossover in this range; keep auto on direct (e.g. %d)\n", 64 * 64
}' "$out"

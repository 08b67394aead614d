#!/bin/sh
# Times the CPU backend's direct row kernels against its FFT path (FFTW)
# on one thread, for custom (dense, random) kernels of growing size on
# 1080p RGBA and GRAY8 frames, and prints where the FFT starts to win: a
# random matrix's direct cost is its area (no weights pair up), so that is
# the value for CF_CPU_FFT_CROSSOVER_COST in src/fft/cf-cpu-fft.h, to be
# refined with non-square --kernel matrices between the sizes.  Figures are
# the process's CPU milliseconds per frame (steadier than wall time on a
# shared machine; one thread, so the same work).
#   bench/cpu-fft-crossover.sh BUILDDIR [FRAMES] [WxH]
# SIZES="3 5 ..." overrides the kernel sizes (ascending), FORMATS the
# formats (default "rgba gray8"), DIVISOR the custom divisor (default 0:
# the kernel's sum, so the weights are scaled and the direct path sums in
# doubles; a power of two such as 64 keeps integer weights and float sums).
B=${1:-build}/bench/cudafilter-cpu-bench
N=${2:-5}
S=${3:-1920x1080}
SIZES=${SIZES:-"3 5 7 9 11 13 15 19 23 31 47 63"}
FORMATS=${FORMATS:-"rgba gray8"}
DIVISOR=${DIVISOR:-0}
set -e
out=$(mktemp)
trap 'rm -f "$out"' EXIT

for f in $FORMATS; do
  for k in $SIZES; do
    echo "$f kernel ${k}x${k} ..." >&2
    "$B" --filter custom --kernel-size "$k" --size "$S" --format "$f" \
        --threads 1 --frames "$N" --divisor "$DIVISOR" \
        --convolution direct,fft >> "$out"
  done
done
# the plan each FFT run took, by format and size
grep -v '^csv' "$out" | sed -n 's/^cpu *custom \([a-z0-9]*\) .*FFT overlap-save (FFTW), \([0-9]*\)x[0-9]* taps in \([0-9x]*\) tiles.*/tile \1 \2 \3/p' \
    > "$out.tiles"

# csv fields: 4 format, 6 threads, 7 wall_ms, 8 cpu_ms, 9 method, 10 kw
awk -F, -v size="$S" -v tiles="$out.tiles" '
BEGIN {
  while ((getline line < tiles) > 0) {
    split(line, t, " ")
    tile[t[2], t[3]] = t[4]
  }
}
$1 == "csv" && $2 == "cpu" {
  if (!(($4) in seen_f)) { seen_f[$4] = 1; fmts[++nf] = $4 }
  if (!(($10) in seen_k)) { seen_k[$10] = 1; ks[++nk] = $10 }
  if ($9 == "direct") d[$4, $10] = $8
  else f[$4, $10] = $8
}
END {
  for (i = 1; i <= nf; i++) {
    fmt = fmts[i]
    printf "\n%s %s, custom kernels, 1 thread (CPU ms per frame)\n", fmt, size
    printf "%7s %6s %10s %10s %8s  %-7s %s\n", "kernel", "area", "direct",
        "fft", "fft/dir", "faster", "fft tiles"
    for (j = 1; j <= nk; j++) {
      k = ks[j]
      if (!((fmt, k) in d))
        continue
      fft = ((fmt, k) in tile)
      r = f[fmt, k] / d[fmt, k]
      printf "%7s %6d %10.1f %10s %8s  %-7s %s\n", k "x" k, k * k,
          d[fmt, k], fft ? sprintf("%.1f", f[fmt, k]) : "-",
          fft ? sprintf("%.2f", r) : "-", fft && r < 1 ? "fft" : "direct",
          fft ? tile[fmt, k] : "(direct: bound)"
    }
    # smallest size from which the FFT wins at every larger size
    cross = 0
    for (j = nk; j >= 1; j--) {
      k = ks[j]
      if (!((fmt, k) in tile) || f[fmt, k] >= d[fmt, k])
        break
      cross = k
    }
    if (cross)
      printf "%s: FFT faster from %dx%d (area %d)\n", fmt, cross, cross,
          cross * cross
    else
      printf "%s: FFT never faster at the largest size\n", fmt
    if (cross && cross * cross > worst)
      worst = cross * cross
  }
  if (worst)
    printf "\nCF_CPU_FFT_CROSSOVER_COST: at most %d (the larger of the formats)\n", worst
}' "$out"
rm -f "$out.tiles"

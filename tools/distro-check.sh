#!/usr/bin/env bash
# distro-check.sh: builds and tests cudafilter on another Debian release, in
# a fresh debootstrap chroot, as a user of that release would (run as root).
#
#   tools/distro-check.sh SUITE [MODE]
#   tools/distro-check.sh --self-test    (removing a root with live mounts)
#   tools/distro-check.sh --repair-dev   (the host's /dev nodes and links)
#
#   SUITE  a Debian suite debootstrap knows: trixie, sid, ...
#   MODE   full (default): the README's setup command unchanged
#            (./cudafilter-dev setup), meson setup, build, the meson suite,
#            meson install, then gst-inspect-1.0 cudafilter from the
#            installed plugin in a clean environment, and no toolkit
#            library or RUNPATH in it.  The host's CUDA toolkit
#            (CF_DISTRO_CUDA, default /usr/local/cuda when it has nvcc) is
#            bind-mounted read-only at /usr/local/cuda and the kernels are
#            built for sm_90 only; without one the build is CPU only, as
#            cuda=auto decides.
#          debian-cuda: the release's own nvidia-cuda-toolkit (non-free),
#            then meson setup with no options and the build (no tests: no
#            GPU here).
#          gpu-bundle: setup, the release's GStreamer plugins (-bad for
#            nvcodec and h264parse), a build for sm_90 with the host's
#            toolkit, copied out to ./build-SUITE (build-trixie, and
#            build-trixie.tar.xz to carry), and a
#            GStreamer runtime collected from the chroot into ./.gpuMN
#            (.gpu126 for GStreamer 1.26) by runtime-from-chroot.sh
#            (CF_RUNTIME_SCRIPT,
#            default ../shared/gpu/runtime-from-chroot.sh): what
#            tools/gpu-host-126.sh runs on a GPU host.  The project sits at
#            the same absolute path inside the chroot, so the paths the
#            build keeps (the test clip) hold on a host with that layout.
#
# Environment:
#   CF_CHROOT_CACHE  where the debootstrapped bases, downloaded packages
#                    and logs are kept between runs (default
#                    /var/cache/cudafilter-ci); a missing cache is rebuilt
#   CF_MIRROR        Debian mirror (default: the host's, else deb.debian.org)
#
# Prints one line per step with its time; on failure the end of the log and
# "distro-check: Debian SUITE (MODE) FAILED at STEP", exit 1.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# ------------------------------------------------------------------ both --
# Removes a chroot that a killed run may have left with its mounts live:
# they come down first, deepest first, and rm never crosses into another
# file system, so a /dev still bound into the tree is never emptied.
remove_tree() {
  local m
  awk -v root="$1" '$5 == root || index($5, root "/") == 1 { print $5 }' \
    /proc/self/mountinfo | sort -r | while read -r m; do
    umount "$m" 2>/dev/null || umount -l "$m" || true
  done
  rm -rf --one-file-system "$1"
  [ ! -e "$1" ]
}

# What remove_tree promises, on a tree with a live bind mount in it: the
# tree goes, what the mount showed stays.  Run by CI before the chroots.
self_test() {
  local dir
  dir=$(mktemp -d)
  mkdir -p "$dir/outside" "$dir/root/dev" "$dir/root/etc"
  echo keep >"$dir/outside/node"
  echo scratch >"$dir/root/etc/file"
  mount --bind "$dir/outside" "$dir/root/dev"
  local removed=yes
  remove_tree "$dir/root" || removed=no
  [ "$(cat "$dir/outside/node" 2>/dev/null)" = keep ] ||
    { echo "self-test: removing the tree emptied a mount in it"; return 1; }
  [ $removed = yes ] || { echo "self-test: $dir/root not removed"; return 1; }
  rm -rf "$dir"
  echo "distro-check: self-test OK (a tree with a live bind mount is removed, the mount's files kept)"
}

# Puts back the device nodes and links that builds and tests use, where an
# older version of this script emptied the host's /dev (through a chroot a
# killed run had left mounted) on a machine that keeps its state.
repair_dev() {
  local spec name major minor
  [ -e /dev/fd ] || { ln -s /proc/self/fd /dev/fd && echo "distro-check: made /dev/fd again"; }
  for spec in 0:stdin 1:stdout 2:stderr; do
    name=/dev/${spec#*:}
    [ -e "$name" ] || ln -s "/proc/self/fd/${spec%%:*}" "$name"
  done
  for spec in null:1:3 zero:1:5 full:1:7 random:1:8 urandom:1:9 tty:5:0; do
    IFS=: read -r name major minor <<<"$spec"
    [ -c "/dev/$name" ] && continue
    rm -f "/dev/$name"
    mknod -m 666 "/dev/$name" c "$major" "$minor" &&
      echo "distro-check: made /dev/$name again" ||
      echo "distro-check: /dev/$name is missing and cannot be made here"
  done
}

# ---------------------------------------------------------------- inside --
# Runs in the chroot, from a copy of the project.
inside() {
  local mode=$1 plugin
  cd "$2"
  export DEBIAN_FRONTEND=noninteractive
  step() {
    local name=$1 t0=$SECONDS rc=0
    shift
    echo "::step $name"
    "$@" || rc=$?
    echo "::done $name $((SECONDS - t0)) $rc"
    return $rc
  }
  case $mode in
    full)
      local args=()
      [ -x /usr/local/cuda/bin/nvcc ] && args=(-Dsm_archs=90 -Dptx_arch=)
      step setup ./cudafilter-dev setup
      step configure meson setup build "${args[@]}"
      step build ninja -C build
      # A failing test still lets install and inspect say how they fare.
      step test meson test -C build --print-errorlogs || failed=1
      step install meson install -C build
      plugin=$(pkg-config --variable=pluginsdir gstreamer-1.0)/libgstcudafilter.so
      step inspect env -i PATH=/usr/bin:/bin HOME=/tmp \
        gst-inspect-1.0 cudafilter
      step loader check_loader "$plugin"
      return "${failed:-0}"
      ;;
    gpu-bundle)
      step setup ./cudafilter-dev setup
      step plugins apt-get install -y -q --no-install-recommends \
        gstreamer1.0-plugins-bad
      step configure meson setup "build-gpu" -Dsm_archs=90 -Dptx_arch=
      step build ninja -C build-gpu
      ;;
    debian-cuda)
      step setup ./cudafilter-dev setup
      step toolkit apt-get install -y -q --no-install-recommends \
        nvidia-cuda-toolkit
      step configure meson setup build
      step build ninja -C build
      ;;
    *) echo "unknown mode $mode" >&2; return 2 ;;
  esac
}

# The installed plugin names no toolkit library, nor FFTW (both are opened
# at run time), and has no RUNPATH.
check_loader() {
  local bad
  ldd "$1"
  bad=$(ldd "$1" |
    grep -E 'libcufft|libcudart|/usr/local/cuda|nvidia-cuda|libfftw3' || true)
  [ -z "$bad" ] || { echo "run-time libraries linked in $1: $bad"; return 1; }
  ! readelf -d "$1" | grep -E 'RPATH|RUNPATH' ||
    { echo "$1 has a RUNPATH"; return 1; }
}

# ------------------------------------------------------------------ host --
# One function, read whole before it runs: editing this file during a run
# cannot change what the run does.
host_main() {
  SUITE=${1:?usage: distro-check.sh SUITE [full|debian-cuda|gpu-bundle]}
  MODE=${2:-full}
  case $MODE in full|debian-cuda|gpu-bundle) ;;
    *) echo "unknown mode $MODE" >&2; exit 2 ;;
  esac
  SRC_IN=/src/cudafilter
  [ "$MODE" != gpu-bundle ] || SRC_IN=$ROOT
  [ "$(id -u)" = 0 ] || { echo "distro-check: needs root (chroot)" >&2; exit 1; }

  CACHE=${CF_CHROOT_CACHE:-/var/cache/cudafilter-ci}
  NAME="Debian $SUITE ($MODE)"
  mkdir -p "$CACHE/logs"
  LOG=$CACHE/logs/$SUITE-$MODE.log
  BASE=$CACHE/$SUITE-base
  WORK=$CACHE/$SUITE-$MODE-root
  DEBS=$CACHE/$SUITE-debs
  : >"$LOG"

  host_mirror() {
    local m
    m=$(sed -n 's/^URIs: *\(\S*debian\)\/\?$/\1/p' /etc/apt/sources.list.d/*.sources \
        2>/dev/null | head -n 1)
    [ -n "$m" ] || m=$(sed -n 's/^deb \(\[[^]]*\] \)\?\(\S*\/debian\)\/\? .*/\2/p' \
        /etc/apt/sources.list 2>/dev/null | head -n 1)
    echo "${m:-http://deb.debian.org/debian}"
  }
  MIRROR=${CF_MIRROR:-$(host_mirror)}

  fail() {
    echo "---- end of $LOG"
    tail -n 40 "$LOG"
    echo "distro-check: $NAME FAILED at $1 (log: $LOG)"
    exit 1
  }
  remove_root() {
    remove_tree "$1" || fail "removing $1 (something is still mounted in it)"
  }

  mounts=()
  cleanup() {
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
      umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" || true
    done
  }
  trap cleanup EXIT
  # A signal ends the run through exit, so the mounts come down with it.
  trap 'exit 130' INT TERM HUP

  bind() {
    mkdir -p "$2"
    mount --bind "$1" "$2"
    mounts+=("$2")
    [ "${3:-}" != ro ] || mount -o remount,bind,ro "$2"
  }

  exec 9>"$CACHE/$SUITE-$MODE.lock"
  flock 9

  t_all=$SECONDS
  echo "distro-check: $NAME, mirror $MIRROR"

  # The bare system, made once per suite.
  if [ ! -x "$BASE/bin/bash" ]; then
    t0=$SECONDS
    command -v debootstrap >/dev/null 2>&1 || {
      { apt-get update -q && apt-get install -y -q --no-install-recommends \
          debootstrap; } >>"$LOG" 2>&1 || fail "installing debootstrap"
    }
    rm -rf "$BASE.tmp"
    debootstrap --variant=minbase "$SUITE" "$BASE.tmp" "$MIRROR" >>"$LOG" 2>&1 ||
      fail debootstrap
    mv "$BASE.tmp" "$BASE"
    echo "  debootstrap $((SECONDS - t0)) s"
  fi

  # A fresh copy for this run: nothing left from the previous one.
  t0=$SECONDS
  remove_root "$WORK"
  cp -a "$BASE" "$WORK"
  components=main
  [ "$MODE" = full ] || components="main contrib non-free"
  echo "deb $MIRROR $SUITE $components" >"$WORK/etc/apt/sources.list"
  # A snapshot's Release may be past its Valid-Until (sid's is a week).
  echo 'Acquire::Check-Valid-Until "false";' >"$WORK/etc/apt/apt.conf.d/90distro-check"
  cp /etc/resolv.conf "$WORK/etc/resolv.conf" 2>/dev/null || true
  mkdir -p "$DEBS" "$WORK$SRC_IN"
  # The project as the working tree has it (tracked and new files, no builds).
  (cd "$ROOT" && git ls-files -z -co --exclude-standard |
    xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
    tar --null -T - -cf -) | tar -xf - -C "$WORK$SRC_IN"
  mount -t proc proc "$WORK/proc"
  mounts+=("$WORK/proc")
  bind /dev "$WORK/dev"
  bind "$DEBS" "$WORK/var/cache/apt/archives"
  if [ "$MODE" != debian-cuda ]; then
    cuda=${CF_DISTRO_CUDA:-/usr/local/cuda}
    if [ -x "$cuda/bin/nvcc" ]; then
      bind "$(readlink -f "$cuda")" "$WORK/usr/local/cuda" ro
      echo "  CUDA toolkit from the host: $(readlink -f "$cuda")"
    else
      echo "  no CUDA toolkit at $cuda: CPU backend only"
    fi
  fi
  echo "  fresh root $((SECONDS - t0)) s"

  # Steps report themselves as ::step NAME / ::done NAME SECONDS.  The
  # loop is the pipeline's last part and runs in this shell (lastpipe), so
  # what it reads stays; no process substitution, which needs /dev/fd.
  current=chroot
  status=1
  failed_steps=()
  shopt -s lastpipe
  { chroot "$WORK" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
      PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      /bin/bash "$SRC_IN/tools/distro-check.sh" --inside "$MODE" "$SRC_IN" \
      2>&1 && echo "::exit 0" || echo "::exit $?"; } | tee -a "$LOG" |
  while IFS= read -r line; do
    case $line in
      "::step "*) current=${line#::step } ;;
      "::done "*)
        set -- ${line#::done }
        printf '  %-10s %4d s%s\n' "$1" "$2" \
          "$([ "${3:-0}" = 0 ] || echo "  FAILED ($3)")"
        [ "${3:-0}" = 0 ] || failed_steps+=("$1")
        ;;
      "::exit "*) status=${line#::exit } ;;
    esac
  done
  [ "$status" = 0 ] || fail "${failed_steps[*]:-$current}"

  if [ "$MODE" = gpu-bundle ]; then
    # Only what runs: programs, the plugin, cf-filter-raw, meson-info.
    t0=$SECONDS
    out=$ROOT/build-$SUITE
    rm -rf "$out"
    (cd "$WORK$SRC_IN/build-gpu" && find . -name '*.p' -prune -o -type f \
      ! -name '*.a' ! -name '*.o' ! -name '*.ninja' ! -name '.ninja_*' -print0 |
      tar --null -T - -cf -) | (mkdir -p "$out" && tar -xf - -C "$out")
    runtime=${CF_RUNTIME_SCRIPT:-$ROOT/../shared/gpu/runtime-from-chroot.sh}
    [ -x "$runtime" ] || runtime=/work/shared/gpu/runtime-from-chroot.sh
    # .gpuMN after the chroot's GStreamer 1.M.N (.gpu126 for 1.26).
    gst=$(chroot "$WORK" gst-inspect-1.0 --version |
      sed -n 's/.*version 1\.\([0-9]*\)\..*/1\1/p' | head -n 1)
    rt=$ROOT/.gpu$gst
    # What the GPU suite runs: the pipelines' elements, the decoder case's
    # demuxer and parsers, and the leaks tracer (coretracers).
    "$runtime" "$WORK" "$rt" nvcodec coreelements coretracers videotestsrc \
      app videoconvertscale imagefreeze rawparse debug png videofilter \
      isomp4 videoparsersbad matroska >>"$LOG" 2>&1 ||
      fail "collecting the runtime"
    # The libraries the build's own programs need beyond the tools and
    # plugins (libgstcontroller for the element tests, say), as the
    # chroot's loader resolves them; glibc stays the host's.
    for lib in $( (cd "$WORK" && find ".$SRC_IN/build-gpu" -name '*.p' \
        -prune -o -type f -perm -u+x -print) | sed 's/^\.//' |
        while read -r prog; do chroot "$WORK" ldd "$prog" 2>/dev/null; done |
        awk '/=> \//{print $3}' | sort -u |
        grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*)\.so'); do
      [ -e "$rt/lib/$(basename "$lib")" ] ||
        cp -L "$WORK$lib" "$rt/lib/$(basename "$lib")"
    done
    tail -n 1 "$LOG"
    # Every program holds the same kernels: compressed together they are
    # small enough to carry.
    tar -C "$ROOT" -cf - "build-$SUITE" |
      xz -T2 --lzma2=preset=6,dict=64MiB >"$out.tar.xz"
    echo "  bundle $((SECONDS - t0)) s: $(du -sh "$out" | cut -f1) in $out" \
      "($(du -sh "$out.tar.xz" | cut -f1) as $out.tar.xz)," \
      "$(du -sh "$rt" | cut -f1) in $rt"
  fi

  cleanup
  mounts=()
  remove_root "$WORK"
  echo "distro-check: $NAME OK in $((SECONDS - t_all)) s"
}

if [ "${1:-}" = --inside ]; then
  inside "$2" "$3"
elif [ "${1:-}" = --self-test ]; then
  self_test
elif [ "${1:-}" = --repair-dev ]; then
  repair_dev
else
  # exit here: nothing after this line is read, even if the file changed.
  host_main "$@"; exit
fi

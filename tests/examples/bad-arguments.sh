#!/bin/sh
# cudafilter
# Copyright (C) 2026 The cudafilter authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The examples refuse bad arguments with a message and a
# non-zero status, and never hang on them.
#
#   bad-arguments.sh EMBED_APPSRC TRANSCODE_SH
#
# Each case runs under a time limit (a hang fails the case) and must exit
# with a status other than 0, must not be killed, and must print on stderr
# the words that tell the user what to change.
set -u

EMBED=$1
TRANSCODE=$2
LIMIT=${LIMIT:-60}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failed=0

# expect NAME WORDS COMMAND...: COMMAND fails, saying WORDS.
expect () {
  name=$1 words=$2
  shift 2
  rm -f "$WORK"/out.*
  timeout "$LIMIT" "$@" >"$WORK/out" 2>"$WORK/err" </dev/null
  rc=$?
  if [ $rc -eq 124 ]; then
    echo "FAIL $name: still running after ${LIMIT} s"; failed=1
  elif [ $rc -eq 0 ]; then
    echo "FAIL $name: exit 0, expected a refusal"; failed=1
  elif [ $rc -gt 128 ]; then
    echo "FAIL $name: exit $rc (killed by signal $((rc - 128))?)"; failed=1
  elif ! grep -qF -- "$words" "$WORK/err"; then
    echo "FAIL $name: stderr does not say '$words':"; sed 's/^/  | /' \
      "$WORK/err"; failed=1
  elif [ -e "$WORK/out.avi" ] || [ -e "$WORK/out.mp4" ]; then
    echo "FAIL $name: wrote an output file anyway"; failed=1
  else
    echo "ok   $name: exit $rc: $(head -n 1 "$WORK/err")"
  fi
}

expect "embed-appsrc: unknown backend" "Unknown backend 'cdua'" \
  "$EMBED" cdua
expect "embed-appsrc: unknown backend names the choices" "auto cuda cpu" \
  "$EMBED" gpu
expect "embed-appsrc: a property in the backend argument" "Unknown backend" \
  "$EMBED" "cpu filter=gaussian"
expect "embed-appsrc: two arguments" "usage:" "$EMBED" cpu extra

expect "transcode.sh: unknown container" "name the output .mp4, .webm or .mkv" \
  sh "$TRANSCODE" "" "$WORK/out.avi"
expect "transcode.sh: encoder the container cannot hold" \
  "ENCODER=jpegenc cannot write" \
  env ENCODER=jpegenc sh "$TRANSCODE" "" "$WORK/out.mp4"
expect "transcode.sh: missing input" "no such file" \
  sh "$TRANSCODE" "$WORK/missing.mp4" "$WORK/out.mkv"
expect "transcode.sh: three file names" "usage:" \
  sh "$TRANSCODE" a.mp4 b.mp4 c.mp4
expect "transcode.sh: bad cudafilter property" "cudafilter" \
  env FRAMES=5 sh "$TRANSCODE" "" "$WORK/out.mkv" -- sigma=banana
exit $failed

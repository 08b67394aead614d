#!/bin/sh
# cudafilter recipe: decode -> filter -> encode.
#
#   examples/transcode.sh [INPUT [OUTPUT]] [-- cudafilter properties...]
#
#   examples/transcode.sh holiday.mp4 sharp.mp4 -- @preset=sharpen
#   examples/transcode.sh in.mkv edges.mkv -- filter=sobel planes=luma
#
# Without INPUT a 2-second test clip is made first.  The encoder is the
# first one installed, with its decoder, of x264enc (MP4), vp8enc (WebM),
# openh264enc (MP4) and jpegenc (Matroska) (set ENCODER to one of those
# names to choose); the container follows it, not OUTPUT's name, and
# OUTPUT defaults to filtered.mp4/.webm/.mkv.  At the end the output is
# decoded again and its frames are counted: as many as went in, or the
# script fails.
#
# Set GST_PLUGIN_PATH to the build's gst/ folder to use cudafilter
# uninstalled.
set -eu

INPUT=""
OUTPUT=""
N=0
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  N=$((N + 1))
  case $N in
    1) INPUT=$1 ;;              # may be "" to make a test clip
    2) OUTPUT=$1 ;;
    *) echo "usage: $0 [INPUT [OUTPUT]] [-- cudafilter properties...]" >&2
      exit 2 ;;
  esac
  shift
done
[ "${1:-}" = "--" ] && shift
PROPS=${*:-@preset=sharpen}
FRAMES=${FRAMES:-60}

# (not --exists: it also compares the plugin version with GStreamer's)
have () { gst-inspect-1.0 "$1" >/dev/null 2>&1; }

have cudafilter || {
  echo "cudafilter not found: set GST_PLUGIN_PATH to the folder holding" \
    "libgstcudafilter.so" >&2; exit 1; }

# An encoder is only useful here with a decoder for what it makes (the
# input is decoded, and so is the output to count its frames).
can_decode () {
  case $1 in
    x264enc|openh264enc) have avdec_h264 || have openh264dec ;;
    vp8enc) have vp8dec ;;
    jpegenc) have jpegdec ;;
    *) return 1 ;;
  esac
}

if [ -z "${ENCODER:-}" ]; then
  for e in x264enc vp8enc openh264enc jpegenc; do
    if have $e && can_decode $e; then ENCODER=$e; break; fi
  done
fi
case "${ENCODER:-}" in
  x264enc) ENC="x264enc speed-preset=veryfast ! h264parse ! mp4mux"; EXT=mp4 ;;
  openh264enc) ENC="openh264enc ! h264parse ! mp4mux"; EXT=mp4 ;;
  vp8enc) ENC="vp8enc deadline=1 ! webmmux"; EXT=webm ;;
  jpegenc) ENC="jpegenc ! matroskamux"; EXT=mkv ;;
  *) echo "no encoder found (x264enc, openh264enc, vp8enc or jpegenc)" >&2
    exit 1 ;;
esac

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
if [ -z "$INPUT" ]; then
  INPUT=$WORK/input.$EXT
  echo "Making a test clip: $INPUT ($FRAMES frames, $ENCODER)"
  gst-launch-1.0 -q videotestsrc num-buffers="$FRAMES" pattern=smpte ! \
    video/x-raw,width=640,height=360,framerate=30/1 ! $ENC ! \
    filesink location="$INPUT"
fi
OUTPUT=${OUTPUT:-filtered.$EXT}
case $OUTPUT in
  *.$EXT) ;;
  *) echo "Note: $OUTPUT will be a .$EXT file ($ENCODER), whatever its name;" \
      "set ENCODER to choose the encoder" >&2 ;;
esac

# Counts the decoded frames of a file (fakesink reports each buffer).
count_frames () {
  gst-launch-1.0 -v filesrc location="$1" ! decodebin ! \
    fakesink silent=false 2>&1 | grep -c "last-message = chain" || true
}

echo "Filtering: $INPUT -> $OUTPUT (cudafilter $PROPS)"
set -x
gst-launch-1.0 filesrc location="$INPUT" ! decodebin ! videoconvert ! \
  cudafilter $PROPS ! videoconvert ! $ENC ! filesink location="$OUTPUT"
{ set +x; } 2>/dev/null

IN_FRAMES=$(count_frames "$INPUT")
OUT_FRAMES=$(count_frames "$OUTPUT")
echo "$IN_FRAMES frames in, $OUT_FRAMES frames out"
[ "$IN_FRAMES" -gt 0 ] && [ "$IN_FRAMES" = "$OUT_FRAMES" ]

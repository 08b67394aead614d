#!/bin/sh
# cudafilter recipe: decode -> filter -> encode.
#
#   examples/transcode.sh [INPUT [OUTPUT]] [-- cudafilter properties...]
#
#   examples/transcode.sh holiday.mp4 sharp.mp4 -- @preset=sharpen
#   examples/transcode.sh in.mkv edges.mkv -- filter=sobel planes=luma
#
# Without INPUT a 2-second test clip is made first.  The container is the
# one OUTPUT's name says: .mp4 (H.264: x264enc or openh264enc), .webm (VP8:
# vp8enc) or .mkv (any of x264enc, vp8enc, openh264enc, jpegenc); the
# encoder is the first of those installed with its decoder (set ENCODER to
# choose).  A name with another ending, or a container none of whose
# encoders is installed, is refused with the reason.  Without OUTPUT it is
# filtered.mp4, .webm or .mkv, after the first encoder found.  At the end
# the output is decoded again and its frames are counted: as many as went
# in, or the script fails.
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
if [ -n "$INPUT" ] && [ ! -r "$INPUT" ]; then
  echo "$INPUT: no such file (or not readable)" >&2
  exit 1
fi
FRAMES=${FRAMES:-60}

# (not --exists: it also compares the plugin version with GStreamer's)
have () { gst-inspect-1.0 "$1" >/dev/null 2>&1; }

have cudafilter || {
  echo "cudafilter not found: set GST_PLUGIN_PATH to the folder holding" \
    "libgstcudafilter.so" >&2; exit 1; }

# An encoder is only useful here with a decoder for what it makes (the
# input is decoded, and so is the output to count its frames), and H.264
# with h264parse (gstreamer1.0-plugins-bad) between encoder and muxer.
can_decode () {
  case $1 in
    x264enc|openh264enc) have h264parse && { have avdec_h264 || have openh264dec; } ;;
    vp8enc) have vp8dec ;;
    jpegenc) have jpegdec ;;
    *) return 1 ;;
  esac
}

# The encoders each container takes, in order of preference.
case $OUTPUT in
  "") ENCODERS="x264enc vp8enc openh264enc jpegenc" ;;
  *.mp4) ENCODERS="x264enc openh264enc" ;;
  *.webm) ENCODERS="vp8enc" ;;
  *.mkv) ENCODERS="x264enc vp8enc openh264enc jpegenc" ;;
  *) echo "$OUTPUT: name the output .mp4, .webm or .mkv; the name chooses" \
      "the container" >&2
    exit 2 ;;
esac
if [ -n "${ENCODER:-}" ]; then
  case " $ENCODERS " in
    *" $ENCODER "*) ;;
    *) echo "ENCODER=$ENCODER cannot write ${OUTPUT:-the output}; use one" \
        "of: $ENCODERS" >&2
      exit 2 ;;
  esac
  ENCODERS=$ENCODER
fi
ENCODER=""
for e in $ENCODERS; do
  if have $e && can_decode $e; then ENCODER=$e; break; fi
done
if [ -z "$ENCODER" ]; then
  echo "cannot write ${OUTPUT:-a video}: none of $ENCODERS is installed" \
    "with its decoder (x264enc is in gstreamer1.0-plugins-ugly, vp8enc and" \
    "jpegenc in gstreamer1.0-plugins-good, the decoder avdec_h264 in" \
    "gstreamer1.0-libav, h264parse in gstreamer1.0-plugins-bad); or name" \
    "the output .mkv, which any of them can write" >&2
  exit 1
fi
case $ENCODER in
  x264enc) ENC="x264enc speed-preset=veryfast ! h264parse" ;;
  openh264enc) ENC="openh264enc ! h264parse" ;;
  vp8enc) ENC="vp8enc deadline=1" ;;
  jpegenc) ENC="jpegenc" ;;
esac
case ${OUTPUT:-} in
  *.mp4) EXT=mp4 ;;
  *.webm) EXT=webm ;;
  *.mkv) EXT=mkv ;;
  *) case $ENCODER in
      x264enc|openh264enc) EXT=mp4 ;;
      vp8enc) EXT=webm ;;
      *) EXT=mkv ;;
    esac ;;
esac
case $EXT in
  mp4) MUX=mp4mux ;;
  webm) MUX=webmmux ;;
  mkv) MUX=matroskamux ;;
esac

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
if [ -z "$INPUT" ]; then
  INPUT=$WORK/input.$EXT
  echo "Making a test clip: $INPUT ($FRAMES frames, $ENCODER, $MUX)"
  gst-launch-1.0 -q videotestsrc num-buffers="$FRAMES" pattern=smpte ! \
    video/x-raw,width=640,height=360,framerate=30/1 ! $ENC ! $MUX ! \
    filesink location="$INPUT"
fi
OUTPUT=${OUTPUT:-filtered.$EXT}

# Counts the decoded frames of a file (fakesink reports each buffer).
count_frames () {
  gst-launch-1.0 -v filesrc location="$1" ! decodebin ! \
    fakesink silent=false 2>&1 | grep -c "last-message = chain" || true
}

echo "Filtering: $INPUT -> $OUTPUT (cudafilter $PROPS; $ENCODER, $MUX)"
set -x
gst-launch-1.0 filesrc location="$INPUT" ! decodebin ! videoconvert ! \
  cudafilter $PROPS ! videoconvert ! $ENC ! $MUX ! filesink location="$OUTPUT"
{ set +x; } 2>/dev/null

IN_FRAMES=$(count_frames "$INPUT")
OUT_FRAMES=$(count_frames "$OUTPUT")
echo "$IN_FRAMES frames in, $OUT_FRAMES frames out"
[ "$IN_FRAMES" -gt 0 ] && [ "$IN_FRAMES" = "$OUT_FRAMES" ]

#!/bin/sh
# cudafilter recipe: blur or pixelate the faces in a picture or a video
# (privacy redaction), with OpenCV's face detector (Debian:
# gstreamer1.0-opencv for facedetect, opencv-data for its Haar cascades).
#
#   examples/blur-faces.sh IN OUT [blur|pixelate|background] [props...]
#   examples/blur-faces.sh photo.png blurred.png
#   examples/blur-faces.sh talk.mp4 redacted.mkv pixelate block-size=16
#   examples/blur-faces.sh photo.jpg portrait.png background
#
# A picture out (.png, .jpg) for a picture in; anything else is written as
# H.264 in Matroska (x264enc, gstreamer1.0-plugins-ugly).  facedetect
# attaches a GstVideoRegionOfInterestMeta of type "face" to each frame for
# every face it finds; cudafilter roi-types=face filters only those
# rectangles (roi-padding grows them), or with region-mode=outside
# everything but them.  A frame without a face passes through untouched.
# -m prints facedetect's messages: the faces it found, frame by frame.
set -eu

if [ $# -lt 2 ]; then
  sed -n '2,16p' "$0" >&2
  exit 2
fi
IN=$1
OUT=$2
MODE=${3:-blur}
[ $# -ge 3 ] && shift 3 || shift 2

case $MODE in
  blur) FILTER="filter=gaussian sigma=8 roi-padding=6" ;;
  pixelate) FILTER="filter=pixelate block-size=12 roi-padding=6" ;;
  background) FILTER="filter=gaussian sigma=10 roi-padding=24 region-mode=outside" ;;
  *) echo "blur-faces.sh: mode '$MODE': use blur, pixelate or background" >&2
     exit 2 ;;
esac

if ! gst-inspect-1.0 facedetect >/dev/null 2>&1; then
  echo "blur-faces.sh: no facedetect element: install gstreamer1.0-opencv" \
    "and opencv-data" >&2
  exit 3
fi

case $OUT in
  *.png) SINK="videoconvert ! pngenc ! filesink location=$OUT" ;;
  *.jpg|*.jpeg) SINK="videoconvert ! jpegenc quality=95 ! filesink location=$OUT" ;;
  *) SINK="videoconvert ! x264enc ! matroskamux ! filesink location=$OUT" ;;
esac

# RGB through the detector and the filter: no conversion between them.
# shellcheck disable=SC2086
exec gst-launch-1.0 -m filesrc location="$IN" ! decodebin ! videoconvert ! \
  video/x-raw,format=RGB ! facedetect display=false ! \
  cudafilter roi-types=face $FILTER "$@" ! $SINK

#!/bin/sh
# cudafilter recipe: a live camera, filtered and shown with low latency.
#
#   examples/webcam.sh [cudafilter properties...]
#   examples/webcam.sh @preset=edges
#   DEVICE=/dev/video2 examples/webcam.sh filter=gaussian sigma=3
#   MJPEG=1 examples/webcam.sh          # cameras that give 720p only as MJPEG
#   CONVERT=1 examples/webcam.sh        # cameras in a format cudafilter
#                                       # does not take: videoconvert first
#   examples/webcam.sh --test           # no camera or display: a live test
#                                       # source giving YUY2 as a camera
#                                       # does, and fakesink, 90 frames
#
# cudafilter takes what webcams give (YUY2 first, UYVY, NV12, I420, MJPEG
# decoded to I420) as it comes: no videoconvert before it, so no extra pass
# over every frame on the CPU.
# What keeps the latency low:
#   - frames-in-flight=1: each frame leaves the filter before the next one
#     enters (also what frames-in-flight=0, the default, picks for a live
#     source; set it anyway to make the intent plain);
#   - queue max-size-buffers=1 leaky=downstream: when the filter or display
#     falls behind, the oldest waiting frame is dropped instead of latency
#     piling up;
#   - sync=false on the sink: a frame is shown as soon as it is filtered
#     rather than held for its timestamp (use sync=true for even pacing).
# post-stats=true with -m prints the filter's time per frame on the bus:
# it must stay below the frame interval (33333 us at 30 fps).
set -eu

DEVICE=${DEVICE:-/dev/video0}
SIZE=${SIZE:-width=1280,height=720}
TEST=0
if [ "${1:-}" = "--test" ]; then TEST=1; shift; fi
PROPS=${*:-@preset=edges}

if [ $TEST = 1 ]; then
  SOURCE="videotestsrc is-live=true num-buffers=90 pattern=ball ! video/x-raw,format=YUY2,$SIZE,framerate=30/1"
  SINK="fakesink sync=true"
elif [ "${MJPEG:-0}" = 1 ]; then
  # jpegdec gives I420, which cudafilter takes directly.
  SOURCE="v4l2src device=$DEVICE ! image/jpeg,$SIZE,framerate=30/1 ! jpegdec"
  SINK="autovideosink sync=false"
else
  SOURCE="v4l2src device=$DEVICE ! video/x-raw,$SIZE"
  SINK="autovideosink sync=false"
fi

CONVERT_IN=
if [ "${CONVERT:-0}" = 1 ]; then CONVERT_IN="videoconvert !"; fi

set -x
gst-launch-1.0 -m $SOURCE ! \
  queue max-size-buffers=1 max-size-bytes=0 max-size-time=0 leaky=downstream ! \
  $CONVERT_IN cudafilter $PROPS frames-in-flight=1 post-stats=true ! \
  videoconvert ! $SINK

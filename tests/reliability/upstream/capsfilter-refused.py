#!/usr/bin/env python3
# cudafilter
# Copyright (C) 2026 The cudafilter authors
# SPDX-License-Identifier: LGPL-2.1-or-later
"""GStreamer's elements only: frames lost when downstream caps change.

appsrc ! TRANSFORM ! capsfilter ! appsink, FRAMES GRAY8 frames pushed while
another thread sets the capsfilter's caps to a random RGBA, BGRA, ARGB or
I420 every 0-2 ms (as the fuzzer's `reconfigure` class does behind
cudafilter). Counts the frames that reach the sink; exit status 1 when
fewer than were pushed came out, with EOS and no error.

    tests/reliability/upstream/capsfilter-refused.py [SEED] [FRAMES]
        [TRANSFORM]

What it shows (docs/reliability.md, "the reconfigure class"): a buffer that
the transform pushes just as the capsfilter's caps change is refused with
not-negotiated; basesrc then renegotiates ("Retrying to renegotiate" in
GST_DEBUG=basesrc:5, once per lost frame) and the refused buffer is gone.
No cudafilter in the pipeline.
"""
import random
import sys
import threading
import time

import gi

gi.require_version('Gst', '1.0')
gi.require_version('GstApp', '1.0')
# GstApp gives appsrc its push_buffer and end_of_stream methods
from gi.repository import Gst, GstApp  # noqa: E402,F401

Gst.init(None)
seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
frames = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
transform = sys.argv[3] if len(sys.argv) > 3 else 'videoconvert'
rnd = random.Random(seed)
pipe = Gst.parse_launch(
    'appsrc name=src format=time block=true max-buffers=4 ! %s ! '
    'capsfilter name=cf caps=video/x-raw,format=RGBA ! '
    'appsink name=sink sync=false emit-signals=true' % transform)
src, cf, sink = (pipe.get_by_name(n) for n in ('src', 'cf', 'sink'))
out = []
stop = threading.Event()


def on_sample(appsink):
    out.append(appsink.emit('pull-sample').get_buffer().pts)
    return Gst.FlowReturn.OK


def change_caps():
    while not stop.is_set():
        cf.set_property('caps', Gst.Caps.from_string(
            'video/x-raw,format=%s' % rnd.choice(['RGBA', 'BGRA', 'ARGB',
                                                  'I420'])))
        time.sleep(rnd.random() * 0.002)


sink.connect('new-sample', on_sample)
src.set_property('caps', Gst.Caps.from_string(
    'video/x-raw,format=GRAY8,width=64,height=48,framerate=30/1'))
pipe.set_state(Gst.State.PLAYING)
threading.Thread(target=change_caps, daemon=True).start()
for i in range(frames):
    buf = Gst.Buffer.new_wrapped(bytes(64 * 48))
    buf.pts, buf.duration = i * 33333333, 33333333
    src.push_buffer(buf)
stop.set()
src.end_of_stream()
msg = pipe.get_bus().timed_pop_filtered(
    20 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
end = 'nothing in 20 s' if msg is None else (
    'EOS' if msg.type == Gst.MessageType.EOS else
    'ERROR %s' % msg.parse_error()[0].message)
pipe.set_state(Gst.State.NULL)
print('%s, %s: %d frames pushed, %d out, then %s' % (
    Gst.version_string(), transform, frames, len(out), end))
sys.exit(0 if len(out) == frames else 1)

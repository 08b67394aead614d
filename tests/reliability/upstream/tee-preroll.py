#!/usr/bin/env python3
# cudafilter
# Copyright (C) 2026 The cudafilter authors
# SPDX-License-Identifier: LGPL-2.1-or-later
"""GStreamer's elements only: a pause that never completes behind a tee.

appsrc ! tee ! (queue ! TRANSFORM ! fakesink async=true) x BRANCHES, frames
pushed from a thread (caps changing now and then, as the fuzzer's pipeline
episodes do), the pipeline switched between PAUSED and PLAYING at random.
A change to PAUSED that does not complete within 5 s is reported with every
thread's stack (gdb, where installed) and exit status 1.

    tests/reliability/upstream/tee-preroll.py [SEED] [BRANCHES] [SECONDS]
        [TRANSFORM]

What it shows (docs/reliability.md, "the preroll class"): one branch's sink
prerolls and blocks, its queue fills, the tee blocks on it, and a branch
whose sink rendered its last frame while still PLAYING never gets one to
preroll on; no cudafilter in the pipeline.
"""
import os
import random
import sys
import threading
import time

import gi

gi.require_version('Gst', '1.0')
gi.require_version('GstApp', '1.0')
from gi.repository import Gst, GstApp  # noqa: E402

Gst.init(None)
seed = int(sys.argv[1]) if len(sys.argv) > 1 else 7
branches = int(sys.argv[2]) if len(sys.argv) > 2 else 3
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 60
transform = sys.argv[4] if len(sys.argv) > 4 else \
    'videoscale ! video/x-raw,width=80,height=40'
rnd = random.Random(seed)
pipe = Gst.parse_launch('appsrc name=src format=time ! tee name=t ' + ' '.join(
    't. ! queue ! %s ! fakesink async=true sync=false' % transform
    for _ in range(branches)))
src = pipe.get_by_name('src')
stop = threading.Event()


def caps(width):
    return Gst.Caps.from_string('video/x-raw,format=GRAY8,width=%d,height=48,'
                                'framerate=30/1' % width)


def feed():
    width, pts = 64, 0
    src.set_property('caps', caps(width))
    while not stop.is_set():
        if rnd.random() < 0.2:
            width = rnd.choice([64, 96, 128])
            src.set_property('caps', caps(width))
        buf = Gst.Buffer.new_wrapped(bytes(width * 48))
        buf.pts, buf.duration = pts, 33333333
        pts += 33333333
        src.push_buffer(buf)
        time.sleep(0.001)


print(Gst.version_string())
pipe.set_state(Gst.State.PLAYING)
threading.Thread(target=feed, daemon=True).start()
start, changes = time.time(), 0
while time.time() - start < seconds:
    to = rnd.choice([Gst.State.PAUSED, Gst.State.PLAYING])
    pipe.set_state(to)
    ret, cur, _ = pipe.get_state(5 * Gst.SECOND)
    changes += 1
    if ret == Gst.StateChangeReturn.ASYNC:
        print('seed %d: the change to %s did not complete in 5 s (change %d, '
              'still %s)' % (seed, to.value_nick, changes, cur.value_nick))
        sys.stdout.flush()
        os.system("gdb -p %d -batch -ex 'thread apply all bt' 2>/dev/null"
                  % os.getpid())
        os._exit(1)
    time.sleep(rnd.random() * 0.01)
print('seed %d: %d state changes, each completed' % (seed, changes))
stop.set()
pipe.set_state(Gst.State.NULL)

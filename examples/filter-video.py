#!/usr/bin/python3
"""cudafilter example in Python (GObject introspection): filter a video
file and change the blur while it plays.

    ./filter-video.py [INPUT] [--output OUT.mkv] [--backend auto|cuda|cpu]

Without INPUT a short test clip is made first (videotestsrc, VP8 in WebM, or
raw video in Matroska when no VP8 encoder is installed).  The pipeline is

    filesrc ! decodebin ! videoconvert ! cudafilter ! videoconvert ! fakesink
                                                     (or an encoder and file)

sigma steps up every 10 frames from a pad probe, the way an application
reacts to its own events; the element rebuilds its weights for the next
frame.  post-stats reports per-frame timing on the bus.

Needs Debian's python3-gi, gir1.2-gstreamer-1.0 and
gir1.2-gst-plugins-base-1.0 (for /usr/bin/python3), and GST_PLUGIN_PATH set
to the folder holding libgstcudafilter.so.
"""
import argparse
import os
import sys
import tempfile

try:
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import GLib, Gst
except (ImportError, ValueError) as e:
    sys.exit("filter-video.py needs PyGObject and the GStreamer typelibs: "
             "apt install python3-gi gir1.2-gstreamer-1.0 "
             "gir1.2-gst-plugins-base-1.0 (%s)" % e)

SIGMAS = [1.0, 2.0, 4.0, 8.0]   # one step every 10 frames
STEP = 10


def run(pipeline, on_message=None):
    """Plays `pipeline` to the end; returns an error string or None."""
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    error = None
    while True:
        msg = bus.timed_pop_filtered(
            Gst.CLOCK_TIME_NONE,
            Gst.MessageType.EOS | Gst.MessageType.ERROR |
            Gst.MessageType.ELEMENT)
        if msg.type == Gst.MessageType.ERROR:
            err, debug = msg.parse_error()
            error = "%s (%s)" % (err.message, debug)
            break
        if msg.type == Gst.MessageType.EOS:
            break
        if on_message is not None:
            on_message(msg)
    pipeline.set_state(Gst.State.NULL)
    return error


def make_clip(path, frames):
    """A short test clip: VP8/WebM if possible, else raw video in Matroska."""
    if Gst.ElementFactory.find("vp8enc") and \
            Gst.ElementFactory.find("webmmux"):
        enc = "vp8enc deadline=1 ! webmmux"
    else:
        enc = "matroskamux"
    desc = ("videotestsrc num-buffers=%d pattern=smpte ! "
            "video/x-raw,width=320,height=240,framerate=30/1 ! %s ! "
            "filesink location=%s" % (frames, enc, path))
    return run(Gst.parse_launch(desc))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input", nargs="?", help="video file (default: a test "
                    "clip made on the fly)")
    ap.add_argument("--output", help="write the filtered video here "
                    "(Matroska, VP8 when available, else raw)")
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--frames", type=int, default=40,
                    help="length of the generated clip")
    args = ap.parse_args()

    Gst.init(None)
    if Gst.ElementFactory.find("cudafilter") is None:
        sys.exit("cudafilter not found: set GST_PLUGIN_PATH to the build's "
                 "gst/ folder (the one holding libgstcudafilter.so)")

    tmpdir = None
    src = args.input
    if src is None:
        tmpdir = tempfile.TemporaryDirectory()
        src = os.path.join(tmpdir.name, "clip.mkv")
        err = make_clip(src, args.frames)
        if err:
            sys.exit("could not make the test clip: " + err)

    if args.output:
        enc = ("vp8enc deadline=1 ! matroskamux" if
               Gst.ElementFactory.find("vp8enc") else "matroskamux")
        sink = "%s ! filesink location=%s" % (enc, args.output)
    else:
        sink = "fakesink"
    desc = ("filesrc location=%s ! decodebin ! videoconvert ! "
            "cudafilter name=f filter=gaussian backend=%s post-stats=true "
            "stats-interval=10 ! videoconvert ! %s" % (src, args.backend, sink))
    pipeline = Gst.parse_launch(desc)
    f = pipeline.get_by_name("f")
    f.set_property("sigma", SIGMAS[0])

    frames = 0
    sigmas_seen = []

    def on_buffer(pad, info):
        # Runs in the streaming thread for every frame entering the filter.
        nonlocal frames
        step = min(frames // STEP, len(SIGMAS) - 1)
        if f.get_property("sigma") != SIGMAS[step]:
            f.set_property("sigma", SIGMAS[step])
        frames += 1
        return Gst.PadProbeReturn.OK

    f.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, on_buffer)
    f.connect("notify::sigma",
              lambda obj, pspec: sigmas_seen.append(obj.get_property("sigma")))

    stats = []

    def on_message(msg):
        s = msg.get_structure()
        if s is not None and s.get_name() == "cudafilter-stats":
            stats.append(s)
            print("  %3d frames on %s: %.0f us filtering, %.0f us per frame"
                  % (s.get_value("frames"), s.get_value("backend"),
                     s.get_value("mean-kernel-us"),
                     s.get_value("mean-frame-us")))

    err = run(pipeline, on_message)
    if err:
        sys.exit("playback failed: " + err)

    processed = f.get_property("frames-processed")
    print("%d frames in, %d filtered; sigma went %s" %
          (frames, processed, " -> ".join("%g" % s for s in sigmas_seen)))

    # What this example promises: every frame filtered, sigma changed
    # while playing, and statistics arrived.
    expected_sigmas = SIGMAS[1:min(len(SIGMAS), (frames - 1) // STEP + 1)]
    ok = (frames > 0 and processed == frames
          and sigmas_seen == expected_sigmas
          and len(stats) == frames // 10)
    if not ok:
        sys.exit("unexpected result: %d frames, %d filtered, sigma changes "
                 "%s (expected %s), %d stats messages"
                 % (frames, processed, sigmas_seen, expected_sigmas,
                    len(stats)))
    if args.output:
        print("wrote", args.output)


if __name__ == "__main__":
    main()

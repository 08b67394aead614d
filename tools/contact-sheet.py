#!/usr/bin/python3
"""Renders what every cudafilter filter and border mode does to one test
picture, through the built element in gst-launch-1.0, into a labelled
contact sheet and one small PNG per filter.

    ./tools/contact-sheet.py [BUILD_DIR] [--out docs/images]

BUILD_DIR (default: build) holds gst/libgstcudafilter.so.  The element runs
with backend=auto: on the GPU when there is one, else on the CPU, with the
same output either way.  The test picture is drawn here (gradients, shapes,
text, fine stripes and a patch of noise) so the sheet needs no input file.
Needs /usr/bin/python3 with python3-opencv and python3-numpy.
"""
import argparse
import os
import subprocess
import sys
import tempfile

try:
    import cv2
    import numpy as np
except ImportError as e:
    sys.exit("contact-sheet.py needs python3-opencv and python3-numpy for "
             "/usr/bin/python3 (%s)" % e)

W, H = 320, 240
LABEL_H = 22
WRITTEN = []
PAD = 6

# (file name, label, cudafilter properties)
FILTERS = [
    ("gaussian", "gaussian sigma=2.5", "filter=gaussian sigma=2.5"),
    ("box", "box kernel-size=7", "filter=box kernel-size=7"),
    ("sobel", "sobel", "filter=sobel"),
    ("sobel-x", "sobel-x", "filter=sobel-x"),
    ("sobel-y", "sobel-y", "filter=sobel-y"),
    ("scharr", "scharr", "filter=scharr"),
    ("laplacian", "laplacian scale=2", "filter=laplacian scale=2"),
    ("sharpen", "sharpen sigma=2 amount=2", "filter=sharpen sigma=2 amount=2"),
    ("custom-emboss", "custom (emboss preset)", "@preset=emboss"),
    ("median", "median kernel-size=7", "filter=median kernel-size=7"),
    ("erode", "erode ellipse 5", "filter=erode shape=ellipse kernel-size=5"),
    ("dilate", "dilate ellipse 5",
     "filter=dilate shape=ellipse kernel-size=5"),
    ("open", "open rect 7", "filter=open kernel-size=7"),
    ("close", "close rect 7", "filter=close kernel-size=7"),
    ("gradient", "gradient cross 3", "filter=gradient shape=cross"),
    ("tophat", "tophat rect 9", "filter=tophat kernel-size=9"),
    ("blackhat", "blackhat rect 9", "filter=blackhat kernel-size=9"),
    ("bilateral", "bilateral d=9 sigma-color=40",
     "filter=bilateral kernel-size=9 sigma=3 sigma-color=40"),
]
# A wide blur shows how each border mode fills the 15 pixels it reaches
# beyond every edge of the frame.
BORDER_BLUR = "filter=box kernel-size=31"
BORDERS = ["reflect101", "replicate", "reflect", "wrap", "constant"]


def test_picture():
    """RGB test scene: every filter has something to act on."""
    y, x = np.mgrid[0:H, 0:W].astype(np.float32)
    img = np.zeros((H, W, 3), np.float32)
    img[..., 0] = 40 + 150 * x / W                 # red ramp left to right
    img[..., 1] = 60 + 120 * y / H                 # green ramp top to bottom
    img[..., 2] = 200 - 120 * (x + y) / (W + H)    # blue on the diagonal
    img = img.astype(np.uint8)
    # Coloured frame edges: border modes differ in what they copy from here.
    img[:10, :] = (230, 40, 40)
    img[-10:, :] = (40, 40, 230)
    img[:, :10] = (240, 220, 40)
    img[:, -10:] = (30, 200, 60)
    cv2.circle(img, (80, 90), 42, (250, 250, 250), -1)
    cv2.circle(img, (80, 90), 20, (20, 20, 20), -1)
    cv2.rectangle(img, (150, 40), (230, 110), (20, 20, 90), -1)
    pts = np.array([[250, 200], [300, 120], [300, 205]], np.int32)
    cv2.fillPoly(img, [pts], (255, 200, 0))
    for i in range(12):                            # fine stripes
        cv2.line(img, (150 + 6 * i, 130), (150 + 6 * i, 200), (0, 0, 0), 2)
    cv2.putText(img, "cudafilter", (22, 190), cv2.FONT_HERSHEY_SIMPLEX, 0.9,
                (255, 255, 255), 2, cv2.LINE_AA)
    rng = np.random.default_rng(7)                 # a patch of noise
    patch = img[140:175, 20:90].astype(np.int16)
    patch += rng.integers(-40, 41, patch.shape, dtype=np.int16)
    img[140:175, 20:90] = np.clip(patch, 0, 255).astype(np.uint8)
    return img


def run_filter(img, props, build, tmp):
    """Filters an RGB picture with cudafilter through gst-launch-1.0."""
    src = os.path.join(tmp, "in.rgb")
    dst = os.path.join(tmp, "out.rgb")
    img.tofile(src)
    if os.path.exists(dst):
        os.remove(dst)
    cmd = ["gst-launch-1.0", "-q", "filesrc", "location=" + src, "!",
           "rawvideoparse", "format=rgb", "width=%d" % W, "height=%d" % H,
           "framerate=1/1", "!", "cudafilter", "backend=auto"] + \
        props.split() + ["!", "filesink", "location=" + dst]
    env = dict(os.environ, GST_PLUGIN_PATH=os.path.join(build, "gst"))
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if r.returncode != 0 or not os.path.exists(dst):
        sys.exit("gst-launch-1.0 failed for '%s':\n%s%s" %
                 (props, r.stdout, r.stderr))
    out = np.fromfile(dst, np.uint8)
    if out.size != W * H * 3:
        sys.exit("'%s' gave %d bytes, expected %d" % (props, out.size,
                                                     W * H * 3))
    return out.reshape(H, W, 3)


def tile(img, label):
    """The picture under a label bar."""
    t = np.full((H + LABEL_H, W, 3), 255, np.uint8)
    t[LABEL_H:] = img
    cv2.putText(t, label, (4, LABEL_H - 7), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                (0, 0, 0), 1, cv2.LINE_AA)
    return t


def heading(text, width):
    h = np.full((30, width, 3), 255, np.uint8)
    cv2.putText(h, text, (PAD, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.65,
                (0, 0, 0), 2, cv2.LINE_AA)
    return h


def grid(tiles, cols):
    th, tw = tiles[0].shape[:2]
    rows = (len(tiles) + cols - 1) // cols
    g = np.full((rows * (th + PAD) + PAD, cols * (tw + PAD) + PAD, 3), 255,
                np.uint8)
    for i, t in enumerate(tiles):
        r, c = divmod(i, cols)
        y0, x0 = PAD + r * (th + PAD), PAD + c * (tw + PAD)
        g[y0:y0 + th, x0:x0 + tw] = t
    return g


def save_png(path, rgb):
    WRITTEN.append(path)
    cv2.imwrite(path, cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR),
                [cv2.IMWRITE_PNG_COMPRESSION, 9])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build", nargs="?", default="build",
                    help="build directory (holds gst/libgstcudafilter.so)")
    ap.add_argument("--out", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "docs", "images"))
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    if not os.path.exists(os.path.join(build, "gst")):
        sys.exit("%s has no gst/ folder: pass the build directory" % build)
    os.makedirs(args.out, exist_ok=True)

    img = test_picture()
    filter_tiles = [tile(img, "input")]
    border_tiles = []
    with tempfile.TemporaryDirectory() as tmp:
        save_png(os.path.join(args.out, "test-picture.png"), img)
        for name, label, props in FILTERS:
            out = run_filter(img, props, build, tmp)
            save_png(os.path.join(args.out, "filter-%s.png" % name), out)
            filter_tiles.append(tile(out, label))
            print("filter-%s.png  %s" % (name, props))
        for mode in BORDERS:
            props = "%s border=%s" % (BORDER_BLUR, mode)
            out = run_filter(img, props, build, tmp)
            save_png(os.path.join(args.out, "border-%s.png" % mode), out)
            border_tiles.append(tile(out, "border=" + mode))
            print("border-%s.png  %s" % (mode, props))

    cols = 5
    top = grid(filter_tiles, cols)
    bottom = grid(border_tiles, cols)
    sheet = np.vstack([
        heading("cudafilter: every filter (gst-launch-1.0 ... ! cudafilter "
                "PROPERTIES ! ...)", top.shape[1]), top,
        heading("border modes, with %s" % BORDER_BLUR, top.shape[1]),
        bottom])
    path = os.path.join(args.out, "contact-sheet.png")
    save_png(path, sheet)
    total = sum(os.path.getsize(f) for f in WRITTEN)
    print("%s (%dx%d); %d PNGs, %d kB, in %s" % (
        os.path.normpath(path), sheet.shape[1], sheet.shape[0],
        len(WRITTEN), total // 1024, os.path.normpath(args.out)))


if __name__ == "__main__":
    main()

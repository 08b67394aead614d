#!/usr/bin/python3
# cudafilter
# Copyright (C) 2026 The cudafilter authors
# SPDX-License-Identifier: LGPL-2.1-or-later
"""examples/blur-faces.sh on a public-domain portrait: facedetect finds the
face, and in every mode the output differs from the input inside the
(padded) face box only where the mode filters, and is the input, byte for
byte, everywhere it does not.  Skipped (77) without facedetect."""

import os
import re
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import cv2
except ImportError as exc:
    sys.stderr.write("FAIL: needs python3-numpy and python3-opencv (%s)\n"
                     % exc)
    sys.exit(1)

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "examples", "blur-faces.sh")
PICTURE = os.path.join(HERE, "..", "data", "astronaut-256.png")
PADDING = {"blur": 6, "pixelate": 6, "background": 24}  # as the script sets

FACE = re.compile(r'x\\=\\\(uint\\\)(\d+)\\,\\ y\\=\\\(uint\\\)(\d+)\\,\\ '
                  r'width\\=\\\(uint\\\)(\d+)\\,\\ height\\=\\\(uint\\\)(\d+)')


def main():
    if subprocess.run(["gst-inspect-1.0", "facedetect"],
                      capture_output=True).returncode != 0:
        print("SKIP: no facedetect element (Debian: gstreamer1.0-opencv, "
              "opencv-data)")
        return 77
    src = cv2.imread(PICTURE)
    h, w = src.shape[:2]
    failures = []
    with tempfile.TemporaryDirectory(prefix="cf-faces-") as tmp:
        for mode in ("blur", "pixelate", "background"):
            out_path = os.path.join(tmp, mode + ".png")
            proc = subprocess.run(["sh", SCRIPT, PICTURE, out_path, mode],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                failures.append("%s: exit %d: %s" % (
                    mode, proc.returncode, proc.stderr[-500:]))
                continue
            faces = [tuple(int(v) for v in m)
                     for m in FACE.findall(proc.stdout)]
            if not faces:
                failures.append("%s: facedetect found no face" % mode)
                continue
            out = cv2.imread(out_path)
            pad = PADDING[mode]
            box = np.zeros((h, w), dtype=bool)
            for x, y, fw, fh in faces:
                box[max(y - pad, 0):min(y + fh + pad, h),
                    max(x - pad, 0):min(x + fw + pad, w)] = True
            filtered = ~box if mode == "background" else box
            same = (out == src).all(axis=2)
            if not same[~filtered].all():
                ys, xs = np.nonzero(~same & ~filtered)
                failures.append("%s: %d pixels changed outside what is "
                                "filtered, first at (%d, %d)" % (
                                    mode, len(ys), xs[0], ys[0]))
            changed = (~same[filtered]).mean()
            if changed < 0.5:
                failures.append("%s: only %.0f%% of the filtered pixels "
                                "changed" % (mode, 100 * changed))
            print("%-10s faces %s: %.0f%% of the filtered area changed, "
                  "the rest untouched" % (mode, faces, 100 * changed))
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

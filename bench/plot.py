#!/usr/bin/python3
"""Plots cudafilter-bench output as a PNG bar chart: kernel throughput
(frames per second) per filter, format and size, with the device-to-device
copy of the same frame (the floor for any filter) marked on each bar.

    build/bench/cudafilter-bench ... | tee bench.txt
    bench/plot.py bench.txt bench.png

Reads the `csv,` lines; needs numpy and OpenCV (python3-numpy,
python3-opencv), which the test suite uses already.
"""
import sys

import cv2
import numpy as np


def read_cases(path):
    header, rows = None, []
    with open(path) as f:
        for line in f:
            if not line.startswith("csv,"):
                continue
            cells = line.strip().split(",")[1:]
            if cells[0] == "filter":  # a header (one per run)
                header = cells
                continue
            if header is None:
                continue
            rows.append(dict(zip(header, cells)))
    return rows


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = read_cases(sys.argv[1])
    if not rows:
        sys.exit("no csv lines from cudafilter-bench in " + sys.argv[1])

    bar, gap, left, top = 26, 8, 330, 50
    height = max(420, 14 * (len(rows) + 2))
    width = left + len(rows) * (bar + gap) + 40
    img = np.full((top + height + 40, max(width, 700), 3), 255, np.uint8)
    fps = [1e6 / float(r["kernel_us"]) for r in rows]
    floor = [1e6 / float(r["d2d_us"]) for r in rows]
    scale = height / max(max(fps), max(floor))
    font = cv2.FONT_HERSHEY_SIMPLEX

    cv2.putText(img, "cudafilter kernels: frames per second (bar) and the "
                "D2D copy floor (red line)", (10, 25), font, 0.55, (0, 0, 0),
                1, cv2.LINE_AA)
    base = top + height
    for i, (r, f, fl) in enumerate(zip(rows, fps, floor)):
        x = left + i * (bar + gap)
        cv2.rectangle(img, (x, base - int(f * scale)), (x + bar, base),
                      (180, 110, 40), -1)
        y = base - int(fl * scale)
        cv2.line(img, (x - 2, y), (x + bar + 2, y), (0, 0, 220), 2)
        label = "%s %s %sx%s %sx%s" % (r["filter"], r["format"], r["width"],
                                       r["height"], r["kw"], r["kh"])
        cv2.putText(img, "%.0f" % f, (x, base - int(f * scale) - 4), font,
                    0.3, (0, 0, 0), 1, cv2.LINE_AA)
        # Names go in a list at the left, numbered like the bars.
        cv2.putText(img, "%2d %s" % (i + 1, label), (8, top + 14 * (i + 1)),
                    font, 0.38, (0, 0, 0), 1, cv2.LINE_AA)
        cv2.putText(img, str(i + 1), (x + 4, base + 16), font, 0.38,
                    (0, 0, 0), 1, cv2.LINE_AA)
    cv2.line(img, (left - 6, base), (img.shape[1] - 10, base), (0, 0, 0), 1)
    if not cv2.imwrite(sys.argv[2], img):
        sys.exit("cannot write " + sys.argv[2])
    print("wrote %s (%d cases)" % (sys.argv[2], len(rows)))


if __name__ == "__main__":
    main()

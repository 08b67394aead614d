#!/usr/bin/python3
"""The OpenCV side of the CPU backend's comparison: the same operation and
border as a cudafilter pipeline, on `--frames` frames of noise.

  cpu_opencv.py --op gaussian-s2 --size 1920x1080 --format rgba \
      --frames 200 --threads 1

Its cudafilter counterpart (bench/cpu-vs-opencv.sh prints both):
  gst-launch-1.0 videotestsrc num-buffers=1 pattern=snow !
      video/x-raw,format=RGBA,width=1920,height=1080 !
      imagefreeze num-buffers=200 !
      cudafilter backend=cpu cpu-threads=1 filter=gaussian sigma=2 ! fakesink
"""
import argparse
import time

import cv2
import numpy as np

K3 = np.array([[0, -1, 0], [-1, 5, -1], [0, -1, 0]], np.float32)
K5 = np.array([[1, 4, 6, 4, 1], [4, 16, 24, 16, 4], [6, 24, 36, 24, 6],
               [4, 16, 24, 16, 4], [1, 4, 6, 4, 1]], np.float32) / 256.0


def sobel_magnitude(src, dst):
    gx = cv2.Sobel(src, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(src, cv2.CV_32F, 0, 1, ksize=3)
    return cv2.convertScaleAbs(cv2.magnitude(gx, gy), dst=dst)


OPS = {
    'gaussian-s1': lambda s, d: cv2.GaussianBlur(s, (0, 0), 1.0, dst=d),
    'gaussian-s2': lambda s, d: cv2.GaussianBlur(s, (0, 0), 2.0, dst=d),
    'box-3': lambda s, d: cv2.blur(s, (3, 3), dst=d),
    'box-7': lambda s, d: cv2.blur(s, (7, 7), dst=d),
    'sobel': sobel_magnitude,
    'laplacian': lambda s, d: cv2.convertScaleAbs(
        cv2.Laplacian(s, cv2.CV_16S, ksize=1), dst=d),
    'custom-3x3': lambda s, d: cv2.filter2D(s, -1, K3, dst=d),
    'custom-5x5': lambda s, d: cv2.filter2D(s, -1, K5, dst=d),
}


def morph(fn, k):
    """Erosion or dilation by a k x k rectangle, with cudafilter's default
    border (reflect101)."""
    se = np.ones((k, k), np.uint8)
    return lambda s, d: fn(s, se, dst=d, borderType=cv2.BORDER_REFLECT_101)


# The nonlinear filters as cudafilter-cpu-bench runs them (kernel-size k,
# bilateral: d 9, sigma 3, sigma-color 30); medianBlur has no border
# choice (replicate).
OPS.update({
    'median-3': lambda s, d: cv2.medianBlur(s, 3, dst=d),
    'median-5': lambda s, d: cv2.medianBlur(s, 5, dst=d),
    'median-7': lambda s, d: cv2.medianBlur(s, 7, dst=d),
    'erode-3': morph(cv2.erode, 3),
    'dilate-3': morph(cv2.dilate, 3),
    'erode-15': morph(cv2.erode, 15),
    'bilateral-9': lambda s, d: cv2.bilateralFilter(
        s, 9, 30, 3, dst=d, borderType=cv2.BORDER_REFLECT_101),
})


def dense(n):
    """A random n x n matrix normalised by its sum (dense: filter2D goes
    through its DFT from 11x11 on), as cudafilter-cpu-bench --kernel-size
    makes for custom."""
    k = np.random.default_rng(n).integers(-6, 10, (n, n)).astype(np.float32)
    k /= k.sum()
    return lambda s, d: cv2.filter2D(s, -1, k, dst=d)


for _n in (7, 15, 31, 63):
    OPS['custom-dense-%d' % _n] = dense(_n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--op', choices=sorted(OPS), required=True)
    ap.add_argument('--size', default='1920x1080')
    ap.add_argument('--format', choices=['rgba', 'rgb', 'gray8'],
                    default='rgba')
    ap.add_argument('--frames', type=int, default=100)
    ap.add_argument('--threads', type=int, default=1)
    a = ap.parse_args()
    cv2.setNumThreads(a.threads)
    w, h = (int(v) for v in a.size.split('x'))
    shape = {'rgba': (h, w, 4), 'rgb': (h, w, 3), 'gray8': (h, w)}[a.format]
    src = np.random.default_rng(1).integers(0, 256, shape, np.uint8)
    dst = np.empty_like(src)
    op = OPS[a.op]
    op(src, dst)
    op(src, dst)
    walls = []
    c0 = time.process_time()
    for _ in range(a.frames):
        t0 = time.perf_counter()
        op(src, dst)
        walls.append(time.perf_counter() - t0)
    cpu_ms = (time.process_time() - c0) * 1e3 / a.frames
    wall_ms = sorted(walls)[len(walls) // 2] * 1e3
    # Median wall ms per frame, and process CPU ms per frame (the steadier
    # figure on a shared machine), as cudafilter-cpu-bench prints them.
    print(f'csv,opencv,{a.op},{a.format},{a.size},{a.threads},'
          f'{wall_ms:.3f},{cpu_ms:.3f}')


if __name__ == '__main__':
    main()

#!/usr/bin/python3
"""The engine's output against independent references.

Every filter, with several parameter sets, every border mode, frame sizes
from 1x1 up, GRAY8, RGB, GRAY10 and GRAY16 (and on fewer cases RGBA, 12-bit,
MSB-aligned 10/12-bit as in P010/P012 and RGB10A2), on synthetic patterns and a photo-like
picture: cf-filter-raw (the engine on raw files) must agree with OpenCV's own
functions, as tabled in the README, or with SciPy where OpenCV refuses a border
mode (wrap).  Bad command lines must fail with a message naming the parameter.

Usage: test_reference.py [--tool PATH] [--backend cpu|cuda] [--quick]
       [--filter NAME]... [--verbose]
The tool defaults to $CF_FILTER_RAW.  Exits non-zero on any failure.
"""

import argparse
import ast
import math
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

try:
    import numpy as np
    import cv2
    from scipy import ndimage
except ImportError as exc:
    sys.stderr.write(
        "FAIL: the reference test needs NumPy, OpenCV and SciPy for %s "
        "(%s).\nOn Debian/Ubuntu: sudo apt-get install python3-numpy "
        "python3-opencv python3-scipy\n" % (sys.executable, exc))
    sys.exit(1)

BORDERS = ["reflect101", "replicate", "reflect", "wrap", "constant"]
CV_BORDER = {
    "reflect101": cv2.BORDER_REFLECT101,
    "replicate": cv2.BORDER_REPLICATE,
    "reflect": cv2.BORDER_REFLECT,
    "wrap": cv2.BORDER_WRAP,
    "constant": cv2.BORDER_CONSTANT,
}
# SciPy's names for the same borders; 'grid-wrap' is the true periodic wrap
# ('wrap' in SciPy is a legacy variant that differs at the edges).
SCIPY_MODE = {
    "reflect101": "mirror",
    "replicate": "nearest",
    "reflect": "reflect",
    "wrap": "grid-wrap",
    "constant": "constant",
}

# (width, height); 160x120 carries only the photo-like picture.
SIZES = [(1, 1), (1, 5), (5, 1), (3, 3), (17, 13), (64, 48), (160, 120)]

# name, depth, samples, filter mask (None = all), packing: None (values in
# the low bits of 8- or 16-bit words), "msb" (in the high bits of 16-bit
# words, low bits zero: P010, P012) or "rgb10a2" (three 10-bit samples and a
# 2-bit alpha in a 32-bit word).
FORMATS = [
    ("GRAY8", 8, 1, None, None),
    ("RGB", 8, 3, None, None),
    ("GRAY16", 16, 1, None, None),
    ("GRAY10", 10, 1, None, None),
]
# On the smaller set of cases: alpha must pass through untouched (RGBA with
# the alpha bit clear in the mask, RGB10A2's 2-bit alpha), and the other
# depths and word layouts.
QUICK_FORMATS = [
    ("RGBA/mask=7", 8, 4, 0x7, None),
    ("GRAY12", 12, 1, None, None),
    ("GRAY10/msb", 10, 1, None, "msb"),
    ("GRAY12/msb", 12, 1, None, "msb"),
    ("RGB10A2", 10, 4, 0x7, "rgb10a2"),
]


def maxv(depth):
    return (1 << depth) - 1

# Filter variants: (label, filter, CLI parameters).
VARIANTS = [
    ("gaussian s=1", "gaussian", {"sigma": 1.0}),
    ("gaussian s=1.5 k=5", "gaussian", {"sigma": 1.5, "kernel-size": 5}),
    ("gaussian s=0.8 sy=2 k=7", "gaussian",
     {"sigma": 0.8, "sigma-y": 2.0, "kernel-size": 7}),
    ("gaussian s=2 sy=0.6", "gaussian", {"sigma": 2.0, "sigma-y": 0.6}),
    ("gaussian s=3.3", "gaussian", {"sigma": 3.3}),
    ("gaussian k=1", "gaussian", {"sigma": 1.0, "kernel-size": 1}),
    ("box k=3", "box", {"kernel-size": 3}),
    ("box k=5", "box", {"kernel-size": 5}),
    ("box k=9", "box", {"kernel-size": 9}),
    ("sobel-x k=3", "sobel-x", {}),
    ("sobel-x k=1", "sobel-x", {"kernel-size": 1}),
    ("sobel-x k=5 scale=.5 off=10", "sobel-x",
     {"kernel-size": 5, "scale": 0.5, "offset": 10}),
    ("sobel-y k=3", "sobel-y", {"kernel-size": 3}),
    ("sobel-y k=7 scale=.01", "sobel-y", {"kernel-size": 7, "scale": 0.01}),
    ("sobel k=3", "sobel", {}),
    ("sobel k=1", "sobel", {"kernel-size": 1}),
    ("sobel k=5 scale=.25 off=5", "sobel",
     {"kernel-size": 5, "scale": 0.25, "offset": 5}),
    ("scharr", "scharr", {}),
    ("scharr scale=.3 off=-4", "scharr", {"scale": 0.3, "offset": -4}),
    ("laplacian k=1", "laplacian", {}),
    ("laplacian k=3", "laplacian", {"kernel-size": 3}),
    ("laplacian k=5 scale=.5 off=3", "laplacian",
     {"kernel-size": 5, "scale": 0.5, "offset": 3}),
    ("sharpen s=1", "sharpen", {"sigma": 1.0}),
    ("sharpen s=2 k=7 a=.5", "sharpen",
     {"sigma": 2.0, "kernel-size": 7, "amount": 0.5}),
    ("sharpen s=.7 a=2", "sharpen", {"sigma": 0.7, "amount": 2.0}),
    ("custom sharpen 3x3", "custom", {"kernel": "0 -1 0; -1 5 -1; 0 -1 0"}),
    ("custom binomial 3x3", "custom", {"kernel": "1 2 1; 2 4 2; 1 2 1"}),
    ("custom edge off=128", "custom",
     {"kernel": "-1,0,1;-2,0,2;-1,0,1", "offset": 128}),
    ("custom 2x2", "custom", {"kernel": "1 1; 1 1"}),
    ("custom 3x2 nested lists", "custom",
     {"kernel": "[[1, -2, 3], [4, 5, -1]]", "offset": 7}),
    ("custom 1x4 div=3", "custom", {"kernel": "1 2 3 4", "divisor": 3}),
    ("custom 2x3 scale=.5 off=20", "custom",
     {"kernel": "1 -2; 3 4; -1 5", "scale": 0.5, "offset": 20}),
    ("custom 1x3 div=-4 off=255", "custom",
     {"kernel": "1 2 1", "divisor": -4, "offset": 255}),
    ("custom 5x5 random", "custom", {"kernel": None}),  # filled in below
    ("custom 11x11 box", "custom",
     {"kernel": "; ".join([" ".join(["1"] * 11)] * 11)}),
    # pixelate: block means (no border); inside and outside regions the
    # whole-frame reference composited with the input, or per region
    ("pixelate b=1", "pixelate", {"block-size": 1}),
    ("pixelate b=4", "pixelate", {"block-size": 4}),
    ("pixelate b=16", "pixelate", {}),
    ("pixelate b=3 regions", "pixelate",
     {"block-size": 3, "regions": "1,1,7,5; 40,20,30,90"}),
    ("pixelate b=5 outside", "pixelate",
     {"block-size": 5, "regions": "2,3,9,4", "outside": None}),
    ("box k=5 regions", "box",
     {"kernel-size": 5, "regions": "3,2,7,5; 10,30,100,4"}),
    ("box k=3 outside", "box",
     {"kernel-size": 3, "regions": "3,2,7,5", "outside": None}),
    # small regions at odd places, at and next to every edge of 160x120,
    # overlapping: run as tiles that read the frame around them
    ("gaussian s=1.5 regions at the edges", "gaussian",
     {"sigma": 1.5,
      "regions": "0,0,3,2; 157,1,3,7; 61,117,9,3; 100,50,5,5; 102,52,6,4"}),
    ("custom 3x5 regions at the edges", "custom",
     {"kernel": "1 0 2; 0 -1 0; 3 1 0; 1 1 1; 0 2 0",
      "regions": "1,0,4,3; 155,115,5,5; 40,60,1,1; 0,119,1,1"}),
]


def _random_kernel():
    rng = np.random.default_rng(7)
    k = rng.integers(-9, 10, size=(5, 5))
    k[2, 2] = 40
    return "; ".join(" ".join(str(v) for v in row) for row in k)


# Nonlinear filters: outputs are samples of the window (median,
# morphology, exact) or a weighted mean with quantised weights (bilateral).
NONLINEAR_VARIANTS = [
    ("median k=3", "median", {}),
    ("median k=9", "median", {"kernel-size": 9}),
    ("erode ellipse 5 it=2", "erode",
     {"shape": "ellipse", "kernel-size": 5, "iterations": 2}),
    ("dilate cross 3", "dilate", {"shape": "cross"}),
    ("dilate rect 3 it=3", "dilate", {"iterations": 3}),
    ("erode rect 3", "erode", {}),
    ("dilate rect 3", "dilate", {}),
    ("open ellipse 3", "open", {"shape": "ellipse"}),
    ("close rect 5x5 it=2", "close", {"kernel-size": 5, "iterations": 2}),
    ("gradient ellipse 5", "gradient", {"shape": "ellipse",
                                        "kernel-size": 5}),
    ("tophat rect 5", "tophat", {"kernel-size": 5}),
    ("blackhat kernel 2x3 it=2", "blackhat",
     {"kernel": "0 1 1; 1 1 0", "iterations": 2}),
    ("erode kernel 1x4", "erode", {"kernel": "1 0 1 1"}),
    ("bilateral d=5 sc=40", "bilateral",
     {"kernel-size": 5, "sigma": 2.0, "sigma-color": 40.0}),
    # kernel-size 0 (radius round (1.5 sigma)), the default sigma-color
    # (30 at 8 bits, scaled to the depth).
    ("bilateral d=0 s=1.4", "bilateral", {"sigma": 1.4}),
]
NONLINEAR = {"median", "erode", "dilate", "open", "close", "gradient",
             "tophat", "blackhat", "bilateral"}
VARIANTS += NONLINEAR_VARIANTS

VARIANTS = [(l, f, dict(p, kernel=_random_kernel()) if p.get("kernel", 0)
             is None else p) for (l, f, p) in VARIANTS]

# A small set run with the RGBA mask format and in --quick mode.
QUICK_LABELS = {"gaussian s=1", "box k=3", "sobel-x k=3", "sobel k=3",
                "scharr", "laplacian k=3", "sharpen s=1", "custom 2x2",
                "custom sharpen 3x3", "median k=3", "erode ellipse 5 it=2",
                "blackhat kernel 2x3 it=2", "bilateral d=5 sc=40",
                "pixelate b=4", "pixelate b=3 regions", "box k=3 outside"}


# ---------------------------------------------------------------- pictures

def photo_like(w, h, seed=3):
    """A synthetic outdoor scene: sky gradient, sun, hills, a house, a tree,
    text, then lens blur and sensor noise.  RGB floats in [0, 1].  Drawn on
    an 8-bit canvas: some OpenCV versions draw text on 8-bit images only."""
    rng = np.random.default_rng(seed)
    y = np.linspace(0.0, 1.0, h)[:, None]
    sky = np.stack([0.35 + 0.4 * y, 0.55 + 0.3 * y, 0.95 - 0.1 * y],
                   axis=-1) * np.ones((1, w, 1))
    img = np.ascontiguousarray(np.rint(sky * 255).astype(np.uint8))
    s = w / 64.0

    def pt(x, yy):
        return (int(x * s), int(yy * s))

    def col(r, g, b):
        return (int(r * 255), int(g * 255), int(b * 255))

    cv2.circle(img, pt(50, 9), max(1, int(6 * s)), col(1.0, 0.95, 0.6), -1,
               cv2.LINE_AA)
    hills = np.array([pt(0, 30), pt(20, 24), pt(40, 29), (w, int(22 * s)),
                      (w, h), (0, h)], np.int32)
    cv2.fillPoly(img, [hills], col(0.25, 0.55, 0.2), cv2.LINE_AA)
    cv2.rectangle(img, pt(10, 28), pt(26, 42), col(0.8, 0.75, 0.6), -1)
    roof = np.array([pt(8, 28), pt(18, 19), pt(28, 28)], np.int32)
    cv2.fillPoly(img, [roof], col(0.6, 0.15, 0.1), cv2.LINE_AA)
    cv2.rectangle(img, pt(16, 34), pt(19, 42), col(0.3, 0.2, 0.1), -1)
    cv2.line(img, pt(38, 44), pt(38, 30), col(0.35, 0.25, 0.1),
             max(1, int(2 * s)))
    cv2.circle(img, pt(38, 27), max(1, int(6 * s)), col(0.1, 0.4, 0.1), -1,
               cv2.LINE_AA)
    cv2.putText(img, "cf", pt(44, 44), cv2.FONT_HERSHEY_SIMPLEX, 0.35 * s,
                (255, 255, 255), 1, cv2.LINE_AA)
    out = cv2.GaussianBlur(img.astype(np.float64) / 255.0, (3, 3), 0.6)
    out += rng.normal(0.0, 0.02, out.shape)
    return np.clip(out, 0.0, 1.0)


def pattern(name, w, h, c, rng):
    """One channel (index c) of a named pattern, floats in [0, 1]."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    if name == "noise":
        return rng.random((h, w))
    if name == "ramp":
        fx = xx / max(w - 1, 1)
        fy = yy / max(h - 1, 1)
        return [0.7 * fx + 0.3 * fy, 1.0 - fy, 0.5 * fx + 0.5 * (1 - fy)][c % 3]
    if name == "checker":
        return ((xx + c) // 2 + yy // 2) % 2
    if name == "impulse":
        out = np.zeros((h, w))
        out[(h // 2 + c) % h, (w // 2 + 2 * c) % w] = 1.0
        return out
    raise ValueError(name)


def make_image(name, w, h, depth, samples, seed):
    rng = np.random.default_rng(seed)
    maxval = maxv(depth)
    if name == "photo":
        rgb = photo_like(w, h, seed)
        if samples == 1:
            planes = [rgb @ np.array([0.299, 0.587, 0.114])]
        else:
            planes = [rgb[..., i] for i in range(3)]
            if samples == 4:
                planes.append(rng.random((h, w)))
    else:
        planes = [pattern(name, w, h, c, rng) for c in range(samples)]
    img = np.stack(planes, axis=-1) if samples > 1 else planes[0]
    img = np.rint(np.clip(img, 0, 1) * maxval)
    return img.astype(np.uint8 if depth == 8 else np.uint16)


def encode(img, depth, packing):
    """The bytes cf-filter-raw reads for sample values `img`."""
    if packing == "msb":
        return (img.astype(np.uint16) << (16 - depth)).tobytes()
    if packing == "rgb10a2":
        v = img.astype(np.uint32)
        return (v[..., 0] | v[..., 1] << 10 | v[..., 2] << 20 |
                (v[..., 3] & 3) << 30).astype("<u4").tobytes()
    return img.tobytes()


def decode(path, shape, depth, packing):
    """Sample values from cf-filter-raw's output, and a problem with the
    bits around them (None when the format's unused bits are zero)."""
    if packing == "rgb10a2":
        v = np.fromfile(path, dtype="<u4").reshape(shape[:2])
        return np.stack([(v >> s) & m for s, m in ((0, 1023), (10, 1023),
                                                    (20, 1023), (30, 3))],
                        axis=-1).astype(np.int64), None
    out = np.fromfile(path, dtype=np.uint8 if depth == 8 else np.uint16)
    out = out.reshape(shape).astype(np.int64)
    if packing == "msb":
        low = out & ((1 << (16 - depth)) - 1)
        return out >> (16 - depth), (
            None if not low.any() else "low bits of MSB-aligned words set")
    if (out >> depth).any():
        return out, "bits above the %d-bit samples set" % depth
    return out, None


def images_for(w, h):
    if (w, h) == (160, 120):
        return ["photo"]
    if (w, h) == (64, 48):
        return ["photo", "checker"]
    if (w, h) == (17, 13):
        return ["noise", "ramp", "checker", "impulse"]
    return ["noise", "impulse"]


# ---------------------------------------------------------------- references

class Refused(Exception):
    """OpenCV does not accept this combination: use SciPy."""


def cv_run(fn, src, border, bv, reach):
    """fn(image, cv_border) with our border semantics.  OpenCV's filters have
    no border-value argument, so a constant border of another value than 0 is
    made with copyMakeBorder (which has one) and cropped off again."""
    h, w = src.shape[:2]
    if border == "constant" and bv != 0:
        p = reach + 1
        padded = cv2.copyMakeBorder(src, p, p, p, p, cv2.BORDER_CONSTANT,
                                    value=[bv] * 4)
        return fn(padded, cv2.BORDER_CONSTANT)[p:p + h, p:p + w]
    try:
        return fn(src, CV_BORDER[border])
    except cv2.error as exc:
        raise Refused(str(exc).strip().splitlines()[-1])


def sp_correlate(src, kernel, border, bv):
    """Float64 correlation (kernel not flipped, centre at size // 2 as
    OpenCV's default anchor) of each channel."""
    f = src.astype(np.float64)
    mode = SCIPY_MODE[border]
    if f.ndim == 2:
        return ndimage.correlate(f, kernel, mode=mode, cval=float(bv))
    return np.stack([ndimage.correlate(f[..., c], kernel, mode=mode,
                                       cval=float(bv))
                     for c in range(f.shape[2])], axis=-1)


def saturate(v, maxval):
    return np.clip(np.rint(v), 0, maxval).astype(np.int64)


def abs_post(v, depth):
    """Round, as Sobel/Laplacian into CV_16S then convertScaleAbs for 8-bit;
    16-bit samples have no 16S stage."""
    v = np.rint(v)
    if depth == 8:
        v = np.clip(v, -32768, 32767)
    return np.clip(np.abs(v), 0, maxv(depth)).astype(np.int64)


def gaussian_ksize(p, depth):
    sigma = p.get("sigma", 1.0)
    sy = p.get("sigma-y", 0.0) or sigma
    k = p.get("kernel-size", 0)
    if k:
        return k, k, sigma, sy
    # OpenCV's GaussianBlur with ksize (0, 0): cvRound(s * (8U ? 3 : 4) * 2
    # + 1) | 1, per direction.
    f = 3 if depth == 8 else 4
    return (int(round(sigma * f * 2 + 1)) | 1, int(round(sy * f * 2 + 1)) | 1,
            sigma, sy)


def ref_gaussian(src, depth, p, border, bv):
    kw, kh, sigma, sy = gaussian_ksize(p, depth)
    maxval = maxv(depth)
    try:
        out = cv_run(lambda s, b: cv2.GaussianBlur(s, (kw, kh), sigma,
                                                   sigmaY=sy, borderType=b),
                     src, border, bv, max(kw, kh))
        return out.astype(np.int64), "opencv"
    except Refused:
        k = np.outer(cv2.getGaussianKernel(kh, sy), cv2.getGaussianKernel(
            kw, sigma))
        return saturate(sp_correlate(src, k, border, bv), maxval), "scipy"


def ref_box(src, depth, p, border, bv):
    k = p.get("kernel-size", 3)
    try:
        out = cv_run(lambda s, b: cv2.blur(s, (k, k), borderType=b),
                     src, border, bv, k)
        return out.astype(np.int64), "opencv"
    except Refused:
        kern = np.full((k, k), 1.0 / (k * k))
        return saturate(sp_correlate(src, kern, border, bv),
                        maxv(depth)), "scipy"


def deriv_kernel(dx, dy, k):
    kx, ky = cv2.getDerivKernels(dx, dy, k)
    return np.outer(ky.ravel(), kx.ravel())


def ref_sobel_xy(src, depth, p, border, bv, dx, dy):
    k = p.get("kernel-size", 3)
    scale = p.get("scale", 1.0)
    offset = p.get("offset", 0.0)
    try:
        if depth == 8:
            out = cv_run(lambda s, b: cv2.convertScaleAbs(cv2.Sobel(
                s, cv2.CV_16S, dx, dy, ksize=k, scale=scale, delta=offset,
                borderType=b)), src, border, bv, k)
            return out.astype(np.int64), "opencv"
        out = cv_run(lambda s, b: cv2.Sobel(
            s, cv2.CV_64F, dx, dy, ksize=k, scale=scale, delta=offset,
            borderType=b), src, border, bv, k)
        return abs_post(out, depth), "opencv"
    except Refused:
        g = sp_correlate(src, deriv_kernel(dx, dy, k), border, bv)
        return abs_post(g * scale + offset, depth), "scipy"


def ref_magnitude(src, depth, p, border, bv, scharr):
    k = p.get("kernel-size", 3)
    scale = p.get("scale", 1.0)
    offset = p.get("offset", 0.0)
    maxval = maxv(depth)
    try:
        if scharr:
            def fx(s, b):
                return cv2.Scharr(s, cv2.CV_64F, 1, 0, borderType=b)

            def fy(s, b):
                return cv2.Scharr(s, cv2.CV_64F, 0, 1, borderType=b)
        else:
            def fx(s, b):
                return cv2.Sobel(s, cv2.CV_64F, 1, 0, ksize=k, borderType=b)

            def fy(s, b):
                return cv2.Sobel(s, cv2.CV_64F, 0, 1, ksize=k, borderType=b)
        gx = cv_run(fx, src, border, bv, max(k, 3))
        gy = cv_run(fy, src, border, bv, max(k, 3))
        how = "opencv"
    except Refused:
        ks = -1 if scharr else k   # -1 = cv2.FILTER_SCHARR
        gx = sp_correlate(src, deriv_kernel(1, 0, ks), border, bv)
        gy = sp_correlate(src, deriv_kernel(0, 1, ks), border, bv)
        how = "scipy"
    return saturate(scale * np.sqrt(gx * gx + gy * gy) + offset, maxval), how


def laplacian_kernel(k):
    if k == 1:
        return np.array([[0, 1, 0], [1, -4, 1], [0, 1, 0]], np.float64)
    if k == 3:
        return np.array([[2, 0, 2], [0, -8, 0], [2, 0, 2]], np.float64)
    return deriv_kernel(2, 0, k) + deriv_kernel(0, 2, k)


def ref_laplacian(src, depth, p, border, bv):
    k = p.get("kernel-size", 1)
    scale = p.get("scale", 1.0)
    offset = p.get("offset", 0.0)
    try:
        if depth == 8:
            out = cv_run(lambda s, b: cv2.convertScaleAbs(cv2.Laplacian(
                s, cv2.CV_16S, ksize=k, scale=scale, delta=offset,
                borderType=b)), src, border, bv, max(k, 3))
            return out.astype(np.int64), "opencv"
        out = cv_run(lambda s, b: cv2.Laplacian(
            s, cv2.CV_64F, ksize=k, scale=scale, delta=offset, borderType=b),
            src, border, bv, max(k, 3))
        return abs_post(out, depth), "opencv"
    except Refused:
        g = sp_correlate(src, laplacian_kernel(k), border, bv)
        return abs_post(g * scale + offset, depth), "scipy"


def ref_sharpen(src, depth, p, border, bv):
    blurred, how = ref_gaussian(src, depth, p, border, bv)
    amount = p.get("amount", 1.0)
    s = src.astype(np.float64)
    return saturate(s + amount * (s - blurred), maxv(depth)), how


def parse_kernel(text):
    if text.lstrip().startswith("[["):
        # NumPy's nested lists: Python's own reader is the reference.
        return np.array(ast.literal_eval(text), np.float64)
    rows = [r.replace(",", " ").split() for r in text.split(";")]
    return np.array([[float(v) for v in r] for r in rows], np.float64)


def ref_custom(src, depth, p, border, bv):
    k = parse_kernel(p["kernel"])
    divisor = p.get("divisor", 0) or (k.sum() or 1.0)
    k = k * p.get("scale", 1.0) / divisor
    offset = p.get("offset", 0.0)
    maxval = maxv(depth)
    reach = max(k.shape)
    try:
        if depth == 8:
            # filter2D's default anchor (-1, -1) is (kw / 2, kh / 2), also for
            # even sizes, as the engine's.
            out = cv_run(lambda s, b: cv2.filter2D(s, -1, k, delta=offset,
                                                   borderType=b),
                         src, border, bv, reach)
            return out.astype(np.int64), "opencv"
        # 16-bit sums need more than filter2D's float32 to be exact.
        out = cv_run(lambda s, b: cv2.filter2D(s, cv2.CV_64F, k,
                                               delta=offset, borderType=b),
                     src, border, bv, reach)
        return saturate(out, maxval), "opencv"
    except Refused:
        return saturate(sp_correlate(src, k, border, bv) + offset,
                        maxval), "scipy"


def pixelate_rect(out, src, x0, y0, x1, y1, b):
    """Blocks of b x b from (x0, y0), cut at (x1, y1): each the round-half-up
    mean of its samples, per channel."""
    for by in range(y0, y1, b):
        for bx in range(x0, x1, b):
            blk = src[by:min(by + b, y1), bx:min(bx + b, x1)].astype(np.int64)
            n = blk.shape[0] * blk.shape[1]
            out[by:min(by + b, y1), bx:min(bx + b, x1)] = \
                (blk.sum(axis=(0, 1)) * 2 + n) // (2 * n)


def parse_regions(text, w, h):
    rects = []
    for part in text.split(";"):
        x, y, rw, rh = [int(v) for v in part.split(",")]
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + rw, w), min(y + rh, h)
        if x1 > x0 and y1 > y0:
            rects.append((x0, y0, x1, y1))
    return rects


def region_mask(rects, h, w):
    mask = np.zeros((h, w), dtype=bool)
    for x0, y0, x1, y1 in rects:
        mask[y0:y1, x0:x1] = True
    return mask


# NumPy's pad modes for our borders (for the references OpenCV lacks).
NP_PAD = {"reflect101": "reflect", "replicate": "edge",
          "reflect": "symmetric", "wrap": "wrap", "constant": "constant"}


def np_shifts(src, offsets, border, bv):
    """src (H x W [x C]) seen from each (dx, dy) of offsets, with the
    border: [src[y + dy, x + dx] for each offset]."""
    r = max([max(abs(dx), abs(dy)) for dx, dy in offsets] + [0])
    pad = [(r, r), (r, r)] + [(0, 0)] * (src.ndim - 2)
    kw = {"constant_values": bv} if border == "constant" else {}
    padded = np.pad(src.astype(np.int64), pad, mode=NP_PAD[border], **kw)
    h, w = src.shape[:2]
    return [padded[r + dy:r + dy + h, r + dx:r + dx + w]
            for dx, dy in offsets]


def ref_median(src, depth, p, border, bv):
    k = p.get("kernel-size", 3)
    if depth == 8 and border == "replicate":
        img = np.ascontiguousarray(src)
        if img.ndim == 3 and img.shape[2] == 3:
            return cv2.medianBlur(img, k).astype(np.int64), "opencv"
        if img.ndim == 2:
            return cv2.medianBlur(img, k).astype(np.int64), "opencv"
    size = (k, k) if src.ndim == 2 else (k, k, 1)
    out = ndimage.median_filter(src, size=size, mode=SCIPY_MODE[border],
                                cval=bv)
    return out.astype(np.int64), "scipy"


def structuring_element(p):
    if p.get("kernel"):
        return (parse_kernel(p["kernel"]) != 0).astype(np.uint8)
    shape = {"rect": cv2.MORPH_RECT, "ellipse": cv2.MORPH_ELLIPSE,
             "cross": cv2.MORPH_CROSS}[p.get("shape", "rect")]
    k = p.get("kernel-size", 3)
    return cv2.getStructuringElement(shape, (k, k))


def np_morph(src, se, maxop, iterations, border, bv):
    """Iterated erosion/dilation as OpenCV defines them (element not
    reflected, anchor at its centre; a full rectangle iterated n times is
    one rectangle of n (k - 1) + 1), on NumPy padding: for wrap."""
    h, w = se.shape
    if se.all() and iterations > 1 and se.size > 1:
        se = np.ones((h + (iterations - 1) * (h - 1),
                      w + (iterations - 1) * (w - 1)), np.uint8)
        anchor = ((w // 2) * iterations, (h // 2) * iterations)
        iterations = 1
    else:
        anchor = (w // 2, h // 2)
    offsets = [(i - anchor[0], j - anchor[1])
               for j in range(se.shape[0]) for i in range(se.shape[1])
               if se[j, i]]
    out = src.astype(np.int64)
    for _ in range(iterations):
        shifted = np_shifts(out, offsets, border, bv)
        out = np.max(shifted, axis=0) if maxop else np.min(shifted, axis=0)
    return out


def ref_morph(filt, src, depth, p, border, bv):
    se = structuring_element(p)
    n = p.get("iterations", 1)
    ops = {"erode": cv2.MORPH_ERODE, "dilate": cv2.MORPH_DILATE,
           "open": cv2.MORPH_OPEN, "close": cv2.MORPH_CLOSE,
           "gradient": cv2.MORPH_GRADIENT, "tophat": cv2.MORPH_TOPHAT,
           "blackhat": cv2.MORPH_BLACKHAT}
    if border != "wrap":
        img = np.ascontiguousarray(src)
        out = cv2.morphologyEx(img, ops[filt], se, iterations=n,
                               borderType=CV_BORDER[border],
                               borderValue=[bv] * 4)
        return out.astype(np.int64).reshape(src.shape), "opencv"
    # OpenCV refuses wrap for morphology: the same definitions on NumPy.
    s = src.astype(np.int64)

    def m(img, maxop):
        return np_morph(img, se, maxop, n, border, bv)
    out = {"erode": lambda: m(s, False), "dilate": lambda: m(s, True),
           "open": lambda: m(m(s, False), True),
           "close": lambda: m(m(s, True), False),
           "gradient": lambda: m(s, True) - m(s, False),
           "tophat": lambda: s - m(m(s, False), True),
           "blackhat": lambda: m(m(s, True), False) - s}[filt]()
    return np.clip(out, 0, maxv(depth)), "numpy"


def bilateral_radius(p):
    d = p.get("kernel-size", 0)
    r = d // 2 if d > 0 else int(round(1.5 * p.get("sigma", 1.0)))
    return max(r, 1)


def ref_bilateral(src, depth, p, border, bv):
    """OpenCV's bilateralFilter for 8 bits (GRAY or 3 channels); its
    definition in float64 otherwise: weights exp(-r^2 / 2 sigma^2) over the
    disk r <= radius times exp(-d^2 / 2 sigma-color^2), d the L1 colour
    distance over the channels."""
    sigma = p.get("sigma", 1.0)
    sc = p.get("sigma-color", 30.0 * maxv(depth) / 255.0)
    r = bilateral_radius(p)
    if depth == 8 and border != "wrap":
        img = np.ascontiguousarray(src)
        try:
            out = cv2.bilateralFilter(img, 2 * r + 1, sc, sigma,
                                      borderType=CV_BORDER[border])
            if border != "constant" or bv == 0:
                return out.astype(np.int64).reshape(src.shape), "opencv"
        except cv2.error:
            pass
    offsets = [(dx, dy) for dy in range(-r, r + 1) for dx in range(-r, r + 1)
               if dx * dx + dy * dy <= r * r]
    f = src.astype(np.float64)
    num = np.zeros_like(f)
    den = np.zeros(src.shape[:2])
    for (dx, dy), q in zip(offsets, np_shifts(src, offsets, border, bv)):
        q = q.astype(np.float64)
        d = np.abs(q - f)
        if d.ndim == 3:
            d = d.sum(axis=2)
        wgt = np.exp(-(dx * dx + dy * dy) / (2 * sigma * sigma)) * \
            np.exp(-d * d / (2 * sc * sc))
        num += q * (wgt[..., None] if q.ndim == 3 else wgt)
        den += wgt
    out = num / (den[..., None] if f.ndim == 3 else den)
    return saturate(out, maxv(depth)), "numpy"


def reference(filt, src, depth, p, border, bv):
    if "regions" in p:
        q = {k: v for k, v in p.items() if k not in ("regions", "outside")}
        h, w = src.shape[:2]
        rects = parse_regions(p["regions"], w, h)
        if filt == "pixelate" and "outside" not in p:
            out = src.astype(np.int64)
            for x0, y0, x1, y1 in rects:
                pixelate_rect(out, src, x0, y0, x1, y1,
                              q.get("block-size", 16))
            return out, "numpy"
        whole, how = reference(filt, src, depth, q, border, bv)
        inside = region_mask(rects, h, w)
        if "outside" in p:
            inside = ~inside
        inside = inside.reshape(inside.shape + (1,) * (src.ndim - 2))
        return np.where(inside, whole.reshape(src.shape), src), how
    if filt == "pixelate":
        out = src.astype(np.int64)
        pixelate_rect(out, src, 0, 0, src.shape[1], src.shape[0],
                      p.get("block-size", 16))
        return out, "numpy"
    if filt == "median":
        return ref_median(src, depth, p, border, bv)
    if filt == "bilateral":
        return ref_bilateral(src, depth, p, border, bv)
    if filt in NONLINEAR:
        return ref_morph(filt, src, depth, p, border, bv)

    if filt == "gaussian":
        return ref_gaussian(src, depth, p, border, bv)
    if filt == "box":
        return ref_box(src, depth, p, border, bv)
    if filt == "sobel-x":
        return ref_sobel_xy(src, depth, p, border, bv, 1, 0)
    if filt == "sobel-y":
        return ref_sobel_xy(src, depth, p, border, bv, 0, 1)
    if filt in ("sobel", "scharr"):
        return ref_magnitude(src, depth, p, border, bv, filt == "scharr")
    if filt == "laplacian":
        return ref_laplacian(src, depth, p, border, bv)
    if filt == "sharpen":
        return ref_sharpen(src, depth, p, border, bv)
    if filt == "custom":
        return ref_custom(src, depth, p, border, bv)
    raise ValueError(filt)


def tolerance(filt, depth, p):
    """Largest accepted |engine - reference| in sample units.

    8-bit: 1.  The engine rounds fixed-point sums half up where OpenCV rounds
    half to even or sums in float, and OpenCV's box filter scales in float.

    16-bit: also 1.  Weights in fixed point with f fractional bits move a
    sum of n taps by at most maxval * n * 2^-(f+1), so an engine that keeps
    enough bits (f >= 16 + log2(n) + 1 at 16 bits, with 64-bit sums where
    needed) is off only by the final rounding.  The Gaussian uses 16 bits per
    pass with the error-diffused taps of OpenCV's bit-exact GaussianBlur,
    whose 16-bit path is fixed point in the same way (the two agree
    exactly); box weights 2^30 / k^2 are off by under 1e-3 LSB at 65535 for
    k <= 63; Sobel, Scharr and Laplacian weights are integers (only the final
    scale or magnitude is float32).  The references sum in float64.

    Sharpen adds amount * (src - blurred): a 1-LSB difference in the blur
    becomes `amount` LSB, so the bound scales with amount above 1."""
    if filt == "sharpen":
        return max(1, math.ceil(p.get("amount", 1.0)))
    if filt == "pixelate":
        return 0                # integer means, exact
    if filt in NONLINEAR and filt != "bilateral":
        return 0
    return 1


# ---------------------------------------------------------------- running

class Result:
    __slots__ = ("group", "border", "ok", "maxdiff", "exact", "total",
                 "how", "detail")


def cli_args(filt, p, border, bv, w, h, depth, samples, mask, packing,
             backend):
    args = ["--width=%d" % w, "--height=%d" % h,
            "--samples=%d" % samples, "--depth=%d" % depth,
            "--filter=%s" % filt, "--border=%s" % border,
            "--border-value=%d" % bv, "--backend=%s" % backend]
    for key, val in p.items():
        args.append("--%s" % key if val is None else "--%s=%s" % (key, val))
    if mask is not None:
        args.append("--mask=%d" % mask)
    if packing == "msb":
        args.append("--msb")
    elif packing:
        args.append("--packing=%s" % packing)
    return args


def case_paths(ctx, job):
    base = os.path.join(ctx.tmp, "c%d" % job[-1])
    return base + ".in", base + ".out"


def prepare_case(ctx, job):
    """Writes the case's input file; returns its cf-filter-raw arguments."""
    (label, filt, p, fmt, border, bv, (w, h), image, seed) = job
    fname, depth, samples, mask, packing = fmt
    src = source(image, w, h, fmt, seed)
    path_in, path_out = case_paths(ctx, job)
    with open(path_in, "wb") as f:
        f.write(encode(src, depth, packing))
    return cli_args(filt, p, border, bv, w, h, depth, samples, mask,
                    packing, ctx.backend) + [path_in, path_out]


def source(image, w, h, fmt, seed):
    fname, depth, samples, mask, packing = fmt
    src = make_image(image, w, h, depth, samples, seed)
    if packing == "rgb10a2":
        src[..., 3] &= 3
    return src


def run_batch(tool, arg_lists):
    """Runs cases through one `cf-filter-raw --batch` process (one backend,
    so one CUDA context); returns (status, message) per case."""
    script = "".join(" ".join(shlex.quote(a) for a in args) + "\n"
                     for args in arg_lists)
    proc = subprocess.run([tool, "--batch"], input=script,
                          capture_output=True, text=True)
    answers = proc.stdout.splitlines()
    if len(answers) != len(arg_lists):
        why = "cf-filter-raw --batch exited %d after %d of %d cases: %s" % (
            proc.returncode, len(answers), len(arg_lists),
            proc.stderr.strip()[-2000:])
        answers += ["-1 " + why] * (len(arg_lists) - len(answers))
    out = []
    for line in answers:
        status, _, msg = line.partition(" ")
        out.append((int(status), msg))
    return out


def check_case(ctx, job, args, answer):
    (label, filt, p, fmt, border, bv, (w, h), image, seed) = job
    fname, depth, samples, mask, packing = fmt
    src = source(image, w, h, fmt, seed)
    res = Result()
    res.group = (label, fname)
    res.border = border if border != "constant" else "constant=%d" % bv
    res.detail = None
    path_in, path_out = case_paths(ctx, job)
    cmd = " ".join(shlex.quote(a) for a in [ctx.tool] + args)
    status, message = answer
    if status != 0:
        res.ok, res.maxdiff, res.exact, res.total, res.how = (False, -1, 0, 0,
                                                             "-")
        res.detail = "%s %dx%d %s: exit %d: %s\n  %s" % (
            image, w, h, res.border, status, message, cmd)
        return res
    out, bits_problem = decode(path_out, src.shape, depth, packing)

    filtered = src if mask is None else src[..., :3]
    ref, how = reference(filt, filtered, depth, p, border, bv)
    got = out.astype(np.int64) if mask is None else out[..., :3].astype(
        np.int64)
    ref = ref.reshape(got.shape)
    diff = np.abs(got - ref)
    res.how = how
    res.maxdiff = int(diff.max())
    res.exact = int((diff == 0).sum())
    res.total = diff.size
    res.ok = res.maxdiff <= tolerance(filt, depth, p)
    problems = []
    if not res.ok:
        idx = np.unravel_index(np.argmax(diff), diff.shape)
        problems.append("max |diff| %d at (y, x[, c]) = %s: engine %d, %s %d"
                        % (res.maxdiff, tuple(int(i) for i in idx),
                           got[idx], how, ref[idx]))
    if mask is not None and not np.array_equal(out[..., 3], src[..., 3]):
        res.ok = False
        problems.append("alpha channel changed although mask excludes it")
    if bits_problem:
        res.ok = False
        problems.append(bits_problem)
    if problems:
        res.detail = "%s %dx%d %s: %s\n  %s" % (image, w, h, res.border,
                                                "; ".join(problems), cmd)
    else:
        # Failing cases keep their files for --keep to reproduce.
        os.unlink(path_in)
        os.unlink(path_out)
    return res


# The largest Gaussians (up to 249 taps a side at 16 bits, 187 at 8) on
# fewer cases: two borders, a frame smaller than the kernel and one larger.
LONG_VARIANTS = [
    ("gaussian s=20", "gaussian", {"sigma": 20.0}),
    ("gaussian s=31 sy=24", "gaussian", {"sigma": 31.0, "sigma-y": 24.0}),
]
LONG_FORMATS = [f for f in FORMATS if f[0] in ("GRAY8", "GRAY16")]
LONG_SIZES = [(17, 13), (300, 260)]


def build_jobs(args):
    variants = [v for v in VARIANTS
                if (not args.filter or v[1] in args.filter)
                and (not args.quick or v[0] in QUICK_LABELS)]
    jobs = []
    seed = 0
    for label, filt, p in LONG_VARIANTS:
        if args.filter and filt not in args.filter:
            continue
        for fmt in LONG_FORMATS:
            for border, bv in (("reflect101", 0), ("constant", 200)):
                for size in LONG_SIZES:
                    for image in images_for(*size)[:1]:
                        seed += 1
                        jobs.append((label, filt, p, fmt, border, bv, size,
                                     image, seed))
    for label, filt, p in variants:
        formats = list(FORMATS)
        if label in QUICK_LABELS:
            formats += QUICK_FORMATS
        for fmt in formats:
            bv_nonzero = {8: 200, 16: 40000}.get(fmt[1], maxv(fmt[1]) * 2 // 3)
            # Block means read no border.
            for border in (["reflect101"] if filt == "pixelate" else
                           BORDERS):
                bvs = [0, bv_nonzero] if border == "constant" else [0]
                for bv in bvs:
                    for size in SIZES:
                        for image in images_for(*size):
                            seed += 1
                            jobs.append((label, filt, p, fmt, border, bv,
                                         size, image, seed))
    return jobs


def check_bad_input(tool):
    """Bad parameters must fail with a message naming the parameter, not
    crash or write garbage."""
    cases = [
        ("even kernel-size", ["--filter=gaussian", "--kernel-size=4"],
         "kernel-size"),
        ("kernel-size too large", ["--filter=box", "--kernel-size=257"],
         "kernel-size"),
        ("sobel aperture 9", ["--filter=sobel-x", "--kernel-size=9"],
         "kernel-size"),
        ("scharr aperture 5", ["--filter=scharr", "--kernel-size=5"],
         "kernel-size"),
        ("sigma 0", ["--filter=gaussian", "--sigma=0"], "sigma"),
        ("negative sigma", ["--filter=sharpen", "--sigma=-1"], "sigma"),
        ("negative sigma-y", ["--filter=gaussian", "--sigma-y=-2"],
         "sigma-y"),
        ("custom without kernel", ["--filter=custom"], "kernel"),
        ("ragged kernel", ["--filter=custom", "--kernel=1 2 3; 4 5"],
         "kernel"),
        ("kernel not a number", ["--filter=custom", "--kernel=1 x 2"],
         "kernel"),
        ("empty kernel row", ["--filter=custom", "--kernel=1 2;;3 4"],
         "kernel"),
        ("empty kernel", ["--filter=custom", "--kernel=;"], "kernel"),
        ("kernel rows without ';'",
         ["--filter=custom", "--kernel=0 -1 0, -1 5 -1, 0 -1 0"],
         "';' between rows"),
        ("unbalanced kernel brackets",
         ["--filter=custom", "--kernel=[[1,2],[3,4]"], "kernel"),
        ("kernel too large", ["--filter=custom", "--kernel=" + "; ".join(
            [" ".join(["1"] * 256)] * 3)], "kernel"),
        ("unknown filter", ["--filter=mean"], "filter"),
        ("even median", ["--filter=median", "--kernel-size=4"],
         "kernel-size"),
        ("iterations 0", ["--filter=erode", "--iterations=0"], "iterations"),
        ("empty element", ["--filter=dilate", "--kernel=0 0; 0 0"],
         "kernel"),
        ("unknown shape", ["--filter=erode", "--shape=disk"], "shape"),
        ("sigma-color 0", ["--filter=bilateral", "--sigma-color=0"],
         "sigma-color"),
        ("unknown border", ["--border=mirror"], "border"),
        ("unknown backend", ["--backend=opencl"], "backend"),
        ("bad depth", ["--depth=17"], "depth"),
        ("msb at 8 bits", ["--msb"], "msb"),
        ("unknown packing", ["--packing=v210", "--samples=4", "--depth=10"],
         "packing"),
    ]
    failures = []
    with tempfile.TemporaryDirectory(prefix="cf-bad-") as tmp:
        src = os.path.join(tmp, "in.raw")
        dst = os.path.join(tmp, "out.raw")
        with open(src, "wb") as f:
            f.write(bytes(range(0, 250, 10)))  # 5x5 GRAY8
        for name, extra, word in cases:
            args = [tool, "--width=5", "--height=5"] + extra + [src, dst]
            proc = subprocess.run(args, capture_output=True, text=True)
            msg = proc.stderr.strip()
            if proc.returncode == 0:
                failures.append("%s: exit 0, expected a failure" % name)
            elif proc.returncode < 0:
                failures.append("%s: killed by signal %d" % (
                    name, -proc.returncode))
            elif word not in msg:
                failures.append("%s: message does not name '%s': %r" % (
                    name, word, msg))
            elif os.path.exists(dst):
                failures.append("%s: wrote an output file anyway" % name)
            else:
                print("  ok   %-24s exit %d: %s" % (name, proc.returncode,
                                                    msg.splitlines()[0]))
        # A file of the wrong size is a usage error, not a crash.
        args = [tool, "--width=6", "--height=5", src, dst]
        proc = subprocess.run(args, capture_output=True, text=True)
        if proc.returncode == 0 or "bytes" not in proc.stderr:
            failures.append("wrong input size: exit %d, %r" % (
                proc.returncode, proc.stderr.strip()))
        else:
            print("  ok   %-24s exit %d: %s" % ("wrong input size",
                                                proc.returncode,
                                                proc.stderr.strip()))
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", default=os.environ.get("CF_FILTER_RAW"),
                    help="path of cf-filter-raw (default $CF_FILTER_RAW)")
    ap.add_argument("--backend", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--quick", action="store_true",
                    help="a few variants per filter only")
    ap.add_argument("--filter", action="append",
                    help="only this filter (repeatable)")
    ap.add_argument("--verbose", "-v", action="store_true",
                    help="print every failing case in full")
    ap.add_argument("--keep", action="store_true",
                    help="keep the raw files of failing cases")
    args = ap.parse_args()
    if not args.tool or not os.access(args.tool, os.X_OK):
        print("FAIL: cf-filter-raw not found (--tool or $CF_FILTER_RAW): %r"
              % args.tool, file=sys.stderr)
        return 1

    if args.backend == "cuda":
        # Without a usable device there is nothing to compare: skip (77, as
        # meson and gpu-suite.sh read it) and say why.
        with tempfile.TemporaryDirectory(prefix="cf-probe-") as tmp:
            raw = os.path.join(tmp, "p.raw")
            with open(raw, "wb") as f:
                f.write(b"\0")
            proc = subprocess.run([args.tool, "--width=1", "--height=1",
                                   "--backend=cuda", raw, raw + ".out"],
                                  capture_output=True, text=True)
        if proc.returncode != 0:
            print("SKIP: backend=cuda is not usable here: %s" %
                  proc.stderr.strip())
            return 77

    print("OpenCV %s, SciPy from %s, NumPy %s; engine backend: %s" % (
        cv2.__version__, os.path.dirname(ndimage.__file__), np.__version__,
        args.backend))
    print("\nBad input:")
    failures = check_bad_input(args.tool)

    jobs = build_jobs(args)
    start = time.time()
    class Ctx:
        pass
    ctx = Ctx()
    ctx.tool, ctx.backend = args.tool, args.backend
    ctx.tmp = tempfile.mkdtemp(prefix="cf-ref-")
    workers = max(2, os.cpu_count() or 2)
    # A few batch processes in parallel; fewer for CUDA, where each holds a
    # context on the one device.
    n_batches = workers if args.backend == "cpu" else min(4, workers)
    try:
        with ThreadPoolExecutor(max_workers=workers) as ex:
            arg_lists = list(ex.map(lambda j: prepare_case(ctx, j), jobs))
            chunks = [list(range(i, len(jobs), n_batches))
                      for i in range(n_batches)]
            answers = [None] * len(jobs)
            for chunk, got in zip(chunks, ex.map(
                    lambda c: run_batch(ctx.tool, [arg_lists[i] for i in c]),
                    chunks)):
                for i, a in zip(chunk, got):
                    answers[i] = a
            results = list(ex.map(
                lambda i: check_case(ctx, jobs[i], arg_lists[i], answers[i]),
                range(len(jobs))))
    finally:
        if not args.keep:
            shutil.rmtree(ctx.tmp, ignore_errors=True)
    elapsed = time.time() - start

    # Summary: one row per filter variant and format.
    groups = {}
    for r in results:
        groups.setdefault(r.group, []).append(r)
    print("\nReference comparison (%d cases, %.1f s): max |diff| and share "
          "of samples equal to the reference" % (len(results), elapsed))
    hdr = "%-30s %-12s %6s %8s %8s %6s  %s" % (
        "filter", "format", "cases", "max|d|", "exact", "fails", "reference")
    print(hdr)
    print("-" * len(hdr))
    for (label, fname), rs in groups.items():
        exact = sum(r.exact for r in rs)
        total = sum(r.total for r in rs)
        hows = sorted({r.how for r in rs if r.how != "-"})
        fails = [r for r in rs if not r.ok]
        print("%-30s %-12s %6d %8d %7.2f%% %6d  %s" % (
            label, fname, len(rs), max(r.maxdiff for r in rs),
            100.0 * exact / max(total, 1), len(fails), "+".join(hows)))
    total_exact = sum(r.exact for r in results)
    total_samples = sum(r.total for r in results)
    print("-" * len(hdr))
    print("all: %.3f%% of %d samples exact" % (
        100.0 * total_exact / max(total_samples, 1), total_samples))

    bad = [r for r in results if not r.ok]
    if bad:
        # The worst case of each failing filter/format, unless --verbose.
        shown = bad
        if not args.verbose:
            worst = {}
            for r in bad:
                if r.group not in worst or r.maxdiff > worst[r.group].maxdiff:
                    worst[r.group] = r
            shown = list(worst.values())
        print("\nFailing cases (%d; %s):" % (
            len(bad), "all" if args.verbose else
            "the worst per filter and format, --verbose shows all"))
        for r in shown:
            print("- %s [%s]: %s" % (r.group[0], r.group[1], r.detail))
        if args.keep:
            print("raw files of failing cases kept in %s" % ctx.tmp)
    if failures:
        print("\nBad-input failures:")
        for f in failures:
            print("- " + f)
    if bad or failures:
        print("\nFAIL: %d reference case(s), %d bad-input check(s)" % (
            len(bad), len(failures)))
        return 1
    print("\nPASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())

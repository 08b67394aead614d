#!/usr/bin/env python3
"""cudafilter's kernel times beside a peer's on the same frames and filters.

The peer is CuPy (cupyx.scipy.ndimage, timed with CUDA events on the same
GPU) when it is importable, else SciPy on the CPU (scipy.ndimage, wall
time), the libraries a Python user would otherwise pick.  cudafilter's side
comes from cudafilter-bench, run here, or from the CSV lines of an earlier
run (--bench-csv), so a table can be redrawn against the peer later.

  bench/compare_peers.py build                      # runs build/bench/cudafilter-bench
  bench/compare_peers.py --bench-csv run.txt --peer scipy --iterations 3

Cases are the CSV lines: every filter, format and size they hold that the
peer has an equivalent for (gaussian, box, sobel, scharr, laplacian,
custom with the bench's kernel).  Prints a table and one "csv," line per
case.
"""
import argparse
import statistics
import subprocess
import sys
import time

# The default custom kernel of cudafilter-bench.
DEFAULT_CUSTOM = "0 -1 0; -1 5 -1; 0 -1 0"


def parse_kernel(text):
    return [[float(v) for v in row.replace(",", " ").split()]
            for row in text.split(";") if row.strip()]


def bench_cases(lines):
    """Dicts of the cudafilter-bench CSV lines (header names as keys)."""
    header = None
    cases = []
    for line in lines:
        if not line.startswith("csv,"):
            continue
        fields = line.strip().split(",")[1:]
        if fields[0] == "filter":
            header = fields
            continue
        if header is None or len(fields) < len(header):
            continue
        case = dict(zip(header, fields))
        if case.get("method", "direct") not in ("direct", "auto"):
            continue
        cases.append(case)
    return cases


class Peer:
    """ndimage calls on one backend: CuPy on the GPU or SciPy on the CPU."""

    def __init__(self, name):
        self.name = name
        if name == "cupy":
            import cupy
            import cupyx.scipy.ndimage as ndi
            self.xp, self.ndi = cupy, ndi
        else:
            import numpy
            import scipy.ndimage as ndi
            self.xp, self.ndi = numpy, ndi

    def frame(self, fmt, width, height):
        xp = self.xp
        if fmt not in ("rgba", "gray8"):
            return None
        shape = (height, width, 4) if fmt == "rgba" else (height, width)
        rng = xp.random.RandomState(42)
        return rng.randint(0, 256, size=shape).astype(xp.uint8)

    def op(self, case, kernel_text, channels):
        """The peer's call for a case, or None when it has no equivalent.
        RGBA runs as a user would write it: one call over the (height,
        width, 4) array with no filtering across the channel axis (alpha
        included, where cudafilter copies it)."""
        ndi, xp = self.ndi, self.xp
        name = case["filter"]
        kw, kh = int(case["kw"]), int(case["kh"])
        mode = {"reflect101": "mirror", "replicate": "nearest",
                "reflect": "reflect", "wrap": "wrap",
                "constant": "constant"}[case["border"]]
        rgba = channels == 4

        def plane(w2d):
            return w2d[:, :, None] if rgba else w2d

        if name == "gaussian" and kw == kh:
            sigma = (kw - 1) / 6.0      # cudafilter's kw = round(6 sigma + 1) | 1
            sig = (sigma, sigma, 0) if rgba else sigma
            return lambda img: ndi.gaussian_filter(
                img, sig, mode=mode, truncate=((kw - 1) / 2) / sigma)
        if name == "box":
            size = (kh, kw, 1) if rgba else (kh, kw)
            return lambda img: ndi.uniform_filter(img, size, mode=mode)
        if name in ("sobel", "scharr") and kw == kh == 3:
            side = 1 if name == "sobel" else 3
            mid = 2 if name == "sobel" else 10
            wx = xp.asarray([[-side, 0, side], [-mid, 0, mid],
                             [-side, 0, side]], dtype=xp.float32)

            def magnitude(img):
                f = img.astype(xp.float32)
                gx = ndi.correlate(f, plane(wx), mode=mode)
                gy = ndi.correlate(f, plane(wx.T), mode=mode)
                return xp.clip(xp.rint(xp.hypot(gx, gy)), 0,
                               255).astype(xp.uint8)
            return magnitude
        if name == "laplacian" and kw == kh == 3:
            w = xp.asarray([[0, 1, 0], [1, -4, 1], [0, 1, 0]],
                           dtype=xp.float32)
            return lambda img: ndi.correlate(img, plane(w), mode=mode)
        if name == "custom":
            w = xp.asarray(parse_kernel(kernel_text), dtype=xp.float32)
            if w.shape != (kh, kw):
                return None
            if float(w.sum()) != 0:
                w = w / w.sum()
            return lambda img: ndi.correlate(img, plane(w), mode=mode)
        return None

    def time_us(self, fn, img, iterations, warmup):
        """Median time of fn(img) in microseconds."""
        for _ in range(warmup):
            fn(img)
        times = []
        if self.name == "cupy":
            start, end = self.xp.cuda.Event(), self.xp.cuda.Event()
            for _ in range(iterations):
                start.record()
                fn(img)
                end.record()
                end.synchronize()
                times.append(self.xp.cuda.get_elapsed_time(start, end) * 1e3)
        else:
            for _ in range(iterations):
                t = time.perf_counter()
                fn(img)
                times.append((time.perf_counter() - t) * 1e6)
        return statistics.median(times)


def choose_peer(wanted):
    if wanted in ("auto", "cupy"):
        try:
            return Peer("cupy")
        except ImportError as e:
            if wanted == "cupy":
                sys.exit("CuPy is not importable (%s): install cupy for this "
                         "GPU's CUDA, or use --peer scipy" % e)
    try:
        return Peer("scipy")
    except ImportError as e:
        sys.exit("neither CuPy nor SciPy is importable (%s)" % e)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", nargs="?", default="build",
                    help="build folder with bench/cudafilter-bench")
    ap.add_argument("--bench-csv", help="cudafilter-bench output to read "
                    "instead of running the bench")
    ap.add_argument("--size", default="3840x2160")
    ap.add_argument("--formats", default="rgba,gray8")
    ap.add_argument("--filters", default="gaussian,box,sobel,custom")
    ap.add_argument("--kernel", default=DEFAULT_CUSTOM,
                    help="the custom matrix (as the bench's --kernel)")
    ap.add_argument("--iterations", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--peer", choices=("auto", "cupy", "scipy"),
                    default="auto")
    args = ap.parse_args()

    if args.bench_csv:
        with open(args.bench_csv) as f:
            lines = f.readlines()
    else:
        cmd = ["%s/bench/cudafilter-bench" % args.build, "-S", args.size,
               "-F", args.formats, "-f", args.filters, "-n",
               str(args.iterations), "--kernel", args.kernel]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit("cudafilter-bench failed (%d): %s" %
                     (run.returncode, run.stderr.strip()))
        lines = run.stdout.splitlines()

    cases = bench_cases(lines)
    if not cases:
        sys.exit("no cudafilter-bench CSV lines to compare")
    peer = choose_peer(args.peer)
    where = "GPU, CUDA events" if peer.name == "cupy" else "CPU, wall time"
    print("peer: %s (%s), median of %d" % (peer.name, where, args.iterations))
    print("%-10s %-6s %10s %6s %14s %12s %9s" % (
        "filter", "format", "size", "taps", "cudafilter us", "peer us",
        "speedup"))
    compared = 0
    for case in cases:
        w, h = int(case["width"]), int(case["height"])
        img = peer.frame(case["format"], w, h)
        fn = peer.op(case, args.kernel, 4 if case["format"] == "rgba" else
                     1) if img is not None else None
        if fn is None:
            continue
        ours = float(case["kernel_us"])
        theirs = peer.time_us(fn, img, args.iterations, args.warmup)
        compared += 1
        print("%-10s %-6s %10s %6s %14.1f %12.1f %8.1fx" % (
            case["filter"], case["format"], "%dx%d" % (w, h),
            "%sx%s" % (case["kw"], case["kh"]), ours, theirs, theirs / ours))
        print("csv,%s,%s,%d,%d,%s,%s,%.2f,%s,%.2f,%.3f" % (
            case["filter"], case["format"], w, h, case["kw"], case["kh"],
            ours, peer.name, theirs, theirs / ours))
    if compared == 0:
        sys.exit("the peer has no equivalent for any of these cases")


if __name__ == "__main__":
    main()

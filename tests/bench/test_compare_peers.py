#!/usr/bin/env python3
"""bench/compare_peers.py without a GPU: it reads cudafilter-bench CSV
lines, gives each case the peer's equivalent filter (SciPy here) and prints
the ratio.  Checked: which cases get compared, the arithmetic of the table,
and that each peer call is the same-size filter (its response to an
impulse spans the cudafilter kernel's taps)."""
import importlib.util
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "bench", "compare_peers.py")

HEADER = ("csv,filter,format,width,height,kw,kh,separable,border,kernel_us,"
          "kernel_min_us,kernel_max_us,kernel_gbps,d2d_us,ratio_to_d2d,"
          "h2d_pinned_us,d2h_pinned_us,method,fft_w,fft_h,fft_tiles")
CASES = [
    # filter, format, kw, kernel_us
    ("gaussian", "rgba", 13, 40.0),
    ("gaussian", "gray8", 7, 20.0),
    ("box", "gray8", 3, 10.0),
    ("sobel", "rgba", 3, 80.0),
    ("laplacian", "gray8", 3, 25.0),
    ("custom", "gray8", 3, 22.0),
    # no peer equivalent: left out
    ("sharpen", "rgba", 13, 60.0),
    ("gaussian", "gray16", 17, 140.0),
]


def load_module():
    spec = importlib.util.spec_from_file_location("compare_peers", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
        f.write("device 0: a line the script must skip\n" + HEADER + "\n")
        for name, fmt, k, us in CASES:
            f.write("csv,%s,%s,64,48,%d,%d,1,reflect101,%.2f,0,0,0,5,2,0,0,"
                    "direct,0,0,0\n" % (name, fmt, k, k, us))
        path = f.name
    try:
        run = subprocess.run([sys.executable, SCRIPT, "--bench-csv", path,
                              "--peer", "scipy", "--iterations", "2",
                              "--warmup", "0"], capture_output=True,
                             text=True)
    finally:
        os.unlink(path)
    if run.returncode != 0:
        fail("exit %d: %s" % (run.returncode, run.stderr))
    rows = [l.split(",") for l in run.stdout.splitlines()
            if l.startswith("csv,")]
    got = [(r[1], r[2]) for r in rows]
    want = [(n, f) for n, f, _, _ in CASES[:6]]
    if got != want:
        fail("compared %s, expected %s" % (got, want))
    for r, (_, _, _, us) in zip(rows, CASES):
        ours, peer, ratio = float(r[7]), float(r[9]), float(r[10])
        if r[8] != "scipy" or ours != us or peer <= 0:
            fail("bad row %s" % r)
        if abs(ratio - peer / ours) > 1e-3 * ratio:
            fail("ratio %g is not %g / %g" % (ratio, peer, ours))

    # The peer filters have cudafilter's size: an impulse spreads over
    # exactly kw columns (and not across RGBA's channel axis).
    mod = load_module()
    peer = mod.Peer("scipy")
    for name, k in (("gaussian", 13), ("gaussian", 49), ("box", 7)):
        case = {"filter": name, "kw": str(k), "kh": str(k),
                "border": "constant"}
        img = np.zeros((81, 81, 4), np.float64)
        img[40, 40, 1] = 1e6
        out = peer.op(case, mod.DEFAULT_CUSTOM, 4)(img)
        cols = np.nonzero(out[40, :, 1])[0]
        if len(cols) != k or out[..., 0].any() or out[..., 2].any():
            fail("%s %d: the peer's impulse response spans %d columns" %
                 (name, k, len(cols)))
    print("ok: %d cases compared, %d left out; peer filter sizes match" %
          (len(rows), len(CASES) - len(rows)))


if __name__ == "__main__":
    main()

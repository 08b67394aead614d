#!/usr/bin/env python3
"""tools/cuda-probe.py against fake nvcc programs: the order it looks in,
the version it needs, and the folders it takes from nvcc's own profile."""
import os
import stat
import subprocess
import sys
import tempfile

PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                     "tools", "cuda-probe.py")


def fake_toolkit(root, release, codes=("75", "90"), host=""):
    """ROOT/bin/nvcc printing what a real one of `release` prints."""
    bindir = os.path.join(root, "bin")
    inc = os.path.join(root, "targets", "aarch64-linux", "include")
    lib = os.path.join(root, "targets", "aarch64-linux", "lib")
    for d in (bindir, inc, os.path.join(lib, "stubs")):
        os.makedirs(d, exist_ok=True)
    sm = " ".join("sm_" + c for c in codes)
    compute = " ".join("compute_" + c for c in codes)
    # With `host`, only -ccbin ending in it passes preprocessing, as a
    # release that rejects the default g++ does.
    host_check = f"""
if [ -n "{host}" ]; then
  case "$1 $2" in
    "-ccbin "*{host}) ;;
    *) for a; do [ "$a" = -E ] && {{ echo "host_config.h:137:2: error: -- unsupported GNU version!" >&2; echo "  |  ^~~" >&2; exit 1; }}; done ;;
  esac
fi
"""
    script = f"""#!/bin/sh
{host_check}
case "$1" in
  --version) echo "Cuda compilation tools, release {release}, V{release}.1";;
  --list-gpu-code) for c in {sm}; do echo $c; done;;
  --list-gpu-arch) for c in {compute}; do echo $c; done;;
  --dryrun)
    echo '#$ INCLUDES="-I{root}/bin/../targets/aarch64-linux/include"  ' >&2
    echo '#$ LIBRARIES=  "-L{root}/bin/../targets/aarch64-linux/lib/stubs" "-L{root}/bin/../targets/aarch64-linux/lib"' >&2;;
esac
"""
    nvcc = os.path.join(bindir, "nvcc")
    with open(nvcc, "w") as f:
        f.write(script)
    os.chmod(nvcc, os.stat(nvcc).st_mode | stat.S_IEXEC)
    return inc, lib


def probe(env, *args):
    out = subprocess.run([sys.executable, PROBE, *args], env=env,
                         capture_output=True, text=True, check=True).stdout
    return dict(line.split("\t", 1) for line in out.splitlines())


def main():
    failures = 0

    def check(what, cond):
        nonlocal failures
        print(("ok " if cond else "FAIL ") + what)
        failures += not cond

    with tempfile.TemporaryDirectory() as tmp:
        new = os.path.join(tmp, "cuda-12.4")
        old = os.path.join(tmp, "cuda-11.8")
        onpath = os.path.join(tmp, "onpath")
        inc, lib = fake_toolkit(new, "12.4", ("75", "80", "90"))
        fake_toolkit(old, "11.8")
        fake_toolkit(onpath, "13.0")
        base = {"PATH": "/usr/bin:/bin"}

        r = probe(dict(base, CUDA_PATH=new), "")
        check("$CUDA_PATH is used", r.get("nvcc") == new + "/bin/nvcc")
        check("version 12.4", r.get("version") == "12.4")
        check("include from the profile, any target",
              r.get("include") == os.path.normpath(inc))
        check("library folder from the profile, stubs left out",
              r.get("libdir") == os.path.normpath(lib))
        check("codes listed", r.get("codes") == "75,80,90")

        r = probe(dict(base, CUDA_HOME=new,
                       PATH=onpath + "/bin:/usr/bin:/bin"), "")
        check("$CUDA_HOME before PATH", r.get("nvcc") == new + "/bin/nvcc")

        r = probe(dict(base, PATH=onpath + "/bin:/usr/bin:/bin"), "")
        check("nvcc on PATH", r.get("nvcc") == onpath + "/bin/nvcc")

        r = probe(dict(base, CUDA_PATH=new), old)
        check("-Dtoolkit_root alone decides, and too old is refused",
              "nvcc" not in r and "CUDA 11.8" in r.get("error", "")
              and "needs CUDA 12.0 or newer" in r.get("error", ""))

        r = probe(dict(base, CUDA_PATH=old, CUDA_HOME=new), "")
        check("a too old toolkit is passed over for the next",
              r.get("nvcc") == new + "/bin/nvcc")

        picky = os.path.join(tmp, "picky")
        fake_toolkit(picky, "13.0", host="g++-15")
        gxx = os.path.join(tmp, "gxx")
        os.makedirs(gxx)
        for n in (15, 16):
            path = os.path.join(gxx, "g++-%d" % n)
            with open(path, "w") as f:
                f.write("#!/bin/sh\n")
            os.chmod(path, 0o755)
        r = probe(dict(base, PATH=gxx + ":/usr/bin:/bin"), picky)
        check("a g++-N the release accepts when the default is too new",
              r.get("ccbin") == os.path.join(gxx, "g++-15"))
        r = probe(base, picky)
        check("no host compiler accepted: said so, with nvcc's complaint",
              "accepts no host compiler" in r.get("error", "")
              and "unsupported GNU version" in r.get("error", ""))
        r = probe(dict(base, CUDA_PATH=new), "")
        check("the default host compiler is kept when it works",
              r.get("ccbin") == "")

        r = probe(base, os.path.join(tmp, "none"))
        check("a missing -Dtoolkit_root is named",
              "none/bin/nvcc" in r.get("error", ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

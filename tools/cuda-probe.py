#!/usr/bin/env python3
"""Finds the CUDA toolkit to build with and says what it offers.

The first nvcc of CUDA 12.0 or newer, looked for in this order:
  1. TOOLKIT_ROOT/bin/nvcc (-Dtoolkit_root; when given, only there)
  2. $CUDA_PATH/bin/nvcc, then $CUDA_HOME/bin/nvcc
  3. nvcc on PATH (Debian's /usr/bin/nvcc)
  4. /usr/local/cuda/bin/nvcc (NVIDIA's packages and installers)
The toolkit's include and library folders are the ones nvcc itself uses
(its nvcc.profile, as `nvcc --dryrun` prints it), so any target layout
(targets/x86_64-linux, targets/sbsa-linux, Debian's /usr/include) works.

Prints key<TAB>value lines for meson.build: nvcc, version, include, libdir,
codes (SM architectures nvcc can compile), ptx (compute architectures it
can embed as PTX), or `error` (what was found, what is needed).  With
--describe, one line for people instead.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

MINIMUM = (12, 0)


def candidates(toolkit_root):
    if toolkit_root:
        yield "-Dtoolkit_root=" + toolkit_root, os.path.join(
            toolkit_root, "bin", "nvcc")
        return
    for var in ("CUDA_PATH", "CUDA_HOME"):
        if os.environ.get(var):
            yield "$" + var, os.path.join(os.environ[var], "bin", "nvcc")
    on_path = shutil.which("nvcc")
    if on_path:
        yield "PATH", on_path
    yield "/usr/local/cuda", "/usr/local/cuda/bin/nvcc"


def run(nvcc, *args):
    return subprocess.run([nvcc, *args], capture_output=True, text=True,
                          timeout=60, check=False)


def version(nvcc):
    m = re.search(r"release (\d+)\.(\d+)", run(nvcc, "--version").stdout)
    return (int(m.group(1)), int(m.group(2))) if m else None


def folders(nvcc):
    """The -I and -L folders of nvcc's profile, as it resolves them."""
    out = run(nvcc, "--dryrun", "-c", "cuda-probe.cu").stderr
    inc, lib = [], []
    for line in out.splitlines():
        for key, flag, dest in (("INCLUDES=", "-I", inc),
                                ("LIBRARIES=", "-L", lib)):
            if line.startswith("#$ " + key):
                for word in re.findall(r'"([^"]*)"|(\S+)',
                                       line[3 + len(key):]):
                    word = word[0] or word[1]
                    if word.startswith(flag) and len(word) > 2:
                        path = os.path.normpath(word[2:])
                        # the compilers' own folders need no flag
                        if (os.path.isdir(path) and path not in dest
                                and path != "/usr/include"):
                            dest.append(path)
    lib = [d for d in lib if os.path.basename(d) != "stubs"]
    return inc, lib


def host_compiler(nvcc):
    """'' when nvcc takes its default host compiler, else the newest g++-N
    it accepts (a distribution's default g++ may be newer than the CUDA
    release supports), or None with nvcc's complaint."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "probe.cu")
        with open(src, "w") as f:
            f.write("int main () { return 0; }\n")
        tried = [None] + [shutil.which("g++-%d" % n)
                          for n in range(20, 8, -1)]
        first = None
        for ccbin in tried:
            if ccbin is None and first is not None:
                continue
            args = ["-E", src, "-o", os.devnull]
            if ccbin:
                args = ["-ccbin", ccbin] + args
            r = run(nvcc, *args)
            if r.returncode == 0:
                return ccbin or ""
            if first is None:
                lines = r.stderr.strip().splitlines() or ["failed"]
                first = next((l.strip() for l in lines if "error" in l),
                             lines[-1].strip())
                # "...: error: #error -- unsupported GNU version! gcc
                # versions later than 15 are not supported! The nvcc flag..."
                first = first.split("error", 1)[-1].lstrip(": #-")
                first = first.split(" The nvcc flag")[0].split("error -- ")[-1]
        return None, first


def listed(nvcc, option, prefix):
    out = run(nvcc, option).stdout.split()
    return [w[len(prefix):] for w in out
            if w.startswith(prefix) and w[len(prefix):].isdigit()]


def main():
    args = sys.argv[1:]
    describe = "--describe" in args
    args = [a for a in args if a != "--describe"]
    toolkit_root = args[0] if args else ""

    rejected = []
    for origin, nvcc in candidates(toolkit_root):
        if not (os.path.isfile(nvcc) and os.access(nvcc, os.X_OK)):
            if origin.startswith(("-D", "$")):
                rejected.append("%s: no %s" % (origin, nvcc))
            continue
        ver = version(nvcc)
        if ver is None:
            rejected.append("%s (%s): `nvcc --version` names no release"
                            % (nvcc, origin))
            continue
        if ver < MINIMUM:
            rejected.append("%s (%s) is CUDA %d.%d" % (nvcc, origin, *ver))
            continue
        ccbin = host_compiler(nvcc)
        if isinstance(ccbin, tuple):
            rejected.append("%s (%s, CUDA %d.%d) accepts no host compiler "
                            "here: %s; install an older g++ (g++-N)"
                            % (nvcc, origin, *ver, ccbin[1]))
            continue
        inc, lib = folders(nvcc)
        if describe:
            print("CUDA %d.%d: %s (from %s)%s" % (
                *ver, nvcc, origin,
                ", host compiler " + ccbin if ccbin else ""))
            return 0
        print("nvcc\t" + nvcc)
        print("version\t%d.%d" % ver)
        print("ccbin\t" + ccbin)
        print("include\t" + ",".join(inc))
        print("libdir\t" + ",".join(lib))
        print("codes\t" + ",".join(listed(nvcc, "--list-gpu-code", "sm_")))
        print("ptx\t" + ",".join(listed(nvcc, "--list-gpu-arch", "compute_")))
        return 0

    need = "CUDA %d.%d or newer with a host compiler it accepts" % MINIMUM
    found = "; ".join(rejected) if rejected else (
        "no nvcc (looked at -Dtoolkit_root, $CUDA_PATH, $CUDA_HOME, PATH, "
        "/usr/local/cuda)")
    if describe:
        print("no usable CUDA toolkit (%s; needs %s): building the CPU "
              "backend only" % (found, need))
    else:
        print("error\tfound %s; cudafilter needs %s (NVIDIA's CUDA toolkit, "
              "or Debian's nvidia-cuda-toolkit), or -Dtoolkit_root=DIR"
              % (found, need))
    return 0


if __name__ == "__main__":
    sys.exit(main())

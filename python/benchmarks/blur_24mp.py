"""24 MP float32 array: graphengine from_array + CIGaussianBlur sigma 10 + numpy() against pyvips
new_from_array + gaussblur(10) + numpy(), alternated in the same minute; each variant also in a
child process of its own for its peak memory (VmHWM, reset once the input array is made).

    GRAPHENGINE_LIBRARY=.build/release/libGraphEngineC.so PYTHONPATH=python python3 python/benchmarks/blur_24mp.py

Core Image's CIGaussianBlur inputRadius is the sigma, as vips' gaussblur sigma; both keep the
output the input's size here (graphengine's result is cropped to the input's extent, as Core
Image's extends it by the blur). `data` reads the values as they are (like vips); `sRGB` (the
from_array default) decodes them to linear light for the blur and encodes after; `borrow` is
`data` with copy=False (the array read in place).
"""
import os
import subprocess
import sys
import time

import numpy as np

HEIGHT, WIDTH, BANDS = 4000, 6000, 3
RUNS = int(os.environ.get("RUNS", "3"))


def make_array():
    rng = np.random.default_rng(0)
    return rng.random((HEIGHT, WIDTH, BANDS), dtype=np.float32)


def graphengine_run(a, color_space="data", split=False, copy=True):
    import graphengine as ge
    start = time.perf_counter()
    image = ge.Image.from_array(a, color_space=color_space, copy=copy)
    copied = time.perf_counter()
    out = image.apply("CIGaussianBlur", inputRadius=10).crop(0, 0, WIDTH, HEIGHT).numpy()
    end = time.perf_counter()
    assert out.shape == a.shape and out.dtype == np.float32
    return (end - start, copied - start, end - copied) if split else end - start


def pyvips_run(a):
    import pyvips
    start = time.perf_counter()
    out = pyvips.Image.new_from_array(a).gaussblur(10).numpy()
    end = time.perf_counter()
    assert out.shape == a.shape and out.dtype == np.float32
    return end - start


def _memory():
    """(current RSS, peak RSS) in MiB from /proc/self/status."""
    fields = dict(line.split(":", 1) for line in open("/proc/self/status"))
    return int(fields["VmRSS"].split()[0]) >> 10, int(fields["VmHWM"].split()[0]) >> 10


def child(variant):
    a = make_array()
    if variant == "pyvips":
        import pyvips  # noqa: F401  (loaded before the peak is reset)
    else:
        import graphengine  # noqa: F401
    with open("/proc/self/clear_refs", "w") as file:
        file.write("5")  # resets VmHWM to the current RSS
    base, _ = _memory()
    if variant == "pyvips":
        seconds = pyvips_run(a)
    elif variant == "borrow":
        seconds = graphengine_run(a, color_space="data", copy=False)
    else:
        seconds = graphengine_run(a, color_space=variant)
    _, peak = _memory()
    print("%s %.3f %d %d %d" % (variant, seconds, base, peak, peak - base))


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        return child(sys.argv[2])
    a = make_array()
    import graphengine as ge
    import pyvips
    print("graphengine library:", ge.library_path)
    print("pyvips %s, libvips %d.%d, vips threads %s, cores %d" % (
        pyvips.__version__, pyvips.version(0), pyvips.version(1), os.environ.get("VIPS_CONCURRENCY", "default"),
        os.cpu_count()))
    graphengine_run(a), pyvips_run(a)  # warm-up: programs compiled, libraries loaded
    results = {"graphengine data": [], "graphengine borrow": [], "graphengine sRGB": [], "pyvips": [], "copy": [],
               "render": []}
    for _ in range(RUNS):
        total, copy, render = graphengine_run(a, "data", split=True)
        results["graphengine data"].append(total)
        results["copy"].append(copy)
        results["render"].append(render)
        results["pyvips"].append(pyvips_run(a))
        results["graphengine borrow"].append(graphengine_run(a, "data", copy=False))
        results["graphengine sRGB"].append(graphengine_run(a, "sRGB"))
    for name, values in results.items():
        print("%-18s best %.3f s  median %.3f s  (%s)" % (name, min(values), sorted(values)[len(values) // 2],
                                                          ", ".join("%.3f" % v for v in values)))
    print("copy overhead: %.1f %% of the render (best copy %.3f s / best render %.3f s)" % (
        100 * min(results["copy"]) / min(results["render"]), min(results["copy"]), min(results["render"])))
    print("peak memory (child processes; the 24 MP float32 input alone is %d MiB):" % (a.nbytes >> 20))
    for variant in ("data", "borrow", "sRGB", "pyvips"):
        line = subprocess.run([sys.executable, __file__, "--child", variant], capture_output=True, text=True,
                              check=True).stdout.split()
        print("  %-7s %s s: RSS with the input made %s MiB, peak %s MiB, +%s MiB for the run" % tuple(line))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The peer table of issue 26: `graph run` against libvips 8.18 (pyvips), the vips CLI, OpenCV, Pillow and ffmpeg.

usage: python3 Benchmarks/peers/table.py [-n RUNS] [--threads 2,1] [TASK ...]  > results.md

TASK is any of T0 T1 T2 T3 T4 T5 T7 T8 gamma depth (default: all of them). T6 (1080p 4:2:0 to
RGBA, 300 frames) has no whole-process graph command: Benchmarks/Sources/engine-bench times it in
process, beside OpenCV's in-loop figure (README, Benchmarks). `depth` is CIDepthBlurEffect on the
12 MP iPhone X portrait (Benchmarks/depth): no peer has it, so it has graph's rows only (and the
baseline's). Every figure is a
whole process (start-up included), timed like ../shared/bench/peers/harness.py: wall seconds from a
monotonic clock, CPU (user + system) and peak RSS from the kernel's rusage of the reaped child.
For each task and thread count the tools run round-robin (graph, peer, peer, graph, ...), one
warm-up round and RUNS timed rounds, so every tool shares the same minutes of a noisy machine;
the table gives each tool's best wall with that run's CPU and peak memory, the median wall, and
graph's ratios against each peer (best wall / best wall; CPU of those runs).

Threads: graph `--threads N`, libvips `VIPS_CONCURRENCY=N`, OpenCV `OPENCV_FOR_THREADS_NUM=N`
(the task scripts' cv2 calls). Pillow is single-threaded and ffmpeg's filters run as it chooses:
they run in the 1-thread rounds only. OpenCV is skipped when `import cv2` fails (pip install
opencv-python-headless). PEERS (default ../shared/bench/peers) must hold inputs/ (made by its
make_inputs.sh) and be writable (the task scripts write out/); GRAPH is the binary
(default .build/release/graph); BASELINE=path/to/other/graph adds that binary as one more tool
(another build, to measure a change in the same minutes; BASELINE_LABEL says which).
"""
import argparse
import datetime
import os
import platform
import statistics
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PEERS = os.path.abspath(os.environ.get("PEERS", os.path.join(ROOT, "..", "shared", "bench", "peers")))
GRAPH = os.path.abspath(os.environ.get("GRAPH", os.path.join(ROOT, ".build", "release", "graph")))
BASELINE = os.environ.get("BASELINE")
PHOTO = os.path.join(PEERS, "inputs", "photo_6000x4000.jpg")
BIG = os.path.join(PEERS, "inputs", "big_12000x12000.jpg")
OUT = "/tmp/graph-bench"
VIPS_JPG = "[Q=90,subsample_mode=on,optimize_coding=false,interlace=false,strip=true]"
CV2_VERSION = subprocess.run(["python3", "-c", "import cv2; print(cv2.__version__)"], capture_output=True,
                             text=True).stdout.strip()
HAVE_OPENCV = bool(CV2_VERSION)
OPENCV = "OpenCV " + (CV2_VERSION or "")

GAMMA_PYVIPS = """
import sys, pyvips
im = pyvips.Image.new_from_file(sys.argv[1], access="sequential").gamma()
im.write_to_file(sys.argv[2], Q=90, subsample_mode="on", optimize_coding=False, interlace=False, strip=True)
"""


def task_script(name):
    return ["bash", os.path.join(PEERS, "tasks", name + ".sh")]


def graph(recipe, image=PHOTO, binary=GRAPH, folder="recipes", sets=()):
    command = [binary, "run", os.path.join(ROOT, "Benchmarks", folder, recipe + ".json")]
    if image:
        command += ["--set", "photo.file=" + image]
    for assignment in sets:
        command += ["--set", assignment]
    return command


# task -> (what, graph command, [(peer label, command, threaded)])
TASKS = {
    "T0": ("24 MP JPEG decode + re-encode", graph("t0-reencode"),
           [("pyvips 8.18", task_script("T0_pyvips818"), True), ("vips CLI 8.14", task_script("T0_vips"), True),
            (OPENCV, task_script("T0_cv2"), True), ("Pillow", task_script("T0_pil"), False)]),
    "T1": ("24 MP crop, Lanczos3 0.9, 3x3 sharpen", graph("t1-crop-lanczos-sharpen"),
           [("pyvips 8.18", task_script("T1_vips"), True), (OPENCV, task_script("T1_cv2"), True),
            ("Pillow", task_script("T1_pil"), False)]),
    "T2": ("24 MP sepia, hue, contrast", graph("t2-color-chain"),
           [("pyvips 8.18", task_script("T2_vips"), True), (OPENCV, task_script("T2_cv2"), True),
            ("Pillow", task_script("T2_pil"), False)]),
    "T3": ("24 MP Gaussian blur sigma 10", graph("t3-blur"),
           [("pyvips 8.18", task_script("T3_pyvips818"), True), ("vips CLI 8.14", task_script("T3_vips"), True),
            (OPENCV, task_script("T3_cv2"), True), ("Pillow", task_script("T3_pil"), False)]),
    "T4": ("24 MP Lanczos3 to 25 %", graph("t4-lanczos-quarter"),
           [("vips CLI 8.14 (gap 0)", task_script("T4_vips_exact"), True), (OPENCV, task_script("T4_cv2"), True),
            ("Pillow", task_script("T4_pil"), False)]),
    "T5": ("24 MP 33^3 3D LUT, trilinear", graph("t5-lut", sets=['look.inputCubeData={"file": "%s"}' % os.path.join(PEERS, "inputs", "lut33.cube")]),
           [("ffmpeg lut3d", task_script("T5_ffmpeg"), False), ("Pillow", task_script("T5_pil"), False)]),
    "T7": ("144 MP Gaussian blur sigma 3, streamed", graph("t7-big-blur", BIG),
           [("pyvips 8.18", task_script("T7_pyvips_seq"), True), ("vips CLI 8.14", task_script("T7_vips"), True),
            (OPENCV, task_script("T7_cv2"), True)]),
    "T8": ("24 MP PNG decode + encode", graph("t8-png", os.path.join(PEERS, "inputs", "photo_6000x4000.png")),
           [("vips CLI 8.14", task_script("T8_vips"), True), (OPENCV, task_script("T8_cv2"), True)]),
    "gamma": ("24 MP x^2.4 per channel (CIGammaAdjust 2.4 / vips gamma)", graph("gamma"),
              [("pyvips 8.18", ["PYTHON", "-c", GAMMA_PYVIPS, PHOTO, OUT + "/gamma_pyvips.jpg"], True),
               ("vips CLI 8.14", ["vips", "gamma", PHOTO, OUT + "/gamma_vips.jpg" + VIPS_JPG], True)]),
    "depth": ("12 MP CIDepthBlurEffect (iPhone X portrait, f/2.8), JPEG in and out",
              graph("portrait-blur-full", image=None, folder="depth"), []),
}


def one(cmd, env):
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         env=env, cwd=PEERS, start_new_session=True)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), err.decode(errors="replace")[-2000:]))
    return dict(wall=wall, cpu=ru.ru_utime + ru.ru_stime, peak=ru.ru_maxrss / 1024.0)


def run_task(name, threads, runs, python):
    what, graph_cmd, peers = TASKS[name]
    tools = [("graph", graph_cmd + ["--threads", str(threads)])]
    if BASELINE:
        tools.append(("graph baseline", [os.path.abspath(BASELINE)] + graph_cmd[1:] + ["--threads", str(threads)]))
    tools += [(label, [python if a == "PYTHON" else a for a in cmd]) for label, cmd, threaded in peers
              if (threaded or threads == 1) and (label != OPENCV or HAVE_OPENCV)]
    env = dict(os.environ, PYTHON=python, VIPS_CONCURRENCY=str(threads), OPENCV_FOR_THREADS_NUM=str(threads))
    results = {label: [] for label, _ in tools}
    for round_ in range(runs + 1):
        for label, cmd in tools:
            r = one(cmd, env)
            if round_ > 0:
                results[label].append(r)
    rows = []
    g = min(results["graph"], key=lambda r: r["wall"])
    for label, _ in tools:
        rs = results[label]
        best = min(rs, key=lambda r: r["wall"])
        ratio = "" if label == "graph" else "%.2f× / %.2f×" % (g["wall"] / best["wall"], g["cpu"] / best["cpu"])
        rows.append("| %s | %s | %d | %.3f | %.3f | %.2f | %.0f | %s |" % (
            name, label, threads, best["wall"], statistics.median(r["wall"] for r in rs), best["cpu"], best["peak"], ratio))
        print("  %s %s %dt: best %.3f s, cpu %.2f s, %.0f MiB" % (name, label, threads, best["wall"], best["cpu"], best["peak"]),
              file=sys.stderr)
    return what, rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=3, help="timed rounds per task and thread count (best of N)")
    ap.add_argument("--threads", default="2,1")
    ap.add_argument("tasks", nargs="*")
    a = ap.parse_args()
    tasks = a.tasks or ["T0", "T1", "T2", "T3", "T4", "T5", "T7", "T8", "gamma", "depth"]
    python = subprocess.run(["python3", "-c", "import sys; print(sys.executable)"], capture_output=True,
                            text=True, check=True).stdout.strip()
    os.makedirs(OUT, exist_ok=True)
    os.makedirs(os.path.join(PEERS, "out"), exist_ok=True)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                           text=True).stdout.strip()
    libvips = subprocess.run([python, "-c", "import pyvips; print('%d.%d.%d' % tuple(pyvips.version(i) for i in range(3)))"],
                             capture_output=True, text=True).stdout.strip()
    cli = subprocess.run(["vips", "--version"], capture_output=True, text=True).stdout.strip()
    opencv = "OpenCV " + CV2_VERSION if HAVE_OPENCV else "no OpenCV"
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    load = os.getloadavg()[0]
    print("# Peer table (issue 26)\n")
    print("%s UTC, graph at %s%s, %d cores (%s), %s; pyvips on libvips %s; %s; %s.\n" % (
        datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"), commit, " + uncommitted changes" if dirty else "",
        os.cpu_count(), cpu, platform.platform(), libvips, cli or "no vips CLI", opencv))
    print("Whole process, start-up included; best wall of %d alternating rounds (after one warm-up round), with that run's "
          "CPU (user + system) and peak RSS; median wall beside it. Ratio = graph / peer: wall, then CPU (below 1: graph "
          "ahead). Command: `bash Benchmarks/peers/run-table.sh` (`%s`).\n" % (a.n, " ".join(["table.py", "-n", str(a.n), "--threads", a.threads] + tasks)))
    if BASELINE:
        print("`graph baseline` is `%s` (%s), run in the same rounds.\n" % (BASELINE, os.environ.get("BASELINE_LABEL", "another build")))
    print("| task | tool | threads | best wall s | median wall s | CPU s | peak MiB | graph ÷ peer (wall / CPU) |")
    print("|---|---|---|---|---|---|---|---|")
    for name in tasks:
        for threads in [int(t) for t in a.threads.split(",")]:
            what, rows = run_task(name, threads, a.n, python)
            for row in rows:
                print(row)
            sys.stdout.flush()
    print("\nLoad average (1 min) at the start %.1f, at the end %.1f (other processes share the cores: compare ratios, "
          "not seconds).\n" % (load, os.getloadavg()[0]))
    for name in tasks:
        print("- %s: %s" % (name, TASKS[name][0]))


if __name__ == "__main__":
    main()

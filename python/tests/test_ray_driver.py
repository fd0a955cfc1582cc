"""The Ray driver on a local Ray: the same outputs and log as one `graph batch` over the same
list, resumption by skipping done files, and a shard that still completes when its worker (or
its `graph batch`) is killed mid-run."""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import threading
import time
import unittest

from support import OUT_TEMPLATE, graph_binary, is_temporary, make_test_batch, output_files, output_names, read_log

try:
    import ray
except ImportError:  # CI installs ray; elsewhere these tests are skipped with this message
    ray = None

if ray is not None:
    import graph_ray
    from graph_ray import RecipeRejected, run_batch


def setUpModule():
    if ray is None:
        raise unittest.SkipTest("ray is not installed (pip install ray, or see .ci/run)")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)


def tearDownModule():
    if ray is not None and ray.is_initialized():
        ray.shutdown()


def processes():
    """pid -> (parent pid, argv) of every process."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as file:
                argv = [part.decode(errors="replace") for part in file.read().split(b"\0") if part]
            with open(f"/proc/{name}/stat") as file:
                parent = int(file.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        found[int(name)] = (parent, argv)
    return found


def stem(path):
    return os.path.splitext(os.path.basename(path))[0]


class RayDriverTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.graph = graph_binary()
        cls.folder = tempfile.mkdtemp(prefix="graph-ray-")
        cls.batch = make_test_batch(cls.folder)
        result = subprocess.run([cls.graph, "batch", cls.batch["recipe"], "--manifest", cls.batch["manifest"],
                                 "--out", os.path.join("reference", OUT_TEMPLATE), "--log", "reference.jsonl"],
                                cwd=cls.folder, capture_output=True, text=True)
        assert result.returncode == 1, result.stderr
        cls.reference = output_files(os.path.join(cls.folder, "reference"))
        cls.reference_log = read_log(os.path.join(cls.folder, "reference.jsonl"))

    @classmethod
    def tearDownClass(cls):
        subprocess.run(["rm", "-rf", cls.folder], check=False)

    def run_driver(self, name, **options):
        return run_batch(self.batch["recipe"], self.batch["inputs"], [os.path.join(name, OUT_TEMPLATE)],
                         graph=self.graph, cwd=self.folder, log=os.path.join(self.folder, f"{name}.jsonl"),
                         progress=False, **options)

    def assert_same_as_graph_batch(self, name, outcome):
        self.assertEqual(outcome.status, 1)
        files = output_files(os.path.join(self.folder, name))
        self.assertEqual(sorted(files), sorted(self.reference), "the same files as graph batch")
        for path, data in files.items():
            self.assertTrue(data == self.reference[path], f"{path}: not the bytes graph batch wrote")
        entries, summary = read_log(os.path.join(self.folder, f"{name}.jsonl"))
        reference_entries, reference_summary = self.reference_log
        self.assertEqual(sorted(entries), sorted(reference_entries))
        for path, entry in entries.items():
            expected = reference_entries[path]
            self.assertEqual(entry["index"], expected["index"], path)
            if expected["status"] == "failed":
                self.assertEqual((entry["status"], entry["error"]), ("failed", expected["error"]), path)
            else:
                self.assertIn(entry["status"], ("ok", "skipped"), path)
        self.assertEqual(summary["failed"], reference_summary["failed"])
        self.assertEqual(summary["ok"] + summary["skipped"], reference_summary["ok"])
        return summary

    def test_same_outputs_and_log_as_graph_batch_then_resumes_by_skipping(self):
        outcome = self.run_driver("ray", shard_size=40)
        summary = self.assert_same_as_graph_batch("ray", outcome)
        self.assertEqual(summary["shards"], (len(self.batch["inputs"]) + 39) // 40)
        self.assertEqual(summary["skipped"], 0)
        times = {path: os.stat(os.path.join(self.folder, "ray", path)).st_mtime_ns for path in self.reference}
        again = self.run_driver("ray", shard_size=40)
        summary = self.assert_same_as_graph_batch("ray", again)
        self.assertEqual(summary["skipped"], len(self.reference), "every done file is skipped")
        self.assertEqual(times, {path: os.stat(os.path.join(self.folder, "ray", path)).st_mtime_ns
                                 for path in self.reference}, "and left untouched")

    def kill_mid_shard(self, name, victim):
        """Runs the driver on a thread; once a shard's `graph batch` has written a few outputs,
        SIGKILLs it (victim "graph") or the Ray worker running it (victim "worker"). Returns the
        outcome, the killed pid and the first index of the shard it ran."""
        outcome = {}
        driver = threading.Thread(target=lambda: outcome.update(result=self.run_driver(name, shard_size=60)))
        driver.start()
        killed = None
        deadline = time.monotonic() + 120
        while killed is None and driver.is_alive() and time.monotonic() < deadline:
            running = processes()
            for pid, (parent, argv) in running.items():
                if argv[:2] != [self.graph, "batch"] or not any(name + "/" in part for part in argv):
                    continue
                worker = running.get(parent, (0, []))[1]
                self.assertTrue(worker and worker[0].startswith("ray::"), f"{argv} runs in {worker}")
                first_index = int(argv[argv.index("--first-index") + 1])
                stems = {stem(path) for path in self.batch["inputs"][first_index:first_index + 60]}
                done = [path for path in output_names(os.path.join(self.folder, name))
                        if not is_temporary(path) and stem(path) in stems]
                if len(done) >= 3:
                    killed = (pid if victim == "graph" else parent, first_index)
                    os.kill(killed[0], signal.SIGKILL)
                    break
            time.sleep(0.005)
        driver.join(timeout=300)
        self.assertIsNotNone(killed, "no shard was caught mid-run")
        return outcome["result"], killed[0], killed[1]

    def test_a_killed_worker_is_retried_by_ray_and_the_batch_completes(self):
        outcome, worker, first_index = self.kill_mid_shard("killed-worker", "worker")
        summary = self.assert_same_as_graph_batch("killed-worker", outcome)
        self.assertEqual(summary["failed_shards"], 0)
        shard = next(result for result in outcome.shards if result.first_index == first_index)
        self.assertNotEqual(shard.worker_pid, worker, "the shard was run again by another worker")
        self.assertGreater(shard.summary["skipped"], 0, "the retry skipped what the killed run had done")

    def test_a_killed_graph_batch_is_retried_and_the_batch_completes(self):
        outcome, _, first_index = self.kill_mid_shard("killed-graph", "graph")
        self.assert_same_as_graph_batch("killed-graph", outcome)
        shard = next(result for result in outcome.shards if result.first_index == first_index)
        self.assertGreater(shard.summary["skipped"], 0, "the retry skipped what the killed run had done")

    def test_a_refused_recipe_raises_and_runs_nothing(self):
        with self.assertRaises(RecipeRejected) as caught:
            run_batch(self.batch["recipe"], self.batch["inputs"], ["refused/{stem}.tif"], graph=self.graph,
                      cwd=self.folder, progress=False)
        self.assertIn("unknown output format", str(caught.exception))
        self.assertFalse(os.path.exists(os.path.join(self.folder, "refused")))

    def test_shards_keep_the_index_of_the_whole_list(self):
        self.assertEqual(graph_ray.split_shards(["a", "b", "c", "d", "e"], 2), [(0, ["a", "b"]), (2, ["c", "d"]), (4, ["e"])])


if __name__ == "__main__":
    unittest.main()

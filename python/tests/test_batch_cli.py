"""`graph batch` on the test batch (200 generated photos plus the corrupt files of the shared
test data), killed at random points and restarted: no partial output ever, and the final
outputs byte-identical to an uninterrupted run. Needs no Ray."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import tempfile
import time
import unittest

from support import OUT_TEMPLATE, graph_binary, is_temporary, make_test_batch, output_files, output_names, read_log


class InterruptedBatchTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.graph = graph_binary()
        cls.folder = tempfile.mkdtemp(prefix="graph-batch-kill-")
        cls.batch = make_test_batch(cls.folder)
        cls.reference = cls.run_batch("reference", [])

    @classmethod
    def tearDownClass(cls):
        subprocess.run(["rm", "-rf", cls.folder], check=False)

    @classmethod
    def command(cls, name, extra):
        return [cls.graph, "batch", cls.batch["recipe"], "--manifest", cls.batch["manifest"], "--jobs", "2",
                "--out", os.path.join(name, OUT_TEMPLATE), "--log", f"{name}.jsonl"] + extra

    @classmethod
    def run_batch(cls, name, extra):
        started = time.monotonic()
        result = subprocess.run(cls.command(name, extra), cwd=cls.folder, capture_output=True, text=True)
        return {"status": result.returncode, "stderr": result.stderr, "seconds": time.monotonic() - started,
                "log": read_log(os.path.join(cls.folder, f"{name}.jsonl")),
                "files": output_files(os.path.join(cls.folder, name))}

    def test_uninterrupted_run_writes_every_good_file_and_logs_every_bad_one(self):
        entries, summary = self.reference["log"]
        self.assertEqual(self.reference["status"], 1, self.reference["stderr"])
        self.assertEqual(len(entries), len(self.batch["inputs"]))
        good = [path for path in self.batch["inputs"] if path.startswith(os.path.join("in", "good"))]
        self.assertEqual(len(good), 200)
        for path in good:
            entry = entries[path]
            self.assertEqual(entry["status"], "ok", entry)
            relative = os.path.relpath(entry["output"], "reference")
            self.assertIn(relative, self.reference["files"])
        failed = [entry for entry in entries.values() if entry["status"] == "failed"]
        # Every corrupt PNG fails, and most crash-test JPEGs (a few decode with warnings).
        self.assertGreaterEqual(len(failed), 14 + 8)
        for entry in failed:
            self.assertTrue(entry["input"].startswith(os.path.join("in", "bad")), entry)
            self.assertTrue(entry["error"], entry)
            self.assertFalse(os.path.exists(os.path.join(self.folder, entry["output"])), entry)
        for name in os.listdir(os.path.join(self.folder, "in", "bad")):
            if name.startswith("x"):
                self.assertEqual(entries[os.path.join("in", "bad", name)]["status"], "failed", name)
        self.assertEqual(summary["failed"], len(failed))
        self.assertEqual(summary["ok"] + summary["failed"], len(self.batch["inputs"]))
        self.assertEqual(len(self.reference["files"]), summary["ok"])
        self.assertFalse([path for path in self.reference["files"] if is_temporary(path)])

    def finished_outputs(self):
        """How many outputs are in place, checking while the batch runs that each has its final
        size (a file written in place would be seen empty or short)."""
        folder = os.path.join(self.folder, "work")
        finished = 0
        for path in output_names(folder):
            if is_temporary(path):
                continue
            finished += 1
            try:
                size = os.stat(os.path.join(folder, path)).st_size
            except FileNotFoundError:
                continue
            self.assertEqual(size, len(self.reference["files"][path]), f"{path} seen while being written")
        return finished

    def test_killed_ten_times_then_finished_equals_an_uninterrupted_run(self):
        random.seed(13)
        expected = self.reference["files"]
        signals = [signal.SIGKILL, signal.SIGKILL, signal.SIGTERM, signal.SIGKILL, signal.SIGINT,
                   signal.SIGKILL, signal.SIGKILL, signal.SIGTERM, signal.SIGKILL, signal.SIGKILL]
        interrupted = 0
        killed = set()
        for attempt, number in enumerate(signals):
            done = self.finished_outputs()
            process = subprocess.Popen(self.command("work", ["--skip-existing"]), cwd=self.folder,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            # A random point of the run: after 1 to 20 more outputs, then up to 20 ms more (often
            # in the middle of rendering or writing the next files).
            target = done + random.randint(1, 20)
            while process.poll() is None and self.finished_outputs() < target:
                time.sleep(0.001)
            pause = time.monotonic() + random.uniform(0, 0.02)
            while time.monotonic() < pause:
                self.finished_outputs()
            process.send_signal(number)
            if number == signal.SIGKILL:
                killed.add(process.pid)
            _, stderr = process.communicate()
            if process.returncode not in (0, 1):
                interrupted += 1
                # SIGINT and SIGTERM stop the batch after the files in flight (status 128 + n);
                # before the batch has started they end the process as usual (-n).
                allowed = {-number} if number == signal.SIGKILL else {-number, 128 + number}
                self.assertIn(process.returncode, allowed, stderr.decode())
            # No partial output, ever: every file at an output's name is the finished file.
            for path, data in output_files(os.path.join(self.folder, "work")).items():
                if is_temporary(path):
                    writer = int(os.path.basename(path).rsplit(".tmp-", 1)[1].split("-")[0])
                    self.assertIn(writer, killed, f"{path} left by a process that was not SIGKILLed")
                    continue
                self.assertEqual(data, expected[path], f"{path} after attempt {attempt} ({signal.Signals(number).name})")
        self.assertGreaterEqual(interrupted, 8, "the kills should land mid-run")
        self.assertLess(self.finished_outputs(), len(expected), "the last kill left work to do")
        final = self.run_batch("work", ["--skip-existing"])
        self.assertEqual(final["status"], 1, final["stderr"])
        self.assertEqual(sorted(final["files"]), sorted(expected), "same files, no temporaries left")
        for path, data in final["files"].items():
            self.assertEqual(data, expected[path], path)
        entries, summary = final["log"]
        reference_entries = self.reference["log"][0]
        for path, entry in entries.items():
            if reference_entries[path]["status"] == "failed":
                self.assertEqual(entry["status"], "failed", path)
                self.assertEqual(entry["error"], reference_entries[path]["error"].replace("reference", "work"), path)
            else:
                self.assertIn(entry["status"], ("ok", "skipped"), path)
        self.assertGreater(summary["skipped"], 0)


if __name__ == "__main__":
    unittest.main()

"""The Dask and Spark examples (`python/examples`) on the test batch: the same outputs and
per-file statuses as one `graph batch`. Skipped where dask or pyspark is not installed (CI does
not install them: they are large; see the README)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

from support import OUT_TEMPLATE, REPOSITORY, graph_binary, make_test_batch, output_files, read_log

sys.path.insert(0, os.path.join(REPOSITORY, "python", "examples"))


class DaskAndSparkExampleTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.graph = graph_binary()
        cls.folder = tempfile.mkdtemp(prefix="graph-dask-spark-")
        cls.batch = make_test_batch(cls.folder, count=40)
        # Absolute paths: Spark runs the processes in its own folders.
        cls.manifest = os.path.join(cls.folder, "absolute.txt")
        with open(cls.manifest, "w") as file:
            file.write("".join(os.path.join(cls.folder, path) + "\n" for path in cls.batch["inputs"]))
        subprocess.run([cls.graph, "batch", cls.batch["recipe"], "--manifest", cls.manifest,
                        "--out", os.path.join(cls.folder, "reference", "{stem}.{ext}"), "--log", "reference.jsonl"],
                       cwd=cls.folder, capture_output=True, check=False)
        cls.reference = output_files(os.path.join(cls.folder, "reference"))
        cls.reference_log = read_log(os.path.join(cls.folder, "reference.jsonl"))[0]

    @classmethod
    def tearDownClass(cls):
        subprocess.run(["rm", "-rf", cls.folder], check=False)

    def check(self, name, entries):
        self.assertEqual(output_files(os.path.join(self.folder, name)), self.reference)
        self.assertEqual(len(entries), len(self.reference_log))
        for entry in entries:
            self.assertEqual(entry["status"], self.reference_log[entry["input"]]["status"], entry["input"])

    @unittest.skipUnless(importlib.util.find_spec("distributed"), "dask.distributed is not installed")
    def test_dask_client_map(self):
        from dask.distributed import Client
        from dask_batch import run_on_dask
        with Client(processes=False, n_workers=2, threads_per_worker=1, dashboard_address=None) as client:
            entries = run_on_dask(client, self.graph, self.batch["recipe"], self.manifest,
                                  os.path.join(self.folder, "dask", "{stem}.{ext}"), shard_size=10)
        self.check("dask", entries)

    @unittest.skipUnless(importlib.util.find_spec("pyspark"), "pyspark is not installed")
    def test_spark_rdd_pipe(self):
        from pyspark import SparkContext
        from spark_batch import run_on_spark
        sc = SparkContext("local[2]", "graph-batch-test")
        try:
            entries = run_on_spark(sc, self.graph, self.batch["recipe"], self.manifest,
                                   os.path.join(self.folder, "spark", "{stem}.{ext}"))
        finally:
            sc.stop()
        self.check("spark", entries)


if __name__ == "__main__":
    unittest.main()

"""`graph batch` over Spark with `RDD.pipe`: each partition's paths go to one `graph batch` on
its standard input, and its JSON-lines log comes back as the RDD's lines.

    python spark_batch.py GRAPH RECIPE MANIFEST OUT_TEMPLATE [MASTER]

Exit status 1 (some files failed) is a normal outcome, so `checkCode` stays off; a partition
whose log has no summary line did not finish (Spark retries lost executors by itself). `{index}`
restarts in every partition with `pipe` (use `mapPartitionsWithIndex` and `run_shard` to keep
it). Needs only the `graph` binary on the executors; give absolute paths (the processes run in
the executors' working folders).
"""

import json
import shlex
import sys

from pyspark import SparkContext


def run_on_spark(sc, graph, recipe, manifest, out, partitions=4):
    with open(manifest, encoding="utf-8") as file:
        paths = [line.rstrip("\r\n") for line in file if line.rstrip("\r\n")]
    command = [graph, "batch", recipe, "--manifest", "-", "--out", out, "--skip-existing", "--no-progress"]
    records = sc.parallelize(paths, partitions).pipe(shlex.join(command)).map(json.loads).collect()
    summaries = [record["summary"] for record in records if "summary" in record]
    if sum(summary["total"] for summary in summaries) != len(paths):
        raise RuntimeError("a partition's graph batch did not finish")
    return [record for record in records if "input" in record]


if __name__ == "__main__":
    graph, recipe, manifest, out = sys.argv[1:5]
    sc = SparkContext(sys.argv[5] if len(sys.argv) > 5 else "local[2]", "graph-batch")
    try:
        entries = run_on_spark(sc, graph, recipe, manifest, out)
    finally:
        sc.stop()
    for entry in entries:
        print(json.dumps(entry))
    sys.exit(1 if any(entry["status"] == "failed" for entry in entries) else 0)

"""`graph batch` over Dask: one `client.map` task per shard of the manifest.

    python dask_batch.py GRAPH RECIPE MANIFEST OUT_TEMPLATE [SCHEDULER_ADDRESS]

Each task runs `graph batch --skip-existing` on its shard (paths on stdin), so a retried task
only does what is left. Dask's `retries` retries any exception, also `RecipeRejected` (a bad
recipe: every try fails the same way, quickly). Workers need `graph_ray` importable
(`pip install --no-deps ./python`: this module does not use Ray).
"""

import json
import sys

from dask.distributed import Client

from graph_ray.batch import graph_batch_command, read_manifest, run_shard, split_shards


def run_on_dask(client, graph, recipe, manifest, out, shard_size=50):
    def shard_task(shard):
        first_index, paths = shard
        command = graph_batch_command(graph, recipe, [out], first_index=first_index)
        return run_shard(command, paths, first_index=first_index)

    futures = client.map(shard_task, split_shards(read_manifest(manifest), shard_size), retries=3)
    return [entry for result in client.gather(futures) for entry in result.entries]


if __name__ == "__main__":
    graph, recipe, manifest, out = sys.argv[1:5]
    with Client(sys.argv[5] if len(sys.argv) > 5 else None) as client:  # None: a local cluster
        entries = run_on_dask(client, graph, recipe, manifest, out)
    for entry in entries:
        print(json.dumps(entry))
    sys.exit(1 if any(entry["status"] == "failed" for entry in entries) else 0)

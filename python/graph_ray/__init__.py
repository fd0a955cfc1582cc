"""Runs GraphEngine's `graph batch` over many photos on a Ray cluster (or a local Ray).

    import ray, graph_ray
    ray.init()                                   # or ray.init(address="ray://head:10001")
    outcome = graph_ray.run_batch("recipe.json", graph_ray.read_manifest("photos.txt"),
                                  ["out/{stem}.jpg"], graph="/shared/bin/graph", log="batch.jsonl")
    print(outcome.summary)                       # ok / skipped / failed / files_per_second ...

`graph_ray.batch` (no Ray needed) runs one shard: use it from Dask or Spark.
"""

from .batch import (RecipeRejected, ShardResult, TransientShardError, graph_batch_command, parse_log, read_manifest,
                    run_shard, split_shards)

__all__ = ["RecipeRejected", "ShardResult", "TransientShardError", "graph_batch_command", "parse_log", "run_shard",
           "BatchOutcome", "read_manifest", "run_batch", "split_shards"]


def __getattr__(name):
    # The Ray driver imports ray: only when it is used, so `graph_ray.batch` works without Ray.
    if name in ("BatchOutcome", "run_batch"):
        from . import driver
        return getattr(driver, name)
    raise AttributeError(name)

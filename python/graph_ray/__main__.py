"""`python -m graph_ray RECIPE --manifest FILE --out TEMPLATE`: `graph batch` over Ray.

Exit status as `graph batch`: 0 every file succeeded, 1 some failed (see the log), 2 the recipe or
the command line was refused (nothing ran).
"""

from __future__ import annotations

import argparse
import json
import sys


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m graph_ray", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("recipe", help="the recipe JSON file (same path on every node)")
    parser.add_argument("inputs", nargs="*", help="input files (more with --manifest)")
    parser.add_argument("--manifest", action="append", default=[], help="a file listing one input path per line")
    parser.add_argument("--out", action="append", required=True, help="output template, as for graph batch")
    parser.add_argument("--graph", default="graph", help="the graph binary on the nodes (default: graph on PATH)")
    parser.add_argument("--shard-size", type=int, default=50, help="inputs per Ray task (default 50)")
    parser.add_argument("--jobs", type=int, default=2, help="files in flight per task (default 2)")
    parser.add_argument("--cpus-per-task", type=float, default=1, help="CPUs Ray reserves per task (default 1)")
    parser.add_argument("--max-retries", type=int, default=3, help="Ray retries of a shard that did not finish")
    parser.add_argument("--set", action="append", default=[], metavar="IMAGE.KEY=VALUE", help="passed to graph batch")
    parser.add_argument("--input-image", help="passed to graph batch")
    parser.add_argument("--threads", type=int, help="passed to graph batch (worker threads per render)")
    parser.add_argument("--log", help="write the JSON-lines log of every input here")
    parser.add_argument("--address", help="the Ray cluster (default: start or join a local one)")
    parser.add_argument("--working-dir", help="ship this folder to every node (Ray runtime_env working_dir); "
                                              "tasks then run inside it, so give paths relative to it")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)

    import ray

    from .batch import RecipeRejected, read_manifest
    from .driver import run_batch

    inputs = list(args.inputs)
    for manifest in args.manifest:
        inputs += read_manifest(manifest)
    extra = [option for setting in args.set for option in ("--set", setting)]
    if args.input_image:
        extra += ["--input-image", args.input_image]
    if args.threads:
        extra += ["--threads", str(args.threads)]
    runtime_env = {"working_dir": args.working_dir} if args.working_dir else None
    ray.init(address=args.address, runtime_env=runtime_env, log_to_driver=False)
    try:
        outcome = run_batch(args.recipe, inputs, args.out, graph=args.graph, shard_size=args.shard_size, jobs=args.jobs,
                            extra_args=extra, log=args.log, cwd=None if args.working_dir else "",
                            max_retries=args.max_retries, num_cpus=args.cpus_per_task, progress=not args.quiet,
                            keep_entries=not args.log)
    except RecipeRejected as error:
        print(f"graph_ray: {error}", file=sys.stderr)
        return 2
    finally:
        ray.shutdown()
    if not args.log:
        for entry in outcome.entries:
            print(json.dumps(entry))
        print(json.dumps({"summary": outcome.summary}))
    summary = outcome.summary
    print(f"graph_ray: {summary['total']} files: {summary['ok']} ok, {summary['skipped']} skipped, "
          f"{summary['failed']} failed in {summary['seconds']:.1f} s ({summary['files_per_second']} files/s)",
          file=sys.stderr)
    return outcome.status


if __name__ == "__main__":
    sys.exit(main())

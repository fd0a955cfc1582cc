"""Runs `graph batch` over a manifest on Ray: one task per shard of the list.

Transient failures (a killed worker or node, a crashed or interrupted `graph batch`) are retried
by Ray (`max_retries`, `retry_exceptions`); each retry runs `graph batch --skip-existing`, so it
only does the files its shard has not finished. Files that fail for good (a corrupt photo) are
not retried: they come back as `failed` lines of the log. Running the same batch again resumes
it the same way: done files are skipped.

Works the same on a local Ray (`ray.init()`) and on a cluster (`ray.init(address=...)`), as long
as every node sees the `graph` binary, the recipe, the inputs and the output folder at the same
paths (a shared filesystem), or gets them in a `runtime_env` working_dir.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Optional, Sequence

import ray

from .batch import RecipeRejected, ShardResult, TransientShardError, graph_batch_command, run_shard, split_shards


@ray.remote
def _shard_task(command, paths, first_index, cwd):
    return run_shard(command, paths, first_index=first_index, cwd=cwd)


@dataclass
class BatchOutcome:
    """The whole batch: one log entry per input, the totals, and the exit status `graph batch`
    would give (0: every file succeeded, 1: some failed)."""

    entries: list = field(default_factory=list)
    summary: dict = field(default_factory=dict)
    #: The shard results as they came back (which worker ran each); both lists stay empty with
    #: `keep_entries=False`.
    shards: list = field(default_factory=list)

    @property
    def status(self) -> int:
        return 1 if self.summary.get("failed", 0) else 0


class _Progress:
    """Files done of the total, the rate and the time left, on stderr after every shard (in place
    on a terminal)."""

    def __init__(self, total_files: int, total_shards: int, enabled: bool):
        self.total_files, self.total_shards, self.enabled = total_files, total_shards, enabled
        self.start = time.monotonic()
        self.terminal = sys.stderr.isatty()

    def update(self, shards_done: int, counts: dict) -> None:
        if not self.enabled:
            return
        done = counts["ok"] + counts["skipped"] + counts["failed"]
        seconds = time.monotonic() - self.start
        rate = (counts["ok"] + counts["failed"]) / seconds if seconds > 0 else 0.0
        line = (f"graph_ray: {shards_done}/{self.total_shards} shards, {done}/{self.total_files} files "
                f"({counts['ok']} ok, {counts['skipped']} skipped, {counts['failed']} failed), {rate:.1f} files/s")
        if rate > 0 and done < self.total_files:
            left = int((self.total_files - done) / rate + 0.5)
            line += f", ETA {left // 60}:{left % 60:02d}"
        sys.stderr.write(("\r" + line + "\x1b[K") if self.terminal else line + "\n")
        sys.stderr.flush()

    def finish(self) -> None:
        if self.enabled and self.terminal:
            sys.stderr.write("\n")


def run_batch(
    recipe: str,
    inputs: Sequence[str],
    out: Sequence[str],
    *,
    graph: str = "graph",
    shard_size: int = 50,
    jobs: int = 2,
    extra_args: Sequence[str] = (),
    log: Optional[str] = None,
    cwd: Optional[str] = "",
    max_retries: int = 3,
    num_cpus: float = 1,
    skip_existing: bool = True,
    progress: bool = True,
    keep_entries: bool = True,
) -> BatchOutcome:
    """Runs `graph batch RECIPE --out OUT...` over `inputs`, `shard_size` inputs per Ray task.

    `graph` is the binary's path on the nodes, `extra_args` more `graph batch` options (`--set`,
    `--input-image`, `--threads`). `cwd` is the folder relative paths are resolved in on every
    node: by default the driver's current folder (a shared filesystem); None leaves each task in
    its own working folder (a `runtime_env` working_dir). `num_cpus` is what Ray reserves per
    task (give `--threads` to match). `log` receives the JSON lines of every input and a summary,
    as `graph batch --log` writes them; with `keep_entries=False` the outcome keeps only the totals
    (millions of files). Raises `RecipeRejected` when `graph batch` refuses the recipe or options
    (nothing else is then started).
    """
    if cwd == "":
        cwd = os.getcwd()
    if not ray.is_initialized():
        ray.init()
    shards = split_shards(list(inputs), shard_size)
    task = _shard_task.options(max_retries=max_retries, retry_exceptions=[TransientShardError], num_cpus=num_cpus)
    pending = {}
    for first_index, paths in shards:
        command = graph_batch_command(graph, recipe, out, first_index=first_index, jobs=jobs,
                                      skip_existing=skip_existing, extra_args=extra_args)
        pending[task.remote(command, paths, first_index, cwd)] = (first_index, paths)
    waiting = list(pending)

    outcome = BatchOutcome()
    counts = {"ok": 0, "skipped": 0, "failed": 0}
    failed_shards = 0
    peak_bytes = 0
    meter = _Progress(len(inputs), len(shards), progress)
    start = time.monotonic()
    log_file = open(log, "w", encoding="utf-8") if log else None
    try:
        shards_done = 0
        while waiting:
            # The first shard to end, and any others that have ended by then.
            ready, waiting = ray.wait(waiting, num_returns=1)
            if waiting:
                more, waiting = ray.wait(waiting, num_returns=len(waiting), timeout=0)
                ready += more
            for ref in ready:
                first_index, paths = pending.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as error:
                    if isinstance(error.cause, RecipeRejected):
                        for other in pending:
                            ray.cancel(other, force=True)
                        raise error.cause from None
                    result = _failed_shard(first_index, paths, error)
                    failed_shards += 1
                except ray.exceptions.RayError as error:  # the worker or node died more than max_retries times
                    result = _failed_shard(first_index, paths, error)
                    failed_shards += 1
                shards_done += 1
                for entry in result.entries:
                    counts[entry["status"]] += 1
                    if log_file:
                        log_file.write(json.dumps(entry) + "\n")
                if keep_entries:
                    outcome.shards.append(result)
                    outcome.entries += result.entries
                peak_bytes = max([peak_bytes] + [entry.get("peak_bytes", 0) for entry in result.entries])
            if log_file:
                log_file.flush()
            meter.update(shards_done, counts)
        seconds = time.monotonic() - start
        outcome.summary = {
            "total": len(inputs), **counts, "not_run": len(inputs) - sum(counts.values()),
            "seconds": round(seconds, 3),
            "files_per_second": round((counts["ok"] + counts["failed"]) / seconds, 1) if seconds > 0 else 0,
            "peak_bytes": peak_bytes,
            "shards": len(shards), "failed_shards": failed_shards,
        }
        if log_file:
            log_file.write(json.dumps({"summary": outcome.summary}) + "\n")
    finally:
        meter.finish()
        if log_file:
            log_file.close()
    return outcome


def _failed_shard(first_index: int, paths: Sequence[str], error: Exception) -> ShardResult:
    """A shard Ray gave up on (its retries spent): every input failed with the reason. Outputs it
    finished stay, and a later run skips them."""
    lines = str(error).strip().splitlines()
    reason = f"shard failed after its retries: {type(error).__name__}: {lines[-1] if lines else ''}"
    entries = [{"input": path, "index": first_index + offset, "output": None, "outputs": [], "status": "failed",
                "error": reason, "ms": 0, "peak_bytes": 0, "warnings": []} for offset, path in enumerate(paths)]
    return ShardResult(first_index=first_index, entries=entries, summary={}, returncode=-1)

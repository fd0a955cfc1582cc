"""Runs `graph batch` on one shard of inputs in a subprocess and reads its JSON-lines log.

Nothing here depends on Ray: the Ray driver (`graph_ray.driver`), a Dask `client.map` or a
Spark `mapPartitions` call the same `run_shard`. The shard's paths go to `graph batch` on
standard input (`--manifest -`), one per line, so nothing but the inputs, the outputs, the
recipe and the `graph` binary has to be on a shared filesystem.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import socket
import subprocess
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence


class RecipeRejected(Exception):
    """`graph batch` refused the recipe or its command line (exit status 2); nothing ran, and
    running the shard again cannot help."""


class TransientShardError(Exception):
    """`graph batch` did not finish (killed, crashed, out of memory, interrupted); running the
    shard again may, and it then skips the files already done (`--skip-existing`)."""


@dataclass
class ShardResult:
    """What one `graph batch` run over a shard did."""

    first_index: int
    #: One dict per input: input, index, output, outputs, status (ok/skipped/failed), error, ms,
    #: peak_bytes, warnings.
    entries: list = field(default_factory=list)
    #: The run's summary line (`total`, `ok`, `skipped`, `failed`, `seconds`, ...).
    summary: dict = field(default_factory=dict)
    returncode: int = 0
    #: The process that ran `graph batch` (a Ray worker, a Dask worker...) and its host.
    worker_pid: int = 0
    host: str = ""


def read_manifest(path: str) -> list:
    """The non-empty lines of a manifest file (one input path per line)."""
    with open(path, encoding="utf-8") as manifest:
        return [line.rstrip("\r\n") for line in manifest if line.rstrip("\r\n")]


def split_shards(inputs: Sequence[str], shard_size: int) -> list:
    """Consecutive shards of at most `shard_size` inputs: `(first_index, paths)`; the first index
    keeps `{index}` in output templates what it is in a single `graph batch` over the list."""
    if shard_size < 1:
        raise ValueError("shard_size must be at least 1")
    return [(start, list(inputs[start:start + shard_size])) for start in range(0, len(inputs), shard_size)]


def graph_batch_command(
    graph: str,
    recipe: str,
    out: Sequence[str],
    first_index: int = 0,
    jobs: int = 2,
    skip_existing: bool = True,
    extra_args: Sequence[str] = (),
) -> list:
    """The `graph batch` command line for a shard whose paths come on standard input."""
    command = [graph, "batch", recipe, "--manifest", "-", "--first-index", str(first_index),
               "--jobs", str(jobs), "--no-progress"]
    for template in out:
        command += ["--out", template]
    if skip_existing:
        command.append("--skip-existing")
    return command + list(extra_args)


def parse_log(lines: Iterable[str]) -> tuple:
    """The entries and the summary of a `graph batch` JSON-lines log."""
    entries, summary = [], {}
    for line in lines:
        line = line.strip()
        if not line:
            continue
        record = json.loads(line)
        if "summary" in record:
            summary = record["summary"]
        else:
            entries.append(record)
    return entries, summary


def _die_with_parent() -> None:
    """In the child before exec: SIGKILL it when the process that started it dies (Linux), so a
    killed worker leaves no `graph batch` running beside its retry."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def run_shard(
    command: Sequence[str],
    paths: Sequence[str],
    first_index: int = 0,
    cwd: Optional[str] = None,
) -> ShardResult:
    """Runs `command` (from `graph_batch_command`) with `paths` on its standard input.

    Exit status 0 or 1 (some files failed: permanent, each with its error in `entries`) returns
    the result; 2 raises `RecipeRejected`; anything else (a signal, a crash) raises
    `TransientShardError`, which a scheduler may retry.
    """
    for path in paths:
        if "\n" in path or "\r" in path:
            raise ValueError(f"input path with a line break cannot go in a manifest: {path!r}")
    process = subprocess.Popen(
        list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=cwd, text=True, preexec_fn=_die_with_parent if os.name == "posix" else None)
    stdout, stderr = process.communicate("".join(path + "\n" for path in paths))
    if process.returncode == 2:
        raise RecipeRejected(stderr.strip())
    if process.returncode not in (0, 1):
        tail = stderr.strip().splitlines()[-3:]
        raise TransientShardError(
            f"graph batch (first index {first_index}) exited with status {process.returncode}: " + " | ".join(tail))
    entries, summary = parse_log(stdout.splitlines())
    if not summary:
        raise TransientShardError(f"graph batch (first index {first_index}) wrote no summary")
    return ShardResult(first_index=first_index, entries=entries, summary=summary, returncode=process.returncode,
                       worker_pid=os.getpid(), host=socket.gethostname())

"""Shared fixtures: the repository, the `graph` CLI (GRAPH, default .build/debug/graph) and example files."""
import os
import shutil
import subprocess

import pytest

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PORTRAIT = os.path.join(REPOSITORY, "Examples", "depth", "portrait.jpg")
PHOTO = os.path.join(REPOSITORY, "Examples", "recipes", "photo.png")


@pytest.fixture(scope="session")
def graph():
    """The path of the `graph` CLI; the tests comparing with it are skipped without one."""
    path = os.environ.get("GRAPH", os.path.join(REPOSITORY, ".build", "debug", "graph"))
    if not os.path.exists(path) and shutil.which("graph"):
        path = shutil.which("graph")
    if not os.path.exists(path):
        pytest.skip("no graph CLI at %s (set GRAPH)" % path)
    return path


def run_graph(graph, *arguments):
    """Runs `graph` and fails the test with its stderr when it fails."""
    done = subprocess.run([graph, *arguments], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout

"""The notebook-style example runs start to end and writes its pictures with depth attached."""
import os
import subprocess
import sys

import graphengine as ge
from conftest import REPOSITORY

EXAMPLE = os.path.join(REPOSITORY, "python", "examples", "depth_notebook.py")


def test_depth_notebook_runs(tmp_path):
    done = subprocess.run([sys.executable, EXAMPLE], capture_output=True, text=True,
                          env={**os.environ, "OUT": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert "mask covers" in done.stdout
    for name in ("highlight.jpg", "portrait-blur.jpg"):
        written = ge.DepthPhoto(tmp_path / name)
        assert written.disparity.extent == (0, 0, 144, 192), name

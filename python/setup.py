"""Builds libGraphEngineC into the `graphengine` package when it is not bundled already.

`pip install ./python` from a checkout with a Swift toolchain: the library is built with
`swift build -c release --product GraphEngineC` in the repository (minutes the first time) and
copied into graphengine/_lib/. scripts/build-wheel.sh stages a built library (with the Swift
runtime) there first, so nothing is built. GRAPHENGINE_NO_BUILD=1 skips the build (the package then
finds the library through $GRAPHENGINE_LIBRARY or the repository's .build folders); without a
toolchain the package installs without the library (graph_ray needs none) and says so.
The wheel holds a native library but no Python extension: it is tagged py3-none-<platform>.
"""
import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(HERE)
LIBRARY = "libGraphEngineC.so"


class BuildPyWithEngine(build_py):
    """build_py, then the engine library into the built package unless one is staged."""

    def run(self):
        super().run()
        header = os.path.join(REPOSITORY, "Sources", "GraphEngineC", "graphengine.h")
        target = os.path.join(self.build_lib, "graphengine")
        if os.path.exists(header):
            shutil.copy(header, target)
        if os.path.exists(os.path.join(HERE, "graphengine", "_lib", LIBRARY)) or os.environ.get("GRAPHENGINE_NO_BUILD"):
            return
        if not os.path.exists(os.path.join(REPOSITORY, "Package.swift")) or shutil.which("swift") is None:
            # graph_ray alone needs no library (cluster nodes without a toolchain): installed without it.
            print("graphengine: no Swift toolchain or checkout to build %s: installed without it (import graphengine "
                  "will fail); install a wheel built by scripts/build-wheel.sh, or set GRAPHENGINE_LIBRARY" % LIBRARY)
            return
        subprocess.check_call(["swift", "build", "-c", "release", "--product", "GraphEngineC"], cwd=REPOSITORY)
        folder = subprocess.check_output(["swift", "build", "-c", "release", "--show-bin-path"], cwd=REPOSITORY,
                                         text=True).strip()
        os.makedirs(os.path.join(target, "_lib"), exist_ok=True)
        shutil.copy(os.path.join(folder, LIBRARY), os.path.join(target, "_lib", LIBRARY))


class NativeDistribution(Distribution):
    """Marks the wheel platform-specific (it carries a shared library)."""

    def has_ext_modules(self):
        return True


commands = {"build_py": BuildPyWithEngine}
try:
    from wheel.bdist_wheel import bdist_wheel

    class PlatformWheel(bdist_wheel):
        """py3-none-<platform>: ctypes works with any Python 3, the library needs this platform."""

        def get_tag(self):
            _, _, platform = super().get_tag()
            return "py3", "none", platform

    commands["bdist_wheel"] = PlatformWheel
except ImportError:
    pass

setup(cmdclass=commands, distclass=NativeDistribution)

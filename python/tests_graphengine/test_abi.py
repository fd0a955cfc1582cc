"""The C header shipped in the package, the library's exported functions and the ctypes
declarations name the same `ge_*` functions."""
import ctypes
import os
import re
import shutil
import subprocess

import numpy as np

import graphengine as ge
from graphengine import _lib
from conftest import REPOSITORY


def _header():
    installed = os.path.join(os.path.dirname(ge.__file__), "graphengine.h")
    return installed if os.path.exists(installed) else os.path.join(REPOSITORY, "Sources", "GraphEngineC", "graphengine.h")


def _declared():
    text = open(_header()).read()
    return set(re.findall(r"\b(ge_[a-z_]+)\s*\(", text))


def test_header_library_and_bindings_agree():
    declared = _declared()
    assert len(declared) == 34
    library = ctypes.CDLL(ge.library_path)
    assert all(hasattr(library, name) for name in declared), [n for n in declared if not hasattr(library, n)]
    bound = set(re.findall(r'_declare\("(ge_[a-z_]+)"', open(_lib.__file__).read()))
    assert bound == declared


def test_header_compiles_and_links_when_a_compiler_is_there(tmp_path):
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return  # the wheel needs no compiler; the check runs where one is
    source = tmp_path / "smoke.c"
    source.write_text(r'''
#include "graphengine.h"
#include <stdio.h>
int main(void) {
    char *error = 0; ge_image *image = 0;
    int32_t status = ge_image_open("/no/such/file.png", 0, &image, &error);
    printf("%d %s\n", status, error ? error : "");
    ge_string_free(error);
    return status == GE_ERROR_IO ? 0 : 1;
}
''')
    folder = os.path.dirname(ge.library_path)
    binary = tmp_path / "smoke"
    subprocess.run([compiler, "-I", os.path.dirname(_header()), str(source), ge.library_path,
                    "-Wl,-rpath," + folder, "-o", str(binary)], check=True)
    done = subprocess.run([str(binary)], capture_output=True, text=True)
    assert done.returncode == 0 and "/no/such/file.png" in done.stdout, done.stdout + done.stderr


def test_a_render_larger_than_its_destination_is_refused():
    image = ge.Image.from_array(np.zeros((10, 10, 4), np.uint8))
    small = np.empty((5, 10, 4), np.uint8)
    error = ctypes.c_void_p()
    status = _lib.lib.ge_render(image._handle, None, small.ctypes.data, small.nbytes, 40, 4, _lib.UINT8, None,
                                _lib.PROGRESS_FN(), None, ctypes.byref(error))
    message = _lib.take_string(error.value)
    assert status == _lib.INVALID_ARGUMENT and "too small for 10x10 RGBA8" in message, message


def test_fractional_rects_render_whole_pixels():
    image = ge.Image.from_array(np.arange(16, dtype=np.uint8).reshape(4, 4), color_space="data")
    assert image.numpy(rect=(0.5, 0.5, 2, 2)).shape == (3, 3)

"""`Recipe`: a JSON recipe (docs/recipes.md) loaded with overrides, its outputs as images or files."""
import ctypes
import json
import os
from ctypes import c_char_p, c_void_p

import numpy as np

from . import _lib
from .errors import check
from .image import Image, _new_handle


def _format(value):
    """A `--set` value: JSON for anything but a string already written as JSON."""
    return json.dumps(value)


class Recipe:
    """A recipe file: `Recipe.load("look.json").run({"sepia.inputIntensity": 0.6})` gives its
    output images by image name; `run(..., write=True)` writes its files as `graph run` does."""

    def __init__(self, path):
        self.path = os.fspath(path)

    @classmethod
    def load(cls, path):
        """The recipe at `path`; it is checked now (errors name the JSON path)."""
        recipe = cls(path)
        recipe._loaded({})
        return recipe

    def _loaded(self, overrides):
        settings = []
        for key, value in (overrides or {}).items():
            settings.append(("%s=%s" % (key, _format(value))).encode("utf-8"))
        array = (c_char_p * max(len(settings), 1))(*settings)
        handle = _new_handle(_lib.lib.ge_recipe_load, _lib.encode(self.path), array, len(settings))
        return _Loaded(handle)

    def run(self, overrides=None, write=False):
        """Builds the recipe with `overrides` ({"IMAGE.KEY": value}, as `graph run --set IMAGE.KEY=JSON`)
        and returns its outputs' images by image name, each rendering in its output's colour space
        and bit depth by default; with `write=True` the output files are written too, exactly as
        `graph run` writes them. Arrays are rendered with the default context options: a recipe
        whose `options` change them (working format, colour management) renders its files with
        its own, so `write=True` is the faithful path for those."""
        loaded = self._loaded(overrides)
        if write:
            loaded.write()
        return loaded.images()

    def warnings(self, overrides=None):
        """What the recipe warns about (a map stretched over a photo, a colour space guessed)."""
        return self._loaded(overrides).description()["warnings"]


class _Loaded:
    def __init__(self, handle):
        self._handle = handle

    def __del__(self):
        if getattr(self, "_handle", None) and _lib.lib is not None:
            _lib.lib.ge_recipe_free(self._handle)

    def description(self):
        text, error = c_void_p(), c_void_p()
        check(_lib.lib.ge_recipe_outputs_json(self._handle, ctypes.byref(text), ctypes.byref(error)), error)
        return json.loads(_lib.take_string(text.value))

    def images(self):
        outputs = {}
        for index, output in enumerate(self.description()["outputs"]):
            handle = _new_handle(_lib.lib.ge_recipe_output_image, self._handle, index)
            dtype = np.uint16 if output["bitDepth"] == 16 else np.uint8
            outputs[output["image"]] = Image(handle, bands=4, dtype=dtype, color_space=output["colorSpace"])
        return outputs

    def write(self):
        error = c_void_p()
        check(_lib.lib.ge_recipe_write(self._handle, ctypes.byref(error)), error)

"""`DepthPhoto`: a portrait photo with its depth map and mattes (iPhone Portrait JPEG/HEIC, Google
GDepth and Dynamic Depth JPEGs), read as `graph` reads them."""
import ctypes
import functools
import json
import os
from ctypes import c_void_p

import numpy as np

from . import _lib
from .errors import check
from .image import Image, _new_handle


class DepthPhoto:
    """A depth photo: `image` (the photo, upright), `disparity` / `depth` / `matte` (data images
    with real values, upright with the photo, at the map's own resolution: an iPhone map is about a
    fifth of the photo), `depth_data` (kind, ranges, accuracy, calibration as plain Python values)
    and `info` (the file's header facts, as `graph info --format json`).

    Write an edit of `photo.image` with `edited.write("out.jpg", depth_from=photo)` to carry the
    depth data and matte, moved with the edit."""

    def __init__(self, path):
        self.path = os.fspath(path)
        self.info  # reads the header now: a missing or unreadable file fails here

    @functools.cached_property
    def image(self):
        """The photo itself (colour, upright); edits of it can be written with depth attached."""
        return Image.open(self.path)

    def auxiliary(self, kind):
        """An auxiliary image by recipe name: `"disparity"`, `"depth"`, `"matte"`, `"skinMatte"`,
        `"hairMatte"`, `"teethMatte"`, `"glassesMatte"`, `"skyMatte"`, `"gainMap"`, `"confidence"`,
        `"original"`. Maps come as 1-band float32 data images."""
        handle = _new_handle(_lib.lib.ge_image_open_auxiliary, _lib.encode(self.path), _lib.encode(kind))
        if kind == "original":
            return Image(handle, bands=4, dtype=np.uint8, color_space=None)
        return Image(handle, bands=1, dtype=np.float32, color_space="data")

    @functools.cached_property
    def disparity(self):
        """The depth map as disparity (1/m; converted when the file stores depth)."""
        return self.auxiliary("disparity")

    @functools.cached_property
    def depth(self):
        """The depth map as depth (converted when the file stores disparity)."""
        return self.auxiliary("depth")

    @functools.cached_property
    def matte(self):
        """The portrait effects matte (0...1)."""
        return self.auxiliary("matte")

    @functools.cached_property
    def depth_data(self):
        """The depth map's facts: kind, width, height, accuracy, storedKind, storedRange,
        filtered, quality, version, sourceFormat, orientation, calibration (dicts, lists, numbers)."""
        return _json(_lib.lib.ge_depth_data_json, self.path)

    @functools.cached_property
    def info(self):
        """The header facts `graph info --format json` prints (format, size, profile, EXIF,
        auxiliary images...)."""
        return _json(_lib.lib.ge_photo_info_json, self.path)

    @property
    def auxiliary_images(self):
        """The recipe names of the auxiliary images the photo has (`["disparity", "depth", "matte"]`)."""
        return [name for entry in self.info["auxiliaryImages"] for name in entry.get("recipeNames", [])]

    def __repr__(self):
        return "<graphengine.DepthPhoto %s: %s>" % (self.path, ", ".join(self.auxiliary_images) or "no depth")


def _json(function, path):
    text, error = c_void_p(), c_void_p()
    check(function(_lib.encode(path), ctypes.byref(text), ctypes.byref(error)), error)
    return json.loads(_lib.take_string(text.value))

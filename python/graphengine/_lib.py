"""Loads libGraphEngineC (the engine's C ABI, graphengine.h) with ctypes and declares its functions.

The library is looked for, in order: $GRAPHENGINE_LIBRARY (a path to the .so), the copy bundled in
this package (graphengine/_lib/, as wheels and `pip install ./python` put it), then the newer of the
build folders of the repository this package sits in (.build/release, .build/debug), for a checkout
used in place.
ctypes releases the GIL around every foreign call, so renders run while other Python threads do.
"""
import ctypes
import os
from ctypes import (CFUNCTYPE, POINTER, c_char_p, c_double, c_int32, c_int64, c_void_p)

_NAME = "libGraphEngineC.so"

#: Status codes of graphengine.h.
OK, INVALID_ARGUMENT, IO, UNKNOWN_FILTER, INVALID_PARAMETER, RENDER, RECIPE, CANCELLED, DEPTH = range(9)
#: Sample types and alpha modes of graphengine.h.
UINT8, UINT16, FLOAT32 = 0, 1, 2
ALPHA_PREMULTIPLIED, ALPHA_STRAIGHT, ALPHA_OPAQUE = 0, 1, 2

RELEASE_FN = CFUNCTYPE(None, c_void_p)
PROGRESS_FN = CFUNCTYPE(c_int32, c_double, c_void_p)


def _candidates():
    explicit = os.environ.get("GRAPHENGINE_LIBRARY")
    if explicit:
        yield explicit
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "_lib", _NAME)
    repository = os.path.dirname(os.path.dirname(here))
    built = [os.path.join(repository, ".build", configuration, _NAME) for configuration in ("release", "debug")]
    yield from sorted(built, key=lambda path: os.path.getmtime(path) if os.path.exists(path) else 0, reverse=True)


def _load():
    tried = []
    for path in _candidates():
        if os.path.exists(path):
            return ctypes.CDLL(path), path
        tried.append(path)
    raise ImportError(
        "graphengine: cannot find %s (looked at %s); install a wheel (scripts/build-wheel.sh), "
        "`pip install ./python` with a Swift toolchain, or set GRAPHENGINE_LIBRARY" % (_NAME, ", ".join(tried)))


lib, path = _load()

_err = POINTER(c_void_p)  # char **: read as a void pointer, decoded and freed by hand
_out = POINTER(c_void_p)  # handle out-parameters


def _declare(name, restype, *argtypes):
    function = getattr(lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)


_declare("ge_version", c_char_p)
_declare("ge_string_free", None, c_void_p)
_declare("ge_image_free", None, c_void_p)
_declare("ge_image_open", c_int32, c_char_p, c_char_p, _out, _err)
_declare("ge_image_from_memory", c_int32, c_void_p, c_int64, c_int64, c_int64, c_int32, c_int32, c_int32, c_char_p,
         RELEASE_FN, c_void_p, _out, _err)
_declare("ge_image_extent", c_int32, c_void_p, POINTER(c_double), _err)
_declare("ge_image_crop", c_int32, c_void_p, c_double, c_double, c_double, c_double, _out, _err)
_declare("ge_image_clamped", c_int32, c_void_p, _out, _err)
_declare("ge_image_transformed", c_int32, c_void_p, POINTER(c_double), _out, _err)
_declare("ge_image_color_space", c_int32, c_void_p, _err, _err)
_declare("ge_params_new", c_void_p)
_declare("ge_params_free", None, c_void_p)
_declare("ge_params_set_number", c_int32, c_void_p, c_char_p, c_double, _err)
_declare("ge_params_set_vector", c_int32, c_void_p, c_char_p, POINTER(c_double), c_int64, _err)
_declare("ge_params_set_color", c_int32, c_void_p, c_char_p, POINTER(c_double), c_int64, c_char_p, _err)
_declare("ge_params_set_image", c_int32, c_void_p, c_char_p, c_void_p, _err)
_declare("ge_params_set_rect", c_int32, c_void_p, c_char_p, c_double, c_double, c_double, c_double, _err)
_declare("ge_params_set_transform", c_int32, c_void_p, c_char_p, POINTER(c_double), _err)
_declare("ge_params_set_bool", c_int32, c_void_p, c_char_p, c_int32, _err)
_declare("ge_params_set_string", c_int32, c_void_p, c_char_p, c_char_p, _err)
_declare("ge_params_set_data", c_int32, c_void_p, c_char_p, c_void_p, c_int64, _err)
_declare("ge_image_apply", c_int32, c_void_p, c_char_p, c_void_p, _out, _err)
_declare("ge_filters_json", c_int32, _err, _err)
_declare("ge_render", c_int32, c_void_p, POINTER(c_double), c_void_p, c_int64, c_int64, c_int32, c_int32, c_char_p,
         PROGRESS_FN, c_void_p, _err)
_declare("ge_image_write", c_int32, c_void_p, c_char_p, c_int32, c_int32, c_char_p, c_char_p, c_void_p,
         PROGRESS_FN, c_void_p, _err, _err)
_declare("ge_image_open_auxiliary", c_int32, c_char_p, c_char_p, _out, _err)
_declare("ge_photo_info_json", c_int32, c_char_p, _err, _err)
_declare("ge_depth_data_json", c_int32, c_char_p, _err, _err)
_declare("ge_recipe_load", c_int32, c_char_p, POINTER(c_char_p), c_int64, _out, _err)
_declare("ge_recipe_free", None, c_void_p)
_declare("ge_recipe_outputs_json", c_int32, c_void_p, _err, _err)
_declare("ge_recipe_output_image", c_int32, c_void_p, c_int64, _out, _err)
_declare("ge_recipe_image", c_int32, c_void_p, c_char_p, _out, _err)
_declare("ge_recipe_write", c_int32, c_void_p, _err)


def take_string(pointer):
    """The text of a malloc'd C string the library returned (None for NULL), freed."""
    if not pointer:
        return None
    try:
        return ctypes.string_at(pointer).decode("utf-8", "replace")
    finally:
        lib.ge_string_free(pointer)


def encode(text):
    """A str argument as UTF-8 bytes (None stays None); paths may be os.PathLike."""
    if text is None:
        return None
    return os.fsencode(text) if isinstance(text, os.PathLike) else str(text).encode("utf-8")

"""`Image`: an immutable, lazy image of the engine (a recipe of filters over sources), made from a
file, a NumPy array or a filter, rendered to arrays and files."""
import ctypes
import io
import itertools
import math
import os
import threading
import warnings
from ctypes import c_double, c_void_p

import numpy as np

from . import _lib, filters
from .errors import CancelledError, check

_SAMPLE_TYPES = {np.dtype(np.uint8): _lib.UINT8, np.dtype(np.uint16): _lib.UINT16, np.dtype(np.float32): _lib.FLOAT32}
_ALPHA = {"premultiplied": _lib.ALPHA_PREMULTIPLIED, "straight": _lib.ALPHA_STRAIGHT, "opaque": _lib.ALPHA_OPAQUE}

# Arrays lent to the engine with copy=False, by key, until the engine releases them (any thread).
_borrowed = {}
_borrowed_lock = threading.RLock()  # re-entrant: a collection inside the lock may release an array
_keys = itertools.count(1)


@_lib.RELEASE_FN
def _release(user):
    with _borrowed_lock:
        _borrowed.pop(user, None)


def borrowed_count():
    """How many arrays the engine still reads in place (from `from_array(..., copy=False)`)."""
    with _borrowed_lock:
        return len(_borrowed)


def _progress_callback(progress):
    """A ctypes progress function calling `progress(fraction)`; a true result cancels the render."""
    if progress is None:
        return _lib.PROGRESS_FN()

    def call(fraction, _user):
        try:
            return 1 if progress(fraction) else 0
        except BaseException:  # an exception in the callback cancels rather than crossing into C
            return 1

    return _lib.PROGRESS_FN(call)


def _new_handle(function, *arguments):
    handle, error = c_void_p(), c_void_p()
    check(function(*arguments, ctypes.byref(handle), ctypes.byref(error)), error)
    return handle.value


class Image:
    """An immutable, lazy image (Core Image's CIImage): nothing is computed until it is rendered
    (`numpy()`, `np.asarray(image)`, `write()`).

    Besides the engine's image it remembers how it likes to be read back: the number of bands
    and the dtype of the array it came from (4 and uint8 for files), and its colour space
    (`"data"` for depth maps and masks). Filters keep those of their input image.
    """

    __slots__ = ("_handle", "bands", "dtype", "color_space", "__weakref__")

    def __init__(self, handle, bands=4, dtype=np.uint8, color_space=None):
        self._handle = handle
        #: Channels `numpy()` returns by default (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA).
        self.bands = bands
        #: The NumPy dtype `numpy()` returns by default.
        self.dtype = np.dtype(dtype)
        #: The colour space renders use by default (None: the sources' own, else sRGB; "data": unconverted).
        self.color_space = color_space

    def __del__(self):
        handle, self._handle = getattr(self, "_handle", None), None
        if handle and _lib is not None and _lib.lib is not None:
            _lib.lib.ge_image_free(handle)

    def _derived(self, handle, **hints):
        values = {"bands": self.bands, "dtype": self.dtype, "color_space": self.color_space}
        values.update(hints)
        return Image(handle, **values)

    # Sources

    @classmethod
    def open(cls, path, color_space=None):
        """A PNG, JPEG or HEIF file, opened lazily and turned upright. `color_space`: None for the
        file's profile, `"data"` to read the stored values unconverted (masks, maps), or a space to
        assume (`"sRGB"`, `"displayP3"`, `"linearSRGB"`)."""
        handle = _new_handle(_lib.lib.ge_image_open, _lib.encode(path), _lib.encode(color_space))
        image = cls(handle, bands=4, dtype=np.uint8, color_space=color_space)
        try:
            info = _info(path)
        except Exception:  # the header was read already; its summary only sets the defaults
            return image
        image.bands = min(max(int(info.get("channels", 4)), 1), 4)
        image.dtype = np.dtype(np.uint16 if info.get("bitDepth") == 16 else np.uint8)
        return image

    @classmethod
    def from_array(cls, array, color_space="sRGB", alpha="premultiplied", copy=True):
        """An image of a NumPy array: (height, width) grey or (height, width, channels) with 1 to 4
        channels of uint8, uint16 or float32 (float64 is converted when copying), top row first,
        any row stride. `color_space` says what the values are (`"data"`: never converted);
        `alpha` how a 2- or 4-channel array holds alpha (premultiplied, Core Image's convention;
        `"straight"`; `"opaque"`). With `copy=True` (the default) the pixels are copied and the
        array can change or go; with `copy=False` the engine reads the array in place and keeps it
        alive until no image needs it (it must not be changed meanwhile); an array that cannot be
        read in place (pixels not packed, 2-channel float32, another dtype) is then an error."""
        array = np.asarray(array)
        if array.ndim not in (2, 3) or (array.ndim == 3 and not 1 <= array.shape[2] <= 4):
            raise ValueError("expected an array of shape (height, width) or (height, width, 1...4), got %s" % (array.shape,))
        if alpha not in _ALPHA:
            raise ValueError("alpha must be one of %s, got %r" % (", ".join(_ALPHA), alpha))
        dtype = array.dtype.newbyteorder("=") if array.dtype.byteorder not in "=|" else array.dtype
        if dtype not in _SAMPLE_TYPES:
            if not copy:
                raise ValueError("copy=False needs uint8, uint16 or float32 samples, got %s" % array.dtype)
            if array.dtype.kind not in "fiub":
                raise TypeError("cannot make an image of %s samples" % array.dtype)
            dtype = np.dtype(np.float32)
        channels = bands = 1 if array.ndim == 2 else array.shape[2]
        height, width = array.shape[:2]
        packed = (array.dtype == dtype and array.strides[1] == channels * dtype.itemsize
                  and (array.ndim == 2 or array.strides[2] == dtype.itemsize) and array.strides[0] >= width * channels * dtype.itemsize)
        if not copy:
            if not packed:
                raise ValueError("copy=False needs each row's pixels packed, rows top first (strides %s for shape %s); "
                                 "pass copy=True" % (array.strides, array.shape))
            if channels == 2 and dtype == np.float32:
                raise ValueError("copy=False cannot read 2-channel float32 in place; pass copy=True")
        elif not packed:
            array = np.ascontiguousarray(array, dtype=dtype)
        if channels == 2 and dtype == np.float32:  # no grey+alpha float format: grey, grey, grey, alpha
            array = np.ascontiguousarray(array[..., (0, 0, 0, 1)])
            channels = 4
        key, release = None, _lib.RELEASE_FN()
        if not copy:
            key = next(_keys)
            with _borrowed_lock:
                _borrowed[key] = array
            release = _release
        try:
            handle = _new_handle(_lib.lib.ge_image_from_memory, array.ctypes.data, width, height, array.strides[0],
                                 channels, _SAMPLE_TYPES[dtype], _ALPHA[alpha], _lib.encode(color_space), release, key)
        except BaseException:
            if key is not None:
                with _borrowed_lock:
                    _borrowed.pop(key, None)
            raise
        return cls(handle, bands=bands, dtype=dtype, color_space=color_space)

    @classmethod
    def filter(cls, name, image=None, **parameters):
        """The output of filter `name` (Core Image's name) with `parameters`: a generator when no
        input image is given (`Image.filter("CIConstantColorGenerator", inputColor=(1, 0, 0, 1))`)."""
        if image is not None:
            return image.apply(name, **parameters)
        handle = _apply(None, name, parameters)
        return cls(handle, bands=4, dtype=np.uint8, color_space=None)

    # Filters and geometry

    def apply(self, name, **parameters):
        """The output of filter `name` with this image as `inputImage` and `parameters` by input key
        (`inputRadius=4`) or builder name (`radius=4`). Values: numbers, bools, strings, Images,
        sequences for vectors, colours (3 or 4 unpremultiplied sRGB components, or
        `(components, "displayP3")`), rectangles (x, y, width, height) and transforms (a, b, c, d,
        tx, ty), bytes or arrays for data. Errors carry the engine's message."""
        return self._derived(_apply(self, name, parameters))

    def __getattr__(self, attribute):
        name = filters.resolve(attribute) if not attribute.startswith("_") else None
        if name is None:
            raise AttributeError("%r is neither an Image attribute nor a filter (graphengine.filter_names() lists them)"
                                 % attribute)

        def build(**parameters):
            return self.apply(name, **parameters)

        build.__name__ = attribute
        build.__doc__ = filters.describe(name)
        return build

    def __dir__(self):
        return sorted(set(object.__dir__(self)) | set(filters._by_function_name()))

    def crop(self, x, y, width, height):
        """The image cropped to the rectangle (Core Image coordinates: origin lower left)."""
        return self._derived(_new_handle(_lib.lib.ge_image_crop, self._handle, x, y, width, height))

    def clamped(self):
        """The image with its edge pixels repeated to infinity (crop it before rendering)."""
        return self._derived(_new_handle(_lib.lib.ge_image_clamped, self._handle))

    def transformed(self, a, b, c, d, tx, ty):
        """The image moved by the affine transform x' = a·x + c·y + tx, y' = b·x + d·y + ty."""
        matrix = (c_double * 6)(a, b, c, d, tx, ty)
        return self._derived(_new_handle(_lib.lib.ge_image_transformed, self._handle, matrix))

    @property
    def extent(self):
        """(x, y, width, height); an infinite image has infinite width and height."""
        values, error = (c_double * 4)(), c_void_p()
        check(_lib.lib.ge_image_extent(self._handle, values, ctypes.byref(error)), error)
        return tuple(values)

    @property
    def width(self):
        """Width of the extent in pixels."""
        return _pixel_span(self.extent, 0)

    @property
    def height(self):
        """Height of the extent in pixels."""
        return _pixel_span(self.extent, 1)

    @property
    def source_color_space(self):
        """The colour space the sources share (`"sRGB"`, `"displayP3"`...), `"data"` or `"mixed"`."""
        name, error = c_void_p(), c_void_p()
        check(_lib.lib.ge_image_color_space(self._handle, ctypes.byref(name), ctypes.byref(error)), error)
        return _lib.take_string(name.value)

    # Rendering

    def numpy(self, dtype=None, bands=None, color_space=None, rect=None, progress=None):
        """Renders the image (or `rect`, x, y, width, height) into a new array of shape (height,
        width) for one band or (height, width, bands), top row first, alpha premultiplied.
        Defaults: the dtype, bands and colour space the image came with. uint8 and uint16 are
        0...1 scaled; float32 keeps extended values. `progress(fraction)` is called from another
        thread while it renders; returning True cancels (`CancelledError`). The GIL is released
        while the engine renders."""
        dtype = np.dtype(self.dtype if dtype is None else dtype)
        if dtype not in _SAMPLE_TYPES:
            raise ValueError("dtype must be uint8, uint16 or float32, got %s" % dtype)
        bands = self.bands if bands is None else bands
        if bands not in (1, 2, 3, 4):
            raise ValueError("bands must be 1, 2, 3 or 4, got %r" % (bands,))
        color_space = self.color_space if color_space is None else color_space
        area = tuple(float(v) for v in (self.extent if rect is None else rect))
        if any(math.isinf(v) for v in area):
            raise ValueError("the image is infinite (clamped or a generator): crop it or pass rect=(x, y, width, height)")
        x, y = math.floor(area[0]), math.floor(area[1])  # whole pixels, rounded outward as the engine does
        width, height = _pixel_span(area, 0), _pixel_span(area, 1)
        area = (x, y, width, height)
        rendered = 4 if dtype == np.float32 and bands == 2 else bands
        out = np.empty((height, width) if rendered == 1 else (height, width, rendered), dtype=dtype)
        error = c_void_p()
        callback = _progress_callback(progress)
        check(_lib.lib.ge_render(self._handle, (c_double * 4)(*area), out.ctypes.data, out.nbytes, out.strides[0], rendered,
                                 _SAMPLE_TYPES[dtype], _lib.encode(color_space), callback, None, ctypes.byref(error)), error)
        if rendered != bands:
            out = out[..., (0, 3)]
        return out

    def __array__(self, dtype=None, copy=None):
        """NumPy's protocol: `np.asarray(image)` renders it (the image holds no pixels to share, so
        `copy=False` is refused, as NumPy 2 asks)."""
        if copy is False:
            raise ValueError("an Image holds no pixels to share: rendering always makes a new array (copy=False)")
        out = self.numpy()
        return out if dtype is None else out.astype(dtype, copy=False)

    def write(self, path, quality=0, bit_depth=0, color_space=None, depth_from=None, progress=None):
        """Renders and writes a PNG, JPEG or HEIC (by extension) atomically. `depth_from`: the
        `DepthPhoto` this image edits (made from `photo.image`): its EXIF, XMP, depth data and
        portrait matte are carried, moved with the edit (JPEG outputs); what cannot be carried is
        warned about. `quality` 1...100 (0: 90), `bit_depth` 8 or 16 (PNG; 0: 8)."""
        color_space = self.color_space if color_space is None else color_space
        photo_path, original = None, None
        if depth_from is not None:
            photo_path, original = depth_from.path, depth_from.image._handle
        notes, error = c_void_p(), c_void_p()
        callback = _progress_callback(progress)
        check(_lib.lib.ge_image_write(self._handle, _lib.encode(os.fspath(path)), quality, bit_depth,
                                      _lib.encode(color_space), _lib.encode(photo_path), original, callback, None,
                                      ctypes.byref(notes), ctypes.byref(error)), error)
        text = _lib.take_string(notes.value)
        if text:
            for line in text.splitlines():
                warnings.warn(line, stacklevel=2)

    def _repr_png_(self):
        """A PNG of the image for Jupyter (at most 1024 pixels a side is not enforced: crop big ones)."""
        import tempfile
        with tempfile.TemporaryDirectory() as folder:
            target = os.path.join(folder, "image.png")
            space = None if self.color_space == "data" else self.color_space
            self.write(target, color_space=space)
            with open(target, "rb") as file:
                return file.read()

    def __repr__(self):
        x, y, w, h = self.extent
        return "<graphengine.Image %gx%g at (%g, %g), %d bands %s%s>" % (
            w, h, x, y, self.bands, self.dtype.name, ", " + self.color_space if self.color_space else "")


def _info(path):
    """The header facts of an image file (`graph info --format json`)."""
    import json
    text, error = c_void_p(), c_void_p()
    check(_lib.lib.ge_photo_info_json(_lib.encode(path), ctypes.byref(text), ctypes.byref(error)), error)
    return json.loads(_lib.take_string(text.value))


def _pixel_span(area, axis):
    low, size = area[axis], area[axis + 2]
    if math.isinf(size):
        raise ValueError("the image is infinite: crop it first")
    return int(math.ceil(low + size) - math.floor(low))


def _apply(image, name, parameters):
    """A new handle: filter `name` applied with `parameters` (and `image` as inputImage)."""
    lib = _lib.lib
    params = lib.ge_params_new()
    try:
        for keyword, value in parameters.items():
            key = filters.input_key(name, keyword)
            _set(params, name, key, value)
        return _new_handle(lib.ge_image_apply, image._handle if image is not None else None, _lib.encode(name), params)
    finally:
        lib.ge_params_free(params)


def _set(params, name, key, value):
    lib, error = _lib.lib, c_void_p()
    encoded = _lib.encode(key)
    kind = filters.input_type(name, key)
    if isinstance(value, Image):
        status = lib.ge_params_set_image(params, encoded, value._handle, ctypes.byref(error))
    elif isinstance(value, (bool, np.bool_)):
        status = lib.ge_params_set_bool(params, encoded, int(value), ctypes.byref(error))
    elif isinstance(value, (int, float, np.integer, np.floating)):
        status = lib.ge_params_set_number(params, encoded, float(value), ctypes.byref(error))
    elif isinstance(value, str):
        status = lib.ge_params_set_string(params, encoded, _lib.encode(value), ctypes.byref(error))
    elif isinstance(value, (bytes, bytearray, memoryview)) or (isinstance(value, np.ndarray) and kind == "data"):
        data = bytes(np.ascontiguousarray(value)) if isinstance(value, np.ndarray) else bytes(value)
        status = lib.ge_params_set_data(params, encoded, data, len(data), ctypes.byref(error))
    elif kind == "color" and isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], str):
        values = [float(v) for v in value[0]]
        status = lib.ge_params_set_color(params, encoded, (c_double * len(values))(*values), len(values),
                                         _lib.encode(value[1]), ctypes.byref(error))
    else:
        try:
            values = [float(v) for v in np.asarray(value, dtype=np.float64).ravel()]
        except (TypeError, ValueError):
            raise TypeError("%s.%s: cannot pass a %s" % (name, key, type(value).__name__)) from None
        array = (c_double * max(len(values), 1))(*values)
        if kind == "color":
            status = lib.ge_params_set_color(params, encoded, array, len(values), None, ctypes.byref(error))
        elif kind == "rect" and len(values) == 4:
            status = lib.ge_params_set_rect(params, encoded, *values, ctypes.byref(error))
        elif kind == "transform" and len(values) == 6:
            status = lib.ge_params_set_transform(params, encoded, array, ctypes.byref(error))
        else:
            status = lib.ge_params_set_vector(params, encoded, array, len(values), ctypes.byref(error))
    check(status, error)

"""GraphEngine in Python: lazy Core Image-style filter graphs over NumPy arrays and depth photos.

    import numpy as np
    import graphengine as ge

    img = ge.Image.from_array(np.zeros((480, 640, 3), np.float32))
    blurred = img.apply("CIGaussianBlur", inputRadius=4)      # or img.gaussian_blur(radius=4)
    pixels = blurred.numpy()                                   # (480, 640, 3) float32
    photo = ge.DepthPhoto("portrait.jpg")
    disparity = np.asarray(photo.disparity)                    # 1/m, upright

The engine is libGraphEngineC (Swift), loaded with ctypes: no compiler is needed at install time.
"""
from . import _lib
from .depth import DepthPhoto
from .errors import (CancelledError, DepthError, EngineIOError, GraphEngineError, InvalidArgumentError,
                     InvalidParameterError, RecipeError, UnknownFilterError)
from .filters import builders as filters
from .filters import catalogue, filter_names
from .image import Image, borrowed_count
from .recipe import Recipe

__version__ = _lib.lib.ge_version().decode()
library_path = _lib.path

__all__ = [
    "Image", "DepthPhoto", "Recipe", "filters", "catalogue", "filter_names", "borrowed_count", "GraphEngineError",
    "UnknownFilterError", "InvalidParameterError", "InvalidArgumentError", "EngineIOError", "RecipeError",
    "DepthError", "CancelledError", "library_path",
]

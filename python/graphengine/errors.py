"""The exceptions the engine's status codes become; each carries the engine's message."""
from . import _lib


class GraphEngineError(Exception):
    """Any failure the engine reports; `status` is the C status code, the text the engine's message."""

    def __init__(self, message, status=_lib.RENDER):
        Exception.__init__(self, message)
        self.message = message
        self.status = status

    def __str__(self):
        return self.message


class UnknownFilterError(GraphEngineError, KeyError):
    """A filter name the catalogue does not have (the message names the one meant)."""


class InvalidParameterError(GraphEngineError, ValueError):
    """An unknown input key, a value of the wrong type or out of range, a missing input image."""


class InvalidArgumentError(GraphEngineError, ValueError):
    """A bad size, format, colour space name or rectangle."""


class EngineIOError(GraphEngineError, OSError):
    """A file that cannot be read, decoded or written."""


class RecipeError(GraphEngineError, ValueError):
    """A recipe problem; the message starts with its JSON path."""


class DepthError(GraphEngineError, LookupError):
    """A depth photo without the auxiliary image asked for, or one that cannot be read."""


class CancelledError(GraphEngineError):
    """A render stopped because the progress callback asked."""


_BY_STATUS = {
    _lib.INVALID_ARGUMENT: InvalidArgumentError, _lib.IO: EngineIOError, _lib.UNKNOWN_FILTER: UnknownFilterError,
    _lib.INVALID_PARAMETER: InvalidParameterError, _lib.RECIPE: RecipeError, _lib.CANCELLED: CancelledError,
    _lib.DEPTH: DepthError,
}


def check(status, error):
    """Raises the exception for a non-zero `status`, with the message in `error` (a c_void_p, freed)."""
    message = _lib.take_string(error.value)
    if status != _lib.OK:
        raise _BY_STATUS.get(status, GraphEngineError)(message or "graphengine error %d" % status, status)

"""The filter catalogue from the engine (names, inputs, defaults) and the attribute-style names
generated from it, as Core Image's CIFilterBuiltins: `CIGaussianBlur` is `gaussian_blur` (or
`gaussianBlur`) and its `inputRadius` is `radius`."""
import functools
import json
import re
from ctypes import c_void_p

from . import _lib
from .errors import check


@functools.lru_cache(maxsize=1)
def catalogue():
    """Every filter as a dict (name, categories, summary, inputs: key, type, default, minimum,
    maximum, sliderMinimum, sliderMaximum, count, summary, photoMap), by Core Image name."""
    text, error = c_void_p(), c_void_p()
    check(_lib.lib.ge_filters_json(text, error), error)
    return {entry["name"]: entry for entry in json.loads(_lib.take_string(text.value))}


def filter_names():
    """The Core Image names of every filter, sorted."""
    return sorted(catalogue())


def _lower_camel(name):
    """`GaussianBlur` -> `gaussianBlur`, `RVector` -> `rVector`, `EV` -> `ev` (the Swift builders' rule)."""
    run = 0
    while run < len(name) and name[run].isupper():
        run += 1
    if 1 < run < len(name) and name[run].islower():
        run -= 1
    run = max(run, 1)
    return name[:run].lower() + name[run:]


def _snake(camel):
    """`gaussianBlur` -> `gaussian_blur`, `rVector` -> `r_vector`."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", camel).lower()


def function_names(filter_name):
    """The attribute names of a filter: lowerCamel (`gaussianBlur`) and snake_case (`gaussian_blur`)."""
    camel = _lower_camel(filter_name[2:] if filter_name.startswith("CI") else filter_name)
    return {camel, _snake(camel)}


def key_names(key):
    """The keyword names of an input: its key, lowerCamel without `input` (`radius`) and snake_case."""
    if not key.startswith("input") or len(key) <= 5:
        return {key}
    camel = _lower_camel(key[5:])
    return {key, camel, _snake(camel)}


@functools.lru_cache(maxsize=1)
def _by_function_name():
    names = {}
    for name in catalogue():
        for alias in function_names(name):
            names.setdefault(alias, name)
    return names


def resolve(attribute):
    """The Core Image name an attribute stands for, or None."""
    return _by_function_name().get(attribute)


def input_key(filter_name, keyword):
    """The input key a keyword argument names (`radius` -> `inputRadius`); unknown ones unchanged,
    so the engine's message names them."""
    entry = catalogue().get(filter_name)
    if entry is None:
        return keyword
    for item in entry["inputs"]:
        if keyword in key_names(item["key"]):
            return item["key"]
    return keyword


def input_type(filter_name, key):
    """The declared type of an input (`number`, `vector`, `color`, `rect`, `transform`, `image`...), or None."""
    entry = catalogue().get(filter_name)
    for item in (entry or {}).get("inputs", []):
        if item["key"] == key:
            return item["type"]
    return None


def describe(filter_name):
    """A filter's summary and inputs as text (the docstring of its builder)."""
    entry = catalogue()[filter_name]
    lines = ["%s: %s" % (filter_name, entry["summary"]), "", "Inputs (keyword: input key, type, default):"]
    for item in entry["inputs"]:
        keyword = min(key_names(item["key"]) - {item["key"]}, key=len, default=item["key"])
        default = "" if item["default"] is None else " = %r" % (item["default"],)
        lines.append("  %s (%s, %s%s): %s" % (_snake(keyword), item["key"], item["type"], default, item["summary"]))
    return "\n".join(lines)


class _Generators:
    """Filters as functions: `graphengine.filters.constant_color_generator(color=(1, 0, 0, 1))`;
    a filter with an input image takes it as `image=` (or `inputImage=`)."""

    def __getattr__(self, attribute):
        name = resolve(attribute)
        if name is None:
            raise AttributeError("no filter is called %r (graphengine.filter_names() lists them)" % attribute)
        from .image import Image

        def build(image=None, **parameters):
            return Image.filter(name, image=image, **parameters)

        build.__name__ = attribute
        build.__doc__ = describe(name)
        return build

    def __dir__(self):
        return sorted(_by_function_name())


builders = _Generators()

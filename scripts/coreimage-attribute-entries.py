#!/usr/bin/env python3
"""Prints CoreImageAttributeTable entries (Tests/KernelsTests/CoreImageAttributeTable.swift) for
the filters named on the command line, from the reference sheet's JSON: categories without
CICategoryBuiltIn, and per input its default (number, vector, colour or rectangle as numbers),
hard minimum and slider range. Paste the output into the table's dictionary, sorted by name.

    python3 scripts/coreimage-attribute-entries.py CIDotScreen CILineScreen
"""
import json
import sys

REFERENCE = "/work/shared/reference/coreimage-filter-attributes.json"


def number(x):
    # Booleans' false/true bounds are not numeric limits.
    return "nil" if x is None or isinstance(x, bool) else repr(float(x))


def default(value):
    if value is None:
        return "nil"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return "[" + repr(float(value)) + "]"
    if isinstance(value, dict):
        for key in ("CIVector", "CIColor"):
            if key in value:
                return "[" + ", ".join(repr(float(v)) for v in value[key]) + "]"
    return "nil"


def main():
    table = json.load(open(REFERENCE))
    for name in sys.argv[1:]:
        entry = table[name]
        categories = ", ".join('"%s"' % c for c in entry["categories"] if c != "CICategoryBuiltIn")
        print('        "%s": ([%s], [' % (name, categories))
        for i in entry["inputs"]:
            print('            "%s": Input(value: %s, minimum: %s, sliderMinimum: %s, sliderMaximum: %s),'
                  % (i["key"], default(i.get("default")), number(i.get("min")), number(i.get("sliderMin")), number(i.get("sliderMax"))))
        print("        ]),")


if __name__ == "__main__":
    main()

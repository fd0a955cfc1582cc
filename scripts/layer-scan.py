#!/usr/bin/env python3
"""Which targets (or units) of the Swift sources use which others, against a layer order.

    scripts/layer-scan.py [--root Sources] [--layers 'A,B;C;D,E'] [--check] [--examples N]

The units are the first path component under the root: the SwiftPM targets under `Sources` (the
default), or a target's units with `--root Sources/GraphCPU`. Every type or function a unit
declares at the top level (struct, class, enum, protocol, actor, typealias, func; a nested type is
reached through its outer type's name) is that unit's; a name declared in two units is ambiguous
and not counted. A unit *uses* another when one of its files imports it or names one of its
declarations outside comments and string literals.

`--layers` lists the layers from the bottom up, `;` between layers and `,` between the units of
one layer (default: the package's targets, docs/design.md "Layers": the codecs, the engine's core
model, compiler, CPU backend and I/O, the GraphEngine umbrella with dumps and the reference
evaluator, then the filter catalogue, the recipe format and what is built on them). A unit may use
its own layer and those below; a use of a higher layer is a back-edge. The report lists every edge
with how many names it uses and a few of them, then the back-edges; `--check` exits 1 when there
is any. The build enforces the same order for the engine's targets (a target cannot import one
above it: that would be a dependency cycle); the scan also shows the edges a build does not, such
as a type named in a doc-free string or a layer that merely re-exports another.
"""
import argparse
import collections
import os
import re
import sys

DEFAULT_LAYERS = ("GraphCodecs;GraphCore;GraphCompiler;GraphCPU;GraphIO;GraphEngine;Kernels;GraphRecipes;"
                  "FilterBuilderGeneration,GraphVideo,GraphEngineC;GenerateFilterBuilders,GraphCLI")
DECLARATION = re.compile(
    r"^(?:@[\w()., ]+\s+)*(?:(?:public|package|internal|private|fileprivate|final|open|indirect|nonisolated)\s+)*"
    r"(?:struct|class|enum|protocol|actor|typealias)\s+([A-Za-z_]\w*)", re.M)
FUNCTION = re.compile(r"^(?:@[\w()., ]+\s+)*(?:(?:public|package|internal)\s+)?func\s+([A-Za-z_]\w*)", re.M)
IMPORT = re.compile(r"^(?:@\w+\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)", re.M)
ANY_FUNCTION = re.compile(r"\bfunc\s+([A-Za-z_]\w*)")
IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*\b")
# Standard-library names a target also declares for itself (GraphEngineC's MemoryLayout enum): a
# use of the standard library's is not a use of the target's.
STANDARD_NAMES = {"MemoryLayout"}


def strip(source):
    """The source without comments and string literals (multi-line strings included)."""
    source = re.sub(r'"""[\s\S]*?"""', '""', source)
    source = re.sub(r"/\*[\s\S]*?\*/", " ", source)
    source = re.sub(r"//[^\n]*", "", source)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', source)


def unit_of(path, root):
    parts = os.path.relpath(path, root).split(os.sep)
    return "." if len(parts) == 1 else parts[0]


def scan(root):
    files = collections.defaultdict(list)
    for directory, _, names in os.walk(root):
        for name in names:
            if name.endswith(".swift"):
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as handle:
                    files[unit_of(path, root)].append((path, strip(handle.read())))
    owners = collections.defaultdict(set)
    functions = collections.defaultdict(set)  # every unit declaring a function of the name, members too
    for unit, sources in files.items():
        for _, text in sources:
            for name in DECLARATION.findall(text) + FUNCTION.findall(text):
                owners[name].add(unit)
            for name in ANY_FUNCTION.findall(text):
                functions[name].add(unit)
    # A free function counts only where no other unit declares a function (a method) of its name,
    # and a use of it is a call: `name(`.
    owner = {name: next(iter(units)) for name, units in owners.items()
             if len(units) == 1 and name not in STANDARD_NAMES and functions[name] <= units}
    calls = {name: re.compile(r"\b" + name + r"\s*\(") for name in owner if name[0].islower()}
    edges = collections.defaultdict(lambda: collections.defaultdict(set))
    for unit, sources in files.items():
        for path, text in sources:
            for module in IMPORT.findall(text):
                if module in files and module != unit:
                    edges[unit][module].add("import " + module)
            for name in set(IDENTIFIER.findall(text)):
                target = owner.get(name)
                if name in calls and not calls[name].search(text):
                    continue
                if target is not None and target != unit:
                    edges[unit][target].add(name)
    return sorted(files), edges


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default="Sources")
    parser.add_argument("--layers", default=DEFAULT_LAYERS)
    parser.add_argument("--check", action="store_true", help="exit 1 when a unit uses a higher layer")
    parser.add_argument("--examples", type=int, default=4, help="names shown per edge")
    args = parser.parse_args()
    if not os.path.isdir(args.root):
        sys.exit(f"layer-scan: no folder {args.root}")
    units, edges = scan(args.root)
    level = {}
    for index, layer in enumerate(args.layers.split(";")):
        for unit in filter(None, (f.strip() for f in layer.split(","))):
            level[unit] = index
    unplaced = [f for f in units if f not in level]
    back = []
    print(f"{args.root}: {len(units)} units; edges (user -> used: names)")
    for source in units:
        for target in sorted(edges[source]):
            names = sorted(edges[source][target])
            shown = ", ".join(names[:args.examples]) + (", ..." if len(names) > args.examples else "")
            mark = ""
            if source in level and target in level and level[target] > level[source]:
                mark = "  BACK-EDGE"
                back.append((source, target, len(names)))
            print(f"  {source:15s} -> {target:15s} {len(names):3d}  {shown}{mark}")
    if unplaced:
        print(f"not in any layer (not checked): {', '.join(unplaced)}")
    print(f"{len(back)} back-edges against the order {args.layers!r}"
          + (": " + "; ".join(f"{s} -> {t} ({n})" for s, t, n in back) if back else ""))
    if args.check and back:
        sys.exit(1)


if __name__ == "__main__":
    main()

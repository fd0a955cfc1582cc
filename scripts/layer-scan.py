#!/usr/bin/env python3
"""Which folders (or targets) of the Swift sources use which others' types, against a layer order.

    scripts/layer-scan.py [--root Sources/GraphEngine] [--layers 'A,B;C;D,E'] [--check] [--examples N]

Every type a folder declares at the top level (struct, class, enum, protocol, actor, typealias; a
nested type is reached through its outer type's name) is that folder's; a name declared in two folders is ambiguous and not counted. A folder *uses* another
when one of its files names one of the other's types outside comments and string literals. Folders
are the first path component under the root, except that `IO/Depth` counts as its own folder.

`--layers` lists the layers from the bottom up, `;` between layers and `,` between the folders of
one layer (default: the engine's target shape in ../shared/design.md: the core model, the
compiler, the CPU backend, I/O, then profiling and the reference evaluator on top). A folder may
use its own layer and those below; a use of a higher layer is a back-edge. The report lists every
edge with how many types it uses and a few of them, then the back-edges; `--check` exits 1 when
there is any (the check item 2 of issue 29 asks a build to enforce once folders are targets).
"""
import argparse
import collections
import os
import re
import sys

DEFAULT_LAYERS = "Recipe;KernelLanguage,Optimizer,Program;Execution,AreaPasses;IO,IO/Depth;Profiling,Reference"
DECLARATION = re.compile(
    r"^(?:@[\w()., ]+\s+)*(?:(?:public|package|internal|private|fileprivate|final|open|indirect|nonisolated)\s+)*"
    r"(?:struct|class|enum|protocol|actor|typealias)\s+([A-Za-z_]\w*)", re.M)
IDENTIFIER = re.compile(r"\b[A-Z]\w*\b")


def strip(source):
    """The source without comments and string literals (multi-line strings included)."""
    source = re.sub(r'"""[\s\S]*?"""', '""', source)
    source = re.sub(r"/\*[\s\S]*?\*/", " ", source)
    source = re.sub(r"//[^\n]*", "", source)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', source)


def folder_of(path, root):
    parts = os.path.relpath(path, root).split(os.sep)
    if len(parts) == 1:
        return "."
    if parts[0] == "IO" and len(parts) > 2 and parts[1] == "Depth":
        return "IO/Depth"
    return parts[0]


def scan(root):
    files = collections.defaultdict(list)
    for directory, _, names in os.walk(root):
        for name in names:
            if name.endswith(".swift"):
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as handle:
                    files[folder_of(path, root)].append((path, strip(handle.read())))
    owners = collections.defaultdict(set)
    for folder, sources in files.items():
        for _, text in sources:
            for name in DECLARATION.findall(text):
                owners[name].add(folder)
    owner = {name: next(iter(folders)) for name, folders in owners.items() if len(folders) == 1}
    edges = collections.defaultdict(lambda: collections.defaultdict(set))
    for folder, sources in files.items():
        for path, text in sources:
            for name in set(IDENTIFIER.findall(text)):
                target = owner.get(name)
                if target is not None and target != folder:
                    edges[folder][target].add(name)
    return sorted(files), edges


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default="Sources/GraphEngine")
    parser.add_argument("--layers", default=DEFAULT_LAYERS)
    parser.add_argument("--check", action="store_true", help="exit 1 when a folder uses a higher layer")
    parser.add_argument("--examples", type=int, default=4, help="type names shown per edge")
    args = parser.parse_args()
    if not os.path.isdir(args.root):
        sys.exit(f"layer-scan: no folder {args.root}")
    folders, edges = scan(args.root)
    level = {}
    for index, layer in enumerate(args.layers.split(";")):
        for folder in filter(None, (f.strip() for f in layer.split(","))):
            level[folder] = index
    unplaced = [f for f in folders if f not in level]
    back = []
    print(f"{args.root}: {len(folders)} folders; edges (user -> used: types)")
    for source in folders:
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

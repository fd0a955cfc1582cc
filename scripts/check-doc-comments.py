#!/usr/bin/env python3
"""Lists public declarations without a doc comment (`///` or `/** */` above them) in Sources/.

Exit status 1 when any is missing. Usage: scripts/check-doc-comments.py [Sources]."""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "Sources")
declaration = re.compile(r"^\s*(@[\w().:, ]+\s+)*(public|open)\s+(?!import)")
missing = []
for folder, _, files in os.walk(root):
    for name in sorted(files):
        if not name.endswith(".swift"):
            continue
        path = os.path.join(folder, name)
        lines = open(path, encoding="utf-8").read().split("\n")
        for number, line in enumerate(lines):
            if not declaration.match(line):
                continue
            # Walk up over attributes and blank-free continuation to the comment.
            above = number - 1
            while above >= 0 and lines[above].strip().startswith("@"):
                above -= 1
            previous = lines[above].strip() if above >= 0 else ""
            if previous.startswith("///") or previous.endswith("*/"):
                continue
            # `public enum X { case a, b }` members: enum cases need no public keyword, so only
            # declarations count here.
            missing.append(f"{os.path.relpath(path)}:{number + 1}: {line.strip()}")
for entry in missing:
    print(entry)
print(f"{len(missing)} public declarations without a doc comment", file=sys.stderr)
sys.exit(1 if missing else 0)

#!/usr/bin/env python3
"""Lists public declarations without a doc comment (`///` or `/** */` above them) in Sources/,
including the cases of public enums.

Exit status 1 when any is missing. Usage: scripts/check-doc-comments.py [Sources]."""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "Sources")
declaration = re.compile(r"^\s*(@[\w().:, ]+\s+)*(public|open)\s+(?!import)")
public_enum = re.compile(r"^\s*(@[\w().:, ]+\s+)*public\s+(indirect\s+)?enum\s")
missing = []


def documented(lines, number):
    # Walk up over attributes to the comment.
    above = number - 1
    while above >= 0 and lines[above].strip().startswith("@"):
        above -= 1
    previous = lines[above].strip() if above >= 0 else ""
    return previous.startswith("///") or previous.endswith("*/")


for folder, _, files in os.walk(root):
    for name in sorted(files):
        if not name.endswith(".swift"):
            continue
        path = os.path.join(folder, name)
        lines = open(path, encoding="utf-8").read().split("\n")
        depth = 0
        enums = []  # brace depth at which each enclosing public enum's body starts
        for number, line in enumerate(lines):
            stripped = line.strip()
            code = re.sub(r'"(\\.|[^"\\])*"', '""', line.split("//")[0])
            in_public_enum = bool(enums) and depth == enums[-1]
            if declaration.match(line) or (in_public_enum and stripped.startswith("case ")):
                if not documented(lines, number):
                    missing.append(f"{os.path.relpath(path)}:{number + 1}: {stripped}")
            if public_enum.match(line) and "{" in code:
                enums.append(depth + 1)
            depth += code.count("{") - code.count("}")
            while enums and depth < enums[-1]:
                enums.pop()
for entry in missing:
    print(entry)
print(f"{len(missing)} public declarations without a doc comment", file=sys.stderr)
sys.exit(1 if missing else 0)

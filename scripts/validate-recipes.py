#!/usr/bin/env python3
"""Validates every example recipe against docs/recipe.schema.json (needs the jsonschema package)."""
import glob
import json
import os
import sys

import jsonschema

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(os.path.join(root, "docs", "recipe.schema.json")) as f:
    schema = json.load(f)
failed = 0
for path in sorted(glob.glob(os.path.join(root, "Examples", "recipes", "*.json"))):
    with open(path) as f:
        recipe = json.load(f)
    try:
        jsonschema.validate(recipe, schema)
    except jsonschema.ValidationError as error:
        failed += 1
        print(f"{os.path.relpath(path, root)}: {error.message}", file=sys.stderr)
print(f"recipes: {len(glob.glob(os.path.join(root, 'Examples', 'recipes', '*.json'))) - failed} valid, {failed} invalid")
sys.exit(1 if failed else 0)

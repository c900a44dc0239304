#!/usr/bin/env python3
"""Fails when a public symbol declared in the project's sources has no doc comment.

    doc-coverage.py GRAPHS_DIR

Reads the symbol graphs make docs handed DocC (GRAPHS_DIR/MODULE/*.symbols.json, one folder
per documented module, as `swift package dump-symbol-graph` extracted them) and lists every
public or open symbol whose declaration is in Sources/ and that has no comment: members the
compiler synthesises (Codable, Equatable) and those inherited from the standard library are
declared elsewhere and are not counted.
"""
import glob
import json
import os
import sys

SOURCES = os.path.abspath("Sources")
if len(sys.argv) != 2:
    sys.exit("usage: doc-coverage.py GRAPHS_DIR")
graphs = glob.glob(os.path.join(sys.argv[1], "*", "*.symbols.json"))
if not graphs:
    sys.exit("no symbol graphs in %s: run make docs" % sys.argv[1])
count, missing = 0, set()
for path in graphs:
    for symbol in json.load(open(path))["symbols"]:
        uri = symbol.get("location", {}).get("uri", "")
        if symbol.get("accessLevel") not in ("public", "open") or SOURCES not in uri:
            continue
        count += 1
        if not symbol.get("docComment"):
            line = symbol["location"]["position"]["line"] + 1
            missing.add(f"{os.path.relpath(uri.replace('file://', ''))}:{line}: {'.'.join(symbol['pathComponents'])}")
for line in sorted(missing):
    print(f"undocumented: {line}")
print(f"{count} public symbols, {len(missing)} without a doc comment")
sys.exit(1 if missing else 0)

"""Validates JSON documents against one definition of the collaboration protocol's schema
(Protocol/schemas/collaboration-v1.schema.json), with the `jsonschema` package.

  validate_schema.py DEFINITION FILE...   exits 0 when every file is valid, else prints why and exits 1
"""
import json
import os
import sys

from jsonschema import Draft202012Validator

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Protocol", "schemas", "collaboration-v1.schema.json")


def main(definition, paths):
    schema = json.load(open(SCHEMA))
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator({"$ref": "#/$defs/" + definition, "$defs": schema["$defs"]})
    failed = False
    for path in paths:
        for error in validator.iter_errors(json.load(open(path))):
            print(f"{path}: {'/'.join(map(str, error.absolute_path))}: {error.message}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))

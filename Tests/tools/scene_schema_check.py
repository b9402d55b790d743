#!/usr/bin/env python3
"""Validates config files against a JSON Schema with python-jsonschema's
Draft202012Validator (Debian's python3-jsonschema), independently of
Throbber's own config reader.

usage: scene_schema_check.py SCHEMA.json CONFIG.json...

The schema itself is checked first (check_schema). Prints JSON:
{"schemaErrors": [msg], "files": [{"file", "errors": [{"path", "message"}]}]}
where path is the JSON path of the failing instance, like layers[0].fill."""
import json, sys
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

def json_path(parts):
    out = ""
    for p in parts:
        out += "[%d]" % p if isinstance(p, int) else ("." if out else "") + str(p)
    return out

def main():
    with open(sys.argv[1]) as f:
        schema = json.load(f)
    result = {"schemaErrors": [], "files": []}
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as e:
        result["schemaErrors"].append(e.message)
    validator = Draft202012Validator(schema)
    for path in sys.argv[2:]:
        with open(path) as f:
            instance = json.load(f)
        errors = sorted(validator.iter_errors(instance), key=lambda e: list(map(str, e.absolute_path)))
        result["files"].append({"file": path, "errors": [
            {"path": json_path(e.absolute_path), "message": e.message} for e in errors]})
    json.dump(result, sys.stdout)

main()

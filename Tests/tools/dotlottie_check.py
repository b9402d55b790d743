#!/usr/bin/env python3
"""Reads a dotLottie (.lottie) archive with Python's own zipfile and checks
its manifest against the dotLottie 2.0 specification (dotlottie.io/spec/2.0),
for the tests of `throbber render/preset -o X.lottie`.

  dotlottie_check.py ARCHIVE
      prints one JSON object:
        testzip   None when every entry reads back and matches its CRC-32,
                  else the first bad entry's name (zipfile.testzip)
        entries   each entry in central-directory order: name, method
                  (0 stored, 8 deflated), crc, compress_size, file_size,
                  date_time, flag_bits, extra (hex), comment (hex),
                  create_system, create_version, extract_version,
                  external_attr, internal_attr, header_offset, and sha256 of
                  its contents
        local_order  entry names in the order their local headers appear
        manifest  the parsed manifest.json (None when missing or not JSON)
        errors    what the manifest or the layout breaks, as sentences
                  (empty when it follows the specification)
  dotlottie_check.py ARCHIVE NAME OUT
      writes the contents of entry NAME to OUT.

The rules checked, from the specification's tables: manifest.json at the
root; "version" a string (required), "generator" a string, "initial" an
object with string "animation" and "stateMachine", "animations" a non-empty
list of objects with a string "id" (and optional string "name",
"initialTheme", "background", and "themes" a list of strings), "themes" and
"stateMachines" lists of objects with a string "id" (and optional string
"name"), no other top-level keys; every animation id names a/ID.json,
every theme id t/ID.json, every state machine id s/ID.json; the ids an
animation names in "themes" or "initialTheme", and "initial.animation",
are listed. The schema is checked by python3-jsonschema.
"""
import hashlib
import json
import struct
import sys
import zipfile

import jsonschema

ID = {"type": "object", "required": ["id"], "additionalProperties": False,
      "properties": {"id": {"type": "string", "minLength": 1}, "name": {"type": "string"}}}
SCHEMA = {
    "type": "object",
    "required": ["version", "animations"],
    "additionalProperties": False,
    "properties": {
        "version": {"type": "string"},
        "generator": {"type": "string"},
        "initial": {"type": "object", "additionalProperties": False,
                    "properties": {"animation": {"type": "string"}, "stateMachine": {"type": "string"}}},
        "animations": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["id"], "additionalProperties": False,
            "properties": {"id": {"type": "string", "minLength": 1}, "name": {"type": "string"},
                           "initialTheme": {"type": "string"}, "background": {"type": "string"},
                           "themes": {"type": "array", "items": {"type": "string"}}}}},
        "themes": {"type": "array", "items": ID},
        "stateMachines": {"type": "array", "items": ID},
    },
}


def local_order(path):
    """Entry names in the order of their local file headers, walking the
    file from the start as a streaming reader (lottie-android's
    ZipInputStream) does."""
    data = open(path, "rb").read()
    names, at = [], 0
    while data[at:at + 4] == b"PK\x03\x04":
        flags, _, _, _, _, csize, _, nlen, xlen = struct.unpack_from("<HHHHIIIHH", data, at + 6)
        if flags & 8:
            break  # a data descriptor: the size is not in the header
        names.append(data[at + 30:at + 30 + nlen].decode("utf-8", "replace"))
        at += 30 + nlen + xlen + csize
    return names


def check(manifest, names):
    errors = []
    if manifest is None:
        return ["no manifest.json that parses as JSON"]
    try:
        jsonschema.validate(manifest, SCHEMA)
    except jsonschema.ValidationError as e:
        errors.append(f"manifest: {'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}")
        return errors
    if manifest["version"] != "2":
        errors.append(f"version {manifest['version']!r}: the a/, t/, s/ folders are version \"2\"'s")
    themes = [t["id"] for t in manifest.get("themes", [])]
    for folder, key in (("a", "animations"), ("t", "themes"), ("s", "stateMachines")):
        ids = [x["id"] for x in manifest.get(key, [])]
        if len(set(ids)) != len(ids):
            errors.append(f"{key}: an id is listed twice")
        for i in ids:
            if f"{folder}/{i}.json" not in names:
                errors.append(f"{key}: {folder}/{i}.json is not in the archive")
    for a in manifest["animations"]:
        for t in a.get("themes", []) + ([a["initialTheme"]] if "initialTheme" in a else []):
            if t not in themes:
                errors.append(f"animation {a['id']}: theme {t!r} is not in \"themes\"")
    start = manifest.get("initial", {}).get("animation")
    if start is not None and start not in [a["id"] for a in manifest["animations"]]:
        errors.append(f"initial.animation {start!r} is not an animation")
    return errors


def main():
    path = sys.argv[1]
    with zipfile.ZipFile(path) as z:
        if len(sys.argv) == 4:
            open(sys.argv[3], "wb").write(z.read(sys.argv[2]))
            return
        bad = z.testzip()
        entries = []
        for i in z.infolist():
            entries.append({
                "name": i.filename, "method": i.compress_type, "crc": i.CRC,
                "compress_size": i.compress_size, "file_size": i.file_size, "date_time": list(i.date_time),
                "flag_bits": i.flag_bits, "extra": i.extra.hex(), "comment": i.comment.hex(),
                "create_system": i.create_system, "create_version": i.create_version,
                "extract_version": i.extract_version, "external_attr": i.external_attr,
                "internal_attr": i.internal_attr, "header_offset": i.header_offset,
                "sha256": hashlib.sha256(z.read(i)).hexdigest()})
        names = z.namelist()
        try:
            manifest = json.loads(z.read("manifest.json"))
        except (KeyError, ValueError):
            manifest = None
    print(json.dumps({"testzip": bad, "entries": entries, "local_order": local_order(path),
                      "manifest": manifest, "errors": check(manifest, names)}))


if __name__ == "__main__":
    main()

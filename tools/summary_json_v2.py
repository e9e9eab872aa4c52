#!/usr/bin/env python3
"""Converts a bench summary.json of schemaVersion 1 (camelCase keys) to version 2 (snake_case).

    tools/summary_json_v2.py RUN/summary.json [MORE/summary.json ...]

Rewrites each file in place. Version 2 spells every key as analyze, check and diff do
(docs/json-schema.md, "Migrating from summary.json version 1"): `launchApi` becomes `launch_api`,
an expectation's `text` becomes `expression`, and `schemaVersion` keeps its name (every output
of attnprof has it, so that a reader can tell the versions apart) and becomes 2. The bench writes
its JSON one key per line (`"key": value`); the keys are rewritten in that text, so numbers and
everything else stay byte for byte. The memcpy kinds under `memcpyByKind` (`DtoD`) are values of
the data, not names of the schema, and stay as they are. A file already at version 2 is left
alone.
"""

import json
import re
import sys

KEY = re.compile(r'^(\s*)"([A-Za-z0-9]+)": ', re.MULTILINE)


def snake_case(key):
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "_" + m.group(1).lower(), key)


def convert(text):
    version = json.loads(text).get("schemaVersion")
    if version == 2:
        return None
    if version != 1:
        raise ValueError(f"schemaVersion {version!r}, expected 1")

    out = []
    kinds_indent = None  # the indentation of the memcpyByKind object being copied, if any
    for line in text.splitlines(keepends=True):
        match = KEY.match(line)
        if kinds_indent is not None:
            if match and len(match.group(1)) > kinds_indent:
                out.append(line)  # a memcpy kind: data, kept as it is
                continue
            kinds_indent = None
        if match:
            indent, key = match.group(1), match.group(2)
            if key == "memcpyByKind" and line.rstrip().endswith("{"):
                kinds_indent = len(indent)
            if key == "schemaVersion":
                line = line.replace('"schemaVersion": 1', '"schemaVersion": 2', 1)
            elif key == "text":
                line = line.replace('"text": ', '"expression": ', 1)
            elif key[0].islower():
                line = line.replace(f'"{key}": ', f'"{snake_case(key)}": ', 1)
        out.append(line)
    converted = "".join(out)
    json.loads(converted)  # still JSON
    return converted


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    status = 0
    for path in sys.argv[1:]:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            converted = convert(text)
        except (OSError, ValueError) as e:
            print(f"summary_json_v2.py: {path}: {e}", file=sys.stderr)
            status = 2
            continue
        if converted is None:
            print(f"{path}: already schemaVersion 2")
            continue
        with open(path, "w", encoding="utf-8") as f:
            f.write(converted)
        print(f"{path}: converted to schemaVersion 2")
    sys.exit(status)


if __name__ == "__main__":
    main()

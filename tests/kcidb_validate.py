#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Checks a KCIDB document: the schema (Draft 7, format checker on), then what the schema cannot say: ids unique, prefixed by the origin, and every link pointing at an object of the document.
import json
import sys

import jsonschema


def main(schema_path, doc_path, origin):
    schema = json.load(open(schema_path))
    with open(doc_path, encoding="utf-8") as f:
        doc = json.load(f)
    jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER).validate(doc)
    ids = {}
    for kind in ("checkouts", "builds", "tests", "issues", "incidents"):
        ids[kind] = set()
        for o in doc.get(kind, []):
            if o["origin"] != origin or not o["id"].startswith(origin + ":"):
                sys.exit(f"{kind}: '{o['id']}' is not of origin '{origin}'")
            if o["id"] in ids[kind]:
                sys.exit(f"{kind}: '{o['id']}' twice")
            ids[kind].add(o["id"])
    links = [("builds", "checkout_id", "checkouts"), ("tests", "build_id", "builds"),
             ("incidents", "issue_id", "issues"), ("incidents", "test_id", "tests"),
             ("incidents", "build_id", "builds")]
    for kind, key, target in links:
        for o in doc.get(kind, []):
            if key in o and o[key] not in ids[target]:
                sys.exit(f"{kind}: '{o['id']}' points at {key} '{o[key]}', which is not in {target}")
    print(" ".join(f"{k}={len(v)}" for k, v in ids.items()))


if __name__ == "__main__":
    main(*sys.argv[1:4])

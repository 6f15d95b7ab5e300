#!/usr/bin/env python3
"""Validate JSON documents against a JSON Schema (draft 2020-12), for the Swift tests.

Usage: validate.py SCHEMA.json < documents

Standard input holds the documents: one JSON array (each element is a document), or one JSON value,
or JSON Lines (one document per non-blank line). Empty input checks only the schema.

The schema itself is checked first (Draft202012Validator.check_schema). Documents are validated
with format checking on (whatever formats this jsonschema installation can check).

Exit status: 0 when the schema and every document are valid; 1 when any is not, with one line per
problem on standard error ("document 3: /priority: 7 is not one of [10, 5, 1, None]"); 2 on bad usage or
input that is not JSON.
"""

import json
import sys

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import SchemaError


def read_documents(text):
    """The documents in `text`: a JSON array's elements, a single JSON value, or JSON Lines."""
    if not text.strip():
        return []
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        documents = []
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                try:
                    documents.append(json.loads(line))
                except json.JSONDecodeError as error:
                    raise ValueError(f"line {number} is not JSON: {error}") from None
        return documents
    return value if isinstance(value, list) else [value]


def location(error):
    """A JSON pointer to where in the document the error is, "/" for the whole document."""
    return "/" + "/".join(str(part) for part in error.absolute_path)


def main(arguments):
    if len(arguments) != 1:
        print("usage: validate.py SCHEMA.json < documents", file=sys.stderr)
        return 2
    with open(arguments[0], encoding="utf-8") as file:
        schema = json.load(file)
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as error:
        print(f"schema {arguments[0]}: not a valid draft 2020-12 schema: {error.message}", file=sys.stderr)
        return 1
    try:
        documents = read_documents(sys.stdin.read())
    except ValueError as error:
        print(f"input: {error}", file=sys.stderr)
        return 2

    validator = Draft202012Validator(schema, format_checker=FormatChecker())
    failures = 0
    for index, document in enumerate(documents, start=1):
        for error in sorted(validator.iter_errors(document), key=lambda error: list(error.absolute_path)):
            failures += 1
            print(f"document {index}: {location(error)}: {error.message}", file=sys.stderr)
    if failures:
        print(f"{failures} problem(s) in {len(documents)} document(s)", file=sys.stderr)
        return 1
    print(f"ok: schema valid, {len(documents)} document(s) valid")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

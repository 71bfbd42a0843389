#!/usr/bin/env python3
"""Which contract-fuzzing runs reach each operation of the OpenAPI document, and as which caller.

Reads the callers' lists from scripts/contract-fuzz.sh itself (ADMIN_ONLY, VISITOR_ONLY,
FREE_REFUSED, PREMIUM_ONLY, HELD_BY_PREMIUM, HELD_BY_PRO and the excluded paths), so the table cannot drift
from the runs, and the operations from docs/openapi.json. `coverage.py` prints the Markdown table;
`coverage.py --write` puts it into docs/security.md between its markers; `--check` fails when the
committed table is stale (contract-fuzz.sh runs it first)."""
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = (ROOT / "scripts/contract-fuzz.sh").read_text()
DOC = ROOT / "docs/security.md"
BEGIN, END = "<!-- fuzz-coverage:begin -->", "<!-- fuzz-coverage:end -->"


def shell_string(name):
    return re.search(rf"^{name}='([^']*)'", SCRIPT, re.M).group(1)


def shell_array(name):
    body = re.search(rf"^{name}=\(([^)]*)\)", SCRIPT, re.M | re.S).group(1)
    return re.findall(r'"([^"]+)"', body)


ADMIN_ONLY = re.compile(shell_string("ADMIN_ONLY"))
VISITOR_ONLY = re.compile(shell_string("VISITOR_ONLY"))
PREMIUM_ONLY = set(shell_array("PREMIUM_ONLY"))
FREE_REFUSED = set(shell_array("FREE_REFUSED")) | PREMIUM_ONLY
HELD_BY_PREMIUM = set(shell_array("HELD_BY_PREMIUM"))
HELD_BY_PRO = set(shell_array("HELD_BY_PRO"))
EXCLUDED = set(re.findall(r"--exclude-path (/\S+)", SCRIPT))


def runs(method, path):
    """The runs that send `method path`, each as `run (caller)`."""
    name = f"{method} {path}"
    if path in EXCLUDED:
        return []
    if VISITOR_ONLY.search(path):
        return ["visitor"]
    if ADMIN_ONLY.search(path):
        return ["admin-session", "free-refused (refused)"]
    if path.startswith("/api/v1/"):
        keys = ["key-read"] if method == "GET" else ["key-read-refused (refused)"]
        return keys + ["key-write", "key-admin", "free-refused (refused: a session, not a key)"]
    if name in PREMIUM_ONLY:
        return ["premium-builder", "free-refused (refused)"]
    if name in HELD_BY_PREMIUM:
        return ["premium-session", "premium-builder"]
    if name in HELD_BY_PRO:
        return ["pro-session", "premium-session"]
    if name in FREE_REFUSED:
        return ["pro-session", "premium-session", "free-refused (refused)"]
    return ["free-session", "pro-session", "premium-session"]


def table():
    document = json.loads((ROOT / "docs/openapi.json").read_text())
    rows = ["| operation | runs (callers) |", "|---|---|"]
    for path in sorted(document["paths"]):
        for method in sorted(m.upper() for m in document["paths"][path] if m in ("get", "post", "put", "patch", "delete")):
            reached = runs(method, path)
            rows.append(f"| `{method} {path}` | {', '.join(reached) if reached else 'not fuzzed (see above)'} |")
    return "\n".join(rows) + "\n"


def main():
    generated = f"{BEGIN}\n{table()}{END}"
    text = DOC.read_text()
    current = re.search(re.escape(BEGIN) + r".*?" + re.escape(END), text, re.S)
    if "--write" in sys.argv:
        DOC.write_text(text.replace(current.group(0), generated) if current else text.rstrip("\n") + "\n\n" + generated + "\n")
    elif "--check" in sys.argv:
        if not current or current.group(0) != generated:
            sys.exit("docs/security.md: the fuzz coverage table is stale; run python3 scripts/fuzz/coverage.py --write")
    else:
        print(table(), end="")


if __name__ == "__main__":
    main()

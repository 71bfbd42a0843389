"""Schemathesis hooks for the contract fuzzing (scripts/contract-fuzz.sh, SCHEMATHESIS_HOOKS).

An `Idempotency-Key` identifies one request: the server answers the same key with another
request 422 (docs/reliability.md, "Lost answers"). The fuzzer draws keys from the header's
schema and would reuse short ones ("0", "!") across different requests, which the server
rightly refuses and the fuzzer counts as a schema mismatch. Each generated key keeps its
characters and gets a unique suffix, so every request's key is its own.
"""

import uuid

import schemathesis

MAX_KEY = 255


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    headers = case.headers or {}
    for name in list(headers):
        if name.lower() == "idempotency-key" and isinstance(headers[name], str):
            suffix = "." + uuid.uuid4().hex
            headers[name] = headers[name][: MAX_KEY - len(suffix)] + suffix
    return None

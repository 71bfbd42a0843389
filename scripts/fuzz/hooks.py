"""Schemathesis hooks for the contract fuzzing (scripts/contract-fuzz.sh, SCHEMATHESIS_HOOKS).

An `Idempotency-Key` identifies one request: the server answers the same key with another
request 422 (docs/reliability.md, "Lost answers"). The fuzzer draws keys from the header's
schema and would reuse short ones ("0", "!") across different requests, which the server
rightly refuses and the fuzzer counts as a schema mismatch. Each generated key keeps its
characters and gets a unique suffix, so every request's key is its own.
"""

import os
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


@schemathesis.check
def refused_caller_never_succeeds(ctx, response, case):
    """A run as a caller the operations refuse by design (FUZZ_REFUSED=1 in scripts/contract-fuzz.sh:
    a Free user on the paid and the administrators' operations, a session on the public API, a read
    key on its writes): whatever the request, the answer is never a success."""
    if os.environ.get("FUZZ_REFUSED") == "1" and 200 <= response.status_code < 300:
        raise AssertionError(f"{case.operation.label} answered {response.status_code} to a caller it refuses")
    return None

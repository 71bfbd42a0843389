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


# Files the API answers (the PDF reports, a saved PNG logo): read as what they claim to be, so
# a report that is not a PDF, or a logo that is not a PNG, fails the run; the schema states
# them as binary strings.
MAGIC = {"application/pdf": b"%PDF-", "image/png": b"\x89PNG\r\n\x1a\n"}


@schemathesis.deserializer("application/pdf", "image/png")
def file_body(ctx, response):
    media_type = (response.headers.get("content-type") or [""])[0].split(";")[0].strip().lower()
    magic = MAGIC.get(media_type)
    if magic is None or not response.content.startswith(magic):
        raise ValueError(f"a {media_type or 'file'} answer that does not start as one")
    return response.content.decode("latin-1")

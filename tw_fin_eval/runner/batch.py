"""Batch files: the OpenAI Batch API / `vllm run-batch` input written from our records, and the batch
output turned back into a runs file the scorer reads (standard library only).

Export: one line per request the runner would send — `{"custom_id", "method": "POST", "url":
"/v1/chat/completions", "body"}` where `body` is built by the runner's own `request_body` (the same bytes
as a live run with the same settings) and `custom_id` is the runs-file key: the record id, plus
`#turn<k>` for a ConvFinQA turn. ConvFinQA turns with gold history are independent requests and are all
exported; self history is refused (turn k needs the model's own answer to turn k-1, which a batch cannot
supply).

Import: each output line `{"custom_id", "response": {"status_code", "body"}, "error"}` becomes one runs
line (docs/FORMATS.md §3) with the request's messages and settings taken from the requests file; a failed
line (an `error`, a non-200 status, an unusable body) becomes an error line, so the scorer counts it and
a later live run retries it. Requests without an output line are reported and left out (not run)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import atomic_writer, dumps, iter_jsonl
from tw_fin_eval.runner.client import parse_completion
from tw_fin_eval.runner.requests import Key, RequestSettings, Task, messages_sha256, request_body

CHAT_URL = "/v1/chat/completions"
TURN_MARK = "#turn"
_CUSTOM_ID = re.compile(r"^(?P<id>.+?)(?:#turn(?P<turn>\d+))?$")
SETTING_KEYS = ("temperature", "max_tokens", "seed")


def custom_id(key: Key) -> str:
    rid, turn = key
    return rid if turn is None else f"{rid}{TURN_MARK}{turn}"


def parse_custom_id(value: str) -> Key:
    m = _CUSTOM_ID.match(value)
    if not m:
        raise InputError(f"custom_id {value!r} is not one of ours (<record id> or <record id>#turn<k>)")
    return m.group("id"), (int(m.group("turn")) if m.group("turn") is not None else None)


def export_lines(tasks: Iterable[Task], settings: RequestSettings) -> Iterator[dict[str, Any]]:
    if settings.history != "gold":
        raise InputError("--history self cannot be batched: turn k is asked with the model's own answer to turn "
                         "k-1, which does not exist until that request has run; use `tw-fin-eval run --history "
                         "self`, or export the gold-history setting (the default)", field="history")
    for task in tasks:
        if TURN_MARK in task.record_id:
            raise InputError(f"record id contains {TURN_MARK!r}, which custom_id uses to mark the turn",
                             item_id=task.record_id, field="id")
        assert task.messages is not None  # gold history: every turn is built up front
        yield {"custom_id": custom_id(task.key), "method": "POST", "url": CHAT_URL,
               "body": request_body(task.messages, settings)}


def write_export(path: str | Path, tasks: list[Task], settings: RequestSettings) -> Counter:
    """Write the batch input atomically; returns requests per dataset."""
    per_dataset: Counter = Counter()
    lines = list(export_lines(tasks, settings))  # validate everything before writing anything
    for task in tasks:
        per_dataset[task.dataset or "?"] += 1
    with atomic_writer(path) as fh:
        for line in lines:
            fh.write(dumps(line) + "\n")
    return per_dataset


# ---- import ---------------------------------------------------------------------------------------------
@dataclass
class ImportSummary:
    requests: int = 0
    ok: int = 0
    errors: int = 0
    missing: list[str] = field(default_factory=list)  # custom_ids with no output line
    superseded: int = 0  # output lines replaced by a later line for the same custom_id
    error_kinds: Counter = field(default_factory=Counter)


def read_requests(path: str | Path) -> dict[str, dict[str, Any]]:
    """custom_id → request body of our batch input file."""
    out: dict[str, dict[str, Any]] = {}
    for lineno, line in iter_jsonl(path):
        cid, body = line.get("custom_id"), line.get("body")
        if not isinstance(cid, str) or not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            raise InputError("not a batch input line (needs custom_id and a body with messages): is this the "
                             "file `tw-fin-eval batch export` wrote?", path=path, line=lineno)
        parse_custom_id(cid)
        if cid in out:
            raise InputError(f"custom_id {cid!r} appears twice", path=path, line=lineno)
        out[cid] = body
    return out


def _error_of(line: dict[str, Any]) -> str | None:
    """The failure an output line reports, or None when it carries a 200 response."""
    err = line.get("error")
    if err:
        if isinstance(err, dict):
            code, msg = err.get("code"), err.get("message")
            return f"batch error{f' {code}' if code else ''}: {msg or dumps(err)}"[:500]
        return f"batch error: {err}"[:500]
    resp = line.get("response")
    if not isinstance(resp, dict):
        return "batch output line has neither a response nor an error"
    status = resp.get("status_code")
    if status != 200:
        body = resp.get("body")
        detail = body.get("error") if isinstance(body, dict) else body
        if isinstance(detail, dict):
            detail = detail.get("message") or dumps(detail)
        return f"HTTP {status}: {detail}"[:500] if detail else f"HTTP {status}"
    return None


def _created(body: Any) -> str:
    ts = body.get("created") if isinstance(body, dict) else None
    moment = (datetime.fromtimestamp(ts, timezone.utc) if isinstance(ts, (int, float)) and not isinstance(ts, bool)
              else datetime.now(timezone.utc))
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def run_line(key: Key, request: dict[str, Any], out_line: dict[str, Any]) -> dict[str, Any]:
    """One runs-file line from a batch request and its output line (the runner's line format)."""
    messages = request["messages"]
    error = _error_of(out_line)
    resp_body = (out_line.get("response") or {}).get("body") if isinstance(out_line.get("response"), dict) else None
    result = None
    if error is None:
        result = parse_completion(resp_body)
        error = result.error
    extra = {k: v for k, v in request.items() if k not in ("model", "messages", *SETTING_KEYS)}
    rec: dict[str, Any] = {
        "id": key[0], "turn": key[1], "dataset": None, "model": request.get("model"),
        "messages_sha256": messages_sha256(messages), "messages": messages,
        "response": result.raw_content if result and error is None else None,
        "reasoning": result.reasoning if result and error is None else None,
        "finish_reason": result.finish_reason if result and error is None else None,
        "usage": result.usage if result else None, "latency_s": None, "attempts": 1, "error": error,
        "created": _created(resp_body),
        "temperature": request.get("temperature"), "max_tokens": request.get("max_tokens"), "extra": extra,
        "seed": request.get("seed"),
    }
    if key[1] is not None:
        rec["history"] = "gold"
    return rec


def import_batch(outputs: Iterable[str | Path], requests_path: str | Path, out: str | Path,
                 datasets: dict[str, str] | None = None) -> ImportSummary:
    """Batch output file(s) (the output file, and the error file the OpenAI Batch API writes separately) →
    a runs file, written atomically. Every output line must answer a request of `requests_path`."""
    requests = read_requests(requests_path)
    summary = ImportSummary(requests=len(requests))
    got: dict[str, dict[str, Any]] = {}
    models = {b.get("model") for b in requests.values()}
    if len(models) > 1:
        raise InputError(f"the requests file asks {len(models)} models; a runs file holds one", path=requests_path)
    for path in outputs:
        for lineno, line in iter_jsonl(path):
            cid = line.get("custom_id")
            if not isinstance(cid, str):
                raise InputError("batch output line has no custom_id", path=path, line=lineno)
            if cid not in requests:
                raise InputError(f"custom_id {cid!r} is not in the requests file {requests_path} (another "
                                 "batch's output?)", path=path, line=lineno)
            if cid in got:
                summary.superseded += 1
                if _error_of(line) is not None and _error_of(got[cid]) is None:
                    continue  # a success beats a failure reported elsewhere (output vs error file)
            got[cid] = line
    lines = []
    for cid, request in requests.items():
        if cid not in got:
            summary.missing.append(cid)
            continue
        key = parse_custom_id(cid)
        rec = run_line(key, request, got[cid])
        if datasets:
            rec["dataset"] = datasets.get(key[0])
        lines.append(rec)
        if rec["error"] is None:
            summary.ok += 1
        else:
            summary.errors += 1
            summary.error_kinds[rec["error"].split(":")[0]] += 1
    with atomic_writer(out) as fh:
        for rec in lines:
            fh.write(dumps(rec) + "\n")
    return summary

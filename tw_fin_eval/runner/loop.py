"""The run loop: tasks → concurrent requests → one runs-file line per finished request.

Requests that never reached a verdict — cancelled by Ctrl-C, or the server became unreachable — are
not written: they say nothing about the item, and the next run asks them again. Crash safety and resume
live in `runsfile`, request bodies in `requests`."""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TextIO

from tw_fin_eval import data_input
from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import dumps
from tw_fin_eval.runner.client import (
    CANCELLED,
    DEFAULT_MAX_RESPONSE_BYTES,
    UNREACHABLE,
    ChatClient,
    ChatResult,
    CircuitBreaker,
    split_think,
)
from tw_fin_eval.runner.progress import Progress
from tw_fin_eval.runner.requests import (
    HISTORY_MODES,
    RESERVED_BODY_KEYS,
    Key,
    RequestSettings,
    Task,
    load_tasks,
    messages_sha256,
    request_body,
)
from tw_fin_eval.runner.runsfile import ExistingRun, RunsFile

# statuses that mean "this run is misconfigured" (bad key, unknown model or path), not "this item is bad":
# after REFUSED_STREAK of them in a row the run stops instead of writing one error line per item
REFUSED_STATUSES = frozenset({401, 403, 404})
REFUSED_STREAK = 5
LARGE_REPLY_BYTES = 1 << 20


@dataclass
class RunConfig:
    data: list[str]
    base_url: str
    model: str
    out: str
    api_key: str | None = None
    limit: int | None = None
    configs: list[str] | None = None  # configs of a release folder / Hub id in `data`
    sample: int | None = None  # N records per data file: a stratified random sample
    seed: int | None = None  # generation seed sent to the server (None: not sent)
    sample_seed: int | None = None  # picks the --sample (None: data_input.DEFAULT_SAMPLE_SEED)
    sample_allocation: str = "proportional"  # or "equal" (per first-level stratum; reports weight it)
    extra: dict = field(default_factory=dict)
    concurrency: int = 8
    timeout: float = 300.0
    max_retries: int = 4
    temperature: float | None = 0.0  # explicit: a silent server default makes runs unrepeatable
    max_tokens: int | None = None
    history: str = "gold"
    store_messages: bool = True
    dry_run: bool = False
    progress_every: float = 30.0
    progress: bool = True
    backoff_base: float = 0.5
    backoff_max: float = 30.0
    max_retry_after: float = 120.0
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES
    max_consecutive_failures: int = 10  # circuit breaker (0 = off)

    @property
    def settings(self) -> RequestSettings:
        return RequestSettings(model=self.model, temperature=self.temperature, max_tokens=self.max_tokens,
                               extra=self.extra, history=self.history, seed=self.seed)


@dataclass
class RunSummary:
    total: int = 0            # keys in the data
    skipped: int = 0          # already done before this run
    ok: int = 0
    failed: int = 0           # written with an error this run
    blocked: int = 0          # self-history turns whose earlier turn failed
    not_run: int = 0          # left unasked (interrupt / server unreachable)
    truncated_bytes: int = 0
    stale_prompts: int = 0
    interrupted: bool = False
    terminated: bool = False
    unreachable: str | None = None
    refused: str | None = None
    refused_streak: int = 0
    breaker: str | None = None  # why the circuit breaker stopped the run
    large_replies: bool = False  # a reply of ≥ LARGE_REPLY_BYTES was seen
    small_replies: bool = False  # a smaller one was
    write_error: str | None = None
    exit_code: int = 0
    elapsed_s: float = 0.0
    failures: dict[str, int] = field(default_factory=dict)  # "HTTP 400" / "timeout" / … → count

    def text(self, out: str) -> str:
        why = ", ".join(f"{k} ×{v}" for k, v in sorted(self.failures.items(), key=lambda kv: -kv[1]))
        parts = [f"{self.ok} ok", f"{self.failed} failed" + (f" ({why})" if why else "")]
        if self.blocked:
            parts.append(f"{self.blocked} waiting for a failed earlier turn")
        if self.not_run:
            parts.append(f"{self.not_run} not asked")
        rate = (self.ok + self.failed) / self.elapsed_s if self.elapsed_s > 0 else 0.0
        msg = (f"run: {self.total} items in the data, {self.skipped} already done; this run: "
               f"{', '.join(parts)} in {self.elapsed_s:.1f} s ({rate:.1f} req/s) → {out}")
        if self.failed or self.blocked or self.not_run:
            msg += "\nrun: re-run the same command to retry what failed or was not asked"
        return msg


class _Signals:
    """SIGINT once: stop submitting, let in-flight finish. Twice (or SIGTERM): cancel in-flight."""

    def __init__(self, on_abort: Callable[[], None]) -> None:
        self.stop = False
        self.abort = False
        self.terminated = False
        self._on_abort = on_abort
        self._old: dict[int, Any] = {}

    def _int(self, signum: int, frame: Any) -> None:
        if self.stop:
            self.abort = True
            self._on_abort()
        else:
            self.stop = True

    def _term(self, signum: int, frame: Any) -> None:
        self.stop = self.abort = self.terminated = True
        self._on_abort()

    def __enter__(self) -> _Signals:
        if threading.current_thread() is threading.main_thread():
            self._old[signal.SIGINT] = signal.signal(signal.SIGINT, self._int)
            self._old[signal.SIGTERM] = signal.signal(signal.SIGTERM, self._term)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old)


def _return_freed_memory() -> None:
    """Ask glibc to give large blocks (≥ 1 MiB: reply buffers) back to the system when freed. By default
    its threshold rises after the first big free, and 16 MiB buffers freed in one thread's arena are then
    kept and not reused by the others: the runner's peak memory with 8 big replies grows by half."""
    global _MALLOC_TUNED
    if _MALLOC_TUNED or not sys.platform.startswith("linux"):
        return
    _MALLOC_TUNED = True
    try:
        import ctypes

        ctypes.CDLL(None).mallopt(-3, 1 << 20)  # -3 = M_MMAP_THRESHOLD (malloc.h)
    except (OSError, AttributeError):  # not glibc (musl, …): nothing to tune
        pass


_MALLOC_TUNED = False


def _now_iso() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _validate(cfg: RunConfig) -> None:
    if cfg.history not in HISTORY_MODES:
        raise InputError(f"--history must be one of {', '.join(HISTORY_MODES)}", field="history")
    if cfg.concurrency < 1:
        raise InputError("--concurrency must be at least 1", field="concurrency")
    if cfg.limit is not None and cfg.limit < 0:
        raise InputError("--limit must be >= 0", field="limit")
    if cfg.sample is not None and cfg.sample < 1:
        raise InputError("--sample must be at least 1", field="sample")
    if cfg.sample_allocation not in data_input.ALLOCATIONS:
        raise InputError(f"--sample-allocation must be one of {', '.join(data_input.ALLOCATIONS)}",
                         field="sample_allocation")
    if not isinstance(cfg.extra, dict):
        raise InputError("--extra must be a JSON object", field="extra")
    for name in RESERVED_BODY_KEYS:
        if name in cfg.extra:
            raise InputError(f"--extra must not set {name!r} (use --model / the data files)", field="extra")
    if cfg.extra.get("stream"):
        raise InputError("--extra must not turn on streaming; the runner reads whole responses", field="extra")
    if not cfg.model:
        raise InputError("--model must not be empty", field="model")
    if cfg.max_response_bytes < 1024:
        raise InputError("--max-response-bytes must be at least 1024", field="max_response_bytes")
    if cfg.max_consecutive_failures < 0 or cfg.max_retry_after < 0:
        raise InputError("--max-consecutive-failures and --max-retry-after must be >= 0",
                         field="max_consecutive_failures")
    out = Path(cfg.out).resolve()
    if any(Path(d).resolve() == out for d in cfg.data):
        raise InputError("--out is one of the --data files; the runs file must be a separate file",
                         path=cfg.out, field="out")


def _design(cfg: RunConfig) -> dict[str, Any]:
    """The sampling design shared by the run's lines (sample, allocation, seed, limit): a resume must use the
    same. Known from the command line, before the data is read."""
    return data_input.design_request(limit=cfg.limit, sample=cfg.sample, seed=cfg.sample_seed,
                                     allocation=cfg.sample_allocation)


class _Planner:
    """Sorts tasks as `load_tasks` makes them: a finished key is counted and dropped at once (its prompt is
    never kept: resuming a finished 290,000-item run holds only the runs file's keys and hashes); for self
    history its stored answer goes to the conversation, so later turns can be built."""

    def __init__(self, existing: ExistingRun, cfg: RunConfig, summary: RunSummary) -> None:
        self.existing, self.cfg, self.summary = existing, cfg, summary

    def __call__(self, task: Task) -> bool:
        self.summary.total += 1
        prev = self.existing.done.get(task.key)
        if prev is None:
            return True
        self.summary.skipped += 1
        if task.conv is not None and self.cfg.history == "self":
            task.conv.answers[task.turn] = split_think(prev.response)[0] or ""  # type: ignore[index]
        if task.messages is not None and prev.messages_sha256 not in (None, messages_sha256(task.messages)):
            self.summary.stale_prompts += 1
        return False


def _plan(todo: list[Task], summary: RunSummary, log: TextIO) -> tuple[deque[Task], dict[Key, Task]]:
    """(ready, waiting) of what is left: what can be sent now, and the self-history turns keyed by the turn
    they wait for."""
    if summary.stale_prompts:
        print(f"run: note: {summary.stale_prompts} finished items were asked with a prompt that differs from "
              "the data now; they are kept (delete their lines to ask again)", file=log)
    ready: deque[Task] = deque()
    waiting: dict[Key, Task] = {}
    for task in todo:
        if task.messages is None:
            assert task.conv is not None and task.turn is not None
            if all(j in task.conv.answers for j in range(task.turn)):
                task.messages = task.conv.messages(task.turn, "self")
                ready.append(task)
            else:
                waiting[(task.record_id, task.turn - 1)] = task
        else:
            ready.append(task)
    return ready, waiting


def _load_todo(cfg: RunConfig, existing: ExistingRun, summary: RunSummary) -> list[Task]:
    return load_tasks(cfg.data, configs=cfg.configs, limit=cfg.limit, sample=cfg.sample, seed=cfg.sample_seed,
                      history=cfg.history, allocation=cfg.sample_allocation,
                      keep=_Planner(existing, cfg, summary))


def run(cfg: RunConfig, *, log: TextIO | None = None, out_stream: TextIO | None = None) -> RunSummary:
    """Run everything not yet done. Raises InputError for bad input before anything is sent."""
    log = log if log is not None else sys.stderr
    out_stream = out_stream if out_stream is not None else sys.stdout
    _validate(cfg)
    _return_freed_memory()
    breaker = CircuitBreaker(cfg.max_consecutive_failures)
    client = ChatClient(cfg.base_url, api_key=cfg.api_key, timeout=cfg.timeout, max_retries=cfg.max_retries,
                        backoff_base=cfg.backoff_base, backoff_max=cfg.backoff_max,
                        max_retry_after=cfg.max_retry_after, max_response_bytes=cfg.max_response_bytes,
                        breaker=breaker)
    summary = RunSummary()
    start = time.monotonic()
    if cfg.dry_run:  # read-only: no lock, no repair, nothing sent
        existing = RunsFile(cfg.out, model=cfg.model, history=cfg.history, generation=cfg.settings.generation(),
                            sampling=_design(cfg)).read_existing()
        todo = _load_todo(cfg, existing, summary)
        ready, _ = _plan(todo, summary, log)
        print(f"run: dry run: {summary.total} items in the data, {summary.skipped} already done in {cfg.out}, "
              f"{len(todo)} to ask ({len(todo) - len(ready)} of them wait for earlier self-history turns)"
              + (f"; a partial last line of {existing.truncated_bytes} bytes would be removed"
                 if existing.truncated_bytes else "")
              + ("; the last line lacks its newline (it is complete and kept)" if existing.missing_newline else ""),
              file=out_stream)
        if ready:
            first = ready[0]
            print(f"run: first request: id={first.record_id} turn={first.turn}\n"
                  + dumps(request_body(first.messages, cfg.settings)), file=out_stream)
        summary.not_run = len(todo)
        reason = client.preflight(min(cfg.timeout, 10.0))
        print(f"run: server {client.server}: " + ("accepts connections" if reason is None else reason),
              file=out_stream)
        summary.unreachable = reason
        summary.exit_code = 0 if reason is None else 1
        return summary
    with RunsFile(cfg.out, model=cfg.model, history=cfg.history, generation=cfg.settings.generation(),
                  sampling=_design(cfg)) as runs:
        runs.open()  # lock first, then read: no other run can append between our read and our writes
        existing = runs.read_existing()
        todo = _load_todo(cfg, existing, summary)  # the data is streamed: finished keys are dropped as they come
        ready, waiting = _plan(todo, summary, log)
        runs.repair(existing)
        if existing.truncated_bytes:
            summary.truncated_bytes = existing.truncated_bytes
            print(f"run: removed a partial last line ({existing.truncated_bytes} bytes) left by an "
                  f"interrupted run from {runs.path}", file=log)
        elif existing.missing_newline:
            print(f"run: the last line of {runs.path} was complete but lacked its newline (a run killed "
                  "just before it): kept, newline added", file=log)
        if cfg.api_key and len(cfg.api_key) < 8:
            print(f"run: note: the API key is only {len(cfg.api_key)} characters; every occurrence of it in "
                  "server text is replaced by [REDACTED], which may alter stored answers", file=log)
        if todo:
            reason = client.preflight(min(cfg.timeout, 10.0))
            if reason is not None:
                summary.unreachable = reason
                summary.not_run = len(todo)
                summary.exit_code = 1
                print(f"run: error: {reason}; is the server running? nothing was sent", file=log)
                return summary
            if cfg.progress:
                retried = sum(1 for t in todo if t.key in existing.failed)
                print(f"run: {len(todo)} to ask ({summary.skipped} of {summary.total} already done"
                      + (f", {retried} failed before and are asked again" if retried else "")
                      + f") → {client.server}, model {cfg.model}, concurrency {cfg.concurrency}", file=log, flush=True)
            try:
                _loop(cfg, client, runs, summary, todo, ready, waiting, log)
            finally:
                client.close()
            summary.breaker = breaker.tripped
            if summary.write_error is None:
                try:
                    runs.sync()  # the last lines on disk, and the file still the one we wrote
                except OSError as exc:
                    summary.write_error = exc.strerror or str(exc)
        summary.elapsed_s = time.monotonic() - start
    if summary.unreachable:
        print(f"run: error: {summary.unreachable}; stopped (re-run the same command once the server is up)",
              file=log)
    if summary.refused:
        print(f"run: error: the server refused {REFUSED_STREAK} requests in a row ({summary.refused}); "
              "stopped — check --base-url, --model and the API key", file=log)
    if summary.breaker and not summary.unreachable:
        print(f"run: error: circuit breaker: {summary.breaker}; stopped — the server seems down, hung or "
              "overloaded. Re-run the same command to continue from here (--max-consecutive-failures sets "
              "the limit, 0 turns it off)", file=log)
    if summary.write_error:
        print(f"run: error: cannot write {cfg.out}: {summary.write_error}; stopped. The file ends at its last "
              "complete line; free the disk and re-run the same command to continue", file=log)
    print(summary.text(cfg.out), file=out_stream)
    if summary.interrupted or summary.terminated:
        print(f"run: {'terminated' if summary.terminated else 'interrupted'} — kept: the {summary.ok + summary.failed} "
              f"lines written this run and the {summary.skipped} done before are in {cfg.out} (every line is "
              "complete); requests cut off in flight were not written. Re-run the same command to continue",
              file=log)
    if summary.terminated:
        summary.exit_code = 143
    elif summary.interrupted:
        summary.exit_code = 130
    elif summary.write_error:
        summary.exit_code = 2  # --out cannot be written: like any other OSError on an output path
    elif summary.unreachable or summary.refused or summary.breaker or summary.failed or summary.blocked \
            or summary.not_run:
        summary.exit_code = 1
    return summary


def _loop(cfg: RunConfig, client: ChatClient, runs: RunsFile, summary: RunSummary, todo: list[Task],
          ready: deque[Task], waiting: dict[Key, Task], log: TextIO) -> None:
    settings = cfg.settings
    progress = Progress(len(todo), stream=log, every=cfg.progress_every, enabled=cfg.progress)
    in_flight: dict[Future, Task] = {}
    with _Signals(client.abort) as sig, \
            ThreadPoolExecutor(max_workers=cfg.concurrency, thread_name_prefix="run") as pool:
        announced = False
        while ready or in_flight:
            stopping = sig.stop or client.cancelled or bool(summary.unreachable or summary.refused
                                                            or summary.write_error)
            if stopping and not announced:
                announced = True
                for fut in list(in_flight):  # queued but not started: drop them
                    if fut.cancel():
                        del in_flight[fut]
                if sig.stop and not sig.abort and in_flight:
                    print(f"\nrun: interrupted — waiting for {len(in_flight)} requests in flight "
                          "(Ctrl-C again to cancel them)", file=log, flush=True)
            if not stopping:
                # once replies prove small, up to twice the workers in flight so no worker idles while
                # this thread writes; with large replies (or none seen yet) only one per worker: a queued
                # request would start receiving a new big reply while the last one still waits to be
                # written (memory: docs/RELIABILITY.md)
                cap = 2 * cfg.concurrency if summary.small_replies and not summary.large_replies \
                    else cfg.concurrency
                while ready and len(in_flight) < cap:
                    task = ready.popleft()
                    in_flight[pool.submit(client.send, request_body(task.messages, settings))] = task
            if not in_flight:
                break
            done, _ = wait(list(in_flight), timeout=0.2, return_when=FIRST_COMPLETED)
            for fut in done:
                task = in_flight.pop(fut)
                if not fut.cancelled():
                    _finish(task, _result(fut), cfg, runs, summary, progress, ready, waiting, client)
            progress.tick()
        progress.finish()
    # every task neither written nor blocked was not asked (interrupt, server gone)
    summary.not_run = len(todo) - summary.ok - summary.failed - summary.blocked
    summary.interrupted = sig.stop and not sig.terminated and summary.unreachable is None
    summary.terminated = sig.terminated


def _result(fut: Future) -> ChatResult:
    """The worker's result; an unexpected exception in it becomes that item's error, so one bad reply
    never kills the run (the client already turns every network and server trouble into a result)."""
    try:
        return fut.result()
    except Exception as exc:  # noqa: BLE001 - deliberately broad: isolate the item
        return ChatResult(content=None, reasoning=None, finish_reason=None, usage=None, latency_s=0.0,
                          attempts=1, error=f"internal error on this item: {type(exc).__name__}: {str(exc)[:200]}",
                          raw=None, error_kind="internal")


def _finish(task: Task, result: ChatResult, cfg: RunConfig, runs: RunsFile, summary: RunSummary, progress: Progress, ready: deque[Task], waiting: dict[Key, Task],
            client: ChatClient) -> None:
    if result.response_bytes >= LARGE_REPLY_BYTES:
        summary.large_replies = True
    elif result.response_bytes:
        summary.small_replies = True
    if result.error_kind == CANCELLED:
        return
    if result.error_kind == UNREACHABLE:
        if summary.unreachable is None:
            summary.unreachable = result.error or "server unreachable"
            client.abort()  # the server is gone: do not wait for the other requests' retries
        return
    assert task.messages is not None
    rec = {
        "id": task.record_id, "turn": task.turn, "dataset": task.dataset, "model": cfg.model,
        "messages_sha256": messages_sha256(task.messages),
        "messages": task.messages if cfg.store_messages else None,
        "response": result.raw_content, "reasoning": result.reasoning,
        "finish_reason": result.finish_reason, "usage": result.usage,
        "latency_s": round(result.latency_s, 4), "attempts": result.attempts, "error": result.error,
        "created": _now_iso(),
        **cfg.settings.generation(),
        "sampling": task.sampling,
    }
    if task.conv is not None:
        rec["history"] = cfg.history
    try:
        runs.append(rec, redactor=client.redactor)
    except OSError as exc:  # disk full, file removed …: stop; the file was cut back to its last full line
        if summary.write_error is None:
            summary.write_error = exc.strerror or str(exc)
            client.abort()
        return
    except (TypeError, ValueError) as exc:  # a value that cannot be serialised: record the item as failed
        result = ChatResult(content=None, reasoning=None, finish_reason=None, usage=None,
                            latency_s=result.latency_s, attempts=result.attempts,
                            error=f"reply could not be stored: {type(exc).__name__}: {str(exc)[:200]}",
                            raw=None, error_kind="internal")
        rec.update(response=None, reasoning=None, finish_reason=None, usage=None, error=result.error)
        try:
            runs.append(rec, redactor=client.redactor)
        except (OSError, TypeError, ValueError):
            if summary.write_error is None:
                summary.write_error = "could not write an error line"
                client.abort()
            return
    if result.error is None:
        summary.ok += 1
        progress.ok += 1
    else:
        summary.failed += 1
        progress.failed += 1
        kind = f"HTTP {result.status}" if result.status else (result.error_kind or "error")
        summary.failures[kind] = summary.failures.get(kind, 0) + 1
    if result.error is not None and result.status in REFUSED_STATUSES:
        summary.refused_streak += 1
        if summary.refused_streak >= REFUSED_STREAK and summary.refused is None:
            summary.refused = result.error
            client.abort()
    else:
        summary.refused_streak = 0
    nxt = waiting.pop(task.key, None)
    if nxt is not None:
        assert nxt.conv is not None and nxt.turn is not None
        if result.error is None:
            nxt.conv.answers[task.turn] = result.content or ""  # type: ignore[index]
            nxt.messages = nxt.conv.messages(nxt.turn, "self")
            ready.append(nxt)
        else:  # this turn and every later one wait for the next run
            while nxt is not None:
                summary.blocked += 1
                nxt = waiting.pop(nxt.key, None)

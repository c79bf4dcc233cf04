"""Running judge requests against an OpenAI-compatible judge (threads, progress, cache, fail-fast)."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed, wait
from dataclasses import dataclass, field
from typing import Any

from tw_fin_eval.errors import InputError
from tw_fin_eval.redact import Redactor
from tw_fin_eval.scoring.judge.cache import JudgeCache
from tw_fin_eval.scoring.judge.protocols import MISSING, PENDING, PROTOCOLS, JudgeRequest, Verdict


@dataclass
class JudgeConfig:
    base_url: str | None = None
    model: str | None = None
    api_key: str | None = None  # never logged; taken from the environment by the CLI
    timeout: float = 120.0
    max_retries: int = 2
    concurrency: int = 4
    repeats: int = 1  # 2 → every item judged twice, agreement reported
    cache_path: str | None = None  # JudgeCache file: replies reused across runs
    params: dict[str, Any] = field(default_factory=lambda: {"temperature": 0.0})
    allow_self_judge: bool = False  # a judge model equal to the tested model is refused unless this is set
    # circuit breaker: this many failed attempts of one kind in a row (timeouts, 5xx, 429, dropped
    # connections, unusable replies), from at least two items, stop judging (0 = off)
    max_consecutive_failures: int = 10

    @property
    def enabled(self) -> bool:
        return bool(self.base_url and self.model)

    def __repr__(self) -> str:  # the key never appears in a repr
        return f"JudgeConfig(base_url={self.base_url!r}, model={self.model!r}, repeats={self.repeats})"


class JudgeUnavailable(InputError):
    """The judge refused (wrong key, model or URL), could not be reached, or tripped the circuit breaker
    (hung, trickling or failing for N attempts in a row): scoring stops with this message (exit 2) instead
    of reporting every judged item as pending. Replies already received stay in the cache."""


def check_not_self_judge(config: JudgeConfig, tested_models: set[str] | list[str]) -> None:
    """A model judging its own answers is refused unless `allow_self_judge` (`--allow-self-judge`)."""
    if config.enabled and not config.allow_self_judge and config.model in set(tested_models):
        raise InputError(f"the judge model {config.model!r} is the model under test: a model grading its own "
                         "answers is biased; use another judge, or pass --allow-self-judge to do it anyway")


ChatFn = Callable[[list[dict[str, str]]], Any]
_UNREACHABLE_AFTER = 3  # consecutive "cannot connect" failures before the judge is declared down


class JudgeRunner:
    """Runs requests against an OpenAI-compatible judge. A judge that refuses (401/403/404: wrong key,
    model or URL), cannot be reached (3 connection failures in a row) or trips the circuit breaker
    (`max_consecutive_failures` failed attempts of one kind in a row across items: hung, trickling, 5xx)
    stops the run: the remaining calls are not made and `run` raises `JudgeUnavailable` naming the failure.
    Other per-item errors leave that item `pending` with the reason; nothing a judge sends makes `run` raise
    anything else. The judge key is scrubbed from every reply, reason and cache line."""

    def __init__(self, config: JudgeConfig, *, client: Any = None, progress: bool = True) -> None:
        self.config = config
        self._client = client
        self._down_reason: str | None = None
        self._consecutive_unreachable = 0
        self._lock = threading.Lock()
        self.progress = progress
        self.calls = 0
        self.cache_hits = 0
        self.redactor = Redactor([config.api_key])
        self.cache = JudgeCache(config.cache_path, redactor=self.redactor) if config.cache_path else None
        self.breaker: Any = None

    def _get_client(self) -> Any:
        if self._client is None:
            from tw_fin_eval.runner.client import ChatClient, CircuitBreaker

            self.breaker = CircuitBreaker(self.config.max_consecutive_failures)
            self._client = ChatClient(self.config.base_url, api_key=self.config.api_key,
                                      timeout=self.config.timeout, max_retries=self.config.max_retries,
                                      breaker=self.breaker)
        return self._client

    def _one(self, request: JudgeRequest, repeat: int = 0) -> Verdict:
        """One verdict; total: an unexpected exception (a bug, a reply no parser foresaw) is that item's
        `pending` reason, never a traceback that loses the verdicts already received."""
        try:
            return self._one_unguarded(request, repeat)
        except Exception as exc:  # noqa: BLE001 - deliberately broad: isolate the item
            return Verdict(PENDING, reason=self.redactor.scrub(f"judge internal error: {type(exc).__name__}: "
                                                               f"{str(exc)[:200]}"))

    def _one_unguarded(self, request: JudgeRequest, repeat: int) -> Verdict:
        key = None
        if self.cache is not None:
            key = JudgeCache.key(self.config.model, self.config.params, request.messages(), repeat)
            hit = self.cache.get(key)
            if hit is not None:
                with self._lock:
                    self.cache_hits += 1
                return self._parse(request, hit[0], hit[1])
        if self._down_reason:
            return Verdict(PENDING, reason=self._down_reason)
        result = self._get_client().chat(request.messages(), model=self.config.model, **self.config.params)
        with self._lock:
            self.calls += 1
        if getattr(result, "error", None):
            error = self.redactor.scrub(str(result.error))
            reason = f"judge error: {error}"
            with self._lock:
                tripped = getattr(self.breaker, "tripped", None)
                if tripped and not self._down_reason:
                    self._down_reason = f"judge circuit breaker: {self.redactor.scrub(tripped)}"
                elif getattr(result, "status", None) in {401, 403, 404}:  # wrong key, model or URL: all will fail
                    self._down_reason = f"judge refused: {error}"
                elif getattr(result, "error_kind", None) in {"unreachable", "cancelled"}:
                    self._consecutive_unreachable += 1
                    if self._consecutive_unreachable >= _UNREACHABLE_AFTER:
                        self._down_reason = f"judge unreachable: {error}"
                else:
                    self._consecutive_unreachable = 0
            return Verdict(PENDING, reason=reason)
        with self._lock:
            self._consecutive_unreachable = 0
        raw = result.content if result.content is not None else getattr(result, "raw_content", None)
        raw_content = getattr(result, "raw_content", None)
        # scrubbed before anything keeps them: a judge that echoes its Authorization header leaks nothing
        raw = self.redactor.scrub(raw) if isinstance(raw, str) else raw
        raw_content = self.redactor.scrub(raw_content) if isinstance(raw_content, str) else raw_content
        if self.cache is not None and key is not None:
            self.cache.put(key, self.config.model, raw, raw_content)
        return self._parse(request, raw, raw_content)

    @staticmethod
    def _parse(request: JudgeRequest, raw: str | None, raw_content: str | None) -> Verdict:
        protocol = PROTOCOLS[request.protocol]
        verdict = protocol.parse(raw, request)
        if verdict.outcome == MISSING and raw_content and raw_content != raw:
            alt = protocol.parse(raw_content, request)  # a verdict left inside <think>
            if alt.outcome != MISSING:
                verdict = alt
        return verdict

    def run(self, requests: Sequence[JudgeRequest]) -> list[list[Verdict]]:
        """One list of `repeats` verdicts per request, in order."""
        if not self.config.enabled:
            return [[Verdict(PENDING, reason="no judge configured")] for _ in requests]
        jobs = [(i, r) for r in range(max(1, self.config.repeats)) for i in range(len(requests))]
        out: list[list[Verdict | None]] = [[None] * max(1, self.config.repeats) for _ in requests]
        done = 0
        bar = _Progress(len(jobs), "judge", enabled=self.progress)
        self._get_client()  # one client, created here: worker threads racing to create it would each make one
        pool = ThreadPoolExecutor(max_workers=max(1, self.config.concurrency))
        futures: dict = {}
        try:
            for i, r in jobs:  # a loop, not a comprehension: on Ctrl-C `futures` holds what was submitted
                futures[pool.submit(self._one, requests[i], r)] = (i, r)
            for fut in as_completed(futures):
                i, r = futures[fut]
                out[i][r] = fut.result()
                done += 1
                bar.update(done)
        except KeyboardInterrupt:  # Ctrl-C: stop at once — no queued calls, in-flight sockets shut down
            pool.shutdown(wait=False, cancel_futures=True)
            abort = getattr(self._client, "abort", None)
            pending = [f for f in futures if not f.done()]
            deadline = time.monotonic() + 5.0
            while abort and time.monotonic() < deadline:
                abort()  # repeated: a connection opened just after the first call is shut down by the next
                if not pending:
                    break
                pending = list(wait(pending, timeout=0.1).not_done)
            raise
        finally:
            pool.shutdown(wait=True)
            bar.close()
            if self.cache is not None:
                self.cache.close()
        if self._down_reason:
            kept = (f"the {len(self.cache)} replies received so far are kept in {self.cache.path} and the same "
                    "command reuses them" if self.cache is not None else "no judge cache was kept (--judge-cache)")
            hint = ("the judge seems down, hung or overloaded (--judge-max-consecutive-failures sets the limit, "
                    "0 turns it off)" if "circuit breaker" in self._down_reason
                    else "check --judge-base-url, --judge-model and the judge key")
            raise JudgeUnavailable(f"{self._down_reason} — stopped after {self.calls} call(s); {hint}; no report "
                                   f"was written; {kept}")
        return [[v for v in vs if v is not None] for vs in out]


class _Progress:
    """tqdm on a terminal, a plain line every 10 s otherwise."""

    def __init__(self, total: int, desc: str, *, enabled: bool = True) -> None:
        self.total, self.desc, self.enabled = total, desc, enabled and total > 0
        self._bar = None
        self._last = time.monotonic()
        if self.enabled and sys.stderr.isatty():
            try:
                from tqdm import tqdm

                self._bar = tqdm(total=total, desc=desc, file=sys.stderr)
            except ImportError:  # pragma: no cover
                self._bar = None

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.n = done
            self._bar.refresh()
        elif time.monotonic() - self._last >= 10 or done == self.total:
            self._last = time.monotonic()
            print(f"{self.desc}: {done}/{self.total}", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()

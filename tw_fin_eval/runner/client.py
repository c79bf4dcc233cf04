"""A small OpenAI-compatible chat-completions client (standard library only).

One HTTP client for the whole project: the runner and the LLM judge both use `ChatClient`.

- keep-alive: one `http.client` connection per thread, reused across requests;
- `timeout` bounds each whole attempt, connect to last byte: every socket read gets only the time left
  before the attempt's deadline, so a server that trickles headers or body cannot stretch it;
- the body is read in chunks up to `max_response_bytes` (a larger or larger-announced reply fails that
  item, not the process); error bodies are read up to 64 KiB only;
- bounded retries with exponential backoff and full jitter; `Retry-After` (seconds or HTTP date) is
  honoured on 429 and 503, capped at `max_retry_after`; every request sent counts as an attempt (also
  a re-send after a reused keep-alive connection was reset);
- retryable: connection failures, timeouts, 408/409/425/429/5xx, malformed, empty or null-content
  replies; other 4xx (bad request, auth, unknown model, context too long), 3xx (the Location is named)
  and too-large replies fail at once — retrying cannot help;
- an optional `CircuitBreaker` sees every attempt: N failures of one kind in a row, across different
  requests, and the client aborts (the server is down or overloaded: stop instead of retrying forever);
- `abort()` cancels backoff sleeps and shuts down in-flight sockets so Ctrl-C is quick;
- the API key is sent only in the Authorization header; every text taken from the server (replies,
  error bodies, headers) is scrubbed of it before it is cut to length, and lone surrogates in it are
  replaced (`tw_fin_eval.redact`).

Reasoning text comes back as `message.reasoning_content` (vLLM, llama.cpp), `message.reasoning`
(some gateways), or a leading `<think>…</think>` inside the content; `ChatResult.reasoning` holds it
whichever way it came, `ChatResult.content` is the answer without it, `ChatResult.raw_content` the
content exactly as the server sent it.
"""

from __future__ import annotations

import email.utils
import http.client
import io
import json
import math
import random
import socket
import threading
import time
import urllib.parse
from dataclasses import dataclass
from typing import Any

from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import loads as bounded_loads
from tw_fin_eval.redact import Redactor, clean_text, header_safe_key
from tw_fin_eval.schema import split_think  # the one think-splitter (re-exported for the runner)

RETRY_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
RETRY_AFTER_STATUSES = frozenset({429, 503})
ERROR_BODY_CHARS = 300  # how much of an error body goes into the error message
ERROR_BODY_BYTES = 64 * 1024  # how much of a non-2xx body is read at all
DEFAULT_MAX_RESPONSE_BYTES = 16 * 2**20
READ_CHUNK = 1 << 20

# error kinds (ChatResult.error_kind)
UNREACHABLE = "unreachable"   # could not connect at all (refused, DNS, connect timeout)
TIMEOUT = "timeout"           # connected, but no complete answer within the timeout
CONNECTION = "connection"     # connection dropped / reset mid-request
HTTP = "http"                 # non-2xx status
BAD_RESPONSE = "bad_response"  # 2xx but not a usable chat completion (also: content null)
TOO_LARGE = "too_large"       # the reply is larger than max_response_bytes
CANCELLED = "cancelled"       # abort() was called


@dataclass
class ChatResult:
    content: str | None
    reasoning: str | None
    finish_reason: str | None
    usage: dict | None
    latency_s: float
    attempts: int
    error: str | None
    raw: dict | None
    raw_content: str | None = None
    error_kind: str | None = None
    status: int | None = None
    response_bytes: int = 0  # size of the reply body (the runner keeps fewer requests queued when large)

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass
class _Failure(Exception):
    kind: str
    message: str
    status: int | None = None
    retry_after: float | None = None
    retryable: bool = True
    immediate: bool = False  # retry without a backoff pause (a reused connection was reset)

    @property
    def label(self) -> str:
        """The failure's kind as people name it (the circuit breaker groups by this: all 5xx are one
        kind, so a proxy answering 502 and 503 by turns still counts as one failing server)."""
        if self.kind == HTTP:
            return "HTTP 5xx" if self.status is not None and 500 <= self.status < 600 else f"HTTP {self.status}"
        return {TIMEOUT: "timeout", CONNECTION: "connection failure", BAD_RESPONSE: "unusable reply",
                TOO_LARGE: "reply too large"}.get(self.kind, self.kind)


class CircuitBreaker:
    """Trips after `limit` failed attempts of one kind in a row (no success in between) that come from
    at least two different requests — so one item that always fails cannot trip it. Thread-safe.
    Only failures worth a retry count (timeouts, dropped connections, 5xx/429, unusable replies): an
    answer about one item (400, too large) says nothing about the server. `limit` 0 turns it off."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.tripped: str | None = None  # "timeout ×10 across 8 requests (last: …)"
        self._lock = threading.Lock()
        self._label: str | None = None
        self._count = 0
        self._items: set[int] = set()

    def success(self) -> None:
        with self._lock:
            self._label, self._count = None, 0
            self._items.clear()

    def failure(self, label: str, item: int, message: str) -> bool:
        """Record one failed attempt; True if the breaker is (now) open."""
        with self._lock:
            if self.tripped is not None:
                return True
            if label != self._label:
                self._label, self._count = label, 0
                self._items.clear()
            self._count += 1
            self._items.add(item)
            if self.limit and self._count >= self.limit and len(self._items) >= 2:
                self.tripped = (f"{label} ×{self._count} in a row across {len(self._items)} requests "
                                f"(last: {message})")
                return True
            return False


class _DeadlineReader(io.RawIOBase):
    """The socket as a raw stream whose every read gets only the time left before `conn.deadline`:
    http.client reads headers line by line and the body in pieces, so a per-read timeout alone would let
    a trickling server stretch one attempt without end."""

    def __init__(self, sock: socket.socket, conn: Any) -> None:
        super().__init__()
        self._sock = sock
        self._conn = conn

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self._conn.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("deadline passed")
        self._sock.settimeout(left)
        return self._sock.recv_into(buffer)


class _DeadlineResponse(http.client.HTTPResponse):
    def __init__(self, sock: socket.socket, *args: Any, conn: Any, **kwargs: Any) -> None:
        super().__init__(sock, *args, **kwargs)
        self.fp.close()  # the plain socket file http.client made; ours checks the deadline
        self.fp = io.BufferedReader(_DeadlineReader(sock, conn), 65536)


class _DeadlineMixin:
    deadline: float = math.inf

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.response_class = lambda sock, *a, **kw: _DeadlineResponse(sock, *a, conn=self, **kw)


class _HTTPConnection(_DeadlineMixin, http.client.HTTPConnection):
    pass


class _HTTPSConnection(_DeadlineMixin, http.client.HTTPSConnection):
    pass


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds, or an HTTP date); None if absent/invalid.

    >>> parse_retry_after("3")
    3.0
    >>> parse_retry_after("soon") is None
    True
    """
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def normalize_base_url(base_url: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, path of chat/completions) for a base URL like http://host:8000/v1.

    A URL already ending in /chat/completions is accepted as is. Raises InputError otherwise."""
    parsed = urllib.parse.urlsplit(base_url.strip())
    if parsed.scheme not in {"http", "https"} or not parsed.hostname:
        raise InputError("base URL must start with http:// or https:// and name a host "
                         "(e.g. http://localhost:8000/v1)", field="base_url")
    if parsed.username or parsed.password:
        raise InputError("base URL must not carry credentials; put the key in the environment", field="base_url")
    try:
        port = parsed.port or (443 if parsed.scheme == "https" else 80)
    except ValueError:
        raise InputError("base URL has an invalid port", field="base_url") from None
    path = parsed.path.rstrip("/")
    if not path.endswith("/chat/completions"):
        path += "/chat/completions"
    if parsed.query:
        path += "?" + parsed.query
    return parsed.scheme, parsed.hostname, port, path


class ChatClient:
    """Thread-safe; each thread keeps its own keep-alive connection."""

    def __init__(self, base_url: str, *, api_key: str | None = None, timeout: float = 120.0,
                 max_retries: int = 4, backoff_base: float = 0.5, backoff_max: float = 30.0,
                 max_retry_after: float = 120.0, connect_timeout: float | None = None,
                 max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES, breaker: CircuitBreaker | None = None,
                 user_agent: str = "tw-fin-eval-runner/0.1", rng: random.Random | None = None) -> None:
        self.scheme, self.host, self.port, self.path = normalize_base_url(base_url)
        self.base_url = base_url
        self._api_key = header_safe_key(api_key, "the API key") or None
        self.redactor = Redactor([self._api_key])
        self.timeout = float(timeout)
        self.connect_timeout = float(connect_timeout if connect_timeout is not None else min(timeout, 10.0))
        self.max_retries = max(0, int(max_retries))
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.max_retry_after = max_retry_after
        self.max_response_bytes = int(max_response_bytes)
        self.breaker = breaker
        self._headers = {"Content-Type": "application/json", "Accept": "application/json",
                         "User-Agent": user_agent}
        if self._api_key:
            self._headers["Authorization"] = f"Bearer {self._api_key}"
        self._local = threading.local()
        self._conns: set[http.client.HTTPConnection] = set()
        self._conns_lock = threading.Lock()
        self._cancel = threading.Event()
        self._rng = rng or random.Random()
        self._rng_lock = threading.Lock()

    def __repr__(self) -> str:  # never show the key
        return f"ChatClient({self.scheme}://{self.host}:{self.port}{self.path})"

    @property
    def server(self) -> str:
        return f"{self.scheme}://{self.host}:{self.port}"

    # -- public -------------------------------------------------------------------------------
    def chat(self, messages: list[dict], *, model: str, **params: Any) -> ChatResult:
        """One chat completion with retries. Never raises for network/server trouble: the failure is
        in `ChatResult.error` / `error_kind` (the last attempt's)."""
        body = {"model": model, "messages": messages}
        body.update({k: v for k, v in params.items() if v is not None})
        return self.send(body)

    def send(self, body: dict[str, Any]) -> ChatResult:
        """`chat` for a ready request body (the runner builds it with `requests.request_body`)."""
        start = time.monotonic()
        try:
            payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
        except (TypeError, ValueError) as exc:  # e.g. a lone surrogate in the data: no server can take it
            return self._failed(_Failure(BAD_RESPONSE, f"the request cannot be sent as UTF-8 JSON "
                                         f"({type(exc).__name__}: {str(exc)[:120]})", retryable=False), start, 0)
        item = id(payload)  # one request, however many attempts (the payload lives until we return)
        attempts = 0
        while True:
            if self._cancel.is_set():
                return self._failed(_Failure(CANCELLED, "cancelled", retryable=False), start, attempts)
            attempts += 1
            try:
                data, size = self._post(payload, time.monotonic() + self.timeout)
                result = self._parse(data)
                result.latency_s = time.monotonic() - start
                result.attempts = attempts
                result.response_bytes = size
                if self.breaker is not None:
                    self.breaker.success()
                return result
            except _Failure as exc:
                failure = exc
            if self._cancel.is_set():
                return self._failed(_Failure(CANCELLED, "cancelled", retryable=False), start, attempts)
            failure.message = self._scrub(failure.message)
            if failure.retryable and self.breaker is not None \
                    and self.breaker.failure(failure.label, item, failure.message):
                self.abort()  # the breaker is open: every other request stops too
                return self._failed(_Failure(CANCELLED, "cancelled", retryable=False), start, attempts)
            if not failure.retryable or attempts > self.max_retries:
                return self._failed(failure, start, attempts)
            if not failure.immediate and not self._sleep(self._delay(attempts, failure)):
                return self._failed(_Failure(CANCELLED, "cancelled", retryable=False), start, attempts)

    def abort(self) -> None:
        """Cancel: pending backoff sleeps end, in-flight sockets are shut down, new calls fail at once."""
        self._cancel.set()
        with self._conns_lock:
            conns = list(self._conns)
        for conn in conns:
            sock = conn.sock
            if sock is not None:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def preflight(self, timeout: float = 10.0) -> str | None:
        """None if a TCP connection to the server opens, else a one-line reason. Sends nothing, so it
        is the cheap way to fail fast (before thousands of requests each retry a dead server)."""
        try:
            with socket.create_connection((self.host, self.port), timeout=timeout):
                return None
        except OSError as exc:
            return f"cannot connect to {self.server} ({_describe(exc)})"

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def close(self) -> None:
        with self._conns_lock:
            conns = list(self._conns)
            self._conns.clear()
        for conn in conns:
            try:
                conn.close()
            except OSError:
                pass

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals ------------------------------------------------------------------------------
    def _scrub(self, text: str) -> str:
        return clean_text(self.redactor.scrub(text))

    def _failed(self, failure: _Failure, start: float, attempts: int) -> ChatResult:
        return ChatResult(content=None, reasoning=None, finish_reason=None, usage=None,
                          latency_s=time.monotonic() - start, attempts=attempts,
                          error=self._scrub(failure.message), raw=None, error_kind=failure.kind,
                          status=failure.status)

    def _delay(self, attempts: int, failure: _Failure) -> float:
        if failure.retry_after is not None:
            # honour the server, plus a little jitter so a crowd of workers does not return at once
            with self._rng_lock:
                return min(failure.retry_after, self.max_retry_after) + self._rng.uniform(0, 0.05)
        cap = min(self.backoff_max, self.backoff_base * (2 ** (attempts - 1)))
        with self._rng_lock:  # "full jitter": uniform in [cap/2, cap]
            return cap * (0.5 + 0.5 * self._rng.random())

    def _sleep(self, seconds: float) -> bool:
        """False if cancelled while waiting."""
        return not self._cancel.wait(seconds)

    def _connection(self) -> http.client.HTTPConnection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            if self.scheme == "https":
                import ssl  # only https needs it (and it is slow to import)

                conn = _HTTPSConnection(self.host, self.port, timeout=self.connect_timeout,
                                        context=ssl.create_default_context())
            else:
                conn = _HTTPConnection(self.host, self.port, timeout=self.connect_timeout)
            self._local.conn = conn
            with self._conns_lock:
                self._conns.add(conn)
        return conn

    def _drop_connection(self) -> None:
        conn = getattr(self._local, "conn", None)
        self._local.conn = None
        if conn is not None:
            with self._conns_lock:
                self._conns.discard(conn)
            try:
                conn.close()
            except OSError:
                pass

    def _post(self, payload: bytes, deadline: float) -> tuple[dict, int]:
        conn = self._connection()
        reused = conn.sock is not None
        conn.deadline = deadline
        try:
            if not reused:
                with self._conns_lock:  # (again, after close()) so abort() can reach it
                    self._conns.add(conn)
                conn.timeout = max(0.001, min(self.connect_timeout, deadline - time.monotonic()))
                try:
                    conn.connect()
                except (socket.gaierror, ConnectionRefusedError, TimeoutError, OSError) as exc:
                    raise _Failure(UNREACHABLE, f"cannot connect to {self.server}: {_describe(exc)}") from None
            conn.sock.settimeout(max(0.001, deadline - time.monotonic()))  # sendall: bounded in total
            conn.request("POST", self.path, body=payload, headers=self._headers)
            resp = conn.getresponse()
            status = resp.status
            ok = 200 <= status < 300
            raw = self._read_body(resp, self.max_response_bytes if ok else ERROR_BODY_BYTES, ok)
            retry_after = resp.getheader("Retry-After")
            location = resp.getheader("Location")
            if resp.will_close or not resp.isclosed():  # (not fully read: the connection is unusable)
                self._drop_connection()
        except _Failure:
            self._drop_connection()
            raise
        except TimeoutError:
            self._drop_connection()
            if self._cancel.is_set():
                raise _Failure(CANCELLED, "cancelled", retryable=False) from None
            raise _Failure(TIMEOUT, f"no complete response within {self.timeout:g} s (--timeout bounds the "
                           "whole request, connect to last byte)") from None
        except (http.client.HTTPException, OSError) as exc:
            self._drop_connection()
            if self._cancel.is_set():
                raise _Failure(CANCELLED, "cancelled", retryable=False) from None
            if reused and isinstance(exc, (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError)):
                # the server closed or reset a keep-alive connection: send again at once (a new attempt)
                raise _Failure(CONNECTION, f"the server closed a reused keep-alive connection "
                               f"({_describe(exc)})", immediate=True) from None
            raise _Failure(CONNECTION, f"connection to {self.server} failed: {_describe(exc)}") from None

        if not 200 <= status < 300:
            detail = _error_detail(raw, self.redactor)
            if 300 <= status < 400:
                where = _one_line(self.redactor.scrub(location or ""), 200) or "no Location header"
                raise _Failure(HTTP, f"HTTP {status} redirect to {where} — the runner does not follow "
                               "redirects; use that address as --base-url", status=status, retryable=False)
            wait = parse_retry_after(retry_after) if status in RETRY_AFTER_STATUSES else None
            raise _Failure(HTTP, f"HTTP {status}" + (f": {detail}" if detail else ""), status=status,
                           retry_after=wait, retryable=status in RETRY_STATUSES)
        first, size = bytes(raw[:4096]), len(raw)
        try:
            text = raw.decode("utf-8")
            del raw  # a large reply is held once, not twice
            data = bounded_loads(text)
        except ValueError as exc:  # bad UTF-8 / JSON, a 5000-digit number, [[[[…]]]], NaN (jsonl.loads)
            start = _one_line(self.redactor.scrub_bytes(first), 80)  # scrubbed, then cut
            raise _Failure(BAD_RESPONSE, f"malformed JSON from server ({type(exc).__name__}: "
                           f"{self.redactor.scrub(str(exc))[:120]}); body starts {start!r}") from None
        if not isinstance(data, dict):
            raise _Failure(BAD_RESPONSE, f"response is JSON {type(data).__name__}, not an object")
        return data, size

    def _read_body(self, resp: http.client.HTTPResponse, limit: int, ok: bool) -> bytearray:
        """The body, read in chunks, at most `limit` bytes. A 2xx reply over the limit is an error;
        an error body is simply cut (its first bytes say enough)."""
        length = resp.length  # None: chunked, or read until the server closes
        if length is not None and length > limit and ok:
            raise _Failure(TOO_LARGE, f"reply too large: the server announced {length} bytes, more than the "
                           f"limit of {limit} (--max-response-bytes)", retryable=False)
        buf = bytearray(min(length, limit) if length is not None else 0)
        if length is not None:  # read straight into one buffer of the announced size
            view, pos = memoryview(buf), 0
            while pos < len(buf):
                n = resp.readinto(view[pos:pos + READ_CHUNK])
                if not n:
                    raise http.client.IncompleteRead(bytes(view[:min(pos, 80)]), len(buf) - pos)
                pos += n
            view.release()
            return buf
        while True:
            chunk = resp.read(min(READ_CHUNK, limit + 1 - len(buf)))
            if not chunk:
                return buf
            buf += chunk
            if len(buf) > limit:
                if ok:
                    raise _Failure(TOO_LARGE, f"reply too large: more than the limit of {limit} bytes "
                                   "(--max-response-bytes)", retryable=False)
                return buf[:limit]

    def _parse(self, data: dict) -> ChatResult:
        return _parse_reply(data, self.redactor)

    def _text(self, text: str) -> str:
        """Server text made safe to store: the key scrubbed, lone surrogates replaced."""
        return _safe_text(self.redactor, text)


def _parse_reply(data: dict, redactor: Redactor) -> ChatResult:
    """A 2xx chat-completions body → ChatResult; an unusable one raises _Failure (BAD_RESPONSE)."""
    if isinstance(data.get("error"), (dict, str)) and not data.get("choices"):
        detail = _error_detail(json.dumps(data).encode(), redactor)
        raise _Failure(BAD_RESPONSE, f"server error in a 2xx response: {detail}")
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise _Failure(BAD_RESPONSE, "response has no choices")
    choice = choices[0]
    message = choice.get("message")
    if not isinstance(message, dict):
        raise _Failure(BAD_RESPONSE, "response choice has no message")
    finish = choice.get("finish_reason")
    finish = _safe_text(redactor, finish) if isinstance(finish, str) else None
    raw_content = message.get("content")
    if raw_content is None:
        raise _Failure(BAD_RESPONSE, "empty reply: message.content is null"
                       + (f" (finish_reason {finish})" if finish else ""))
    if not isinstance(raw_content, str):
        # some servers send content parts; keep the text parts
        if isinstance(raw_content, list):
            raw_content = "".join(p["text"] for p in raw_content
                                  if isinstance(p, dict) and isinstance(p.get("text"), str))
        else:
            raise _Failure(BAD_RESPONSE, f"message.content is {type(raw_content).__name__}")
    raw_content = _safe_text(redactor, raw_content)
    content, think = split_think(raw_content)
    reasoning = message.get("reasoning_content")
    if not isinstance(reasoning, str) or not reasoning:
        reasoning = message.get("reasoning") if isinstance(message.get("reasoning"), str) else None
    reasoning = _safe_text(redactor, reasoning) if reasoning else think
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else None
    return ChatResult(content=content, reasoning=reasoning or None, finish_reason=finish, usage=usage,
                      latency_s=0.0, attempts=0, error=None, raw=data, raw_content=raw_content)


def _safe_text(redactor: Redactor, text: str) -> str:
    return clean_text(redactor.scrub(text))


def parse_completion(data: Any, redactor: Redactor | None = None) -> ChatResult:
    """A chat-completions response body read from elsewhere (a batch output line) → ChatResult, by the same
    rules as a live reply; an unusable body gives a result whose `error` says why (never raises)."""
    if not isinstance(data, dict):
        return ChatResult(content=None, reasoning=None, finish_reason=None, usage=None, latency_s=0.0, attempts=1,
                          error=f"{BAD_RESPONSE}: response body is {type(data).__name__}, not an object", raw=None,
                          error_kind=BAD_RESPONSE)
    try:
        result = _parse_reply(data, redactor or Redactor())
    except _Failure as exc:
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else None
        return ChatResult(content=None, reasoning=None, finish_reason=None, usage=usage, latency_s=0.0, attempts=1,
                          error=exc.message, raw=None, error_kind=exc.kind)
    result.attempts = 1
    return result


def _describe(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if isinstance(exc, socket.gaierror):
        return f"host name lookup failed ({text})"
    return text if type(exc).__name__ in text else f"{type(exc).__name__}: {text}"


def _one_line(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text[:limit] + ("…" if len(text) > limit else "")


def _error_detail(raw: bytes | bytearray, redactor: Redactor) -> str:
    """A short, single-line description of an error body (the JSON error message if there is one),
    scrubbed of the key *before* it is cut to length."""
    text = bytes(raw).decode("utf-8", "replace").strip()
    try:  # bounded and total: a hostile error body (nested 100 000 deep, a 5000-digit number) is just text
        data = bounded_loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict):
        err = data.get("error", data.get("detail", data.get("message")))
        if isinstance(err, dict):
            err = err.get("message") or json.dumps(err, ensure_ascii=False)
        if isinstance(err, str):
            text = err
    return _one_line(clean_text(redactor.scrub(text)), ERROR_BODY_CHARS)

"""A small OpenAI-compatible chat-completions client (standard library only).

One HTTP client for the whole project: the runner and the LLM judge both use `ChatClient`.

- keep-alive: one `http.client` connection per thread, reused across requests;
- per-request socket timeout; bounded retries with exponential backoff and full jitter; `Retry-After`
  (seconds or HTTP date) is honoured on 429 and 503, capped at `max_retry_after`;
- retryable: connection failures, timeouts, 408/409/425/429/5xx, malformed or empty responses;
  other 4xx (bad request, auth, unknown model, context too long) fail at once — retrying cannot help;
- `abort()` cancels backoff sleeps and shuts down in-flight sockets so Ctrl-C is quick;
- the API key is sent only in the Authorization header and is scrubbed from every error string.

Reasoning text comes back as `message.reasoning_content` (vLLM, llama.cpp), `message.reasoning`
(some gateways), or a leading `<think>…</think>` inside the content; `ChatResult.reasoning` holds it
whichever way it came, `ChatResult.content` is the answer without it, `ChatResult.raw_content` the
content exactly as the server sent it.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import random
import socket
import threading
import time
import urllib.parse
from dataclasses import dataclass
from typing import Any

from tw_fin_eval.errors import InputError
from tw_fin_eval.schema import split_think  # the one think-splitter (re-exported for the runner)

RETRY_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
RETRY_AFTER_STATUSES = frozenset({429, 503})
ERROR_BODY_CHARS = 300  # how much of an error body goes into the error message

# error kinds (ChatResult.error_kind)
UNREACHABLE = "unreachable"   # could not connect at all (refused, DNS, connect timeout)
TIMEOUT = "timeout"           # connected, but no complete answer within the timeout
CONNECTION = "connection"     # connection dropped / reset mid-request
HTTP = "http"                 # non-2xx status
BAD_RESPONSE = "bad_response"  # 2xx but not a usable chat completion
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


class _StaleConnection(Exception):
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
                 user_agent: str = "tw-fin-eval-runner/0.1", rng: random.Random | None = None) -> None:
        self.scheme, self.host, self.port, self.path = normalize_base_url(base_url)
        self.base_url = base_url
        self._api_key = api_key or None
        self.timeout = float(timeout)
        self.connect_timeout = float(connect_timeout if connect_timeout is not None else min(timeout, 10.0))
        self.max_retries = max(0, int(max_retries))
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.max_retry_after = max_retry_after
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
        payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
        start = time.monotonic()
        attempts = 0
        failure: _Failure | None = None
        while True:
            if self._cancel.is_set():
                failure = _Failure(CANCELLED, "cancelled", retryable=False)
                break
            attempts += 1
            try:
                data = self._post(payload)
                result = self._parse(data)
                result.latency_s = time.monotonic() - start
                result.attempts = attempts
                return result
            except _Failure as exc:
                failure = exc
            if self._cancel.is_set():
                failure = _Failure(CANCELLED, "cancelled", retryable=False)
                break
            if not failure.retryable or attempts > self.max_retries:
                break
            if not self._sleep(self._delay(attempts, failure)):
                failure = _Failure(CANCELLED, "cancelled", retryable=False)
                break
        return ChatResult(content=None, reasoning=None, finish_reason=None, usage=None,
                          latency_s=time.monotonic() - start, attempts=attempts,
                          error=self._scrub(failure.message), raw=None, error_kind=failure.kind,
                          status=failure.status)

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
        if self._api_key and self._api_key in text:
            text = text.replace(self._api_key, "[REDACTED]")
        return text

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

                conn = http.client.HTTPSConnection(self.host, self.port, timeout=self.connect_timeout,
                                                   context=ssl.create_default_context())
            else:
                conn = http.client.HTTPConnection(self.host, self.port, timeout=self.connect_timeout)
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

    def _post(self, payload: bytes) -> dict:
        try:
            return self._post_once(payload)
        except _StaleConnection:
            # the server closed an idle keep-alive connection: resend once on a new one (not an attempt)
            return self._post_once(payload)

    def _post_once(self, payload: bytes) -> dict:
        conn = self._connection()
        fresh = conn.sock is None
        try:
            if fresh:
                with self._conns_lock:  # (again, after close()) so abort() can reach it
                    self._conns.add(conn)
                try:
                    conn.connect()
                except (socket.gaierror, ConnectionRefusedError, TimeoutError, OSError) as exc:
                    raise _Failure(UNREACHABLE, f"cannot connect to {self.server}: {_describe(exc)}") from None
            conn.sock.settimeout(self.timeout)
            conn.request("POST", self.path, body=payload, headers=self._headers)
            resp = conn.getresponse()
            raw = resp.read()
            status = resp.status
            retry_after = resp.getheader("Retry-After")
            if resp.will_close:
                self._drop_connection()
        except _Failure:
            self._drop_connection()
            raise
        except TimeoutError:
            self._drop_connection()
            raise _Failure(TIMEOUT, f"no response within {self.timeout:g} s") from None
        except (http.client.HTTPException, OSError) as exc:
            self._drop_connection()
            if not fresh and isinstance(exc, (http.client.RemoteDisconnected, BrokenPipeError,
                                              ConnectionResetError)) and not self._cancel.is_set():
                raise _StaleConnection() from None
            if self._cancel.is_set():
                raise _Failure(CANCELLED, "cancelled", retryable=False) from None
            raise _Failure(CONNECTION, f"connection to {self.server} failed: {_describe(exc)}") from None

        if not 200 <= status < 300:
            detail = _error_detail(raw)
            wait = parse_retry_after(retry_after) if status in RETRY_AFTER_STATUSES else None
            raise _Failure(HTTP, f"HTTP {status}" + (f": {detail}" if detail else ""), status=status,
                           retry_after=wait, retryable=status in RETRY_STATUSES)
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise _Failure(BAD_RESPONSE, f"malformed JSON from server ({type(exc).__name__}: "
                           f"{str(exc)[:120]}); body starts {raw[:80]!r}") from None
        if not isinstance(data, dict):
            raise _Failure(BAD_RESPONSE, f"response is JSON {type(data).__name__}, not an object")
        return data

    def _parse(self, data: dict) -> ChatResult:
        if isinstance(data.get("error"), (dict, str)) and not data.get("choices"):
            raise _Failure(BAD_RESPONSE, f"server error in a 2xx response: {_error_detail(json.dumps(data).encode())}")
        choices = data.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise _Failure(BAD_RESPONSE, "response has no choices")
        choice = choices[0]
        message = choice.get("message")
        if not isinstance(message, dict):
            raise _Failure(BAD_RESPONSE, "response choice has no message")
        raw_content = message.get("content")
        if raw_content is not None and not isinstance(raw_content, str):
            # some servers send content parts; keep the text parts
            if isinstance(raw_content, list):
                raw_content = "".join(p.get("text", "") for p in raw_content if isinstance(p, dict))
            else:
                raise _Failure(BAD_RESPONSE, f"message.content is {type(raw_content).__name__}")
        content, think = split_think(raw_content)
        reasoning = message.get("reasoning_content")
        if not isinstance(reasoning, str) or not reasoning:
            reasoning = message.get("reasoning") if isinstance(message.get("reasoning"), str) else None
        if not reasoning:
            reasoning = think
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else None
        finish = choice.get("finish_reason")
        return ChatResult(content=content, reasoning=reasoning or None,
                          finish_reason=finish if isinstance(finish, str) else None, usage=usage,
                          latency_s=0.0, attempts=0, error=None, raw=data, raw_content=raw_content)


def _describe(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if isinstance(exc, socket.gaierror):
        return f"host name lookup failed ({text})"
    return text if type(exc).__name__ in text else f"{type(exc).__name__}: {text}"


def _error_detail(raw: bytes) -> str:
    """A short, single-line description of an error body (the JSON error message if there is one)."""
    text = raw.decode("utf-8", "replace").strip()
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None
    if isinstance(data, dict):
        err = data.get("error", data.get("detail", data.get("message")))
        if isinstance(err, dict):
            err = err.get("message") or json.dumps(err, ensure_ascii=False)
        if isinstance(err, str):
            text = err
    text = " ".join(text.split())
    return text[:ERROR_BODY_CHARS] + ("…" if len(text) > ERROR_BODY_CHARS else "")

"""A real OpenAI-compatible HTTP server on 127.0.0.1 for tests and benchmarks (standard library only).

    with FakeOpenAIServer(lambda body: "答案：42") as srv:
        client = ChatClient(srv.url)            # srv.url == "http://127.0.0.1:PORT/v1"
        ...
        srv.requests                             # every chat request body received, in order

`responder(body)` gives the assistant reply: a str (the content), a dict of message fields
(`{"content": ..., "reasoning_content": ..., "finish_reason": ...}`), or a full response dict (one with
"choices", sent as is). The default reply is deterministic: it echoes the last user message.

Faults (each one a real HTTP/socket behaviour):
  "429" / "503"  status with `Retry-After: <retry_after>`     "500"  internal error (JSON error body)
  "400"          bad request (not retryable)                   "401"  unauthorized
  "hang"         sleep `hang_s` before answering (client times out)
  "drop"         close the connection without any response    "truncate"  promise more bytes than sent, close
  "malformed"    200 with a body that is not JSON              "empty"  200 with `"choices": []`
The hostile ones (issue 17: a client must bound time, memory and what it writes):
  "trickle_body"     a valid answer, its body sent one byte every `trickle_s`
  "trickle_headers"  the status line, then one header line every `trickle_s`, never the end of the headers
  "huge_length"      `Content-Length: 10^12`, a few bytes, then a stall
  "big" / "big_chunked"  a valid answer whose content is `big_bytes` bytes (Content-Length / chunked)
  "surrogate"        content and reasoning_content hold a lone surrogate escape (`\ud800`)
  "null_content"     200 with `"content": null`
  "reset_reused"     on a keep-alive connection that already served a request: read it, then RST
  "redirect"         307 to `redirect_to` (default: the same path on /v2)
  "echo_key_error"   500 whose error message quotes the Authorization header (upper-cased) across char 300
  "echo_key_body"    200 with a non-JSON body quoting the Authorization header across char 80
  "echo_key_content" 200 whose content quotes the Authorization header
  "deep_json"        200 with JSON nested 100 000 levels deep;  "huge_number"  200 with a 10 000-digit number
  "deep_error"       500 whose JSON error body is nested 30 000 levels deep (fits the 64 KiB error read)
  "huge_number_error"  500 whose JSON error body holds a 5000-digit number
Every stall is bounded (`hang_s`, `max_stall_s`) and released by stop(); the server binds loopback only.
Choose them with
  - `faults={"429": 2, "drop": 1}`: the first N chat requests overall get that fault (in dict order);
  - `script=["429", "500"]`: for *each distinct request body*, attempt i gets script[i] (then success) —
    deterministic per item even under concurrency;
  - `fault_for(body, nth) -> str | None`: anything else (nth = how many times this body was seen, from 1).
`reasoning="reasoning_content" | "reasoning" | "think"` adds reasoning text in that form.
`api_key="..."` makes the server demand `Authorization: Bearer <key>` (401 otherwise).

Run by hand (and by the benchmark, in its own process):
    python -m tw_fin_eval.testing.openai_server --port 8000 [--latency 0.05] [--script 429,500] [--faults 503=2]
It prints "listening on http://127.0.0.1:PORT/v1" once ready.
"""

from __future__ import annotations

import argparse
import hashlib
import http.server
import json
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

Responder = Callable[[dict], "str | dict"]
FAULTS = ("429", "503", "500", "400", "401", "hang", "drop", "truncate", "malformed", "empty",
          "trickle_body", "trickle_headers", "huge_length", "big", "big_chunked", "surrogate", "null_content",
          "reset_reused", "redirect", "echo_key_error", "echo_key_body", "echo_key_content", "deep_json",
          "huge_number", "deep_error", "huge_number_error")
LOOPBACK = ("127.0.0.1", "::1", "localhost")


def default_responder(body: dict) -> str:
    """Echo the last user message and give a deterministic "answer" (its length)."""
    last = ""
    for msg in reversed(body.get("messages") or []):
        if isinstance(msg, dict) and msg.get("role") == "user":
            last = str(msg.get("content", ""))
            break
    return f"收到：{last[-40:]}\n答案：{len(last)}"


def body_key(body: dict) -> str:
    """Identity of a request for per-item scripts: its model and messages."""
    text = json.dumps([body.get("model"), body.get("messages")], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class FakeOpenAIServer:
    """Context manager; `.url` is the base URL (with /v1); `.requests` the chat bodies received."""

    def __init__(self, responder: Responder | None = None, *, latency: float = 0.0,
                 faults: dict[str, int] | None = None, script: list[str | None] | None = None,
                 fault_for: Callable[[dict, int], str | None] | None = None, retry_after: str = "1",
                 hang_s: float = 30.0, reasoning: str | None = None, api_key: str | None = None,
                 model_name: str = "fake-model", port: int = 0, host: str = "127.0.0.1",
                 record: bool = True, trickle_s: float = 0.2, max_stall_s: float = 30.0,
                 big_bytes: int = 50 * 2**20, redirect_to: str | None = None) -> None:
        if host not in LOOPBACK:
            raise ValueError(f"the test server binds loopback only ({', '.join(LOOPBACK)}), not {host!r}")
        for name in list(faults or {}) + [s for s in (script or []) if s]:
            if name not in FAULTS:
                raise ValueError(f"unknown fault {name!r}; known: {', '.join(FAULTS)}")
        if reasoning not in (None, "reasoning_content", "reasoning", "think"):
            raise ValueError(f"unknown reasoning mode {reasoning!r}")
        self.responder = responder or default_responder
        self.latency = latency
        self.faults = dict(faults or {})
        self.script = list(script or [])
        self.fault_for = fault_for
        self.retry_after = retry_after
        self.hang_s = hang_s
        self.reasoning = reasoning
        self.api_key = api_key
        self.model_name = model_name
        self.record = record
        self.trickle_s = trickle_s
        self.max_stall_s = max_stall_s
        self.big_bytes = big_bytes
        self.redirect_to = redirect_to
        self.requests: list[dict] = []
        self.headers: list[dict[str, str]] = []
        self.faults_sent: list[str] = []
        self.connections = 0
        self._seen: dict[str, int] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._httpd = _Server((host, port), _Handler)
        self._httpd.owner = self
        self._thread: threading.Thread | None = None

    # -- lifecycle --------------------------------------------------------------------------------
    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> FakeOpenAIServer:
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="fake-openai-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()  # releases hanging handlers
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- behaviour --------------------------------------------------------------------------------
    def _choose_fault(self, body: dict) -> str | None:
        with self._lock:
            if self.record:
                self.requests.append(body)
            nth = 1
            if self.script or self.fault_for is not None:  # only they need per-body counts
                key = body_key(body)
                nth = self._seen.get(key, 0) + 1
                self._seen[key] = nth
            fault = None
            for name, left in self.faults.items():
                if left > 0:
                    self.faults[name] = left - 1
                    fault = name
                    break
            if fault is None and nth <= len(self.script):
                fault = self.script[nth - 1]
        if fault is None and self.fault_for is not None:
            fault = self.fault_for(body, nth)
        if fault is not None:
            with self._lock:
                self.faults_sent.append(fault)
        return fault

    def build_response(self, body: dict) -> dict:
        reply: Any = self.responder(body)
        if isinstance(reply, dict) and "choices" in reply:
            return reply
        fields = {"content": reply} if not isinstance(reply, dict) else dict(reply)
        finish = fields.pop("finish_reason", "stop")
        message: dict[str, Any] = {"role": "assistant", "content": fields.pop("content", None)}
        message.update(fields)
        if self.reasoning:
            thought = "先找出題目中的數字，再計算。"
            if self.reasoning == "think":
                message["content"] = f"<think>{thought}</think>\n{message['content'] or ''}"
            else:
                message[self.reasoning] = thought
        content = message.get("content") or ""
        prompt_chars = sum(len(str(m.get("content", ""))) for m in body.get("messages") or [] if isinstance(m, dict))
        with self._lock:
            n = len(self.requests)
        return {
            "id": f"chatcmpl-fake-{n}", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model", self.model_name),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": prompt_chars, "completion_tokens": len(content),
                      "total_tokens": prompt_chars + len(content)},
        }


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256
    owner: FakeOpenAIServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # clients that vanish mid-request are part of the tests; keep stderr quiet


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive
    server: _Server

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with self.server.owner._lock:
            self.server.owner.connections += 1

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _send_json(self, status: int, obj: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(obj, ensure_ascii=False).encode("utf-8")
        self._send_bytes(status, data, headers)

    def _send_bytes(self, status: int, data: bytes, headers: dict[str, str] | None = None,
                    length: int | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data) if length is None else length))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def _stall(self, seconds: float) -> bool:
        """Wait (bounded by max_stall_s); False once the server is stopping."""
        owner = self.server.owner
        return not owner._stop.wait(min(seconds, owner.max_stall_s))

    def _trickle(self, data: bytes) -> None:
        owner = self.server.owner
        end = time.monotonic() + owner.max_stall_s
        for i in range(len(data)):
            if time.monotonic() > end or not self._stall(owner.trickle_s):
                break
            try:
                self.wfile.write(data[i:i + 1])
                self.wfile.flush()
            except OSError:
                break
        self._drop()

    def _reset(self) -> None:
        """Close with a TCP RST (SO_LINGER 0) instead of a FIN."""
        self.close_connection = True
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
        except OSError:
            pass

    def _big_reply(self, body: dict, chunked: bool) -> None:
        owner = self.server.owner
        response = owner.build_response(body)
        response["choices"][0]["message"]["content"] = "@@BIG@@"
        head, tail = (x.encode("utf-8") for x in json.dumps(response, ensure_ascii=False).split("@@BIG@@"))
        block = b"x" * 65536  # the content is streamed, never built
        n_blocks, rest = divmod(max(1, owner.big_bytes), len(block))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(len(head) + owner.big_bytes + len(tail)))
        self.end_headers()

        def emit(data: bytes) -> None:
            if chunked:
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            else:
                self.wfile.write(data)

        try:
            emit(head)
            for _ in range(n_blocks):
                if owner._stop.is_set():
                    raise OSError("stopping")
                emit(block)
            if rest:
                emit(block[:rest])
            emit(tail)
            if chunked:
                self.wfile.write(b"0\r\n\r\n")
        except OSError:
            self._drop()

    def _drop(self) -> None:
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def do_GET(self) -> None:
        owner = self.server.owner
        if self.path.rstrip("/").endswith("/models"):
            self._send_json(200, {"object": "list", "data": [{"id": owner.model_name, "object": "model"}]})
        else:
            self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

    def do_POST(self) -> None:
        owner = self.server.owner
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if not self.path.split("?")[0].rstrip("/").endswith("/chat/completions"):
            self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
            return
        try:
            body = json.loads(raw.decode("utf-8"))
            if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
                raise ValueError("body must be an object with a messages list")
        except (UnicodeDecodeError, ValueError) as exc:
            self._send_json(400, {"error": {"message": f"invalid request: {exc}", "type": "invalid_request_error"}})
            return
        with owner._lock:
            owner.headers.append(dict(self.headers.items()))
        if owner.api_key is not None and self.headers.get("Authorization") != f"Bearer {owner.api_key}":
            self._send_json(401, {"error": {"message": "invalid API key", "type": "authentication_error"}})
            return
        fault = owner._choose_fault(body)
        self.served = getattr(self, "served", 0) + 1
        auth = self.headers.get("Authorization") or ""
        if owner.latency:
            if owner._stop.wait(owner.latency):
                self._drop()
                return
        if fault in ("429", "503"):
            self._send_json(int(fault), {"error": {"message": "server busy, slow down", "type": "rate_limit"}},
                            {"Retry-After": owner.retry_after})
        elif fault == "500":
            self._send_json(500, {"error": {"message": "internal error (injected)", "type": "server_error"}})
        elif fault == "400":
            self._send_json(400, {"error": {"message": "maximum context length exceeded (injected)",
                                            "type": "invalid_request_error"}})
        elif fault == "401":
            self._send_json(401, {"error": {"message": "invalid API key", "type": "authentication_error"}})
        elif fault == "drop":
            self._drop()
        elif fault == "truncate":
            self._send_bytes(200, b'{"choices": [{"mess', length=500)
            self._drop()
        elif fault == "malformed":
            self._send_bytes(200, b'{"choices": [ this is not json')
        elif fault == "empty":
            self._send_json(200, {"id": "x", "object": "chat.completion", "choices": []})
        elif fault == "trickle_body":
            data = json.dumps(owner.build_response(body), ensure_ascii=False).encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.flush()
            self._trickle(data)
        elif fault == "trickle_headers":
            self.wfile.write(b"HTTP/1.1 200 OK\r\n")
            self._trickle(b"".join(f"X-Pad-{i}: {'y' * 20}\r\n".encode() for i in range(10_000)))
        elif fault == "huge_length":
            self._send_bytes(200, b'{"choices": [', length=10**12)
            self.wfile.flush()
            self._stall(owner.hang_s)
            self._drop()
        elif fault in ("big", "big_chunked"):
            self._big_reply(body, chunked=fault == "big_chunked")
        elif fault == "surrogate":
            response = owner.build_response(body)
            message = response["choices"][0]["message"]
            message["content"] = "答案：\ud800 42"
            message["reasoning_content"] = "想\udfff一下"
            # ensure_ascii=True writes the lone surrogates as \uXXXX escapes: valid JSON, invalid Unicode
            self._send_bytes(200, json.dumps(response, ensure_ascii=True).encode("ascii"))
        elif fault == "null_content":
            response = owner.build_response(body)
            response["choices"][0]["message"]["content"] = None
            self._send_json(200, response)
        elif fault == "reset_reused" and self.served > 1:
            self._reset()
        elif fault == "redirect":
            target = owner.redirect_to or f"http://127.0.0.1:{owner.port}/v2/chat/completions"
            self._send_json(307, {"error": {"message": "moved", "type": "redirect"}}, {"Location": target})
        elif fault == "deep_json":
            self._send_bytes(200, b"[" * 100_000 + b"]" * 100_000)
        elif fault == "huge_number":
            self._send_bytes(200, b'{"choices": [], "n": ' + b"7" * 10_000 + b"}")
        elif fault == "deep_error":
            self._send_bytes(500, b'{"error": ' + b"[" * 30_000 + b"]" * 30_000 + b"}")
        elif fault == "huge_number_error":
            self._send_bytes(500, b'{"error": {"message": "overloaded", "code": ' + b"9" * 5000 + b"}}")
        elif fault == "echo_key_error":
            pad = "p" * 270  # the key then straddles the client's 300-character cut of an error body
            self._send_json(500, {"error": {"message": f"{pad} rejected header {auth.upper()} (echo)",
                                            "type": "server_error"}})
        elif fault == "echo_key_body":
            # the key straddles the 80-character "body starts …" snippet of a malformed reply
            self._send_bytes(200, f"<html>{'.' * 60}{auth} was not accepted".encode())
        elif fault == "echo_key_content":
            response = owner.build_response(body)
            response["choices"][0]["message"]["content"] = f"I saw {auth} and {auth.lower()}. 答案：1"
            self._send_json(200, response)
        else:
            if fault == "hang" and owner._stop.wait(owner.hang_s):
                self._drop()
                return
            try:
                response = owner.build_response(body)
            except Exception as exc:  # a responder bug shows up as a 500 the test can see
                self._send_json(500, {"error": {"message": f"responder failed: {exc!r}", "type": "server_error"}})
                return
            self._send_json(200, response)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tw_fin_eval.testing.openai_server",
                                     description="OpenAI-compatible fake chat server for tests and benchmarks")
    parser.add_argument("--port", type=int, default=8000, help="0 picks a free port (default 8000)")
    parser.add_argument("--host", default="127.0.0.1", choices=LOOPBACK, help="loopback only")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds before each answer")
    parser.add_argument("--script", default="", help=f"comma-separated per-request-body faults ({', '.join(FAULTS)})")
    parser.add_argument("--faults", default="", help="first-N-requests faults, e.g. 429=3,500=2")
    parser.add_argument("--retry-after", default="1")
    parser.add_argument("--reasoning", choices=["reasoning_content", "reasoning", "think"])
    parser.add_argument("--no-record", action="store_true", help="do not keep request bodies (long runs)")
    parser.add_argument("--big-bytes", type=int, default=50 * 2**20, help="content size of the big faults")
    args = parser.parse_args(argv)
    script = [s.strip() for s in args.script.split(",") if s.strip()]
    faults: dict[str, int] = {}
    for item in filter(None, (x.strip() for x in args.faults.split(","))):
        name, _, count = item.partition("=")
        if not count.isdigit():
            parser.error(f"--faults wants NAME=COUNT items, got {item!r}")
        faults[name] = int(count)
    try:
        srv = FakeOpenAIServer(latency=args.latency, script=script, faults=faults, retry_after=args.retry_after,
                               reasoning=args.reasoning, port=args.port, host=args.host, record=not args.no_record,
                               big_bytes=args.big_bytes)
    except ValueError as exc:
        parser.error(str(exc))
    print(f"listening on http://{args.host}:{srv.port}/v1", flush=True)
    try:
        srv._httpd.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        srv._stop.set()
        srv._httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

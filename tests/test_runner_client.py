"""ChatClient against the real local test server: success, reasoning forms, every fault path, keep-alive."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from tw_fin_eval.errors import InputError
from tw_fin_eval.runner.client import (
    BAD_RESPONSE,
    CANCELLED,
    CONNECTION,
    HTTP,
    TIMEOUT,
    UNREACHABLE,
    ChatClient,
    normalize_base_url,
    parse_retry_after,
    split_think,
)
from tw_fin_eval.testing import FakeOpenAIServer

MSGS = [{"role": "system", "content": "你是財務分析師。"}, {"role": "user", "content": "營收成長多少？"}]


def fast_client(url: str, **kw) -> ChatClient:
    kw.setdefault("backoff_base", 0.01)
    kw.setdefault("backoff_max", 0.05)
    kw.setdefault("timeout", 5)
    return ChatClient(url, **kw)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_success_fields_and_request_body():
    with FakeOpenAIServer(lambda body: {"content": "答案：94", "finish_reason": "length"}) as srv:
        res = fast_client(srv.url).chat(MSGS, model="m1", temperature=0.0, max_tokens=64, top_p=None)
        assert res.ok and res.content == "答案：94" and res.raw_content == "答案：94"
        assert res.finish_reason == "length" and res.attempts == 1 and res.reasoning is None
        assert res.usage["completion_tokens"] == len("答案：94")
        assert res.raw["choices"][0]["message"]["content"] == "答案：94"
        body = srv.requests[0]
        assert body == {"model": "m1", "messages": MSGS, "temperature": 0.0, "max_tokens": 64}  # None dropped


@pytest.mark.parametrize("mode", ["reasoning_content", "reasoning", "think"])
def test_reasoning_is_kept_separately(mode):
    with FakeOpenAIServer(lambda body: "答案：3", reasoning=mode) as srv:
        res = fast_client(srv.url).chat(MSGS, model="m")
    assert res.content == "答案：3"
    assert res.reasoning == "先找出題目中的數字，再計算。"
    if mode == "think":  # the raw content still holds the block, for an honest record
        assert res.raw_content.startswith("<think>") and res.raw_content.endswith("答案：3")
    else:
        assert res.raw_content == "答案：3"


def test_split_think_edge_cases():
    assert split_think(None) == (None, None)
    assert split_think("  <think>\nx\n</think>\n\n答案：1") == ("答案：1", "x")
    assert split_think("no tags 答案：1") == ("no tags 答案：1", None)
    # a literal "<think>" later in the answer is not a reasoning block
    assert split_think("答案：1 <think>") == ("答案：1 <think>", None)


@pytest.mark.parametrize("status", ["429", "503"])
def test_retry_after_is_honoured(status):
    with FakeOpenAIServer(faults={status: 1}, retry_after="0.6") as srv:
        res = fast_client(srv.url).chat(MSGS, model="m")
    assert res.ok and res.attempts == 2
    assert res.latency_s >= 0.6  # backoff alone would wait ≤ 0.05 s
    assert srv.faults_sent == [status]


def test_retry_after_http_date_and_garbage():
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412480.0 - 5) == pytest.approx(5.0)
    assert parse_retry_after("") is None and parse_retry_after("-3") == 0.0


@pytest.mark.parametrize("fault", ["500", "drop", "truncate", "malformed", "empty", "hang"])
def test_retryable_faults_recover(fault):
    with FakeOpenAIServer(script=[fault], hang_s=10) as srv:
        res = fast_client(srv.url, timeout=0.4, max_retries=1).chat(MSGS, model="m")
        assert res.ok, res.error
        assert res.attempts == 2 and srv.faults_sent == [fault] and len(srv.requests) == 2


@pytest.mark.parametrize("fault,kind,text", [
    ("500", HTTP, "HTTP 500: internal error (injected)"),
    ("drop", CONNECTION, "connection to http://127.0.0.1"),
    ("truncate", CONNECTION, "IncompleteRead"),
    ("malformed", BAD_RESPONSE, "malformed JSON"),
    ("empty", BAD_RESPONSE, "no choices"),
    ("hang", TIMEOUT, "no complete response within 0.3 s"),
])
def test_exhausted_retries_report_the_last_error(fault, kind, text):
    with FakeOpenAIServer(script=[fault] * 3, hang_s=10) as srv:
        res = fast_client(srv.url, timeout=0.3, max_retries=2).chat(MSGS, model="m")
    assert not res.ok and res.attempts == 3 and res.error_kind == kind
    assert text in res.error
    assert res.content is None and res.raw is None


@pytest.mark.parametrize("fault", ["400", "401"])
def test_client_errors_are_not_retried(fault):
    with FakeOpenAIServer(script=[fault]) as srv:
        res = fast_client(srv.url, max_retries=4).chat(MSGS, model="m")
        assert res.attempts == 1 and len(srv.requests) == 1
    assert res.status == int(fault) and res.error.startswith(f"HTTP {fault}")


def test_unreachable_server_fails_fast():
    client = fast_client(f"http://127.0.0.1:{closed_port()}/v1", max_retries=2)
    t0 = time.monotonic()
    res = client.chat(MSGS, model="m")
    assert time.monotonic() - t0 < 1.0
    assert res.error_kind == UNREACHABLE and "cannot connect" in res.error and res.attempts == 3


def test_keep_alive_one_connection_per_thread():
    with FakeOpenAIServer() as srv:
        client = fast_client(srv.url)
        for i in range(20):
            assert client.chat([{"role": "user", "content": str(i)}], model="m").ok
        assert srv.connections == 1
        threads = [threading.Thread(target=lambda: [client.chat(MSGS, model="m") for _ in range(5)])
                   for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert srv.connections == 4 and len(srv.requests) == 35


@pytest.mark.parametrize("fault", ["drop", "reset_reused"])
def test_a_reset_reused_keep_alive_connection_is_resent_and_counts_as_an_attempt(fault):
    def fault_for(body, nth):
        return fault if body["messages"][-1]["content"] == "b" and nth == 1 else None

    with FakeOpenAIServer(fault_for=fault_for) as srv:
        client = fast_client(srv.url, max_retries=1)
        assert client.chat([{"role": "user", "content": "a"}], model="m").ok
        t0 = time.monotonic()
        res = client.chat([{"role": "user", "content": "b"}], model="m")  # the reused socket fails
        assert res.ok and res.attempts == 2 and srv.connections == 2 and len(srv.requests) == 3
        assert time.monotonic() - t0 < 0.5  # re-sent at once, no backoff pause
        # with no retries left the re-send is not made: attempts never exceed 1 + max_retries
        srv.fault_for = lambda body, nth: fault if body["messages"][-1]["content"] == "c" else None
        client.chat([{"role": "user", "content": "x"}], model="m")
        res = fast_client(srv.url, max_retries=0).chat([{"role": "user", "content": "c"}], model="m")
    assert res.attempts == 1


def test_abort_cancels_in_flight_and_backoff_quickly():
    with FakeOpenAIServer(faults={"hang": 1, "429": 1}, hang_s=20, retry_after="20") as srv:
        client = fast_client(srv.url, timeout=30)
        results = []
        threads = [threading.Thread(target=lambda: results.append(client.chat(MSGS, model="m"))) for _ in range(2)]
        for t in threads:
            t.start()
        time.sleep(0.4)  # one request hangs, the other sleeps on Retry-After: 20
        t0 = time.monotonic()
        client.abort()
        for t in threads:
            t.join(5)
        assert time.monotonic() - t0 < 1.0
        assert [r.error_kind for r in results] == [CANCELLED, CANCELLED]
        assert client.chat(MSGS, model="m").error_kind == CANCELLED  # and nothing new is sent
        assert len(srv.requests) == 2


def test_api_key_sent_in_header_and_scrubbed_from_errors():
    key = "sk-test-0123456789abcdef"
    with FakeOpenAIServer(api_key=key) as srv:
        assert fast_client(srv.url, api_key=key).chat(MSGS, model="m").ok
        assert srv.headers[0]["Authorization"] == f"Bearer {key}"
        bad = fast_client(srv.url, api_key="sk-wrong-key-000000").chat(MSGS, model="m")
        assert bad.status == 401 and "sk-wrong" not in bad.error
        # a server that echoes the key into an error body must not leak it into our messages
    with FakeOpenAIServer(lambda body: {"choices": [], "error": {"message": f"bad key {key}"}}) as srv:
        res = fast_client(srv.url, api_key=key, max_retries=0).chat(MSGS, model="m")
        assert res.error and key not in res.error and "[REDACTED]" in res.error
        assert key not in repr(fast_client(srv.url, api_key=key))


@pytest.mark.parametrize("url", ["localhost:8000/v1", "ftp://host/v1", "http:///v1", "http://u:p@host/v1"])
def test_bad_base_url_is_input_error(url):
    with pytest.raises(InputError):
        normalize_base_url(url)


def test_base_url_paths():
    assert normalize_base_url("http://h:8000/v1/") == ("http", "h", 8000, "/v1/chat/completions")
    assert normalize_base_url("https://g.example/api/v1/chat/completions")[1:] == (
        "g.example", 443, "/api/v1/chat/completions")


def test_server_rejects_unknown_fault_and_serves_models():
    with pytest.raises(ValueError):
        FakeOpenAIServer(script=["teapot"])
    import json
    import urllib.request

    with FakeOpenAIServer(model_name="tiny") as srv:
        with urllib.request.urlopen(srv.url + "/models", timeout=5) as resp:
            assert json.load(resp)["data"][0]["id"] == "tiny"


def test_server_runs_as_a_module_with_fault_switches():
    import os
    import subprocess
    import sys
    from pathlib import Path

    repo = str(Path(__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=repo + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "tw_fin_eval.testing.openai_server", "--port", "0",
                             "--faults", "503=1", "--retry-after", "0", "--reasoning", "reasoning_content"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline().strip()
        assert line.startswith("listening on http://127.0.0.1:")
        res = fast_client(line.removeprefix("listening on ")).chat(MSGS, model="m")
        assert res.ok and res.attempts == 2 and res.reasoning
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    bad = subprocess.run([sys.executable, "-m", "tw_fin_eval.testing.openai_server", "--faults", "teapot=1"],
                         capture_output=True, text=True, env=env, timeout=30)
    assert bad.returncode == 2 and "unknown fault" in bad.stderr

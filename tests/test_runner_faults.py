"""The runner against the hostile test server (issue 17): every stall is bounded by --timeout as a whole,
replies are size-limited, one bad reply never kills a run, a failing server trips the circuit breaker,
write failures leave a valid file, and no piece of a key is ever written. docs/RELIABILITY.md lists
these scenarios; each test here is one row of its fault table."""

from __future__ import annotations

import errno
import json
import os
import time
from pathlib import Path

import pytest

from tests.test_runner_run import base_args, cfg, cli, numeric_record, read_runs, write_jsonl
from tw_fin_eval.runner import runsfile
from tw_fin_eval.runner.client import ChatClient
from tw_fin_eval.runner.loop import run
from tw_fin_eval.testing import FakeOpenAIServer


def items(tmp_path: Path, n: int) -> Path:
    return write_jsonl(tmp_path / "d.jsonl", [numeric_record(i) for i in range(n)])


def first_item_gets(fault: str, *, always: bool = True):
    """fault_for: the fault for item q-0000 (every attempt, or only the first), the others answer."""
    def fault_for(body: dict, nth: int) -> str | None:
        hit = body["messages"][-1]["content"].endswith(" 0") and (always or nth == 1)
        return fault if hit else None
    return fault_for


# ------------------------------------------------------------------------------------------------
# 1. the whole-request deadline
@pytest.mark.parametrize("fault", ["trickle_body", "trickle_headers"])
def test_a_trickling_server_is_cut_off_at_the_whole_request_deadline(tmp_path, fault):
    data = items(tmp_path, 3)
    with FakeOpenAIServer(fault_for=first_item_gets(fault), trickle_s=0.05, max_stall_s=20) as srv:
        t0 = time.monotonic()
        summary = run(cfg(srv.url, [data], tmp_path / "o.jsonl", timeout=1.0, max_retries=1))
        elapsed = time.monotonic() - t0
    # each byte/line arrives well within 1 s, so a per-read timeout would wait for all of it (≥ 15 s)
    assert elapsed < 4.5, elapsed
    assert summary.ok == 2 and summary.failed == 1
    bad = next(r for r in read_runs(tmp_path / "o.jsonl") if r["error"])
    assert bad["id"] == "q-0000" and "no complete response within 1 s" in bad["error"] and bad["attempts"] == 2
    assert 2.0 <= bad["latency_s"] < 4.0  # two attempts of ≈ 1 s each (plus a short backoff)


# ------------------------------------------------------------------------------------------------
# 2. the response size limit
@pytest.mark.parametrize("fault,announced", [("huge_length", True), ("big", True), ("big_chunked", False)])
def test_a_reply_over_the_size_limit_is_that_items_error(tmp_path, fault, announced):
    data = items(tmp_path, 4)
    with FakeOpenAIServer(fault_for=first_item_gets(fault), big_bytes=3 * 2**20, hang_s=20) as srv:
        t0 = time.monotonic()
        summary = run(cfg(srv.url, [data], tmp_path / "o.jsonl", max_response_bytes=2**20, max_retries=3))
        assert time.monotonic() - t0 < 5
    assert summary.ok == 3 and summary.failed == 1
    bad = next(r for r in read_runs(tmp_path / "o.jsonl") if r["error"])
    assert bad["id"] == "q-0000" and "reply too large" in bad["error"] and "1048576" in bad["error"]
    assert ("announced" in bad["error"]) == announced
    assert bad["attempts"] == 1  # the same item would get the same reply: not retried


def test_a_big_reply_under_the_limit_is_kept_whole(tmp_path):
    data = items(tmp_path, 2)
    with FakeOpenAIServer(fault_for=first_item_gets("big_chunked"), big_bytes=3 * 2**20) as srv:
        summary = run(cfg(srv.url, [data], tmp_path / "o.jsonl", max_response_bytes=4 * 2**20))
    assert summary.ok == 2
    big = next(r for r in read_runs(tmp_path / "o.jsonl") if r["id"] == "q-0000")
    assert len(big["response"]) == 3 * 2**20 and set(big["response"]) == {"x"}


def test_the_size_limit_is_settable_from_the_command_line(tmp_path, capsys):
    data = items(tmp_path, 1)
    with FakeOpenAIServer(fault_for=first_item_gets("big"), big_bytes=50_000) as srv:
        rc, _, _ = cli(capsys, *base_args(srv.url, data, tmp_path / "o.jsonl", "--max-response-bytes", "20000"))
    assert rc == 1 and "more than the limit of 20000" in read_runs(tmp_path / "o.jsonl")[0]["error"]


# ------------------------------------------------------------------------------------------------
# 3. one bad reply never kills a run
def test_lone_surrogates_from_the_server_are_replaced_and_the_run_finishes(tmp_path, capsys):
    data = items(tmp_path, 4)
    out = tmp_path / "o.jsonl"
    with FakeOpenAIServer(fault_for=first_item_gets("surrogate")) as srv:
        rc, stdout, _ = cli(capsys, *base_args(srv.url, data, out))
        assert rc == 0 and "4 ok, 0 failed" in stdout
        out.read_bytes().decode("utf-8")  # strict: the file is valid UTF-8
        rec = next(r for r in read_runs(out) if r["id"] == "q-0000")
        assert rec["response"] == "答案：\ufffd 42" and rec["reasoning"] == "想\ufffd一下"
        n = len(srv.requests)
        assert cli(capsys, *base_args(srv.url, data, out))[0] == 0 and len(srv.requests) == n  # resume: done


@pytest.mark.parametrize("fault", ["deep_json", "huge_number"])
def test_json_that_breaks_the_parser_is_an_unusable_reply(tmp_path, fault):
    data = items(tmp_path, 3)
    with FakeOpenAIServer(fault_for=first_item_gets(fault)) as srv:
        summary = run(cfg(srv.url, [data], tmp_path / "o.jsonl", max_retries=1))
    bad = next(r for r in read_runs(tmp_path / "o.jsonl") if r["error"])
    assert summary.ok == 2 and bad["id"] == "q-0000" and "malformed JSON from server" in bad["error"]
    assert bad["attempts"] == 2  # retried like any unusable reply


def test_an_unexpected_exception_on_one_item_leaves_the_others_complete(tmp_path, monkeypatch):
    data = items(tmp_path, 6)
    real = ChatClient._parse

    def parse(self, reply):
        if reply["choices"][0]["message"]["content"].startswith("收到：q 題目 3"):
            raise KeyError("surprise")
        return real(self, reply)

    monkeypatch.setattr(ChatClient, "_parse", parse)
    with FakeOpenAIServer() as srv:
        summary = run(cfg(srv.url, [data], tmp_path / "o.jsonl"))
    assert summary.ok == 5 and summary.failed == 1 and summary.exit_code == 1
    bad = next(r for r in read_runs(tmp_path / "o.jsonl") if r["error"])
    assert bad["id"] == "q-0003" and "internal error on this item: KeyError" in bad["error"]


# ------------------------------------------------------------------------------------------------
# 4. the circuit breaker
@pytest.mark.parametrize("fault,label", [("503", "HTTP 5xx"), ("429", "HTTP 429"), ("hang", "timeout"),
                                         ("drop", "connection failure")])
def test_a_server_failing_everything_trips_the_breaker_and_resume_continues(tmp_path, capsys, fault, label):
    data = items(tmp_path, 40)
    out = tmp_path / "o.jsonl"
    broken = {"on": True}
    with FakeOpenAIServer(fault_for=lambda body, nth: fault if broken["on"] else None, retry_after="0",
                          hang_s=20) as srv:
        t0 = time.monotonic()
        rc, stdout, err = cli(capsys, *base_args(srv.url, data, out, "--timeout", "0.5", "--concurrency", "4"))
        elapsed = time.monotonic() - t0
        sent = len(srv.requests)
        assert rc == 1 and f"circuit breaker: {label} ×10 in a row" in err and "Re-run the same command" in err
        assert sent <= 14 and elapsed < 6, (sent, elapsed)  # not 40 items × 5 attempts
        broken["on"] = False  # the server recovers: the same command continues
        rc, stdout, _ = cli(capsys, *base_args(srv.url, data, out))
    assert rc == 0
    finished = [r for r in read_runs(out) if r["error"] is None]
    assert sorted(r["id"] for r in finished) == [f"q-{i:04d}" for i in range(40)]


def test_mixed_5xx_codes_count_as_one_kind(tmp_path):
    data = items(tmp_path, 30)
    codes = ["500", "503"]
    with FakeOpenAIServer(fault_for=lambda body, nth: codes[(len(srv.requests)) % 2], retry_after="0") as srv:
        summary = run(cfg(srv.url, [data], tmp_path / "o.jsonl", concurrency=2))
        assert len(srv.requests) <= 12
    assert summary.breaker and summary.breaker.startswith("HTTP 5xx ×10 in a row")


def test_one_item_that_always_fails_does_not_trip_the_breaker(tmp_path):
    data = items(tmp_path, 12)
    with FakeOpenAIServer(fault_for=first_item_gets("500"), retry_after="0") as srv:
        summary = run(cfg(srv.url, [data], tmp_path / "o.jsonl", max_retries=15, concurrency=1))
        assert len(srv.requests) == 16 + 11
    assert summary.breaker is None and summary.ok == 11 and summary.failed == 1


def test_the_breaker_limit_is_settable_and_can_be_turned_off(tmp_path, capsys):
    data = items(tmp_path, 8)
    with FakeOpenAIServer(fault_for=lambda body, nth: "500") as srv:
        rc, stdout, err = cli(capsys, *base_args(srv.url, data, tmp_path / "a.jsonl", "--max-retries", "1",
                                                 "--max-consecutive-failures", "3", "--concurrency", "1"))
        assert rc == 1 and "HTTP 5xx ×3 in a row" in err and "(last: HTTP 500" in err and len(srv.requests) == 3
        srv.requests.clear()
        rc, stdout, err = cli(capsys, *base_args(srv.url, data, tmp_path / "b.jsonl", "--max-retries", "1",
                                                 "--max-consecutive-failures", "0"))
        assert rc == 1 and "circuit breaker" not in err and len(srv.requests) == 16
    assert "8 failed (HTTP 500 ×8)" in stdout


def test_retry_after_is_honoured_up_to_a_settable_cap(tmp_path, capsys):
    data = items(tmp_path, 1)
    with FakeOpenAIServer(script=["503"], retry_after="3600") as srv:
        t0 = time.monotonic()
        rc, _, _ = cli(capsys, *base_args(srv.url, data, tmp_path / "o.jsonl", "--max-retry-after", "0.3"))
        elapsed = time.monotonic() - t0
    assert rc == 0 and 0.3 <= elapsed < 3
    assert read_runs(tmp_path / "o.jsonl")[0]["attempts"] == 2


# ------------------------------------------------------------------------------------------------
# 5. write failures leave a valid file
def test_a_full_disk_that_clears_leaves_no_broken_line_and_resume_finishes(tmp_path, monkeypatch, capsys):
    data = items(tmp_path, 10)
    out = tmp_path / "o.jsonl"
    real_write = os.write
    state = {"lines": 0, "full": False}

    def write(fd, buf):
        if fd > 2 and bytes(buf[-1:]) == b"\n" and len(buf) > 50:  # a runs-file line
            state["lines"] += 1
            if state["lines"] == 4:  # half the line gets through, then the disk is full
                state["full"] = True
                real_write(fd, bytes(buf[: len(buf) // 2]))
                raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, buf)

    monkeypatch.setattr(runsfile.os, "write", write)
    with FakeOpenAIServer(latency=0.01) as srv:
        summary = run(cfg(srv.url, [data], out, concurrency=2))
        err = capsys.readouterr().err
        assert summary.exit_code == 2 and "No space left on device" in err and "last complete line" in err
        raw = out.read_bytes()
        assert raw.endswith(b"\n") and len(read_runs(out)) == 3  # cut back to the last complete line
        monkeypatch.setattr(runsfile.os, "write", real_write)  # the disk has room again
        assert run(cfg(srv.url, [data], out)).exit_code == 0
    lines = read_runs(out)
    assert sorted(r["id"] for r in lines) == [f"q-{i:04d}" for i in range(10)]


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_a_runs_file_deleted_or_replaced_mid_run_stops_it(tmp_path, capsys, how):
    data = items(tmp_path, 40)
    out = tmp_path / "o.jsonl"

    def meddle(body, nth):
        if body["messages"][-1]["content"].endswith(" 5") and out.exists():
            out.unlink()
            if how == "replaced":
                out.write_text("")
        return None

    with FakeOpenAIServer(fault_for=meddle, latency=0.02) as srv:
        summary = run(cfg(srv.url, [data], out, concurrency=1))
    err = capsys.readouterr().err
    assert summary.exit_code == 2 and "was deleted or replaced while the run was writing it" in err
    assert summary.ok < 40
    if how == "replaced":
        assert out.exists()  # someone else's (empty) file is left alone


def test_a_complete_last_line_without_its_newline_is_kept_not_asked_again(tmp_path, capsys):
    data = items(tmp_path, 3)
    out = tmp_path / "o.jsonl"
    with FakeOpenAIServer() as srv:
        assert cli(capsys, *base_args(srv.url, data, out))[0] == 0
        out.write_bytes(out.read_bytes()[:-1])  # killed just before the last newline
        n = len(srv.requests)
        rc, stdout, err = cli(capsys, *base_args(srv.url, data, out))
        assert rc == 0 and len(srv.requests) == n and "3 already done" in stdout and "newline added" in err
    assert out.read_bytes().endswith(b"}\n") and len(read_runs(out)) == 3


@pytest.mark.parametrize("where", ["dir", "below_file"])
def test_an_out_path_that_cannot_be_written_is_a_clear_error_exit_2(tmp_path, capsys, where):
    data = items(tmp_path, 2)
    if where == "dir":
        out = tmp_path / "adir"
        out.mkdir()
    else:
        (tmp_path / "afile").write_text("x")
        out = tmp_path / "afile" / "o.jsonl"
    with FakeOpenAIServer() as srv:
        rc, _, err = cli(capsys, *base_args(srv.url, data, out))
        assert srv.requests == []
    assert rc == 2 and "runs file (--out)" in err and str(out) in err and "Traceback" not in err


# ------------------------------------------------------------------------------------------------
# 6. null content, redirects
def test_null_content_is_an_error_and_retried(tmp_path):
    data = items(tmp_path, 2)
    out = tmp_path / "o.jsonl"
    with FakeOpenAIServer(fault_for=first_item_gets("null_content", always=False)) as srv:
        assert run(cfg(srv.url, [data], out)).exit_code == 0
    rec = next(r for r in read_runs(out) if r["id"] == "q-0000")
    assert rec["attempts"] == 2 and rec["response"].startswith("收到：")
    with FakeOpenAIServer(fault_for=first_item_gets("null_content")) as srv:
        summary = run(cfg(srv.url, [data], tmp_path / "p.jsonl", max_retries=2))
    rec = next(r for r in read_runs(tmp_path / "p.jsonl") if r["id"] == "q-0000")
    assert summary.failed == 1 and "empty reply: message.content is null" in rec["error"]
    assert rec["attempts"] == 3 and rec["response"] is None


def test_a_redirect_is_an_item_error_naming_the_location(tmp_path):
    data = items(tmp_path, 2)
    with FakeOpenAIServer(fault_for=first_item_gets("redirect"), redirect_to="https://api.example.test/v9") as srv:
        summary = run(cfg(srv.url, [data], tmp_path / "o.jsonl"))
    bad = next(r for r in read_runs(tmp_path / "o.jsonl") if r["error"])
    assert summary.failed == 1 and bad["attempts"] == 1
    assert "HTTP 307 redirect to https://api.example.test/v9" in bad["error"]


# ------------------------------------------------------------------------------------------------
# 7. no piece of a key is ever written
def fragments(key: str, n: int = 5) -> set[str]:
    return {key[i:i + n].lower() for i in range(len(key) - n + 1)}


@pytest.mark.parametrize("key", ["sk-Zq8XwV3mKp9RtY7uBn4", "Qz7#k"])
@pytest.mark.parametrize("fault", ["echo_key_error", "echo_key_body", "echo_key_content"])
def test_no_piece_of_the_key_is_written_even_cut_or_case_changed(tmp_path, capsys, monkeypatch, key, fault):
    monkeypatch.setenv("OPENAI_API_KEY", key)
    data = items(tmp_path, 2)
    out = tmp_path / "o.jsonl"
    with FakeOpenAIServer(fault_for=lambda body, nth: fault, retry_after="0") as srv:
        rc, stdout, err = cli(capsys, *base_args(srv.url, data, out, "--max-retries", "1"))
        assert srv.headers[0]["Authorization"] == f"Bearer {key}"
    text = (out.read_text(encoding="utf-8") + stdout + err).lower()
    assert "[redacted]" in text or "[reda" in text  # (an error body is cut at 300 characters after the scrub)
    pieces = fragments(key) if len(key) > 5 else {key.lower()}
    assert not [p for p in pieces if p in text]


def test_a_key_given_to_api_key_env_is_not_echoed(tmp_path, capsys):
    data = items(tmp_path, 1)
    key = "sk-proj-Ab12Cd34Ef56Gh78Ij90"
    for value in (key, "Ab12Cd34Ef56Gh78Ij90Kl", "hf_AbCdEf0123456789xyz"):
        rc, out, err = cli(capsys, *base_args("http://127.0.0.1:1/v1", data, tmp_path / "o.jsonl",
                                              "--api-key-env", value))
        assert rc == 2 and "looks like a key" in err
        assert value[:4] not in err + out  # at most the first 3 characters
    rc, _, err = cli(capsys, *base_args("http://127.0.0.1:1/v1", data, tmp_path / "o.jsonl",
                                        "--api-key-env", "MY_JUDGE_KEY_2"))
    assert rc == 2 and "MY_JUDGE_KEY_2 is not set" in err  # a real variable name is shown


def test_the_test_server_binds_loopback_only():
    with pytest.raises(ValueError, match="loopback"):
        FakeOpenAIServer(host="0.0.0.0")


def test_json_parse_of_scrubbed_error_keeps_valid_lines(tmp_path, capsys, monkeypatch):
    # a key made of characters JSON escapes: it is still found inside the written (escaped) line
    key = 'ab"c\\d-Secret9'
    monkeypatch.setenv("OPENAI_API_KEY", key)
    data = items(tmp_path, 1)
    out = tmp_path / "o.jsonl"
    with FakeOpenAIServer(lambda body: f"echo {key} end") as srv:
        assert cli(capsys, *base_args(srv.url, data, out))[0] == 0
    raw = out.read_text(encoding="utf-8")
    assert key not in json.loads(raw)["response"] and "Secret9" not in raw

"""The runner end to end against the real local test server: output format, resume, bad input, ConvFinQA
history assembly (gold and self), every fault path, a dying server, key hygiene, tools/run.py by path."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.runner.loop import RunConfig, run
from tw_fin_eval.runner.progress import Progress
from tw_fin_eval.runner.runsfile import RunsFile
from tw_fin_eval.testing import FakeOpenAIServer

REPO = Path(__file__).resolve().parents[1]
SYSTEM = "你是財務分析師。"
PREFIX = "表格：\n| 年度 | 營收 |\n\n問題："
CONV_TURNS = [
    {"question": "2019 年營收是多少？", "answer": "5735", "answer_value": 5735.0},
    {"question": "2020 年呢？", "answer": "5829", "answer_value": 5829.0},
    {"question": "兩者差多少？", "answer": "94", "answer_value": 94.0},
]


def numeric_record(i: int, prefix: str = "q") -> dict:
    return {"id": f"{prefix}-{i:04d}", "dataset": "FinQA-TW", "task_type": "numeric",
            "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": f"{prefix} 題目 {i}"}]}


def conv_record(rid: str = "conv-0001", turns: list[dict] | None = None) -> dict:
    return {"id": rid, "dataset": "ConvFinQA-TW", "task_type": "conversation_numeric", "system": SYSTEM,
            "first_user_prefix": PREFIX, "turns": turns or CONV_TURNS,
            "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": PREFIX + CONV_TURNS[0]["question"]}]}


def write_jsonl(path: Path, recs: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8")
    return path


def read_runs(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def cli(capsys, *args: str) -> tuple[int, str, str]:
    rc = cli_main(["run", "--progress-every", "3600", *args])
    out, err = capsys.readouterr()
    return rc, out, err


def base_args(srv_url: str, data: Path, out: Path, *extra: str) -> list[str]:
    return ["--data", str(data), "--base-url", srv_url, "--model", "m", "--out", str(out), *extra]


def cfg(url: str, data: list[Path], out: Path, **kw) -> RunConfig:
    kw.setdefault("progress", False)
    kw.setdefault("backoff_base", 0.01)
    kw.setdefault("backoff_max", 0.03)
    kw.setdefault("timeout", 5)
    return RunConfig(data=[str(d) for d in data], base_url=url, model="m", out=str(out), **kw)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "d.jsonl", [numeric_record(i) for i in range(6)] + [conv_record()])


# ------------------------------------------------------------------------------------------------
def test_output_records_follow_formats_section_3(tmp_path, data, capsys):
    out = tmp_path / "runs" / "m.jsonl"
    with FakeOpenAIServer(reasoning="think") as srv:
        rc, stdout, _ = cli(capsys, *base_args(srv.url, data, out, "--temperature", "0", "--max-tokens", "256",
                                               "--extra", '{"chat_template_kwargs": {"enable_thinking": false}}'))
        bodies = list(srv.requests)
    assert rc == 0 and "9 ok, 0 failed" in stdout
    lines = read_runs(out)
    assert sorted((r["id"], r["turn"]) for r in lines) == sorted(
        [(f"q-{i:04d}", None) for i in range(6)] + [("conv-0001", k) for k in range(3)])
    required = {"id", "turn", "dataset", "model", "messages_sha256", "messages", "response", "reasoning",
                "finish_reason", "usage", "latency_s", "attempts", "error", "created"}
    for rec in lines:
        assert required <= rec.keys()
        assert rec["model"] == "m" and rec["error"] is None and rec["attempts"] == 1
        assert rec["messages_sha256"] == hashlib.sha256(
            json.dumps(rec["messages"], ensure_ascii=False, separators=(",", ":")).encode()).hexdigest()
        assert rec["response"].startswith("<think>") and rec["reasoning"] == "先找出題目中的數字，再計算。"
        assert rec["created"].endswith("Z") and rec["latency_s"] > 0
    q0 = next(r for r in lines if r["id"] == "q-0000")
    assert q0["dataset"] == "FinQA-TW" and q0["messages"] == numeric_record(0)["messages"]
    assert "history" not in q0 and next(r for r in lines if r["turn"] == 1)["history"] == "gold"
    for body in bodies:
        assert body["temperature"] == 0.0 and body["max_tokens"] == 256 and body["model"] == "m"
        assert body["chat_template_kwargs"] == {"enable_thinking": False}


def test_limit_takes_first_n_of_each_file(tmp_path, capsys):
    a = write_jsonl(tmp_path / "a.jsonl", [numeric_record(i, "a") for i in range(5)])
    b = write_jsonl(tmp_path / "b.jsonl", [numeric_record(i, "b") for i in range(5)])
    out = tmp_path / "out.jsonl"
    with FakeOpenAIServer() as srv:
        rc, _, _ = cli(capsys, "--data", str(a), str(b), "--base-url", srv.url, "--model", "m",
                       "--out", str(out), "--limit", "2")
    assert rc == 0
    assert [r["id"] for r in read_runs(out)] != []
    assert sorted(r["id"] for r in read_runs(out)) == ["a-0000", "a-0001", "b-0000", "b-0001"]


def test_resume_skips_done_and_retries_failed(tmp_path, data, capsys):
    out = tmp_path / "out.jsonl"
    failing = {"q 題目 2"}

    def fault_for(body, nth):
        return "400" if body["messages"][-1]["content"] in failing else None

    with FakeOpenAIServer(fault_for=fault_for) as srv:
        rc, stdout, _ = cli(capsys, *base_args(srv.url, data, out))
    assert rc == 1 and "8 ok, 1 failed (HTTP 400 ×1)" in stdout and "re-run the same command" in stdout
    failed = [r for r in read_runs(out) if r["error"]]
    assert [r["id"] for r in failed] == ["q-0002"] and failed[0]["error"].startswith("HTTP 400")
    assert failed[0]["response"] is None and failed[0]["attempts"] == 1

    with FakeOpenAIServer() as srv:
        rc, stdout, err = cli(capsys, *base_args(srv.url, data, out))
        assert [b["messages"][-1]["content"] for b in srv.requests] == ["q 題目 2"]  # only the failed one
    assert rc == 0 and "8 already done" in stdout and "1 failed before and are asked again" in err
    lines = read_runs(out)
    assert len(lines) == 10 and lines[-1]["id"] == "q-0002" and lines[-1]["error"] is None

    with FakeOpenAIServer() as srv:  # a third run has nothing to do and sends nothing
        rc, stdout, _ = cli(capsys, *base_args(srv.url, data, out))
        assert rc == 0 and srv.requests == [] and "9 already done" in stdout


BAD_INPUTS = {
    "no_messages": ([{"id": "x-1", "dataset": "FinQA-TW", "task_type": "numeric", "question": "?"}], [], "x-1"),
    "not_a_record": ([{"foo": 1}], [], "has no string `id`"),
    "conv_without_turns": ([{**conv_record(), "turns": []}], [], "no `turns`"),
    "conv_turn_without_answer": ([conv_record(turns=[{"question": "a"}, {"question": "b"}])], [], "no gold answer"),
    "duplicate_id": ([numeric_record(1), numeric_record(1)], [], "duplicate id"),
    "extra_not_object": ([numeric_record(1)], ["--extra", "[1, 2]"], "--extra must be a JSON object"),
    "extra_not_json": ([numeric_record(1)], ["--extra", "{enable_thinking: false}"], "--extra is not valid JSON"),
    "extra_sets_messages": ([numeric_record(1)], ["--extra", '{"messages": []}'], "must not set 'messages'"),
    "bad_messages": ([{**numeric_record(1), "messages": [{"role": "user"}]}], [], "messages[0]"),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_exits_2_and_sends_nothing(tmp_path, capsys, case):
    recs, extra, expect = BAD_INPUTS[case]
    data = write_jsonl(tmp_path / "bad.jsonl", recs)
    out = tmp_path / "out.jsonl"
    with FakeOpenAIServer() as srv:
        rc, _, err = cli(capsys, *base_args(srv.url, data, out, *extra))
        assert srv.requests == []
    assert rc == 2 and expect in err
    if "--extra" not in extra:
        assert f"{data}:" in err  # names file:line
    assert not out.exists()


def test_broken_json_data_line_names_file_and_line(tmp_path, capsys):
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps(numeric_record(0)) + "\n{broken\n", encoding="utf-8")
    with FakeOpenAIServer() as srv:
        rc, _, err = cli(capsys, *base_args(srv.url, data, tmp_path / "o.jsonl"))
        assert srv.requests == []
    assert rc == 2 and f"{data}:2" in err


def test_out_file_that_is_a_data_file_exits_2(tmp_path, data, capsys):
    before = data.read_bytes()
    rc, _, err = cli(capsys, *base_args("http://127.0.0.1:1/v1", data, data))
    assert rc == 2 and "--out is one of the --data files" in err and data.read_bytes() == before


def test_base_url_without_scheme_exits_2(tmp_path, data, capsys):
    rc, _, err = cli(capsys, *base_args("localhost:8000/v1", data, tmp_path / "o.jsonl"))
    assert rc == 2 and "http://" in err and not (tmp_path / "o.jsonl").exists()


def test_other_model_or_history_in_out_file_exits_2(tmp_path, data, capsys):
    out = tmp_path / "out.jsonl"
    with FakeOpenAIServer() as srv:
        assert cli(capsys, *base_args(srv.url, data, out))[0] == 0
        before = out.read_bytes()
        n = len(srv.requests)
        rc, _, err = cli(capsys, "--data", str(data), "--base-url", srv.url, "--model", "other-model",
                         "--out", str(out))
        assert rc == 2 and "'m'" in err and "other-model" in err
        rc, _, err = cli(capsys, *base_args(srv.url, data, out, "--history", "self"))
        assert rc == 2 and "--history gold" in err
        assert len(srv.requests) == n and out.read_bytes() == before


def test_broken_line_in_the_middle_of_runs_file_is_an_error(tmp_path, data, capsys):
    out = tmp_path / "out.jsonl"
    out.write_text('{"id":"q-0000","turn":null,"model":"m","error":null}\n{oops\n{"id":"q-0001","turn":null,"model":"m","error":null}\n')
    with FakeOpenAIServer() as srv:
        rc, _, err = cli(capsys, *base_args(srv.url, data, out))
        assert srv.requests == []
    assert rc == 2 and f"{out}:2" in err


def test_partial_last_line_is_cut_and_reported(tmp_path, data, capsys):
    out = tmp_path / "out.jsonl"
    with FakeOpenAIServer() as srv:
        assert cli(capsys, *base_args(srv.url, data, out, "--limit", "3"))[0] == 0
    good = out.read_bytes()
    out.write_bytes(good + b'{"id":"q-0003","turn":null,"model":"m","resp')  # killed mid-write
    with FakeOpenAIServer() as srv:
        rc, _, err = cli(capsys, *base_args(srv.url, data, out))
    assert rc == 0 and "partial last line" in err
    lines = read_runs(out)  # every line parses
    assert out.read_bytes().startswith(good)
    keys = [(r["id"], r["turn"]) for r in lines]
    assert len(keys) == len(set(keys)) == 9


def test_gold_history_assembly(tmp_path, capsys):
    data = write_jsonl(tmp_path / "c.jsonl", [conv_record()])
    out = tmp_path / "out.jsonl"
    with FakeOpenAIServer(lambda body: "答案：0") as srv:
        assert cli(capsys, *base_args(srv.url, data, out, "--concurrency", "3"))[0] == 0
    by_turn = {r["turn"]: r["messages"] for r in read_runs(out)}
    assert by_turn[0] == [{"role": "system", "content": SYSTEM},
                          {"role": "user", "content": PREFIX + "2019 年營收是多少？"}]
    assert by_turn[2] == [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": PREFIX + "2019 年營收是多少？"},
        {"role": "assistant", "content": "答案：5735"},
        {"role": "user", "content": "2020 年呢？"},
        {"role": "assistant", "content": "答案：5829"},
        {"role": "user", "content": "兩者差多少？"},
    ]
    assert by_turn[1] == by_turn[2][:4]


def _turn_of(body: dict) -> int:
    return sum(1 for m in body["messages"] if m["role"] == "user") - 1


def test_self_history_uses_the_models_own_answers_and_resumes(tmp_path, capsys):
    out = tmp_path / "out.jsonl"

    def reply(body):
        turn = _turn_of(body)
        return f"<think>想一想 {turn}</think>\n答案：M{turn}-{body['messages'][1]['content'][-3:]}"

    # run 1: conv-b's turn 1 fails for good → its turn 2 must not be asked
    marks = {"conv-a": "甲", "conv-b": "乙"}
    recs = [conv_record("conv-a"), conv_record("conv-b")]
    for rec in recs:  # make the two conversations' prompts differ
        rec["first_user_prefix"] = PREFIX.replace("表格", "表格" + marks[rec["id"]])
    data = write_jsonl(tmp_path / "c.jsonl", recs)

    def fault_b_turn1(body, nth):
        return "400" if _turn_of(body) == 1 and "乙" in body["messages"][1]["content"] else None

    with FakeOpenAIServer(reply, fault_for=fault_b_turn1) as srv:
        rc, stdout, _ = cli(capsys, *base_args(srv.url, data, out, "--history", "self", "--concurrency", "4"))
        order = [(("甲" if "甲" in b["messages"][1]["content"] else "乙"), _turn_of(b)) for b in srv.requests]
    assert rc == 1 and "1 waiting for a failed earlier turn" in stdout
    assert sorted(order) == [("乙", 0), ("乙", 1), ("甲", 0), ("甲", 1), ("甲", 2)]
    for conv in ("甲", "乙"):  # turn k is asked only after turn k-1 answered
        turns = [t for c, t in order if c == conv]
        assert turns == sorted(turns)
    lines = read_runs(out)
    a2 = next(r for r in lines if r["id"] == "conv-a" and r["turn"] == 2)
    assert [m["content"] for m in a2["messages"] if m["role"] == "assistant"] == ["答案：M0-多少？", "答案：M1-多少？"]
    assert a2["history"] == "self"
    assert not any(r["id"] == "conv-b" and r["turn"] == 2 for r in lines)

    # run 2: turn 1 of conv-b is retried with turn 0's saved answer (think removed), then turn 2
    with FakeOpenAIServer(reply) as srv:
        rc, stdout, _ = cli(capsys, *base_args(srv.url, data, out, "--history", "self"))
        asked = [(_turn_of(b), b["messages"]) for b in srv.requests]
    assert rc == 0 and [t for t, _ in asked] == [1, 2]
    assert asked[0][1][2] == {"role": "assistant", "content": "答案：M0-多少？"}
    assert [m["content"] for m in asked[1][1] if m["role"] == "assistant"] == ["答案：M0-多少？", "答案：M1-多少？"]


def test_every_fault_path_completes(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", [numeric_record(i) for i in range(8)])
    out = tmp_path / "out.jsonl"
    script = ["429", "503", "500", "drop", "truncate", "malformed", "empty", "hang"]
    with FakeOpenAIServer(script=script, retry_after="0.01", hang_s=10) as srv:
        summary = run(cfg(srv.url, [data], out, timeout=0.4, max_retries=len(script), concurrency=4))
        assert sorted(set(srv.faults_sent)) == sorted(script) and len(srv.faults_sent) == 8 * len(script)
    assert summary.exit_code == 0 and summary.ok == 8
    lines = read_runs(out)
    # every request sent is an attempt (also a "drop" on a reused keep-alive socket, resent at once)
    assert len(lines) == 8 and all(r["error"] is None and r["attempts"] == len(script) + 1 for r in lines)
    # no cross-talk: after timeouts and drops on shared keep-alive sockets, each answer is its own
    for r in lines:
        assert r["response"].startswith("收到：" + r["messages"][-1]["content"] + "\n")


def test_dead_server_fails_fast_and_writes_nothing(tmp_path, data, capsys):
    out = tmp_path / "out.jsonl"
    t0 = time.monotonic()
    rc, _, err = cli(capsys, *base_args(f"http://127.0.0.1:{closed_port()}/v1", data, out))
    assert rc == 1 and time.monotonic() - t0 < 2
    assert "cannot connect" in err and "nothing was sent" in err
    assert not out.exists()  # a run that sent nothing leaves no file behind


def test_server_dying_mid_run_stops_quickly_and_resumes(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", [numeric_record(i) for i in range(60)])
    out = tmp_path / "out.jsonl"
    dead = threading.Event()
    srv = FakeOpenAIServer(latency=0.01, fault_for=lambda body, nth: "drop" if dead.is_set() else None).start()

    def kill_after_some():
        while len(srv.requests) < 10:
            time.sleep(0.005)
        dead.set()
        srv._httpd.shutdown()
        srv._httpd.server_close()  # new connections are refused from now on

    killer = threading.Thread(target=kill_after_some)
    killer.start()
    t0 = time.monotonic()
    summary = run(cfg(srv.url, [data], out, concurrency=4, max_retries=2))
    killer.join()
    srv.stop()
    assert time.monotonic() - t0 < 5
    assert summary.exit_code == 1 and summary.unreachable and "cannot connect" in summary.unreachable
    lines = read_runs(out)
    assert all(r["error"] is None for r in lines)  # 'unreachable' is not written as an item failure
    assert summary.ok == len(lines) and summary.not_run == 60 - len(lines) > 0
    with FakeOpenAIServer() as srv2:
        assert run(cfg(srv2.url, [data], out)).exit_code == 0
    keys = [r["id"] for r in read_runs(out)]
    assert len(keys) == len(set(keys)) == 60


def test_api_key_never_appears_anywhere(tmp_path, data, capsys, monkeypatch):
    key = "sk-live-SECRET-9f8e7d6c5b4a"
    monkeypatch.setenv("OPENAI_API_KEY", key)
    outs = [tmp_path / f"out{i}.jsonl" for i in range(3)]
    texts = []
    echo = lambda body: f"my key is {key}"  # noqa: E731 - a server that leaks the key back into content
    # 1. faults until retries run out → error lines
    with FakeOpenAIServer(echo, api_key=key, script=["malformed", "500"]) as srv:
        rc, o, e = cli(capsys, *base_args(srv.url, data, outs[0], "--max-retries", "1"))
        texts += [o, e]
        assert rc == 1 and all(h.get("Authorization") == f"Bearer {key}" for h in srv.headers)  # key is used
    # 2. faults then success: the echoed key is redacted from the stored response
    with FakeOpenAIServer(echo, api_key=key, script=["429"], retry_after="0") as srv:
        rc, o, e = cli(capsys, *base_args(srv.url, data, outs[1], "--max-retries", "1"))
        texts += [o, e]
        assert rc == 0
    # 3. a wrong key (named by --api-key-env): every request refused with 401
    monkeypatch.setenv("OTHER_KEY", key[::-1])
    with FakeOpenAIServer(api_key=key) as srv:
        rc, o, e = cli(capsys, *base_args(srv.url, data, outs[2], "--api-key-env", "OTHER_KEY"))
        texts += [o, e]
        assert rc == 1
    # 4. dead server, 5. unset key variable
    rc, o, e = cli(capsys, *base_args(f"http://127.0.0.1:{closed_port()}/v1", data, outs[0]))
    texts += [o, e]
    rc, o, e = cli(capsys, *base_args("http://127.0.0.1:1/v1", data, outs[0], "--api-key-env", "NOT_SET_ANYWHERE"))
    texts += [o, e]
    assert rc == 2 and "NOT_SET_ANYWHERE" in e
    files = [p.read_text(encoding="utf-8") for p in outs]
    assert "HTTP 500" in files[0] and "[REDACTED]" in files[1] and "HTTP 401" in files[2]
    for text in texts + files:
        assert key not in text and key[::-1] not in text


def test_progress_plain_lines_and_tty_bar(tmp_path, data, capsys):
    with FakeOpenAIServer(latency=0.02) as srv:
        rc = cli_main(["run", *base_args(srv.url, data, tmp_path / "o.jsonl", "--concurrency", "1",
                                         "--progress-every", "0.05")])
    err = capsys.readouterr().err
    assert rc == 0 and "progress: " in err and "req/s" in err

    class Tty:
        def __init__(self):
            self.buf = []

        def isatty(self):
            return True

        def write(self, s):
            self.buf.append(s)

        def flush(self):
            pass

    tty = Tty()
    bar = Progress(4, stream=tty)
    bar.ok, bar.failed = 2, 1
    bar.tick(force=True)
    bar.finish()
    text = "".join(tty.buf)
    assert text.startswith("\r[") and "3/4 done (2 ok, 1 failed)" in text and text.endswith("\n")


def test_second_run_on_the_same_file_is_refused_while_one_is_active(tmp_path, data, capsys):
    out = tmp_path / "out.jsonl"
    holder = RunsFile(out, model="m", history="gold")
    holder.open()
    try:
        with FakeOpenAIServer() as srv:
            rc, _, err = cli(capsys, *base_args(srv.url, data, out))
            assert rc == 2 and "another run" in err and srv.requests == []
    finally:
        holder.close()


def test_tools_run_py_works_by_path_with_the_standard_library_only(tmp_path, data):
    out = tmp_path / "out.jsonl"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    with FakeOpenAIServer() as srv:
        # -S: no site-packages at all, so any non-stdlib import would fail
        proc = subprocess.run([sys.executable, "-S", str(REPO / "tools" / "run.py"), *base_args(srv.url, data, out)],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "9 ok" in proc.stdout and len(read_runs(out)) == 9


def test_changed_prompts_of_finished_items_are_reported_not_rerun(tmp_path, capsys):
    data = write_jsonl(tmp_path / "d.jsonl", [numeric_record(i) for i in range(3)])
    out = tmp_path / "out.jsonl"
    with FakeOpenAIServer() as srv:
        assert cli(capsys, *base_args(srv.url, data, out))[0] == 0
        changed = [numeric_record(i) for i in range(3)]
        changed[1]["messages"][1]["content"] += "（修訂）"
        write_jsonl(data, changed)
        n = len(srv.requests)
        rc, _, err = cli(capsys, *base_args(srv.url, data, out))
        assert rc == 0 and len(srv.requests) == n
    assert "1 finished items were asked with a prompt that differs" in err


def test_a_server_refusing_every_request_stops_the_run(tmp_path, capsys):
    data = write_jsonl(tmp_path / "d.jsonl", [numeric_record(i) for i in range(40)])
    out = tmp_path / "out.jsonl"
    with FakeOpenAIServer(api_key="sk-the-right-key-123") as srv:  # we send no key → 401 for everything
        rc, _, err = cli(capsys, *base_args(srv.url, data, out, "--concurrency", "2"))
        sent = len(srv.requests)
    assert rc == 1 and "refused 5 requests in a row (HTTP 401: invalid API key)" in err
    assert sent < 15  # stopped early: not one 401 line per item
    assert all(r["error"].startswith("HTTP 401") for r in read_runs(out))


def test_item_errors_do_not_stop_the_run(tmp_path, capsys):
    data = write_jsonl(tmp_path / "d.jsonl", [numeric_record(i) for i in range(12)])
    with FakeOpenAIServer(fault_for=lambda body, nth: "400") as srv:  # e.g. every prompt too long
        rc, stdout, _ = cli(capsys, *base_args(srv.url, data, tmp_path / "o.jsonl"))
        assert len(srv.requests) == 12
    assert rc == 1 and "0 ok, 12 failed (HTTP 400 ×12)" in stdout


def test_dry_run_sends_and_writes_nothing(tmp_path, data, capsys):
    out = tmp_path / "out.jsonl"
    with FakeOpenAIServer() as srv:
        assert cli(capsys, *base_args(srv.url, data, out, "--limit", "2"))[0] == 0
        before = out.read_bytes() + b'{"id":"q-00'
        out.write_bytes(before)
        rc, stdout, _ = cli(capsys, *base_args(srv.url, data, out, "--dry-run"))
        assert srv.requests[2:] == []  # only the first run's two requests
    assert rc == 0 and out.read_bytes() == before
    assert "9 items in the data, 2 already done" in stdout and "7 to ask" in stdout
    assert "partial last line of 11 bytes" in stdout and "first request: id=q-0002" in stdout
    assert "accepts connections" in stdout
    rc, stdout, _ = cli(capsys, *base_args(f"http://127.0.0.1:{closed_port()}/v1", data, out, "--dry-run"))
    assert rc == 1 and "cannot connect" in stdout and out.read_bytes() == before

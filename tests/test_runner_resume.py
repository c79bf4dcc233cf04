"""Crash safety of the runner as a real subprocess: SIGKILL at random moments (20 kills) then a final run
loses nothing and duplicates nothing; Ctrl-C (once, twice) and SIGTERM stop cleanly."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from tw_fin_eval.testing import FakeOpenAIServer

REPO = Path(__file__).resolve().parents[1]
RUN_PY = str(REPO / "tools" / "run.py")


def write_data(path: Path, n_numeric: int, n_conv: int) -> set[tuple[str, int | None]]:
    keys: set[tuple[str, int | None]] = set()
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n_numeric):
            rid = f"finqa_tw-test-{i:05d}"
            # a longer prompt makes lines of a few kB, like real records with tables
            user = f"題目 {i}：" + "營業收入與營業成本。" * 8
            fh.write(json.dumps({"id": rid, "dataset": "FinQA-TW", "task_type": "numeric",
                                 "messages": [{"role": "system", "content": "財務分析"},
                                              {"role": "user", "content": user}]}, ensure_ascii=False) + "\n")
            keys.add((rid, None))
        for i in range(n_conv):
            rid = f"convfinqa_tw-dev-{i:04d}"
            turns = [{"question": f"第 {k} 問（{i}）", "answer": str(k * 10)} for k in range(3)]
            fh.write(json.dumps({"id": rid, "dataset": "ConvFinQA-TW", "task_type": "conversation_numeric",
                                 "system": "財務分析", "first_user_prefix": "表格\n\n問題：", "turns": turns,
                                 "messages": []}, ensure_ascii=False) + "\n")
            keys.update((rid, k) for k in range(3))
    return keys


def runner_cmd(url: str, data: Path, out: Path, *extra: str) -> list[str]:
    # -S: no site-packages, exactly what a bare GPU box has
    return [sys.executable, "-S", RUN_PY, "--data", str(data), "--base-url", url, "--model", "m",
            "--out", str(out), "--quiet", *extra]


def env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def parse_runs(out: Path, *, allow_partial_tail: bool) -> list[dict]:
    data = out.read_bytes() if out.exists() else b""
    if allow_partial_tail and data and not data.endswith(b"\n"):
        data = data[: data.rfind(b"\n") + 1]
    return [json.loads(line) for line in data.decode("utf-8").splitlines()]


def wait_for_requests(srv: FakeOpenAIServer, n: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while len(srv.requests) < n:
        assert time.monotonic() < deadline, "runner never reached the server"
        time.sleep(0.01)


def test_twenty_sigkills_then_resume_lose_nothing_and_duplicate_nothing(tmp_path):
    """Self history, so the ConvFinQA turns also exercise "turn k waits for turn k-1" across kills."""
    data = tmp_path / "d.jsonl"
    out = tmp_path / "runs" / "m.jsonl"
    keys = write_data(data, n_numeric=1000, n_conv=20)
    rng = random.Random(20261130)
    counts = []
    torn = set()
    with FakeOpenAIServer(latency=0.01) as srv:
        for round_no in range(20):
            if round_no % 5 == 4 and out.exists() and out.read_bytes().endswith(b"\n"):
                # a kill in the middle of write() is rare in practice: make one, for a key not yet done
                done = {(r["id"], r["turn"]) for r in parse_runs(out, allow_partial_tail=False)}
                rid, turn = sorted(k for k in keys - done if k[1] is None)[0]
                line = out.read_bytes().splitlines()[-1]
                fake = json.loads(line) | {"id": rid, "turn": turn}
                blob = json.dumps(fake, ensure_ascii=False).encode()
                with out.open("ab") as fh:
                    fh.write(blob[: rng.randrange(1, len(blob) - 1)])
                torn.add((rid, turn))
            proc = subprocess.Popen(runner_cmd(srv.url, data, out, "--concurrency", "4", "--history", "self"),
                                    env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            # kill at a random moment once the run is under way (requests in flight, lines being written)
            wait_for_requests(srv, len(srv.requests) + 1)
            time.sleep(rng.uniform(0.0, 0.25))
            proc.send_signal(signal.SIGKILL)
            _, err = proc.communicate(timeout=10)
            assert proc.returncode == -signal.SIGKILL, err.decode()
            lines = parse_runs(out, allow_partial_tail=True)  # nothing but a partial *last* line may be broken
            counts.append(sum(1 for r in lines if r["error"] is None))
        before_final = counts[-1]
        final = subprocess.run(runner_cmd(srv.url, data, out, "--concurrency", "8", "--history", "self"), env=env(),
                               capture_output=True, text=True, timeout=60)
        n_requests = len(srv.requests)
    assert final.returncode == 0, final.stderr
    # the kills landed while work was going on, not before or after it
    assert 0 < before_final < len(keys)
    assert len(set(counts)) >= 12 and counts == sorted(counts)
    lines = parse_runs(out, allow_partial_tail=False)
    ok = Counter((r["id"], r["turn"]) for r in lines if r["error"] is None)
    assert set(ok) == keys  # zero lost
    assert max(ok.values()) == 1  # zero duplicated
    assert all(r["model"] == "m" for r in lines)
    assert len(torn) >= 3 and torn <= set(ok)  # torn lines were cut away and their items asked again
    # self history: turn k was asked with the model's own saved answers of turns < k
    response = {(r["id"], r["turn"]): r["response"] for r in lines if r["error"] is None}
    for r in lines:
        if r["turn"]:
            assistant = [m["content"] for m in r["messages"] if m["role"] == "assistant"]
            assert assistant == [response[(r["id"], j)] for j in range(r["turn"])]
    # at most the in-flight requests of each killed run were asked twice
    assert len(keys) <= n_requests <= len(keys) + 20 * 8


def test_ctrl_c_lets_in_flight_finish_and_exits_130(tmp_path):
    data = tmp_path / "d.jsonl"
    out = tmp_path / "out.jsonl"
    keys = write_data(data, n_numeric=40, n_conv=0)
    with FakeOpenAIServer(latency=0.4) as srv:
        proc = subprocess.Popen(runner_cmd(srv.url, data, out, "--concurrency", "4"), env=env(),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_for_requests(srv, 4)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=10)
        elapsed = time.monotonic() - t0
        asked = len(srv.requests)
    assert proc.returncode == 130 and elapsed < 2.0
    assert "interrupted" in stderr and "re-run the same command" in stdout
    lines = parse_runs(out, allow_partial_tail=False)
    # every request that was in flight finished and was written; nothing new was started
    assert len(lines) == asked < len(keys) and all(r["error"] is None for r in lines)
    with FakeOpenAIServer() as srv:
        final = subprocess.run(runner_cmd(srv.url, data, out), env=env(), capture_output=True, text=True, timeout=60)
        assert final.returncode == 0 and len(srv.requests) == len(keys) - asked
    ok = Counter(r["id"] for r in parse_runs(out, allow_partial_tail=False))
    assert len(ok) == len(keys) and max(ok.values()) == 1


def test_second_ctrl_c_cancels_hung_requests(tmp_path):
    data = tmp_path / "d.jsonl"
    out = tmp_path / "out.jsonl"
    write_data(data, n_numeric=10, n_conv=0)
    with FakeOpenAIServer(fault_for=lambda body, nth: "hang", hang_s=30) as srv:
        proc = subprocess.Popen(runner_cmd(srv.url, data, out, "--concurrency", "3", "--timeout", "60"), env=env(),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_for_requests(srv, 3)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        time.sleep(0.3)
        assert proc.poll() is None  # still waiting for the hung requests
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=10)
    assert proc.returncode == 130 and time.monotonic() - t0 < 2.0
    assert "Ctrl-C again" in stderr and "10 not asked" in stdout
    assert parse_runs(out, allow_partial_tail=False) == []  # cancelled requests are not failures


def test_sigterm_cancels_and_exits_143(tmp_path):
    data = tmp_path / "d.jsonl"
    out = tmp_path / "out.jsonl"
    write_data(data, n_numeric=10, n_conv=0)
    with FakeOpenAIServer(fault_for=lambda body, nth: "hang", hang_s=30) as srv:
        proc = subprocess.Popen(runner_cmd(srv.url, data, out, "--concurrency", "2", "--timeout", "60"), env=env(),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_for_requests(srv, 2)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=10)
    assert proc.returncode == 143 and time.monotonic() - t0 < 2.0

"""`tw-fin-eval score` / tools/score.py end to end: the three outputs, bookkeeping of odd runs files, bad
input (exit 2, file:line, nothing written), and the judge's API key never leaking."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.scoring import engine, samples, selfcheck

REPO = Path(__file__).resolve().parents[1]


def write_jsonl(path: Path, rows) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


_PROMPTS = engine._Prompts()
_RECORDS = {r["id"]: r for r in samples.sample_records()}


def prompt_sha(rid, turn):
    """The hash the runner writes for today's prompt ("0" for ids the samples do not have)."""
    rec = _RECORDS.get(rid)
    return (_PROMPTS.sha256(rec, turn, "gold") if rec else None) or "0"


def run_line(rid, turn, response, error=None, model="m"):
    return {"id": rid, "turn": turn, "dataset": "x", "model": model, "messages_sha256": prompt_sha(rid, turn),
            "messages": [],
            "response": response, "reasoning": None, "finish_reason": "stop", "usage": None, "latency_s": 0.1,
            "attempts": 1, "error": error, "created": "2026-01-01T00:00:00Z"}


@pytest.fixture()
def data_file(tmp_path):
    return write_jsonl(tmp_path / "data.jsonl", samples.sample_records())


def gold_runs(exclude=()):
    outs = selfcheck.build_outputs(samples.sample_records())
    return [run_line(k[0], k[1], v) for k, v in outs.items() if k not in exclude]


def test_score_writes_three_outputs_and_lists_every_oddity(tmp_path, data_file, capsys):
    lines = gold_runs(exclude={("finqa_tw-test-0002", None), ("convfinqa_tw-dev-0001", 3)})
    lines.insert(0, run_line("finqa_tw-test-0001", None, None, error="HTTP 500"))  # superseded by a later success
    lines.append(run_line("finqa_tw-test-0003", None, "答案：0"))  # a second success: the last one counts
    lines.append(run_line("finqa_tw-test-0005", None, None, error="timeout"))  # after a success: ignored
    lines.append(run_line("finqa_tw-test-9999", None, "答案：1"))  # unknown id
    lines.append(run_line("convfinqa_tw-dev-0002", 7, "答案：1"))  # unknown turn
    lines.append(run_line("convfinqa_tw-dev-0001", 3, None, error="context too long"))  # only failed
    runs = write_jsonl(tmp_path / "runs.jsonl", lines)
    # a duplicate record id in a second data file
    dup = write_jsonl(tmp_path / "dup.jsonl", [samples.sample_records()[0]])
    out = tmp_path / "rep"
    rc = cli_main(["score", "--data", str(data_file), str(dup), "--runs", str(runs), "--out", str(out)])
    assert rc == 0
    results = [json.loads(x) for x in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    by = {(r["id"], r["turn"]): r for r in results}
    assert len(results) == 24  # 19 records, 4 + 2 conversation turns
    assert by[("finqa_tw-test-0001", None)]["correct"] is True
    assert by[("finqa_tw-test-0003", None)]["correct"] is False  # the last success "答案：0" was taken
    assert by[("finqa_tw-test-0002", None)]["status"] == "not_run"
    failed = by[("convfinqa_tw-dev-0001", 3)]
    assert failed["status"] == "error" and failed["correct"] is False and "context too long" in failed["reason"]
    for key in ("id", "turn", "dataset", "task_type", "category", "subcategory", "difficulty", "extracted", "mode",
                "correct", "score", "status", "judge_verdict", "judge_raw", "step_recall"):
        assert key in results[0]
    assert by[("finchain_tw-0002", None)]["step_recall"] == 1.0

    rows = list(csv.DictReader((out / "summary.csv").open(encoding="utf-8")))
    dims = {r["dimension"] for r in rows}
    assert dims == {"all", "dataset", "task_type", "category", "subcategory", "difficulty"}
    finqa = next(r for r in rows if r["dimension"] == "dataset" and r["group"] == "FinQA-TW")
    # 8 items: 1 not run, 7 decided, 6 right (item 3's last answer is wrong)
    assert (finqa["items"], finqa["run"], finqa["decided"], finqa["correct"], finqa["not_run"]) == ("8", "7", "7", "6", "1")
    assert float(finqa["accuracy"]) == pytest.approx(6 / 7)
    conv = next(r for r in rows if r["dimension"] == "dataset" and r["group"] == "ConvFinQA-TW")
    assert conv["error"] == "1" and float(conv["accuracy"]) == pytest.approx(5 / 6)
    assert float(conv["conversation_accuracy"]) == pytest.approx(1 / 2)  # conversation 1 has a failed turn
    fin = next(r for r in rows if r["dimension"] == "dataset" and r["group"] == "FinLLM450")
    assert fin["pending"] == "2"

    report = (out / "report.md").read_text(encoding="utf-8")
    assert "runs lines for unknown ids/turns: 2" in report
    assert "finqa_tw-test-9999" in report and "convfinqa_tw-dev-0002#turn7" in report
    assert "duplicate record ids (first kept): 1" in report
    assert "more than one successful generation (last taken): 1" in report and "finqa_tw-test-0003 ×2" in report
    assert "failed generations (counted wrong): 1" in report
    assert "items not run (no line in the runs file): 1" in report
    assert "## FinLLM450: pass rate and mean score" in report
    assert "no judge configured: 3" in report
    printed = capsys.readouterr().out
    assert "runs lines matching no record 2 of 25 keys" in printed and "not scored: not run 1;" in printed


def _text_of(path: Path) -> str:
    """A written output as text (details.parquet decompressed), to search for a leaked key."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        return json.dumps(pq.read_table(path).to_pylist(), ensure_ascii=False)
    return path.read_text(encoding="utf-8")


def _assert_untouched(out: Path):
    assert (out / "report.md").read_text(encoding="utf-8") == "old report"
    assert not (out / "results.jsonl").exists() and not (out / "summary.csv").exists()
    assert [p.name for p in out.iterdir()] == ["report.md"]  # no temporary files left behind


@pytest.mark.parametrize("case", ["broken_json", "not_utf8", "not_object", "bad_turn"])
def test_bad_runs_file_exits_2_and_writes_nothing(tmp_path, data_file, capsys, case):
    runs = tmp_path / "runs.jsonl"
    good = json.dumps(gold_runs()[0], ensure_ascii=False)
    body = {"broken_json": good + "\n" + '{"id": "finqa_tw-test-0001", "turn": null, "response": "答案' + "\n",
            "not_utf8": None, "not_object": good + "\n[1, 2]\n",
            "bad_turn": good + "\n" + json.dumps(run_line("finqa_tw-test-0001", "0", "x")) + "\n"}[case]
    if case == "not_utf8":
        runs.write_bytes(good.encode("utf-8") + b"\n" + "答案：94".encode("big5") + b"\n")
    else:
        runs.write_text(body, encoding="utf-8")
    out = tmp_path / "rep"
    out.mkdir()
    (out / "report.md").write_text("old report", encoding="utf-8")
    rc = cli_main(["score", "--data", str(data_file), "--runs", str(runs), "--out", str(out)])
    assert rc == 2
    err = capsys.readouterr().err
    assert f"{runs}:2" in err
    _assert_untouched(out)


@pytest.mark.parametrize("task_type,drop,field", [
    ("numeric", ["answer_value", "answer_text"], "answer_value"),
    ("conversation_numeric", ["turns"], "turns"),
    ("numeric_cot", ["answer_type"], "answer_type"),
    ("mcq", ["answer"], "answer"),
    ("short_answer", ["reference_answer"], "reference_answer"),
    ("open_rubric_agent", ["rubric"], "rubric"),
])
def test_record_missing_fields_exits_2(tmp_path, capsys, task_type, drop, field):
    recs = samples.sample_records()
    idx = next(i for i, r in enumerate(recs) if r["task_type"] == task_type)
    for k in drop:
        recs[idx].pop(k)
    data = write_jsonl(tmp_path / "data.jsonl", recs)
    runs = write_jsonl(tmp_path / "runs.jsonl", gold_runs())
    out = tmp_path / "rep"
    out.mkdir()
    (out / "report.md").write_text("old report", encoding="utf-8")
    rc = cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(out)])
    assert rc == 2
    err = capsys.readouterr().err
    assert f"{data}:{idx + 1}" in err and f"id={recs[idx]['id']}" in err and f"field={field}" in err
    _assert_untouched(out)


def test_unknown_task_type_exits_2(tmp_path, capsys):
    data = write_jsonl(tmp_path / "d.jsonl", [{"id": "a-1", "task_type": "essay"}])
    runs = write_jsonl(tmp_path / "r.jsonl", [])
    assert cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(tmp_path / "o")]) == 2
    assert "unknown task_type 'essay'" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_tools_score_py_runs_by_path_and_key_never_leaks(tmp_path, data_file):
    """tools/score.py from another folder, without installing; the judge fails in several ways and the
    API key appears nowhere (stdout, stderr, outputs)."""
    server_mod = pytest.importorskip("tw_fin_eval.testing.openai_server")
    secret = "sk-test-DO-NOT-LEAK-0123456789"
    runs = write_jsonl(tmp_path / "runs.jsonl", gold_runs())
    out = tmp_path / "rep"
    with server_mod.FakeOpenAIServer(lambda body: "not json at all", faults={"500": 1}) as srv:
        env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "OPENAI_API_KEY"}}
        env["MY_JUDGE_KEY"] = secret
        proc = subprocess.run(
            [sys.executable, str(REPO / "tools" / "score.py"), "--data", str(data_file), "--runs", str(runs),
             "--out", str(out), "--judge-base-url", srv.url, "--judge-model", "j", "--judge-api-key-env",
             "MY_JUDGE_KEY", "--judge-retries", "0"],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
        assert any(h.get("Authorization") == f"Bearer {secret}" for h in srv.headers)
    assert proc.returncode == 0, proc.stderr
    blob = proc.stdout + proc.stderr + "".join(_text_of(p) for p in out.iterdir())
    assert secret not in blob
    results = [json.loads(x) for x in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    statuses = {r["status"] for r in results if r["task_type"] in {"short_answer", "case_study", "open_rubric_agent"}}
    assert statuses <= {"pending", "missing"} and "missing" in statuses
    # a judge that refuses the key stops the run (exit 2, no report), and the key is not in the message
    with server_mod.FakeOpenAIServer(lambda body: "{}", api_key="another-key") as srv:
        proc = subprocess.run(
            [sys.executable, str(REPO / "tools" / "score.py"), "--data", str(data_file), "--runs", str(runs),
             "--out", str(tmp_path / "rep2"), "--judge-base-url", srv.url, "--judge-model", "j",
             "--judge-api-key-env", "MY_JUDGE_KEY", "--judge-retries", "0"],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "judge refused" in proc.stderr and "Traceback" not in proc.stderr
    assert secret not in proc.stdout + proc.stderr and not (tmp_path / "rep2" / "results.jsonl").exists()


def test_null_response_without_error_is_an_empty_answer_and_history_is_reported(tmp_path, data_file):
    lines = gold_runs()
    for ln in lines:
        if ln["id"] == "finqa_tw-test-0004":
            ln["response"] = None  # FORMATS §3: successful = error is null
        if ln["id"].startswith("convfinqa"):
            ln["history"] = "gold"
    runs = write_jsonl(tmp_path / "runs.jsonl", lines)
    out = tmp_path / "rep"
    assert cli_main(["score", "--data", str(data_file), "--runs", str(runs), "--out", str(out), "--quiet"]) == 0
    results = {r["id"]: r for r in map(json.loads, (out / "results.jsonl").read_text(encoding="utf-8").splitlines())}
    assert results["finqa_tw-test-0004"]["status"] == "scored" and results["finqa_tw-test-0004"]["correct"] is False
    assert results["finqa_tw-test-0004"]["mode"] == "none"
    assert "ConvFinQA history: gold (6 turns)" in (out / "report.md").read_text(encoding="utf-8")


def _shell_like_signals() -> None:
    """In the child: SIGINT handled and unblocked, as when a user starts score from a shell. A child inherits
    the pytest process's signal disposition and mask; in the full suite the scorer ignored Ctrl-C this way."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())


def test_ctrl_c_while_judging_exits_130_fast_and_writes_nothing(tmp_path, data_file):
    import signal
    import time

    server_mod = pytest.importorskip("tw_fin_eval.testing.openai_server")
    runs = write_jsonl(tmp_path / "runs.jsonl", gold_runs())
    out = tmp_path / "rep"
    with server_mod.FakeOpenAIServer(lambda body: '{"correct": true}', latency=30.0) as srv:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        # output to files, not pipes: a pipe's EOF also waits for any other process that inherited its end
        # (in the full suite a stray fork elsewhere kept communicate() waiting after the scorer had exited)
        err_path = tmp_path / "stderr.txt"
        with open(tmp_path / "stdout.txt", "wb") as o, open(err_path, "wb") as e:
            proc = subprocess.Popen(
                [sys.executable, str(REPO / "tools" / "score.py"), "--data", str(data_file), "--runs", str(runs),
                 "--out", str(out), "--judge-base-url", srv.url, "--judge-model", "j", "--quiet"],
                cwd=tmp_path, env=env, stdout=o, stderr=e, preexec_fn=_shell_like_signals)
        deadline = time.monotonic() + 20
        while not srv.requests and time.monotonic() < deadline:  # wait until the judge is being asked
            time.sleep(0.05)
        assert srv.requests, "the judge was never called"
        start = time.monotonic()
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            pytest.fail("score did not exit within 20 s of Ctrl-C; stderr: " + err_path.read_text(encoding="utf-8"))
        assert time.monotonic() - start < 10
    err = err_path.read_text(encoding="utf-8")
    assert proc.returncode == 130, err
    assert "interrupted" in err
    assert not out.exists() or not any(out.iterdir())


def test_scorer_declared_columns_reach_summary_and_report(tmp_path):
    """Report columns are declared by the scorer (FinChain: step precision and F1), not hard-coded."""
    from tw_fin_eval.reports import outputs, summary
    from tw_fin_eval.scoring import engine, samples, scorers

    assert [c.name for c in scorers.SCORERS["numeric_cot"].report_columns] == ["mean_step_precision", "mean_step_f1"]
    recs = [r for r in samples.sample_records() if r["task_type"] == "numeric_cot" and r["answer_type"] == "numeric"]
    guesses = "步驟 1：" + "、".join(f"{x}%" for x in (2.5, 3, 3.5, 4, 4.5, 5, 5.5)) + "\n答案：0"
    runs = engine.RunsIndex(success={(r["id"], None): guesses for r in recs})
    out = engine.score(recs, runs, progress=False)
    row = next(r for r in summary.summary_rows(out.items) if r["dimension"] == "all")
    assert "mean_step_precision" in summary.COLUMNS and row["mean_step_f1"] is not None
    assert row["mean_step_precision"] < 0.5  # a list of guesses is not a worked solution
    outputs.write_outputs(tmp_path / "rep", out, inputs={"data": ["d"], "runs": ["r"]})
    assert "mean_step_f1" in (tmp_path / "rep" / "summary.csv").read_text(encoding="utf-8").splitlines()[0]
    assert "mean_step_f1" in (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("url, shown", [
    ("https://user:sk-SECRET@judge.example:8443/v1?api_key=sk-SECRET#frag", "https://judge.example:8443/v1"),
    ("http://judge-host:8080/v1", "http://judge-host:8080/v1"),
    ("http://:sk-SECRET@10.0.0.5/v1/", "http://10.0.0.5/v1/"),
])
def test_report_scrubs_credentials_and_query_from_the_judge_url(url, shown):
    from tw_fin_eval.reports import markdown

    assert markdown._public_url(url) == shown and "SECRET" not in markdown._public_url(url)


def test_judge_key_env_takes_a_variable_name_never_echoes_a_key(tmp_path, data_file):
    """The judge key follows the runner's rule (redact.key_from_env): a key pasted as the variable's name is
    refused with at most 3 characters shown; a named variable that is not set is an error, not a run without
    a key; a set one is used."""
    runs = write_jsonl(tmp_path / "runs.jsonl", gold_runs())
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "OPENAI_API_KEY", "JUDGE_API_KEY"}}
    base = [sys.executable, "-m", "tw_fin_eval", "score", "--data", str(data_file), "--runs", str(runs),
            "--judge-base-url", "http://127.0.0.1:1/v1", "--judge-model", "j", "--judge-retries", "0"]
    key = "sk-proj-Ab12Cd34Ef56Gh78Ij90"
    proc = subprocess.run([*base, "--out", str(tmp_path / "a"), "--judge-api-key-env", key], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "looks like a key" in proc.stderr and "Traceback" not in proc.stderr
    assert key[:4] not in proc.stdout + proc.stderr and not (tmp_path / "a").exists()
    proc = subprocess.run([*base, "--out", str(tmp_path / "b"), "--judge-api-key-env", "NOT_SET_ANYWHERE_42"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "NOT_SET_ANYWHERE_42 is not set (named by --judge-api-key-env)" in proc.stderr
    from tw_fin_eval.redact import key_from_env

    assert key_from_env(None, option="--judge-api-key-env", defaults=("NOT_SET_ANYWHERE_42",)) is None

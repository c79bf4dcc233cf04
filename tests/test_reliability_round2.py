"""Reliability round 2 (issue 28): keys from CRLF files, hostile judge bodies, deep or huge-number lines,
the judge's circuit breaker, special files as `run --out`. Each test is one row of docs/RELIABILITY.md's
fault table and failed on the code before the fix. Servers are the local fake (loopback only)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.test_runner_faults import fragments, items
from tests.test_runner_run import base_args, cfg, cli, read_runs
from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.jsonl import JSONLimitError, loads, write_jsonl
from tw_fin_eval.redact import Redactor, header_safe_key, key_from_env
from tw_fin_eval.runner.loop import run
from tw_fin_eval.scoring import samples, selfcheck
from tw_fin_eval.scoring.judge.parse import as_number, find_json_objects
from tw_fin_eval.testing import FakeOpenAIServer

REPO = Path(__file__).resolve().parents[1]
KEY = "sk-Crlf-Key-0123456789abcdef"


# ------------------------------------------------------------------------------------------------
# 1. keys with surrounding CR/LF, inner control characters, every escaped form
def test_a_key_from_a_crlf_file_is_stripped_and_never_written(tmp_path, capsys, monkeypatch):
    """OPENAI_API_KEY=$(cat key.txt) from a CRLF file ends in "\\r": it is sent stripped (the server accepts
    it), and no piece of it reaches the runs file or the output (before: http.client refused the header and
    its message, quoting the whole key as bytes, went into every line's `error`)."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY + "\r\n")
    data = items(tmp_path, 3)
    out = tmp_path / "o.jsonl"
    with FakeOpenAIServer(api_key=KEY) as srv:
        rc, stdout, err = cli(capsys, *base_args(srv.url, data, out))
    assert rc == 0, err
    rows = read_runs(out)
    assert len(rows) == 3 and all(r["error"] is None for r in rows)
    text = (out.read_text(encoding="utf-8") + stdout + err).lower()
    assert not [p for p in fragments(KEY) if p in text]


@pytest.mark.parametrize("bad", ["sk-Qw7Zp\rXv9Lm-0123456789", "sk-Qw7Zp\x1bXv9Lm-0123456789",
                                 "sk-Qw7Zp\tXv9Lm-0123456789", "sk-Qw7Zp非Xv9Lm-0123456789"])
@pytest.mark.parametrize("command", ["run", "score"])
def test_a_key_with_inner_control_characters_is_refused_without_echo(tmp_path, capsys, monkeypatch, bad, command):
    data = items(tmp_path, 1)
    if command == "run":
        monkeypatch.setenv("OPENAI_API_KEY", bad)
        rc = cli_main(["run", *base_args("http://127.0.0.1:9/v1", data, tmp_path / "o.jsonl")])
    else:
        monkeypatch.setenv("JUDGE_API_KEY", bad)
        runs = write_jsonl(tmp_path / "r.jsonl", [])
        rc = cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(tmp_path / "rep"),
                       "--judge-base-url", "http://127.0.0.1:9/v1", "--judge-model", "j", "--quiet"])
    out, err = capsys.readouterr()
    assert rc == 2 and "character at position" in err and "not shown" in err
    shown = (out + err).lower()
    assert not [p for p in fragments(bad.lower()) if p in shown and not p.startswith("sk-")]
    assert not (tmp_path / "o.jsonl").exists()


def test_surrounding_whitespace_is_stripped_inner_is_refused():
    assert header_safe_key("  sk-abc\r\n") == "sk-abc"
    assert header_safe_key("\n") is None and header_safe_key(None) is None
    with pytest.raises(Exception, match="control character at position 3 of 5"):
        header_safe_key("ab\ncd\r")


def test_a_named_variable_holding_only_whitespace_is_an_error(monkeypatch):
    monkeypatch.setenv("MY_KEY", "\r\n")
    with pytest.raises(Exception, match="only whitespace"):
        key_from_env("MY_KEY", option="--api-key-env")


@pytest.mark.parametrize("key", [KEY, KEY + "\r", 'sk-"quote\\back-0123456789'])
def test_the_redactor_catches_every_quoted_and_escaped_form(key):
    """repr, bytes repr (http.client's "Invalid header value b'Bearer …\\r'"), \\r escapes, JSON escapes,
    URL encoding, and each of these escaped once more (an exception's repr quoting another's)."""
    r = Redactor([key])
    header = f"Bearer {key}".encode("latin-1")
    exc = ValueError(f"Invalid header value {header!r}")
    texts = [str(exc), repr(exc), repr(repr(exc)), json.dumps(str(exc)), json.dumps(repr(exc)),
             json.dumps(json.dumps(key)), repr(key.encode()), key.encode("unicode_escape").decode(),
             "https://x/?k=" + __import__("urllib.parse").parse.quote(key, safe=""), key.upper(),
             json.dumps({"error": repr(exc)}, ensure_ascii=True)]
    core = key.strip()[:12].lower()
    for t in texts:
        scrubbed = r.scrub(t)
        assert core not in scrubbed.lower(), (t, scrubbed)


def test_an_unexpected_exception_prints_a_traceback_without_the_key(tmp_path, capsys, monkeypatch):
    """`score` once printed the judge key in a traceback: whatever escapes a command, the keys this process
    read are scrubbed from what is printed (exit 1)."""
    import tw_fin_eval.scoring.cli as score_cli

    monkeypatch.setenv("JUDGE_API_KEY", KEY + "\r\n")

    def boom(args):
        key = key_from_env(None, option="--judge-api-key-env", defaults=("JUDGE_API_KEY",))
        raise ValueError(f"Invalid header value {('Bearer ' + key + chr(13)).encode()!r} / {key!r}")

    monkeypatch.setattr(score_cli, "main", boom)
    rc = cli_main(["score", "--data", "x", "--runs", "y", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" in err and "internal error" in err
    assert not [p for p in fragments(KEY) if p in err.lower()]


# ------------------------------------------------------------------------------------------------
# 2. hostile server bodies: every parse bounded and total
@pytest.mark.parametrize("text", ["[" * 100_000, '{"a":' * 50_000, "7" * 5000, '{"n": ' + "9" * 200 + "}",
                                  '{"x": NaN}', "[Infinity]", '{"x": 1e999}', "[" * 101 + "]" * 101])
def test_bounded_loads_is_total(text):
    with pytest.raises(JSONLimitError):
        loads(text)


def test_bounded_loads_accepts_ordinary_json():
    assert loads('{"a": [1, 2.5, "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", '
                 '"' + "1" * 300 + '"]}')["a"][:2] == [1, 2.5]
    assert loads("[" * 100 + "]" * 100) is not None


@pytest.mark.parametrize("fault", ["deep_error", "huge_number_error"])
def test_a_hostile_5xx_error_body_is_an_ordinary_retried_failure(tmp_path, fault):
    """A 500 whose JSON body is nested 30 000 deep or holds a 5000-digit number: an HTTP 5xx like any other,
    retried (before: RecursionError/ValueError escaped the client; the item got one 'internal error' line)."""
    data = items(tmp_path, 3)
    with FakeOpenAIServer(script=[fault]) as srv:  # each item: attempt 1 fails that way, attempt 2 answers
        summary = run(cfg(srv.url, [data], tmp_path / "o.jsonl", max_retries=2))
    rows = read_runs(tmp_path / "o.jsonl")
    assert summary.ok == 3 and all(r["error"] is None and r["attempts"] == 2 for r in rows)


@pytest.mark.parametrize("fault", ["deep_error", "huge_number_error"])
def test_hostile_5xx_bodies_count_toward_the_breaker(tmp_path, fault):
    data = items(tmp_path, 30)
    with FakeOpenAIServer(fault_for=lambda body, nth: fault) as srv:
        summary = run(cfg(srv.url, [data], tmp_path / "o.jsonl", max_retries=4, max_consecutive_failures=5))
        sent = len(srv.requests)
    assert summary.breaker and "HTTP 5xx" in summary.breaker and summary.exit_code == 1
    assert sent < 20


@pytest.mark.parametrize("reply", ['{"score": ' + "7" * 5000 + ', "conclusion_correct": true}',
                                   "{'score': " + "7" * 5000 + ", 'conclusion_correct': True}",
                                   '{"a": ' + "[" * 50_000 + "}", '{"score": 1e999, "conclusion_correct": true}',
                                   '{"score": NaN, "conclusion_correct": true}'])
def test_hostile_judge_replies_are_no_verdict_never_an_exception(reply):
    objs = find_json_objects(reply)
    assert all(as_number(o.get("score")) is None for o in objs)
    assert as_number(10 ** 5000) is None and as_number(float("nan")) is None and as_number("8/10") == 8.0


def _score_inputs(tmp_path: Path) -> tuple[Path, Path]:
    recs = samples.sample_records()
    data, runs = tmp_path / "data.jsonl", tmp_path / "runs.jsonl"
    write_jsonl(data, recs)
    write_jsonl(runs, [{"id": k[0], "turn": k[1], "response": v, "error": None, "model": "m"}
                       for k, v in selfcheck.build_outputs(recs).items()])
    return data, runs


def _judge_reply(body: dict) -> str:
    user = body["messages"][-1]["content"]
    if "評分要點" in user:
        return '{"criteria": [{"id": 1, "pass": true}, {"id": 2, "pass": true}, {"id": 3, "pass": false}]}'
    return '{"conclusion_correct": true, "score": 8}'


def _score(data: Path, runs: Path, out: Path, url: str, *extra: str) -> int:
    return cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(out), "--quiet",
                     "--judge-base-url", url, "--judge-model", "judge-m", "--judge-retries", "0",
                     "--judge-concurrency", "1", *extra])


@pytest.mark.parametrize("fault", ["deep_error", "huge_number_error", "500"])
def test_a_failing_judge_is_exit_2_and_its_verdicts_are_kept_and_reused(tmp_path, capsys, fault):
    """The first judged item is answered, then the judge sends hostile 5xx bodies: `score` stops with the
    documented error (exit 2, no traceback, no report); the verdict already paid for is in the default
    cache <out>/judge_cache.jsonl, and the re-run asks only for the others."""
    data, runs = _score_inputs(tmp_path)
    out = tmp_path / "rep"
    seen: list[str] = []

    def fault_for(body, nth):
        key = body["messages"][-1]["content"]
        if key not in seen:
            seen.append(key)
        return None if seen.index(key) == 0 else fault

    with FakeOpenAIServer(_judge_reply, fault_for=fault_for) as srv:
        rc = _score(data, runs, out, srv.url, "--judge-max-consecutive-failures", "2")
    err = capsys.readouterr().err
    assert rc == 2 and "circuit breaker" in err and "Traceback" not in err, err
    assert "kept in" in err and "judge_cache.jsonl" in err
    assert not (out / "results.jsonl").exists()
    assert len((out / "judge_cache.jsonl").read_text(encoding="utf-8").splitlines()) == 1

    with FakeOpenAIServer(_judge_reply) as srv:
        rc = _score(data, runs, out, srv.url)
        asked = len(srv.requests)
    assert rc == 0 and asked == 2  # 3 judged items, 1 reused from the cache
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert doc is not None


# ------------------------------------------------------------------------------------------------
# 3. deep or huge-number lines in runs files and the judge cache: exit 2 naming file:line
HOSTILE_LINES = ['{"id": "finqa_tw-test-0001", "turn": null, "response": "1", "error": null, "model": "m", '
                 '"usage": ' + "[" * 5000 + "]" * 5000 + "}",
                 '{"id": "finqa_tw-test-0001", "turn": null, "response": "1", "error": null, "model": "m", '
                 '"latency_s": ' + "9" * 5000 + "}",
                 '{"id": "finqa_tw-test-0001", "turn": null, "response": "1", "error": null, "model": "m", '
                 '"latency_s": NaN}']


@pytest.mark.parametrize("line", HOSTILE_LINES, ids=["deep", "huge_number", "nan"])
def test_a_hostile_runs_line_is_exit_2_naming_file_and_line(tmp_path, capsys, line):
    data, runs = _score_inputs(tmp_path)
    good = runs.read_text(encoding="utf-8").splitlines()
    runs.write_text("\n".join([good[0], line, *good[1:]]) + "\n", encoding="utf-8")
    rc = cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(tmp_path / "rep"), "--quiet"])
    err = capsys.readouterr().err
    assert rc == 2 and f"{runs}:2:" in err and "Traceback" not in err, err
    # the runner resuming the same file says the same
    rc = cli_main(["run", "--data", str(data), "--base-url", "http://127.0.0.1:9/v1", "--model", "m",
                   "--out", str(runs)])
    err = capsys.readouterr().err
    assert rc == 2 and f"{runs}:2:" in err and "Traceback" not in err, err


@pytest.mark.parametrize("line", ['{"key": "k", "raw": ' + "[" * 5000 + "]" * 5000 + "}",
                                  '{"key": "k", "raw": "x", "n": ' + "9" * 5000 + "}"], ids=["deep", "huge_number"])
def test_a_hostile_judge_cache_line_is_exit_2_naming_file_and_line(tmp_path, capsys, line):
    data, runs = _score_inputs(tmp_path)
    cache = tmp_path / "cache.jsonl"
    cache.write_text('{"key": "a", "model": "j", "raw": "{}", "raw_content": null}\n' + line + "\n", encoding="utf-8")
    rc = _score(data, runs, tmp_path / "rep", "http://127.0.0.1:9/v1", "--judge-cache", str(cache))
    err = capsys.readouterr().err
    assert rc == 2 and f"{cache}:2:" in err and "Traceback" not in err, err


# ------------------------------------------------------------------------------------------------
# 4. the judge's circuit breaker
@pytest.mark.parametrize("fault", ["hang", "500", "trickle_body"])
def test_a_hung_or_failing_judge_trips_the_breaker(tmp_path, capsys, fault):
    """Before: every judged item waited its timeout and retries, then `score` exited 0 with all pending."""
    data, runs = _score_inputs(tmp_path)
    with FakeOpenAIServer(_judge_reply, fault_for=lambda body, nth: fault, hang_s=20, trickle_s=0.05,
                          max_stall_s=20) as srv:
        t0 = time.monotonic()
        rc = _score(data, runs, tmp_path / "rep", srv.url, "--judge-timeout", "0.5", "--judge-retries", "3",
                    "--judge-max-consecutive-failures", "3")
        elapsed = time.monotonic() - t0
        asked = len(srv.requests)
    err = capsys.readouterr().err
    assert rc == 2 and "judge circuit breaker" in err and "in a row across 2 requests" in err, err
    assert asked <= 5 and elapsed < 15  # item 1: 4 attempts (1 + 3 retries), item 2: 1 → tripped


# ------------------------------------------------------------------------------------------------
# 6. run --out must be a regular file
def _run_out(tmp_path: Path, out: str, *extra: str) -> subprocess.CompletedProcess:
    data = items(tmp_path, 2)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "tw_fin_eval", "run", "--data", str(data), "--base-url",
                           "http://127.0.0.1:9/v1", "--model", "m", "--out", out, *extra], env=env,
                          capture_output=True, text=True, timeout=30)


@pytest.mark.parametrize("dry", [False, True])
def test_run_out_on_a_device_or_fifo_is_refused_exit_2(tmp_path, dry):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for out in ("/dev/zero", str(fifo)):
        t0 = time.monotonic()
        proc = _run_out(tmp_path, out, *(["--dry-run"] if dry else []))  # before: read forever / blocked
        assert proc.returncode == 2 and "must be a regular file" in proc.stderr, proc.stderr
        assert time.monotonic() - t0 < 20


# ------------------------------------------------------------------------------------------------
# 7. resume keeps only what resuming needs per key (the 290,000-line figure: benchmarks/score_stream_memory.py)
def test_resuming_a_finished_run_holds_no_prompts_and_no_replies(tmp_path):
    """50 records with 400 KB prompts, all finished: resuming must not hold them (before: every record, and
    every task's messages, were in memory at once — 2.7 GB at 290,000 lines)."""
    import tracemalloc

    from tw_fin_eval.runner.requests import messages_sha256

    big = "財" * 200_000
    recs = [{"id": f"q-{i:04d}", "dataset": "FinQA-TW", "task_type": "numeric",
             "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": f"{i}{big}"}]}
            for i in range(50)]
    data, out = tmp_path / "d.jsonl", tmp_path / "o.jsonl"
    write_jsonl(data, recs)
    write_jsonl(out, [{"id": r["id"], "turn": None, "model": "m", "messages_sha256": messages_sha256(r["messages"]),
                       "messages": r["messages"], "response": "答案：1" + big, "error": None} for r in recs])
    tracemalloc.start()
    try:
        summary = run(cfg("http://127.0.0.1:9/v1", [data], out))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert summary.skipped == 50 and summary.exit_code == 0 and summary.stale_prompts == 0
    assert peak < 12e6, peak  # one 1.2 MB line at a time, not 50 × (prompt + reply)


# ------------------------------------------------------------------------------------------------
# 5. outputs replaced all or nothing, one writer at a time
OUTPUTS = ("results.jsonl", "summary.csv", "report.md", "results.json", "report.html")


def _plain_score(data: Path, runs: Path, out: Path) -> int:
    return cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(out), "--quiet"])


def _second_runs(tmp_path: Path, runs: Path) -> Path:
    """The same runs with every answer wrong: a report that differs in every file."""
    other = tmp_path / "runs2.jsonl"
    rows = [json.loads(x) for x in runs.read_text(encoding="utf-8").splitlines()]
    write_jsonl(other, [{**r, "response": "答案：-1"} for r in rows])
    return other


def _snapshot(out: Path) -> dict[str, bytes]:
    return {n: (out / n).read_bytes() for n in OUTPUTS}


def test_a_rename_failing_mid_commit_leaves_the_old_report_whole(tmp_path, capsys, monkeypatch):
    """Before: AtomicFiles renamed the files one by one; a failed third rename left report.md of one run
    and results.json of another while the message said "nothing was changed"."""
    data, runs = _score_inputs(tmp_path)
    out = tmp_path / "rep"
    assert _plain_score(data, runs, out) == 0
    before = _snapshot(out)
    calls = {"n": 0}
    real = os.replace

    def flaky(a, b, *args, **kwargs):  # the third rename of an output file fails, wherever it is
        calls["n"] += Path(b).name in (*OUTPUTS, "details.parquet")
        if calls["n"] == 3:
            raise PermissionError(13, "Permission denied", str(b))
        return real(a, b, *args, **kwargs)

    monkeypatch.setattr(os, "replace", flaky)
    rc = _plain_score(data, _second_runs(tmp_path, runs), out)
    err = capsys.readouterr().err
    assert rc == 2 and "nothing was changed" in err, err
    assert _snapshot(out) == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".rep.")]  # no staging folder left
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]


def test_a_failing_folder_swap_leaves_the_old_report_whole(tmp_path, capsys, monkeypatch):
    import tw_fin_eval.jsonl as jsonl_mod

    data, runs = _score_inputs(tmp_path)
    out = tmp_path / "rep"
    assert _plain_score(data, runs, out) == 0
    (out / "my_notes.txt").write_text("mine", encoding="utf-8")
    before = _snapshot(out)

    def broken(a, b):
        raise OSError(5, "Input/output error", str(b))

    monkeypatch.setattr(jsonl_mod, "_exchange", broken, raising=False)
    rc = _plain_score(data, _second_runs(tmp_path, runs), out)
    assert rc == 2 and "nothing was changed" in capsys.readouterr().err
    assert _snapshot(out) == before and (out / "my_notes.txt").read_text(encoding="utf-8") == "mine"
    monkeypatch.undo()
    assert _plain_score(data, _second_runs(tmp_path, runs), out) == 0  # the swap: others' files are kept
    assert _snapshot(out) != before and (out / "my_notes.txt").read_text(encoding="utf-8") == "mine"


@pytest.mark.parametrize("case", ["mount_point", "parent_read_only"])
def test_without_a_swap_the_files_are_still_replaced_all_or_nothing(tmp_path, capsys, monkeypatch, case):
    """--out a mount point (the swap fails with EXDEV/EBUSY) or in a folder we cannot write (no staging folder
    beside it): the outputs are staged inside --out and moved file by file, put back if one move fails."""
    import errno
    import tempfile

    import tw_fin_eval.jsonl as jsonl_mod

    data, runs = _score_inputs(tmp_path)
    out = tmp_path / "rep"
    assert _plain_score(data, runs, out) == 0
    before = _snapshot(out)
    if case == "mount_point":
        def busy(a, b):
            raise OSError(errno.EBUSY, "Device or resource busy", str(b))
        monkeypatch.setattr(jsonl_mod, "_exchange", busy)
    else:
        real_mkdtemp = tempfile.mkdtemp

        def no_sibling(*args, dir=None, **kwargs):
            if Path(dir) == tmp_path:
                raise PermissionError(13, "Permission denied", str(dir))
            return real_mkdtemp(*args, dir=dir, **kwargs)
        monkeypatch.setattr(tempfile, "mkdtemp", no_sibling)
    real_replace, calls = os.replace, {"n": 0}

    def flaky(a, b, *args, **kwargs):  # the third move into --out fails
        calls["n"] += Path(b).parent == out and Path(b).name in OUTPUTS
        if calls["n"] == 3:
            raise PermissionError(13, "Permission denied", str(b))
        return real_replace(a, b, *args, **kwargs)

    monkeypatch.setattr(os, "replace", flaky)
    assert _plain_score(data, _second_runs(tmp_path, runs), out) == 2
    assert _snapshot(out) == before and not [p for p in out.iterdir() if p.name.startswith(".")]
    monkeypatch.setattr(os, "replace", real_replace)
    assert _plain_score(data, _second_runs(tmp_path, runs), out) == 0 and _snapshot(out) != before
    capsys.readouterr()


def test_a_second_scorer_on_the_same_out_is_refused_exit_2(tmp_path, capsys):
    import fcntl

    data, runs = _score_inputs(tmp_path)
    out = tmp_path / "rep"
    out.mkdir()
    fd = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # what a running `score` holds
        rc = _plain_score(data, runs, out)
        err = capsys.readouterr().err
    finally:
        os.close(fd)
    assert rc == 2 and "another process is writing this output folder" in err
    assert not (out / "results.jsonl").exists()


def test_two_scorers_racing_on_one_out_never_leave_a_mixed_report(tmp_path):
    """Before: a mixed report in 1 of 6 rounds. Now each round ends with one run's report, whole."""
    data, runs = _score_inputs(tmp_path)
    wrong = _second_runs(tmp_path, runs)
    out = tmp_path / "rep"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for _ in range(3):
        procs = [subprocess.Popen([sys.executable, "-m", "tw_fin_eval", "score", "--data", str(data), "--runs",
                                   str(r), "--out", str(out), "--quiet"], env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True) for r in (runs, wrong)]
        codes = [p.wait(timeout=120) for p in procs]
        errs = [p.stderr.read() for p in procs]
        assert 0 in codes and set(codes) <= {0, 2}, errs
        assert all("another process" in e for c, e in zip(codes, errs) if c == 2)
        lines = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
        winner = runs if any(json.loads(x)["correct"] is True for x in lines) else wrong
        assert str(winner) in (out / "results.json").read_text(encoding="utf-8")
        report = (out / "report.md").read_text(encoding="utf-8")
        assert str(winner) in report


# ------------------------------------------------------------------------------------------------
# 8. temporaries a kill left behind are removed by the next run; CSV, HTML and JSON outputs are inert
def test_stale_temporaries_are_removed_by_the_next_run_live_ones_kept(tmp_path, monkeypatch):
    import fcntl
    import tempfile

    temp = tmp_path / "tmpdir"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    data, runs = _score_inputs(tmp_path)
    out = tmp_path / "rep"
    out.mkdir()
    stale = [out / ".results.jsonl.k1ll3d00.tmp", temp / "tw_fin_eval_details.k1ll3d00.jsonl.tmp",
             tmp_path / ".rep.staging-k1ll3d00"]
    for p in stale[:2]:
        p.write_text("left by SIGKILL", encoding="utf-8")
    stale[2].mkdir()
    (stale[2] / "report.md").write_text("half", encoding="utf-8")
    young = temp / "tw_fin_eval_details.y0ung000.jsonl.tmp"  # created this instant by a scorer not yet locked
    young.write_text("", encoding="utf-8")
    for p in stale:  # left by a run killed a while ago
        os.utime(p, (time.time() - 3600, time.time() - 3600))
    live = temp / "tw_fin_eval_details.l1ve0000.jsonl.tmp"  # another scorer's, still running
    live.write_text("busy", encoding="utf-8")
    fd = os.open(live, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        assert _plain_score(data, runs, out) == 0
    finally:
        os.close(fd)
    assert [p for p in stale if p.exists()] == []
    assert live.exists() and young.exists() and not [p for p in temp.iterdir() if p not in (live, young)]


def test_atomic_writer_removes_a_killed_writers_temporaries(tmp_path):
    """`build` writes data/ through atomic_writer: the next build removes .tmp files a kill left there."""
    import fcntl

    from tw_fin_eval.jsonl import atomic_writer

    stale, live = tmp_path / ".finqa.jsonl.k1ll3d00.tmp", tmp_path / ".finqa.jsonl.l1ve0000.tmp"
    stale.write_text("x", encoding="utf-8")
    os.utime(stale, (time.time() - 3600, time.time() - 3600))  # a kill a while ago (fresh ones are left alone)
    live.write_text("y", encoding="utf-8")
    fd = os.open(live, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        with atomic_writer(tmp_path / "finqa.jsonl") as fh:
            fh.write("{}\n")
    finally:
        os.close(fd)
    assert not stale.exists() and live.exists() and (tmp_path / "finqa.jsonl").read_text() == "{}\n"


def _score_proc(data: Path, runs: Path, out: Path, url: str, temp: Path, **popen) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO), "TMPDIR": str(temp)}
    return subprocess.Popen([sys.executable, "-m", "tw_fin_eval", "score", "--data", str(data), "--runs", str(runs),
                             "--out", str(out), "--quiet", "--judge-base-url", url, "--judge-model", "judge-m",
                             "--judge-timeout", "20", "--judge-retries", "0", "--judge-concurrency", "1"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, **popen)


def _wait_for_request(srv: FakeOpenAIServer, n: int = 1) -> None:
    deadline = time.monotonic() + 30
    while len(srv.requests) < n:
        assert time.monotonic() < deadline, "the judge was never asked"
        time.sleep(0.05)


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM"])
def test_a_killed_score_leaves_nothing_the_next_run_does_not_clean(tmp_path, how):
    import signal

    temp = tmp_path / "tmpdir"
    temp.mkdir()
    data, runs = _score_inputs(tmp_path)
    out = tmp_path / "rep"
    hang = {"on": True}
    with FakeOpenAIServer(_judge_reply, fault_for=lambda body, nth: "hang" if hang["on"] else None,
                          hang_s=20) as srv:
        proc = _score_proc(data, runs, out, srv.url, temp)
        _wait_for_request(srv)  # one judge request in flight (all hang)
        proc.send_signal(getattr(signal, how))
        err = proc.communicate(timeout=30)[1]
        if how == "SIGTERM":
            assert proc.returncode == 143 and "terminated" in err and "no report was written" in err, err
            assert list(temp.iterdir()) == []  # the spool was removed on the way out
        hang["on"] = False
        left = [*temp.iterdir(), *tmp_path.glob(".rep.*"), *(out.glob(".*.tmp") if out.exists() else [])]
        for p in left:  # as if killed a while ago: entries younger than jsonl.STALE_AFTER_S are left alone
            os.utime(p, (time.time() - 3600, time.time() - 3600))
        proc = _score_proc(data, runs, out, srv.url, temp)
        assert proc.wait(timeout=120) == 0, proc.stderr.read()
    assert list(temp.iterdir()) == []
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".rep.")]
    assert (out / "results.json").exists()


def test_score_started_with_sigint_ignored_still_stops_on_ctrl_c(tmp_path):
    """`tw-fin-eval score … &` in a script starts with SIGINT ignored; before, Ctrl-C did nothing and a hung
    judge kept it running."""
    import signal

    temp = tmp_path / "tmpdir"
    temp.mkdir()
    data, runs = _score_inputs(tmp_path)
    with FakeOpenAIServer(_judge_reply, fault_for=lambda body, nth: "hang", hang_s=20) as srv:
        proc = _score_proc(data, runs, tmp_path / "rep", srv.url, temp,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
        _wait_for_request(srv)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        try:
            err = proc.communicate(timeout=10)[1]
        finally:
            proc.kill()
        assert time.monotonic() - t0 < 10
    assert proc.returncode == 130 and "interrupted" in err and "kept in" in err and "judge_cache.jsonl" in err, err


def test_an_interrupted_run_says_what_was_kept(tmp_path):
    import signal

    data = items(tmp_path, 6)
    out = tmp_path / "o.jsonl"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with FakeOpenAIServer(fault_for=lambda body, nth: "hang" if body["messages"][-1]["content"].endswith(("4", "5"))
                          else None, hang_s=20) as srv:
        proc = subprocess.Popen([sys.executable, "-m", "tw_fin_eval", "run", *base_args(srv.url, data, out),
                                 "--concurrency", "1", "--quiet"], env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        _wait_for_request(srv, 5)
        proc.send_signal(signal.SIGINT)
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        err = proc.communicate(timeout=30)[1]
    assert proc.returncode == 130
    assert "kept: the 4 lines written this run" in err and str(out) in err, err
    assert len(read_runs(out)) == 4


def test_server_errors_are_escaped_where_report_md_embeds_html(tmp_path):
    data, runs = _score_inputs(tmp_path)
    rows = [json.loads(x) for x in runs.read_text(encoding="utf-8").splitlines()]
    hostile = "HTTP 500: <script>alert(1)</script></details><img src=x onerror=alert(2)>"
    rows[0] = {**rows[0], "response": None, "error": hostile}
    write_jsonl(runs, rows)
    assert _plain_score(data, runs, tmp_path / "rep") == 0
    md = (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&lt;/details&gt;&lt;img" in md
    assert "<script" not in md and "<img" not in md and md.count("</details>") == md.count("<details>")


@pytest.mark.parametrize("model", ['=HYPERLINK("http://evil/","x")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)"])
def test_csv_cells_that_look_like_formulas_are_neutralised(tmp_path, model):
    import csv
    import io

    data, runs = _score_inputs(tmp_path)
    rows = [json.loads(x) for x in runs.read_text(encoding="utf-8").splitlines()]
    write_jsonl(runs, [{**r, "model": model} for r in rows])
    assert _plain_score(data, runs, tmp_path / "rep") == 0
    table = list(csv.DictReader(io.StringIO((tmp_path / "rep" / "summary.csv").read_text(encoding="utf-8"))))
    assert {r["model"] for r in table} == {"'" + model}
    assert all(not v.startswith(("=", "+", "@")) and not (v.startswith("-") and not _number(v))
               for r in table for v in r.values())


def _number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def test_every_csv_writer_neutralises_formula_cells(tmp_path):
    from tw_fin_eval.jsonl import safe_csv_cell
    from tw_fin_eval.release import review_sample
    from tw_fin_eval.scoring import finsearchcomp
    from tw_fin_eval.sources.finllm450 import converter

    assert [safe_csv_cell(v) for v in ("=1+2", "-0.5", "-x", "@a", "ok", 3, "\tx", "+12")] == \
        ["'=1+2", "-0.5", "'-x", "'@a", "ok", 3, "'\tx", "+12"]
    assert "'=HYPERLINK(1)" in finsearchcomp.summary_csv([{"task": "=HYPERLINK(1)"}])
    problem = converter.Problem(serial=1, field="=cmd()", problem="@x", fix="-y", kind="k")
    assert "'=cmd()" in converter.issues_csv([problem]) and "'@x" in converter.issues_csv([problem])
    rec = {"id": "=HYPERLINK(1)", "dataset": "FinQA-TW", "question": "-1+1 是多少？"}
    review_sample.write_sheet(tmp_path / "s.csv", [rec])
    sheet = (tmp_path / "s.csv").read_text(encoding="utf-8-sig")
    assert "'=HYPERLINK(1)" in sheet and "'-1+1" in sheet


def test_results_json_is_strict_json_nan_becomes_null_with_a_note(tmp_path, monkeypatch):
    from tw_fin_eval.reports import results_doc

    real = results_doc.build

    def with_nan(*args, **kwargs):
        doc = real(*args, **kwargs)
        doc["injected"] = {"kappa": float("nan"), "ratio": [1.0, float("inf")]}
        return doc

    monkeypatch.setattr(results_doc, "build", with_nan)
    data, runs = _score_inputs(tmp_path)
    assert _plain_score(data, runs, tmp_path / "rep") == 0
    text = (tmp_path / "rep" / "results.json").read_text(encoding="utf-8")
    doc = json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} in results.json"))
    assert doc["injected"] == {"kappa": None, "ratio": [1.0, None]}
    assert any("NaN or Infinity" in n and "$.injected.kappa" in n for n in doc["notes"])


def test_out_as_the_working_folder_is_written_in_place_not_swapped(tmp_path, monkeypatch):
    """`score --out .`: swapping the working folder would leave the user's shell in a deleted folder."""
    data, runs = _score_inputs(tmp_path)
    out = tmp_path / "rep"
    out.mkdir()
    monkeypatch.chdir(out)
    inode = os.stat(out).st_ino
    assert _plain_score(data, runs, Path(".")) == 0
    assert os.stat(out).st_ino == inode and (out / "results.json").exists()
    assert not [p for p in out.iterdir() if p.name.startswith(".")]

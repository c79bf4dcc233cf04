"""The scorer on runs files a hostile server or an interrupted runner can leave: a lone surrogate in a runs
line or the judge cache is an error naming file:line (not a traceback while writing the report), a
partial last line says to resume the runner first. Valid surrogate *pairs* (emoji) are fine."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_scoring_cli import gold_runs, write_jsonl
from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.scoring import samples


def score(tmp_path: Path, runs: Path, *extra: str) -> int:
    data = write_jsonl(tmp_path / "data.jsonl", samples.sample_records())
    return cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(tmp_path / "rep"),
                     "--quiet", *extra])


def runs_text(lines: list[dict]) -> str:
    # ensure_ascii=True writes every non-ASCII character as an escape, as some tools do
    return "".join(json.dumps(r, ensure_ascii=True) + "\n" for r in lines)


def test_a_lone_surrogate_in_a_runs_line_names_file_and_line(tmp_path, capsys):
    lines = gold_runs()
    lines[4]["response"] = "答案：\ud800 3"
    runs = tmp_path / "runs.jsonl"
    runs.write_text(runs_text(lines), encoding="utf-8")
    rc = score(tmp_path, runs)
    err = capsys.readouterr().err
    assert rc == 2 and f"{runs}:5" in err and "lone surrogate" in err and "Traceback" not in err
    assert not (tmp_path / "rep").exists()


def test_a_surrogate_pair_is_valid_text_and_is_scored(tmp_path, capsys):
    lines = gold_runs()
    lines[4]["response"] = "😀 " + lines[4]["response"]  # written as the escape pair \ud83d\ude00
    runs = tmp_path / "runs.jsonl"
    runs.write_text(runs_text(lines), encoding="utf-8")
    assert "\\ud83d\\ude00" in runs.read_text(encoding="utf-8")
    assert score(tmp_path, runs) == 0


def test_a_partial_last_line_says_resume_the_runner_first(tmp_path, capsys):
    runs = write_jsonl(tmp_path / "runs.jsonl", gold_runs())
    runs.write_bytes(runs.read_bytes() + b'{"id":"finqa_tw-test-0001","turn":nu')
    n = len(gold_runs()) + 1
    rc = score(tmp_path, runs)
    err = capsys.readouterr().err
    assert rc == 2 and f"{runs}:{n}" in err and "resume the runner first" in err and "Traceback" not in err
    # a broken line in the middle is not called partial
    body = runs.read_bytes().split(b"\n")
    runs.write_bytes(b"\n".join(body[:3] + [b'{"id": broken'] + body[3:-1]) + b"\n")
    assert score(tmp_path, runs) == 2
    err = capsys.readouterr().err
    assert f"{runs}:4" in err and "broken JSON line" in err and "resume" not in err


def test_a_lone_surrogate_in_the_judge_cache_names_file_and_line(tmp_path, capsys):
    runs = write_jsonl(tmp_path / "runs.jsonl", gold_runs())
    cache = tmp_path / "judge_cache.jsonl"
    cache.write_text(json.dumps({"key": "a", "model": "j", "raw": "ok", "raw_content": "ok"}) + "\n"
                     + json.dumps({"key": "b", "model": "j", "raw": "正確\udfff", "raw_content": None}) + "\n",
                     encoding="utf-8")
    rc = score(tmp_path, runs, "--judge-base-url", "http://127.0.0.1:1/v1", "--judge-model", "j",
               "--judge-cache", str(cache))
    err = capsys.readouterr().err
    assert rc == 2 and f"{cache}:2" in err and "lone surrogate" in err and "Traceback" not in err

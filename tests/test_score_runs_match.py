"""Issue 27 point 2: a runs file that does not belong to the data is loud — no match is an error naming both
files and what each holds; a large unmatched share warns on stderr and on report.html; the terminal shows every
not-scored count (stale included)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_reports_score import runs_for, write_jsonl
from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.scoring import samples


def _records():
    recs = samples.sample_records()
    finqa = [r for r in recs if r["dataset"] == "FinQA-TW"]
    conv = [r for r in recs if r["dataset"] == "ConvFinQA-TW"]
    return finqa, conv


def _score(tmp_path: Path, data_recs, lines, capsys, *extra):
    data = write_jsonl(tmp_path / "data.jsonl", data_recs)
    runs = write_jsonl(tmp_path / "runs.jsonl", lines)
    out = tmp_path / "rep"
    rc = cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(out), *extra])
    return rc, capsys.readouterr(), data, runs, out


def test_runs_of_other_data_exit_nonzero_naming_both_files(tmp_path, capsys):
    finqa, conv = _records()
    lines = [dict(x, dataset="FinQA-TW") for x in runs_for(finqa)]
    rc, cap, data, runs, out = _score(tmp_path, conv, lines, capsys, "--quiet")
    assert rc == 2
    assert str(runs) in cap.err and str(data) in cap.err
    assert "no line of the runs file" in cap.err
    assert "8 of FinQA-TW" in cap.err and "finqa_tw-test-0001" in cap.err  # what the runs lines hold
    assert "ConvFinQA-TW" in cap.err  # what the data holds
    assert not out.exists()  # nothing written


def test_an_empty_runs_file_is_an_error(tmp_path, capsys):
    finqa, _ = _records()
    rc, cap, _, runs, out = _score(tmp_path, finqa, [], capsys, "--quiet")
    assert rc == 2 and "hold no answers" in cap.err and str(runs) in cap.err and not out.exists()


def test_a_large_unmatched_share_warns_and_puts_a_banner_on_the_report(tmp_path, capsys):
    finqa, conv = _records()
    lines = runs_for(finqa + conv)
    rc, cap, _, _, out = _score(tmp_path, finqa, lines, capsys, "--quiet")  # conversation lines match nothing
    assert rc == 0
    assert "warning" in cap.err and "match no record" in cap.err and "6 of 14" in cap.err
    page = (out / "report.html").read_text(encoding="utf-8")
    assert 'class="banner"' in page and "6 / 14" in page
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert doc["issues"]["run_keys"] == 14 and doc["issues"]["unknown_run_keys"] == 6
    # a few unmatched lines (≤ 10%) do not warn
    rc, cap, _, _, out = _score(tmp_path, finqa, runs_for(finqa), capsys, "--quiet")
    assert rc == 0 and "warning" not in cap.err
    assert 'class="banner"' not in (out / "report.html").read_text(encoding="utf-8")


def test_terminal_summary_shows_stale_and_every_other_not_scored_count(tmp_path, capsys):
    finqa, _ = _records()
    lines = runs_for(finqa)
    lines[0]["messages_sha256"] = "0" * 64  # answered an older prompt: stale
    lines[1] = dict(lines[1], response=None, error="HTTP 500: boom")
    del lines[2]  # not run
    rc, cap, *_ = _score(tmp_path, finqa, lines, capsys)
    assert rc == 0
    out = cap.out
    assert "stale" in out.splitlines()[1]  # a column of the table (after the headline)
    assert "not scored: not run 1; stale (prompt changed; re-run) 1" in out
    assert "failed generations (counted wrong) 1" in out and "pending 0" in out and "missing verdict 0" in out
    assert "runs lines matching no record 0 of 7 keys" in out

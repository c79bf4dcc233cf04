"""`score` outputs for decisions: results.json, run validation (one model, no data file as runs, stale prompts),
verified gold (issue 21), per-item details, partial runs."""

from __future__ import annotations

import copy
import csv
import json
from pathlib import Path

import pytest

from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.reports import results_doc
from tw_fin_eval.scoring import engine, samples, selfcheck

_PROMPTS = engine._Prompts()


def write_jsonl(path: Path, rows) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def runs_for(records, answers=None, model="m", **extra):
    outs = selfcheck.build_outputs(records)
    outs.update(answers or {})
    by = {r["id"]: r for r in records}
    return [{"id": k[0], "turn": k[1], "model": model, "messages_sha256": _PROMPTS.sha256(by[k[0]], k[1], "gold"),
             "response": v, "reasoning": None, "finish_reason": "stop", "usage": {"prompt_tokens": 10,
             "completion_tokens": 5}, "latency_s": 0.5, "error": None, **extra} for k, v in outs.items()]


def score(tmp_path, records, lines, name="rep"):
    data = write_jsonl(tmp_path / "data.jsonl", records)
    runs = write_jsonl(tmp_path / f"runs_{name}.jsonl", lines)
    out = tmp_path / name
    rc = cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(out), "--quiet"])
    return rc, out


def test_results_json_has_provenance_and_intervals_keyed_by_config(tmp_path):
    recs = samples.sample_records()
    rc, out = score(tmp_path, recs, runs_for(recs, {("finqa_tw-test-0001", None): "答案：1"}, temperature=0.0,
                                             max_tokens=512, seed=7))
    assert rc == 0
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert doc["model"] == "m"
    assert set(doc["subsets"]) == {"finqa", "convfinqa", "finchain", "finllm450", "financeagent"}
    finqa = doc["subsets"]["finqa"]
    assert finqa["n"] == 8 and finqa["accuracy"] == pytest.approx(7 / 8)
    lo, hi = finqa["ci95"]
    assert lo <= 7 / 8 <= hi and finqa["stderr"] > 0
    assert finqa["cluster_by"] == ["item"] and doc["subsets"]["convfinqa"]["cluster_by"] == ["conversation"]
    assert doc["subsets"]["convfinqa"]["clusters"] == 2 and doc["subsets"]["finchain"]["cluster_by"] == ["template"]
    for key in ("flexible_accuracy", "truncated", "refused", "pending", "missing", "stale", "upstream_accuracy"):
        assert key in finqa
    assert doc["macro_average"]["subsets"] and 0 < doc["macro_average"]["accuracy"] <= 1
    assert doc["versions"]["python"] and "datasets" in doc["versions"]
    data_path = str(tmp_path / "data.jsonl")
    assert doc["data_sha256"][data_path] == results_doc.sha256_file(data_path)
    assert doc["generation"]["settings"] == {"temperature": 0.0, "max_tokens": 512, "seed": 7}
    assert doc["judge"] is None
    assert doc["runs"]["latency_p50_s"] == pytest.approx(0.5) and doc["runs"]["prompt_tokens"] == 10 * 24
    # every results line carries what an error analysis needs
    lines = [json.loads(x) for x in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    first = next(r for r in lines if r["id"] == "finqa_tw-test-0001")
    assert first["question"] == recs[0]["question"] and first["gold"]["answer_value"] == 94.0
    assert first["response"] == "答案：1" and first["extracted"] == "1" and first["correct"] is False
    assert {"mode", "status", "think"} <= set(first)
    rows = list(csv.DictReader((out / "summary.csv").open(encoding="utf-8")))
    assert rows[0]["model"] == "m"
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "## Accuracy with uncertainty (headline)" in report and "latency per request: p50 0.50 s" in report
    page = (out / "report.html").read_text(encoding="utf-8")
    assert 'data-chart="accuracy-by-subset"' in page and "<script" not in page and "http" not in page.split(
        'xmlns="http://www.w3.org/2000/svg"')[0]


def test_details_parquet_matches_results(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    recs = samples.sample_records()
    rc, out = score(tmp_path, recs, runs_for(recs))
    table = pq.read_table(out / "details.parquet").to_pylist()
    lines = [json.loads(x) for x in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(table) == len(lines) == 24
    for row, line in zip(table, lines):  # nulls, booleans, numbers and text survive the columnar writer
        for key in ("id", "turn", "dataset", "difficulty", "status", "correct", "upstream_correct", "step_recall",
                    "question", "response", "think", "extracted"):
            assert row[key] == line[key], key
        assert row["gold_value"] == line["gold"]["answer_value"]
    assert {r["correct"] for r in table} >= {True, None}


def test_think_is_kept_apart_from_the_response(tmp_path):
    recs = samples.sample_records()[:1]
    rc, out = score(tmp_path, recs, runs_for(recs, {("finqa_tw-test-0001", None): "<think>94?</think>答案：94"}))
    line = json.loads((out / "results.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert line["response"] == "答案：94" and line["think"] == "94?" and line["correct"] is True


def test_runs_from_two_models_are_refused(tmp_path, capsys):
    recs = samples.sample_records()
    lines = runs_for(recs, model="a")
    lines[5]["model"] = "b"
    rc, out = score(tmp_path, recs, lines)
    err = capsys.readouterr().err
    assert rc == 2 and "more than one model" in err and "'a'" in err and "'b'" in err and "runs_rep.jsonl:6 " in err
    assert not out.exists() or not any(out.iterdir())


def test_a_data_file_given_as_runs_is_refused(tmp_path, capsys):
    data = write_jsonl(tmp_path / "data.jsonl", samples.sample_records())
    rc = cli_main(["score", "--data", str(data), "--runs", str(data), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert rc == 2 and "data file" in err and f"{data}:1" in err
    runs = write_jsonl(tmp_path / "runs.jsonl", runs_for(samples.sample_records()))
    rc = cli_main(["score", "--data", str(runs), "--runs", str(runs), "--out", str(tmp_path / "o")])
    assert rc == 2 and "runs file" in capsys.readouterr().err
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())


def test_stale_prompt_lines_are_reported_and_not_scored(tmp_path):
    recs = samples.sample_records()
    lines = runs_for(recs)
    for ln in lines:
        if ln["id"] in ("finqa_tw-test-0002",) or (ln["id"] == "convfinqa_tw-dev-0001" and ln["turn"] == 1):
            ln["messages_sha256"] = "0" * 64
    rc, out = score(tmp_path, recs, lines)
    by = {(r["id"], r["turn"]): r for r in map(json.loads, (out / "results.jsonl").read_text("utf-8").splitlines())}
    assert by[("finqa_tw-test-0002", None)]["status"] == "stale" and by[("finqa_tw-test-0002", None)]["correct"] is None
    assert by[("convfinqa_tw-dev-0001", 1)]["status"] == "stale"
    assert by[("finqa_tw-test-0001", None)]["status"] == "scored"
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert doc["subsets"]["finqa"]["stale"] == 1 and doc["subsets"]["finqa"]["n"] == 7
    assert doc["issues"]["stale"] == 2
    assert "stale runs lines (prompt changed since the run; not scored, re-run them): 2" in (
        out / "report.md").read_text(encoding="utf-8")


def verified_gold_records():
    recs = copy.deepcopy(samples.sample_records()[:10])
    a, b, c = recs[0], recs[1], recs[8]  # finqa 0001 (94), finqa 0002 (14.1%), convfinqa 0001
    a["gold_status"] = "fixed"  # corrected gold 94; upstream said 49
    a["original_en"] = {**(a.get("original_en") or {}), "answer_value": 49.0, "program": "subtract(99, 50)"}
    b["gold_status"] = "unanswerable"
    c["turns"][1]["gold_status"] = "fixed"
    c["turns"][1]["original_answer_value"] = 1.0
    c["turns"][1]["original_program"] = "1"
    return recs


def test_headline_uses_corrected_gold_and_excludes_unanswerable(tmp_path):
    recs = verified_gold_records()
    rc, out = score(tmp_path, recs, runs_for(recs))  # gold answers = the corrected values
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    finqa, conv = doc["subsets"]["finqa"], doc["subsets"]["convfinqa"]
    assert finqa["n"] == 7 and finqa["accuracy"] == 1.0 and finqa["unanswerable_excluded"] == 1
    assert finqa["fixed_gold"] == 1
    assert finqa["upstream_accuracy"] == pytest.approx(7 / 8)  # all 8 units, the fixed one wrong upstream
    assert conv["accuracy"] == 1.0 and conv["upstream_accuracy"] == pytest.approx(5 / 6)
    by = {(r["id"], r["turn"]): r for r in map(json.loads, (out / "results.jsonl").read_text("utf-8").splitlines())}
    assert by[("finqa_tw-test-0001", None)]["gold_status"] == "fixed"
    assert by[("finqa_tw-test-0001", None)]["upstream_correct"] is False
    assert by[("finqa_tw-test-0001", None)]["gold"]["upstream_answer_value"] == 49.0
    assert by[("finqa_tw-test-0003", None)]["gold_status"] == "verified"  # no status: verified
    # an answer matching the upstream value is wrong in the headline and right upstream
    rc, out2 = score(tmp_path, recs, runs_for(recs, {("finqa_tw-test-0001", None): "答案：49"}), name="up")
    doc2 = json.loads((out2 / "results.json").read_text(encoding="utf-8"))
    assert doc2["subsets"]["finqa"]["accuracy"] == pytest.approx(6 / 7)
    assert doc2["subsets"]["finqa"]["upstream_accuracy"] == 1.0


def test_partial_run_leaves_unrun_subsets_out(tmp_path):
    recs = samples.sample_records()
    lines = [ln for ln in runs_for(recs) if ln["id"].startswith("finqa")]
    rc, out = score(tmp_path, recs, lines)
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert set(doc["subsets"]) == {"finqa"}
    assert doc["not_run"]["units"] == 16 and doc["not_run"]["records_subsets"]["convfinqa"] == 6
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "Partial run: 16 of 24 units were not run" in report
    assert "convfinqa_tw-dev-0001" not in report and "| FinChain-TW |" not in report


def test_check_zh_reads_the_responses_of_a_runs_file(tmp_path):
    pytest.importorskip("opencc")
    from tw_fin_eval.zhcheck.cli import check_jsonl

    recs = samples.sample_records()[:3]
    lines = runs_for(recs, {("finqa_tw-test-0001", None): "<think>先算一下</think>这个数据显示营收为 94\n答案：94",
                            ("finqa_tw-test-0002", None): "營收成長為 14.1%\n答案：14.1%"})
    lines[0]["messages"] = [{"role": "user", "content": "問題"}]  # a real runs line keeps its request too
    lines[0]["dataset"] = "FinQA-TW"
    path = write_jsonl(tmp_path / "runs.jsonl", lines)
    found = check_jsonl(path)
    assert {(i.line, i.field) for i in found} == {(1, "response")}
    assert any(i.rule == "simplified" for i in found)


def test_report_gives_the_zh_tw_purity_of_the_responses(tmp_path):
    pytest.importorskip("opencc")
    recs = samples.sample_records()[:8]
    rc, out = score(tmp_path, recs, runs_for(recs, {("finqa_tw-test-0001", None): "这个数据显示\n答案：94",
                                                    ("finqa_tw-test-0003", None): "<think>这个</think>答案：16.93%"}))
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    pur = doc["zh_purity"]
    assert pur["responses"] == 8 and pur["with_findings"] == 1  # the <think> block is not the response
    assert pur["pure_share"] == pytest.approx(7 / 8) and doc["subsets"]["finqa"]["zh_purity"]["with_simplified"] == 1
    assert "zh-TW purity: 87.5% of 8 responses" in (out / "report.md").read_text(encoding="utf-8")

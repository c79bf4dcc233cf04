"""Issue 27 point 7: `tw-fin-eval plan` — records per subset for a ±3-point 95% interval (from an earlier
results.json's design effect when given, else stated defaults) and the tokens and time of a full run."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tw_fin_eval import plan
from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.scoring import samples


def _finqa(n: int) -> list[dict]:
    return [samples.finqa(i + 1, float(i), str(i), f"第 {i} 題") for i in range(n)]


def _conv(n: int, turns: int = 4) -> list[dict]:
    return [samples.convfinqa(i + 1, [(f"問 {i}-{k}", float(k), str(k), None) for k in range(turns)]) for i in range(n)]


def _write(path: Path, recs: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8")
    return path


def _plan(tmp_path, capsys, *args) -> dict:
    assert cli_main(["plan", *args, "--json"]) == 0
    return {r["subset"]: r for r in json.loads(capsys.readouterr().out)["subsets"]}


def test_default_plan_is_the_binomial_size_with_finite_population(tmp_path, capsys):
    data = _write(tmp_path / "finqa.jsonl", _finqa(2000))
    row = _plan(tmp_path, capsys, "--data", str(data))["finqa"]
    n0 = 1.959964 ** 2 * 0.25 / 0.03 ** 2  # 1,067 units at p = 0.5, no clustering
    assert row["p"] == 0.5 and "default" in row["p_from"] and row["icc_from"] == "item clusters"
    assert abs(row["records_needed"] - n0 / (1 + n0 / 2000)) <= 1  # 696
    shape = plan.Shape("finqa", "FinQA-TW", 2000, 2000, 2000, 1.0)
    assert plan.half_width(shape, row["records_needed"], 0.5, 0.0) <= 0.03 < \
        plan.half_width(shape, row["records_needed"] - 1, 0.5, 0.0)


def test_clustered_units_need_more_and_a_results_json_measures_the_design_effect(tmp_path, capsys):
    data = _write(tmp_path / "conv.jsonl", _conv(1000))
    default = _plan(tmp_path, capsys, "--data", str(data))["convfinqa"]
    # 4 turns per conversation, ρ = 0.3: deff = 1 + 3·0.3 = 1.9 on 4 units per record
    n0 = 1.959964 ** 2 * 0.25 * 1.9 / 0.03 ** 2 / 4
    assert default["icc"] == 0.3 and default["icc_from"] == "default --icc"
    assert default["design_effect"] == pytest.approx(1.9)
    assert abs(default["records_needed"] - n0 / (1 + n0 / 1000)) <= 1
    # an earlier run: p = 0.8, and a standard error that says deff = 2.5 on its 4-unit clusters (ρ = 0.5)
    n, p = 400, 0.8
    se = math.sqrt(2.5 * p * (1 - p) / n)
    results = tmp_path / "rep" / "results.json"
    results.parent.mkdir()
    results.write_text(json.dumps({"schema": "tw_fin_eval.results/1", "subsets": {
        "convfinqa": {"accuracy": p, "stderr": se, "n": n, "clusters": 100}}}), encoding="utf-8")
    measured = _plan(tmp_path, capsys, "--data", str(data), "--results", str(results.parent))["convfinqa"]
    assert measured["p"] == pytest.approx(0.8) and measured["p_from"] == "results.json"
    assert measured["icc"] == pytest.approx(0.5) and measured["icc_from"] == "results.json design effect"
    n1 = 1.959964 ** 2 * 0.16 * 2.5 / 0.03 ** 2 / 4
    assert abs(measured["records_needed"] - n1 / (1 + n1 / 1000)) <= 1


def test_cost_of_a_full_run_scales_the_measured_usage(tmp_path, capsys):
    recs = _finqa(100)
    data = _write(tmp_path / "finqa.jsonl", recs)
    lines = [{"id": r["id"], "turn": None, "dataset": "FinQA-TW", "model": "m", "response": "答案：1", "error": None,
              "usage": {"prompt_tokens": 300, "completion_tokens": 40}, "latency_s": 2.0,
              "created": f"2026-01-01T00:00:{2 * i:02d}.000000Z"} for i, r in enumerate(recs[:10])]
    runs = _write(tmp_path / "runs.jsonl", lines)
    assert cli_main(["plan", "--data", str(data), "--runs", str(runs), "--json"]) == 0
    c = json.loads(capsys.readouterr().out)["cost"]
    (row,) = c["subsets"]
    assert (row["mean_prompt_tokens"], row["mean_completion_tokens"]) == (300, 40)
    assert (row["prompt_tokens"], row["completion_tokens"]) == (30_000, 4_000)  # × all 100 units
    assert c["throughput_rps"] == pytest.approx(0.5)  # 9 intervals over 18 s
    assert c["time_s"] == pytest.approx(200.0)
    assert cli_main(["plan", "--data", str(data), "--runs", str(runs)]) == 0
    out = capsys.readouterr().out
    assert "30,000" in out and "3 min at the measured 0.50 requests/s" in out and "±3.0 points" in out


def test_plan_rejects_bad_input(tmp_path, capsys):
    data = _write(tmp_path / "finqa.jsonl", _finqa(10))
    assert cli_main(["plan", "--data", str(data), "--half-width", "3"]) == 2
    assert "--half-width" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    assert cli_main(["plan", "--data", str(data), "--results", str(bad)]) == 2
    assert "not a tw_fin_eval results.json" in capsys.readouterr().err

"""`tw-fin-eval compare`: paired differences, McNemar, ranking, bad input."""

from __future__ import annotations

import json

import pytest

from tests.test_reports_score import runs_for, score
from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.reports import stats
from tw_fin_eval.scoring import samples


def finqa_records(n=40):
    recs = []
    for i in range(n):
        r = samples.finqa(i + 1, float(i + 10), str(i + 10), f"第 {i + 1} 題的數值是多少？")
        recs.append(r)
    return recs


@pytest.fixture()
def reports(tmp_path):
    recs = finqa_records() + [r for r in samples.sample_records() if r["dataset"] == "ConvFinQA-TW"]
    wrong_b = {(f"finqa_tw-test-{i + 1:04d}", None): "答案：0" for i in range(0, 40, 4)}  # B misses 10
    wrong_c = {(f"finqa_tw-test-{i + 1:04d}", None): "答案：0" for i in range(1, 40, 2)}  # C misses 20
    wrong_b[("finqa_tw-test-0002", None)] = "答案：11"  # B right where …
    wrong_a = {("finqa_tw-test-0002", None): "答案：0"}  # … A is wrong
    _, a = score(tmp_path, recs, runs_for(recs, wrong_a, model="model-a"), name="a")
    _, b = score(tmp_path, recs, runs_for(recs, wrong_b, model="model-b"), name="b")
    _, c = score(tmp_path, recs, runs_for(recs, wrong_c, model="model-c"), name="c")
    return a, b, c


def test_paired_difference_and_mcnemar(tmp_path, reports):
    a, b, _ = reports
    out = tmp_path / "cmp"
    assert cli_main(["compare", str(a), str(b / "results.json"), "--out", str(out), "--quiet"]) == 0
    cmp = json.loads((out / "compare.json").read_text(encoding="utf-8"))
    f = cmp["subsets"]["finqa"]
    assert f["n_paired"] == 40 and f["a"] == pytest.approx(39 / 40) and f["b"] == pytest.approx(30 / 40)
    assert f["diff"] == pytest.approx(9 / 40)
    assert (f["only_a"], f["only_b"]) == (10, 1)
    assert f["p_value"] == pytest.approx(stats.mcnemar_exact(10, 1)) and f["p_value"] < 0.05
    assert 0 < f["ci95"][0] < f["diff"] < f["ci95"][1]
    conv = cmp["subsets"]["convfinqa"]
    assert conv["diff"] == 0 and conv["p_value"] == 1.0 and conv["clusters"] == 2
    assert cmp["ranking"] is None and len(cmp["pairs"]) == 1
    md = (out / "compare.md").read_text(encoding="utf-8")
    assert "| finqa | 40 | 97.5% | 75.0% | +22.5 |" in md
    page = (out / "compare.html").read_text(encoding="utf-8")
    assert 'data-chart="diff-model-a-model-b"' in page and "<script" not in page


def test_identical_reports_give_zero_and_a_large_p(tmp_path, reports):
    a, _, _ = reports
    out = tmp_path / "same"
    assert cli_main(["compare", str(a), str(a), "--out", str(out), "--quiet"]) == 0
    cmp = json.loads((out / "compare.json").read_text(encoding="utf-8"))
    for s in cmp["subsets"].values():
        assert s["diff"] == 0 and s["ci95"] == [0.0, 0.0] and s["p_value"] == 1.0
    assert cmp["reports"][0]["label"] != cmp["reports"][1]["label"]  # same model, told apart


def test_more_than_two_reports_rank_with_intervals(tmp_path, reports):
    a, b, c = reports
    out = tmp_path / "three"
    assert cli_main(["compare", str(c), str(a), str(b), "--out", str(out), "--quiet"]) == 0
    cmp = json.loads((out / "compare.json").read_text(encoding="utf-8"))
    assert len(cmp["pairs"]) == 3
    ranked = cmp["ranking"]["finqa"]
    assert [r["model"] for r in ranked] == ["model-a", "model-b", "model-c"]
    assert all(r["ci95"][0] <= r["accuracy"] <= r["ci95"][1] for r in ranked)
    assert "macro_average" in cmp["ranking"]
    assert 'data-chart="ranking-finqa"' in (out / "compare.html").read_text(encoding="utf-8")


def test_bad_input_is_a_clear_error(tmp_path, reports, capsys):
    a, _, _ = reports
    empty = tmp_path / "empty"
    empty.mkdir()
    assert cli_main(["compare", str(a), str(empty), "--out", str(tmp_path / "x")]) == 2
    assert "missing results.json" in capsys.readouterr().err
    assert cli_main(["compare", str(a), "--out", str(tmp_path / "x")]) == 2
    assert "at least two" in capsys.readouterr().err
    (empty / "results.json").write_text("{not json", encoding="utf-8")
    (empty / "results.jsonl").write_text("", encoding="utf-8")
    assert cli_main(["compare", str(a), str(empty), "--out", str(tmp_path / "x")]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()

"""Issue 27 point 1, end to end: `run --sample` → `score` gives an accuracy that estimates the subset it names.
Stratum A (80% of the file) is always answered right, B (20%) always wrong: the subset's accuracy is 80%. The
old equal spread scored 50% and called it the subset's accuracy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.scoring import samples


def _data(tmp_path: Path) -> Path:
    recs = []
    for i in range(100):
        stratum = "A" if i < 80 else "B"
        rec = samples.finqa(i + 1, float(i + 1), str(i + 1), f"第 {i + 1} 題（{stratum}）的數值為何？")
        rec["subcategory"] = stratum
        recs.append(rec)
    path = tmp_path / "finqa.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8")
    return path


def _answer(body: dict) -> str:
    q = body["messages"][-1]["content"]
    n = q.split("第 ", 1)[1].split(" 題", 1)[0]
    return f"答案：{n}" if "（A）" in q else "答案：-1"


def _run_and_score(tmp_path: Path, capsys, name: str, *sample_args: str) -> dict:
    data = _data(tmp_path)
    runs = tmp_path / f"{name}.jsonl"
    from tw_fin_eval.testing import FakeOpenAIServer

    with FakeOpenAIServer(_answer) as srv:
        assert cli_main(["run", "--data", str(data), "--base-url", srv.url, "--model", "m", "--out", str(runs),
                         "--quiet", *sample_args]) == 0
    out = tmp_path / f"rep_{name}"
    assert cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(out), "--quiet"]) == 0
    capsys.readouterr()
    return json.loads((out / "results.json").read_text(encoding="utf-8"))["subsets"]["finqa"]


def test_a_proportional_sample_estimates_the_subset(tmp_path, capsys):
    e = _run_and_score(tmp_path, capsys, "prop", "--sample", "20")
    assert e["n"] == 20 and e["accuracy"] == pytest.approx(0.8)
    s = e["sampling"]
    assert s["method"] == "proportional" and s["sample"] == 20 and s["sample_seed"] == 0
    assert s["strata"] == {"A": {"population": 80, "sample": 16}, "B": {"population": 20, "sample": 4}}
    assert "estimates the subset" in s["estimates"]


def test_an_equal_sample_is_weighted_back_to_the_subset(tmp_path, capsys):
    e = _run_and_score(tmp_path, capsys, "equal", "--sample", "20", "--sample-allocation", "equal")
    assert e["sampling"]["strata"] == {"A": {"population": 80, "sample": 10}, "B": {"population": 20, "sample": 10}}
    assert e["unweighted_accuracy"] == pytest.approx(0.5)  # what the sample itself scored
    assert e["accuracy"] == pytest.approx(0.8)  # the subset's accuracy it estimates
    assert e["ci95"][0] <= 0.8 <= e["ci95"][1]


def test_limit_and_whole_runs_say_what_they_are(tmp_path, capsys):
    e = _run_and_score(tmp_path, capsys, "first", "--limit", "10")
    assert e["sampling"]["method"] == "first" and "does not estimate" in e["sampling"]["estimates"]
    e = _run_and_score(tmp_path, capsys, "all")
    assert e["sampling"]["method"] == "all" and e["accuracy"] == pytest.approx(0.8)


def test_the_reports_say_how_the_records_were_chosen(tmp_path, capsys):
    _run_and_score(tmp_path, capsys, "prop", "--sample", "20", "--sample-seed", "4")
    md = (tmp_path / "rep_prop" / "report.md").read_text(encoding="utf-8")
    html = (tmp_path / "rep_prop" / "report.html").read_text(encoding="utf-8")
    for text in (md, html):
        assert "proportional stratified random sample of 20 of 100 records" in text and "--sample-seed 4" in text


def test_compare_weights_an_equal_sample_back_too(tmp_path, capsys):
    from tw_fin_eval.testing import FakeOpenAIServer

    data = _data(tmp_path)
    folders = []
    def always_right(body: dict) -> str:
        return "答案：" + body["messages"][-1]["content"].split("第 ", 1)[1].split(" 題", 1)[0]

    for model, responder in (("x", _answer), ("y", always_right)):
        runs = tmp_path / f"{model}.jsonl"
        with FakeOpenAIServer(responder) as srv:
            assert cli_main(["run", "--data", str(data), "--base-url", srv.url, "--model", model, "--out", str(runs),
                             "--quiet", "--sample", "20", "--sample-allocation", "equal"]) == 0
        out = tmp_path / f"rep_{model}"
        assert cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(out), "--quiet"]) == 0
        folders.append(out)
    cmp_dir = tmp_path / "cmp"
    assert cli_main(["compare", *map(str, folders), "--out", str(cmp_dir), "--quiet"]) == 0
    capsys.readouterr()
    f = json.loads((cmp_dir / "compare.json").read_text(encoding="utf-8"))["subsets"]["finqa"]
    # x is right on stratum A (80% of the file) only, y everywhere: the subset difference is −20 points
    assert f["weighted"] is True and f["a"] == pytest.approx(0.8) and f["b"] == pytest.approx(1.0)
    assert f["diff"] == pytest.approx(-0.2)  # the unweighted sample would say −50

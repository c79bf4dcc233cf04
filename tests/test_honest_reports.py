"""Issue 27 points 3, 4 and 6: one headline everywhere (the macro average over subsets with its interval, the
pooled figure labelled as such), honest intervals with n in every breakdown row, difficulty in its declared order,
and an error analysis on report.html."""

from __future__ import annotations

import csv
import json
import re

from tests.test_reports_score import runs_for, write_jsonl
from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.scoring import samples


def _score(tmp_path, recs, lines, capsys, *extra):
    data = write_jsonl(tmp_path / "data.jsonl", recs)
    runs = write_jsonl(tmp_path / "runs.jsonl", lines)
    out = tmp_path / "rep"
    rc = cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(out), *extra])
    assert rc == 0
    cap = capsys.readouterr()
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    return doc, cap, out


def _pct(v: float) -> str:
    return f"{100 * v:.1f}%"


def test_one_headline_in_terminal_markdown_html_and_json(tmp_path, capsys):
    recs = samples.sample_records()
    lines = runs_for(recs, {("finqa_tw-test-0001", None): "答案：1", ("finqa_tw-test-0002", None): "答案：1"})
    doc, cap, out = _score(tmp_path, recs, lines, capsys)
    head = doc["headline"]
    macro = doc["macro_average"]
    assert head["metric"] == "macro_average" and head["accuracy"] == macro["accuracy"] and head["ci95"] == macro["ci95"]
    assert head["subsets"] == macro["subsets"] and "financeagent" in head["left_out"]  # pending: no judge
    assert doc["pooled"]["label"].startswith("pooled")
    text = f"{_pct(head['accuracy'])} (95% CI {_pct(head['ci95'][0])} – {_pct(head['ci95'][1])})"
    first = cap.out.splitlines()[0]
    assert first.startswith("headline: macro average over") and text in first
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "## Headline" in md and text in md.split("## Headline", 1)[1].split("##", 1)[0]
    html = (out / "report.html").read_text(encoding="utf-8")
    m = re.search(r'<p class="headline">(.*?)</p>', html, re.S)
    assert m and _pct(head["accuracy"]) in m.group(1) and _pct(head["ci95"][0]) in m.group(1)
    # the pooled figure is never shown as the overall number without its label
    assert "pooled" in cap.out and not re.search(r"^all\s", cap.out, re.M)
    assert "## Pooled over every unit (not the headline)" in md


def test_small_and_perfect_groups_get_honest_intervals_with_n(tmp_path, capsys):
    recs = samples.sample_records()
    doc, _, out = _score(tmp_path, recs, runs_for(recs), capsys, "--quiet")  # every answer right
    fin = doc["subsets"]["finchain"]
    lo, hi = fin["ci95"]
    assert fin["accuracy"] == 1.0 and hi == 1.0 and lo < 0.9  # 5 of 5: not [100%, 100%]
    for dim, groups in fin["breakdowns"].items():
        for g in groups:
            assert g["n"] >= 1 and g["ci95"][0] < 1.0, (dim, g)  # Wilson: 1 of 1 right is [20.7%, 100%]
    assert [g["group"] for g in fin["breakdowns"]["difficulty"]] == ["基礎", "中級"]  # declared order, not 中 < 基
    html = (out / "report.html").read_text(encoding="utf-8")
    section = html.split("finchain：依難度", 1)[1].split("<h2>", 1)[0]
    assert section.index("基礎") < section.index("中級") and "n=4" in section and "n=1" in section
    rows = [r for r in csv.DictReader((out / "summary.csv").open(encoding="utf-8")) if r["dimension"] == "difficulty"]
    assert [r["group"] for r in rows] == ["基礎", "中級"]


def test_error_analysis_names_why_each_answer_is_wrong(tmp_path, capsys):
    recs = [r for r in samples.sample_records() if r["dataset"] == "FinQA-TW"]
    wrong = {("finqa_tw-test-0001", None): "答案：-94",              # gold 94: the sign
             ("finqa_tw-test-0005", None): "答案：120000",           # gold 120,000,000: off by 1,000 (unit/scale)
             ("finqa_tw-test-0007", None): "答案：無法判斷",          # a refusal
             ("finqa_tw-test-0003", None): "這題要先看表格再說明。",  # no answer, no refusal: format
             ("finqa_tw-test-0002", None): "答案：25%"}              # gold 14.1%: a wrong value
    lines = runs_for(recs, wrong)
    for x in lines:
        if x["id"] == "finqa_tw-test-0004":
            x.update(response="先算 2006 年的餘額，再", finish_reason="length")  # cut off: truncated
    _, _, out = _score(tmp_path, recs, lines, capsys, "--quiet")
    kinds = {json.loads(x)["id"]: json.loads(x).get("failure_kind")
             for x in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()}
    assert kinds == {"finqa_tw-test-0001": "sign", "finqa_tw-test-0005": "unit/scale",
                     "finqa_tw-test-0007": "refused", "finqa_tw-test-0003": "format",
                     "finqa_tw-test-0002": "wrong value", "finqa_tw-test-0004": "truncated",
                     "finqa_tw-test-0006": None, "finqa_tw-test-0008": None}
    html = (out / "report.html").read_text(encoding="utf-8")
    section = html.split('id="errors-finqa"', 1)[1].split("<h2", 1)[0]
    for kind in ("sign", "unit/scale", "refused", "format", "wrong value", "truncated"):
        assert kind in section
    assert "2015 年淨營收較 2014 年增加多少" in section  # the question
    assert "答案：-94" in section or "-94" in section  # the model's answer line
    assert 'href="details.parquet"' in html

"""Issue 27 point 5: compare carries the decision — the macro-average difference with its interval and p-value
first, a plain sentence on who is ahead and whether it is significant, Holm-adjusted p-values over subsets × pairs
(method stated), generation settings as a table; and (point 1) equal-allocation samples are weighted back."""

from __future__ import annotations

import json
import re

import pytest

from tests.test_reports_compare import finqa_records
from tests.test_reports_score import runs_for, score
from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.scoring import samples, stats


def _reports(tmp_path, wrong_a, wrong_b, **settings):
    recs = finqa_records() + [r for r in samples.sample_records() if r["dataset"] == "ConvFinQA-TW"]
    _, a = score(tmp_path, recs, runs_for(recs, wrong_a, model="model-a", temperature=0.0, **settings), name="a")
    _, b = score(tmp_path, recs, runs_for(recs, wrong_b, model="model-b", temperature=0.7, **settings), name="b")
    return a, b


def _compare(tmp_path, *reports):
    out = tmp_path / "cmp"
    assert cli_main(["compare", *map(str, reports), "--out", str(out), "--quiet"]) == 0
    return (json.loads((out / "compare.json").read_text(encoding="utf-8")),
            (out / "compare.html").read_text(encoding="utf-8"), (out / "compare.md").read_text(encoding="utf-8"))


def test_compare_leads_with_the_macro_difference_and_a_plain_verdict(tmp_path):
    wrong_b = {(f"finqa_tw-test-{i + 1:04d}", None): "答案：0" for i in range(0, 40, 2)}  # B misses 20 of 40
    a, b = _reports(tmp_path, {}, wrong_b, max_tokens=512)
    cmp, page, md = _compare(tmp_path, a, b)
    (pair,) = cmp["pairs"]
    mac = pair["macro_average"]
    assert mac["diff"] == pytest.approx(0.25)  # finqa +50 points, convfinqa 0: macro +25
    assert mac["p_value"] == pytest.approx(stats.normal_p(mac["diff"], mac["stderr"])) and mac["p_value"] < 0.05
    assert pair["verdict"].startswith("model-a is ahead of model-b by 25.0 points on the macro average over 2 subsets")
    assert "significant at the 5% level" in pair["verdict"] and "not significant" not in pair["verdict"]
    # the page opens with the decision: the verdict and the macro row come before any per-subset table or chart
    first_table = page.index("<table")
    assert page.index('class="verdict"') < first_table < page.index("<svg")
    assert "巨觀平均（macro average）" in page[first_table:page.index("</table>", first_table)]
    assert "+25.0 pt" in page[first_table:page.index("</table>", first_table)]
    assert pair["verdict"] in page.replace("&#x27;", "'") and f"**{pair['verdict']}**" in md
    # Holm over subsets × pairs, stated
    ps = [s["p_value"] for s in pair["subsets"].values()]
    assert [s["p_holm"] for s in pair["subsets"].values()] == pytest.approx(stats.holm(ps))
    assert all(s["p_holm"] >= s["p_value"] for s in pair["subsets"].values())
    assert "Holm" in cmp["method"]["multiple_comparisons"] and "Holm" in page and "p (Holm)" in md
    # generation settings: a table row per setting, one column per report — never a Python dict
    assert "{'temperature'" not in page and "{&#x27;temperature" not in page
    row = re.search(r"<tr><td>temperature</td><td>([^<]*)</td><td>([^<]*)</td></tr>", page)
    assert row and row.groups() == ("0.0", "0.7")
    assert re.search(r"<tr><td>max_tokens</td><td>512</td><td>512</td></tr>", page)


def test_a_small_difference_is_called_not_significant(tmp_path):
    a, b = _reports(tmp_path, {}, {("finqa_tw-test-0001", None): "答案：0"})
    cmp, page, _ = _compare(tmp_path, a, b)
    verdict = cmp["pairs"][0]["verdict"]
    assert verdict.startswith("model-a is ahead of model-b by 1.2 points") and "not significant" in verdict
    assert "interval includes 0" in verdict


def test_holm_runs_over_every_pair(tmp_path):
    wrong_b = {(f"finqa_tw-test-{i + 1:04d}", None): "答案：0" for i in range(0, 40, 4)}
    a, b = _reports(tmp_path, {}, wrong_b)
    recs = finqa_records() + [r for r in samples.sample_records() if r["dataset"] == "ConvFinQA-TW"]
    _, c = score(tmp_path, recs, runs_for(recs, {(f"finqa_tw-test-{i + 1:04d}", None): "答案：0"
                                                for i in range(1, 40, 2)}, model="model-c"), name="c")
    cmp, _, _ = _compare(tmp_path, a, b, c)
    tests = [s for p in cmp["pairs"] for s in p["subsets"].values()]
    assert len(tests) == 6
    assert [s["p_holm"] for s in tests] == pytest.approx(stats.holm([s["p_value"] for s in tests]))
    macros = [p["macro_average"] for p in cmp["pairs"]]
    assert [m["p_holm"] for m in macros] == pytest.approx(stats.holm([m["p_value"] for m in macros]))
    assert all("Holm-adjusted over the 3 pairs" in p["verdict"] for p in cmp["pairs"])


def test_holm_and_wilson_reference_values():
    assert stats.holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert stats.holm([0.5]) == [0.5]
    lo, hi = stats.wilson(3, 3)
    assert (round(lo, 4), hi) == (0.4385, 1.0)
    lo, hi = stats.wilson(0, 10)
    assert (lo, round(hi, 4)) == (0.0, 0.2775)
    lo, hi = stats.wilson(50, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.4038, 0.5962)

"""The self-check: gold answers written as model outputs score 100%; a seeded 10% corruption drops the
score by the corrupted share, with only tolerance-legitimate survivors."""

from __future__ import annotations

import random

import pytest

from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.scoring import model_outputs, samples, scorers, selfcheck


def synthetic_finqa(n: int = 400, seed: int = 7) -> list[dict]:
    """FinQA-like records over every scale the real set has: percentages (fractions and points), money in
    millions and in units, negatives, tiny values, zeros, yes/no."""
    rng = random.Random(seed)
    recs = []
    for i in range(1, n + 1):
        kind = i % 8
        if kind == 0:
            v = rng.uniform(-0.6, 1.5)
            recs.append(samples.finqa(i, round(v, 5), f"{100 * v:.1f}%", "營收的成長率為何？"))
        elif kind == 1:
            v = rng.uniform(1, 60)
            recs.append(samples.finqa(i, round(v, 5), f"{v:.2f}%", "佔總額的百分比為何？"))  # gold in points
        elif kind == 2:
            recs.append(samples.finqa(i, float(rng.randint(-9000, 90000)), None, "增加了多少（百萬美元）？"))
        elif kind == 3:
            recs.append(samples.finqa(i, round(rng.uniform(1e6, 5e9), 2), None, "總金額為多少元？"))
        elif kind == 4:
            recs.append(samples.finqa(i, round(rng.uniform(0.5, 40), 3), None, "平均每股股利為何？"))
        elif kind == 5:
            yn = rng.choice(["yes", "no"])
            recs.append(samples.finqa(i, None, yn, "是否增加？", text=yn))
        elif kind == 6:
            recs.append(samples.finqa(i, round(rng.uniform(-5000, -1), 1), None, "淨變動為何？"))
        else:
            recs.append(samples.finqa(i, 0.0 if i % 3 == 0 else round(rng.uniform(0.001, 0.02), 4), None, "比值為何？"))
    for r in recs:
        if r["answer"] is None:
            r["answer"] = r["answer_text"] or model_outputs.plain(r["answer_value"])
    return recs


def test_samples_gold_is_100_percent():
    res = selfcheck.run_selfcheck(samples.sample_records())
    ruled = [it for it in res["gold"].items if scorers.SCORERS[it.task_type].rule_scored]
    assert ruled and all(it.status == scorers.SCORED and it.correct for it in ruled)
    conv = [it for it in res["gold"].items if it.task_type == "conversation_numeric"]
    assert len(conv) == 6
    # every step the gold solution computes is found; a step whose value is a number of the question
    # (「風險評分 72 分」) cannot show work and is left out (None when no step is left)
    cot = {it.id: it for it in res["gold"].items if it.task_type == "numeric_cot"}
    assert all(it.step_recall in (1.0, None) for it in cot.values())
    assert cot["finchain_tw-0002"].step_recall == 1.0 and cot["finchain_tw-0003"].step_recall is None


def test_gold_formats_are_varied_and_realistic():
    recs = synthetic_finqa()
    outs = selfcheck.build_outputs(recs)
    text = "\n".join(outs.values())
    for needle in ("<think>", "\\boxed{", "**答案**", "億元", "萬元", "百萬美元", "NT$", "%", "Answer:", "１"):
        assert needle in text, needle
    res = selfcheck.run_selfcheck(recs)
    gold = res["gold"].items
    assert all(it.correct for it in gold)
    modes = {it.mode for it in gold}
    assert modes == {"strict"}  # every gold form has its 「答案：」 line (\\boxed{} inside it)
    assert any(it.match_path == "bare_numeral" for it in gold)  # the unit-restating path is exercised
    assert any(it.match_path == "percent" for it in gold)


def test_corruption_drop_is_the_corrupted_share():
    recs = synthetic_finqa()
    res = selfcheck.run_selfcheck(recs, share=0.10, seed=0)
    assert len(res["chosen"]) == 40
    by = {(it.id, it.turn): it for it in res["corrupted"].items}
    survivors = [k for k in res["chosen"] if by[k].correct]
    # only corruptions the tolerance legitimately accepts survive (a zero stays zero under ×1.1 or a sign
    # flip; tiny values within the absolute tolerance)
    for k in survivors:
        g = next(r for r in recs if r["id"] == k[0])["answer_value"]
        assert g is not None and abs(g) <= 0.05, (k, g, res["chosen"][k])
    assert len(survivors) <= 4
    acc = sum(it.correct for it in res["corrupted"].items) / len(recs)
    assert acc == pytest.approx(0.90 + len(survivors) / len(recs))
    # every unchosen item is unchanged and right
    assert all(by[(r["id"], None)].correct for r in recs if (r["id"], None) not in res["chosen"])
    kinds = {kind for kind, _ in res["chosen"].values()}
    assert {"times_1.1", "leading_digit", "times_10", "sign", "flip_yes_no"} <= kinds


def test_corruption_is_deterministic():
    recs = synthetic_finqa(120)
    a = selfcheck.run_selfcheck(recs, seed=3)["chosen"]
    b = selfcheck.run_selfcheck(recs, seed=3)["chosen"]
    c = selfcheck.run_selfcheck(recs, seed=4)["chosen"]
    assert a == b and a != c


def test_finchain_generated_records_score_100():
    gen = pytest.importorskip("finchain_tw_templates.generate")
    recs = gen.generate_records(seeds=1)
    if not recs:
        pytest.skip("no FinChain templates registered yet")
    res = selfcheck.run_selfcheck(recs)
    wrong = [(it.id, it.extracted) for it in res["gold"].items if not it.correct]
    assert not wrong
    recalls = [it.step_recall for it in res["gold"].items if it.step_recall is not None]
    assert sum(recalls) / len(recalls) >= 0.95


def test_selfcheck_command(tmp_path, capsys, monkeypatch):
    assert cli_main(["selfcheck", "--samples", "--out", str(tmp_path / "rep")]) == 0
    out = capsys.readouterr().out
    assert "FinQA-TW" in out and "100.0%" in out and "OK:" in out
    assert (tmp_path / "rep" / "report.md").is_file()
    # a scorer that cannot read a gold format makes the self-check fail
    monkeypatch.setattr(selfcheck, "gold_output", lambda rec, turn: "答案：？")
    assert cli_main(["selfcheck", "--samples"]) == 1


def test_selfcheck_without_data_is_a_clear_error(tmp_path, capsys, monkeypatch):
    from tw_fin_eval import paths

    monkeypatch.setattr(paths, "DATA_DIR", tmp_path)
    assert cli_main(["selfcheck"]) == 2
    assert "tw-fin-eval build" in capsys.readouterr().err


def test_selfcheck_reads_data_files(tmp_path, capsys):
    from tw_fin_eval.jsonl import write_jsonl

    write_jsonl(tmp_path / "finqa_tw_test.jsonl", synthetic_finqa(50))
    assert cli_main(["selfcheck", "--data", str(tmp_path / "*.jsonl")]) == 0
    assert "50 records" in capsys.readouterr().out


def test_selfcheck_on_built_data():
    """On the real records (CI builds data/ before the tests): every rule-scored subset 100% on its gold
    answers, and every numeric answer made 10% too high is rejected for all but a few percent."""
    from tw_fin_eval import paths
    from tw_fin_eval.scoring import engine

    files = sorted(paths.DATA_DIR.glob("*.jsonl"))
    if not files:
        pytest.skip("data/ not built")
    recs = engine.load_records(files, engine.Issues())
    if not recs:
        pytest.skip("data/ is empty")
    res = selfcheck.run_selfcheck(recs)
    wrong = [(it.id, it.turn, it.extracted) for it in res["gold"].items
             if scorers.SCORERS[it.task_type].rule_scored and not it.correct]
    assert not wrong, wrong[:10]
    off = [it for it in res["off10"].items if (it.id, it.turn) in res["off10_keys"]]
    assert off and sum(it.correct for it in off) / len(off) < 0.03

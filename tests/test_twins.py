"""Contamination-resistant twins (issue 31): numerals, identities, twins of real items, checks, the command."""

from __future__ import annotations

import copy
import json
from decimal import Decimal

import pytest

from tw_fin_eval import paths, prompts
from tw_fin_eval.twins import build, checks, identities, numerals
from tw_fin_eval.twins.cli import make_twins
from tw_fin_eval.verification.program import execute

D = Decimal


def _data(name: str) -> dict[str, dict]:
    path = paths.DATA_DIR / name
    if not path.is_file():
        pytest.skip(f"data/{name} not built")
    return {r["id"]: r for r in (json.loads(line) for line in path.open(encoding="utf-8"))}


@pytest.fixture(scope="module")
def finqa() -> dict[str, dict]:
    return _data("finqa_tw_test.jsonl")


@pytest.fixture(scope="module")
def convfinqa() -> dict[str, dict]:
    return _data("convfinqa_tw_dev.jsonl")


# ---- numerals ---------------------------------------------------------------------------------------------
def test_value_aware_replacement_restates_yi_and_wan():
    text = "現金流量避險分別為 1.537 億美元及 1.399 億美元；另有 2,900 萬美元。"
    new, n = numerals.replace(text, {D("153.7"): D("161.2"), D("139.9"): D("120.4"), D("29"): D("33")})
    assert n == 3
    assert new == "現金流量避險分別為 1.612 億美元及 1.204 億美元；另有 3,300 萬美元。"


def test_dates_periods_and_names_are_not_amounts():
    text = "截至 2015 年 12 月 31 日，第 3 季為 31，Q3 為 31.5"
    new, n = numerals.replace(text, {D("31"): D("35"), D("3"): D("4"), D("2015"): D("2016")})
    assert new == "截至 2015 年 12 月 31 日，第 3 季為 35，Q3 為 31.5" and n == 1
    en, _ = numerals.replace("at december 31 , 2016 we had $ 31 million over 3 years", {D("31"): D("35"), D("3"): D("4")},
                             english=True)
    assert en == "at december 31 , 2016 we had $ 35 million over 3 years"


def test_grouping_and_decimals_kept():
    assert numerals.replace("$ 5,829 與 60.90", {D("5829"): D("6112"), D("60.9"): D("58.1")})[0] == "$ 6,112 與 58.10"


# ---- identities on synthetic tables -------------------------------------------------------------------------
TABLE = [["", "合計", "2009 年", "2010 年", "變動", "%"],
         ["甲", "$ 330", "$ 120", "$ 210", "$ 90", "75.0%"],
         ["乙", "95", "40", "55", "15", "37.5%"],
         ["丙", "-17 ( 17 )", "( 5 )", "-12 ( 12 )", "-7 ( 7 )", "-140.0%"],
         ["總計", "$ 408", "$ 155", "$ 253", "$ 98", "63.2%"]]


def test_detects_totals_left_and_below_and_change_columns():
    idents = identities.detect(identities.grid(TABLE))
    found = {(i.kind, i.result) for i in idents}
    assert ("sum", (4, 1)) in found and ("sum", (4, 2)) in found  # total row
    # the total column on the left: 合計 = 2009 + 2010 (read as a sum or as 2010 = 合計 − 2009: one relation)
    assert all(any(set((i.result, *i.parts)) == {(r, 1), (r, 2), (r, 3)} for i in idents) for r in (1, 2, 3))
    assert ("pct_change", (2, 5)) in found  # percent change column
    assert any(set((i.result, *i.parts)) == {(2, 2), (2, 3), (2, 4)} for i in idents)  # change column
    assert identities.amount("( 5 )").value == -5 and identities.amount("-12 ( 12 )").value == -12


def test_no_identity_in_a_table_that_does_not_add_up():
    table = [["", "2015", "2014"], ["a", "117", "230"], ["b", "45", "391"], ["c", "200", "7"]]
    assert identities.detect(identities.grid(table)) == []


def _synthetic_record(table, program, question, answer_value):
    evidence = ["甲的金額如表所示。"]
    rec = {"id": "finqa_tw-test-9999", "dataset": "FinQA-TW", "task_type": "numeric", "question": question,
           "context": {"table": table, "evidence": evidence, "setting": "gold_evidence"},
           "answer": display(answer_value), "answer_value": answer_value, "answer_text": None, "program": program,
           "messages": prompts.numeric_messages(question, table, evidence),
           "original_en": {"question": "q", "table": copy.deepcopy(table), "evidence": [{"key": "text_0",
                           "text": "a is as shown."}], "answer": display(answer_value), "answer_value": answer_value,
                           "answer_text": None, "program": program},
           "meta": {"translation": "t", "review_status": "unreviewed", "version": "0"},
           "gold_status": "verified", "gold_reason": None}
    return rec


def display(v: float) -> str:
    return f"{v:g}"


def test_twin_of_a_synthetic_table_keeps_every_total():
    rec = _synthetic_record(TABLE, "divide(155, 408)", "2009 年占總計的比例？", 0.3799)
    tw = build.twin(rec, 5)
    g = identities.grid(tw["context"]["table"])
    for ident in identities.detect(identities.grid(TABLE)):
        v = ident.compute({c: g[c].value for c in ident.parts})
        tol = D(1).scaleb(-g[ident.result].places) / 2
        assert abs(abs(v) - abs(g[ident.result].value)) <= tol, ident
    assert checks.problems(rec, tw) == []
    assert tw["answer_value"] != rec["answer_value"]
    assert tw["answer_value"] == round(float(execute(tw["program"], tw["original_en"]["table"])), 5)
    olds = {p["original"] for p in tw["perturbation"]}
    assert {"155", "408"} <= olds and all(p["original"] != p["new"] for p in tw["perturbation"])


# ---- real items ---------------------------------------------------------------------------------------------
def test_real_bridge_table_twin(finqa):
    rec = finqa["finqa_tw-test-0001"]  # 2014 net revenue + changes = 2015 net revenue
    tw = build.twin(rec, 11)
    assert tw["id"] == "finqa_tw-test-0001-twin-s11" and tw["twin_of"] == {"id": rec["id"], "turn": None}
    assert tw["twin_seed"] == 11 and tw["dataset"] == "FinQA-TW-twins"
    table = tw["context"]["table"]
    col = [identities.amount(r[1]).value for r in table[1:]]
    assert sum(col[:-1]) == col[-1]  # the bridge still adds up
    assert not any(x in tw["messages"][1]["content"] for x in ("5829", "5735", "5,829", "5,735"))
    a, b = (p["new"] for p in tw["perturbation"] if p["original"] in ("5829",)), \
        (p["new"] for p in tw["perturbation"] if p["original"] in ("5735",))
    assert tw["program"] == f"subtract({next(a)}, {next(b)})"
    assert tw["answer_value"] == float(execute(tw["program"]))
    assert tw["answer_value"] != 94.0  # a memorised 94 is now wrong
    content = tw["messages"][1]["content"]  # the table prints its amounts with thousands separators
    assert all(p["new"] in content or f"{int(p['new']):,}" in content for p in tw["perturbation"])


def test_real_yi_restatement_changes_with_its_value(finqa):
    rec = finqa["finqa_tw-test-0003"]  # 「1.537 億美元及 1.399 億美元」 restate 153.7 and 139.9 (millions)
    tw = build.twin(rec, 3)
    new = {p["original"]: p["new"] for p in tw["perturbation"]}
    text = tw["context"]["evidence"][0]
    for old in ("153.7", "139.9"):
        yi = numerals.plain(D(new[old]) / 100)
        assert f"{yi} 億美元" in text and f"{numerals.plain(D(old) / 100)} 億美元" not in text
    assert f"$ {new['153.7']} million" in tw["original_en"]["evidence"][0]["text"]
    assert checks.zh_findings(tw) == []


def test_real_total_with_dash_cells(finqa):
    rec = finqa["finqa_tw-test-0007"]  # total recourse debt = 463 + — + — + 497 + 500 + 3152
    tw = build.twin(rec, 1)
    cells = [identities.amount(r[1]) for r in tw["context"]["table"][1:]]
    values = [c.value if c is not None else D(0) for c in cells]
    dash = [r[1].strip() in ("2014", "—") for r in tw["context"]["table"][1:]]
    assert sum(v for v, d in zip(values[:-1], dash[:-1]) if not d) == values[-1]
    assert checks.problems(rec, tw) == []


def test_conversation_perturbed_consistently(convfinqa):
    rec = convfinqa["convfinqa_tw-dev-0001"]
    tw = build.twin(rec, 2)
    new = {p["original"]: p["new"] for p in tw["perturbation"]}
    turns = tw["turns"]
    assert turns[0]["program"] == new["60.94"] and turns[1]["program"] == new["25.14"]
    assert turns[2]["program"] == f"subtract({new['60.94']}, {new['25.14']})"
    assert [t["twin_of"] for t in turns] == [{"id": rec["id"], "turn": k} for k in range(len(turns))]
    for t in turns:
        assert t["answer_value"] == round(float(execute(t["program"])), 5)
    assert turns[4]["answer"].endswith("%")  # written like the original 「142.4%」
    assert tw["first_user_prefix"] == prompts.conversation_parts(tw["context"]["table"], tw["context"]["evidence"])[1]
    assert "60.94" not in tw["first_user_prefix"] and new["60.94"] in tw["first_user_prefix"]


# ---- checks reject ----------------------------------------------------------------------------------------
def test_checks_reject_a_wrong_gold_and_a_leftover_original(finqa):
    rec = finqa["finqa_tw-test-0001"]
    tw = build.twin(rec, 11)
    bad = copy.deepcopy(tw)
    bad["answer_value"] = 94.0
    assert any("executes to" in p for p in checks.problems(rec, bad))
    bad = copy.deepcopy(tw)
    bad["context"]["evidence"][0] = rec["context"]["evidence"][0]
    found = checks.problems(rec, bad)
    assert any("still in the prompt" in p for p in found) and any("messages" in p for p in found)
    bad = copy.deepcopy(tw)
    bad["context"]["table"][2][1] = "999"  # a part changed alone: the bridge no longer adds up
    assert any("identity" in p for p in checks.problems(rec, bad))


def test_unanswerable_and_unread_gold_are_skipped(finqa):
    rec = next(r for r in finqa.values() if r["gold_status"] == "unanswerable")
    with pytest.raises(build.Skip, match="unanswerable"):
        build.twin(rec, 1)
    with pytest.raises(build.Skip, match="not verified"):
        build.twin(dict(rec, gold_status=None), 1)


# ---- the command ------------------------------------------------------------------------------------------
def test_seeded_and_deterministic(finqa):
    recs = [finqa[f"finqa_tw-test-{i:04d}"] for i in range(1, 31)]
    a, cov = make_twins(recs, 9)
    b, _ = make_twins(recs, 9)
    c, _ = make_twins(recs, 10)
    assert a == b and [t["answer_value"] for t in a] != [t["answer_value"] for t in c]
    assert cov["twinned_records"] == len(a) and cov["scored_units"] == sum(
        r["gold_status"] in ("verified", "fixed") for r in recs)
    assert sum(s["records"] for s in cov["skipped"]) + len(a) == len(recs)


def test_cli_writes_twins_and_coverage(tmp_path, finqa, capsys):
    from tw_fin_eval.cli import main

    data = tmp_path / "in.jsonl"
    data.write_text("".join(json.dumps(finqa[f"finqa_tw-test-{i:04d}"], ensure_ascii=False) + "\n"
                            for i in range(1, 21)), encoding="utf-8")
    assert main(["twins", "--config", "finqa", "--seed", "3", "--out", str(tmp_path / "out"), "--data", str(data)]) == 0
    out = capsys.readouterr().out
    assert "records twinned" in out and "verified/fixed units" in out
    lines = (tmp_path / "out" / "finqa_twins.jsonl").read_text(encoding="utf-8").splitlines()
    cov = json.loads((tmp_path / "out" / "finqa_twins_coverage.json").read_text(encoding="utf-8"))
    assert len(lines) == cov["twinned_records"] > 10
    assert main(["twins", "--config", "convfinqa", "--seed", "3", "--out", str(tmp_path / "o2"),
                 "--data", str(data)]) == 2  # FinQA records are not ConvFinQA records
    assert main(["twins", "--config", "finqa", "--seed", "-1", "--out", str(tmp_path / "o3")]) == 2


def test_operands_keep_their_order_and_every_twin_passes_its_checks(finqa, convfinqa):
    """「增加」 between two years stays an increase: no twin reorders its operands; every written twin passes
    checks.problems and check-zh (re-run here on the first 150 items and 40 conversations)."""
    from tw_fin_eval.twins.cli import make_twins

    recs = list(finqa.values())[:150] + list(convfinqa.values())[:40]
    made = make_twins([r for r in recs if not r.get("turns")], 13)[0] + make_twins([r for r in recs if r.get("turns")],
                                                                                    13)[0]
    assert len(made) > 140
    by_id = {r["id"]: r for r in recs}
    for tw in made:
        ops = [(D(p["original"]), D(p["new"])) for p in tw["perturbation"] if p["kind"] == "operand"]
        assert all((a[0] - b[0]) * (a[1] - b[1]) > 0 for i, a in enumerate(ops) for b in ops[i + 1:]), tw["id"]
        assert checks.problems(by_id[tw["twin_of"]["id"]], tw) == [] and checks.zh_findings(tw) == []

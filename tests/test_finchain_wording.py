"""FinChain-TW wording and magnitudes after register review 2 (patterns 2, 6, 7 and the template findings):
one rounding wording in every question (written by common.ask, read back by the generator and the scorer),
one beta term, and amounts that fit the company named — over many seeds of every template, so a template
that drifts back fails here."""

from __future__ import annotations

import functools
import random
import re

import pytest

from finchain_tw_templates import common, realism
from finchain_tw_templates.common import Chain, ask, asked_decimals, nonstandard_rounding
from finchain_tw_templates.core import REGISTRY, Problem
from finchain_tw_templates.generate import ordered_specs, run_template
from tw_fin_eval.answers.match import stated_decimals

SEEDS = range(100)
_STANDARD = re.compile(r"四捨五入至(?:小數點後第 (\d) 位|整數)")
_NTD = re.compile(r"NT\$(\d[\d,]*(?:\.\d+)?)")


@functools.lru_cache(maxsize=1)
def problems() -> tuple[tuple[str, int, Problem], ...]:
    return tuple((spec.template_id, seed, run_template(spec, seed)) for spec in ordered_specs() for seed in SEEDS)


def _run(template_id: str, seed: int) -> Problem:
    return REGISTRY[template_id].func(random.Random(f"{template_id}:{seed}"))


def _ntd_amounts(text: str) -> list[float]:
    return [float(x.replace(",", "")) for x in _NTD.findall(text)]


# ---------------------------------------------------------------- the helper and the guard accept and reject


def test_ask_writes_the_one_wording():
    assert ask(2, "百分比") == common.ASK_PCT == "（請以百分比表示，四捨五入至小數點後第 2 位）"
    assert ask(0, "新臺幣元") == common.ASK_MONEY_INT == "（請以新臺幣元表示，四捨五入至整數）"
    assert ask(2, "百分比", "虧損時為負值") == "（請以百分比表示，四捨五入至小數點後第 2 位，虧損時為負值）"
    assert ask(4) == "（四捨五入至小數點後第 4 位）"
    assert ask(2, note="增加成本時為負值") == "（四捨五入至小數點後第 2 位，增加成本時為負值）"
    with pytest.raises(ValueError):
        ask(-1)
    for d in (0, 1, 2, 4):
        for unit in (None, "百分比", "新臺幣元", "美元", "股數"):
            q = "請問？" + ask(d, unit, "虧損時為負值")
            assert nonstandard_rounding(q) is None and asked_decimals(q) == d
            assert stated_decimals({"question": q}) == d  # the scorer reads the same wording


@pytest.mark.parametrize("bad", [
    "（以百分比表示，取到小數第二位）", "（取到小數第四位）", "（四捨五入至整數元）", "（四捨五入至整數股）",
    "（小數第二位）", "（無條件捨去至整數）", "（計算至小數點後 2 位）", "（取至整數）",
])
def test_other_rounding_wordings_are_rejected(bad):
    assert nonstandard_rounding("請問淨利是多少？" + bad) is not None
    assert realism.rounding_not_standard({"question": "請問？" + bad, "answer_type": "numeric"})
    c = Chain()
    c.add("淨利", 1.5, "1 + 0.5")
    with pytest.raises(ValueError, match="ask"):
        c.numeric("請問淨利是多少？" + bad, 1.5, "1.50")


def test_clean_questions_pass_the_guard():
    for q in ("（請以新臺幣元表示，四捨五入至整數，虧損時為負值）", "（不計手續費，單位數可為小數）。" + common.ASK_NUM,
              "請計算淨利。", "（負債總額 ÷ 權益總額，以倍數表示，四捨五入至小數點後第 2 位）"):
        assert nonstandard_rounding(q) is None, q


def test_beta_and_magnitude_checks_flag_the_bad_form_only():
    bad = {"question": "該公司股票的貝他值為 1.20", "solution": "步驟 1：x = 1"}
    good = {"question": "該公司股票的貝他係數為 1.20", "solution": "步驟 1：有槓桿貝他係數 = 1"}
    assert realism.beta_not_glossary_term(bad) and not realism.beta_not_glossary_term(good)
    assert realism.beta_not_glossary_term({"question": "無槓桿貝他係數（資產貝他）", "solution": ""})
    small = {"question": "澄嶺精密投入 NT$870,000 購買一塊土地，預計 3 年後以 NT$1,200,000 出售。"}
    large = {"question": "澄嶺精密投入 NT$87,000,000 購買一塊土地，預計 3 年後以 NT$120,000,000 出售。"}
    per_unit = {"question": "澄嶺精密公司債面額 NT$1,000，票面利率 2%。"}
    machine = {"question": "澄嶺精密公司購入一部機器設備，成本 NT$1,500,000。"}
    assert realism.company_deal_too_small(small) and not realism.company_deal_too_small(large)
    assert not realism.company_deal_too_small(per_unit) and not realism.company_deal_too_small(machine)


# ---------------------------------------------------------------- every template, many seeds


def test_every_numeric_question_states_its_rounding_once_in_the_standard_wording():
    for tid, seed, p in problems():
        q = p.question
        assert "取到小數" not in q and "整數元" not in q and "整數股" not in q, (tid, seed)
        assert nonstandard_rounding(q) is None, (tid, seed, q)
        if p.answer_type != "numeric":
            continue
        clauses = _STANDARD.findall(q)
        assert len(clauses) == 1, (tid, seed, q)
        d = int(clauses[0]) if clauses[0] else 0
        assert d == p.answer_decimals == asked_decimals(q), (tid, seed)
        # the scorer, given only the question (no answer_decimals), reads the same decimals
        assert stated_decimals({"question": q, "answer": p.answer_display}) == d, (tid, seed)
        shown = p.answer_display.rstrip("%")
        assert (len(shown.split(".")[1]) if "." in shown else 0) == d, (tid, seed, p.answer_display)


def test_one_beta_term_everywhere():
    found = 0
    for tid, seed, p in problems():
        text = p.question + p.solution + "".join(s.label for s in p.steps)
        assert "貝他值" not in text and not re.search(r"貝他(?!係數)", text), (tid, seed)
        found += "貝他係數" in text
    assert found >= 10 * len(SEEDS)  # the ten beta templates still say 貝他係數


def test_perpetual_bond_and_carbon_buffer_wording():
    for seed in SEEDS:
        q = _run("capital_structure_intermediate1", seed).question
        assert "無到期日公司債" in q and "永續公司債" not in q
        q = _run("carbon_credits_basic1", seed).question
        assert "假設主管機關" in q and "認證機構" not in q


# Largest NT$ amount in the question: (lowest allowed, highest allowed) — what the company buys, builds or
# reports fits a manufacturing or services group (no NT$87 萬 plot of land, no NT$6,500 萬 bond issuer), and
# the scaling did not overshoot.
MAGNITUDE = {
    "irr_basic1": (10e6, 1.5e9),               # a plot of land and its sale price
    "irr_basic2": (20e6, 200e6),               # a rented factory building
    "irr_inter1": (10e6, 100e6),               # equipment
    "irr_inter2": (10e6, 400e6),               # an automated production line
    "irr_adv1": (50e6, 300e6),                 # a plant expansion
    "npv_basic1": (5e6, 110e6),               # a patent licence
    "npv_basic2": (1.5e6, 50e6),                # energy-saving air conditioning for a plant
    "npv_inter1": (20e6, 200e6),               # a new product line
    "npv_inter2": (2e6, 50e6),                # a CNC machining centre
    "npv_adv1": (20e6, 160e6),                 # a new production line
    "roi_inter1": (5e6, 60e6),                 # warehouse automation
    "balance_sheets_basic1": (200e6, 2.1e9),
    "balance_sheets_basic2": (20e6, 400e6),
    "balance_sheets_intermediate1": (300e6, 1.2e9),
    "balance_sheets_intermediate2": (500e6, 3e9),
    "balance_sheets_advanced1": (400e6, 2e9),
    "cash_flow_statements_basic1": (10e6, 240e6),
    "cash_flow_statements_basic2": (5e6, 80e6),
    "cash_flow_statements_intermediate1": (5e6, 60e6),
    "cash_flow_statements_intermediate2": (10e6, 100e6),
    "cash_flow_statements_advanced1": (10e6, 80e6),
    "liquidity_ratios_basic1": (10e6, 960e6),
    "liquidity_ratios_basic2": (10e6, 960e6),
    "income_statements_basic1": (20e6, 500e6),
    "income_statements_basic2": (20e6, 500e6),
    "income_statements_intermediate1": (50e6, 800e6),
    "income_statements_intermediate2": (50e6, 800e6),
    "income_statements_advanced1": (50e6, 800e6),   # the year before's revenue (this year's is a growth rate)
    "capital_structure_basic1": (10e6, 2e9),
    "capital_structure_intermediate1": (5e9, 50e9),   # firm value of a corporate-bond issuer
    "capital_structure_intermediate2": (200e6, 3e9),  # market values of a listed firm with a beta
}


@pytest.mark.parametrize("template_id", sorted(MAGNITUDE))
def test_amounts_fit_the_company(template_id):
    lo, hi = MAGNITUDE[template_id]
    for seed in SEEDS:
        p = _run(template_id, seed)
        top = max(_ntd_amounts(p.question))
        assert lo <= top <= hi, (template_id, seed, top)


def test_no_company_deal_under_500_wan_over_many_seeds():
    bad = [(tid, seed) for tid, seed, p in problems()
           if realism.company_deal_too_small({"question": p.question})]
    assert not bad, bad[:10]


def test_capital_structure_bond_is_an_issuers_size():
    for seed in SEEDS:
        p = _run("capital_structure_intermediate1", seed)
        vu, debt = p.params["vu"], p.params["debt"]
        assert debt >= 500_000_000 and 0.1 <= debt / vu <= 0.6  # NT$5 億 or more, as Taiwan corporate bonds are


def test_dividend_yield_of_the_growth_model_stays_realistic():
    """r − g is the implied dividend yield D1/P: between 2% and 7%, as Taiwan stocks yield."""
    for seed in range(300):
        p = _run("dividend_policies_intermediate1", seed)
        d1 = p.params["d0"] * (1 + p.params["g"])
        y = d1 / p.answer_value
        assert 0.02 - 1e-9 <= y <= 0.07 + 1e-9, (seed, y)


def test_debt_to_equity_is_written_as_the_glossary_says():
    """Glossary §2 (r32a): debt-to-equity ratio is 「負債權益比」; 「負債對權益比（率）」 is the word-by-word form,
    in questions, solutions and step labels of every template."""
    named = 0
    for tid, seed, p in problems():
        text = "\n".join([p.question, p.solution, *(s.label for s in p.steps)])
        assert "負債對權益比" not in text, (tid, seed)
        named += "負債權益比" in text
    assert named >= 4 * len(SEEDS)  # the four templates that compute it still name it

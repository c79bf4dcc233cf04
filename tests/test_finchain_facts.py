"""FinChain-TW states Taiwan rules correctly (issue 30 point 4): the facts of finchain_tw_templates/FACTS.md
(facts.py) — the 大額通貨交易 rule, TWSE ticks, TAIFEX stock-option terms, a pure-internet bank's capital, the
stated table values — and the realism checks that count departures from them, each with accept and reject
cases, then every template over many seeds."""

from __future__ import annotations

import functools
import random
import re
from pathlib import Path

import pytest

from finchain_tw_templates import facts, realism
from finchain_tw_templates.core import REGISTRY, Problem
from finchain_tw_templates.generate import ordered_specs, run_template

SEEDS = range(200)
FACTS_MD = Path(__file__).resolve().parent.parent / "finchain_tw_templates" / "FACTS.md"


def _run(template_id: str, seed: int) -> Problem:
    return REGISTRY[template_id].func(random.Random(f"{template_id}:{seed}"))


@functools.lru_cache(maxsize=1)
def problems() -> tuple[tuple[str, int, Problem], ...]:
    return tuple((spec.template_id, seed, run_template(spec, seed)) for spec in ordered_specs() for seed in range(60))


def _rec(question: str) -> dict:
    return {"question": question, "solution": "步驟 1：x = 1\n答案：1", "answer": "1", "answer_type": "numeric",
            "template_id": "x_basic1", "difficulty": "基礎", "steps": [{"label": "x", "value": 1.0}]}


# ---------------------------------------------------------------- the grids accept and reject


@pytest.mark.parametrize("price, ok", [
    (9.99, True), (9.995, False), (10.05, True), (12.34, False), (49.95, True), (50.1, True), (50.15, False),
    (99.9, True), (123.5, True), (123.7, False), (499.5, True), (523.0, True), (523.5, False), (1_005.0, True),
    (1_001.0, False), (0.0, False),
])
def test_twse_tick_grid(price, ok):
    assert facts.is_twse_price(price) is ok


def test_twse_price_snaps_to_the_nearest_valid_price_in_range():
    rng = random.Random(7)
    for _ in range(20_000):
        lo = rng.uniform(1, 1_500)
        hi = lo * rng.uniform(1.05, 2)
        x = facts.pick_twse_price(rng, lo, hi)
        assert facts.is_twse_price(x) and lo - 1e-9 <= x <= hi + 1e-9, (lo, hi, x)
        y = rng.uniform(1, 2_000)
        assert abs(facts.twse_price(y) - y) <= facts.twse_tick(y) / 2 + 1e-9


@pytest.mark.parametrize("strike, ok", [
    (2.2, True), (2.3, False), (12.5, True), (12.7, False), (37.0, True), (37.5, False), (57.5, True), (58.0, False),
    (105.0, True), (107.0, False), (260.0, True), (255.0, False), (990.0, True), (1_050.0, True), (1_010.0, False),
])
def test_taifex_stock_option_strike_grid(strike, ok):
    assert facts.is_stock_option_strike(strike) is ok


@pytest.mark.parametrize("premium, ok", [
    (4.99, True), (5.03, False), (5.05, True), (13.27, False), (16.3, True), (16.35, False), (60.5, True),
    (60.3, False), (151.0, True), (151.5, False), (1_005.0, True),
])
def test_taifex_stock_option_premium_grid(premium, ok):
    assert facts.is_stock_option_premium(premium) is ok


# ---------------------------------------------------------------- the checks accept and reject


@pytest.mark.parametrize("check, bad, good", [
    (realism.invalid_twse_tick, "年初以每股 NT$123.7 買進", "年初以每股 NT$123.5 買進"),
    (realism.invalid_twse_tick, "股價為每股 NT$523.5，", "股價為每股 NT$524，"),
    (realism.invalid_twse_tick, "收盤價依序為 123.7、124.5 元。", "收盤價依序為 123.5、124.5 元。"),
    (realism.move_over_daily_limit, "收盤價依序為 100、111、112 元。", "收盤價依序為 100、110、112 元。"),
    (realism.non_taifex_contract_terms, "買進某股票的歐式買權，履約價格 NT$255。", "買進某股票的歐式買權，履約價格 NT$260。"),
    (realism.non_taifex_contract_terms, "以每股 NT$13.27 的權利金買進某公司股票的歐式買權，履約價格 NT$200。",
     "以每股 NT$13.25 的權利金買進某公司股票的歐式買權，履約價格 NT$200。"),
    (realism.non_taifex_contract_terms, "賣出 2 口股票選擇權（每口 1,000 股）", "賣出 2 口股票選擇權（每口 2,000 股）"),
    (realism.non_taifex_contract_terms, "臺指選擇權每點 NT$200。", "臺指選擇權每點 NT$50。"),
    (realism.non_taifex_contract_terms, "小型臺指每點 NT$200。", "小型臺指每點 NT$50，臺股期貨每點 NT$200。"),
    (realism.cash_report_rule_wrong,
     "同一客戶同一營業日的現金交易合計達 NT$500,000（含）以上，銀行須向主管機關申報大額通貨交易。",
     "金融機構對單筆現金收付達 NT$500,000（含等值外幣）以上的通貨交易，須於 5 個營業日內向法務部調查局申報大額通貨交易。"),
    (realism.cash_report_rule_wrong,
     "單筆現金收付達 NT$1,000,000 以上，須向法務部調查局申報大額通貨交易。",
     "單筆現金收付達 NT$500,000 以上，須向法務部調查局申報大額通貨交易。"),
    (realism.cash_report_rule_wrong, "單筆現金收付達 NT$500,000 以上，須向金管會申報大額通貨交易。",
     "多筆單筆未達大額通貨交易申報門檻 NT$500,000 的現金存款，但合計達 NT$500,000 的 2 倍。"),
    (realism.quantile_not_stated, "假設呈常態分配。請問 99% 信賴水準下的一日風險值？",
     "假設呈常態分配。請問 99% 信賴水準（單尾 z 值以 2.326 計）下的一日風險值？"),
    (realism.annuity_factor_not_stated, "折現率 5.5%，請問淨現值？",
     "折現率 5.5%（6 年、5.5% 的年金現值因子以 4.9955 計），請問淨現值？"),
    (realism.internet_bank_capital_too_small, "星光純網銀（純網路銀行）…權益總額 NT$5,000,000,000。",
     "星光純網銀（純網路銀行）…權益總額 NT$12,000,000,000。"),
])
def test_each_facts_check_flags_the_bad_form_only(check, bad, good):
    sol = "步驟 1：年金現值因子 = 〔1 − （1 + 5.5%）^−6〕÷ 5.5% = 4.9955\n答案：1"
    assert check({**_rec(bad), "solution": sol}) and not check({**_rec(good), "solution": sol})


# ---------------------------------------------------------------- the templates follow the facts


def test_large_cash_report_is_one_transaction_filed_with_the_investigation_bureau():
    """aml_basic1: a day's deposits are not added up; the report goes to 法務部調查局 (the old template summed
    the deposits and named 「主管機關」, contradicting the structuring template)."""
    summed_but_no_single = 0
    for seed in SEEDS:
        p = _run("aml_basic1", seed)
        amounts = [v for k, v in p.params.items() if k.startswith("a")]
        assert "法務部調查局" in p.question and "主管機關" not in p.question and "單筆" in p.question
        assert p.answer_text == ("是" if max(amounts) >= facts.CASH_REPORT_THRESHOLD else "否"), seed
        summed_but_no_single += sum(amounts) >= facts.CASH_REPORT_THRESHOLD and p.answer_text == "否"
    assert summed_but_no_single >= 10  # the case a summing rule gets wrong occurs


def test_kyc_foreign_pep_is_high_risk_whatever_the_points():
    """kyc_basic1 (r30b, FACTS.md 1.7): the question says whether a PEP is a current domestic or foreign one and
    states the rule; a current foreign PEP is 高 even on a low score, a domestic PEP adds the bank's 2 points."""
    foreign_low_score = domestic = 0
    for seed in SEEDS:
        p = _run("kyc_basic1", seed)
        assert "直接列為高風險" in p.question and "自營商" not in p.question
        assert not realism.pep_rule_not_stated({"question": p.question}), seed
        score = p.params["_job"] + p.params["_country"] + p.params["_volume"] + p.params["_pep"]
        if "是否為重要政治性職務人士：現任國外政府" in p.question:
            assert p.answer_text == "高", seed
            foreign_low_score += score <= 6
        elif "是否為重要政治性職務人士：現任國內政府" in p.question:
            assert p.params["_pep"] == 2 and p.answer_text == ("低" if score <= 3 else "中" if score <= 6 else "高")
            domestic += 1
        else:
            assert p.params["_pep"] == 0 and "是否為重要政治性職務人士：否" in p.question
    assert foreign_low_score >= 10 and domestic >= 10  # both cases, and the case a points-only rule gets wrong


@pytest.mark.parametrize("question, flagged", [
    ("職業別（自營商 2 分）、是否為重要政治性職務人士（是 2 分、否 0 分）。新客戶為自營商。", True),
    ("職業別（自營業者 2 分）、重要政治性職務人士（現任國內政府或國際組織之重要政治性職務人士 2 分）；"
     "客戶為現任國外政府之重要政治性職務人士者，直接列為高風險。", False),
])
def test_pep_and_wording_checks(question, flagged):
    assert realism.pep_rule_not_stated({"question": question}) is flagged
    assert realism.wording_not_taiwan({"question": question}) is flagged
    assert realism.wording_not_taiwan({"question": "請問市場基礎的範疇二排放量比地區基礎少了多少比例？"})
    assert not realism.wording_not_taiwan({"question": "自營商持有部位的評價損益是多少？"})  # the securities dealer


def test_structuring_rule_is_consistent_with_the_single_transaction_threshold():
    for seed in range(50):
        p = _run("aml_intermediate2", seed)
        assert "單筆未達大額通貨交易申報門檻 NT$500,000" in p.question


def test_every_stated_share_price_is_a_twse_tick_over_many_seeds():
    bad = []
    seen = 0
    for tid, seed, p in problems():
        prices = realism.share_prices(p.question)
        seen += len(prices)
        bad += [f"{tid}:{seed} {x}" for x in prices if not facts.is_twse_price(x)]
    assert seen > 1_500 and not bad, bad[:10]


def test_stock_option_terms_are_taifex():
    for seed in SEEDS:
        for tid in ("option_pricing_basic1", "option_pricing_basic2", "option_pricing_intermediate1",
                    "option_pricing_intermediate2", "option_pricing_advanced1"):
            p = _run(tid, seed)
            assert facts.is_stock_option_strike(p.params["k"]), (tid, seed, p.params["k"])
            for key in ("prem", "put"):
                if key in p.params:
                    assert facts.is_stock_option_premium(p.params[key]), (tid, seed, p.params[key])
        p = _run("option_pricing_intermediate2", seed)
        assert p.params["shares"] % facts.STOCK_OPTION_SHARES == 0 and "每口 2,000 股" in p.question
        assert p.params["k"] > p.params["s0"]


def test_pure_internet_bank_capital_is_at_least_100_yi():
    for seed in SEEDS:
        p = _run("digital_banking_adv1", seed)
        assert p.params["capital"] >= facts.INTERNET_BANK_MIN_CAPITAL and -0.10 < p.answer_value < 0.30


@pytest.mark.parametrize("template_id", ["var_basic1", "var_inter2", "var_adv1", "risk_appetite_adv1"])
def test_var_questions_state_the_quantile_they_are_computed_with(template_id):
    for seed in range(40):
        p = _run(template_id, seed)
        m = re.search(r"(\d+(?:\.\d)?)% 信賴水準[^。]{0,30}（單尾 z 值以 (\d\.\d{3}) 計", p.question)
        assert m, p.question
        cl, z = float(m.group(1)) / 100, float(m.group(2))
        assert abs(cl - p.params["cl"]) < 1e-9 and z == p.params["z"] == facts.z_value(cl)
    # the gold of the simplest one is the stated z times the position's one-day standard deviation
    for seed in range(40):
        p = _run("var_basic1", seed)
        assert p.answer_value == pytest.approx(p.params["v"] * p.params["z"] * p.params["sd"], rel=1e-12)


def test_facts_md_states_the_figures_facts_py_uses():
    text = FACTS_MD.read_text("utf-8")
    for needle in ("NT$500,000", "法務部調查局", "5 個營業日", "NT$100 億", "7%", "8.5%", "10.5%", "NT$300 萬",
                   "0.01；10–未滿 50：0.05", "1,000 以上：5", "2,000 股", "每點 NT$200", "每點 NT$50", "20%",
                   "0.3%", "0.1%", "2.11%", "NT$20,000", "28%", "8.5%", "NT$80,000", "6%", "2.326", "1.645",
                   "1.960", "2026-12-02", "現任國外政府", "直接視為高風險客戶", "第 10 條"):
        assert needle in text, needle
    for bound, step in facts.STOCK_OPTION_STRIKE_STEPS[:-1]:
        assert f"未滿 {bound:,}：{step:g}" in text, (bound, step)


@pytest.mark.parametrize("template_id", ["compliance_advanced1", "sensitivity_analysis_inter2", "sensitivity_analysis_adv1"])
def test_annuity_factors_are_stated_and_used(template_id):
    for seed in range(40):
        p = _run(template_id, seed)
        stated = [float(x) for x in re.findall(r"年金現值因子以 (\d+\.\d{4}) 計", p.question)]
        assert stated and all(x == facts.annuity_factor(p.params["r"] + k * p.params.get("dr", 0), p.params["n"])
                              for k, x in enumerate(stated)), (seed, p.question)
        assert all(f"{x:.4f}" in p.solution for x in stated)


def test_carbon_fee_rates_are_the_published_ones():
    assert {_run("carbon_credits_basic2", seed).params["rate"] for seed in SEEDS} == set(facts.CARBON_FEE_RATES)


def test_facts_md_is_clean_taiwan_chinese():
    from tw_fin_eval.zhcheck.rules import check_zh

    problems = [(i, f.found) for i, line in enumerate(FACTS_MD.read_text("utf-8").splitlines(), 1)
                for f in check_zh(line)]
    assert not problems, problems


def test_magnitudes_are_taiwan_plausible():
    """A NT$ time deposit pays 1%–2.5% (not FinChain's 8%); six daily closes never jump past the 10% limit."""
    for seed in SEEDS:
        assert 0.01 <= _run("compound_interest_basic1", seed).params["r"] <= 0.025
        closes = [v for k, v in sorted(_run("stock_market_analysis_intermediate1", seed).params.items())]
        assert all(abs(b / a - 1) <= facts.DAILY_PRICE_LIMIT for a, b in zip(closes, closes[1:])), seed


# ---------------------------------------------------------------- direction words, emitters, the carbon fee (r31b C6)


@pytest.mark.parametrize("check, bad, good", [
    (realism.direction_word_wrong, "陳怡君以 5 枚奇萊幣作為擔保品。請計算最多可借出多少美元的穩定幣。",
     "陳怡君以 5 枚奇萊幣作為擔保品。請計算陳怡君最多可借得多少美元的穩定幣。"),
    (realism.direction_word_wrong, "林志豪以 10 枚以太幣作為擔保，借出 US$1,000 的穩定幣。",
     "林志豪以 10 枚以太幣作為擔保，借入 US$1,000 的穩定幣。"),
    (realism.direction_word_wrong, "陳怡君以房屋作為擔保品，向銀行借出 NT$500 萬。",
     "銀行以客戶的房屋作為擔保品借出 NT$500 萬。"),
    (realism.direction_word_wrong, "王俊傑以銀行美元即期買入匯率 31.5 買進 US$1,000。",
     "王俊傑以銀行美元即期賣出匯率 31.5 買進 US$1,000，三個月後以即期買入匯率 31.2 全數賣回。"),
    (realism.direction_word_wrong, "三個月後以即期賣出匯率 31.2 全數賣回。",
     "以 NT$30,000 向銀行購買美元，銀行美元現金賣出匯率為 1 美元兌新臺幣 32.1 元。"),
    (realism.emissions_exceed_industry, "棠岳軟體去年溫室氣體排放量 706,900 公噸二氧化碳當量。",
     "澐海鋼鐵去年溫室氣體排放量 706,900 公噸二氧化碳當量。"),
    (realism.emissions_exceed_industry, "岱橋生技今年需要抵換 40,000 公噸二氧化碳當量的排放。",
     "岱橋生技今年需要抵換 4,000 公噸二氧化碳當量的排放。"),
    (realism.emissions_exceed_industry, "雲杉資訊以基準年排放量 533,000 公噸二氧化碳當量設定目標。",
     "峴石水泥以基準年排放量 533,000 公噸二氧化碳當量設定目標。"),
    (realism.carbon_fee_payer_not_covered, "靖岳物流去年排放 30,000 公噸。假設碳費只對超過 25,000 公噸的部分收取。",
     "柏澐造紙去年排放 30,000 公噸。假設碳費只對超過 25,000 公噸的部分收取。"),
    (realism.cap_and_trade_not_assumed, "澐海鋼鐵今年排放 500,000 公噸，取得免費核配額度 400,000 公噸。",
     "假設主管機關實施溫室氣體總量管制並核配免費排放額度。澐海鋼鐵今年排放 500,000 公噸，獲核配免費額度 400,000 公噸。"),
])
def test_direction_emission_and_cap_checks_flag_the_bad_form_only(check, bad, good):
    assert check(_rec(bad)) and not check(_rec(good))


def test_the_borrower_borrows_in_the_defi_templates():
    for template_id in ("defi_basic2", "defi_intermediate2"):
        for seed in range(40):
            q = _run(template_id, seed).question
            assert "借出" not in q and ("借得" in q or "借入" in q), (template_id, seed, q)


def test_every_company_name_has_an_industry_and_large_emitters_are_emitting_industries():
    from finchain_tw_templates import common

    for name in common.COMPANIES + common.EMITTER_EXTRA:
        common.company_industry(name)  # KeyError names the company
    for industry in ("軟體", "資訊", "生技"):
        ceiling, covered = common.INDUSTRY_EMISSIONS[industry]
        assert ceiling is not None and ceiling <= 20_000 and not covered, industry
    big = {common.company_industry(common.pick_emitter(random.Random(s), 600_000)) for s in range(300)}
    assert big <= {"鋼鐵", "化工", "塑膠", "水泥", "造紙", "半導體", "電子", "光電", "能源", "材料"}
    assert "水泥" in big and "鋼鐵" in big
    fee = {common.company_industry(common.pick_emitter(random.Random(s), 30_000, carbon_fee=True)) for s in range(300)}
    assert fee and all(common.INDUSTRY_EMISSIONS[i][1] for i in fee)


EMISSION_TEMPLATES = ("carbon_credits_basic1", "carbon_credits_basic2", "carbon_credits_inter1", "carbon_credits_inter2",
                      "carbon_credits_adv1", "sustainability_reporting_basic1", "sustainability_reporting_basic2",
                      "sustainability_reporting_inter1", "sustainability_reporting_inter2",
                      "sustainability_reporting_adv1")


@pytest.mark.parametrize("template_id", EMISSION_TEMPLATES)
def test_emitting_companies_fit_their_industry(template_id):
    from finchain_tw_templates import common

    for seed in SEEDS:
        p = _run(template_id, seed)
        names = [co for co in common.COMPANIES + common.EMITTER_EXTRA if co in p.question]
        assert names, (template_id, seed)
        tonnes = [float(x.replace(",", "")) for x in re.findall(r"(\d[\d,]*)\s*公噸", p.question)]
        if "排放量合計多少" in p.question:
            tonnes.append(p.answer_value)
        tonnes += [st.value for st in p.steps if "排放量" in st.label]  # emissions the solution computes
        assert tonnes and all(common.emission_fits(co, max(tonnes), carbon_fee="碳費" in p.question)
                              for co in names), (template_id, seed, p.question)


@pytest.mark.parametrize("template_id", ["carbon_credits_inter1", "carbon_credits_adv1"])
def test_allocated_allowances_are_an_assumption(template_id):
    """Taiwan runs a carbon fee, not cap-and-trade (FACTS.md 5.9): the question says the cap is assumed."""
    assert "5.9" in FACTS_MD.read_text("utf-8") and template_id in FACTS_MD.read_text("utf-8")
    for seed in range(40):
        q = _run(template_id, seed).question
        assert "核配" in q and re.search(r"假設主管機關實施(?:溫室氣體)?總量管制", q) and "此為計算假設" in q, q

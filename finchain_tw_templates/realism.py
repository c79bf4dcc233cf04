"""The FinChain-TW realism rules (issue 20 point 5) as checks on one generated record, so the tests and
`benchmarks/finchain_realism.py` apply the same rules. Standard library only.

Each check returns True when the record shows the problem. `findings(record)` lists the names of every
problem found.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from finchain_tw_templates import facts
from finchain_tw_templates.common import (
    COMPANIES,
    EMITTER_EXTRA,
    asked_decimals,
    emission_fits,
    nonstandard_rounding,
)

# Stems of real TWSE/TPEx companies and Taiwan financial groups, banks, insurers and 投信 that a fictional
# name must not be built on (the ones earlier versions used, and the financial brands a reader knows).
REAL_BRAND_STEMS: tuple[str, ...] = (
    "正隆", "福懋", "富邦", "新光", "永豐", "群益", "晶元", "長興", "大同", "台元", "玉山", "宏遠", "德昌",
    "萬泰", "永信", "華豐", "中興", "東亞", "太平洋", "國瑞", "匯通", "昱成", "寶島", "星鏈", "日月",
    "國泰", "中信", "兆豐", "元大", "台新", "華南", "合庫", "彰銀", "凱基", "復華", "野村", "聯邦", "日盛",
    "安泰", "京城", "王道", "南山", "三商", "遠雄", "宏泰",
)
_TAX = re.compile(r"(?:營利事業)?所得稅率(?:為)?\s*(\d+(?:\.\d+)?)%")
# A fund named after a company: 「<company industry word>(成長|科技|退休)?基金」.
_COMPANY_FUND = re.compile(
    r"(?:精密|科技|電子|營造|食品|光電|半導體|紡織|物流|生技|航運|能源|機械|化工|醫材|建設|零件|資訊|綠能|塑膠|鋼鐵|通訊|"
    r"精機|商貿|電機|包材|百貨|微系統|茶業|水務|光學|工業|餐飲|軟體|造紙|製藥|電池|家居|農產|材料)(?:成長|科技|退休)?基金")
_SMALL_FIRM = re.compile(r"農產|餐飲|茶業|家居")
_NTD = re.compile(r"NT\$(\d[\d,]*)")
# The gold 「答案：」 line in the form the system prompt demands: digits, decimal point, minus sign, %.
GOLD_FORM = re.compile(r"-?\d+(?:\.\d+)?%?")
# A solution line whose formula only restates a given: 「X = NT$5 × 100% = NT$5」, 「X = NT$5 × 1 = …」,
# 「X = NT$5 = NT$5」.
_RESTATING = re.compile(r"^[^=]*? = [^ =+−×÷]+ × (?:100%|1)(?: = |$)|^[^=]+ = ([^=+−×÷]+) = \1$")
_SUFFIX_DIFFICULTY = {"basic": "基礎", "inter": "中級", "intermediate": "中級", "adv": "進階", "advanced": "進階"}


def tax_not_20_without_assumption(r: Mapping[str, Any]) -> bool:
    q = r["question"]
    return any(float(m.group(1)) != 20 for m in _TAX.finditer(q)) and "假設" not in q


def real_brand_name(r: Mapping[str, Any]) -> bool:
    text = r["question"] + "\n" + r["solution"]
    return any(stem in text for stem in REAL_BRAND_STEMS)


def name_built_on_brand(name: str, stems: Iterable[str] = REAL_BRAND_STEMS) -> bool:
    """A fictional name that contains a real stem or starts with the same two characters as one."""
    return any(s in name or s[:2] == name[:2] for s in stems)


def fund_named_company(r: Mapping[str, Any]) -> bool:
    return bool(_COMPANY_FUND.search(r["question"]))


def small_firm_large_amount(r: Mapping[str, Any]) -> bool:
    q = r["question"]
    return bool(_SMALL_FIRM.search(q)) and any(int(x.replace(",", "")) >= 100_000_000 for x in _NTD.findall(q))


def states_no_rounding(r: Mapping[str, Any]) -> bool:
    return r["answer_type"] == "numeric" and asked_decimals(r["question"]) is None


def shown_decimals(answer: str) -> int:
    core = answer.rstrip("%").split("$")[-1]
    return len(core.split(".")[1]) if "." in core else 0


def gold_not_rounded_as_asked(r: Mapping[str, Any]) -> bool:
    if r["answer_type"] != "numeric":
        return False
    d = asked_decimals(r["question"])
    return d is not None and shown_decimals(r["answer"]) != d


def gold_line_not_digits(r: Mapping[str, Any]) -> bool:
    if r["answer_type"] != "numeric":
        return False
    last = r["solution"].splitlines()[-1]
    return not (last.startswith("答案：") and GOLD_FORM.fullmatch(last[3:].strip()))


def restating_step(r: Mapping[str, Any]) -> bool:
    lines = [ln.split("：", 1)[1] for ln in r["solution"].splitlines() if ln.startswith("步驟")]
    return any(_RESTATING.search(ln) for ln in lines)


def difficulty_mismatch(r: Mapping[str, Any]) -> bool:
    """The template id's suffix, the difficulty label and the step count (基礎 ≤ 2, 中級 3–4, 進階 ≥ 5) disagree."""
    suffix = re.sub(r"\d+$", "", r["template_id"].rsplit("_", 1)[-1])
    n = len(r["steps"])
    by_steps = "基礎" if n <= 2 else "中級" if n <= 4 else "進階"
    return not (_SUFFIX_DIFFICULTY.get(suffix) == r["difficulty"] == by_steps)


def rounding_not_standard(r: Mapping[str, Any]) -> bool:
    """A rounding instruction other than 「四捨五入至小數點後第 N 位」／「四捨五入至整數」 (「取到小數第二位」 can be read
    as truncation; a model that truncates would be marked wrong against the rounded gold)."""
    return nonstandard_rounding(r["question"]) is not None


_BETA_OTHER = re.compile(r"貝他(?!係數)")


def beta_not_glossary_term(r: Mapping[str, Any]) -> bool:
    """Beta written other than the glossary's 「貝他係數」 (「貝他值」, 「資產貝他」)."""
    return bool(_BETA_OTHER.search(r["question"] + "\n" + r["solution"]))


# What a company named in COMPANIES (manufacturing, building and service groups) buys, builds, issues or
# reports as a whole: below NT$500 萬 for the largest amount, such a deal or statement does not fit the company
# (a plot of land for NT$87 萬, a plant expansion for NT$50 萬, total current assets of NT$150 萬, a year's
# revenue of NT$230 萬). Prices per
# unit (a bond's 面額, a share price) are not deals. Equipment alone (a machine, an air conditioner) is not
# counted: a NT$200 萬 machine is plausible.
_COMPANY_DEAL = re.compile(r"土地|廠房|產線|擴廠|產品線|設備投資|自動化|專利授權|公司債|流動資產|資產負債表|"
                           r"營業活動之淨現金流|年度營業收入|負債總額")
_COMPANY_DEAL_MIN = 5_000_000


def company_deal_too_small(r: Mapping[str, Any]) -> bool:
    q = r["question"]
    if "面額" in q or not (_COMPANY_DEAL.search(q) and any(co in q for co in COMPANIES)):
        return False
    amounts = [int(x.replace(",", "")) for x in _NTD.findall(q)]
    return bool(amounts) and max(amounts) < _COMPANY_DEAL_MIN


def same_day_wording(r: Mapping[str, Any]) -> bool:
    """「同天評估」-style wording (Taiwan writes 同時)."""
    return "同天" in r["question"] + r["solution"]


# ---------------------------------------------------------------- Taiwan rules (FACTS.md)
_MONEY = r"NT\$(\d[\d,]*(?:\.\d+)?)(?![\d.])"
# A stock's price in a question: 「股價為 NT$123.5」, 「以每股 NT$18.4 買進」, 「收盤價為」, 「現價」, 「年底價格」; not a
# premium (「以每股 NT$3.2 的權利金」), an offer (「以每股 NT$X 收購」) or a bond's 市價.
_SHARE_PRICE = re.compile(r"(?:股價(?:為|跌到|漲到)?\s*(?:每股)?|每股市價|收盤價(?:為)?|成交價|股票現價|某股票現價|"
                          r"以每股|股票去年初價格|年底價格)\s*" + _MONEY + r"(?!\s*(?:的權利金|收購))")
_CLOSE_LIST = re.compile(r"收盤價依序為 ([\d.、 ]+) 元")


def _amount(x: str) -> float:
    return float(x.replace(",", ""))


def share_prices(question: str) -> list[float]:
    """The stock prices a question states (see _SHARE_PRICE)."""
    out = [_amount(m.group(1)) for m in _SHARE_PRICE.finditer(question)]
    for m in _CLOSE_LIST.finditer(question):
        out += [_amount(x) for x in m.group(1).split("、") if x.strip()]
    return out


def invalid_twse_tick(r: Mapping[str, Any]) -> bool:
    """A stock price that is not on the TWSE tick grid (123.7 where the tick is 0.5; FACTS.md §3)."""
    return any(not facts.is_twse_price(p) for p in share_prices(r["question"]))


def move_over_daily_limit(r: Mapping[str, Any]) -> bool:
    """Consecutive daily closes that move more than the TWSE 10% limit (FACTS.md §3)."""
    for m in _CLOSE_LIST.finditer(r["question"]):
        closes = [_amount(x) for x in m.group(1).split("、") if x.strip()]
        if any(abs(b / a - 1) > facts.DAILY_PRICE_LIMIT + 1e-9 for a, b in zip(closes, closes[1:])):
            return True
    return False


_STRIKE = re.compile(r"履約價格\s*" + _MONEY)
_PREMIUM = re.compile(r"每股\s*" + _MONEY + r"\s*的權利金|每股收取權利金\s*" + _MONEY + r"|賣權價格為\s*" + _MONEY)
_STOCK_OPTION = re.compile(r"股票[^。]*(?:買權|賣權)|股票選擇權")  # an option on a stock (not 員工認股權)
_PER_CONTRACT = re.compile(r"每口\s*([\d,]+)\s*股")
# Index contracts and their NT$ per point (TAIFEX): 「臺指選擇權每點 NT$50」.
_INDEX_MULTIPLIERS = (("小型臺指", facts.MINI_TAIEX_FUTURES_MULTIPLIER), ("臺指選擇權", facts.TAIEX_OPTION_MULTIPLIER),
                      ("臺股期貨", facts.TAIEX_FUTURES_MULTIPLIER))
_PER_POINT = re.compile(r"每點\s*(?:新臺幣\s*)?(?:NT\$)?\s*([\d,]+)")


def non_taifex_contract_terms(r: Mapping[str, Any]) -> bool:
    """A stock-option strike off TAIFEX's strike grid, a premium off its tick grid, a contract that is not 2,000
    shares, or an index contract with another NT$ per point than TAIFEX's (FACTS.md §4)."""
    q = r["question"]
    if _STOCK_OPTION.search(q):
        if any(not facts.is_stock_option_strike(_amount(k)) for k in _STRIKE.findall(q)):
            return True
        for m in _PREMIUM.finditer(q):
            if not facts.is_stock_option_premium(_amount(next(g for g in m.groups() if g))):
                return True
        if any(_amount(n) != facts.STOCK_OPTION_SHARES for n in _PER_CONTRACT.findall(q)):
            return True
    for clause in re.split(r"[。；，]", q):
        for name, mult in _INDEX_MULTIPLIERS:
            if name in clause:
                if any(_amount(x) != mult for x in _PER_POINT.findall(clause)):
                    return True
                break  # 「小型臺指」 is checked before the other 臺指 names
    return False


_REPORT_AMOUNT = re.compile(r"(?:單筆|門檻|達)\s*" + _MONEY)


def cash_report_rule_wrong(r: Mapping[str, Any]) -> bool:
    """A 大額通貨交易 report stated against the rule: it is one cash transaction of NT$500,000 or more (not a
    day's total) and it is filed with 法務部調查局 (not 「主管機關」) (FACTS.md §1)."""
    for sentence in r["question"].split("。"):
        if "大額通貨交易" not in sentence or "申報" not in sentence:
            continue
        if "主管機關" in sentence or ("合計" in sentence and "單筆" not in sentence):
            return True
        if re.search(r"向(?!法務部調查局)[^，。]{2,10}申報", sentence):
            return True
        if any(_amount(x) != facts.CASH_REPORT_THRESHOLD for x in _REPORT_AMOUNT.findall(sentence)):
            return True
    return False


def quantile_not_stated(r: Mapping[str, Any]) -> bool:
    """A normal-distribution question at a confidence level that does not give the z value to use: a model
    using its own table (2.33 for 99%) would be marked wrong by rounding alone."""
    q = r["question"]
    return "信賴水準" in q and "常態" in q and not re.search(r"z 值以 \d\.\d+ 計", q)


_ANNUITY_STEP = re.compile(r"步驟 \d+：年金現值因子 = |× 年金現值因子\(")


def annuity_factor_not_stated(r: Mapping[str, Any]) -> bool:
    """A solution that multiplies by an annuity factor the question does not give: a model that reads a
    4-decimal table would be marked wrong by the table's rounding alone."""
    return bool(_ANNUITY_STEP.search(r["solution"])) and not re.search(r"年金現值因子以 \d+\.\d{4} 計", r["question"])


_INTERNET_BANK_CAPITAL = re.compile(r"(?:權益總額|實收資本(?:額)?)\s*" + _MONEY)


def internet_bank_capital_too_small(r: Mapping[str, Any]) -> bool:
    """A pure-internet bank with equity or paid-in capital under the NT$100 億 minimum (FACTS.md §2)."""
    q = r["question"]
    return "純網路銀行" in q and any(_amount(x) < facts.INTERNET_BANK_MIN_CAPITAL
                                    for x in _INTERNET_BANK_CAPITAL.findall(q))


def pep_rule_not_stated(r: Mapping[str, Any]) -> bool:
    """A KYC score that counts a 重要政治性職務人士 without saying whether the PEP is a current foreign one, whom
    金融機構防制洗錢辦法 makes high risk outright (a domestic PEP is risk-assessed) (FACTS.md 1.7)."""
    q = r["question"]
    if "重要政治性職務人士" not in q or "分" not in q:
        return False
    return not ("現任國外政府之重要政治性職務人士" in q and "直接列為高風險" in q)


# words FinChain once used that Taiwan writes otherwise: 自營商 is a securities dealer, not a self-employed
# person; GHG scope 2 is 地點基礎 (location-based); a sale's proceeds net of costs are 出售淨額
_NOT_TAIWAN_WORDING = re.compile(r"職業[^。]*自營商|地區基礎|出售淨得")


def wording_not_taiwan(r: Mapping[str, Any]) -> bool:
    return bool(_NOT_TAIWAN_WORDING.search(r["question"] + "\n" + str(r.get("solution") or "")))


# Who borrows and who lends, who buys and who sells. The party that posts collateral borrows (借入／借得); a
# customer buying foreign currency pays the bank's 賣出匯率 and one selling gets its 買入匯率.
_CLAUSE = re.compile(r"[^，；。？！\n]+")
_COLLATERAL = re.compile(r"作為擔保|擔保品|質押|抵押")
_LENDER_LENDS = re.compile(r"(?<!向)(?:銀行|協議|出借人|貸方|平台)[^，。；]{0,16}借出")
_RATE_TERM = re.compile(r"(?:即期|現金|遠期)?(?:買入|賣出)匯率")
_CUSTOMER_BUYS = re.compile(r"購買|買進|買入")
_CUSTOMER_SELLS = re.compile(r"賣出|賣回|結售")


def direction_word_wrong(r: Mapping[str, Any]) -> bool:
    """A direction word used for the wrong party: 「借出」 in a question where the party posting collateral borrows
    (unless a lender is its subject: 「銀行…借出」), or a clause in which a
    customer buys currency at the bank's 買入匯率 (or sells at its 賣出匯率)."""
    q = r["question"]
    if _COLLATERAL.search(q) and "借出" in q and not _LENDER_LENDS.search(q):
        return True
    for clause in _CLAUSE.findall(q):
        rates = _RATE_TERM.findall(clause)
        if len(rates) != 1:
            continue
        verbs = _RATE_TERM.sub("", clause)
        buys, sells = bool(_CUSTOMER_BUYS.search(verbs)), bool(_CUSTOMER_SELLS.search(verbs))
        if buys != sells and ("買入" in rates[0]) == buys:
            return True
    return False


# 「排放量 706,900 公噸」「減量 12,300 公噸」「抵換 5,000 公噸」「排放 533,000 公噸」: the tonnes a company emits or
# reduces, which its industry must fit (common.INDUSTRY_EMISSIONS).
_TONNES = re.compile(r"(?:排放|減量|抵換)[^，。；\d]{0,12}?(\d[\d,]*(?:\.\d+)?)\s*公噸")
_EMITTERS = COMPANIES + EMITTER_EXTRA


def _named_companies(q: str) -> list[str]:
    return [co for co in _EMITTERS if co in q]


def stated_tonnes(r: Mapping[str, Any]) -> list[float]:
    """Tonnes of emissions or reductions the question states, plus the emissions the solution computes (the gold
    when it is an emission total, steps labelled 排放量)."""
    q = r["question"]
    out = [_amount(x) for x in _TONNES.findall(q)]
    if "排放量合計多少" in q and r.get("answer_value") is not None:
        out.append(float(r["answer_value"]))
    out += [float(st["value"]) for st in r.get("steps") or () if "排放量" in st["label"]
            and "避免" not in st["label"]]  # computed emissions (a project's avoided emissions are not the company's)
    return out


def emissions_exceed_industry(r: Mapping[str, Any]) -> bool:
    """A company whose industry does not emit the tonnes stated (a software firm with 706,900 公噸)."""
    tonnes = stated_tonnes(r)
    return bool(tonnes) and any(not emission_fits(co, max(tonnes)) for co in _named_companies(r["question"]))


def carbon_fee_payer_not_covered(r: Mapping[str, Any]) -> bool:
    """A carbon-fee question about a company the fee does not cover (it covers power and manufacturing)."""
    q = r["question"]
    return "碳費" in q and any(not emission_fits(co, 0, carbon_fee=True) for co in _named_companies(q))


_ALLOCATION = re.compile(r"核配|免費額度|排放額度|總量管制")
_CAP_ASSUMED = re.compile(r"假設[^。]*總量管制")


def cap_and_trade_not_assumed(r: Mapping[str, Any]) -> bool:
    """Allocated allowances or emissions trading stated as if Taiwan ran it; it runs a carbon fee (FACTS.md 5.9)."""
    q = r["question"]
    return bool(_ALLOCATION.search(q)) and not _CAP_ASSUMED.search(q)


CHECKS = {
    "tax_not_20_no_assumption": tax_not_20_without_assumption,
    "real_brand_name": real_brand_name,
    "fund_named_company_plus_基金": fund_named_company,
    "small_firm_large_amount": small_firm_large_amount,
    "question_states_no_rounding": states_no_rounding,
    "gold_not_rounded_as_asked": gold_not_rounded_as_asked,
    "gold_answer_line_not_digits": gold_line_not_digits,
    "restating_step": restating_step,
    "difficulty_label_mismatch": difficulty_mismatch,
    "同天評估": same_day_wording,
    "rounding_wording_not_standard": rounding_not_standard,
    "beta_not_貝他係數": beta_not_glossary_term,
    "company_deal_under_500萬": company_deal_too_small,
    "invalid_twse_tick": invalid_twse_tick,
    "move_over_daily_limit": move_over_daily_limit,
    "non_taifex_contract_terms": non_taifex_contract_terms,
    "cash_report_rule_wrong": cash_report_rule_wrong,
    "quantile_not_stated": quantile_not_stated,
    "annuity_factor_not_stated": annuity_factor_not_stated,
    "internet_bank_capital_under_100億": internet_bank_capital_too_small,
    "pep_rule_not_stated": pep_rule_not_stated,
    "wording_not_taiwan": wording_not_taiwan,
    "direction_word_wrong": direction_word_wrong,
    "emissions_exceed_industry": emissions_exceed_industry,
    "carbon_fee_payer_not_covered": carbon_fee_payer_not_covered,
    "cap_and_trade_not_assumed": cap_and_trade_not_assumed,
}


def findings(r: Mapping[str, Any]) -> list[str]:
    return [name for name, check in CHECKS.items() if check(r)]

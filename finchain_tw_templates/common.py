"""Shared helpers for FinChain-TW templates: fictional Taiwanese names, number formatting, input
pickers that return exactly-displayable values, and a solution builder. Standard library only.

Conventions (every template follows them, so the generator and the tests can rely on them):
- Rates are fractions in computation (0.0525) and shown with `pct` (「5.25%」).
- Inputs are drawn already rounded (`pick_money`, `pick_rate`, ...): the number printed in the question is
  exactly the number used in the computation.
- Step values and answers are exact (unrounded) floats; only the display strings are rounded.
- A percent answer keeps the FinQA convention: answer_value is the fraction (0.1412) and the display
  string is 「14.12%」.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterable, Sequence

from finchain_tw_templates.core import Problem, Step
from finchain_tw_templates.facts import CORPORATE_TAX

# Fictional Taiwanese-style names. Every stem was checked against the TWSE/TPEx listings and Taiwan's
# financial groups, banks, insurers and 投信 (benchmarks/finchain_realism.py --listed ...): none is built on a
# real listed company or financial group. Companies are manufacturers, builders and service groups of a size
# that fits the amounts of every template (no small farm or restaurant issuing NT$100 億 bonds).
COMPANIES: tuple[str, ...] = (
    "澄嶺精密", "翊岑科技", "沐禾電子", "霈宇營造", "昕澤食品", "栩陽光電", "嵐峰半導體", "芃光紡織",
    "靖岳物流", "岱橋生技", "熙岸航運", "瀚澄能源", "朗渠機械", "頤森化工", "硯川醫材", "樸岩建設",
    "漣州汽車零件", "雲杉資訊", "峮達綠能", "崧霖塑膠", "澐海鋼鐵", "琮翔通訊", "璟川精機", "霽光電機",
    "淞岳材料", "蔚嵐電子", "曜岑光學", "汐澄工業", "棠岳軟體", "柏澐造紙", "槿陽製藥", "苡澄電池",
    "晞禾半導體", "筠嶺科技", "皓汐紡織", "樺岑包材", "湧岱鋼鐵", "岑鈺電子", "灃川化工", "晴嵐食品",
)

# A company name ends with its industry (澐海鋼鐵 → 鋼鐵). What a company of that industry plausibly emits in a
# year (scope 1 + 2, tonnes CO2e; None: no ceiling within the templates' ranges) and whether Taiwan's carbon fee
# covers it (電力業與製造業, FACTS.md 5.7). Taiwan's large emitters are steel, petrochemicals and plastics,
# cement, paper, semiconductors, panels and electronics manufacturing and power; a software, IT or biotech firm
# reports thousands of tonnes, not 0.4–0.7 Mt.
INDUSTRY_EMISSIONS: dict[str, tuple[int | None, bool]] = {
    "鋼鐵": (None, True), "化工": (None, True), "塑膠": (None, True), "水泥": (None, True), "造紙": (None, True),
    "半導體": (None, True), "電子": (None, True), "光電": (None, True), "能源": (None, True), "材料": (None, True),
    "紡織": (300_000, True), "食品": (200_000, True), "汽車零件": (200_000, True), "機械": (150_000, True),
    "工業": (200_000, True), "電機": (150_000, True), "光學": (150_000, True), "精機": (100_000, True),
    "精密": (150_000, True), "電池": (200_000, True), "包材": (150_000, True), "製藥": (60_000, True),
    "醫材": (40_000, True), "航運": (300_000, False), "物流": (80_000, False), "通訊": (150_000, False),
    "營造": (30_000, False), "建設": (20_000, False), "科技": (30_000, False), "生技": (20_000, False),
    "資訊": (10_000, False), "軟體": (5_000, False), "綠能": (10_000, False),
}
# Cement is a large Taiwan emitter the general pool lacks; it is drawn only for emissions (not added to COMPANIES,
# whose draws every other template's seeds depend on). Not built on a listed cement maker (台泥 亞泥 嘉泥 環泥 幸福
# 信大 東泥).
EMITTER_EXTRA: tuple[str, ...] = ("峴石水泥",)


def company_industry(name: str) -> str:
    """The industry a company name ends with (the longest matching suffix); KeyError for a name without one."""
    for industry in sorted(INDUSTRY_EMISSIONS, key=len, reverse=True):
        if name.endswith(industry):
            return industry
    raise KeyError(f"company name {name!r} ends with no industry of INDUSTRY_EMISSIONS")


def emission_fits(name: str, tonnes: float, *, carbon_fee: bool = False) -> bool:
    """Whether a company of this name's industry plausibly emits `tonnes` a year (and pays the carbon fee)."""
    ceiling, covered = INDUSTRY_EMISSIONS[company_industry(name)]
    return (ceiling is None or tonnes <= ceiling) and (covered or not carbon_fee)


def pick_emitter(rng: random.Random, tonnes: float, *, carbon_fee: bool = False) -> str:
    """A company whose industry fits an annual emission (or reduction project) of `tonnes`; with carbon_fee, one
    the carbon fee covers (a manufacturer or power company)."""
    pool = [n for n in COMPANIES + EMITTER_EXTRA if emission_fits(n, tonnes, carbon_fee=carbon_fee)]
    return rng.choice(pool)


INDUSTRIES: tuple[str, ...] = (
    "半導體", "電子零組件", "食品", "營建", "航運", "生技醫療", "紡織", "鋼鐵", "塑化", "綠能",
    "軟體服務", "零售百貨", "汽車零件", "通訊網路", "觀光餐飲", "造紙", "機械設備", "光電",
)

PERSONS: tuple[str, ...] = (
    "陳怡君", "林志豪", "黃淑芬", "張家豪", "李雅婷", "王俊傑", "吳佩珊", "劉冠廷", "蔡宜蓁", "楊承翰",
    "許雅雯", "鄭宇軒", "謝欣怡", "郭建宏", "洪詩涵", "曾柏宇", "邱美玲", "廖哲瑋", "賴佳穎", "周信宏",
    "葉思妤", "蘇文彬", "莊惠如", "呂明哲", "江婉婷", "何宗翰", "羅怡蓉", "高士傑", "潘筱涵", "簡志明",
    "朱雅琪", "游振宇", "彭淑惠", "詹子賢", "鍾欣妤", "施育誠", "沈佳蓉", "宋承恩", "盧怡伶", "杜昱廷",
)

BANKS: tuple[str, ...] = (
    "澐泰商業銀行", "岱信商業銀行", "沐恩商業銀行", "栩豐商業銀行", "霽安商業銀行", "靖和商業銀行",
    "崧盛商業銀行", "璟岳商業銀行", "曜川商業銀行", "晴川商業銀行",
)

# Fictional 投信 (securities investment trust companies); a fund is one of their products.
FUND_HOUSES: tuple[str, ...] = ("岱嶺投信", "霽川投信", "沐嵐投信", "栩光投信", "靖峰投信", "澄川投信")
FUND_THEMES: tuple[str, ...] = ("台灣成長", "科技趨勢", "高股息", "全球平衡", "中小型", "亞太收益")

# Fictional exchanges / platforms for crypto and fintech scenarios.
EXCHANGES: tuple[str, ...] = (
    "嵐嶼幣所", "匯鏈交易所", "星澄數位資產平台", "福爾摩沙幣倉", "島嶼鏈交易所", "晨曦數位資產交易所",
)

# Fictional tokens: a Chinese name plus an upper-case ticker (tickers are allowed by the zh checker).
TOKENS: tuple[tuple[str, str], ...] = (
    ("奇萊幣", "QLC"), ("阿里山鏈", "ALS"), ("清境代幣", "QJT"), ("福爾摩沙幣", "FMS"), ("太魯閣幣", "TRK"),
    ("墾丁幣", "KTC"), ("合歡鏈", "HHC"), ("淡水幣", "TSW"), ("雪山代幣", "SNW"), ("蘭嶼幣", "LYC"),
)

PAYMENT_FIRMS: tuple[str, ...] = ("島嶼支付", "晨曦行動支付", "澐通電子支付", "福爾摩沙支付", "青杉支付")
DIGITAL_BANKS: tuple[str, ...] = ("樂活純網銀", "星光純網銀", "島嶼純網銀", "晨曦純網銀")
INSURERS: tuple[str, ...] = ("禾豐人壽", "允誠人壽", "青嵐人壽", "沛然人壽", "恆岳人壽")
# Prefixes of small non-profit organisations (social enterprises, foundations).
ORG_PREFIXES: tuple[str, ...] = ("晨光", "青禾", "暖陽", "山海", "星語", "禾苗", "小樹", "海風")


def all_names() -> tuple[str, ...]:
    """Every fictional name a template can print (the tests and the realism benchmark check them)."""
    return (COMPANIES + EMITTER_EXTRA + BANKS + FUND_HOUSES + EXCHANGES + tuple(t for t, _ in TOKENS) + PAYMENT_FIRMS
            + DIGITAL_BANKS + INSURERS + ORG_PREFIXES)


def pick_fund(rng: random.Random, theme: str | None = None) -> str:
    """A 投信 product: 「岱嶺投信台灣成長基金」."""
    return rng.choice(FUND_HOUSES) + (theme or rng.choice(FUND_THEMES)) + "基金"


def pick_funds(rng: random.Random, k: int) -> list[str]:
    """k funds of distinct 投信 (so their names differ)."""
    return [h + rng.choice(FUND_THEMES) + "基金" for h in rng.sample(FUND_HOUSES, k)]


def pick_company(rng: random.Random) -> str:
    return rng.choice(COMPANIES)


def pick_companies(rng: random.Random, k: int) -> list[str]:
    """k distinct company names."""
    return rng.sample(COMPANIES, k)


def pick_industry(rng: random.Random) -> str:
    return rng.choice(INDUSTRIES)


def pick_person(rng: random.Random) -> str:
    return rng.choice(PERSONS)


def pick_persons(rng: random.Random, k: int) -> list[str]:
    return rng.sample(PERSONS, k)


def pick_bank(rng: random.Random) -> str:
    return rng.choice(BANKS)


def pick_exchange(rng: random.Random) -> str:
    return rng.choice(EXCHANGES)


def pick_token(rng: random.Random) -> tuple[str, str]:
    """(zh name, ticker) of a fictional token."""
    return rng.choice(TOKENS)


# ---------------------------------------------------------------- inputs (already rounded)


def pick_money(rng: random.Random, lo: int, hi: int, step: int = 1) -> int:
    """An integer amount in [lo, hi] that is a multiple of `step` (lo and hi are rounded inward)."""
    first = -(-lo // step)
    last = hi // step
    if last < first:
        raise ValueError(f"no multiple of {step} in [{lo}, {hi}]")
    return rng.randint(first, last) * step


def pick_decimal(rng: random.Random, lo: float, hi: float, digits: int = 2) -> float:
    """A value in [lo, hi] with at most `digits` decimals; the float equals its own decimal display."""
    scale = 10**digits
    k = rng.randint(math.ceil(lo * scale - 1e-9), math.floor(hi * scale + 1e-9))
    return round(k / scale, digits)


def pick_rate(rng: random.Random, lo_pct: float, hi_pct: float, step_pct: float = 0.25) -> float:
    """A rate as a fraction, drawn on a grid of `step_pct` percentage points in [lo_pct, hi_pct];
    e.g. pick_rate(rng, 2, 9) may return 0.0525, shown by pct() as 「5.25%」."""
    n_lo = math.ceil(lo_pct / step_pct - 1e-9)
    n_hi = math.floor(hi_pct / step_pct + 1e-9)
    k = rng.randint(n_lo, n_hi)
    return round(k * step_pct / 100, 10)


def pick_int(rng: random.Random, lo: int, hi: int) -> int:
    return rng.randint(lo, hi)


# ---------------------------------------------------------------- formatting


def r2(x: float) -> float:
    """Round half away from zero to 2 decimals (Python's round is banker's on exact halves of the
    decimal representation; display rounding should match what a person writes)."""
    return rnd(x, 2)


def rnd(x: float, digits: int) -> float:
    """Round half away from zero to `digits` decimals, tolerating float noise just below the half."""
    scale = 10**digits
    y = abs(x) * scale
    r = math.floor(y + 0.5 + 1e-9)
    return math.copysign(r / scale, x) if r else 0.0


def num(x: float, digits: int | None = None) -> str:
    """Thousands-separated number. digits=None: integers without decimals, others with 2 decimals.

    >>> num(1234567), num(0.08), num(1234.5), num(3.14159, 4), num(-2500.0)
    ('1,234,567', '0.08', '1,234.50', '3.1416', '-2,500')
    """
    if digits is None:
        digits = 0 if rnd(float(x), 2).is_integer() else 2  # 14639499.999999998 is shown as an integer
    y = rnd(float(x), digits)
    if y == 0:
        y = 0.0  # never print "-0"
    return f"{y:,.{digits}f}"


def ntd(x: float, digits: int | None = None) -> str:
    """Money in New Taiwan dollars at FinChain's magnitudes.

    >>> ntd(1234567), ntd(0.08), ntd(-1500), ntd(12.5)
    ('NT$1,234,567', 'NT$0.08', '-NT$1,500', 'NT$12.50')
    """
    s = num(abs(x), digits)
    return ("-" if x < 0 and s.strip("0.,") else "") + "NT$" + s


def plus(x: float, fmt=None) -> str:
    """A signed term inside a formula: 「+ NT$5,000」 / 「− NT$5,000」 (never parentheses, which read as
    negatives in Taiwanese statements).

    >>> plus(5000, ntd), plus(-0.25)
    ('+ NT$5,000', '− 0.25')
    """
    f = fmt or fmt_value
    return ("− " if x < 0 else "+ ") + f(abs(x))


def usd(x: float, digits: int | None = None) -> str:
    """US-dollar amounts (forex and crypto prices)."""
    s = num(abs(x), digits)
    return ("-" if x < 0 and s.strip("0.,") else "") + "US$" + s


def pct(x: float, digits: int = 2) -> str:
    """A fraction shown as a percentage.

    >>> pct(0.0525), pct(0.0525, 1), pct(0.12, 0), pct(-0.031)
    ('5.25%', '5.3%', '12%', '-3.10%')
    """
    return num(x * 100, digits) + "%"


def pct_exact(x: float, max_digits: int = 6) -> str:
    """A percentage with every decimal the value has (up to max_digits, at least 2), for a rate computed from
    inputs (1.23 × 5.5% = 6.765%) that a later step multiplies: shown as used, not rounded to 2 decimals.

    >>> pct_exact(0.06765), pct_exact(-0.0997125), pct_exact(0.1)
    ('6.765%', '-9.97125%', '10.00%')
    """
    s = pct(x, max_digits)
    head, _, tail = s[:-1].partition(".")
    tail = tail.rstrip("0").ljust(2, "0")
    return f"{head}.{tail}%"


def times(x: float, digits: int = 2) -> str:
    """A multiple (ratios such as 本益比, 週轉率): 「12.35 倍」."""
    return num(x, digits) + " 倍"


def multiple_value(x: float) -> str:
    """A multiple in a solution line, shown like every other intermediate value: 「1.5 倍」."""
    return f"{fmt_value(x)} 倍"


def pick_year(rng: random.Random) -> int:
    """A recent fiscal year for a scenario."""
    return rng.randint(2020, 2025)


def fmt_value(x: float) -> str:
    """How an intermediate value is shown in a solution line: thousands separators, up to 4 decimals,
    trailing zeros dropped (small values keep 4 significant decimals)."""
    if rnd(float(x), 4).is_integer():
        return num(x, 0)
    digits = 2 if abs(x) >= 100 else 4
    s = num(x, digits)
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s


def steps_text(steps: Iterable[tuple[str, float | str]], answer: str | None = None) -> str:
    """Render solution lines 「步驟 1：{description} = {value}」 from (description, value) pairs; a value
    given as a str is printed as is, a float through fmt_value. An answer adds a last line 「答案：…」.

    >>> print(steps_text([("毛利 = 500 − 300", 200.0), ("結論", "須申報")], answer="是"))
    步驟 1：毛利 = 500 − 300 = 200
    步驟 2：結論 = 須申報
    答案：是
    """
    lines = []
    for i, (desc, value) in enumerate(steps, 1):
        shown = value if isinstance(value, str) else fmt_value(value)
        lines.append(f"步驟 {i}：{desc} = {shown}")
    if answer is not None:
        lines.append(f"答案：{answer}")
    return "\n".join(lines)


# ---------------------------------------------------------------- solution builder


class Chain:
    """Collects the steps of a solution as it is computed, then builds the Problem.

    c = Chain()
    gp = c.add("毛利", revenue - cogs, f"營業收入 − 營業成本 = {ntd(revenue)} − {ntd(cogs)}", ntd)
    return c.numeric(question, gp, ntd(gp), params={"revenue": revenue, "cogs": cogs})

    renders 「步驟 1：毛利 = 營業收入 − 營業成本 = NT$5,000 − NT$3,000 = NT$2,000」.

    `add` returns the exact value so the computation reads top to bottom; the description shows the
    formula with the inputs, `show` formats the value in the solution line (default fmt_value)."""

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.lines: list[tuple[str, str]] = []

    def add(self, label: str, value: float, desc: str | None = None, show=None) -> float:
        value = float(value)
        if not math.isfinite(value):
            raise ValueError(f"step {label!r} is not finite: {value}")
        self.steps.append(Step(label, value))
        text = show(value) if show is not None else fmt_value(value)
        self.lines.append((f"{label} = {desc}" if desc else label, text))
        return value

    def note(self, desc: str, conclusion: str) -> None:
        """A reasoning line with no numeric value (categorical conclusions); not a Step."""
        self.lines.append((desc, conclusion))

    def numeric(self, question: str, answer: float, display: str, params: dict | None = None) -> Problem:
        """A numeric problem. `display` tells the answer's kind (「14.12%」 a percentage, 「NT$…」/「US$…」
        money, else a plain number); the rounding is the one the question asks for (`asked_decimals`), and a
        question that asks for none gets the standard clause of its kind (`rounding_clause`). The gold
        answer is then written digits only, as the system prompt asks of a model (`gold_number`)."""
        answer = float(answer)
        if not math.isfinite(answer):
            raise ValueError(f"answer is not finite: {answer}")
        odd = nonstandard_rounding(question)
        if odd:  # one wording for every question: write the instruction with `ask`
            raise ValueError(f"rounding instruction not written by ask(): {odd!r} in {question!r}")
        percent = display.rstrip().endswith("%")
        currency = "US$" if "US$" in display else "NT$" if "NT$" in display else None
        decimals = asked_decimals(question)
        if decimals is None:
            decimals = default_decimals(answer, currency)
            question = add_clause(question, rounding_clause(decimals, percent, currency))
        elif currency and decimals > 0 and default_decimals(answer, currency) == 0:
            # the standard cents clause on an amount of a million or more: ask for whole units instead
            cents = rounding_clause(2, False, currency)
            if cents in question:
                decimals = 0
                question = question.replace(cents, rounding_clause(0, False, currency))
        gold = gold_number(answer, decimals, percent)
        return Problem(
            question=question,
            solution=steps_text(self.lines, answer=gold),
            steps=tuple(self.steps),
            answer_type="numeric",
            answer_value=answer,
            answer_display=gold,
            answer_decimals=decimals,
            params=dict(params or {}),
        )

    def categorical(self, question: str, answer: str, params: dict | None = None) -> Problem:
        return Problem(
            question=question,
            solution=steps_text(self.lines, answer=answer),
            steps=tuple(self.steps),
            answer_type="categorical",
            answer_text=answer,
            answer_display=answer,
            params=dict(params or {}),
        )


# Taiwan's corporate income tax (營利事業所得稅) rate since 2018. Every template about a Taiwan company uses it;
# a template that wants another rate must call it an assumption (「假設」) in the question.
TW_CORPORATE_TAX = CORPORATE_TAX  # facts.py (所得稅法 第 5 條)

# ---------------------------------------------------------------- the answer instruction
# Every rounding instruction of every question is written by `ask` (directly or through the constants below),
# so there is one wording: 「四捨五入至小數點後第 N 位」 or 「四捨五入至整數」. 「取到小數第二位」 reads as truncation
# to some, and a model that truncates would be marked wrong against a rounded gold; Chain.numeric rejects any
# other rounding wording (`nonstandard_rounding`).


def ask(decimals: int, unit: str | None = None, note: str | None = None) -> str:
    """The answer instruction of a numeric question: the unit to answer in (「百分比」, 「新臺幣元」, 「美元」,
    「股數」; None for a plain number), the rounding, and an optional note such as 「虧損時為負值」.

    >>> ask(2, "百分比"), ask(0, "新臺幣元", "虧損時為負值"), ask(4)
    ('（請以百分比表示，四捨五入至小數點後第 2 位）', '（請以新臺幣元表示，四捨五入至整數，虧損時為負值）', '（四捨五入至小數點後第 4 位）')
    """
    if not 0 <= decimals <= 6:
        raise ValueError(f"decimals out of range: {decimals}")
    lead = f"請以{unit}表示，" if unit else ""
    place = "整數" if decimals == 0 else f"小數點後第 {decimals} 位"
    return f"（{lead}四捨五入至{place}{'，' + note if note else ''}）"


# Standard answer instructions appended to questions.
ASK_MONEY = ask(2, "新臺幣元")
ASK_MONEY_INT = ask(0, "新臺幣元")
ASK_USD = ask(2, "美元")
ASK_PCT = ask(2, "百分比")
ASK_NUM = ask(2)

# ---------------------------------------------------------------- the rounding a question asks for
# One rule, used by Chain.numeric (the gold display) and by the tests and benchmarks: the LAST clause of the
# question that names a decimal place decides — 「四捨五入至小數點後第 2 位」, 「四捨五入至整數」. Older
# wordings (「取到小數第二位」, 「四捨五入至整數元」) are still read, so a record from an earlier release parses.
_ROUNDING_CLAUSE = re.compile(r"小數點後第\s*(\d)\s*位|小數第([一二三四])位|整數(?:元|股)?")
_ZH_PLACE = {"一": 1, "二": 2, "三": 3, "四": 4}
# The one wording `ask` writes, and any other way of saying how to round (truncation-ambiguous 取到, 整數元).
_STANDARD_ROUNDING = re.compile(r"四捨五入至(?:小數點後第 \d 位|整數(?![元股位]))")
_ANY_ROUNDING = re.compile(r"取到|取至|小數第|小數點後|四捨五入|整數[元股位]|捨去|無條件進位|無條件捨")


def nonstandard_rounding(question: str) -> str | None:
    """The first rounding instruction in `question` that is not the wording of `ask`, or None.

    >>> nonstandard_rounding("（以百分比表示，取到小數第二位）"), nonstandard_rounding("（四捨五入至整數元）")
    ('取到', '四捨五入')
    >>> nonstandard_rounding("（請以新臺幣元表示，四捨五入至整數，虧損時為負值）") is None
    True
    """
    m = _ANY_ROUNDING.search(_STANDARD_ROUNDING.sub("", question))
    return m.group(0) if m else None


def asked_decimals(question: str) -> int | None:
    """The number of decimals the question asks the answer to be rounded to (0 = an integer), or None.

    >>> asked_decimals("請問淨利？（四捨五入至整數）"), asked_decimals("（以百分比表示，取到小數第二位）")
    (0, 2)
    >>> asked_decimals("（四捨五入至小數點後第 4 位）"), asked_decimals("請問淨利？")
    (4, None)
    """
    last = None
    for last in _ROUNDING_CLAUSE.finditer(question):  # noqa: B007  (the last match is the one wanted)
        pass
    if last is None:
        return None
    if last.group(1):
        return int(last.group(1))
    if last.group(2):
        return _ZH_PLACE[last.group(2)]
    return 0


def default_decimals(answer: float, currency: str | None) -> int:
    """The rounding stated for a question that named none: whole units for money of a million or more
    (no one quotes NT$1,234,567,890.12), two decimals otherwise."""
    return 0 if currency and abs(answer) >= 1_000_000 else 2


def rounding_clause(decimals: int, percent: bool, currency: str | None) -> str:
    """The standard clause appended to a question that stated no rounding (written by `ask`)."""
    unit = "百分比" if percent else {"NT$": "新臺幣元", "US$": "美元"}.get(currency or "")
    return ask(decimals, unit)


def add_clause(question: str, clause: str) -> str:
    """Append an answer instruction 「（…）」; one that ends the question already is merged into it.

    >>> add_clause("淨效益是多少？（虧損時為負值）", "（四捨五入至整數）")
    '淨效益是多少？（四捨五入至整數，虧損時為負值）'
    """
    m = re.search(r"（([^（）]*)）$", question)
    if m:
        return question[:m.start()] + clause[:-1] + "，" + m.group(1) + "）"
    return question + clause


def gold_number(value: float, decimals: int, percent: bool = False) -> str:
    """The gold answer as the system prompt asks a model to write it: Arabic digits, decimal point, minus
    sign, % — no currency, unit or thousands separators.

    >>> gold_number(1234567.891, 0), gold_number(0.14125, 2, percent=True), gold_number(-0.0001, 2)
    ('1234568', '14.13%', '0.00')
    """
    x = rnd(value * 100 if percent else value, decimals)
    text = f"{x:.{decimals}f}"
    if text.lstrip("-").strip("0.") == "":
        text = text.lstrip("-")  # never "-0.00"
    return text + ("%" if percent else "")


def join_items(items: Sequence[str]) -> str:
    """「A、B與C」."""
    if len(items) <= 1:
        return "".join(items)
    return "、".join(items[:-1]) + "與" + items[-1]

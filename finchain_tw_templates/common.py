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
from collections.abc import Iterable, Sequence

from finchain_tw_templates.core import Problem, Step

# Fictional Taiwanese-style company names (any resemblance to a real company is accidental; they are
# paired with industries at random).
COMPANIES: tuple[str, ...] = (
    "宏遠精密", "永豐泰科技", "瑞光電子", "建鼎營造", "華聯食品", "晟達光電", "群峰半導體", "德昌紡織",
    "信和物流", "冠宇生技", "東嘉航運", "新禾能源", "聯昇機械", "立泰化工", "嘉益醫材", "鼎盛建設",
    "和順汽車零件", "凱旋資訊", "育成綠能", "長興塑膠", "萬泰鋼鐵", "明陽通訊", "國瑞精機", "富邦泰商貿",
    "全揚電機", "正隆包材", "大同昌百貨", "晶元微系統", "太平洋茶業", "百川水務", "台穎光學", "振宇工業",
    "金豐餐飲", "群益軟體", "南星造紙", "天佑製藥", "榮泰電池", "昱成科技", "福懋家居", "合盛農產",
)

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
    "瑞光商業銀行", "永信商業銀行", "華豐商業銀行", "東亞聯合銀行", "台元商業銀行", "新光泰商業銀行",
    "中興合作銀行", "安和商業銀行", "大信商業銀行", "合隆商業銀行",
)

# Fictional exchanges / platforms for crypto and fintech scenarios.
EXCHANGES: tuple[str, ...] = (
    "寶島幣所", "匯鏈交易所", "星鏈數位資產平台", "福爾摩沙幣倉", "島嶼鏈交易所", "晨曦數位資產交易所",
)

# Fictional tokens: a Chinese name plus an upper-case ticker (tickers are allowed by the zh checker).
TOKENS: tuple[tuple[str, str], ...] = (
    ("玉山幣", "YSC"), ("阿里山鏈", "ALS"), ("日月代幣", "SMT"), ("福爾摩沙幣", "FMS"), ("太魯閣幣", "TRK"),
    ("墾丁幣", "KTC"), ("合歡鏈", "HHC"), ("淡水幣", "TSW"), ("雪山代幣", "SNW"), ("蘭嶼幣", "LYC"),
)


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
        answer = float(answer)
        if not math.isfinite(answer):
            raise ValueError(f"answer is not finite: {answer}")
        return Problem(
            question=question,
            solution=steps_text(self.lines, answer=display),
            steps=tuple(self.steps),
            answer_type="numeric",
            answer_value=answer,
            answer_display=display,
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


# Standard answer instructions appended to questions.
ASK_MONEY = "（請以新臺幣元表示，四捨五入至小數點後第 2 位）"
ASK_PCT = "（請以百分比表示，四捨五入至小數點後第 2 位）"
ASK_NUM = "（四捨五入至小數點後第 2 位）"


def join_items(items: Sequence[str]) -> str:
    """「A、B與C」."""
    if len(items) <= 1:
        return "".join(items)
    return "、".join(items[:-1]) + "與" + items[-1]

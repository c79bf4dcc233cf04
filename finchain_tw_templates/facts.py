"""Taiwan rules, rates and contract terms the FinChain-TW templates state or rely on, in one place. Each
constant names its source; FACTS.md lists the same facts with the article and the date they were checked,
and marks the figures still to confirm. Standard library only.

Tick and strike grids are tables of (upper bound, step): a price p uses the step of the first row whose
bound is above p (bounds are exclusive, 「未滿」).
"""

from __future__ import annotations

import math
import random
from decimal import Decimal

# ---------------------------------------------------------------- anti-money laundering
# 洗錢防制法 (大額通貨交易申報) and 金融機構防制洗錢辦法 第 2 條 (一定金額 = NT$50 萬, 通貨交易 = 單筆現金收或付)
# and its reporting article: a single cash transaction of NT$500,000 or more (incl. foreign-currency
# equivalent) is reported to 法務部調查局 within five business days. Several smaller cash deposits that add up
# to more are not a 大額通貨交易; splitting to stay under the line is a 疑似洗錢 sign (a different report).
CASH_REPORT_THRESHOLD = 500_000
CASH_REPORT_BODY = "法務部調查局"
CASH_REPORT_DAYS = 5  # business days after the transaction

# ---------------------------------------------------------------- banking
# 商業銀行設立標準 第 2 條; FSC 2018 純網路銀行 rules: a pure-internet bank needs paid-in capital of at least
# NT$100 億, the same as a commercial bank.
INTERNET_BANK_MIN_CAPITAL = 10_000_000_000
# 銀行資本適足性及資本等級管理辦法 第 5 條 (minimums including the 2.5% 留存緩衝 since 2019).
CET1_MIN, TIER1_MIN, CAR_MIN = 0.07, 0.085, 0.105
CET1_BASE_MIN, CONSERVATION_BUFFER = 0.045, 0.025  # Basel III core minimum + conservation buffer = 7%
LEVERAGE_MIN = 0.03
# 存款保險條例 第 13 條, 主管機關公告: NT$300 萬 per depositor per insured institution.
DEPOSIT_INSURANCE_LIMIT = 3_000_000

# ---------------------------------------------------------------- securities (TWSE)
# 臺灣證券交易所營業細則 (申報買賣價格之升降單位), stocks.
TWSE_STOCK_TICKS: tuple[tuple[float, float], ...] = (
    (10, 0.01), (50, 0.05), (100, 0.1), (500, 0.5), (1_000, 1), (math.inf, 5))
BOARD_LOT = 1_000  # 1 張 = 1,000 股
DAILY_PRICE_LIMIT = 0.10  # 營業細則 第 63 條: a stock moves at most 10% from the previous close (since 2015-06-01)
SECURITIES_TX_TAX_STOCK = 0.003  # 證券交易稅條例 第 2 條: 公司發行之股票, on the seller
SECURITIES_TX_TAX_ETF = 0.001  # 受益憑證 (ETF)
BROKER_FEE_CAP = 0.001425  # 證券商手續費上限 千分之 1.425

# ---------------------------------------------------------------- derivatives (TAIFEX)
TAIEX_FUTURES_MULTIPLIER = 200  # 臺股期貨 (TX): NT$200 per index point
MINI_TAIEX_FUTURES_MULTIPLIER = 50  # 小型臺指期貨 (MTX)
TAIEX_OPTION_MULTIPLIER = 50  # 臺指選擇權 (TXO): NT$50 per index point
STOCK_OPTION_SHARES = 2_000  # 股票選擇權: one contract = 2,000 shares of a stock
# 股票選擇權 履約價格間距 (near month), by strike level; the lowest strike is NT$2.
STOCK_OPTION_STRIKE_STEPS: tuple[tuple[float, float], ...] = (
    (10, 0.2), (25, 0.5), (50, 1), (100, 2.5), (250, 5), (1_000, 10), (math.inf, 50))
# 股票選擇權 權利金報價單位 (points; one point = NT$1 per share, × 2,000 per contract).
STOCK_OPTION_PREMIUM_TICKS: tuple[tuple[float, float], ...] = (
    (5, 0.01), (15, 0.05), (50, 0.1), (150, 0.5), (1_000, 1), (math.inf, 5))

# ---------------------------------------------------------------- taxes and contributions
CORPORATE_TAX = 0.20  # 所得稅法 第 5 條 (營利事業所得稅, since 2018)
DIVIDEND_CREDIT_RATE, DIVIDEND_CREDIT_CAP = 0.085, 80_000  # 所得稅法 第 15 條第 4 項 (合併計稅)
DIVIDEND_SEPARATE_RATE = 0.28  # 所得稅法 第 15 條第 4 項 (分開計稅)
NHI_SUPPLEMENTARY_RATE = 0.0211  # 全民健康保險法 第 31 條, 補充保險費率 2.11% (since 2021)
NHI_SUPPLEMENTARY_MIN = 20_000  # a single dividend payment from NT$20,000
LABOR_PENSION_EMPLOYER_MIN = 0.06  # 勞工退休金條例 第 14 條: employer at least 6%, employee up to 6%
# 溫室氣體 碳費 (環境部 碳費收費辦法, 費率 2025): general NT$300 per tonne; 優惠費率 NT$100 (B) and NT$50 (A).
CARBON_FEE_RATES = (50, 100, 300)
CARBON_FEE_DEDUCTION = 25_000  # 一般事業 deducts 25,000 tonnes

# ---------------------------------------------------------------- statistical table values
# A question that needs a table value states the value to use (and the gold is computed with it), so a model
# that uses the stated value is exactly right: one-sided standard-normal quantiles, 3 decimals.
Z_ONE_SIDED: dict[float, float] = {0.9: 1.282, 0.95: 1.645, 0.975: 1.960, 0.99: 2.326}


def _step(table: tuple[tuple[float, float], ...], x: float) -> float:
    for bound, step in table:
        if x < bound:
            return step
    raise AssertionError("unreachable: the last bound is infinite")


def twse_tick(price: float) -> float:
    """The TWSE tick of a stock price (0.01 below NT$10 … 5 from NT$1,000)."""
    return _step(TWSE_STOCK_TICKS, price)


def on_grid(x: float, step: float) -> bool:
    """x is a whole multiple of step (exact in decimal: 12.35 is on the 0.05 grid)."""
    return Decimal(repr(float(x))) % Decimal(repr(float(step))) == 0


def is_twse_price(price: float) -> bool:
    """A stock price a TWSE order can carry."""
    return price > 0 and on_grid(price, twse_tick(price))


def _snap(x: float, table: tuple[tuple[float, float], ...], lo: float | None, hi: float | None) -> float:
    """The grid point nearest to x with the step of x's band, kept within [lo, hi] when one exists."""
    step = _step(table, x)
    # every band's bound is on the grids of both bands, so rounding up to the next band stays valid
    y = round(round(x / step) * step, 2)
    if lo is not None and y < lo - 1e-9:
        y = round(math.ceil(lo / _step(table, lo) - 1e-9) * _step(table, lo), 2)
    if hi is not None and y > hi + 1e-9:
        y = round(math.floor(hi / _step(table, hi) + 1e-9) * _step(table, hi), 2)
    return float(y)


def twse_price(x: float, lo: float | None = None, hi: float | None = None) -> float:
    """x moved to the nearest valid TWSE stock price (within [lo, hi] when given).

    >>> twse_price(123.7), twse_price(523.7), twse_price(12.34), twse_price(1234.0), twse_price(9.996)
    (123.5, 524.0, 12.35, 1235.0, 10.0)
    """
    return _snap(x, TWSE_STOCK_TICKS, lo, hi)


def pick_twse_price(rng: random.Random, lo: float, hi: float) -> float:
    """A stock price in [lo, hi] on the TWSE tick grid (one draw of the rng, like pick_decimal)."""
    k = rng.randint(math.ceil(lo * 100 - 1e-9), math.floor(hi * 100 + 1e-9))
    return twse_price(k / 100, lo, hi)


def stock_option_strike(x: float, lo: float | None = None, hi: float | None = None) -> float:
    """x moved to the nearest TAIFEX stock-option strike (near-month intervals)."""
    return max(2.0, _snap(x, STOCK_OPTION_STRIKE_STEPS, lo, hi))


def is_stock_option_strike(k: float) -> bool:
    return k >= 2 and on_grid(k, _step(STOCK_OPTION_STRIKE_STEPS, k))


def stock_option_premium(x: float, lo: float | None = None, hi: float | None = None) -> float:
    """x moved to the nearest TAIFEX stock-option premium tick (0.01 below 5 points … 5 from 1,000)."""
    return max(0.01, _snap(x, STOCK_OPTION_PREMIUM_TICKS, lo, hi))


def is_stock_option_premium(p: float) -> bool:
    return p > 0 and on_grid(p, _step(STOCK_OPTION_PREMIUM_TICKS, p))


def annuity_factor(r: float, n: int) -> float:
    """The present-value annuity factor a question states: 〔1 − (1 + r)^−n〕÷ r, to 4 decimals as in a table
    (the gold is computed with it).

    >>> annuity_factor(0.055, 6), annuity_factor(0.08, 5)
    (4.9955, 3.9927)
    """
    x = (1 - (1 + r) ** -n) / r
    return math.floor(x * 10_000 + 0.5 + 1e-9) / 10_000


def annuity_factor_given(r: float, n: int) -> str:
    """The clause that gives it: 「6 年、5.5% 的年金現值因子以 4.9955 計」."""
    rate = f"{r * 100:.2f}".rstrip("0").rstrip(".")
    return f"{n} 年、{rate}% 的年金現值因子以 {annuity_factor(r, n):.4f} 計"


def z_value(cl: float) -> float:
    """The one-sided standard-normal quantile a question states for a confidence level (0.99 → 2.326)."""
    return Z_ONE_SIDED[cl]

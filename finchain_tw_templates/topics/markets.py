"""金融市場 (markets): bond_pricing, forex_trading, option_pricing, stock_market_analysis."""

from __future__ import annotations

import math
import random

from finchain_tw_templates.common import (
    ASK_MONEY,
    ASK_NUM,
    ASK_PCT,
    ASK_USD,
    Chain,
    ask,
    fmt_value,
    ntd,
    num,
    pct,
    pick_company,
    pick_decimal,
    pick_money,
    pick_person,
    pick_rate,
    plus,
    usd,
)
from finchain_tw_templates.core import Problem, template
from finchain_tw_templates.facts import (
    STOCK_OPTION_SHARES,
    stock_option_premium,
    stock_option_strike,
    twse_price,
)

D = "markets"


def _n(x: float) -> float:
    """Standard normal CDF from the error function."""
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def _px(v: float) -> str:
    return ntd(v, 4)


def _close(v: float) -> str:
    """A closing price as quoted: the decimals its TWSE tick needs (123.5, 12.35, 781)."""
    return fmt_value(v)


# ---------------------------------------------------------------- bond_pricing


@template(D, "bond_pricing", "bond_pricing_basic1", "基礎")
def bond_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    face = rng.choice([1_000, 10_000, 100_000])
    coupon = pick_rate(rng, 1, 8, 0.25)
    price = pick_decimal(rng, face * 0.85, face * 1.15, 2)
    q = (f"{co}公司發行的公司債面額 {ntd(face)}，票面利率 {pct(coupon)}，每年付息一次，目前市價 {ntd(price)}。"
         f"請計算該債券的當期殖利率。{ASK_PCT}")
    c = Chain()
    cpn = c.add("每年債息", face * coupon, f"{ntd(face)} × {pct(coupon)}", ntd)
    cy = c.add("當期殖利率", cpn / price, f"{ntd(cpn)} ÷ {ntd(price)}", pct)
    return c.numeric(q, cy, pct(cy), params={"face": face, "coupon": coupon, "price": price})


@template(D, "bond_pricing", "bond_pricing_basic2", "基礎")
def bond_basic2(rng: random.Random) -> Problem:
    face = rng.choice([1_000, 10_000, 100_000, 1_000_000])
    y = pick_rate(rng, 0.5, 8, 0.25)
    n = rng.randint(1, 20)
    q = (f"一張面額 {ntd(face)}、{n} 年後到期的零息公債，市場殖利率為 {pct(y)}（年複利）。請計算其合理價格。{ASK_MONEY}")
    c = Chain()
    df = c.add("折現因子", (1 + y) ** -n, f"1 ÷ （1 + {pct(y)}）^{n}")
    p = c.add("債券價格", face * df, f"{ntd(face)} × {fmt_value(df)}", ntd)
    return c.numeric(q, p, ntd(p, 2), params={"face": face, "y": y, "n": n})


@template(D, "bond_pricing", "bond_pricing_intermediate1", "中級")
def bond_inter1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    face = rng.choice([1_000, 10_000, 100_000])
    coupon = pick_rate(rng, 1, 8, 0.25)
    y = pick_rate(rng, 0.5, 9, 0.25)
    n = rng.randint(2, 15)
    q = (f"{co}公司債面額 {ntd(face)}，票面利率 {pct(coupon)}，每年付息一次，尚有 {n} 年到期。若市場要求的殖利率為 "
         f"{pct(y)}，請計算債券價格。{ASK_MONEY}")
    c = Chain()
    cpn = c.add("每年債息", face * coupon, f"{ntd(face)} × {pct(coupon)}", ntd)
    ann = c.add("債息現值", cpn * (1 - (1 + y) ** -n) / y, f"{ntd(cpn)} × 〔1 − （1 + {pct(y)}）^−{n}〕÷ {pct(y)}", ntd)
    pv_face = c.add("面額現值", face / (1 + y) ** n, f"{ntd(face)} ÷ （1 + {pct(y)}）^{n}", ntd)
    p = c.add("債券價格", ann + pv_face, f"{ntd(ann)} + {ntd(pv_face)}", ntd)
    return c.numeric(q, p, ntd(p, 2), params={"face": face, "coupon": coupon, "y": y, "n": n})


@template(D, "bond_pricing", "bond_pricing_intermediate2", "中級")
def bond_inter2(rng: random.Random) -> Problem:
    face = rng.choice([1_000, 10_000, 100_000])
    coupon = pick_rate(rng, 1, 8, 0.25)
    y = pick_rate(rng, 0.5, 9, 0.25)
    years = rng.randint(2, 15)
    q = (f"一張面額 {ntd(face)} 的公債，票面利率 {pct(coupon)}，每半年付息一次，剩餘 {years} 年到期。市場殖利率為 "
         f"{pct(y)}（年利率，半年複利）。請計算債券價格。{ASK_MONEY}")
    c = Chain()
    cpn = c.add("每期債息", face * coupon / 2, f"{ntd(face)} × {pct(coupon)} ÷ 2", ntd)
    n = c.add("付息期數", years * 2, f"{years} × 2", lambda v: f"{v:.0f} 期")
    i = c.add("每期殖利率", y / 2, f"{pct(y)} ÷ 2", lambda v: pct(v, 3))
    p = c.add("債券價格", cpn * (1 - (1 + i) ** -n) / i + face * (1 + i) ** -n,
              f"{ntd(cpn)} × 〔1 − （1 + {pct(i, 3)}）^−{n:.0f}〕÷ {pct(i, 3)} + {ntd(face)} ÷ （1 + {pct(i, 3)}）^{n:.0f}",
              ntd)
    return c.numeric(q, p, ntd(p, 2), params={"face": face, "coupon": coupon, "y": y, "years": years})


@template(D, "bond_pricing", "bond_pricing_advanced1", "進階")
def bond_adv1(rng: random.Random) -> Problem:
    face = rng.choice([1_000, 10_000, 100_000])
    coupon = pick_rate(rng, 1, 8, 0.25)
    y = pick_rate(rng, 1, 8, 0.25)
    n = rng.randint(3, 10)
    dy = pick_rate(rng, -1, 1, 0.25)
    if dy == 0:
        dy = 0.0025
    q = (f"一張面額 {ntd(face)}、票面利率 {pct(coupon)}、每年付息一次、{n} 年到期的債券，目前殖利率 {pct(y)}。"
         f"請計算其價格、麥考利存續期間與修正存續期間，並以修正存續期間估計殖利率{'上升' if dy > 0 else '下降'} "
         f"{abs(dy) * 10000:.0f} 個基點後的債券價格。{ASK_MONEY}")
    c = Chain()
    cpn = face * coupon
    flows = [(t, cpn + (face if t == n else 0)) for t in range(1, n + 1)]
    p = c.add("債券價格", sum(cf / (1 + y) ** t for t, cf in flows),
              f"Σ 現金流量 ÷ （1 + {pct(y)}）^t，t = 1…{n}", ntd)
    w = c.add("時間加權現值合計", sum(t * cf / (1 + y) ** t for t, cf in flows), "Σ t × 現金流量現值", ntd)
    mac = c.add("麥考利存續期間", w / p, f"{ntd(w)} ÷ {ntd(p)}", lambda v: f"{fmt_value(v)} 年")
    mod = c.add("修正存續期間", mac / (1 + y), f"{fmt_value(mac)} ÷ （1 + {pct(y)}）", lambda v: f"{fmt_value(v)} 年")
    chg = c.add("價格變動率估計", -mod * dy, f"−{fmt_value(mod)} × （{pct(dy)}）", pct)
    p1 = c.add("估計新價格", p * (1 + chg), f"{ntd(p)} × （1 {plus(chg, pct)}）", ntd)
    return c.numeric(q, p1, ntd(p1, 2), params={"face": face, "coupon": coupon, "y": y, "n": n,
                                                "dy_bp": abs(dy) * 10000, "_dy": dy})


# ---------------------------------------------------------------- forex_trading


@template(D, "forex_trading", "forex_trading_basic1", "基礎")
def fx_basic1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    twd = pick_money(rng, 10_000, 3_000_000, 1_000)
    rate = pick_decimal(rng, 27.5, 33.5, 3)
    q = (f"{who}準備出國，以 {ntd(twd)} 向銀行購買美元，銀行美元現金賣出匯率為 1 美元兌新臺幣 {rate:.3f} 元。"
         f"請計算可換得多少美元。{ASK_USD}")
    c = Chain()
    u = c.add("可換得美元", twd / rate, f"{ntd(twd)} ÷ {rate:.3f}", usd)
    return c.numeric(q, u, usd(u), params={"twd": twd, "rate": rate})


@template(D, "forex_trading", "forex_trading_basic2", "基礎")
def fx_basic2(rng: random.Random) -> Problem:
    usdtwd = pick_decimal(rng, 27.5, 33.5, 3)
    usdjpy = pick_decimal(rng, 105, 160, 2)
    amount = pick_money(rng, 10_000, 2_000_000, 1_000)
    q = (f"目前美元兌新臺幣匯率為 {usdtwd:.3f}，美元兌日圓匯率為 {usdjpy:.2f}。某貿易商需支付日圓 {amount:,} 元，"
         f"請以交叉匯率計算需準備多少新臺幣。{ASK_MONEY}")
    c = Chain()
    cross = c.add("日圓兌新臺幣交叉匯率", usdtwd / usdjpy, f"{usdtwd:.3f} ÷ {usdjpy:.2f}", lambda v: f"{v:.6f}")
    twd = c.add("所需新臺幣", amount * cross, f"{amount:,} × {cross:.6f}", ntd)
    return c.numeric(q, twd, ntd(twd), params={"usdtwd": usdtwd, "usdjpy": usdjpy, "amount": amount})


@template(D, "forex_trading", "forex_trading_intermediate1", "中級")
def fx_inter1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    amount = pick_money(rng, 1_000, 200_000, 100)
    ask0 = pick_decimal(rng, 28, 33, 3)
    bid1 = pick_decimal(rng, ask0 - 1, ask0 + 1, 3)
    q = (f"{who}以銀行美元即期賣出匯率 {ask0:.3f} 買進 {usd(amount)}，三個月後以即期買入匯率 {bid1:.3f} 全數賣回。"
         f"不計利息，請計算這筆外匯交易的報酬率（虧損以負數表示）。{ASK_PCT}")
    c = Chain()
    cost = c.add("買進成本", amount * ask0, f"{usd(amount)} × {ask0:.3f}", ntd)
    back = c.add("賣回所得", amount * bid1, f"{usd(amount)} × {bid1:.3f}", ntd)
    pl = c.add("匯兌損益", back - cost, f"{ntd(back)} − {ntd(cost)}", ntd)
    r = c.add("報酬率", pl / cost, f"{ntd(pl)} ÷ {ntd(cost)}", pct)
    return c.numeric(q, r, pct(r), params={"amount": amount, "ask0": ask0, "bid1": bid1})


@template(D, "forex_trading", "forex_trading_intermediate2", "中級")
def fx_inter2(rng: random.Random) -> Problem:
    spot = pick_decimal(rng, 27.5, 33.5, 3)
    i_tw = pick_rate(rng, 0.5, 3, 0.125)
    i_us = pick_rate(rng, 0.5, 6, 0.125)
    days = rng.choice([30, 60, 90, 180, 360])
    q = (f"美元兌新臺幣即期匯率為 {spot:.3f}，新臺幣 {days} 天期利率為年息 {pct(i_tw, 3)}，美元為年息 {pct(i_us, 3)}"
         f"（皆以一年 360 天單利計）。請依利率平價理論計算 {days} 天期遠期匯率。{ask(4)}")
    c = Chain()
    a = c.add("新臺幣計息因子", 1 + i_tw * days / 360, f"1 + {pct(i_tw, 3)} × {days} ÷ 360")
    b = c.add("美元計息因子", 1 + i_us * days / 360, f"1 + {pct(i_us, 3)} × {days} ÷ 360")
    f = c.add("遠期匯率", spot * a / b, f"{spot:.3f} × {fmt_value(a)} ÷ {fmt_value(b)}", lambda v: f"{v:.4f}")
    return c.numeric(q, f, f"{f:.4f}", params={"spot": spot, "i_tw": i_tw, "i_us": i_us, "days": days})


@template(D, "forex_trading", "forex_trading_advanced1", "進階")
def fx_adv1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    principal = pick_money(rng, 1_000_000, 50_000_000, 100_000)
    spot = pick_decimal(rng, 27.5, 33.5, 3)
    i_tw = pick_rate(rng, 0.5, 3, 0.125)
    i_us = pick_rate(rng, 2, 6, 0.125)
    days = rng.choice([90, 180, 360])
    fair = spot * (1 + i_tw * days / 360) / (1 + i_us * days / 360)
    fwd = pick_decimal(rng, fair - 0.25, fair + 0.25, 3)
    q = (f"交易員{who}觀察到：美元兌新臺幣即期匯率 {spot:.3f}，{days} 天期遠期匯率報價 {fwd:.3f}；新臺幣借款年息 "
         f"{pct(i_tw, 3)}，美元存款年息 {pct(i_us, 3)}（一年 360 天，單利）。{who}借入 {ntd(principal)}，即期換成美元存款，"
         f"同時以遠期匯率賣出到期的美元本利和。請計算到期時這筆拋補利率套利的損益（新臺幣，損失以負數表示）。{ASK_MONEY}")
    c = Chain()
    u0 = c.add("換得美元", principal / spot, f"{ntd(principal)} ÷ {spot:.3f}", usd)
    u1 = c.add("美元本利和", u0 * (1 + i_us * days / 360), f"{usd(u0)} × （1 + {pct(i_us, 3)} × {days} ÷ 360）", usd)
    back = c.add("遠期換回新臺幣", u1 * fwd, f"{usd(u1)} × {fwd:.3f}", ntd)
    owe = c.add("新臺幣借款本利和", principal * (1 + i_tw * days / 360),
                f"{ntd(principal)} × （1 + {pct(i_tw, 3)} × {days} ÷ 360）", ntd)
    pl = c.add("套利損益", back - owe, f"{ntd(back)} − {ntd(owe)}", ntd)
    return c.numeric(q, pl, ntd(pl), params={"principal": principal, "spot": spot, "fwd": fwd, "i_tw": i_tw,
                                             "i_us": i_us, "days": days})


# ---------------------------------------------------------------- option_pricing


@template(D, "option_pricing", "option_pricing_basic1", "基礎")
def opt_basic1(rng: random.Random) -> Problem:
    who, co = pick_person(rng), pick_company(rng)
    k = stock_option_strike(pick_money(rng, 20, 800, 5))
    prem = stock_option_premium(pick_decimal(rng, k * 0.01, k * 0.1, 2))
    st = twse_price(pick_decimal(rng, k * 0.7, k * 1.4, 1))
    q = (f"{who}以每股 {ntd(prem)} 的權利金買進{co}公司股票的歐式買權，履約價格 {ntd(k)}。到期時股價為 {ntd(st)}。"
         f"請計算每股的損益（損失以負數表示）。{ASK_MONEY}")
    c = Chain()
    payoff = c.add("到期履約價值", max(st - k, 0.0), f"max（{ntd(st)} − {ntd(k)}，0）".replace("max", "取較大者"), ntd)
    pl = c.add("每股損益", payoff - prem, f"{ntd(payoff)} − {ntd(prem)}", ntd)
    return c.numeric(q, pl, ntd(pl), params={"k": k, "prem": prem, "st": st})


@template(D, "option_pricing", "option_pricing_basic2", "基礎")
def opt_basic2(rng: random.Random) -> Problem:
    s = twse_price(pick_decimal(rng, 20, 600, 1))
    k = stock_option_strike(pick_money(rng, int(s * 0.8), int(s * 1.2), 5))
    r = pick_rate(rng, 0.5, 5, 0.25)
    t = rng.choice([0.25, 0.5, 0.75, 1.0])
    put = stock_option_premium(pick_decimal(rng, s * 0.01, s * 0.12, 2))
    floor = k * math.exp(-r * t) - s + 0.5  # keep the call price positive
    if put < floor:
        put = stock_option_premium(floor, lo=floor)
    q = (f"某股票現價 {ntd(s)}，履約價格 {ntd(k)}、{num(t * 12, 0)} 個月到期的歐式賣權價格為 {ntd(put)}，無風險利率 "
         f"{pct(r)}（連續複利）。請依買賣權平價關係計算同條件歐式買權的價格。{ASK_MONEY}")
    c = Chain()
    pvk = c.add("履約價格現值", k * math.exp(-r * t), f"{ntd(k)} × e^（−{pct(r)} × {num(t, 2)}）", _px)
    call = c.add("買權價格", put + s - pvk, f"{ntd(put)} + {ntd(s)} − {_px(pvk)}", _px)
    return c.numeric(q, call, ntd(call, 2), params={"s": s, "k": k, "r": r, "months": t * 12, "put": put})


@template(D, "option_pricing", "option_pricing_intermediate1", "中級")
def opt_inter1(rng: random.Random) -> Problem:
    s = pick_money(rng, 100, 500, 5)
    up = pick_rate(rng, 8, 30, 1)
    down = pick_rate(rng, 8, 25, 1)
    r = pick_rate(rng, 0.5, min(4, up * 100 - 1), 0.25)
    lo, hi = int(s * (1 - down)) + 5, int(s * (1 + up)) - 5
    k = stock_option_strike(pick_money(rng, lo, hi, 5), lo, hi)
    q = (f"某股票現價 {ntd(s)}，一期後可能上漲 {pct(up, 0)} 或下跌 {pct(down, 0)}，一期無風險利率 {pct(r)}。請以單期二項式"
         f"模型計算履約價格 {ntd(k)} 的歐式買權價格。{ASK_MONEY}")
    c = Chain()
    u, d = 1 + up, 1 - down
    p = c.add("風險中立上漲機率", (1 + r - d) / (u - d), f"（1 + {pct(r)} − {fmt_value(d)}）÷ （{fmt_value(u)} − {fmt_value(d)}）")
    cu = c.add("上漲時買權價值", max(s * u - k, 0.0), f"{ntd(s * u)} − {ntd(k)}", _px)
    cd = c.add("下跌時買權價值", max(s * d - k, 0.0), f"max（{ntd(s * d)} − {ntd(k)}，0）".replace("max", "取較大者"), _px)
    call = c.add("買權價格", (p * cu + (1 - p) * cd) / (1 + r),
                 f"（{fmt_value(p)} × {_px(cu)} + {fmt_value(1 - p)} × {_px(cd)}）÷ （1 + {pct(r)}）", _px)
    return c.numeric(q, call, ntd(call, 2), params={"s": s, "up": up, "down": down, "r": r, "k": k})


@template(D, "option_pricing", "option_pricing_intermediate2", "中級")
def opt_inter2(rng: random.Random) -> Problem:
    who, co = pick_person(rng), pick_company(rng)
    s0 = twse_price(pick_decimal(rng, 30, 600, 1))
    k = stock_option_strike(pick_money(rng, int(s0 * 1.0) + 1, int(s0 * 1.2) + 2, 1), lo=s0 + 0.01)
    prem = stock_option_premium(pick_decimal(rng, s0 * 0.01, s0 * 0.06, 2))
    st = twse_price(pick_decimal(rng, s0 * 0.75, s0 * 1.35, 1))
    lots = rng.choice([1, 2, 3, 5])  # stock-option contracts of 2,000 shares (TAIFEX)
    shares = lots * STOCK_OPTION_SHARES
    q = (f"{who}以每股 {ntd(s0)} 買進{co}公司股票 {shares:,} 股，同時賣出 {lots} 口履約價格 {ntd(k)} 的股票選擇權買權"
         f"（歐式，每口 {STOCK_OPTION_SHARES:,} 股，與持股等量，即掩護性買權），"
         f"每股收取權利金 {ntd(prem)}。到期時股價為 {ntd(st)}，請計算整體策略的損益。{ASK_MONEY}")
    c = Chain()
    stock = c.add("股票部位損益", (st - s0) * shares, f"（{ntd(st)} − {ntd(s0)}）× {shares:,}", ntd)
    short = c.add("賣出買權到期支付", max(st - k, 0.0) * shares,
                  f"取較大者（{ntd(st)} − {ntd(k)}，0）× {shares:,}", ntd)
    income = c.add("權利金收入", prem * shares, f"{ntd(prem)} × {shares:,}", ntd)
    tot = c.add("策略總損益", stock - short + income, f"{ntd(stock)} − {ntd(short)} + {ntd(income)}", ntd)
    return c.numeric(q, tot, ntd(tot), params={"s0": s0, "k": k, "prem": prem, "st": st, "shares": shares})


@template(D, "option_pricing", "option_pricing_advanced1", "進階")
def opt_adv1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    s = twse_price(pick_decimal(rng, 20, 800, 1))
    k = stock_option_strike(pick_money(rng, int(s * 0.8), int(s * 1.2), 5))
    r = pick_rate(rng, 0.5, 5, 0.25)
    sigma = pick_rate(rng, 15, 60, 1)
    t = rng.choice([0.25, 0.5, 0.75, 1.0, 1.5, 2.0])
    q = (f"{co}公司股票現價 {ntd(s)}，年化波動率 {pct(sigma, 0)}，無風險利率 {pct(r)}（連續複利），不發放股利。請以"
         f" Black-Scholes 模型計算履約價格 {ntd(k)}、{num(t, 2)} 年後到期的歐式買權價格。{ASK_MONEY}")
    c = Chain()
    d1 = c.add("d1", (math.log(s / k) + (r + sigma**2 / 2) * t) / (sigma * math.sqrt(t)),
               f"〔自然對數（{num(s, 1)} ÷ {k}）+ （{pct(r)} + {pct(sigma, 0)}² ÷ 2）× {num(t, 2)}〕÷ （{pct(sigma, 0)} × √{num(t, 2)}）")
    d2 = c.add("d2", d1 - sigma * math.sqrt(t), f"{fmt_value(d1)} − {pct(sigma, 0)} × √{num(t, 2)}")
    n1 = c.add("N(d1)", _n(d1), f"N（{fmt_value(d1)}）")
    n2 = c.add("N(d2)", _n(d2), f"N（{fmt_value(d2)}）")
    call = c.add("買權價格", s * n1 - k * math.exp(-r * t) * n2,
                 f"{ntd(s)} × {fmt_value(n1)} − {ntd(k)} × e^（−{pct(r)} × {num(t, 2)}）× {fmt_value(n2)}", _px)
    return c.numeric(q, call, ntd(call, 2), params={"s": s, "k": k, "r": r, "sigma": sigma, "t": t})


# ---------------------------------------------------------------- stock_market_analysis


@template(D, "stock_market_analysis", "stock_market_analysis_basic1", "基礎")
def sma_basic1(rng: random.Random) -> Problem:
    who, co = pick_person(rng), pick_company(rng)
    p0 = twse_price(pick_decimal(rng, 10, 800, 1))
    p1 = twse_price(pick_decimal(rng, p0 * 0.7, p0 * 1.5, 1))
    div = pick_decimal(rng, 0.1, p0 * 0.06, 2)
    q = (f"{who}年初以每股 {ntd(p0)} 買進{co}公司股票，持有一年間領取現金股利每股 {ntd(div)}，年底股價為 {ntd(p1)}。"
         f"請計算持有期間報酬率（虧損以負數表示）。{ASK_PCT}")
    c = Chain()
    gain = c.add("每股資本利得", p1 - p0, f"{ntd(p1)} − {ntd(p0)}", ntd)
    r = c.add("持有期間報酬率", (gain + div) / p0, f"（{ntd(gain)} + {ntd(div)}）÷ {ntd(p0)}", pct)
    return c.numeric(q, r, pct(r), params={"p0": p0, "p1": p1, "div": div})


@template(D, "stock_market_analysis", "stock_market_analysis_basic2", "基礎")
def sma_basic2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    eq = pick_money(rng, 500_000_000, 100_000_000_000, 1_000_000)
    shares = pick_money(rng, int(eq / 80), int(eq / 8), 1_000)  # book value per share NT$8–80
    bvps_guess = eq / shares
    price = twse_price(pick_decimal(rng, bvps_guess * 0.5, bvps_guess * 5, 1))
    q = (f"{co}公司權益總額 {ntd(eq)}，流通在外普通股 {shares:,} 股，目前股價 {ntd(price)}。請計算股價淨值比（倍）。{ASK_NUM}")
    c = Chain()
    bvps = c.add("每股淨值", eq / shares, f"{ntd(eq)} ÷ {shares:,}", _px)
    pb = c.add("股價淨值比", price / bvps, f"{ntd(price)} ÷ {_px(bvps)}", lambda v: f"{fmt_value(v)} 倍")
    return c.numeric(q, pb, num(pb, 2), params={"eq": eq, "shares": shares, "price": price})


@template(D, "stock_market_analysis", "stock_market_analysis_intermediate1", "中級")
def sma_inter1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    base = pick_decimal(rng, 20, 600, 1)
    closes: list[float] = []
    for _ in range(6):  # day to day within ±4%, well inside the TWSE 10% price limit (facts.DAILY_PRICE_LIMIT)
        prev = closes[-1] if closes else base
        closes.append(twse_price(pick_decimal(rng, prev * 0.96, prev * 1.04, 1)))
    q = (f"{co}公司股票最近 6 個交易日的收盤價依序為 {'、'.join(_close(x) for x in closes)} 元。請計算今日（最後一日）"
         f"的 5 日移動平均線，以及今日收盤價相對 5 日均線的乖離率。本題答案填乖離率。{ASK_PCT}")
    c = Chain()
    c.add("昨日 5 日均價", sum(closes[:5]) / 5, f"（{' + '.join(_close(x) for x in closes[:5])}）÷ 5", _px)
    ma = c.add("今日 5 日均價", sum(closes[1:]) / 5, f"（{' + '.join(_close(x) for x in closes[1:])}）÷ 5", _px)
    bias = c.add("乖離率", (closes[-1] - ma) / ma, f"（{_close(closes[-1])} − {fmt_value(ma)}）÷ {fmt_value(ma)}", pct)
    return c.numeric(q, bias, pct(bias), params={f"c{i}": x for i, x in enumerate(closes)})


@template(D, "stock_market_analysis", "stock_market_analysis_intermediate2", "中級")
def sma_inter2(rng: random.Random) -> Problem:
    who, co = pick_person(rng), pick_company(rng)
    price = twse_price(pick_decimal(rng, 20, 500, 1))
    shares = rng.choice([1_000, 2_000, 3_000, 5_000, 10_000])
    ratio = rng.choice([0.4, 0.5, 0.6])
    p1 = twse_price(pick_decimal(rng, price * 0.6, price * 1.1, 1))
    q = (f"{who}以融資買進{co}公司股票 {shares:,} 股，成交價 {ntd(price)}，融資成數 {pct(ratio, 0)}（不計手續費與利息）。"
         f"若股價{'跌' if p1 < price else '漲'}到 {ntd(p1)}，請計算其融資維持率（股票市值 ÷ 融資金額）。{ASK_PCT}")
    c = Chain()
    cost = c.add("買進總金額", price * shares, f"{ntd(price)} × {shares:,}", ntd)
    loan = c.add("融資金額", cost * ratio, f"{ntd(cost)} × {pct(ratio, 0)}", ntd)
    mv = c.add("目前股票市值", p1 * shares, f"{ntd(p1)} × {shares:,}", ntd)
    m = c.add("融資維持率", mv / loan, f"{ntd(mv)} ÷ {ntd(loan)}", pct)
    return c.numeric(q, m, pct(m), params={"price": price, "shares": shares, "ratio": ratio, "p1": p1})


@template(D, "stock_market_analysis", "stock_market_analysis_advanced1", "進階")
def sma_adv1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    p0 = twse_price(pick_decimal(rng, 20, 600, 1))
    p1 = twse_price(pick_decimal(rng, p0 * 0.75, p0 * 1.4, 1))
    div = pick_decimal(rng, 0.1, p0 * 0.05, 2)
    rf = pick_rate(rng, 0.5, 3, 0.25)
    rm = pick_rate(rng, -10, 25, 0.5)
    beta = pick_decimal(rng, 0.5, 1.8, 2)
    q = (f"{co}公司股票去年初價格 {ntd(p0)}，去年發放現金股利 {ntd(div)}，年底價格 {ntd(p1)}。同期大盤報酬率 {pct(rm, 1)}，"
         f"無風險利率 {pct(rf)}，該股貝他係數 {beta:.2f}。請計算該股的實際報酬率、CAPM 預期報酬率，以及詹森指標（超額報酬 α）。"
         f"本題答案填詹森指標。{ASK_PCT}")
    c = Chain()
    gain = c.add("每股資本利得", p1 - p0, f"{ntd(p1)} − {ntd(p0)}", ntd)
    actual = c.add("實際報酬率", (gain + div) / p0, f"（{ntd(gain)} + {ntd(div)}）÷ {ntd(p0)}", pct)
    mrp = c.add("市場風險溢酬", rm - rf, f"{pct(rm, 1)} − {pct(rf)}", pct)
    exp = c.add("CAPM 預期報酬率", rf + beta * mrp, f"{pct(rf)} + {beta:.2f} × （{pct(mrp)}）", pct)
    alpha = c.add("詹森指標", actual - exp, f"{pct(actual)} − （{pct(exp)}）", pct)
    return c.numeric(q, alpha, pct(alpha), params={"p0": p0, "p1": p1, "div": div, "rf": rf, "rm_abs": abs(rm),
                                                   "beta": beta, "_rm": rm})

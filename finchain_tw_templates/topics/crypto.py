"""加密資產 (crypto): defi, global_events_impact, regulations, sentiments, tokenomics,
transaction_analysis, whale_detection. Token and exchange names are fictional; prices in US$ or NT$."""

from __future__ import annotations

import math
import random

from finchain_tw_templates.common import (
    ASK_MONEY,
    ASK_NUM,
    ASK_PCT,
    ASK_USD,
    EXCHANGES,
    TOKENS,
    Chain,
    fmt_value,
    ntd,
    num,
    pct,
    pct_exact,
    pick_decimal,
    pick_exchange,
    pick_money,
    pick_person,
    pick_rate,
    pick_token,
    plus,
    usd,
)
from finchain_tw_templates.core import Problem, template

D = "crypto"


def _tok(rng: random.Random) -> str:
    return pick_token(rng)[0]


def _qty(v: float) -> str:
    return f"{fmt_value(v)} 枚"


def _move(rng: random.Random, lo_pct: float, hi_pct: float, step_pct: float = 0.5) -> float:
    """A non-zero price move (「上漲 0.0%」 is no event)."""
    while True:
        r = pick_rate(rng, lo_pct, hi_pct, step_pct)
        if r != 0:
            return r


def _signed_pct(r: float, digits: int = 1) -> str:
    return ("上漲 " if r >= 0 else "下跌 ") + pct(abs(r), digits)


# ---------------------------------------------------------------- defi


@template(D, "defi", "defi_basic1", "基礎")
def defi_basic1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    apr = pick_rate(rng, 2, 30, 0.5)
    q = (f"{who}把穩定幣存入一個去中心化借貸協議，名目年利率為 {pct(apr, 1)}，利息每日複利一次。"
         f"請計算實際的年化收益率（一年以 365 天計）。{ASK_PCT}")
    c = Chain()
    apy = c.add("年化收益率", (1 + apr / 365) ** 365 - 1, f"（1 + {pct(apr, 1)} ÷ 365）^365 − 1", pct)
    return c.numeric(q, apy, pct(apy), params={"apr": apr})


@template(D, "defi", "defi_basic2", "基礎")
def defi_basic2(rng: random.Random) -> Problem:
    who, tok = pick_person(rng), _tok(rng)
    qty = pick_decimal(rng, 5, 500, 1)
    price = pick_decimal(rng, 20, 4000, 2)
    ltv = pick_rate(rng, 50, 80, 5)
    q = (f"{who}在借貸協議中以 {num(qty, 1)} 枚{tok}作為擔保品，{tok}目前價格為 {usd(price, 2)}，"
         f"協議的最高貸款成數為 {pct(ltv, 0)}。請計算{who}最多可借得多少美元的穩定幣。{ASK_USD}")
    c = Chain()
    val = c.add("擔保品價值", qty * price, f"{num(qty, 1)} × {usd(price, 2)}", usd)
    cap = c.add("最高可借金額", val * ltv, f"{usd(val)} × {pct(ltv, 0)}", usd)
    return c.numeric(q, cap, usd(cap), params={"qty": qty, "price": price, "ltv": ltv})


@template(D, "defi", "defi_intermediate1", "中級")
def defi_inter1(rng: random.Random) -> Problem:
    tok = _tok(rng)
    x = pick_money(rng, 10_000, 500_000, 100)
    px = pick_decimal(rng, 0.5, 50, 2)
    y = round(x * px)  # a balanced pool: the stablecoin side is worth the token side
    dx = pick_money(rng, max(1, x // 500), x // 20, 1)
    fee = rng.choice([0.001, 0.003, 0.005, 0.01])
    q = (f"某自動造市商的流動性池採固定乘積公式，池中有 {x:,} 枚{tok}與 {y:,} 枚美元穩定幣，交易手續費 "
         f"{pct(fee, 1)}（自投入的代幣中扣除）。若投入 {dx:,} 枚{tok}換取穩定幣，可換得多少枚穩定幣？{ASK_NUM}")
    c = Chain()
    eff = c.add("扣除手續費後投入數量", dx * (1 - fee), f"{dx:,} × （1 − {pct(fee, 1)}）", _qty)
    k = c.add("乘積常數", x * y, f"{x:,} × {y:,}")
    new_y = c.add("交易後池中穩定幣數量", k / (x + eff), f"{fmt_value(k)} ÷ （{x:,} + {fmt_value(eff)}）", _qty)
    out = c.add("換得穩定幣數量", y - new_y, f"{y:,} − {fmt_value(new_y)}", _qty)
    return c.numeric(q, out, num(out), params={"x": x, "y": y, "dx": dx, "fee": fee})


@template(D, "defi", "defi_intermediate2", "中級")
def defi_inter2(rng: random.Random) -> Problem:
    who, tok = pick_person(rng), _tok(rng)
    qty = pick_decimal(rng, 10, 1000, 1)
    price = pick_decimal(rng, 20, 4000, 2)
    lt = pick_rate(rng, 70, 90, 5)
    debt = pick_money(rng, int(qty * price * lt * 0.3), int(qty * price * lt * 0.9), 10)
    q = (f"{who}以 {num(qty, 1)} 枚{tok}（現價 {usd(price, 2)}）作為擔保，借入 {usd(debt)} 的穩定幣。"
         f"協議的清算門檻為 {pct(lt, 0)}，健康因子 = 擔保品價值 × 清算門檻 ÷ 借款金額，低於 1 即遭清算。"
         f"請計算{tok}價格距離觸發清算還可下跌多少百分比。{ASK_PCT}")
    c = Chain()
    val = c.add("擔保品價值", qty * price, f"{num(qty, 1)} × {usd(price, 2)}", usd)
    c.add("健康因子", val * lt / debt, f"{usd(val)} × {pct(lt, 0)} ÷ {usd(debt)}")
    liq = c.add("清算價格", debt / (qty * lt), f"{usd(debt)} ÷ （{num(qty, 1)} × {pct(lt, 0)}）", lambda v: usd(v, 4))
    drop = c.add("可下跌幅度", 1 - liq / price, f"1 − {usd(liq, 4)} ÷ {usd(price, 2)}", pct)
    return c.numeric(q, drop, pct(drop), params={"qty": qty, "price": price, "lt": lt, "debt": debt})


@template(D, "defi", "defi_advanced1", "進階")
def defi_adv1(rng: random.Random) -> Problem:
    who, tok = pick_person(rng), _tok(rng)
    v0 = pick_money(rng, 2_000, 200_000, 100)
    p0 = pick_decimal(rng, 1, 100, 2)
    move = _move(rng, -60, 200, 5)
    p1 = round(p0 * (1 + move), 2)
    fee_apr = pick_rate(rng, 2, 40, 1)
    days = rng.randint(30, 365)
    q = (f"{who}在固定乘積流動性池中以各半價值投入{tok}與美元穩定幣，共 {usd(v0)}，當時{tok}價格 {usd(p0, 2)}。"
         f"{days} 天後{tok}價格變為 {usd(p1, 2)}。期間手續費收入以投入金額的年化 {pct(fee_apr, 0)} 計（單利，一年 365 天）。"
         f"與單純持有兩種資產相比，提供流動性的淨損益為多少美元（損失以負數表示）？{ASK_USD}")
    c = Chain()
    r = c.add("價格比", p1 / p0, f"{usd(p1, 2)} ÷ {usd(p0, 2)}")
    hodl = c.add("單純持有的價值", v0 / 2 * r + v0 / 2, f"{usd(v0 / 2)} × {fmt_value(r)} + {usd(v0 / 2)}", usd)
    lp = c.add("流動性部位價值", v0 * math.sqrt(r), f"{usd(v0)} × √{fmt_value(r)}", usd)
    il = c.add("無常損失", lp - hodl, f"{usd(lp)} − {usd(hodl)}", usd)
    fees = c.add("手續費收入", v0 * fee_apr * days / 365, f"{usd(v0)} × {pct(fee_apr, 0)} × {days} ÷ 365", usd)
    net = c.add("淨損益", il + fees, f"{usd(il)} + {usd(fees)}", usd)
    return c.numeric(q, net, usd(net), params={"v0": v0, "p0": p0, "p1": p1, "fee_apr": fee_apr, "days": days})


# ---------------------------------------------------------------- global_events_impact


@template(D, "global_events_impact", "global_events_impact_basic1", "基礎")
def gei_basic1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    qty = pick_decimal(rng, 0.1, 5, 2)
    p0 = pick_money(rng, 20_000, 100_000, 10)
    shock = _move(rng, -15, 15)
    event = rng.choice(["美國聯準會意外升息", "主要經濟體公布通膨數據", "某大型交易所傳出倒閉消息", "現貨指數股票型基金獲准上市"])
    q = (f"{who}持有 {num(qty, 2)} 枚比特幣，買進均價為 {usd(p0)}。消息「{event}」公布後，比特幣價格相對買進均價"
         f"{_signed_pct(shock)}。請計算{who}此部位的未實現損益（損失以負數表示）。{ASK_USD}")
    c = Chain()
    p1 = c.add("事件後價格", p0 * (1 + shock), f"{usd(p0)} × （1 {plus(shock, lambda v: pct(v, 1))}）", usd)
    pl = c.add("未實現損益", qty * (p1 - p0), f"{num(qty, 2)} × （{usd(p1)} − {usd(p0)}）", usd)
    return c.numeric(q, pl, usd(pl), params={"qty": qty, "p0": p0, "shock_abs": abs(shock), "_shock": shock})


@template(D, "global_events_impact", "global_events_impact_basic2", "基礎")
def gei_basic2(rng: random.Random) -> Problem:
    tok = _tok(rng)
    p0 = pick_decimal(rng, 0.5, 500, 2)
    p1 = pick_decimal(rng, p0 * 0.6, p0 * 1.4, 2)
    event = rng.choice(["某國宣布禁止加密資產交易", "大型支付業者宣布支援加密資產付款", "國際地緣政治衝突升溫",
                        "主要央行宣布降息"])
    q = (f"「{event}」的消息傳出前，{tok}收盤價為 {usd(p0, 2)}，消息傳出後 24 小時收盤價為 {usd(p1, 2)}。"
         f"請計算這段期間{tok}的價格變動率（下跌以負數表示）。{ASK_PCT}")
    c = Chain()
    d = c.add("價格變動", p1 - p0, f"{usd(p1, 2)} − {usd(p0, 2)}", lambda v: usd(v, 2))
    r = c.add("價格變動率", d / p0, f"{usd(d, 2)} ÷ {usd(p0, 2)}", pct)
    return c.numeric(q, r, pct(r), params={"p0": p0, "p1": p1})


@template(D, "global_events_impact", "global_events_impact_intermediate1", "中級")
def gei_inter1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    btc = pick_money(rng, 5_000, 200_000, 100)
    eth = pick_money(rng, 5_000, 200_000, 100)
    sbtc = _move(rng, -25, 5)
    seth = _move(rng, -35, 5)
    stable = pick_money(rng, 100, 100_000, 100)
    q = (f"{who}的加密資產組合包括比特幣 {usd(btc)}、以太幣 {usd(eth)} 與美元穩定幣 {usd(stable)}。某次全球金融市場"
         f"震盪中，比特幣{_signed_pct(sbtc)}、以太幣{_signed_pct(seth)}，穩定幣價值不變。請計算整體組合的報酬率"
         f"（下跌以負數表示）。{ASK_PCT}")
    c = Chain()
    a = c.add("比特幣損益", btc * sbtc, f"{usd(btc)} × （{pct(sbtc, 1)}）", usd)
    b = c.add("以太幣損益", eth * seth, f"{usd(eth)} × （{pct(seth, 1)}）", usd)
    tot = c.add("組合總損益", a + b, f"{usd(a)} {plus(b, usd)}", usd)
    r = c.add("組合報酬率", tot / (btc + eth + stable), f"{usd(tot)} ÷ {usd(btc + eth + stable)}", pct)
    return c.numeric(q, r, pct(r), params={"btc": btc, "eth": eth, "stable": stable, "sbtc_abs": abs(sbtc),
                                           "seth_abs": abs(seth), "_sbtc": sbtc, "_seth": seth})


@template(D, "global_events_impact", "global_events_impact_intermediate2", "中級")
def gei_inter2(rng: random.Random) -> Problem:
    tok = _tok(rng)
    beta = pick_decimal(rng, 0.8, 2.5, 2)
    mkt = _move(rng, -20, 15)
    p0 = pick_decimal(rng, 1, 300, 2)
    qty = pick_money(rng, 100, 50_000, 10)
    q = (f"研究顯示{tok}相對於加密資產市場指數的貝他係數為 {beta:.2f}。一項國際監管消息使市場指數{_signed_pct(mkt)}。"
         f"若{tok}原價為 {usd(p0, 2)}，某投資人持有 {qty:,} 枚，依貝他係數估計其持有部位價值變動多少美元（減少以負數表示）？"
         f"{ASK_USD}")
    c = Chain()
    # the return is shown with all its decimals (1.23 × 5.5% = 6.765%) and the last line computes from the inputs,
    # not from the 4-decimal display of the new price
    r = c.add(f"{tok}預估報酬率", beta * mkt, f"{beta:.2f} × （{pct(mkt, 1)}）", pct_exact)
    p1 = c.add("預估新價格", p0 * (1 + r), f"{usd(p0, 2)} × （1 {plus(r, pct_exact)}）", lambda v: usd(v, 4))
    chg = c.add("持有部位價值變動", qty * (p1 - p0), f"持有數量 × 原價 × 預估報酬率 = {qty:,} × {usd(p0, 2)} × （{pct_exact(r)}）",
                usd)
    return c.numeric(q, chg, usd(chg), params={"beta": beta, "mkt_abs": abs(mkt), "p0": p0, "qty": qty,
                                                  "_mkt": mkt})


@template(D, "global_events_impact", "global_events_impact_advanced1", "進階")
def gei_adv1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    qty = pick_decimal(rng, 0.5, 10, 2)
    p0 = pick_money(rng, 20_000, 90_000, 10)
    e1 = pick_rate(rng, -15, -1, 0.5)
    e2 = pick_rate(rng, 2, 20, 0.5)
    e3 = _move(rng, -12, 3)
    fx0 = pick_decimal(rng, 28, 33, 2)
    fx1 = pick_decimal(rng, fx0 - 1, fx0 + 1, 2)
    q = (f"{who}持有 {num(qty, 2)} 枚比特幣，期初價格 {usd(p0)}，美元兌新臺幣匯率 {fx0:.2f}。接著依序發生三個事件："
         f"美國公布非農就業數據後比特幣{_signed_pct(e1)}；現貨指數股票型基金資金大量流入後再{_signed_pct(e2)}；"
         f"某交易所遭駭客入侵後又{_signed_pct(e3)}。此時匯率變為 {fx1:.2f}。請計算以新臺幣計算的部位損益"
         f"（損失以負數表示）。{ASK_MONEY}")
    c = Chain()
    a = c.add("事件一後價格", p0 * (1 + e1), f"{usd(p0)} × （1 {plus(e1, lambda v: pct(v, 1))}）", usd)
    b = c.add("事件二後價格", a * (1 + e2), f"{usd(a)} × （1 {plus(e2, lambda v: pct(v, 1))}）", usd)
    p3 = c.add("事件三後價格", b * (1 + e3), f"{usd(b)} × （1 {plus(e3, lambda v: pct(v, 1))}）", usd)
    c.add("累積報酬率（美元計）", p3 / p0 - 1, f"{usd(p3)} ÷ {usd(p0)} − 1", pct)
    v0 = c.add("期初部位新臺幣價值", qty * p0 * fx0, f"{num(qty, 2)} × {usd(p0)} × {fx0:.2f}", ntd)
    v1 = c.add("期末部位新臺幣價值", qty * p3 * fx1, f"{num(qty, 2)} × {usd(p3)} × {fx1:.2f}", ntd)
    pl = c.add("新臺幣損益", v1 - v0, f"{ntd(v1)} − {ntd(v0)}", ntd)
    return c.numeric(q, pl, ntd(pl), params={"qty": qty, "p0": p0, "e1": abs(e1), "e2": abs(e2),
                                                "e3": abs(e3), "fx0": fx0, "fx1": fx1, "_e1": e1, "_e2": e2,
                                                "_e3": e3})


# ---------------------------------------------------------------- regulations


@template(D, "regulations", "regulations_basic1", "基礎")
def reg_basic1(rng: random.Random) -> Problem:
    who, tok = pick_person(rng), _tok(rng)
    buy = pick_money(rng, 50_000, 2_000_000, 1_000)
    sell = pick_money(rng, int(buy * 1.05), int(buy * 3), 1_000)
    fees = pick_money(rng, 100, 20_000, 10)
    rate = pick_rate(rng, 5, 40, 1)
    q = (f"{who}以 {ntd(buy)} 買進{tok}，之後以 {ntd(sell)} 全部賣出，買賣手續費合計 {ntd(fees)}。"
         f"假設該交易所得適用 {pct(rate, 0)} 的稅率（此為計算假設，非法規說明），請計算應納稅額。{ASK_MONEY}")
    c = Chain()
    gain = c.add("交易所得", sell - buy - fees, f"{ntd(sell)} − {ntd(buy)} − {ntd(fees)}", ntd)
    tax = c.add("應納稅額", gain * rate, f"{ntd(gain)} × {pct(rate, 0)}", ntd)
    return c.numeric(q, tax, ntd(tax), params={"buy": buy, "sell": sell, "fees": fees, "rate": rate})


@template(D, "regulations", "regulations_basic2", "基礎")
def reg_basic2(rng: random.Random) -> Problem:
    ex, tok = pick_exchange(rng), _tok(rng)
    threshold = 30_000
    qty = pick_decimal(rng, 1, 400, 1)
    price = pick_decimal(rng, 5, 350, 1)
    q = (f"{ex}的內部規範規定：客戶轉出虛擬資產的價值達 {ntd(threshold)}（含）以上時，必須隨同傳送發送人與受款人"
         f"資訊（旅行規則）。某客戶欲轉出 {num(qty, 1)} 枚{tok}，當時每枚價格 {ntd(price)}。請判斷此筆轉出是否須"
         f"隨同傳送上述資訊（回答「是」或「否」）。")
    c = Chain()
    val = c.add("轉出價值", qty * price, f"{num(qty, 1)} × {ntd(price)}", ntd)
    need = val >= threshold
    c.note(f"與門檻 {ntd(threshold)} 比較", "達門檻" if need else "未達門檻")
    return c.categorical(q, "是" if need else "否", params={"threshold": threshold, "qty": qty, "price": price})


@template(D, "regulations", "regulations_intermediate1", "中級")
def reg_inter1(rng: random.Random) -> Problem:
    ex = pick_exchange(rng)
    names = [t[0] for t in rng.sample(TOKENS, 2)]
    q1, p1 = pick_money(rng, 1_000, 50_000, 10), pick_decimal(rng, 10, 500, 1)
    q2, p2 = pick_money(rng, 10_000, 500_000, 100), pick_decimal(rng, 0.5, 20, 2)
    stable = pick_money(rng, 1_000_000, 20_000_000, 1_000)
    total = q1 * p1 + q2 * p2 + stable
    reserve = pick_money(rng, int(total * 0.8), int(total * 0.995), 1_000)
    q = (f"假設主管機關要求虛擬資產業者以準備資產全額支應客戶資產。{ex}的客戶共託管 {q1:,} 枚{names[0]}（每枚 {ntd(p1)}）、"
         f"{q2:,} 枚{names[1]}（每枚 {ntd(p2)}）及價值 {ntd(stable)} 的穩定幣；交易所實際持有的準備資產價值為 "
         f"{ntd(reserve)}。請計算準備資產覆蓋率（準備資產 ÷ 客戶資產）。{ASK_PCT}")
    c = Chain()
    a = c.add(f"{names[0]}價值", q1 * p1, f"{q1:,} × {ntd(p1)}", ntd)
    b = c.add(f"{names[1]}價值", q2 * p2, f"{q2:,} × {ntd(p2)}", ntd)
    tot = c.add("客戶資產總額", a + b + stable, f"{ntd(a)} + {ntd(b)} + {ntd(stable)}", ntd)
    cov = c.add("準備資產覆蓋率", reserve / tot, f"{ntd(reserve)} ÷ {ntd(tot)}", pct)
    return c.numeric(q, cov, pct(cov), params={"q1": q1, "p1": p1, "q2": q2, "p2": p2, "stable": stable,
                                               "reserve": reserve})


@template(D, "regulations", "regulations_intermediate2", "中級")
def reg_inter2(rng: random.Random) -> Problem:
    ex = pick_exchange(rng)
    n = rng.randint(3, 40)
    avg = pick_money(rng, 50_000, 2_000_000, 1_000)
    rate = pick_rate(rng, 1, 5, 0.5)
    base = pick_money(rng, 300_000, 1_000_000, 100_000)
    cap = pick_money(rng, 2_000_000, 10_000_000, 500_000)
    q = (f"依某虛擬資產業者的假設性內部罰則，未依規定申報的交易每件罰基本額 {ntd(base)}，另加未申報交易總額的 "
         f"{pct(rate, 1)}，罰款總額上限為 {ntd(cap)}。{ex}被查出 {n} 筆未申報交易，平均每筆金額 {ntd(avg)}。"
         f"請計算應繳的罰款。{ASK_MONEY}")
    c = Chain()
    tot = c.add("未申報交易總額", n * avg, f"{n} × {ntd(avg)}", ntd)
    var = c.add("比例罰款", tot * rate, f"{ntd(tot)} × {pct(rate, 1)}", ntd)
    raw = c.add("罰款試算", n * base + var, f"{n} × {ntd(base)} + {ntd(var)}", ntd)
    fine = c.add("應繳罰款", min(raw, cap), f"{ntd(raw)} 與上限 {ntd(cap)} 取較低者", ntd)
    return c.numeric(q, fine, ntd(fine), params={"n": n, "avg": avg, "rate": rate, "base": base, "cap": cap})


@template(D, "regulations", "regulations_advanced1", "進階")
def reg_adv1(rng: random.Random) -> Problem:
    ex = pick_exchange(rng)
    btc_q, btc_p = pick_decimal(rng, 10, 500, 1), pick_money(rng, 1_500_000, 3_000_000, 1_000)
    eth_q, eth_p = pick_money(rng, 100, 5_000, 1), pick_money(rng, 60_000, 120_000, 100)
    stable = pick_money(rng, 10_000_000, 300_000_000, 100_000)
    floor = pick_money(rng, 50_000_000, 100_000_000, 10_000_000)
    ratio = pick_rate(rng, 3, 10, 0.5)
    cust = btc_q * btc_p + eth_q * eth_p + stable
    req_guess = max(floor, cust * ratio)
    capital = pick_money(rng, int(req_guess * 0.5), int(req_guess * 0.95), 100_000)
    q = (f"假設主管機關要求虛擬資產交易所的實收資本不得低於「{ntd(floor)}」與「客戶託管資產的 {pct(ratio, 1)}」兩者"
         f"較高者。{ex}目前託管客戶比特幣 {num(btc_q, 1)} 枚（每枚 {ntd(btc_p)}）、以太幣 {eth_q:,} 枚（每枚 {ntd(eth_p)}）"
         f"及穩定幣 {ntd(stable)}，實收資本為 {ntd(capital)}。請計算該交易所至少須增資多少元。{ASK_MONEY}")
    c = Chain()
    a = c.add("比特幣託管價值", btc_q * btc_p, f"{num(btc_q, 1)} × {ntd(btc_p)}", ntd)
    b = c.add("以太幣託管價值", eth_q * eth_p, f"{eth_q:,} × {ntd(eth_p)}", ntd)
    tot = c.add("客戶託管資產總額", a + b + stable, f"{ntd(a)} + {ntd(b)} + {ntd(stable)}", ntd)
    prop = c.add("比例資本要求", tot * ratio, f"{ntd(tot)} × {pct(ratio, 1)}", ntd)
    req = c.add("最低實收資本", max(floor, prop), f"{ntd(floor)} 與 {ntd(prop)} 取較高者", ntd)
    gap = c.add("應增資金額", req - capital, f"{ntd(req)} − {ntd(capital)}", ntd)
    return c.numeric(q, gap, ntd(gap), params={"btc_q": btc_q, "btc_p": btc_p, "eth_q": eth_q, "eth_p": eth_p,
                                                  "stable": stable, "floor": floor, "ratio": ratio,
                                                  "capital": capital})


# ---------------------------------------------------------------- sentiments


@template(D, "sentiments", "sentiments_basic1", "基礎")
def sent_basic1(rng: random.Random) -> Problem:
    w = [pick_rate(rng, 20, 40, 5) for _ in range(2)]
    w.append(round(1 - w[0] - w[1], 10))
    s = [rng.randint(5, 95) for _ in range(3)]
    q = (f"某研究機構的加密資產恐懼與貪婪指數由三項分數加權而成：價格波動度分數 {s[0]}（權重 {pct(w[0], 0)}）、"
         f"社群討論熱度分數 {s[1]}（權重 {pct(w[1], 0)}）、市場動能分數 {s[2]}（權重 {pct(w[2], 0)}）。"
         f"請計算今日的指數值。{ASK_NUM}")
    c = Chain()
    idx = c.add("恐懼與貪婪指數", w[0] * s[0] + w[1] * s[1] + w[2] * s[2],
                f"{s[0]} × {pct(w[0], 0)} + {s[1]} × {pct(w[1], 0)} + {s[2]} × {pct(w[2], 0)}")
    return c.numeric(q, idx, num(idx), params={"w0": w[0], "w1": w[1], "w2": w[2], "s0": s[0], "s1": s[1],
                                                  "s2": s[2]})


@template(D, "sentiments", "sentiments_basic2", "基礎")
def sent_basic2(rng: random.Random) -> Problem:
    tok = _tok(rng)
    bull = rng.randint(100, 20_000)
    bear = rng.randint(100, 20_000)
    neutral = rng.randint(0, 10_000)
    q = (f"過去 24 小時社群平台上提及{tok}的貼文中，看多 {bull:,} 則、看空 {bear:,} 則、中立 {neutral:,} 則。"
         f"淨情緒分數定義為（看多 − 看空）÷ 貼文總數。請計算淨情緒分數。{ASK_PCT}")
    c = Chain()
    tot = c.add("貼文總數", bull + bear + neutral, f"{bull:,} + {bear:,} + {neutral:,}", lambda v: f"{v:,.0f} 則")
    s = c.add("淨情緒分數", (bull - bear) / tot, f"（{bull:,} − {bear:,}）÷ {tot:,.0f}", pct)
    return c.numeric(q, s, pct(s), params={"bull": bull, "bear": bear, "neutral": neutral})


@template(D, "sentiments", "sentiments_intermediate1", "中級")
def sent_inter1(rng: random.Random) -> Problem:
    tok = _tok(rng)
    s0 = rng.randint(10, 90)
    s1 = rng.randint(10, 90)
    alpha = pick_decimal(rng, -0.5, 0.5, 2)
    beta = pick_decimal(rng, 0.05, 0.4, 2)
    p0 = pick_decimal(rng, 1, 500, 2)
    q = (f"分析師以迴歸模型估計：{tok}的次日報酬率（%）= {num(alpha, 2)} + {num(beta, 2)} × 情緒指數變動（點）。"
         f"今日情緒指數由 {s0} 點變為 {s1} 點，{tok}收盤價 {usd(p0, 2)}。請估計次日價格。{ASK_USD}")
    c = Chain()
    ds = c.add("情緒指數變動", s1 - s0, f"{s1} − {s0}", lambda v: f"{fmt_value(v)} 點")
    r = c.add("預估報酬率", (alpha + beta * ds) / 100, f"（{num(alpha, 2)} + {num(beta, 2)} × {fmt_value(ds)}）%", pct)
    p1 = c.add("預估次日價格", p0 * (1 + r), f"{usd(p0, 2)} × （1 {plus(r, pct)}）", lambda v: usd(v, 4))
    return c.numeric(q, p1, usd(p1), params={"s0": s0, "s1": s1, "alpha": alpha, "beta": beta, "p0": p0})


@template(D, "sentiments", "sentiments_intermediate2", "中級")
def sent_inter2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    notional = pick_money(rng, 1_000, 500_000, 100)
    rate = pick_decimal(rng, 0.005, 0.1, 3) / 100  # per 8 hours, in %
    rate = round(rate, 8)
    days = rng.randint(1, 30)
    q = (f"永續合約資金費率常被視為市場情緒指標。{who}持有名目價值 {usd(notional)} 的多單，資金費率每 8 小時收付一次，"
         f"目前為 {num(rate * 100, 3)}%（多單支付空單）。若費率維持不變，持有 {days} 天需支付多少資金費用？"
         f"並請計算其年化費率（一年 365 天）。本題答案填資金費用。{ASK_USD}")
    c = Chain()
    per = c.add("每期資金費用", notional * rate, f"{usd(notional)} × {num(rate * 100, 3)}%", lambda v: usd(v, 4))
    n = c.add("收付期數", days * 3, f"{days} × 3", lambda v: f"{v:.0f} 期")
    tot = c.add("資金費用合計", per * n, f"{usd(per, 4)} × {n:.0f}", usd)
    c.add("年化費率", rate * 3 * 365, f"{num(rate * 100, 3)}% × 3 × 365", pct)
    return c.numeric(q, tot, usd(tot), params={"notional": notional, "rate": rate, "days": days})


@template(D, "sentiments", "sentiments_advanced1", "進階")
def sent_adv1(rng: random.Random) -> Problem:
    tok = _tok(rng)
    ind = []
    for name in ("社群聲量", "搜尋熱度", "資金費率"):
        mean = pick_decimal(rng, 20, 80, 1)
        sd = pick_decimal(rng, 3, 15, 1)
        x = pick_decimal(rng, mean - 2.5 * sd, mean + 2.5 * sd, 1)
        ind.append((name, x, mean, sd))
    w = [0.4, 0.35, 0.25]
    k = pick_decimal(rng, 1, 5, 1)
    p0 = pick_decimal(rng, 1, 500, 2)
    desc = "；".join(f"{n}今日值 {num(x, 1)}，過去 90 日平均 {num(m, 1)}、標準差 {num(s, 1)}" for n, x, m, s in ind)
    q = (f"某量化團隊為{tok}建立綜合情緒指標：先將三項指標標準化為 z 分數，再以 40%、35%、25% 加權。{desc}。"
         f"模型假設綜合情緒每 1 單位對應次日報酬率 {num(k, 1)}%。{tok}今日收盤價 {usd(p0, 2)}，請估計次日價格。{ASK_USD}")
    c = Chain()
    zs = [c.add(f"{n} z 分數", (x - m) / s, f"（{num(x, 1)} − {num(m, 1)}）÷ {num(s, 1)}") for n, x, m, s in ind]
    comp = c.add("綜合情緒分數", sum(wi * zi for wi, zi in zip(w, zs)),
                 f"40% × {fmt_value(zs[0])} + 35% × {fmt_value(zs[1])} + 25% × {fmt_value(zs[2])}")
    r = c.add("預估次日報酬率", comp * k / 100, f"{fmt_value(comp)} × {num(k, 1)}%", pct)
    p1 = c.add("預估次日價格", p0 * (1 + r), f"{usd(p0, 2)} × （1 {plus(r, pct)}）", lambda v: usd(v, 4))
    params = {"k": k, "p0": p0}
    for i, (_, x, m, s) in enumerate(ind):
        params.update({f"x{i}": x, f"m{i}": m, f"s{i}": s})
    return c.numeric(q, p1, usd(p1), params=params)


# ---------------------------------------------------------------- tokenomics


@template(D, "tokenomics", "tokenomics_basic1", "基礎")
def tok_basic1(rng: random.Random) -> Problem:
    tok = _tok(rng)
    circ = pick_money(rng, 10_000_000, 900_000_000, 100_000)
    maxs = pick_money(rng, int(circ * 1.1), int(circ * 5), 1_000_000)
    price = pick_decimal(rng, 0.05, 80, 2)
    q = (f"{tok}目前流通供給量 {circ:,} 枚，最大供給量 {maxs:,} 枚，價格 {usd(price, 2)}。"
         f"請計算其完全稀釋估值（最大供給量 × 價格）與目前市值的差額。{ASK_USD}")
    c = Chain()
    locked = c.add("尚未流通數量", maxs - circ, f"{maxs:,} − {circ:,}", _qty)
    diff = c.add("估值差額", locked * price, f"{fmt_value(locked)} × {usd(price, 2)}", usd)
    return c.numeric(q, diff, usd(diff), params={"circ": circ, "maxs": maxs, "price": price})


@template(D, "tokenomics", "tokenomics_basic2", "基礎")
def tok_basic2(rng: random.Random) -> Problem:
    tok = _tok(rng)
    supply = pick_money(rng, 50_000_000, 2_000_000_000, 1_000_000)
    per_block = pick_decimal(rng, 0.5, 20, 1)
    blocks = pick_money(rng, 500_000, 6_000_000, 1_000)
    q = (f"{tok}目前總供給量 {supply:,} 枚，每個區塊發行 {num(per_block, 1)} 枚新幣，每年約產生 {blocks:,} 個區塊。"
         f"請計算年通膨率（年度新發行量 ÷ 目前總供給量）。{ASK_PCT}")
    c = Chain()
    new = c.add("年度新發行量", per_block * blocks, f"{num(per_block, 1)} × {blocks:,}", _qty)
    inf = c.add("年通膨率", new / supply, f"{fmt_value(new)} ÷ {supply:,}", pct)
    return c.numeric(q, inf, pct(inf), params={"supply": supply, "per_block": per_block, "blocks": blocks})


@template(D, "tokenomics", "tokenomics_intermediate1", "中級")
def tok_inter1(rng: random.Random) -> Problem:
    tok = _tok(rng)
    total = pick_money(rng, 100_000_000, 10_000_000_000, 10_000_000)
    team = pick_rate(rng, 10, 25, 1)
    cliff = rng.choice([6, 12])
    vest = rng.choice([24, 36, 48])
    m = rng.randint(cliff + 1, cliff + vest)
    q = (f"{tok}總量 {total:,} 枚，其中 {pct(team, 0)} 分配給團隊。團隊代幣有 {cliff} 個月的鎖定期，鎖定期滿後分 {vest} "
         f"個月每月等量解鎖。請問代幣發行後第 {m} 個月底，團隊累計已解鎖多少枚？{ASK_NUM}")
    c = Chain()
    alloc = c.add("團隊分配量", total * team, f"{total:,} × {pct(team, 0)}", _qty)
    monthly = c.add("每月解鎖量", alloc / vest, f"{fmt_value(alloc)} ÷ {vest}", _qty)
    done = c.add("累計解鎖量", monthly * (m - cliff), f"{fmt_value(monthly)} × （{m} − {cliff}）", _qty)
    return c.numeric(q, done, num(done), params={"total": total, "team": team, "cliff": cliff, "vest": vest,
                                                    "m": m})


@template(D, "tokenomics", "tokenomics_intermediate2", "中級")
def tok_inter2(rng: random.Random) -> Problem:
    tok = _tok(rng)
    infl = pick_rate(rng, 2, 12, 0.5)
    staked = pick_rate(rng, 30, 80, 5)
    q = (f"{tok}採權益證明機制，年通膨率 {pct(infl, 1)}，新增代幣全數分配給質押者，目前全網 {pct(staked, 0)} 的代幣處於質押"
         f"狀態。請計算質押者的名目年收益率，以及扣除通膨稀釋後的實質收益率（以（1 + 名目）÷（1 + 通膨）− 1 計算）。"
         f"本題答案填實質收益率。{ASK_PCT}")
    c = Chain()
    nom = c.add("名目質押收益率", infl / staked, f"{pct(infl, 1)} ÷ {pct(staked, 0)}", pct)
    gross = c.add("名目成長倍數", 1 + nom, f"1 + {pct(nom)}")
    real = c.add("實質收益率", gross / (1 + infl) - 1, f"{fmt_value(gross)} ÷ （1 + {pct(infl, 1)}）− 1", pct)
    return c.numeric(q, real, pct(real), params={"infl": infl, "staked": staked})


@template(D, "tokenomics", "tokenomics_advanced1", "進階")
def tok_adv1(rng: random.Random) -> Problem:
    tok = _tok(rng)
    s0 = pick_money(rng, 100_000_000, 5_000_000_000, 1_000_000)
    emission = pick_money(rng, s0 // 100, s0 // 10, 100_000)
    burn = pick_decimal(rng, 0.01, 0.5, 2)
    txs = pick_money(rng, 1_000_000, int(s0 * 0.08 / burn), 10_000)  # burns stay under 8% of supply
    price = pick_decimal(rng, 0.1, 20, 2)
    q = (f"{tok}年初流通量 {s0:,} 枚，每年固定增發 {emission:,} 枚；另外每筆鏈上交易銷毀 {num(burn, 2)} 枚，預估全年 "
         f"{txs:,} 筆交易。年初價格 {usd(price, 2)}。假設全年市值維持不變，請計算年底的理論價格。{ASK_USD}")
    c = Chain()
    burned = c.add("年度銷毀量", burn * txs, f"{num(burn, 2)} × {txs:,}", _qty)
    net = c.add("供給淨變動", emission - burned, f"{emission:,} − {fmt_value(burned)}", _qty)
    s1 = c.add("年底流通量", s0 + net, f"{s0:,} {plus(net)}", _qty)
    c.add("淨通膨率", net / s0, f"{fmt_value(net)} ÷ {s0:,}", pct)
    cap = c.add("年初市值", s0 * price, f"{s0:,} × {usd(price, 2)}", usd)
    p1 = c.add("年底理論價格", cap / s1, f"{usd(cap)} ÷ {fmt_value(s1)}", lambda v: usd(v, 4))
    return c.numeric(q, p1, usd(p1) if p1 >= 1 else usd(p1, 4),
                     params={"s0": s0, "emission": emission, "txs": txs, "burn": burn, "price": price})


# ---------------------------------------------------------------- transaction_analysis


@template(D, "transaction_analysis", "transaction_analysis_basic1", "基礎")
def tx_basic1(rng: random.Random) -> Problem:
    size = rng.randint(140, 1_200)
    feerate = rng.randint(2, 150)
    price = pick_money(rng, 1_000_000, 3_500_000, 1_000)
    q = (f"一筆比特幣交易的大小為 {size} 虛擬位元組，礦工費率為每虛擬位元組 {feerate} 聰（1 比特幣 = 100,000,000 聰），"
         f"比特幣價格 {ntd(price)}。請計算這筆交易的手續費折合新臺幣多少元。{ASK_MONEY}")
    c = Chain()
    sats = c.add("手續費（聰）", size * feerate, f"{size} × {feerate}", lambda v: f"{v:,.0f} 聰")
    fee = c.add("手續費（新臺幣）", sats / 100_000_000 * price, f"{sats:,.0f} ÷ 100,000,000 × {ntd(price)}", ntd)
    return c.numeric(q, fee, ntd(fee), params={"size": size, "feerate": feerate, "price": price})


@template(D, "transaction_analysis", "transaction_analysis_basic2", "基礎")
def tx_basic2(rng: random.Random) -> Problem:
    tok = _tok(rng)
    n0 = pick_money(rng, 50_000, 2_000_000, 100)
    n1 = pick_money(rng, int(n0 * 0.6), int(n0 * 1.8), 100)
    vol = pick_money(rng, 10_000_000, 900_000_000, 10_000)
    q = (f"{tok}鏈上昨日交易筆數 {n0:,} 筆，今日 {n1:,} 筆，今日鏈上轉帳總額 {usd(vol)}。"
         f"請計算今日平均每筆轉帳金額。{ASK_USD}")
    c = Chain()
    c.add("交易筆數日變動率", n1 / n0 - 1, f"{n1:,} ÷ {n0:,} − 1", pct)
    avg = c.add("平均每筆轉帳金額", vol / n1, f"{usd(vol)} ÷ {n1:,}", usd)
    return c.numeric(q, avg, usd(avg), params={"n0": n0, "n1": n1, "vol": vol})


@template(D, "transaction_analysis", "transaction_analysis_intermediate1", "中級")
def tx_inter1(rng: random.Random) -> Problem:
    tok = _tok(rng)
    per_block = rng.randint(200, 5_000)
    block_time = rng.choice([2, 3, 5, 6, 10, 12, 15, 30, 60])
    fee = pick_decimal(rng, 0.001, 0.5, 3)
    q = (f"{tok}區塊鏈平均每個區塊包含 {per_block:,} 筆交易，出塊時間 {block_time} 秒，平均每筆手續費 {usd(fee, 3)}。"
         f"請計算該鏈每秒交易筆數、每日交易筆數，以及全網每日手續費收入。本題答案填每日手續費收入。{ASK_USD}")
    c = Chain()
    tps = c.add("每秒交易筆數", per_block / block_time, f"{per_block:,} ÷ {block_time}")
    daily = c.add("每日交易筆數", tps * 86_400, f"{fmt_value(tps)} × 86,400", lambda v: f"{v:,.0f} 筆")
    rev = c.add("每日手續費收入", daily * fee, f"{daily:,.0f} × {usd(fee, 3)}", usd)
    return c.numeric(q, rev, usd(rev), params={"per_block": per_block, "block_time": block_time, "fee": fee})


@template(D, "transaction_analysis", "transaction_analysis_intermediate2", "中級")
def tx_inter2(rng: random.Random) -> Problem:
    ins = [pick_decimal(rng, 0.01, 2, 4) for _ in range(rng.randint(2, 3))]
    total_in = sum(ins)
    pay = pick_decimal(rng, total_in * 0.3, total_in * 0.8, 4)
    fee_target = pick_decimal(rng, 0.00002, 0.0005, 5)
    change = round(total_in - pay - fee_target, 5)
    size = rng.randint(180, 600)
    in_txt = "、".join(f"{num(v, 4)}" for v in ins)
    q = (f"一筆比特幣交易有 {len(ins)} 個輸入，金額分別為 {in_txt} 比特幣；輸出為付款 {num(pay, 4)} 比特幣與找零 "
         f"{num(change, 5)} 比特幣。交易大小 {size} 虛擬位元組。請計算這筆交易支付的手續費率（聰／虛擬位元組，"
         f"1 比特幣 = 100,000,000 聰）。{ASK_NUM}")
    c = Chain()
    tin = c.add("輸入合計", sum(ins), " + ".join(num(v, 4) for v in ins), lambda v: f"{fmt_value(v)} 比特幣")
    # the change has 5 decimals: the output total is shown with 5 too, or 「1.2748 − 1.2748 = 4,000 聰」
    tout = c.add("輸出合計", pay + change, f"{num(pay, 4)} + {num(change, 5)}", lambda v: f"{num(v, 5)} 比特幣")
    fee = c.add("手續費（聰）", (tin - tout) * 100_000_000, f"（{fmt_value(tin)} − {num(tout, 5)}）× 100,000,000",
                lambda v: f"{v:,.2f} 聰")
    rate = c.add("手續費率", fee / size, f"{fee:,.2f} ÷ {size}", lambda v: f"{fmt_value(v)} 聰／虛擬位元組")
    params = {"pay": pay, "change": change, "size": size}
    params.update({f"in{i}": v for i, v in enumerate(ins)})
    return c.numeric(q, rate, num(rate), params=params)


@template(D, "transaction_analysis", "transaction_analysis_advanced1", "進階")
def tx_adv1(rng: random.Random) -> Problem:
    who, tok = pick_person(rng), _tok(rng)
    ex_a, ex_b = rng.sample(EXCHANGES[:5], 2)
    qty = pick_money(rng, 100, 20_000, 10)
    pa = pick_decimal(rng, 1, 300, 2)
    pb = pick_decimal(rng, pa * 0.99, pa * 1.04, 2)
    fee_a = rng.choice([0.001, 0.0015, 0.002])
    fee_b = rng.choice([0.001, 0.0015, 0.002])
    wd = pick_decimal(rng, 0.5, 10, 1)
    q = (f"{who}發現{tok}在{ex_a}的價格為 {usd(pa, 2)}，在{ex_b}為 {usd(pb, 2)}。{who}在{ex_a}買進 {qty:,} 枚（手續費為"
         f"成交金額的 {pct(fee_a, 2)}，另以美元支付），提領到{ex_b}時被扣 {num(wd, 1)} 枚提領費，再於{ex_b}全部賣出"
         f"（手續費 {pct(fee_b, 2)}，自賣出金額扣除）。請計算這次跨所套利的淨損益與報酬率。本題答案填淨損益"
         f"（損失以負數表示）。{ASK_USD}")
    c = Chain()
    cost = c.add("買進總成本", qty * pa * (1 + fee_a), f"{qty:,} × {usd(pa, 2)} × （1 + {pct(fee_a, 2)}）", usd)
    got = c.add("到帳數量", qty - wd, f"{qty:,} − {num(wd, 1)}", _qty)
    gross = c.add("賣出金額", got * pb, f"{fmt_value(got)} × {usd(pb, 2)}", usd)
    net_sale = c.add("扣除手續費後收入", gross * (1 - fee_b), f"{usd(gross)} × （1 − {pct(fee_b, 2)}）", usd)
    pl = c.add("淨損益", net_sale - cost, f"{usd(net_sale)} − {usd(cost)}", usd)
    c.add("報酬率", pl / cost, f"{usd(pl)} ÷ {usd(cost)}", pct)
    return c.numeric(q, pl, usd(pl), params={"qty": qty, "pa": pa, "pb": pb, "fee_a": fee_a, "fee_b": fee_b,
                                                "wd": wd})


# ---------------------------------------------------------------- whale_detection


@template(D, "whale_detection", "whale_detection_basic1", "基礎")
def whale_basic1(rng: random.Random) -> Problem:
    tok = _tok(rng)
    supply = pick_money(rng, 10_000_000, 1_000_000_000, 100_000)
    threshold = rng.choice([0.005, 0.01, 0.02])
    held = pick_money(rng, int(supply * threshold * 0.3), int(supply * threshold * 2.5), 100)
    q = (f"某鏈上監控系統將持有量達流通供給量 {pct(threshold, 1)}（含）以上的地址標記為巨鯨。{tok}流通供給量 {supply:,} 枚，"
         f"某地址持有 {held:,} 枚。請判斷該地址是否為巨鯨（回答「是」或「否」）。")
    c = Chain()
    share = c.add("持有占比", held / supply, f"{held:,} ÷ {supply:,}", lambda v: pct(v, 4))
    is_whale = share >= threshold
    c.note(f"與門檻 {pct(threshold, 1)} 比較", "達門檻" if is_whale else "未達門檻")
    return c.categorical(q, "是" if is_whale else "否", params={"supply": supply, "threshold": threshold,
                                                              "held": held})


@template(D, "whale_detection", "whale_detection_basic2", "基礎")
def whale_basic2(rng: random.Random) -> Problem:
    tok = _tok(rng)
    price = pick_decimal(rng, 0.5, 200, 2)
    vol = pick_money(rng, 5_000_000, 500_000_000, 100_000)
    qty = pick_money(rng, int(vol * 0.001 / price) + 100, int(vol * 0.3 / price), 100)  # 0.1%–30% of volume
    q = (f"監控系統偵測到一筆 {qty:,} 枚{tok}的大額轉帳，當時價格 {usd(price, 2)}，{tok}當日全市場成交額為 {usd(vol)}。"
         f"請計算這筆轉帳金額占當日成交額的比例。{ASK_PCT}")
    c = Chain()
    val = c.add("轉帳金額", qty * price, f"{qty:,} × {usd(price, 2)}", usd)
    share = c.add("占當日成交額比例", val / vol, f"{usd(val)} ÷ {usd(vol)}", pct)
    return c.numeric(q, share, pct(share), params={"qty": qty, "price": price, "vol": vol})


@template(D, "whale_detection", "whale_detection_intermediate1", "中級")
def whale_inter1(rng: random.Random) -> Problem:
    tok = _tok(rng)
    supply = pick_money(rng, 50_000_000, 1_000_000_000, 1_000_000)
    top = sorted((pick_money(rng, supply // 500, supply // 25, 1_000) for _ in range(5)), reverse=True)
    prev = pick_rate(rng, 5, 40, 0.5)
    q = (f"{tok}流通供給量 {supply:,} 枚，前五大持有地址的持有量分別為 {'、'.join(f'{v:,}' for v in top)} 枚。"
         f"上個月前五大地址合計占比為 {pct(prev, 1)}。請計算本月前五大地址集中度較上月變動多少個百分點"
         f"（減少以負數表示）。{ASK_NUM}")
    c = Chain()
    tot = c.add("前五大合計持有量", sum(top), " + ".join(f"{v:,}" for v in top), _qty)
    share = c.add("前五大持有占比", tot / supply, f"{fmt_value(tot)} ÷ {supply:,}", pct)
    d = c.add("集中度變動（百分點）", (share - prev) * 100, f"{pct(share)} − {pct(prev, 1)}",
              lambda v: f"{fmt_value(v)} 個百分點")
    params = {"supply": supply, "prev": prev}
    params.update({f"h{i}": v for i, v in enumerate(top)})
    return c.numeric(q, d, num(d), params=params)


@template(D, "whale_detection", "whale_detection_intermediate2", "中級")
def whale_inter2(rng: random.Random) -> Problem:
    tok = _tok(rng)
    p0 = pick_decimal(rng, 1, 300, 2)
    depth = pick_money(rng, 50_000, 2_000_000, 1_000)
    qty = pick_money(rng, depth // 10, depth * 5, 100)
    q = (f"某巨鯨地址準備在交易所市價賣出 {qty:,} 枚{tok}。依委託簿估計，每賣出 {depth:,} 枚會使價格下跌 1%（線性）。"
         f"目前價格 {usd(p0, 2)}。請估計價格衝擊、成交後價格，以及以平均成交價（成交前後價格的平均）計算的賣出金額。"
         f"本題答案填賣出金額。{ASK_USD}")
    c = Chain()
    # Each line computes from the inputs (the exact ratio qty ÷ depth), not from an earlier line's rounded display:
    # 5,337,400 × a 4-decimal average price would miss the gold by hundreds of dollars.
    ratio = f"{qty:,} ÷ {depth:,} × 1%"
    impact = c.add("價格衝擊", qty / depth / 100, ratio, lambda v: pct(v, 4))
    p1 = c.add("成交後價格", p0 * (1 - impact), f"{usd(p0, 2)} × （1 − {ratio}）", lambda v: usd(v, 4))
    avg = c.add("平均成交價", (p0 + p1) / 2, f"（成交前價格 + 成交後價格）÷ 2 = {usd(p0, 2)} × （1 − {ratio} ÷ 2）",
                lambda v: usd(v, 4))
    proceeds = c.add("賣出金額", qty * avg, f"{qty:,} × 平均成交價 = {qty:,} × {usd(p0, 2)} × （1 − {ratio} ÷ 2）", usd)
    return c.numeric(q, proceeds, usd(proceeds), params={"p0": p0, "depth": depth, "qty": qty})


@template(D, "whale_detection", "whale_detection_advanced1", "進階")
def whale_adv1(rng: random.Random) -> Problem:
    tok = _tok(rng)
    vol = pick_money(rng, 50_000_000, 1_000_000_000, 1_000_000)
    price = pick_decimal(rng, 1, 200, 2)
    flows = []
    for label in ("甲", "乙", "丙", "丁"):
        into = pick_money(rng, 0, int(vol / price * 0.03), 100)
        out = pick_money(rng, 0, int(vol / price * 0.015), 100)
        flows.append((label, into, out))
    desc = "；".join(f"地址{lab}轉入交易所 {i:,} 枚、自交易所轉出 {o:,} 枚" for lab, i, o in flows)
    q = (f"監控四個{tok}巨鯨地址過去 24 小時與交易所之間的流向：{desc}。{tok}價格 {usd(price, 2)}，當日成交額 {usd(vol)}。"
         f"判斷規則：巨鯨淨流入交易所金額占當日成交額 5% 以上為「賣壓強」，2%（含）至 5% 為「賣壓中」，低於 2%"
         f"（含淨流出）為「賣壓弱」。請判斷賣壓等級。")
    c = Chain()
    nets = [c.add(f"地址{lab}淨流入", i - o, f"{i:,} − {o:,}", _qty) for lab, i, o in flows]
    tot = c.add("淨流入合計", sum(nets), fmt_value(nets[0]) + "".join(f" {plus(v)}" for v in nets[1:]), _qty)
    val = c.add("淨流入金額", tot * price, f"{fmt_value(tot)} × {usd(price, 2)}", usd)
    share = c.add("占當日成交額比例", val / vol, f"{usd(val)} ÷ {usd(vol)}", pct)
    level = "賣壓強" if share >= 0.05 else ("賣壓中" if share >= 0.02 else "賣壓弱")
    c.note("依判斷規則分級", level)
    params = {"vol": vol, "price": price}
    for k, (_, i, o) in enumerate(flows):
        params.update({f"in{k}": i, f"out{k}": o})
    return c.categorical(q, level, params=params)

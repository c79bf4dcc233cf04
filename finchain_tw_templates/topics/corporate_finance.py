"""公司理財 (corporate_finance): capital_structure, dividend_policies, eps, wacc."""

from __future__ import annotations

import random

from finchain_tw_templates.common import (
    ASK_MONEY,
    ASK_NUM,
    ASK_PCT,
    TW_CORPORATE_TAX,
    Chain,
    fmt_value,
    multiple_value,
    ntd,
    num,
    pct,
    pick_company,
    pick_decimal,
    pick_money,
    pick_person,
    pick_rate,
)
from finchain_tw_templates.core import Problem, template
from finchain_tw_templates.facts import twse_price

D = "corporate_finance"


def _sh(v: float) -> str:
    return f"{fmt_value(v)} 股"



# ---------------------------------------------------------------- capital_structure


@template(D, "capital_structure", "capital_structure_basic1", "基礎")
def cs_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    debt = pick_money(rng, 10_000_000, 500_000_000, 100_000)
    eq = pick_money(rng, int(debt * 0.4), int(debt * 4), 100_000)
    q = (f"{co}公司的負債總額為 {ntd(debt)}，權益總額為 {ntd(eq)}。請計算該公司的負債權益比"
         f"（以倍數表示）。{ASK_NUM}")
    c = Chain()
    de = c.add("負債權益比", debt / eq, f"負債總額 ÷ 權益總額 = {ntd(debt)} ÷ {ntd(eq)}", multiple_value)
    return c.numeric(q, de, num(de), params={"debt": debt, "eq": eq})


@template(D, "capital_structure", "capital_structure_basic2", "基礎")
def cs_basic2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    shares = pick_money(rng, 1_000_000, 50_000_000, 1_000)
    price = twse_price(pick_decimal(rng, 15, 300, 1))
    debt = pick_money(rng, int(shares * price * 0.1), int(shares * price * 1.5), 10_000)
    q = (f"{co}公司流通在外普通股 {shares:,} 股，每股市價 {ntd(price)}；有息負債的市場價值為 {ntd(debt)}。"
         f"請以市場價值計算該公司資本結構中負債所占的比重。{ASK_PCT}")
    c = Chain()
    e = c.add("權益市值", shares * price, f"{shares:,} × {ntd(price)}", ntd)
    w = c.add("負債比重", debt / (debt + e), f"{ntd(debt)} ÷ （{ntd(debt)} + {ntd(e)}）", pct)
    return c.numeric(q, w, pct(w), params={"debt": debt, "shares": shares, "price": price})


@template(D, "capital_structure", "capital_structure_intermediate1", "中級")
def cs_inter1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    vu = pick_money(rng, 5_000_000_000, 50_000_000_000, 100_000_000)
    debt = pick_money(rng, int(vu * 0.1), int(vu * 0.6), 100_000_000)
    t = TW_CORPORATE_TAX
    q = (f"{co}公司目前無舉債，公司價值為 {ntd(vu)}。公司計畫發行 {ntd(debt)} 的無到期日公司債並用以買回股票，"
         f"所得稅率為 {pct(t, 0)}。依 MM 理論（考慮公司所得稅），資本結構調整後的權益價值為多少？{ASK_MONEY}")
    c = Chain()
    shield = c.add("利息稅盾現值", t * debt, f"稅率 × 負債 = {pct(t, 0)} × {ntd(debt)}", ntd)
    vl = c.add("有舉債公司價值", vu + shield, f"{ntd(vu)} + {ntd(shield)}", ntd)
    e = c.add("權益價值", vl - debt, f"{ntd(vl)} − {ntd(debt)}", ntd)
    return c.numeric(q, e, ntd(e), params={"vu": vu, "debt": debt, "t": t})


@template(D, "capital_structure", "capital_structure_intermediate2", "中級")
def cs_inter2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    bu = pick_decimal(rng, 0.5, 1.5, 2)
    debt = pick_money(rng, 100_000_000, 2_000_000_000, 10_000_000)
    eq = pick_money(rng, 200_000_000, 3_000_000_000, 10_000_000)
    t = TW_CORPORATE_TAX
    q = (f"{co}公司的無槓桿貝他係數（資產貝他係數）為 {bu:.2f}，負債市值 {ntd(debt)}，權益市值 {ntd(eq)}，"
         f"所得稅率 {pct(t, 0)}。請以哈馬達公式計算該公司的有槓桿權益貝他係數。{ASK_NUM}")
    c = Chain()
    de = c.add("負債權益比", debt / eq, f"{ntd(debt)} ÷ {ntd(eq)}")
    adj = c.add("稅後槓桿調整", (1 - t) * de, f"（1 − {pct(t, 0)}）× {fmt_value(de)}")
    bl = c.add("有槓桿貝他係數", bu * (1 + adj), f"{bu:.2f} × （1 + {fmt_value(adj)}）")
    return c.numeric(q, bl, num(bl), params={"bu": bu, "debt": debt, "eq": eq, "t": t})


@template(D, "capital_structure", "capital_structure_advanced1", "進階")
def cs_adv1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    ebit = pick_money(rng, 5_000_000, 80_000_000, 100_000)
    ru = pick_rate(rng, 8, 14, 0.5)
    rd = pick_rate(rng, 2, ru * 100 - 2, 0.25)
    t = TW_CORPORATE_TAX
    vu_est = ebit * (1 - t) / ru
    debt = pick_money(rng, int(vu_est * 0.15), int(vu_est * 0.5), 100_000)
    q = (f"{co}公司每年息前稅前利益（EBIT）預期永續維持 {ntd(ebit)}，目前無負債，無槓桿權益資金成本為 {pct(ru, 1)}，"
         f"所得稅率 {pct(t, 0)}。公司擬以 {pct(rd)} 的利率舉借 {ntd(debt)} 永續負債並買回股票。依 MM 理論"
         f"（考慮公司所得稅），請計算資本結構調整後的權益資金成本。{ASK_PCT}")
    c = Chain()
    vu = c.add("無槓桿公司價值", ebit * (1 - t) / ru, f"{ntd(ebit)} × （1 − {pct(t, 0)}）÷ {pct(ru, 1)}", ntd)
    shield = c.add("利息稅盾現值", t * debt, f"{pct(t, 0)} × {ntd(debt)}", ntd)
    vl = c.add("有槓桿公司價值", vu + shield, f"{ntd(vu)} + {ntd(shield)}", ntd)
    e = c.add("權益價值", vl - debt, f"{ntd(vl)} − {ntd(debt)}", ntd)
    re = c.add("權益資金成本", ru + (ru - rd) * (1 - t) * debt / e,
               f"{pct(ru, 1)} + （{pct(ru, 1)} − {pct(rd)}）×（1 − {pct(t, 0)}）× {ntd(debt)} ÷ {ntd(e)}", pct)
    return c.numeric(q, re, pct(re), params={"ebit": ebit, "ru": ru, "rd": rd, "t": t, "debt": debt})


# ---------------------------------------------------------------- dividend_policies


@template(D, "dividend_policies", "dividend_policies_basic1", "基礎")
def dp_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    price = twse_price(pick_decimal(rng, 15, 600, 1))
    dps = pick_decimal(rng, price * 0.01, price * 0.08, 2)
    q = (f"{co}公司今年宣告發放每股現金股利 {ntd(dps)}，目前股價為 {ntd(price)}。請計算現金股利殖利率。{ASK_PCT}")
    c = Chain()
    y = c.add("現金股利殖利率", dps / price, f"{ntd(dps)} ÷ {ntd(price)}", pct)
    return c.numeric(q, y, pct(y), params={"dps": dps, "price": price})


@template(D, "dividend_policies", "dividend_policies_basic2", "基礎")
def dp_basic2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    shares = pick_money(rng, 10_000_000, 500_000_000, 100_000)
    eps_target = pick_decimal(rng, 1, 15, 2)
    ni = pick_money(rng, int(shares * eps_target * 0.9), int(shares * eps_target * 1.1), 10_000)
    dps = pick_decimal(rng, eps_target * 0.2, eps_target * 0.9, 2)
    q = (f"{co}公司本年度稅後淨利 {ntd(ni)}，流通在外普通股 {shares:,} 股，董事會擬配發每股現金股利 {ntd(dps)}。"
         f"請計算股利發放率。{ASK_PCT}")
    c = Chain()
    eps = c.add("每股盈餘", ni / shares, f"{ntd(ni)} ÷ {shares:,}", lambda v: ntd(v, 4))
    payout = c.add("股利發放率", dps / eps, f"{ntd(dps)} ÷ {ntd(eps, 4)}", pct)
    return c.numeric(q, payout, pct(payout), params={"ni": ni, "shares": shares, "dps": dps})


@template(D, "dividend_policies", "dividend_policies_intermediate1", "中級")
def dp_inter1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    d0 = pick_decimal(rng, 0.5, 12, 2)
    g = pick_rate(rng, 1, 6, 0.5)
    r = pick_rate(rng, g * 100 + 2, g * 100 + 7, 0.5)
    q = (f"{co}公司剛發放每股現金股利 {ntd(d0)}，預期股利每年以 {pct(g, 1)} 固定成長，投資人要求的報酬率為 "
         f"{pct(r, 1)}。請以股利固定成長模型計算該股票的合理價格。{ASK_MONEY}")
    c = Chain()
    d1 = c.add("下一期股利", d0 * (1 + g), f"{ntd(d0)} × （1 + {pct(g, 1)}）", lambda v: ntd(v, 4))
    spread = c.add("要求報酬率減成長率", r - g, f"{pct(r, 1)} − {pct(g, 1)}", pct)
    p0 = c.add("股票合理價格", d1 / spread, f"{ntd(d1, 4)} ÷ {pct(spread)}", ntd)
    return c.numeric(q, p0, ntd(p0), params={"d0": d0, "g": g, "r": r})


@template(D, "dividend_policies", "dividend_policies_intermediate2", "中級")
def dp_inter2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    capex = pick_money(rng, 10_000_000, 200_000_000, 100_000)
    we = pick_rate(rng, 40, 80, 5)
    need = capex * we
    ni = pick_money(rng, int(need * 1.05), int(need * 2.5), 100_000)
    shares = pick_money(rng, 5_000_000, 100_000_000, 100_000)
    q = (f"{co}公司採剩餘股利政策，目標資本結構中權益占 {pct(we, 0)}。明年資本支出預算為 {ntd(capex)}，"
         f"本年度稅後淨利為 {ntd(ni)}，流通在外股數 {shares:,} 股。請計算每股可發放的現金股利。{ASK_MONEY}")
    c = Chain()
    keep = c.add("資本支出所需權益資金", capex * we, f"{ntd(capex)} × {pct(we, 0)}", ntd)
    resid = c.add("可發放股利總額", ni - keep, f"{ntd(ni)} − {ntd(keep)}", ntd)
    dps = c.add("每股現金股利", resid / shares, f"{ntd(resid)} ÷ {shares:,}", lambda v: ntd(v, 4))
    return c.numeric(q, dps, ntd(dps), params={"capex": capex, "we": we, "ni": ni, "shares": shares})


@template(D, "dividend_policies", "dividend_policies_advanced1", "進階")
def dp_adv1(rng: random.Random) -> Problem:
    co, who = pick_company(rng), pick_person(rng)
    price = twse_price(pick_decimal(rng, 20, 400, 1))
    cash_div = pick_decimal(rng, 0.5, min(15, price * 0.1), 1)
    stock_div = pick_decimal(rng, 0.2, 2.0, 1)  # 元 per share of NT$10 par → 2%–20% shares
    held = pick_money(rng, 1_000, 50_000, 1_000)
    q = (f"{who}持有{co}公司股票 {held:,} 股。該公司決議配發現金股利每股 {ntd(cash_div)}、股票股利每股 "
         f"{ntd(stock_div)}（面額 NT$10），除權息前一日收盤價為 {ntd(price)}。請計算除權息參考價，並求除權息後"
         f"{who}以參考價計算的持股市值加上收到的現金股利合計為多少。{ASK_MONEY}")
    c = Chain()
    ratio = c.add("無償配股率", stock_div / 10, f"{ntd(stock_div)} ÷ NT$10", pct)
    new = c.add("配發股數", held * ratio, f"{held:,} × {pct(ratio, 0)}", _sh)
    cash = c.add("現金股利收入", held * cash_div, f"{held:,} × {ntd(cash_div)}", ntd)
    ref = c.add("除權息參考價", (price - cash_div) / (1 + ratio),
                f"（{ntd(price)} − {ntd(cash_div)}）÷ （1 + {pct(ratio, 0)}）", lambda v: ntd(v, 4))
    mv = c.add("除權息後持股市值", (held + new) * ref, f"（{held:,} + {new:,.0f}）× {ntd(ref, 4)}", ntd)
    tot = c.add("持股市值與現金股利合計", mv + cash, f"{ntd(mv)} + {ntd(cash)}", ntd)
    return c.numeric(q, tot, ntd(tot), params={"price": price, "cash_div": cash_div, "stock_div": stock_div,
                                                  "held": held})


# ---------------------------------------------------------------- eps


@template(D, "eps", "eps_basic1", "基礎")
def eps_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    ni = pick_money(rng, 10_000_000, 2_000_000_000, 100_000)
    pref = pick_money(rng, 10_000, int(ni * 0.1), 10_000)
    shares = pick_money(rng, 5_000_000, 400_000_000, 10_000)
    q = (f"{co}公司本年度稅後淨利為 {ntd(ni)}，特別股股利 {ntd(pref)}，普通股加權平均流通在外股數為 "
         f"{shares:,} 股。請計算基本每股盈餘。{ASK_MONEY}")
    c = Chain()
    common_ni = c.add("歸屬於普通股股東之淨利", ni - pref, f"{ntd(ni)} − {ntd(pref)}", ntd)
    eps = c.add("基本每股盈餘", common_ni / shares, f"{ntd(common_ni)} ÷ {shares:,}", lambda v: ntd(v, 4))
    return c.numeric(q, eps, ntd(eps), params={"ni": ni, "pref": pref, "shares": shares})


@template(D, "eps", "eps_basic2", "基礎")
def eps_basic2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    ni = pick_money(rng, 10_000_000, 2_000_000_000, 100_000)
    shares = pick_money(rng, 5_000_000, 400_000_000, 10_000)
    eps_ = ni / shares
    price = twse_price(pick_decimal(rng, max(5.0, eps_ * 5), max(10.0, eps_ * 40), 1))
    q = (f"{co}公司本年度稅後淨利 {ntd(ni)}，流通在外普通股 {shares:,} 股，目前股價 {ntd(price)}。"
         f"請計算該公司的本益比（倍）。{ASK_NUM}")
    c = Chain()
    e = c.add("每股盈餘", ni / shares, f"{ntd(ni)} ÷ {shares:,}", lambda v: ntd(v, 4))
    pe = c.add("本益比", price / e, f"{ntd(price)} ÷ {ntd(e, 4)}", multiple_value)
    return c.numeric(q, pe, num(pe), params={"ni": ni, "shares": shares, "price": price})


@template(D, "eps", "eps_intermediate1", "中級")
def eps_inter1(rng: random.Random) -> Problem:
    co, y = pick_company(rng), rng.randint(2021, 2025)
    s0 = pick_money(rng, 10_000_000, 200_000_000, 10_000)
    m_new = rng.randint(2, 11)
    new = pick_money(rng, s0 // 50, s0 // 5, 1_000)
    m_buy = rng.randint(2, 11)
    buy = pick_money(rng, s0 // 100, s0 // 20, 1_000)
    ni = pick_money(rng, s0, s0 * 8, 10_000)
    q = (f"{co}公司 {y} 年初流通在外普通股 {s0:,} 股；{m_new} 月 1 日現金增資發行新股 {new:,} 股，"
         f"{m_buy} 月 1 日買回庫藏股 {buy:,} 股。全年稅後淨利為 {ntd(ni)}，無特別股。請計算 {y} 年度的基本每股盈餘。"
         f"{ASK_MONEY}")
    c = Chain()
    w_new = c.add("新股加權股數", new * (13 - m_new) / 12, f"{new:,} × {13 - m_new} ÷ 12", _sh)
    w_buy = c.add("庫藏股加權股數", buy * (13 - m_buy) / 12, f"{buy:,} × {13 - m_buy} ÷ 12", _sh)
    w = c.add("加權平均流通在外股數", s0 + w_new - w_buy, f"{s0:,} + {fmt_value(w_new)} − {fmt_value(w_buy)}",
              _sh)
    eps = c.add("基本每股盈餘", ni / w, f"{ntd(ni)} ÷ {fmt_value(w)}", lambda v: ntd(v, 4))
    return c.numeric(q, eps, ntd(eps), params={"s0": s0, "m_new": m_new, "new": new, "m_buy": m_buy,
                                                  "buy": buy, "ni": ni})


@template(D, "eps", "eps_intermediate2", "中級")
def eps_inter2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    ni = pick_money(rng, 50_000_000, 1_000_000_000, 100_000)
    shares = pick_money(rng, 10_000_000, 200_000_000, 10_000)
    face = pick_money(rng, 50_000_000, 500_000_000, 1_000_000)
    coupon = pick_rate(rng, 0.5, 4, 0.25)
    conv_price = pick_money(rng, 20, 150, 1)
    t = TW_CORPORATE_TAX
    q = (f"{co}公司本年度稅後淨利 {ntd(ni)}，普通股加權平均流通在外股數 {shares:,} 股。公司全年流通在外的可轉換公司債"
         f"面額 {ntd(face)}，票面利率 {pct(coupon)}，轉換價格每股 {ntd(conv_price)}，所得稅率 {pct(t, 0)}。"
         f"假設全數轉換，請計算稀釋每股盈餘。{ASK_MONEY}")
    c = Chain()
    after_tax = c.add("稅後利息加回數", face * coupon * (1 - t), f"{ntd(face)} × {pct(coupon)} × （1 − {pct(t, 0)}）", ntd)
    adj_ni = c.add("調整後淨利", ni + after_tax, f"{ntd(ni)} + {ntd(after_tax)}", ntd)
    conv = c.add("潛在普通股總數", shares + face / conv_price, f"{shares:,} + {ntd(face)} ÷ {ntd(conv_price)}",
                 _sh)
    deps = c.add("稀釋每股盈餘", adj_ni / conv, f"{ntd(adj_ni)} ÷ {fmt_value(conv)}", lambda v: ntd(v, 4))
    return c.numeric(q, deps, ntd(deps), params={"ni": ni, "shares": shares, "face": face, "coupon": coupon,
                                                    "conv_price": conv_price, "t": t})


@template(D, "eps", "eps_advanced1", "進階")
def eps_adv1(rng: random.Random) -> Problem:
    co, y = pick_company(rng), rng.randint(2021, 2025)
    s0 = pick_money(rng, 20_000_000, 200_000_000, 10_000)
    m_new = rng.randint(2, 11)
    new = pick_money(rng, s0 // 40, s0 // 8, 1_000)
    ni = pick_money(rng, s0 * 2, s0 * 10, 10_000)
    pref = pick_money(rng, 10_000, ni // 20, 10_000)
    opts = pick_money(rng, s0 // 100, s0 // 20, 1_000)
    price = pick_money(rng, 30, 300, 1)
    strike = pick_money(rng, int(price * 0.5), int(price * 0.95), 1)
    q = (f"{co}公司 {y} 年初流通在外普通股 {s0:,} 股，{m_new} 月 1 日發行新股 {new:,} 股。全年稅後淨利 {ntd(ni)}，"
         f"特別股股利 {ntd(pref)}。公司另有員工認股權 {opts:,} 單位（每單位認購 1 股），履約價格 {ntd(strike)}，"
         f"當年度普通股平均市價 {ntd(price)}。請以庫藏股票法計算 {y} 年度的稀釋每股盈餘。{ASK_MONEY}")
    c = Chain()
    nic = c.add("歸屬於普通股股東之淨利", ni - pref, f"{ntd(ni)} − {ntd(pref)}", ntd)
    w = c.add("加權平均流通在外股數", s0 + new * (13 - m_new) / 12, f"{s0:,} + {new:,} × {13 - m_new} ÷ 12",
              _sh)
    c.add("基本每股盈餘", nic / w, f"{ntd(nic)} ÷ {fmt_value(w)}", lambda v: ntd(v, 4))
    inc = c.add("認股權增額股數", opts * (price - strike) / price, f"{opts:,} × （{ntd(price)} − {ntd(strike)}）÷ {ntd(price)}",
                _sh)
    deps = c.add("稀釋每股盈餘", nic / (w + inc), f"{ntd(nic)} ÷ （{fmt_value(w)} + {fmt_value(inc)}）", lambda v: ntd(v, 4))
    return c.numeric(q, deps, ntd(deps), params={"s0": s0, "m_new": m_new, "new": new, "ni": ni, "pref": pref,
                                                    "opts": opts, "price": price, "strike": strike})


# ---------------------------------------------------------------- wacc


@template(D, "wacc", "wacc_basic1", "基礎")
def wacc_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    rd = pick_rate(rng, 1.5, 9, 0.25)
    t = TW_CORPORATE_TAX
    q = (f"{co}公司向銀行借款的利率為 {pct(rd)}，公司適用的所得稅率為 {pct(t, 0)}。請計算稅後負債資金成本。{ASK_PCT}")
    c = Chain()
    k = c.add("稅後負債資金成本", rd * (1 - t), f"{pct(rd)} × （1 − {pct(t, 0)}）", pct)
    return c.numeric(q, k, pct(k), params={"rd": rd, "t": t})


@template(D, "wacc", "wacc_basic2", "基礎")
def wacc_basic2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    rf = pick_rate(rng, 0.5, 4, 0.25)
    rm = pick_rate(rng, rf * 100 + 3, rf * 100 + 9, 0.25)
    beta = pick_decimal(rng, 0.5, 1.8, 2)
    q = (f"無風險利率為 {pct(rf)}，市場預期報酬率為 {pct(rm)}，{co}公司股票的貝他係數為 {beta:.2f}。"
         f"請依資本資產定價模型（CAPM）計算該公司的權益資金成本。{ASK_PCT}")
    c = Chain()
    mrp = c.add("市場風險溢酬", rm - rf, f"{pct(rm)} − {pct(rf)}", pct)
    re = c.add("權益資金成本", rf + beta * mrp, f"{pct(rf)} + {beta:.2f} × {pct(mrp)}", pct)
    return c.numeric(q, re, pct(re), params={"rf": rf, "rm": rm, "beta": beta})


@template(D, "wacc", "wacc_intermediate1", "中級")
def wacc_inter1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    e = pick_money(rng, 50_000_000, 900_000_000, 1_000_000)
    d = pick_money(rng, 20_000_000, 600_000_000, 1_000_000)
    re = pick_rate(rng, 7, 16, 0.25)
    rd = pick_rate(rng, 1.5, 7, 0.25)
    t = TW_CORPORATE_TAX
    q = (f"{co}公司權益市值 {ntd(e)}，負債市值 {ntd(d)}；權益資金成本 {pct(re)}，稅前負債資金成本 {pct(rd)}，"
         f"所得稅率 {pct(t, 0)}。請計算加權平均資金成本（WACC）。{ASK_PCT}")
    c = Chain()
    v = c.add("公司總價值", e + d, f"{ntd(e)} + {ntd(d)}", ntd)
    we = c.add("權益權重", e / v, f"{ntd(e)} ÷ {ntd(v)}", pct)
    wd = c.add("負債權重", d / v, f"{ntd(d)} ÷ {ntd(v)}", pct)
    w = c.add("加權平均資金成本", we * re + wd * rd * (1 - t),
              f"{pct(we)} × {pct(re)} + {pct(wd)} × {pct(rd)} × （1 − {pct(t, 0)}）", pct)
    return c.numeric(q, w, pct(w), params={"e": e, "d": d, "re": re, "rd": rd, "t": t})


@template(D, "wacc", "wacc_intermediate2", "中級")
def wacc_inter2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    rf = pick_rate(rng, 0.5, 4, 0.25)
    mrp = pick_rate(rng, 4, 8, 0.25)
    beta = pick_decimal(rng, 0.6, 1.8, 2)
    rd = pick_rate(rng, 1.5, 7, 0.25)
    t = TW_CORPORATE_TAX
    wd = pick_rate(rng, 10, 60, 5)
    q = (f"{co}公司的目標資本結構為負債 {pct(wd, 0)}、權益 {pct(1 - wd, 0)}。無風險利率 {pct(rf)}，市場風險溢酬 "
         f"{pct(mrp)}，股票貝他係數 {beta:.2f}；稅前負債資金成本 {pct(rd)}，所得稅率 {pct(t, 0)}。"
         f"請以 CAPM 估計權益資金成本，並計算 WACC。{ASK_PCT}")
    c = Chain()
    re = c.add("權益資金成本", rf + beta * mrp, f"{pct(rf)} + {beta:.2f} × {pct(mrp)}", pct)
    kd = c.add("稅後負債資金成本", rd * (1 - t), f"{pct(rd)} × （1 − {pct(t, 0)}）", pct)
    we = c.add("權益權重", 1 - wd, f"1 − {pct(wd, 0)}", pct)
    w = c.add("加權平均資金成本", we * re + wd * kd, f"{pct(we, 0)} × {pct(re)} + {pct(wd, 0)} × {pct(kd)}", pct)
    return c.numeric(q, w, pct(w), params={"rf": rf, "mrp": mrp, "beta": beta, "rd": rd, "t": t, "wd": wd})


@template(D, "wacc", "wacc_advanced1", "進階")
def wacc_adv1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    shares = pick_money(rng, 10_000_000, 300_000_000, 100_000)
    price = twse_price(pick_decimal(rng, 20, 300, 1))
    bonds = pick_money(rng, int(shares * price * 0.2 / 100_000), int(shares * price / 100_000), 1)  # D/E 0.2–1
    bond_price = pick_decimal(rng, 92, 108, 2)  # per NT$100 face
    d1 = pick_decimal(rng, price * 0.02, price * 0.06, 2)
    g = pick_rate(rng, 1, 6, 0.5)
    ytm = pick_rate(rng, 1.5, 7, 0.25)
    t = TW_CORPORATE_TAX
    q = (f"{co}公司流通在外普通股 {shares:,} 股，股價 {ntd(price)}，預期下一期每股股利 {ntd(d1)}，股利成長率 "
         f"{pct(g, 1)}。公司另有公司債 {bonds:,} 張（每張面額 NT$100,000），市價為面額的 {bond_price:.2f}%，"
         f"到期殖利率 {pct(ytm)}。所得稅率 {pct(t, 0)}。請以市場價值權重計算加權平均資金成本（WACC），"
         f"權益資金成本以股利成長模型估計。{ASK_PCT}")
    c = Chain()
    e = c.add("權益市值", shares * price, f"{shares:,} × {ntd(price)}", ntd)
    d = c.add("負債市值", bonds * 100_000 * bond_price / 100, f"{bonds:,} × NT$100,000 × {bond_price:.2f}%", ntd)
    re = c.add("權益資金成本", d1 / price + g, f"{ntd(d1)} ÷ {ntd(price)} + {pct(g, 1)}", pct)
    kd = c.add("稅後負債資金成本", ytm * (1 - t), f"{pct(ytm)} × （1 − {pct(t, 0)}）", pct)
    we = c.add("權益權重", e / (e + d), f"{ntd(e)} ÷ （{ntd(e)} + {ntd(d)}）", pct)
    w = c.add("加權平均資金成本", we * re + (1 - we) * kd, f"{pct(we)} × {pct(re)} + {pct(1 - we)} × {pct(kd)}", pct)
    return c.numeric(q, w, pct(w), params={"shares": shares, "price": price, "bonds": bonds,
                                           "bond_price": bond_price, "d1": d1, "g": g, "ytm": ytm, "t": t})

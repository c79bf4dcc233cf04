"""財務比率 (ratios): efficiency_ratios, leverage_ratios, liquidity_ratios, profitability_ratios."""

from __future__ import annotations

import random

from finchain_tw_templates.common import (
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
    pick_money,
    pick_rate,
    pick_year,
)
from finchain_tw_templates.core import Problem, template

D = "ratios"



def _days(v: float) -> str:
    return f"{fmt_value(v)} 天"


def _ni_text(ni: int) -> str:
    """「本期淨利 NT$x」 or, for a loss, 「本期淨損 NT$x」 (never 「淨利 -NT$x」)."""
    return f"本期淨利 {ntd(ni)}" if ni >= 0 else f"本期淨損 {ntd(-ni)}"



# ---------------------------------------------------------------- efficiency_ratios


@template(D, "efficiency_ratios", "efficiency_ratios_basic1", "基礎")
def eff_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    cogs = pick_money(rng, 5_000_000, 500_000_000, 10_000)
    inv0 = pick_money(rng, int(cogs / 15), int(cogs / 2), 1_000)
    inv1 = pick_money(rng, int(inv0 * 0.7), int(inv0 * 1.3), 1_000)
    q = (f"{co}公司本年度營業成本為 {ntd(cogs)}，期初存貨 {ntd(inv0)}，期末存貨 {ntd(inv1)}。請計算存貨週轉率（次）。{ASK_NUM}")
    c = Chain()
    avg = c.add("平均存貨", (inv0 + inv1) / 2, f"（{ntd(inv0)} + {ntd(inv1)}）÷ 2", ntd)
    t = c.add("存貨週轉率", cogs / avg, f"{ntd(cogs)} ÷ {ntd(avg)}", lambda v: f"{fmt_value(v)} 次")
    return c.numeric(q, t, num(t, 2), params={"cogs": cogs, "inv0": inv0, "inv1": inv1})


@template(D, "efficiency_ratios", "efficiency_ratios_basic2", "基礎")
def eff_basic2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    sales = pick_money(rng, 10_000_000, 900_000_000, 10_000)
    ar = pick_money(rng, int(sales / 20), int(sales / 3), 1_000)
    q = (f"{co}公司本年度賒銷收入淨額為 {ntd(sales)}，平均應收帳款為 {ntd(ar)}。一年以 365 天計，請計算應收帳款平均"
         f"收現天數。{ASK_NUM}")
    c = Chain()
    t = c.add("應收帳款週轉率", sales / ar, f"{ntd(sales)} ÷ {ntd(ar)}", lambda v: f"{fmt_value(v)} 次")
    d = c.add("平均收現天數", 365 / t, f"365 ÷ {fmt_value(t)}", _days)
    return c.numeric(q, d, num(d, 2), params={"sales": sales, "ar": ar})


@template(D, "efficiency_ratios", "efficiency_ratios_intermediate1", "中級")
def eff_inter1(rng: random.Random) -> Problem:
    co, y = pick_company(rng), pick_year(rng)
    ta0 = pick_money(rng, 50_000_000, 2_000_000_000, 100_000)
    ta1 = pick_money(rng, int(ta0 * 0.85), int(ta0 * 1.3), 100_000)
    sales = pick_money(rng, int(ta0 * 0.3), int(ta0 * 2.5), 100_000)
    ni = pick_money(rng, int(sales * -0.03), int(sales * 0.2), 10_000)
    q = (f"{co}公司 {y} 年度營業收入 {ntd(sales)}，{_ni_text(ni)}；資產總額年初為 {ntd(ta0)}，年底為 {ntd(ta1)}。"
         f"請計算總資產週轉率與淨利率，並以兩者相乘求資產報酬率。本題答案填資產報酬率。{ASK_PCT}")
    c = Chain()
    avg = c.add("平均資產總額", (ta0 + ta1) / 2, f"（{ntd(ta0)} + {ntd(ta1)}）÷ 2", ntd)
    turn = c.add("總資產週轉率", sales / avg, f"{ntd(sales)} ÷ {ntd(avg)}", lambda v: f"{fmt_value(v)} 次")
    nm = c.add("淨利率", ni / sales, f"{ntd(ni)} ÷ {ntd(sales)}", pct)
    roa = c.add("資產報酬率", turn * nm, f"{fmt_value(turn)} × {pct(nm)}", pct)
    return c.numeric(q, roa, pct(roa), params={"ta0": ta0, "ta1": ta1, "sales": sales, "ni": ni})


@template(D, "efficiency_ratios", "efficiency_ratios_intermediate2", "中級")
def eff_inter2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    sales = pick_money(rng, 50_000_000, 2_000_000_000, 100_000)
    cogs = pick_money(rng, int(sales * 0.5), int(sales * 0.85), 100_000)
    inv = pick_money(rng, int(cogs / 12), int(cogs / 3), 10_000)
    ar = pick_money(rng, int(sales / 15), int(sales / 4), 10_000)
    ap = pick_money(rng, int(cogs / 15), int(cogs / 4), 10_000)
    q = (f"{co}公司本年度營業收入 {ntd(sales)}、營業成本 {ntd(cogs)}；平均存貨 {ntd(inv)}、平均應收帳款 {ntd(ar)}、"
         f"平均應付帳款 {ntd(ap)}。一年以 365 天計，請計算現金轉換循環天數。{ASK_NUM}")
    c = Chain()
    dio = c.add("存貨週轉天數", inv / cogs * 365, f"{ntd(inv)} ÷ {ntd(cogs)} × 365", _days)
    dso = c.add("應收帳款收現天數", ar / sales * 365, f"{ntd(ar)} ÷ {ntd(sales)} × 365", _days)
    dpo = c.add("應付帳款付款天數", ap / cogs * 365, f"{ntd(ap)} ÷ {ntd(cogs)} × 365", _days)
    ccc = c.add("現金轉換循環", dio + dso - dpo, f"{fmt_value(dio)} + {fmt_value(dso)} − {fmt_value(dpo)}", _days)
    return c.numeric(q, ccc, num(ccc, 2), params={"sales": sales, "cogs": cogs, "inv": inv, "ar": ar, "ap": ap})


@template(D, "efficiency_ratios", "efficiency_ratios_advanced1", "進階")
def eff_adv1(rng: random.Random) -> Problem:
    co, y = pick_company(rng), pick_year(rng)
    sales = pick_money(rng, 50_000_000, 2_000_000_000, 100_000)
    cogs = pick_money(rng, int(sales * 0.5), int(sales * 0.85), 100_000)

    def pair(lo: float, hi: float, base: int) -> tuple[int, int]:
        a = pick_money(rng, int(base * lo), int(base * hi), 10_000)
        return a, pick_money(rng, int(a * 0.75), int(a * 1.3), 10_000)

    inv0, inv1 = pair(1 / 12, 1 / 3, cogs)
    ar0, ar1 = pair(1 / 15, 1 / 4, sales)
    ap0, ap1 = pair(1 / 15, 1 / 4, cogs)
    q = (f"{co}公司 {y} 年度營業收入 {ntd(sales)}、營業成本 {ntd(cogs)}。存貨期初 {ntd(inv0)}、期末 {ntd(inv1)}；"
         f"應收帳款期初 {ntd(ar0)}、期末 {ntd(ar1)}；應付帳款期初 {ntd(ap0)}、期末 {ntd(ap1)}。以期初與期末平均數"
         f"計算，一年 365 天，請求出現金轉換循環天數。{ASK_NUM}")
    c = Chain()
    inv = c.add("平均存貨", (inv0 + inv1) / 2, f"（{ntd(inv0)} + {ntd(inv1)}）÷ 2", ntd)
    ar = c.add("平均應收帳款", (ar0 + ar1) / 2, f"（{ntd(ar0)} + {ntd(ar1)}）÷ 2", ntd)
    ap = c.add("平均應付帳款", (ap0 + ap1) / 2, f"（{ntd(ap0)} + {ntd(ap1)}）÷ 2", ntd)
    dio = c.add("存貨週轉天數", inv / cogs * 365, f"{ntd(inv)} ÷ {ntd(cogs)} × 365", _days)
    dso = c.add("應收帳款收現天數", ar / sales * 365, f"{ntd(ar)} ÷ {ntd(sales)} × 365", _days)
    dpo = c.add("應付帳款付款天數", ap / cogs * 365, f"{ntd(ap)} ÷ {ntd(cogs)} × 365", _days)
    ccc = c.add("現金轉換循環", dio + dso - dpo, f"{fmt_value(dio)} + {fmt_value(dso)} − {fmt_value(dpo)}", _days)
    return c.numeric(q, ccc, num(ccc, 2), params={"sales": sales, "cogs": cogs, "inv0": inv0, "inv1": inv1,
                                                  "ar0": ar0, "ar1": ar1, "ap0": ap0, "ap1": ap1})


# ---------------------------------------------------------------- leverage_ratios


@template(D, "leverage_ratios", "leverage_ratios_basic1", "基礎")
def lev_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    ta = pick_money(rng, 10_000_000, 5_000_000_000, 100_000)
    tl = pick_money(rng, int(ta * 0.15), int(ta * 0.85), 100_000)
    q = (f"{co}公司資產總額 {ntd(ta)}，負債總額 {ntd(tl)}。請計算負債比率。{ASK_PCT}")
    c = Chain()
    r = c.add("負債比率", tl / ta, f"{ntd(tl)} ÷ {ntd(ta)}", pct)
    return c.numeric(q, r, pct(r), params={"ta": ta, "tl": tl})


@template(D, "leverage_ratios", "leverage_ratios_basic2", "基礎")
def lev_basic2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    interest = pick_money(rng, 100_000, 50_000_000, 10_000)
    ebt = pick_money(rng, int(interest * 0.5), int(interest * 20), 10_000)
    q = (f"{co}公司本年度稅前淨利 {ntd(ebt)}，利息費用 {ntd(interest)}。請計算利息保障倍數。{ASK_NUM}")
    c = Chain()
    ebit = c.add("息前稅前利益", ebt + interest, f"{ntd(ebt)} + {ntd(interest)}", ntd)
    cov = c.add("利息保障倍數", ebit / interest, f"{ntd(ebit)} ÷ {ntd(interest)}", multiple_value)
    return c.numeric(q, cov, num(cov, 2), params={"ebt": ebt, "interest": interest})


@template(D, "leverage_ratios", "leverage_ratios_intermediate1", "中級")
def lev_inter1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    ta = pick_money(rng, 10_000_000, 5_000_000_000, 100_000)
    tl = pick_money(rng, int(ta * 0.2), int(ta * 0.8), 100_000)
    q = (f"{co}公司資產總額 {ntd(ta)}，負債總額 {ntd(tl)}。請計算權益總額、負債權益比與權益乘數。本題答案填權益乘數"
         f"（倍）。{ASK_NUM}")
    c = Chain()
    eq = c.add("權益總額", ta - tl, f"{ntd(ta)} − {ntd(tl)}", ntd)
    c.add("負債權益比", tl / eq, f"{ntd(tl)} ÷ {ntd(eq)}", multiple_value)
    em = c.add("權益乘數", ta / eq, f"{ntd(ta)} ÷ {ntd(eq)}", multiple_value)
    return c.numeric(q, em, num(em, 2), params={"ta": ta, "tl": tl})


@template(D, "leverage_ratios", "leverage_ratios_intermediate2", "中級")
def lev_inter2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    ebit = pick_money(rng, 10_000_000, 2_000_000_000, 100_000)
    da = pick_money(rng, int(ebit * 0.1), int(ebit * 0.8), 100_000)
    debt = pick_money(rng, int(ebit * 0.5), int(ebit * 6), 100_000)
    cash = pick_money(rng, int(debt * 0.05), int(debt * 0.6), 100_000)
    q = (f"{co}公司本年度息前稅前利益 {ntd(ebit)}，折舊及攤銷 {ntd(da)}；有息負債 {ntd(debt)}，現金及約當現金 {ntd(cash)}。"
         f"請計算淨負債對 EBITDA 倍數。{ASK_NUM}")
    c = Chain()
    ebitda = c.add("EBITDA", ebit + da, f"{ntd(ebit)} + {ntd(da)}", ntd)
    nd = c.add("淨負債", debt - cash, f"{ntd(debt)} − {ntd(cash)}", ntd)
    r = c.add("淨負債對 EBITDA 倍數", nd / ebitda, f"{ntd(nd)} ÷ {ntd(ebitda)}", multiple_value)
    return c.numeric(q, r, num(r, 2), params={"ebit": ebit, "da": da, "debt": debt, "cash": cash})


@template(D, "leverage_ratios", "leverage_ratios_advanced1", "進階")
def lev_adv1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    units = pick_money(rng, 100_000, 5_000_000, 1_000)
    price = pick_money(rng, 100, 2_000, 10)
    vc = pick_money(rng, int(price * 0.3), int(price * 0.7), 1)
    cm_est = units * (price - vc)
    fixed = pick_money(rng, int(cm_est * 0.2), int(cm_est * 0.6), 10_000)
    interest = pick_money(rng, int((cm_est - fixed) * 0.05), int((cm_est - fixed) * 0.5), 10_000)
    g = pick_rate(rng, 5, 20, 1)
    q = (f"{co}公司產品售價每單位 {ntd(price)}，變動成本每單位 {ntd(vc)}，本年度銷售量 {units:,} 單位，固定營業成本 "
         f"{ntd(fixed)}，利息費用 {ntd(interest)}。請計算營運槓桿度、財務槓桿度與綜合槓桿度，並估計銷售量增加 {pct(g, 0)} "
         f"時每股盈餘的變動率。{ASK_PCT}")
    c = Chain()
    cm = c.add("邊際貢獻", units * (price - vc), f"{units:,} × （{ntd(price)} − {ntd(vc)}）", ntd)
    ebit = c.add("息前稅前利益", cm - fixed, f"{ntd(cm)} − {ntd(fixed)}", ntd)
    dol = c.add("營運槓桿度", cm / ebit, f"{ntd(cm)} ÷ {ntd(ebit)}", multiple_value)
    dfl = c.add("財務槓桿度", ebit / (ebit - interest), f"{ntd(ebit)} ÷ （{ntd(ebit)} − {ntd(interest)}）", multiple_value)
    dtl = c.add("綜合槓桿度", dol * dfl, f"{fmt_value(dol)} × {fmt_value(dfl)}", multiple_value)
    eps = c.add("每股盈餘變動率", dtl * g, f"{fmt_value(dtl)} × {pct(g, 0)}", pct)
    return c.numeric(q, eps, pct(eps), params={"units": units, "price": price, "vc": vc, "fixed": fixed,
                                               "interest": interest, "g": g})


# ---------------------------------------------------------------- liquidity_ratios


@template(D, "liquidity_ratios", "liquidity_ratios_basic1", "基礎")
def liq_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    ca = pick_money(rng, 10_000_000, 800_000_000, 10_000)
    cl = pick_money(rng, int(ca * 0.3), int(ca * 1.2), 10_000)
    q = f"{co}公司流動資產 {ntd(ca)}，流動負債 {ntd(cl)}。請計算流動比率（倍）。{ASK_NUM}"
    c = Chain()
    r = c.add("流動比率", ca / cl, f"{ntd(ca)} ÷ {ntd(cl)}", multiple_value)
    return c.numeric(q, r, num(r, 2), params={"ca": ca, "cl": cl})


@template(D, "liquidity_ratios", "liquidity_ratios_basic2", "基礎")
def liq_basic2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    ca = pick_money(rng, 10_000_000, 800_000_000, 10_000)
    inv = pick_money(rng, int(ca * 0.1), int(ca * 0.5), 10_000)
    prepaid = pick_money(rng, 10_000, int(ca * 0.05), 10_000)
    cl = pick_money(rng, int(ca * 0.3), int(ca * 1.2), 10_000)
    q = (f"{co}公司流動資產 {ntd(ca)}，其中存貨 {ntd(inv)}、預付款項 {ntd(prepaid)}；流動負債 {ntd(cl)}。"
         f"請計算速動比率（倍）。{ASK_NUM}")
    c = Chain()
    quick = c.add("速動資產", ca - inv - prepaid, f"{ntd(ca)} − {ntd(inv)} − {ntd(prepaid)}", ntd)
    r = c.add("速動比率", quick / cl, f"{ntd(quick)} ÷ {ntd(cl)}", multiple_value)
    return c.numeric(q, r, num(r, 2), params={"ca": ca, "inv": inv, "prepaid": prepaid, "cl": cl})


@template(D, "liquidity_ratios", "liquidity_ratios_intermediate1", "中級")
def liq_inter1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    cash = pick_money(rng, 500_000, 100_000_000, 10_000)
    sec = pick_money(rng, 10_000, 50_000_000, 10_000)
    ar = pick_money(rng, 500_000, 150_000_000, 10_000)
    inv = pick_money(rng, 500_000, 200_000_000, 10_000)
    ap = pick_money(rng, 500_000, 120_000_000, 10_000)
    loan = pick_money(rng, 10_000, 100_000_000, 10_000)
    accrued = pick_money(rng, 100_000, 30_000_000, 10_000)
    q = (f"{co}公司期末流動資產包括現金 {ntd(cash)}、短期投資 {ntd(sec)}、應收帳款 {ntd(ar)}、存貨 {ntd(inv)}；流動負債包括"
         f"應付帳款 {ntd(ap)}、短期借款 {ntd(loan)}、應付費用 {ntd(accrued)}。請計算流動比率與現金比率"
         f"（（現金 + 短期投資）÷ 流動負債）。本題答案填現金比率（倍）。{ASK_NUM}")
    c = Chain()
    ca = c.add("流動資產", cash + sec + ar + inv, f"{ntd(cash)} + {ntd(sec)} + {ntd(ar)} + {ntd(inv)}", ntd)
    cl = c.add("流動負債", ap + loan + accrued, f"{ntd(ap)} + {ntd(loan)} + {ntd(accrued)}", ntd)
    c.add("流動比率", ca / cl, f"{ntd(ca)} ÷ {ntd(cl)}", multiple_value)
    r = c.add("現金比率", (cash + sec) / cl, f"（{ntd(cash)} + {ntd(sec)}）÷ {ntd(cl)}", multiple_value)
    return c.numeric(q, r, num(r, 2), params={"cash": cash, "sec": sec, "ar": ar, "inv": inv, "ap": ap,
                                              "loan": loan, "accrued": accrued})


@template(D, "liquidity_ratios", "liquidity_ratios_intermediate2", "中級")
def liq_inter2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    opex = pick_money(rng, 20_000_000, 2_000_000_000, 100_000)
    dep = pick_money(rng, int(opex * 0.03), int(opex * 0.2), 10_000)
    cash = pick_money(rng, int(opex * 0.02), int(opex * 0.2), 10_000)
    sec = pick_money(rng, 10_000, int(opex * 0.1), 10_000)
    ar = pick_money(rng, int(opex * 0.02), int(opex * 0.2), 10_000)
    q = (f"{co}公司全年營業成本及費用合計 {ntd(opex)}，其中折舊費用 {ntd(dep)}。期末現金 {ntd(cash)}、短期投資 {ntd(sec)}、"
         f"應收帳款 {ntd(ar)}。一年以 365 天計，請計算防禦區間天數（速動資產可支應每日現金支出的天數）。{ASK_NUM}")
    c = Chain()
    quick = c.add("速動資產", cash + sec + ar, f"{ntd(cash)} + {ntd(sec)} + {ntd(ar)}", ntd)
    daily = c.add("每日現金支出", (opex - dep) / 365, f"（{ntd(opex)} − {ntd(dep)}）÷ 365", ntd)
    days = c.add("防禦區間", quick / daily, f"{ntd(quick)} ÷ {ntd(daily)}", _days)
    return c.numeric(q, days, num(days, 2), params={"opex": opex, "dep": dep, "cash": cash, "sec": sec, "ar": ar})


@template(D, "liquidity_ratios", "liquidity_ratios_advanced1", "進階")
def liq_adv1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    ca = pick_money(rng, 10_000_000, 800_000_000, 10_000)
    cl = pick_money(rng, int(ca * 0.4), int(ca * 0.9), 10_000)
    cash_guess = ca * 3 // 10
    pay = pick_money(rng, int(min(cash_guess, cl) * 0.1), int(min(cash_guess, cl) * 0.5), 10_000)
    buy = pick_money(rng, int(ca * 0.02), int(ca * 0.2), 10_000)
    q = (f"{co}公司目前流動資產 {ntd(ca)}（其中現金 {ntd(cash_guess)}），流動負債 {ntd(cl)}。期末前公司以現金償還應付帳款 "
         f"{ntd(pay)}，並賒購存貨 {ntd(buy)}。請計算交易前後的流動比率，以及流動比率的變動。本題答案填交易後流動比率（倍）。"
         f"{ASK_NUM}")
    c = Chain()
    before = c.add("交易前流動比率", ca / cl, f"{ntd(ca)} ÷ {ntd(cl)}", multiple_value)
    ca1 = c.add("交易後流動資產", ca - pay + buy, f"{ntd(ca)} − {ntd(pay)} + {ntd(buy)}", ntd)
    cl1 = c.add("交易後流動負債", cl - pay + buy, f"{ntd(cl)} − {ntd(pay)} + {ntd(buy)}", ntd)
    after = c.add("交易後流動比率", ca1 / cl1, f"{ntd(ca1)} ÷ {ntd(cl1)}", multiple_value)
    c.add("流動比率變動", after - before, f"{fmt_value(after)} − {fmt_value(before)}", multiple_value)
    return c.numeric(q, after, num(after, 2), params={"ca": ca, "cl": cl, "pay": pay, "buy": buy,
                                                      "cash": cash_guess})


# ---------------------------------------------------------------- profitability_ratios


@template(D, "profitability_ratios", "profitability_ratios_basic1", "基礎")
def prof_basic1(rng: random.Random) -> Problem:
    co, y = pick_company(rng), pick_year(rng)
    e0 = pick_money(rng, 10_000_000, 3_000_000_000, 100_000)
    e1 = pick_money(rng, int(e0 * 0.85), int(e0 * 1.3), 100_000)
    ni = pick_money(rng, int(e0 * -0.05), int(e0 * 0.3), 10_000)
    q = (f"{co}公司 {y} 年度{_ni_text(ni)}，權益總額年初為 {ntd(e0)}，年底為 {ntd(e1)}。請以平均權益計算權益報酬率。{ASK_PCT}")
    c = Chain()
    avg = c.add("平均權益", (e0 + e1) / 2, f"（{ntd(e0)} + {ntd(e1)}）÷ 2", ntd)
    roe = c.add("權益報酬率", ni / avg, f"{ntd(ni)} ÷ {ntd(avg)}", pct)
    return c.numeric(q, roe, pct(roe), params={"e0": e0, "e1": e1, "ni": ni})


@template(D, "profitability_ratios", "profitability_ratios_basic2", "基礎")
def prof_basic2(rng: random.Random) -> Problem:
    co, y = pick_company(rng), pick_year(rng)
    a0 = pick_money(rng, 10_000_000, 5_000_000_000, 100_000)
    a1 = pick_money(rng, int(a0 * 0.85), int(a0 * 1.3), 100_000)
    ni = pick_money(rng, int(a0 * -0.03), int(a0 * 0.15), 10_000)
    q = (f"{co}公司 {y} 年度{_ni_text(ni)}，資產總額年初 {ntd(a0)}、年底 {ntd(a1)}。請以平均資產計算資產報酬率"
         f"（不考慮利息費用調整）。{ASK_PCT}")
    c = Chain()
    avg = c.add("平均資產總額", (a0 + a1) / 2, f"（{ntd(a0)} + {ntd(a1)}）÷ 2", ntd)
    roa = c.add("資產報酬率", ni / avg, f"{ntd(ni)} ÷ {ntd(avg)}", pct)
    return c.numeric(q, roa, pct(roa), params={"a0": a0, "a1": a1, "ni": ni})


@template(D, "profitability_ratios", "profitability_ratios_intermediate1", "中級")
def prof_inter1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    sales = pick_money(rng, 50_000_000, 5_000_000_000, 100_000)
    ni = pick_money(rng, int(sales * 0.01), int(sales * 0.2), 10_000)
    ta = pick_money(rng, int(sales * 0.8), int(sales * 3), 100_000)
    eq = pick_money(rng, int(ta * 0.35), int(ta * 0.8), 100_000)  # keeps ROE under ~70%
    q = (f"{co}公司營業收入 {ntd(sales)}，本期淨利 {ntd(ni)}，資產總額 {ntd(ta)}，權益總額 {ntd(eq)}。請以杜邦分析"
         f"（淨利率 × 總資產週轉率 × 權益乘數）計算權益報酬率。{ASK_PCT}")
    c = Chain()
    nm = c.add("淨利率", ni / sales, f"{ntd(ni)} ÷ {ntd(sales)}", pct)
    at = c.add("總資產週轉率", sales / ta, f"{ntd(sales)} ÷ {ntd(ta)}", lambda v: f"{fmt_value(v)} 次")
    em = c.add("權益乘數", ta / eq, f"{ntd(ta)} ÷ {ntd(eq)}", multiple_value)
    roe = c.add("權益報酬率", nm * at * em, f"{pct(nm)} × {fmt_value(at)} × {fmt_value(em)}", pct)
    return c.numeric(q, roe, pct(roe), params={"sales": sales, "ni": ni, "ta": ta, "eq": eq})


@template(D, "profitability_ratios", "profitability_ratios_intermediate2", "中級")
def prof_inter2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    sales = pick_money(rng, 50_000_000, 5_000_000_000, 100_000)
    cogs = pick_money(rng, int(sales * 0.45), int(sales * 0.8), 100_000)
    opex = pick_money(rng, int(sales * 0.05), int(sales * 0.15), 100_000)
    dep = pick_money(rng, int(sales * 0.01), int(sales * 0.08), 10_000)
    amort = pick_money(rng, 10_000, int(sales * 0.02), 10_000)
    q = (f"{co}公司營業收入 {ntd(sales)}、營業成本 {ntd(cogs)}、營業費用 {ntd(opex)}（營業成本及費用中含折舊 {ntd(dep)}、"
         f"攤銷 {ntd(amort)}）。請計算 EBITDA 利潤率。{ASK_PCT}")
    c = Chain()
    oi = c.add("營業利益", sales - cogs - opex, f"{ntd(sales)} − {ntd(cogs)} − {ntd(opex)}", ntd)
    ebitda = c.add("EBITDA", oi + dep + amort, f"{ntd(oi)} + {ntd(dep)} + {ntd(amort)}", ntd)
    m = c.add("EBITDA 利潤率", ebitda / sales, f"{ntd(ebitda)} ÷ {ntd(sales)}", pct)
    return c.numeric(q, m, pct(m), params={"sales": sales, "cogs": cogs, "opex": opex, "dep": dep, "amort": amort})


@template(D, "profitability_ratios", "profitability_ratios_advanced1", "進階")
def prof_adv1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    sales = pick_money(rng, 50_000_000, 5_000_000_000, 100_000)
    ebit = pick_money(rng, int(sales * 0.05), int(sales * 0.3), 10_000)
    interest = pick_money(rng, 10_000, int(ebit * 0.4), 10_000)
    tax = TW_CORPORATE_TAX
    ta = pick_money(rng, int(sales * 0.8), int(sales * 3), 100_000)
    eq = pick_money(rng, int(ta * 0.35), int(ta * 0.8), 100_000)
    q = (f"{co}公司營業收入 {ntd(sales)}，息前稅前利益 {ntd(ebit)}，利息費用 {ntd(interest)}，所得稅率 {pct(tax, 0)}；"
         f"資產總額 {ntd(ta)}，權益總額 {ntd(eq)}。請以五因子杜邦分析（稅負效果 × 利息負擔 × 營業利益率 × 總資產週轉率"
         f" × 權益乘數）計算權益報酬率。{ASK_PCT}")
    c = Chain()
    ebt = ebit - interest
    ni = ebt * (1 - tax)
    tb = c.add("稅負效果", ni / ebt, f"本期淨利 ÷ 稅前淨利 = {ntd(ni)} ÷ {ntd(ebt)}")
    ib = c.add("利息負擔", ebt / ebit, f"稅前淨利 ÷ 息前稅前利益 = {ntd(ebt)} ÷ {ntd(ebit)}")
    om = c.add("營業利益率", ebit / sales, f"{ntd(ebit)} ÷ {ntd(sales)}", pct)
    at = c.add("總資產週轉率", sales / ta, f"{ntd(sales)} ÷ {ntd(ta)}", lambda v: f"{fmt_value(v)} 次")
    em = c.add("權益乘數", ta / eq, f"{ntd(ta)} ÷ {ntd(eq)}", multiple_value)
    roe = c.add("權益報酬率", tb * ib * om * at * em,
                f"{fmt_value(tb)} × {fmt_value(ib)} × {pct(om)} × {fmt_value(at)} × {fmt_value(em)}", pct)
    return c.numeric(q, roe, pct(roe), params={"sales": sales, "ebit": ebit, "interest": interest, "tax": tax,
                                               "ta": ta, "eq": eq})

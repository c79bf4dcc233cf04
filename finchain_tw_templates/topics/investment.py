"""投資分析 (investment): compound_interest, irr, npv, risk_adjusted_returns, roi."""

from __future__ import annotations

import math
import random

from finchain_tw_templates.common import (
    ASK_MONEY_INT,
    ASK_PCT,
    TW_CORPORATE_TAX,
    Chain,
    ask,
    fmt_value,
    ntd,
    pct,
    pick_company,
    pick_fund,
    pick_funds,
    pick_money,
    pick_person,
    pick_rate,
)
from finchain_tw_templates.core import Problem, template

D = "investment"


def npv_at(rate: float, flows: list[float]) -> float:
    """NPV with flows[0] at t=0."""
    return sum(cf / (1 + rate) ** t for t, cf in enumerate(flows))


def irr_bisect(flows: list[float]) -> float:
    """IRR of a conventional project (one outflow, then inflows) by bisection: NPV is strictly
    decreasing in the rate there, so the root is unique and bisection cannot pick a wrong one."""
    lo, hi = -0.99, 10.0
    if npv_at(lo, flows) < 0 or npv_at(hi, flows) > 0:
        raise ValueError(f"IRR not bracketed for {flows}")
    for _ in range(200):
        mid = (lo + hi) / 2
        if npv_at(mid, flows) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def flows_text(flows: list[float]) -> str:
    return "、".join(f"第 {t} 年 {ntd(cf)}" for t, cf in enumerate(flows) if t > 0)


# ---------------------------------------------------------------- compound_interest


@template(D, "compound_interest", "compound_interest_basic1", "基礎")
def compound_interest_basic1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    p = pick_money(rng, 10_000, 500_000, 1_000)
    r = pick_rate(rng, 1, 2.5, 0.05)  # a Taiwan bank's NT$ time-deposit rate, not FinChain's 1–8%
    n = rng.randint(3, 20)
    c = Chain()
    g = c.add("複利終值因子", (1 + r) ** n, f"(1 + {pct(r)})^{n}")
    fv = c.add("到期本利和", p * g, f"{ntd(p)} × (1 + {pct(r)})^{n}", ntd)
    q = (f"{who}將 {ntd(p)} 存入一筆年利率 {pct(r)}、每年複利一次的定期存款（每年到期後本利和自動續存），共存 {n} 年。"
         f"請問到期時的本利和是多少？{ASK_MONEY_INT}")
    return c.numeric(q, fv, ntd(fv, 0), {"p": p, "r": r, "n": n})


@template(D, "compound_interest", "compound_interest_basic2", "基礎")
def compound_interest_basic2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    p = pick_money(rng, 20_000, 800_000, 1_000)
    r = pick_rate(rng, 1, 6, 0.25)
    n = rng.randint(2, 10)
    c = Chain()
    fv = c.add("到期本利和", p * (1 + r / 12) ** (12 * n), f"{ntd(p)} × (1 + {pct(r)} ÷ 12)^({12 * n})", ntd)
    interest = c.add("累積利息", fv - p, f"{ntd(fv)} − {ntd(p)}", ntd)
    q = (f"{who}把 {ntd(p)} 放在年利率 {pct(r)}、按月複利的帳戶中 {n} 年，期間不提領。"
         f"請問這段期間共賺得多少利息？{ASK_MONEY_INT}")
    return c.numeric(q, interest, ntd(interest, 0), {"p": p, "r": r, "n": n})


@template(D, "compound_interest", "compound_interest_inter1", "中級")
def compound_interest_inter1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    p = pick_money(rng, 50_000, 1_000_000, 5_000)
    r = pick_rate(rng, 2, 10, 0.25)
    m = rng.choice([2, 4, 12])
    n = rng.randint(3, 15)
    freq = {2: "每半年", 4: "每季", 12: "每月"}[m]
    c = Chain()
    i = c.add("每期利率", r / m, f"{pct(r)} ÷ {m}", lambda x: pct(x, 4))
    ear = c.add("有效年利率", (1 + i) ** m - 1, f"(1 + {pct(i, 4)})^{m} − 1", lambda x: pct(x, 4))
    fv = c.add("到期本利和", p * (1 + ear) ** n, f"{ntd(p)} × (1 + {pct(ear, 4)})^{n}", ntd)
    q = (f"{who}投資 {ntd(p)} 於名目年利率 {pct(r)}、{freq}複利一次的理財商品。請先算出有效年利率，"
         f"再計算 {n} 年後的本利和。請問 {n} 年後的本利和是多少？{ASK_MONEY_INT}")
    return c.numeric(q, fv, ntd(fv, 0), {"p": p, "r": r, "_m": m, "n": n})


@template(D, "compound_interest", "compound_interest_inter2", "中級")
def compound_interest_inter2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    target = pick_money(rng, 200_000, 3_000_000, 10_000)
    r = pick_rate(rng, 1.5, 8, 0.25)
    n = rng.randint(3, 18)
    c = Chain()
    i = c.add("每季利率", r / 4, f"{pct(r)} ÷ 4", lambda x: pct(x, 4))
    periods = c.add("複利期數", 4 * n, f"{n} × 4")
    factor = c.add("複利終值因子", (1 + i) ** periods, f"(1 + {pct(i, 4)})^{int(periods)}")
    pv = c.add("現在應投入金額", target / factor, f"{ntd(target)} ÷ {fmt_value(factor)}", ntd)
    q = (f"{who}希望 {n} 年後為子女準備 {ntd(target)} 的教育基金。若現在一次投入一筆資金，年利率 {pct(r)}、"
         f"每季複利一次，請問現在需要投入多少錢？{ASK_MONEY_INT}")
    return c.numeric(q, pv, ntd(pv, 0), {"target": target, "r": r, "n": n})


@template(D, "compound_interest", "compound_interest_adv1", "進階")
def compound_interest_adv1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    p = pick_money(rng, 50_000, 500_000, 10_000)
    pmt = pick_money(rng, 3_000, 30_000, 500)
    r = pick_rate(rng, 2, 9, 0.25)
    n = rng.randint(5, 25)
    inf = pick_rate(rng, 1, 3, 0.25)
    c = Chain()
    i = c.add("每月利率", r / 12, f"{pct(r)} ÷ 12", lambda x: pct(x, 4))
    months = c.add("總月數", 12 * n, f"{n} × 12")
    fv_lump = c.add("期初本金終值", p * (1 + i) ** months, f"{ntd(p)} × (1 + {pct(i, 4)})^{int(months)}", ntd)
    fv_ann = c.add("每月定額終值", pmt * ((1 + i) ** months - 1) / i,
                   f"{ntd(pmt)} × [(1 + {pct(i, 4)})^{int(months)} − 1] ÷ {pct(i, 4)}", ntd)
    total = c.add("名目帳戶總值", fv_lump + fv_ann, f"{ntd(fv_lump)} + {ntd(fv_ann)}", ntd)
    real = c.add("以今日購買力計算的實質價值", total / (1 + inf) ** n, f"{ntd(total)} ÷ (1 + {pct(inf)})^{n}", ntd)
    q = (f"{who}現在存入 {ntd(p)}，之後每月月底再存 {ntd(pmt)}，帳戶年利率 {pct(r)}、按月複利，持續 {n} 年。"
         f"假設這段期間每年通貨膨脹率為 {pct(inf)}，請問 {n} 年後帳戶總值換算成今日購買力約是多少？"
         f"{ASK_MONEY_INT}")
    return c.numeric(q, real, ntd(real, 0), {"p": p, "pmt": pmt, "r": r, "n": n, "inf": inf})


# ---------------------------------------------------------------- irr


@template(D, "irr", "irr_basic1", "基礎")
def irr_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    c0 = pick_money(rng, 10_000_000, 500_000_000, 1_000_000)
    mult = rng.randint(110, 250) / 100
    cn = round(c0 * mult)
    n = rng.randint(3, 10)
    c = Chain()
    m = c.add("期末回收倍數", cn / c0, f"{ntd(cn)} ÷ {ntd(c0)}")
    irr = c.add("內部報酬率", m ** (1 / n) - 1, f"{fmt_value(m)}^(1/{n}) − 1", pct)
    q = (f"{co}投入 {ntd(c0)} 購買一塊土地，期間沒有其他現金流量，預計 {n} 年後以 {ntd(cn)} 出售。"
         f"請問這項投資的內部報酬率（IRR）是多少？{ASK_PCT}")
    return c.numeric(q, irr, pct(irr), {"c0": c0, "cn": cn, "n": n})


@template(D, "irr", "irr_basic2", "基礎")
def irr_basic2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    c0 = pick_money(rng, 20_000_000, 200_000_000, 500_000)
    cf = pick_money(rng, round(c0 * 0.03), round(c0 * 0.10), 10_000)
    g = pick_rate(rng, 0.5, 3, 0.25)
    c = Chain()
    y = c.add("第一年現金殖利率", cf / c0, f"{ntd(cf)} ÷ {ntd(c0)}", pct)
    irr = c.add("內部報酬率", y + g, f"{pct(y)} + {pct(g)}", pct)
    q = (f"{co}以 {ntd(c0)} 買下一棟出租廠房，第一年年底可收到淨租金 {ntd(cf)}，之後租金每年固定成長 {pct(g)}，"
         f"並假設可永續出租。請問這項投資的內部報酬率是多少？{ASK_PCT}")
    return c.numeric(q, irr, pct(irr), {"c0": c0, "cf": cf, "g": g})


@template(D, "irr", "irr_inter1", "中級")
def irr_inter1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    c0 = pick_money(rng, 10_000_000, 100_000_000, 1_000_000)
    c1 = pick_money(rng, round(c0 * 0.4), round(c0 * 0.8), 100_000)
    c2 = pick_money(rng, round(c0 * 0.6), round(c0 * 1.0), 100_000)
    c = Chain()
    # With x = 1/(1+IRR): c2·x² + c1·x − c0 = 0, the positive root gives the IRR.
    disc = c.add("判別式", c1 ** 2 + 4 * c2 * c0, f"{fmt_value(c1)}² + 4 × {fmt_value(c2)} × {fmt_value(c0)}")
    x = c.add("折現因子 x", (-c1 + math.sqrt(disc)) / (2 * c2), f"(−{fmt_value(c1)} + √判別式) ÷ (2 × {fmt_value(c2)})")
    irr = c.add("內部報酬率", 1 / x - 1, f"1 ÷ {fmt_value(x)} − 1", pct)
    q = (f"{co}評估一項設備投資：期初支出 {ntd(c0)}，第 1 年年底流入 {ntd(c1)}，第 2 年年底流入 {ntd(c2)}。"
         f"令 x = 1 ÷ (1 + IRR)，解二次方程式 {fmt_value(c2)}x² + {fmt_value(c1)}x − {fmt_value(c0)} = 0。"
         f"請問這項投資的內部報酬率是多少？{ASK_PCT}")
    return c.numeric(q, irr, pct(irr), {"c0": c0, "c1": c1, "c2": c2})


@template(D, "irr", "irr_inter2", "中級")
def irr_inter2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    n = rng.randint(4, 10)
    cf = pick_money(rng, 5_000_000, 40_000_000, 500_000)
    c0 = pick_money(rng, round(cf * n * 0.55), round(cf * n * 0.9), 1_000_000)
    hurdle = pick_rate(rng, 5, 12, 0.5)
    c = Chain()
    af = c.add("目標年金現值因子", c0 / cf, f"{ntd(c0)} ÷ {ntd(cf)}")
    irr = c.add("內部報酬率", irr_bisect([-c0] + [cf] * n), f"使 {n} 年期年金現值因子等於 {fmt_value(af)} 的折現率", pct)
    spread = c.add("內部報酬率減門檻報酬率", irr - hurdle, f"{pct(irr)} − {pct(hurdle)}", pct)
    q = (f"{co}的自動化產線投資需期初投入 {ntd(c0)}，之後連續 {n} 年每年年底產生 {ntd(cf)} 的淨現金流入。"
         f"公司要求的門檻報酬率為 {pct(hurdle)}。請問這項投資的內部報酬率比門檻報酬率高（或低）多少個百分點？"
         f"{ask(2, '百分比', '低於門檻時為負值')}")
    return c.numeric(q, spread, pct(spread), {"c0": c0, "cf": cf, "n": n, "hurdle": hurdle})


@template(D, "irr", "irr_adv1", "進階")
def irr_adv1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    c0 = pick_money(rng, 50_000_000, 300_000_000, 5_000_000)
    n = 5
    flows = [pick_money(rng, round(c0 * 0.15), round(c0 * 0.40), 500_000) for _ in range(n)]
    wacc = pick_rate(rng, 6, 12, 0.5)
    reinv = pick_rate(rng, 3, 8, 0.5)
    allf = [-c0] + flows
    c = Chain()
    c.add("以資金成本計算的淨現值", npv_at(wacc, allf), f"−{ntd(c0)} + Σ 各年現金流量 ÷ (1 + {pct(wacc)})^t", ntd)
    c.add("內部報酬率", irr_bisect(allf), "使淨現值為 0 的折現率", pct)
    tv = c.add("流入現金以再投資率累積的終值",
               sum(cf * (1 + reinv) ** (n - t) for t, cf in enumerate(flows, 1)),
               f"Σ 第 t 年流入 × (1 + {pct(reinv)})^({n} − t)", ntd)
    mult = c.add("終值對期初投資倍數", tv / c0, f"{ntd(tv)} ÷ {ntd(c0)}")
    mirr = c.add("修正內部報酬率", mult ** (1 / n) - 1, f"{fmt_value(mult)}^(1/{n}) − 1", pct)
    q = (f"{co}評估一項 {n} 年期擴廠計畫：期初投資 {ntd(c0)}，各年年底淨現金流入為{flows_text(allf)}。"
         f"公司資金成本 {pct(wacc)}，期間現金流入假設以 {pct(reinv)} 再投資。請依序計算淨現值、內部報酬率，"
         f"再求修正內部報酬率（MIRR）。請問 MIRR 是多少？{ASK_PCT}")
    return c.numeric(q, mirr, pct(mirr), {"c0": c0, "flows": flows, "wacc": wacc, "reinv": reinv})


# ---------------------------------------------------------------- npv


@template(D, "npv", "npv_basic1", "基礎")
def npv_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    c0 = pick_money(rng, 5_000_000, 60_000_000, 100_000)
    n = rng.randint(2, 6)
    cn = pick_money(rng, round(c0 * 0.9), round(c0 * 1.8), 100_000)
    r = pick_rate(rng, 4, 12, 0.5)
    c = Chain()
    pv = c.add("未來收入現值", cn / (1 + r) ** n, f"{ntd(cn)} ÷ (1 + {pct(r)})^{n}", ntd)
    npv = c.add("淨現值", pv - c0, f"{ntd(pv)} − {ntd(c0)}", ntd)
    q = (f"{co}今天支付 {ntd(c0)} 取得一項專利授權，預計 {n} 年後可一次收到 {ntd(cn)}。"
         f"若折現率為 {pct(r)}，請問這項投資的淨現值（NPV）是多少？{ASK_MONEY_INT}")
    return c.numeric(q, npv, ntd(npv, 0), {"c0": c0, "cn": cn, "n": n, "r": r})


@template(D, "npv", "npv_basic2", "基礎")
def npv_basic2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    n = rng.randint(3, 10)
    cf = pick_money(rng, 1_000_000, 5_000_000, 10_000)
    c0 = pick_money(rng, round(cf * n * 0.6), round(cf * n * 0.95), 100_000)
    r = pick_rate(rng, 3, 12, 0.5)
    c = Chain()
    pv = c.add("各年現金流入現值合計", cf * (1 - (1 + r) ** -n) / r, f"{ntd(cf)} × [1 − (1 + {pct(r)})^−{n}] ÷ {pct(r)}", ntd)
    npv = c.add("淨現值", pv - c0, f"{ntd(pv)} − {ntd(c0)}", ntd)
    q = (f"{co}考慮汰換節能空調，期初成本 {ntd(c0)}，之後 {n} 年每年年底可節省電費 {ntd(cf)}。"
         f"在折現率 {pct(r)} 下，請問這項投資的淨現值是多少？{ASK_MONEY_INT}")
    return c.numeric(q, npv, ntd(npv, 0), {"c0": c0, "cf": cf, "n": n, "r": r})


@template(D, "npv", "npv_inter1", "中級")
def npv_inter1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    c0 = pick_money(rng, 20_000_000, 200_000_000, 1_000_000)
    flows = [pick_money(rng, round(c0 * 0.3), round(c0 * 0.6), 100_000) for _ in range(3)]
    r = pick_rate(rng, 5, 14, 0.5)
    c = Chain()
    pvs = [c.add(f"第 {t} 年現金流量現值", cf / (1 + r) ** t, f"{ntd(cf)} ÷ (1 + {pct(r)})^{t}", ntd)
           for t, cf in enumerate(flows, 1)]
    npv = c.add("淨現值", sum(pvs) - c0, f"{' + '.join(ntd(v) for v in pvs)} − {ntd(c0)}", ntd)
    q = (f"{co}計畫推出新產品線，期初投資 {ntd(c0)}，預估{flows_text([-c0] + flows)}的淨現金流入（皆於年底發生）。"
         f"折現率 {pct(r)}。請問此計畫的淨現值是多少？{ASK_MONEY_INT}")
    return c.numeric(q, npv, ntd(npv, 0), {"c0": c0, "flows": flows, "r": r})


@template(D, "npv", "npv_inter2", "中級")
def npv_inter2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    n = rng.randint(4, 10)
    cf = pick_money(rng, 1_000_000, 5_000_000, 50_000)
    c0 = pick_money(rng, round(cf * n * 0.6), round(cf * n * 0.95), 100_000)
    salvage = pick_money(rng, round(c0 * 0.05), round(c0 * 0.2), 10_000)
    r = pick_rate(rng, 4, 12, 0.5)
    c = Chain()
    pv_a = c.add("營運現金流量現值", cf * (1 - (1 + r) ** -n) / r, f"{ntd(cf)} × [1 − (1 + {pct(r)})^−{n}] ÷ {pct(r)}", ntd)
    pv_s = c.add("殘值現值", salvage / (1 + r) ** n, f"{ntd(salvage)} ÷ (1 + {pct(r)})^{n}", ntd)
    pv = c.add("流入現值合計", pv_a + pv_s, f"{ntd(pv_a)} + {ntd(pv_s)}", ntd)
    npv = c.add("淨現值", pv - c0, f"{ntd(pv)} − {ntd(c0)}", ntd)
    q = (f"{co}購置一台 CNC 加工機，成本 {ntd(c0)}，使用 {n} 年，每年年底增加淨現金流入 {ntd(cf)}，"
         f"第 {n} 年底可出售殘值 {ntd(salvage)}。折現率 {pct(r)}，請問淨現值是多少？{ASK_MONEY_INT}")
    return c.numeric(q, npv, ntd(npv, 0), {"c0": c0, "cf": cf, "n": n, "salvage": salvage, "r": r})


@template(D, "npv", "npv_adv1", "進階")
def npv_adv1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    n = rng.randint(4, 8)
    capex = pick_money(rng, 20_000_000, 160_000_000, 1_000_000)
    rev = pick_money(rng, round(capex * 0.5), round(capex * 0.9), 10_000)
    cost = pick_money(rng, round(rev * 0.3), round(rev * 0.55), 10_000)
    tax = TW_CORPORATE_TAX
    salvage = pick_money(rng, round(capex * 0.05), round(capex * 0.15), 10_000)
    r = pick_rate(rng, 6, 12, 0.5)
    c = Chain()
    dep = c.add("每年折舊", capex / n, f"{ntd(capex)} ÷ {n}", ntd)
    ebit = c.add("每年稅前營業利益", rev - cost - dep, f"{ntd(rev)} − {ntd(cost)} − {ntd(dep)}", ntd)
    ocf = c.add("每年營業現金流量", ebit * (1 - tax) + dep, f"{ntd(ebit)} × (1 − {pct(tax, 0)}) + {ntd(dep)}", ntd)
    pv_ocf = c.add("營業現金流量現值", ocf * (1 - (1 + r) ** -n) / r, f"{ntd(ocf)} × [1 − (1 + {pct(r)})^−{n}] ÷ {pct(r)}", ntd)
    pv_s = c.add("稅後殘值現值", salvage * (1 - tax) / (1 + r) ** n, f"{ntd(salvage)} × (1 − {pct(tax, 0)}) ÷ (1 + {pct(r)})^{n}", ntd)
    npv = c.add("淨現值", pv_ocf + pv_s - capex, f"{ntd(pv_ocf)} + {ntd(pv_s)} − {ntd(capex)}", ntd)
    q = (f"{co}評估一條新產線：設備成本 {ntd(capex)}，使用 {n} 年，以直線法折舊至殘值 0。每年營業收入 {ntd(rev)}、"
         f"付現營業成本 {ntd(cost)}，營利事業所得稅率 {pct(tax, 0)}。第 {n} 年底設備可以 {ntd(salvage)} 出售"
         f"（帳面價值為 0，出售利益全額課稅）。折現率 {pct(r)}。請問此計畫的淨現值是多少？{ASK_MONEY_INT}")
    return c.numeric(q, npv, ntd(npv, 0),
                     {"capex": capex, "n": n, "rev": rev, "cost": cost, "tax": tax, "salvage": salvage, "r": r})


# ---------------------------------------------------------------- risk_adjusted_returns


@template(D, "risk_adjusted_returns", "risk_adjusted_returns_basic1", "基礎")
def risk_adjusted_returns_basic1(rng: random.Random) -> Problem:
    rp = pick_rate(rng, 5, 20, 0.1)
    rf = pick_rate(rng, 1, 3, 0.25)
    sd = pick_rate(rng, 8, 30, 0.5)
    fund = pick_fund(rng, "台灣成長")
    c = Chain()
    ex = c.add("超額報酬", rp - rf, f"{pct(rp)} − {pct(rf)}", pct)
    sharpe = c.add("夏普比率", ex / sd, f"{pct(ex)} ÷ {pct(sd)}")
    q = (f"{fund}去年報酬率 {pct(rp)}，報酬標準差 {pct(sd)}，同期無風險利率 {pct(rf)}。"
         f"請問此基金的夏普比率是多少？{ask(4)}")
    return c.numeric(q, sharpe, fmt_value(sharpe), {"rp": rp, "rf": rf, "sd": sd})


@template(D, "risk_adjusted_returns", "risk_adjusted_returns_basic2", "基礎")
def risk_adjusted_returns_basic2(rng: random.Random) -> Problem:
    rp = pick_rate(rng, 4, 18, 0.1)
    rf = pick_rate(rng, 1, 3, 0.25)
    beta = rng.randint(50, 180) / 100
    co = pick_company(rng)
    c = Chain()
    ex = c.add("超額報酬", rp - rf, f"{pct(rp)} − {pct(rf)}", pct)
    tr = c.add("崔納指標", ex / beta, f"{pct(ex)} ÷ {beta}", lambda x: pct(x, 4))
    q = (f"{co}員工持股信託的股票投資組合年報酬率 {pct(rp)}，貝他係數 {beta}，無風險利率 {pct(rf)}。"
         f"請問此投資組合的崔納指標是多少？{ASK_PCT}")
    return c.numeric(q, tr, pct(tr), {"rp": rp, "rf": rf, "beta": beta})


@template(D, "risk_adjusted_returns", "risk_adjusted_returns_inter1", "中級")
def risk_adjusted_returns_inter1(rng: random.Random) -> Problem:
    rp = pick_rate(rng, 3, 22, 0.1)
    rf = pick_rate(rng, 1, 3, 0.25)
    rm = pick_rate(rng, 5, 15, 0.25)
    beta = rng.randint(60, 160) / 100
    who = pick_person(rng)
    c = Chain()
    prem = c.add("市場風險溢酬", rm - rf, f"{pct(rm)} − {pct(rf)}", pct)
    exp = c.add("CAPM 預期報酬率", rf + beta * prem, f"{pct(rf)} + {beta} × {pct(prem)}", lambda x: pct(x, 4))
    alpha = c.add("詹森指標", rp - exp, f"{pct(rp)} − {pct(exp, 4)}", lambda x: pct(x, 4))
    q = (f"{who}操作的股票組合去年報酬率 {pct(rp)}，貝他係數 {beta}。同期大盤報酬率 {pct(rm)}，無風險利率 {pct(rf)}。"
         f"請問此組合的詹森指標（超額報酬 α）是多少？{ASK_PCT}")
    return c.numeric(q, alpha, pct(alpha), {"rp": rp, "rf": rf, "rm": rm, "beta": beta})


@template(D, "risk_adjusted_returns", "risk_adjusted_returns_inter2", "中級")
def risk_adjusted_returns_inter2(rng: random.Random) -> Problem:
    rf = pick_rate(rng, 1, 3, 0.25)
    while True:
        ra, rb = pick_rate(rng, 5, 20, 0.1), pick_rate(rng, 5, 20, 0.1)
        sa, sb = pick_rate(rng, 8, 30, 0.5), pick_rate(rng, 8, 30, 0.5)
        sh_a, sh_b = (ra - rf) / sa, (rb - rf) / sb
        if abs(sh_a - sh_b) > 0.02:  # keep the comparison unambiguous after display rounding
            break
    fa, fb = pick_funds(rng, 2)
    c = Chain()
    c.add(f"{fa}夏普比率", sh_a, f"({pct(ra)} − {pct(rf)}) ÷ {pct(sa)}")
    c.add(f"{fb}夏普比率", sh_b, f"({pct(rb)} − {pct(rf)}) ÷ {pct(sb)}")
    c.add("夏普比率差（前者減後者）", sh_a - sh_b, f"{fmt_value(sh_a)} − {fmt_value(sh_b)}")
    best = fa if sh_a > sh_b else fb
    c.note("比較結果", f"{best}的夏普比率較高")
    q = (f"無風險利率為 {pct(rf)}。{fa}年報酬率 {pct(ra)}、標準差 {pct(sa)}；{fb}年報酬率 {pct(rb)}、標準差 {pct(sb)}。"
         f"以夏普比率衡量，請問哪一檔基金的風險調整後報酬較佳？（請回答基金名稱）")
    return c.categorical(q, best, {"rf": rf, "ra": ra, "rb": rb, "sa": sa, "sb": sb, "fa": fa, "fb": fb})


@template(D, "risk_adjusted_returns", "risk_adjusted_returns_adv1", "進階")
def risk_adjusted_returns_adv1(rng: random.Random) -> Problem:
    rp = pick_rate(rng, 4, 20, 0.1)
    sp = pick_rate(rng, 10, 30, 0.5)
    rm = pick_rate(rng, 5, 14, 0.1)
    sm = pick_rate(rng, 12, 22, 0.5)
    rf = pick_rate(rng, 1, 3, 0.25)
    fund = pick_fund(rng, "科技趨勢")
    c = Chain()
    ex = c.add("基金超額報酬", rp - rf, f"{pct(rp)} − {pct(rf)}", pct)
    shp = c.add("基金夏普比率", ex / sp, f"{pct(ex)} ÷ {pct(sp)}")
    c.add("大盤夏普比率", (rm - rf) / sm, f"({pct(rm)} − {pct(rf)}) ÷ {pct(sm)}")
    m2 = c.add("M² 報酬率（調整到大盤波動度）", rf + shp * sm, f"{pct(rf)} + {fmt_value(shp)} × {pct(sm)}", lambda x: pct(x, 4))
    diff = c.add("M² 超越大盤幅度", m2 - rm, f"{pct(m2, 4)} − {pct(rm)}", lambda x: pct(x, 4))
    q = (f"{fund}去年報酬率 {pct(rp)}、標準差 {pct(sp)}；大盤報酬率 {pct(rm)}、標準差 {pct(sm)}；無風險利率 {pct(rf)}。"
         f"請先算出基金與大盤的夏普比率，再以 M² 風險調整績效把基金波動度調整到與大盤相同。"
         f"請問 M² 報酬率比大盤報酬率高出多少？{ask(2, '百分比', '落後時為負值')}")
    return c.numeric(q, diff, pct(diff), {"rp": rp, "sp": sp, "rm": rm, "sm": sm, "rf": rf})


# ---------------------------------------------------------------- roi


@template(D, "roi", "roi_basic1", "基礎")
def roi_basic1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    cost = pick_money(rng, 50_000, 2_000_000, 1_000)
    value = pick_money(rng, round(cost * 0.7), round(cost * 1.8), 1_000)
    c = Chain()
    gain = c.add("投資損益", value - cost, f"{ntd(value)} − {ntd(cost)}", ntd)
    roi = c.add("投資報酬率", gain / cost, f"{ntd(gain)} ÷ {ntd(cost)}", pct)
    q = (f"{who}以 {ntd(cost)} 買進一批藝術品，之後以 {ntd(value)} 賣出（不計其他費用）。"
         f"請問這筆投資的報酬率（ROI）是多少？{ask(2, '百分比', '虧損時為負值')}")
    return c.numeric(q, roi, pct(roi), {"cost": cost, "value": value})


@template(D, "roi", "roi_basic2", "基礎")
def roi_basic2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    cost = pick_money(rng, 100_000, 3_000_000, 10_000)
    value = pick_money(rng, round(cost * 1.05), round(cost * 2.5), 1_000)
    n = rng.randint(2, 12)
    c = Chain()
    total = c.add("累計報酬率", value / cost - 1, f"{ntd(value)} ÷ {ntd(cost)} − 1", pct)
    ann = c.add("年化報酬率", (1 + total) ** (1 / n) - 1, f"(1 + {pct(total)})^(1/{n}) − 1", pct)
    q = (f"{who} {n} 年前投入 {ntd(cost)} 買進一檔基金，現在市值為 {ntd(value)}（期間無配息）。"
         f"請問年化報酬率是多少？{ASK_PCT}")
    return c.numeric(q, ann, pct(ann), {"cost": cost, "value": value, "n": n})


@template(D, "roi", "roi_inter1", "中級")
def roi_inter1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    cost = pick_money(rng, 5_000_000, 60_000_000, 100_000)
    n = rng.randint(3, 8)
    saving = pick_money(rng, round(cost / n * 1.05), round(cost / n * 1.6), 10_000)
    salvage = pick_money(rng, 10_000, round(cost * 0.1), 10_000)
    c = Chain()
    benefit = c.add("總效益", saving * n + salvage, f"{ntd(saving)} × {n} + {ntd(salvage)}", ntd)
    gain = c.add("淨效益", benefit - cost, f"{ntd(benefit)} − {ntd(cost)}", ntd)
    roi = c.add("投資報酬率", gain / cost, f"{ntd(gain)} ÷ {ntd(cost)}", pct)
    avg = c.add("平均每年報酬率（單利）", roi / n, f"{pct(roi)} ÷ {n}", pct)
    q = (f"{co}導入倉儲自動化系統，成本 {ntd(cost)}，可使用 {n} 年，每年節省人力成本 {ntd(saving)}，"
         f"期滿可回收殘值 {ntd(salvage)}。不考慮貨幣時間價值，請問整個期間的投資報酬率換算成平均每年（單利）"
         f"是多少？{ASK_PCT}")
    return c.numeric(q, avg, pct(avg), {"cost": cost, "n": n, "saving": saving, "salvage": salvage})


@template(D, "roi", "roi_inter2", "中級")
def roi_inter2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    spend = pick_money(rng, 100_000, 2_000_000, 10_000)
    rev = pick_money(rng, spend * 2, spend * 5, 10_000)
    margin = pick_rate(rng, 20, 50, 1)
    c = Chain()
    gp = c.add("增加的毛利", rev * margin, f"{ntd(rev)} × {pct(margin, 0)}", ntd)
    net = c.add("扣除行銷費用後淨利", gp - spend, f"{ntd(gp)} − {ntd(spend)}", ntd)
    roi = c.add("行銷投資報酬率", net / spend, f"{ntd(net)} ÷ {ntd(spend)}", pct)
    q = (f"{co}在社群平台投放廣告，花費 {ntd(spend)}，帶來 {ntd(rev)} 的新增營業收入，產品毛利率 {pct(margin, 0)}。"
         f"請問這次行銷活動的投資報酬率是多少？{ask(2, '百分比', '虧損時為負值')}")
    return c.numeric(q, roi, pct(roi), {"spend": spend, "rev": rev, "margin": margin})


@template(D, "roi", "roi_adv1", "進階")
def roi_adv1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    price = pick_money(rng, 8_000_000, 30_000_000, 100_000)
    buy_cost = pick_rate(rng, 1, 3, 0.5)
    rent = pick_money(rng, round(price * 0.015), round(price * 0.03), 1_000)
    n = rng.randint(3, 10)
    sale = pick_money(rng, round(price * 0.9), round(price * 1.6), 100_000)
    sell_cost = pick_rate(rng, 2, 5, 0.5)
    c = Chain()
    invest = c.add("總投入成本", price * (1 + buy_cost), f"{ntd(price)} × (1 + {pct(buy_cost, 1)})", ntd)
    rents = c.add("累計淨租金", rent * n, f"{ntd(rent)} × {n}", ntd)
    net_sale = c.add("出售淨額", sale * (1 - sell_cost), f"{ntd(sale)} × (1 − {pct(sell_cost, 1)})", ntd)
    gain = c.add("總損益", rents + net_sale - invest, f"{ntd(rents)} + {ntd(net_sale)} − {ntd(invest)}", ntd)
    roi = c.add("累計投資報酬率", gain / invest, f"{ntd(gain)} ÷ {ntd(invest)}", pct)
    ann = c.add("年化報酬率", (1 + roi) ** (1 / n) - 1, f"(1 + {pct(roi)})^(1/{n}) − 1", pct)
    q = (f"{who}以 {ntd(price)} 買進一間店面，另付仲介費、代書費與稅費合計為房價的 {pct(buy_cost, 1)}。出租 {n} 年，"
         f"每年淨租金 {ntd(rent)}（不考慮再投資），之後以 {ntd(sale)} 售出，出售費用為售價的 {pct(sell_cost, 1)}。"
         f"請以累計報酬率換算年化報酬率。請問年化報酬率是多少？{ASK_PCT}")
    return c.numeric(q, ann, pct(ann),
                     {"price": price, "buy_cost": buy_cost, "rent": rent, "n": n, "sale": sale, "sell_cost": sell_cost})

"""風險管理 (risk_management): regulatory_compliance, risk_appetite, risk_metrics, scenario_planning,
sensitivity_analysis, stress_testing, var."""

from __future__ import annotations

import math
import random
from statistics import NormalDist

from finchain_tw_templates.common import (
    ASK_MONEY_INT,
    ASK_NUM,
    ASK_PCT,
    INSURERS,
    Chain,
    ask,
    fmt_value,
    join_items,
    ntd,
    num,
    pct,
    pct_exact,
    pick_bank,
    pick_company,
    pick_decimal,
    pick_fund,
    pick_money,
    pick_rate,
    plus,
)
from finchain_tw_templates.core import Problem, template
from finchain_tw_templates.facts import (
    CAR_MIN,
    LEVERAGE_MIN,
    TIER1_MIN,
    annuity_factor,
    annuity_factor_given,
    z_value,
)

D = "risk_management"
STD_NORMAL = NormalDist()


def z_of(cl: float) -> float:
    """The one-sided standard-normal quantile a question states and computes with (0.99 → 2.326): a table
    value is given, so a model that uses it is not marked wrong by the rounding of its own table."""
    return z_value(cl)


def level(cl: float) -> str:
    """A confidence level as written: 「99%」, 「97.5%」."""
    return pct(cl, 0 if round(cl * 100, 6).is_integer() else 1)


def z_given(cl: float) -> str:
    """The confidence level with the quantile to use: 「99% 信賴水準（單尾 z 值以 2.326 計）」."""
    return f"{level(cl)} 信賴水準（單尾 z 值以 {z_of(cl):.3f} 計）"


def par(s: str) -> str:
    """A negative operand inside a formula gets parentheses: 「20% × (-NT$5,000)」."""
    return f"({s})" if s.startswith("-") else s



def annuity_pv(cf: float, r: float, n: int) -> float:
    return cf * (1 - (1 + r) ** -n) / r


# ---------------------------------------------------------------- regulatory_compliance


@template(D, "regulatory_compliance", "regulatory_compliance_basic1", "基礎")
def regulatory_compliance_basic1(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    t1 = pick_money(rng, 20_000_000_000, 200_000_000_000, 100_000_000)
    t2 = pick_money(rng, round(t1 * 0.1), round(t1 * 0.35), 100_000_000)
    rwa = pick_money(rng, round((t1 + t2) * 5), round((t1 + t2) * 9), 1_000_000_000)
    c = Chain()
    cap = c.add("合格自有資本", t1 + t2, f"{ntd(t1)} + {ntd(t2)}", ntd)
    car = c.add("資本適足率", cap / rwa, f"{ntd(cap)} ÷ {ntd(rwa)}", pct)
    q = (f"{bank}的第一類資本為 {ntd(t1)}，第二類資本為 {ntd(t2)}，風險性資產總額為 {ntd(rwa)}。"
         f"請問{bank}的資本適足率是多少？{ASK_PCT}")
    return c.numeric(q, car, pct(car), {"t1": t1, "t2": t2, "rwa": rwa})


@template(D, "regulatory_compliance", "regulatory_compliance_basic2", "基礎")
def regulatory_compliance_basic2(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    out = pick_money(rng, 10_000_000_000, 120_000_000_000, 100_000_000)
    inflow = pick_money(rng, round(out * 0.2), round(out * 0.9), 100_000_000)
    hqla = pick_money(rng, round(out * 0.25), round(out * 0.7), 100_000_000)
    c = Chain()
    net = c.add("淨現金流出", out - min(inflow, 0.75 * out),
                f"{ntd(out)} − （{ntd(inflow)} 與 75% × {ntd(out)} 取較小者）", ntd)
    lcr = c.add("流動性覆蓋比率", hqla / net, f"{ntd(hqla)} ÷ {ntd(net)}", pct)
    q = (f"{bank}未來 30 天壓力情境下的現金流出為 {ntd(out)}、現金流入為 {ntd(inflow)}，高品質流動性資產為 {ntd(hqla)}。"
         f"計算淨現金流出時，可計入的現金流入以現金流出的 75% 為上限。請問流動性覆蓋比率（LCR）是多少？"
         f"{ASK_PCT}")
    return c.numeric(q, lcr, pct(lcr), {"out": out, "inflow": inflow, "hqla": hqla})


EXPOSURE_TYPES = (("企業放款", 1.0), ("住宅抵押貸款", 0.35), ("對銀行債權", 0.2), ("中小企業放款", 0.75),
                  ("零售信用貸款", 0.75), ("商業不動產貸款", 1.0))


@template(D, "regulatory_compliance", "regulatory_compliance_inter1", "中級")
def regulatory_compliance_inter1(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    kinds = rng.sample(EXPOSURE_TYPES, 3)
    minimum = CAR_MIN
    while True:
        exps = [pick_money(rng, 20_000_000_000, 300_000_000_000, 1_000_000_000) for _ in kinds]
        rwa = sum(e * w for e, (_, w) in zip(exps, kinds))
        cap = pick_money(rng, round(rwa * 0.08), round(rwa * 0.14), 100_000_000)
        if abs(cap / rwa - minimum) > 0.002:
            break
    c = Chain()
    r = c.add("風險性資產總額", rwa, " + ".join(f"{ntd(e)} × {pct(w, 0)}" for e, (_, w) in zip(exps, kinds)), ntd)
    car = c.add("資本適足率", cap / r, f"{ntd(cap)} ÷ {ntd(r)}", pct)
    gap = c.add("資本適足率減法定最低比率", car - minimum, f"{pct(car)} − {pct(minimum)}", pct)
    ans = "是" if gap >= 0 else "否"
    c.note(f"資本適足率{'不低於' if gap >= 0 else '低於'} {pct(minimum)}，是否符合", ans)
    items = join_items([f"{k} {ntd(e)}（風險權數 {pct(w, 0)}）" for e, (k, w) in zip(exps, kinds)])
    q = (f"{bank}的曝險包括{items}，合格自有資本為 {ntd(cap)}。假設法定最低資本適足率為 {pct(minimum)}，"
         f"請問{bank}的資本適足率是否符合要求？（請回答是或否）")
    return c.categorical(q, ans, {"exps": exps, "weights": [w for _, w in kinds], "cap": cap, "minimum": minimum})


@template(D, "regulatory_compliance", "regulatory_compliance_inter2", "中級")
def regulatory_compliance_inter2(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    kinds = rng.sample(EXPOSURE_TYPES, 3)
    target = rng.choice([0.105, 0.11, 0.12, 0.125])
    exps = [pick_money(rng, 20_000_000_000, 300_000_000_000, 1_000_000_000) for _ in kinds]
    rwa = sum(e * w for e, (_, w) in zip(exps, kinds))
    cap = pick_money(rng, round(rwa * (target - 0.03)), round(rwa * (target - 0.003)), 100_000_000)
    c = Chain()
    r = c.add("風險性資產總額", rwa, " + ".join(f"{ntd(e)} × {pct(w, 0)}" for e, (_, w) in zip(exps, kinds)), ntd)
    need = c.add("達標所需資本", r * target, f"{ntd(r)} × {pct(target, 1)}", ntd)
    short = c.add("資本缺口", need - cap, f"{ntd(need)} − {ntd(cap)}", ntd)
    items = join_items([f"{k} {ntd(e)}（風險權數 {pct(w, 0)}）" for e, (k, w) in zip(exps, kinds)])
    q = (f"{bank}的曝險包括{items}，目前合格自有資本 {ntd(cap)}。董事會訂定的內部資本適足率目標為 {pct(target, 1)}，"
         f"請問還需要增加多少資本才能達標？")
    return c.numeric(q, short, ntd(short), {"exps": exps, "weights": [w for _, w in kinds], "cap": cap, "target": target})


@template(D, "regulatory_compliance", "regulatory_compliance_adv1", "進階")
def regulatory_compliance_adv1(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    t1_min, lev_min = TIER1_MIN, LEVERAGE_MIN
    while True:
        rwa = pick_money(rng, 500_000_000_000, 3_000_000_000_000, 10_000_000_000)
        expo = pick_money(rng, round(rwa * 1.4), round(rwa * 2.2), 10_000_000_000)
        t1 = pick_money(rng, round(rwa * 0.08), round(rwa * 0.1), 1_000_000_000)
        growth = pick_money(rng, round(rwa * 0.05), round(rwa * 0.3), 10_000_000_000)
        w = rng.choice([0.5, 0.75, 1.0])
        need = max((rwa + growth * w) * t1_min, (expo + growth) * lev_min)
        if need - t1 > 1_000_000_000:
            break
    c = Chain()
    new_rwa = c.add("放款成長後風險性資產", rwa + growth * w, f"{ntd(rwa)} + {ntd(growth)} × {pct(w, 0)}", ntd)
    new_exp = c.add("放款成長後槓桿比率曝險總額", expo + growth, f"{ntd(expo)} + {ntd(growth)}", ntd)
    need_t1 = c.add("第一類資本比率所需資本", new_rwa * t1_min, f"{ntd(new_rwa)} × {pct(t1_min, 1)}", ntd)
    need_lev = c.add("槓桿比率所需資本", new_exp * lev_min, f"{ntd(new_exp)} × {pct(lev_min, 0)}", ntd)
    binding = c.add("兩項要求中較高者", max(need_t1, need_lev), f"{ntd(need_t1)} 與 {ntd(need_lev)} 取較高者", ntd)
    short = c.add("第一類資本缺口", binding - t1, f"{ntd(binding)} − {ntd(t1)}", ntd)
    q = (f"{bank}目前第一類資本 {ntd(t1)}、風險性資產 {ntd(rwa)}、槓桿比率曝險總額 {ntd(expo)}。明年預計新增放款 {ntd(growth)}，"
         f"風險權數 {pct(w, 0)}（新增放款全額計入槓桿比率曝險）。假設第一類資本比率下限為 {pct(t1_min, 1)}、槓桿比率下限為 {pct(lev_min, 0)}，"
         f"兩者都須符合。請問{bank}需要增加多少第一類資本？")
    return c.numeric(q, short, ntd(short), {"t1": t1, "rwa": rwa, "expo": expo, "growth": growth, "w": w,
                                            "t1_min": t1_min, "lev_min": lev_min})


# ---------------------------------------------------------------- risk_appetite


@template(D, "risk_appetite", "risk_appetite_basic1", "基礎")
def risk_appetite_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    cap = pick_money(rng, 1_000_000_000, 30_000_000_000, 100_000_000)
    a = pick_rate(rng, 2, 10, 0.5)
    loss = pick_money(rng, round(cap * a * 0.1), round(cap * a * 0.9), 1_000_000)
    c = Chain()
    limit = c.add("年度可容忍損失上限", cap * a, f"{ntd(cap)} × {pct(a, 1)}", ntd)
    left = c.add("剩餘可承受損失額度", limit - loss, f"{ntd(limit)} − {ntd(loss)}", ntd)
    q = (f"{co}董事會核定的風險胃納為：年度投資損失不得超過權益 {ntd(cap)} 的 {pct(a, 1)}。今年至今已認列投資損失 {ntd(loss)}。"
         f"請問今年剩下的可承受損失額度是多少？")
    return c.numeric(q, left, ntd(left), {"cap": cap, "a": a, "loss": loss})


@template(D, "risk_appetite", "risk_appetite_basic2", "基礎")
def risk_appetite_basic2(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    limit = pick_rate(rng, 2, 6, 0.5)
    while True:
        cap = pick_money(rng, 10_000_000_000, 200_000_000_000, 1_000_000_000)
        var = pick_money(rng, round(cap * limit * 0.6), round(cap * limit * 1.4), 10_000_000)
        if abs(var / cap - limit) > 0.0005:
            break
    c = Chain()
    ratio = c.add("風險值占權益比率", var / cap, f"{ntd(var)} ÷ {ntd(cap)}", pct)
    gap = c.add("風險值占權益比率減上限", ratio - limit, f"{pct(ratio)} − {pct(limit, 1)}", pct)
    ans = "是" if gap > 0 else "否"
    c.note("差額為正代表超出，是否超出風險胃納", ans)
    q = (f"{bank}的風險胃納聲明規定：交易部位的 99% 一日風險值（VaR）不得超過權益的 {pct(limit, 1)}。目前權益 {ntd(cap)}，"
         f"交易部位的一日風險值為 {ntd(var)}。請問是否超出風險胃納？（請回答是或否）")
    return c.categorical(q, ans, {"cap": cap, "var": var, "limit": limit})


@template(D, "risk_appetite", "risk_appetite_inter1", "中級")
def risk_appetite_inter1(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    desks = ("股票交易室", "債券交易室", "外匯交易室")
    vars_ = [pick_money(rng, 10_000_000, 200_000_000, 1_000_000) for _ in desks]
    limit = pick_money(rng, round(sum(vars_) * 0.85), round(sum(vars_) * 1.6), 10_000_000)
    c = Chain()
    used = c.add("風險值合計", sum(vars_), " + ".join(ntd(v) for v in vars_), ntd)
    c.add("剩餘額度", limit - used, f"{ntd(limit)} − {ntd(used)}", ntd)
    util = c.add("限額使用率", used / limit, f"{ntd(used)} ÷ {ntd(limit)}", pct)
    items = "、".join(f"{d} {ntd(v)}" for d, v in zip(desks, vars_))
    q = (f"{bank}全行交易部位的風險值限額為 {ntd(limit)}，各交易室目前的風險值為{items}（保守起見不計分散效果，直接加總）。"
         f"請問限額使用率是多少？{ASK_PCT}")
    return c.numeric(q, util, pct(util), {"vars": vars_, "limit": limit})


@template(D, "risk_appetite", "risk_appetite_inter2", "中級")
def risk_appetite_inter2(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    while True:  # keep the answer away from 0.00% so its sign survives display rounding
        loans = pick_money(rng, 100_000_000_000, 2_000_000_000_000, 1_000_000_000)
        limit = pick_rate(rng, 0.8, 2.0, 0.1)
        npl = pick_money(rng, round(loans * limit * 0.4), round(loans * limit * 0.8), 10_000_000)
        new = pick_money(rng, round(loans * 0.001), round(loans * limit * 0.6), 10_000_000)
        rec = pick_money(rng, 0, round(new * 0.6), 10_000_000)
        if abs(limit - (npl + new - rec) / loans) >= 0.0001:
            break
    c = Chain()
    npl2 = c.add("期末逾期放款金額", npl + new - rec, f"{ntd(npl)} + {ntd(new)} − {ntd(rec)}", ntd)
    ratio = c.add("期末逾放比率", npl2 / loans, f"{ntd(npl2)} ÷ {ntd(loans)}", lambda x: pct(x, 4))
    room = c.add("距離風險胃納上限的空間", limit - ratio, f"{pct(limit, 1)} − {pct(ratio, 4)}", lambda x: pct(x, 4))
    q = (f"{bank}放款總額 {ntd(loans)}，風險胃納規定逾期放款比率不得超過 {pct(limit, 1)}。期初逾期放款 {ntd(npl)}，本季新增逾期放款 "
         f"{ntd(new)}，收回或轉銷 {ntd(rec)}（放款總額視為不變）。請問期末逾放比率距離上限還有多少空間？"
         f"{ask(2, '百分比', '超過上限時為負值')}")
    return c.numeric(q, room, pct(room), {"loans": loans, "limit": limit, "npl": npl, "new": new, "rec": rec})


@template(D, "risk_appetite", "risk_appetite_adv1", "進階")
def risk_appetite_adv1(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    cl = rng.choice([0.95, 0.99])
    minimum = CAR_MIN
    while True:
        rwa = pick_money(rng, 200_000_000_000, 2_000_000_000_000, 10_000_000_000)
        cap = pick_money(rng, round(rwa * 0.12), round(rwa * 0.16), 1_000_000_000)
        earn = pick_money(rng, round(cap * 0.03), round(cap * 0.1), 100_000_000)
        sd = pick_money(rng, round(earn * 0.8), round(earn * 3), 100_000_000)
        z = z_of(cl)
        loss = z * sd - earn
        if loss > 0 and (cap - loss) / rwa > 0.05:
            break
    c = Chain()
    ul = c.add("非預期盈餘變動", z * sd, f"{z:.3f} × {ntd(sd)}", ntd)
    worst = c.add("最差情境淨損失", ul - earn, f"{ntd(ul)} − {ntd(earn)}", ntd)
    post = c.add("壓力後合格自有資本", cap - worst, f"{ntd(cap)} − {ntd(worst)}", ntd)
    car = c.add("壓力後資本適足率", post / rwa, f"{ntd(post)} ÷ {ntd(rwa)}", pct)
    buf = c.add("壓力後資本適足率減最低要求", car - minimum, f"{pct(car)} − {pct(minimum)}", pct)
    q = (f"{bank}合格自有資本 {ntd(cap)}、風險性資產 {ntd(rwa)}。明年稅後盈餘預期為 {ntd(earn)}，標準差 {ntd(sd)}，假設呈常態分配。"
         f"風險胃納以 {level(cl)} 信賴水準的最差盈餘情境衡量（單尾 z 值以 {z:.3f} 計；盈餘為負即為損失，直接減少資本，"
         f"風險性資產不變）。"
         f"假設法定最低資本適足率 {pct(minimum)}，請問最差情境下資本適足率高於最低要求多少？{ask(2, '百分比', '不足時為負值')}")
    return c.numeric(q, buf, pct(buf), {"cap": cap, "rwa": rwa, "earn": earn, "sd": sd, "cl": cl, "minimum": minimum,
                                        "z": z})


# ---------------------------------------------------------------- risk_metrics


@template(D, "risk_metrics", "risk_metrics_basic1", "基礎")
def risk_metrics_basic1(rng: random.Random) -> Problem:
    fund = pick_fund(rng)
    rets = [pick_rate(rng, -15, 30, 0.1) for _ in range(5)]
    mean = sum(rets) / 5
    c = Chain()
    m = c.add("平均報酬率", mean, f"（{'、'.join(pct(x, 1) for x in rets)}）的平均", pct)
    sd = c.add("樣本標準差", math.sqrt(sum((x - m) ** 2 for x in rets) / 4), "√[Σ(報酬率 − 平均)² ÷ (5 − 1)]", pct)
    q = (f"{fund}過去 5 年的年報酬率依序為 {'、'.join(pct(x, 1) for x in rets)}。請問年報酬率的樣本標準差是多少？"
         f"{ASK_PCT}")
    return c.numeric(q, sd, pct(sd), {"rets": rets})


@template(D, "risk_metrics", "risk_metrics_basic2", "基礎")
def risk_metrics_basic2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    rho = pick_decimal(rng, 0.2, 0.95, 2)
    ss = pick_rate(rng, 15, 40, 0.5)
    sm = pick_rate(rng, 15, 25, 0.5)
    c = Chain()
    cov = c.add("與大盤的共變異數", rho * ss * sm, f"{par(str(rho))} × {pct(ss, 1)} × {pct(sm, 1)}", lambda x: num(x, 6))
    beta = c.add("貝他係數", cov / sm ** 2, f"{num(cov, 6)} ÷ ({pct(sm, 1)})²")
    q = (f"{co}股票報酬率的年化標準差為 {pct(ss, 1)}，大盤為 {pct(sm, 1)}，兩者相關係數 {rho}。"
         f"請問{co}股票的貝他係數是多少？{ASK_NUM}")
    return c.numeric(q, beta, num(beta, 2), {"rho": rho, "ss": ss, "sm": sm})


@template(D, "risk_metrics", "risk_metrics_inter1", "中級")
def risk_metrics_inter1(rng: random.Random) -> Problem:
    fund = pick_fund(rng)
    navs = [pick_decimal(rng, 8, 15, 2)]
    for _ in range(5):
        navs.append(pick_decimal(rng, navs[-1] * 0.85, navs[-1] * 1.12, 2))
    best = (0.0, 0, 0)
    for j in range(len(navs)):
        peak_i = max(range(j + 1), key=lambda k: (navs[k], -k))
        dd = (navs[peak_i] - navs[j]) / navs[peak_i]
        if dd > best[0]:
            best = (dd, peak_i, j)
    if best[0] == 0.0:  # a series that only rose: force one dip so the question has an answer
        navs[-1] = round(navs[-2] * 0.9, 2)
        best = ((navs[-2] - navs[-1]) / navs[-2], len(navs) - 2, len(navs) - 1)
    _, pi, ti = best
    c = Chain()
    peak = c.add("回檔前高點淨值", navs[pi], f"第 {pi + 1} 季", ntd)
    trough = c.add("之後的最低淨值", navs[ti], f"第 {ti + 1} 季", ntd)
    mdd = c.add("最大回檔幅度", (peak - trough) / peak, f"({ntd(peak)} − {ntd(trough)}) ÷ {ntd(peak)}", pct)
    q = (f"{fund}連續 6 季的季末淨值依序為 {'、'.join(ntd(x) for x in navs)}。最大回檔（最大跌幅）是從任一高點到其後最低點的最大跌幅。"
         f"請問這段期間的最大回檔是多少？{ASK_PCT}")
    return c.numeric(q, mdd, pct(mdd), {"navs": navs})


@template(D, "risk_metrics", "risk_metrics_inter2", "中級")
def risk_metrics_inter2(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    co = pick_company(rng)
    drawn = pick_money(rng, 10_000_000, 500_000_000, 1_000_000)
    undrawn = pick_money(rng, 1_000_000, round(drawn * 0.8), 1_000_000)
    ccf = rng.choice([0.2, 0.4, 0.5, 0.75])
    pd_ = pick_rate(rng, 0.3, 8, 0.1)
    rec = pick_rate(rng, 20, 70, 5)
    c = Chain()
    ead = c.add("違約曝險額", drawn + undrawn * ccf, f"{ntd(drawn)} + {ntd(undrawn)} × {pct(ccf, 0)}", ntd)
    lgd = c.add("違約損失率", 1 - rec, f"1 − {pct(rec, 0)}", lambda x: pct(x, 0))
    el = c.add("預期損失", pd_ * lgd * ead, f"{pct(pd_, 1)} × {pct(lgd, 0)} × {ntd(ead)}", ntd)
    q = (f"{bank}對{co}的授信額度中已動用 {ntd(drawn)}、未動用 {ntd(undrawn)}，未動用部分的信用轉換係數為 {pct(ccf, 0)}。"
         f"{co}一年內違約機率 {pct(pd_, 1)}，違約後預估回收率 {pct(rec, 0)}。請問這筆授信的預期損失是多少？{ASK_NUM}")
    return c.numeric(q, el, ntd(el, 2), {"drawn": drawn, "undrawn": undrawn, "ccf": ccf, "pd": pd_, "rec": rec})


@template(D, "risk_metrics", "risk_metrics_adv1", "進階")
def risk_metrics_adv1(rng: random.Random) -> Problem:
    who = pick_company(rng) + "的確定福利退休金計畫資產"
    w1 = pick_rate(rng, 30, 80, 5)
    w2 = 1 - w1
    s1 = pick_rate(rng, 14, 28, 0.5)
    s2 = pick_rate(rng, 3, 8, 0.5)
    rho = pick_decimal(rng, -0.4, 0.5, 2)
    r1 = pick_rate(rng, 6, 12, 0.5)
    r2 = pick_rate(rng, 2, 5, 0.5)
    rf = pick_rate(rng, 1, 2, 0.25)
    c = Chain()
    a = c.add("股票變異數項", (w1 * s1) ** 2, f"({pct(w1, 0)} × {pct(s1, 1)})²", lambda x: num(x, 6))
    b = c.add("債券變異數項", (w2 * s2) ** 2, f"({pct(w2, 0)} × {pct(s2, 1)})²", lambda x: num(x, 6))
    cv = c.add("共變異數項", 2 * w1 * w2 * rho * s1 * s2, f"2 × {pct(w1, 0)} × {pct(w2, 0)} × {par(str(rho))} × {pct(s1, 1)} × {pct(s2, 1)}",
               lambda x: num(x, 6))
    var = c.add("投資組合變異數", a + b + cv, f"{num(a, 6)} + {num(b, 6)} {plus(cv, lambda x: num(x, 6))}", lambda x: num(x, 6))
    sd = c.add("投資組合標準差", math.sqrt(var), f"√{num(var, 6)}", pct)
    er = c.add("投資組合預期報酬率", w1 * r1 + w2 * r2, f"{pct(w1, 0)} × {pct(r1, 1)} + {pct(w2, 0)} × {pct(r2, 1)}", pct)
    sharpe = c.add("夏普比率", (er - rf) / sd, f"({pct(er)} − {pct(rf)}) ÷ {pct(sd)}")
    q = (f"{who}配置股票 {pct(w1, 0)}、債券 {pct(w2, 0)}。股票預期報酬率 {pct(r1, 1)}、標準差 {pct(s1, 1)}；債券預期報酬率 {pct(r2, 1)}、"
         f"標準差 {pct(s2, 1)}；兩者相關係數 {rho}；無風險利率 {pct(rf)}。請依序計算投資組合的變異數、標準差與預期報酬率，"
         f"請問投資組合的夏普比率是多少？{ASK_NUM}")
    return c.numeric(q, sharpe, num(sharpe, 2), {"w1": w1, "s1": s1, "s2": s2, "rho": rho, "r1": r1, "r2": r2, "rf": rf})


# ---------------------------------------------------------------- scenario_planning


@template(D, "scenario_planning", "scenario_planning_basic1", "基礎")
def scenario_planning_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    p1 = pick_rate(rng, 15, 35, 5)
    p2 = pick_rate(rng, 35, 55, 5)
    profits = [pick_money(rng, 80_000_000, 200_000_000, 1_000_000), pick_money(rng, 30_000_000, 80_000_000, 1_000_000),
               pick_money(rng, -60_000_000, 20_000_000, 1_000_000)]
    c = Chain()
    p3 = c.add("悲觀情境機率", 1 - p1 - p2, f"1 − {pct(p1, 0)} − {pct(p2, 0)}", lambda x: pct(x, 0))
    ev = c.add("營業利益期望值", p1 * profits[0] + p2 * profits[1] + p3 * profits[2],
               f"{pct(p1, 0)} × {ntd(profits[0])} + {pct(p2, 0)} × {ntd(profits[1])} + {pct(p3, 0)} × {par(ntd(profits[2]))}", ntd)
    q = (f"{co}規劃明年營運的三種情境：樂觀情境機率 {pct(p1, 0)}、營業利益 {ntd(profits[0])}；基本情境機率 {pct(p2, 0)}、營業利益 "
         f"{ntd(profits[1])}；其餘機率為悲觀情境，營業利益 {ntd(profits[2])}（負數為虧損）。請問明年營業利益的期望值是多少？")
    return c.numeric(q, ev, ntd(ev), {"p1": p1, "p2": p2, "profits": profits})


@template(D, "scenario_planning", "scenario_planning_basic2", "基礎")
def scenario_planning_basic2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    rev = pick_money(rng, 200_000_000, 5_000_000_000, 10_000_000)
    drop = pick_rate(rng, 5, 30, 1)
    v = pick_rate(rng, 40, 70, 1)
    fixed = pick_money(rng, round(rev * 0.1), round(rev * 0.35), 1_000_000)
    c = Chain()
    r2 = c.add("衰退情境營業收入", rev * (1 - drop), f"{ntd(rev)} × (1 − {pct(drop, 0)})", ntd)
    profit = c.add("衰退情境營業利益", r2 * (1 - v) - fixed, f"{ntd(r2)} × (1 − {pct(v, 0)}) − {ntd(fixed)}", ntd)
    q = (f"{co}今年營業收入 {ntd(rev)}，變動成本占營業收入的 {pct(v, 0)}，固定成本 {ntd(fixed)}。在景氣衰退情境下，"
         f"明年營業收入預估減少 {pct(drop, 0)}，成本結構不變。請問衰退情境下的營業利益是多少？（虧損時為負值）")
    return c.numeric(q, profit, ntd(profit), {"rev": rev, "drop": drop, "v": v, "fixed": fixed})


@template(D, "scenario_planning", "scenario_planning_inter1", "中級")
def scenario_planning_inter1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    probs = rng.choice([(0.2, 0.5, 0.3), (0.25, 0.5, 0.25), (0.3, 0.4, 0.3), (0.2, 0.6, 0.2), (0.3, 0.5, 0.2)])
    npvs = [pick_money(rng, 50_000_000, 150_000_000, 1_000_000), pick_money(rng, 5_000_000, 50_000_000, 1_000_000),
            pick_money(rng, -80_000_000, -5_000_000, 1_000_000)]
    c = Chain()
    ev = c.add("淨現值期望值", sum(p * x for p, x in zip(probs, npvs)),
               " + ".join(f"{pct(p, 0)} × {par(ntd(x))}" for p, x in zip(probs, npvs)), ntd)
    var = c.add("淨現值變異數", sum(p * (x - ev) ** 2 for p, x in zip(probs, npvs)), "Σ 機率 × (淨現值 − 期望值)²",
                lambda x: num(x, 0))
    sd = c.add("淨現值標準差", math.sqrt(var), f"√{num(var, 0)}", ntd)
    q = (f"{co}評估新廠投資在三種情境下的淨現值：景氣擴張（機率 {pct(probs[0], 0)}）{ntd(npvs[0])}；持平（機率 {pct(probs[1], 0)}）"
         f"{ntd(npvs[1])}；衰退（機率 {pct(probs[2], 0)}）{ntd(npvs[2])}。請問淨現值的標準差是多少？{ASK_MONEY_INT}")
    return c.numeric(q, sd, ntd(sd, 0), {"probs": list(probs), "npvs": npvs})


@template(D, "scenario_planning", "scenario_planning_inter2", "中級")
def scenario_planning_inter2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    probs = rng.choice([(0.3, 0.5, 0.2), (0.25, 0.5, 0.25), (0.2, 0.5, 0.3), (0.4, 0.4, 0.2)])
    while True:
        a = [pick_money(rng, 60_000_000, 160_000_000, 1_000_000), pick_money(rng, 20_000_000, 70_000_000, 1_000_000),
             pick_money(rng, -70_000_000, 0, 1_000_000)]
        b = [pick_money(rng, 30_000_000, 90_000_000, 1_000_000), pick_money(rng, 20_000_000, 60_000_000, 1_000_000),
             pick_money(rng, -10_000_000, 30_000_000, 1_000_000)]
        ea = sum(p * x for p, x in zip(probs, a))
        eb = sum(p * x for p, x in zip(probs, b))
        if abs(ea - eb) >= 1_000_000:
            break
    c = Chain()
    c.add("甲案期望值", ea, " + ".join(f"{pct(p, 0)} × {par(ntd(x))}" for p, x in zip(probs, a)), ntd)
    c.add("乙案期望值", eb, " + ".join(f"{pct(p, 0)} × {par(ntd(x))}" for p, x in zip(probs, b)), ntd)
    c.add("甲案減乙案", ea - eb, f"{ntd(ea)} − {ntd(eb)}", ntd)
    ans = "甲案" if ea > eb else "乙案"
    c.note("以期望值較高者為優", ans)
    names = ("樂觀", "基本", "悲觀")
    ta = "、".join(f"{n} {ntd(x)}" for n, x in zip(names, a))
    tb = "、".join(f"{n} {ntd(x)}" for n, x in zip(names, b))
    q = (f"{co}有兩個互斥的擴產方案。三種情境的機率為樂觀 {pct(probs[0], 0)}、基本 {pct(probs[1], 0)}、悲觀 {pct(probs[2], 0)}。"
         f"甲案各情境的淨現值為{ta}；乙案為{tb}。若以淨現值期望值決策，請問應選哪一案？（請回答甲案或乙案）")
    return c.categorical(q, ans, {"probs": list(probs), "a": a, "b": b})


@template(D, "scenario_planning", "scenario_planning_adv1", "進階")
def scenario_planning_adv1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    n = rng.randint(5, 10)
    r = pick_rate(rng, 6, 12, 0.5)
    p = pick_rate(rng, 30, 70, 5)
    while True:
        inv = pick_money(rng, 200_000_000, 2_000_000_000, 10_000_000)
        cf_h = pick_money(rng, round(inv / n * 1.3), round(inv / n * 2.5), 1_000_000)
        cf_l = pick_money(rng, round(inv / n * 0.3), round(inv / n * 0.9), 1_000_000)
        pv_h, pv_l = annuity_pv(cf_h, r, n), annuity_pv(cf_l, r, n)
        if pv_l < inv < pv_h:
            break
    c = Chain()
    ph = c.add("需求強勁時現金流量現值", pv_h, f"{ntd(cf_h)} × [1 − (1 + {pct(r, 1)})^−{n}] ÷ {pct(r, 1)}", ntd)
    pl = c.add("需求疲弱時現金流量現值", pv_l, f"{ntd(cf_l)} × [1 − (1 + {pct(r, 1)})^−{n}] ÷ {pct(r, 1)}", ntd)
    now = c.add("立即投資的淨現值", p * ph + (1 - p) * pl - inv, f"{pct(p, 0)} × {ntd(ph)} + {pct(1 - p, 0)} × {ntd(pl)} − {ntd(inv)}", ntd)
    wait = c.add("等待一年再決定的淨現值", p * (ph - inv) / (1 + r),
                 f"{pct(p, 0)} × ({ntd(ph)} − {ntd(inv)}) ÷ (1 + {pct(r, 1)})（需求疲弱時不投資）", ntd)
    val = c.add("等待的選擇權價值", wait - now, f"{ntd(wait)} {plus(-now, ntd)}", ntd)
    q = (f"{co}考慮投資 {ntd(inv)} 建置新產線。若需求強勁（機率 {pct(p, 0)}），之後 {n} 年每年年底現金流入 {ntd(cf_h)}；若需求疲弱，每年只有 "
         f"{ntd(cf_l)}。折現率 {pct(r, 1)}。公司也可以等待一年、確認需求後再決定（投資金額與各年現金流量相同，只是整體延後一年；"
         f"需求疲弱時就不投資）。請問等待一年的彈性價值（等待的淨現值減去立即投資的淨現值）是多少？{ask(0, '新臺幣元', '虧損時為負值')}")
    return c.numeric(q, val, ntd(val, 0), {"inv": inv, "p": p, "n": n, "cf_h": cf_h, "cf_l": cf_l, "r": r})


# ---------------------------------------------------------------- sensitivity_analysis


@template(D, "sensitivity_analysis", "sensitivity_analysis_basic1", "基礎")
def sensitivity_analysis_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    q_ = pick_money(rng, 10_000, 500_000, 1_000)
    price = pick_money(rng, 100, 3_000, 10)
    v = pick_money(rng, round(price * 0.4), round(price * 0.75), 5)
    fixed = pick_money(rng, round(q_ * (price - v) * 0.2), round(q_ * (price - v) * 0.7), 10_000)
    chg = pick_rate(rng, -10, 10, 1)
    if chg == 0:
        chg = -0.05
    c = Chain()
    p2 = c.add("調整後售價", price * (1 + chg), f"{ntd(price)} × (1 {plus(chg, lambda x: pct(x, 0))})", lambda x: ntd(x, 2))
    profit = c.add("調整後營業利益", q_ * (p2 - v) - fixed, f"{num(q_)} × ({ntd(p2, 2)} − {ntd(v)}) − {ntd(fixed)}", ntd)
    q = (f"{co}的產品售價 {ntd(price)}，單位變動成本 {ntd(v)}，年銷量 {num(q_)} 件，固定成本 {ntd(fixed)}。若售價變動 {pct(chg, 0)}"
         f"（負數為降價）而銷量與成本不變，請問營業利益會變成多少？（虧損時為負值）")
    return c.numeric(q, profit, ntd(profit), {"q": q_, "price": price, "v": v, "fixed": fixed, "chg": chg})


@template(D, "sensitivity_analysis", "sensitivity_analysis_basic2", "基礎")
def sensitivity_analysis_basic2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    price = pick_money(rng, 100, 5_000, 10)
    v = pick_money(rng, round(price * 0.3), round(price * 0.8), 5)
    fixed = pick_money(rng, 1_000_000, 200_000_000, 100_000)
    c = Chain()
    cm = c.add("單位邊際貢獻", price - v, f"{ntd(price)} − {ntd(v)}", ntd)
    bep = c.add("損益兩平銷量", fixed / cm, f"{ntd(fixed)} ÷ {ntd(cm)}", lambda x: num(x, 2) + " 件")
    q = (f"{co}的產品售價 {ntd(price)}，單位變動成本 {ntd(v)}，年度固定成本 {ntd(fixed)}。請問損益兩平銷量是多少件？{ASK_NUM}")
    return c.numeric(q, bep, num(bep, 2), {"price": price, "v": v, "fixed": fixed})


@template(D, "sensitivity_analysis", "sensitivity_analysis_inter1", "中級")
def sensitivity_analysis_inter1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    sales = pick_money(rng, 100_000_000, 5_000_000_000, 10_000_000)
    v = pick_rate(rng, 40, 75, 1)
    fixed = pick_money(rng, round(sales * (1 - v) * 0.3), round(sales * (1 - v) * 0.8), 1_000_000)
    chg = pick_rate(rng, 3, 20, 1) * rng.choice([1, -1])
    c = Chain()
    cm = c.add("邊際貢獻", sales * (1 - v), f"{ntd(sales)} × (1 − {pct(v, 0)})", ntd)
    ebit = c.add("營業利益", cm - fixed, f"{ntd(cm)} − {ntd(fixed)}", ntd)
    dol = c.add("營運槓桿度", cm / ebit, f"{ntd(cm)} ÷ {ntd(ebit)}")
    d = c.add("營業利益變動率", dol * chg, f"{fmt_value(dol)} × {par(pct(chg, 0))}", pct)
    q = (f"{co}營業收入 {ntd(sales)}，變動成本率 {pct(v, 0)}，固定成本 {ntd(fixed)}。若明年營業收入{'增加' if chg > 0 else '減少'} {pct(abs(chg), 0)}，"
         f"請用營運槓桿度估計營業利益的變動率是多少？{ASK_PCT}")
    return c.numeric(q, d, pct(d), {"sales": sales, "v": v, "fixed": fixed, "chg": chg})


@template(D, "sensitivity_analysis", "sensitivity_analysis_inter2", "中級")
def sensitivity_analysis_inter2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    n = rng.randint(4, 10)
    cf = pick_money(rng, 5_000_000, 80_000_000, 100_000)
    r = pick_rate(rng, 5, 10, 0.5)
    inv = pick_money(rng, round(annuity_pv(cf, r, n) * 0.7), round(annuity_pv(cf, r, n) * 0.95), 100_000)
    dr = rng.choice([0.01, 0.02])
    c = Chain()
    af0, af1 = annuity_factor(r, n), annuity_factor(r + dr, n)
    n1 = c.add("原折現率下的淨現值", cf * af0 - inv, f"{ntd(cf)} × {af0:.4f} − {ntd(inv)}", ntd)
    n2 = c.add("折現率提高後的淨現值", cf * af1 - inv, f"{ntd(cf)} × {af1:.4f} − {ntd(inv)}", ntd)
    d = c.add("淨現值變動金額", n2 - n1, f"{ntd(n2)} − {ntd(n1)}", ntd)
    q = (f"{co}的投資計畫期初成本 {ntd(inv)}，之後 {n} 年每年年底淨現金流入 {ntd(cf)}，目前折現率 {pct(r, 1)}"
         f"（{annuity_factor_given(r, n)}）。若折現率上升 {dr * 100:.0f} 個百分點（即 {pct(r + dr, 1)}，"
         f"{annuity_factor_given(r + dr, n)}），請問淨現值會變動多少？{ask(0, '新臺幣元', '減少時為負值')}")
    return c.numeric(q, d, ntd(d, 0), {"inv": inv, "n": n, "cf": cf, "r": r, "dr": dr})


@template(D, "sensitivity_analysis", "sensitivity_analysis_adv1", "進階")
def sensitivity_analysis_adv1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    n = rng.randint(4, 8)
    r = pick_rate(rng, 6, 12, 0.5)
    while True:
        vol = pick_money(rng, 20_000, 300_000, 1_000)
        price = pick_money(rng, 200, 2_000, 10)
        v = pick_money(rng, round(price * 0.4), round(price * 0.7), 5)
        fixed = pick_money(rng, round(vol * (price - v) * 0.2), round(vol * (price - v) * 0.6), 100_000)
        cf = vol * (price - v) - fixed
        inv = pick_money(rng, round(annuity_pv(cf, r, n) * 0.6), round(annuity_pv(cf, r, n) * 0.9), 100_000)
        if annuity_pv(cf, r, n) - inv > 0.15 * inv:
            break
    up = 0.1
    c = Chain()
    base_cf = c.add("基本情境每年現金流量", cf, f"{num(vol)} × ({ntd(price)} − {ntd(v)}) − {ntd(fixed)}", ntd)
    af = annuity_factor(r, n)
    base = c.add("基本情境淨現值", base_cf * af - inv, f"{ntd(base_cf)} × {af:.4f} − {ntd(inv)}", ntd)
    new_cf = c.add("銷量增加後每年現金流量", vol * (1 + up) * (price - v) - fixed,
                   f"{num(vol)} × 1.1 × ({ntd(price)} − {ntd(v)}) − {ntd(fixed)}", ntd)
    new = c.add("銷量增加後淨現值", new_cf * af - inv, f"{ntd(new_cf)} × {af:.4f} − {ntd(inv)}", ntd)
    chg = c.add("淨現值變動率", new / base - 1, f"{ntd(new)} ÷ {ntd(base)} − 1", pct)
    el = c.add("淨現值對銷量的彈性", chg / up, f"{pct(chg)} ÷ {pct(up, 0)}")
    q = (f"{co}評估一項 {n} 年期計畫：期初投資 {ntd(inv)}，每年銷量 {num(vol)} 件，售價 {ntd(price)}，單位變動成本 {ntd(v)}，"
         f"每年固定付現成本 {ntd(fixed)}（不考慮所得稅與折舊），折現率 {pct(r, 1)}（{annuity_factor_given(r, n)}）。若銷量比基本情境增加 {pct(up, 0)}，"
         f"請問淨現值對銷量的彈性（淨現值變動率 ÷ 銷量變動率）是多少？{ASK_NUM}")
    return c.numeric(q, el, num(el, 2), {"n": n, "r": r, "vol": vol, "price": price, "v": v, "fixed": fixed, "inv": inv,
                                         "up": up})


# ---------------------------------------------------------------- stress_testing


@template(D, "stress_testing", "stress_testing_basic1", "基礎")
def stress_testing_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    v = pick_money(rng, 10_000_000, 2_000_000_000, 1_000_000)
    s = pick_rate(rng, 10, 40, 1)
    c = Chain()
    loss = c.add("壓力情境損失", v * s, f"{ntd(v)} × {pct(s, 0)}", ntd)
    post = c.add("壓力後部位價值", v - loss, f"{ntd(v)} − {ntd(loss)}", ntd)
    q = (f"{co}持有上市股票部位市值 {ntd(v)}。壓力測試假設股市單月重挫 {pct(s, 0)}，且持股跌幅與大盤相同。"
         f"請問壓力情境下股票部位的價值是多少？")
    return c.numeric(q, post, ntd(post), {"v": v, "s": s})


@template(D, "stress_testing", "stress_testing_basic2", "基礎")
def stress_testing_basic2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    v = pick_money(rng, 50_000_000, 5_000_000_000, 1_000_000)
    dur = pick_decimal(rng, 2, 12, 1)
    dy = rng.choice([0.005, 0.01, 0.015, 0.02, 0.03])
    c = Chain()
    pchg = c.add("債券價格變動率", -dur * dy, f"−{dur} × {pct(dy, 1)}", pct)
    loss = c.add("債券部位價值變動", v * pchg, f"{ntd(v)} × {par(pct(pchg))}", ntd)
    q = (f"{co}持有債券部位市值 {ntd(v)}，修正存續期間 {dur}。壓力情境假設殖利率平行上升 {pct(dy, 1)}，"
         f"以存續期間近似，請問債券部位價值變動多少？（減少時為負值）")
    return c.numeric(q, loss, ntd(loss), {"v": v, "dur": dur, "dy": dy})


@template(D, "stress_testing", "stress_testing_inter1", "中級")
def stress_testing_inter1(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    th = rng.choice([0.07, 0.08])
    while True:
        rwa = pick_money(rng, 300_000_000_000, 3_000_000_000_000, 10_000_000_000)
        cet1 = pick_money(rng, round(rwa * 0.09), round(rwa * 0.14), 1_000_000_000)
        loss = pick_money(rng, round(rwa * 0.005), round(rwa * 0.05), 1_000_000_000)
        g = pick_rate(rng, 3, 15, 1)
        ratio = (cet1 - loss) / (rwa * (1 + g))
        if abs(ratio - th) > 0.001:
            break
    c = Chain()
    c1 = c.add("壓力後普通股權益第一類資本", cet1 - loss, f"{ntd(cet1)} − {ntd(loss)}", ntd)
    r1 = c.add("壓力後風險性資產", rwa * (1 + g), f"{ntd(rwa)} × (1 + {pct(g, 0)})", ntd)
    ratio_v = c.add("壓力後 CET1 比率", c1 / r1, f"{ntd(c1)} ÷ {ntd(r1)}", pct)
    ans = "是" if ratio_v >= th else "否"
    c.note(f"與門檻 {pct(th, 0)} 比較，是否通過壓力測試", ans)
    q = (f"{bank}的普通股權益第一類資本（CET1）為 {ntd(cet1)}，風險性資產 {ntd(rwa)}。嚴重衰退情境下預估稅後損失 {ntd(loss)}，"
         f"風險性資產因信用品質惡化增加 {pct(g, 0)}。監理門檻為壓力後 CET1 比率不低於 {pct(th, 0)}。請問{bank}是否通過壓力測試？"
         f"（請回答是或否）")
    return c.categorical(q, ans, {"cet1": cet1, "rwa": rwa, "loss": loss, "g": g, "th": th})


@template(D, "stress_testing", "stress_testing_inter2", "中級")
def stress_testing_inter2(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    book = pick_money(rng, 50_000_000_000, 800_000_000_000, 1_000_000_000)
    pd_ = pick_rate(rng, 0.5, 3, 0.1)
    k = rng.choice([1.5, 2.0, 2.5, 3.0])
    lgd = pick_rate(rng, 30, 60, 5)
    c = Chain()
    el0 = c.add("基本情境預期損失", book * pd_ * lgd, f"{ntd(book)} × {pct(pd_, 1)} × {pct(lgd, 0)}", ntd)
    pd2 = c.add("壓力情境違約機率", pd_ * k, f"{pct(pd_, 1)} × {k}", pct)
    el1 = c.add("壓力情境預期損失", book * pd2 * lgd, f"{ntd(book)} × {pct(pd2)} × {pct(lgd, 0)}", ntd)
    inc = c.add("預期損失增加數", el1 - el0, f"{ntd(el1)} − {ntd(el0)}", ntd)
    q = (f"{bank}的企業放款餘額 {ntd(book)}，基本情境平均違約機率 {pct(pd_, 1)}，違約損失率 {pct(lgd, 0)}。壓力情境假設違約機率放大為 "
         f"{k} 倍、違約損失率不變。請問壓力情境下預期損失會增加多少？")
    return c.numeric(q, inc, ntd(inc), {"book": book, "pd": pd_, "k": k, "lgd": lgd})


@template(D, "stress_testing", "stress_testing_adv1", "進階")
def stress_testing_adv1(rng: random.Random) -> Problem:
    co = rng.choice(INSURERS)
    eq = pick_money(rng, 10_000_000_000, 200_000_000_000, 1_000_000_000)
    se = pick_rate(rng, 15, 35, 1)
    bond = pick_money(rng, 50_000_000_000, 800_000_000_000, 1_000_000_000)
    dur = pick_decimal(rng, 5, 15, 1)
    conv = pick_decimal(rng, 40, 200, 0)
    dy = rng.choice([0.005, 0.01, 0.015, 0.02])
    fx = pick_money(rng, 20_000_000_000, 300_000_000_000, 1_000_000_000)
    sf = pick_rate(rng, 3, 10, 0.5)
    capital = pick_money(rng, round((eq * se + bond * dur * dy + fx * sf) * 1.5),
                         round((eq * se + bond * dur * dy + fx * sf) * 4), 1_000_000_000)
    c = Chain()
    l1 = c.add("股票部位損失", eq * se, f"{ntd(eq)} × {pct(se, 0)}", ntd)
    bp = c.add("債券價格變動率", -dur * dy + 0.5 * conv * dy ** 2, f"−{dur} × {pct(dy, 1)} + 0.5 × {num(conv, 0)} × ({pct(dy, 1)})²", pct_exact)
    l2 = c.add("債券部位損失", -bond * bp, f"{ntd(bond)} × {pct_exact(-bp)}", ntd)
    l3 = c.add("外幣部位匯兌損失", fx * sf, f"{ntd(fx)} × {pct(sf, 1)}", ntd)
    total = c.add("壓力情境總損失", l1 + l2 + l3, f"{ntd(l1)} + {ntd(l2)} + {ntd(l3)}", ntd)
    left = c.add("壓力後淨值占原淨值比率", (capital - total) / capital, f"({ntd(capital)} − {ntd(total)}) ÷ {ntd(capital)}", pct)
    q = (f"{co}淨值 {ntd(capital)}，進行複合壓力測試：(1) 股票部位 {ntd(eq)}，股價下跌 {pct(se, 0)}；(2) 債券部位 {ntd(bond)}，"
         f"修正存續期間 {dur}、凸性 {num(conv, 0)}，殖利率上升 {pct(dy, 1)}（以存續期間與凸性近似）；(3) 未避險外幣資產 {ntd(fx)}，"
         f"新臺幣升值使外幣資產價值下跌 {pct(sf, 1)}。損失直接沖減淨值，請問壓力後淨值是原淨值的多少比率？"
         f"{ASK_PCT}")
    return c.numeric(q, left, pct(left), {"capital": capital, "eq": eq, "se": se, "bond": bond, "dur": dur, "conv": conv,
                                          "dy": dy, "fx": fx, "sf": sf})


# ---------------------------------------------------------------- var


@template(D, "var", "var_basic1", "基礎")
def var_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    v = pick_money(rng, 10_000_000, 2_000_000_000, 1_000_000)
    sd = pick_rate(rng, 0.5, 3, 0.1)
    cl = rng.choice([0.95, 0.99])
    c = Chain()
    z = z_of(cl)
    var = c.add("一日風險值", v * z * sd, f"{ntd(v)} × {z:.3f} × {pct(sd, 1)}", ntd)
    q = (f"{co}的股票部位市值 {ntd(v)}，日報酬率標準差 {pct(sd, 1)}，假設日報酬率呈平均數為 0 的常態分配。"
         f"請問 {z_given(cl)}下的一日風險值（VaR）是多少？{ASK_MONEY_INT}")
    return c.numeric(q, var, ntd(var, 0), {"v": v, "sd": sd, "cl": cl, "z": z})


@template(D, "var", "var_basic2", "基礎")
def var_basic2(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    var1 = pick_money(rng, 1_000_000, 200_000_000, 100_000)
    t = rng.choice([5, 10, 20])
    c = Chain()
    root = c.add("持有天數平方根", math.sqrt(t), f"√{t}", lambda x: num(x, 4))
    var_t = c.add(f"{t} 日風險值", var1 * root, f"{ntd(var1)} × √{t}", ntd)
    q = (f"{bank}交易部位的 99% 一日風險值為 {ntd(var1)}。假設每日報酬獨立且同分配，以平方根法則換算，"
         f"請問 {t} 日風險值是多少？{ASK_MONEY_INT}")
    return c.numeric(q, var_t, ntd(var_t, 0), {"var1": var1, "t": t})


@template(D, "var", "var_inter1", "中級")
def var_inter1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    v = pick_money(rng, 10_000_000, 1_000_000_000, 1_000_000)
    n = 20
    cl = 0.9
    while True:
        rets = [pick_rate(rng, -4, 4, 0.01) for _ in range(n)]
        srt = sorted(rets)
        if len(set(rets)) == n and srt[1] < 0:
            break
    k = round(n * (1 - cl))
    c = Chain()
    c.add("尾端觀察值個數", n * (1 - cl), f"{n} × (1 − {pct(cl, 0)})")
    worst = c.add(f"第 {k} 差的日報酬率", srt[k - 1], f"由小到大排序後的第 {k} 個", pct)
    var = c.add("一日歷史風險值", -worst * v, f"{pct(-worst)} × {ntd(v)}", ntd)
    q = (f"{co}的外匯部位市值 {ntd(v)}，過去 {n} 個交易日的日報酬率為：{'、'.join(pct(x) for x in rets)}。"
         f"以歷史模擬法、{pct(cl, 0)} 信賴水準估計一日風險值，並以由小到大排序後第 {n} × (1 − {pct(cl, 0)}) 個報酬率作為臨界報酬。"
         f"請問一日風險值是多少？")
    return c.numeric(q, var, ntd(var), {"v": v, "rets": rets, "cl": cl, "n": n})


@template(D, "var", "var_inter2", "中級")
def var_inter2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    v1 = pick_money(rng, 50_000_000, 1_000_000_000, 1_000_000)
    v2 = pick_money(rng, 50_000_000, 1_000_000_000, 1_000_000)
    s1 = pick_rate(rng, 1, 3, 0.1)
    s2 = pick_rate(rng, 0.2, 1.2, 0.1)
    rho = pick_decimal(rng, -0.5, 0.8, 2)
    cl = 0.99
    z = z_of(cl)
    c = Chain()
    a = c.add("股票部位風險值", v1 * z * s1, f"{ntd(v1)} × {z:.3f} × {pct(s1, 1)}", ntd)
    b = c.add("債券部位風險值", v2 * z * s2, f"{ntd(v2)} × {z:.3f} × {pct(s2, 1)}", ntd)
    p = c.add("投資組合風險值", math.sqrt(a * a + b * b + 2 * rho * a * b), f"√({ntd(a)}² + {ntd(b)}² + 2 × {par(str(rho))} × {ntd(a)} × {ntd(b)})",
              ntd)
    ben = c.add("分散效果", a + b - p, f"{ntd(a)} + {ntd(b)} − {ntd(p)}", ntd)
    q = (f"{co}持有股票部位 {ntd(v1)}（日報酬率標準差 {pct(s1, 1)}）與債券部位 {ntd(v2)}（日報酬率標準差 {pct(s2, 1)}），"
         f"兩者日報酬率相關係數 {rho}，假設呈平均數為 0 的常態分配。請以 {z_given(cl)}分別計算個別風險值與投資組合風險值，"
         f"請問分散效果（個別風險值加總減投資組合風險值）是多少？{ASK_MONEY_INT}")
    return c.numeric(q, ben, ntd(ben, 0), {"v1": v1, "v2": v2, "s1": s1, "s2": s2, "rho": rho, "cl": cl,
                                              "z": z})


@template(D, "var", "var_adv1", "進階")
def var_adv1(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    v = pick_money(rng, 100_000_000, 5_000_000_000, 10_000_000)
    sd = pick_rate(rng, 0.5, 2.5, 0.1)
    cl = rng.choice([0.975, 0.99])
    t = 10
    c = Chain()
    z = z_of(cl)
    phi = c.add("z 值處的標準常態密度", STD_NORMAL.pdf(z), f"e^(−{z:.3f}² ÷ 2) ÷ √(2π)", lambda x: num(x, 6))
    var1 = c.add("一日風險值", v * z * sd, f"{ntd(v)} × {z:.3f} × {pct(sd, 1)}", ntd)
    es1 = c.add("一日預期短缺（ES）", v * sd * phi / (1 - cl), f"{ntd(v)} × {pct(sd, 1)} × {num(phi, 6)} ÷ (1 − {pct(cl, 1)})", ntd)
    c.add("十日風險值", var1 * math.sqrt(t), f"{ntd(var1)} × √{t}", ntd)
    es_t = c.add("十日預期短缺（ES）", es1 * math.sqrt(t), f"{ntd(es1)} × √{t}", ntd)
    q = (f"{bank}的交易部位市值 {ntd(v)}，日報酬率標準差 {pct(sd, 1)}，假設呈平均數為 0 的常態分配且每日獨立。"
         f"請計算 {z_given(cl)}下的一日風險值與一日預期短缺（ES，即損失超過風險值時的平均損失），"
         f"再以平方根法則換算為 {t} 日。請問 {t} 日預期短缺是多少？{ASK_MONEY_INT}")
    return c.numeric(q, es_t, ntd(es_t, 0), {"v": v, "sd": sd, "cl": cl, "t": t, "z": z})

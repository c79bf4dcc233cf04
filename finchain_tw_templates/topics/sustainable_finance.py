"""永續金融 (sustainable_finance): carbon_credits, esg_investing, green_bonds, social_impact_investing,
sustainability_reporting.

Carbon-fee thresholds, emission factors and prices are stated in each question as assumptions."""

from __future__ import annotations

import random

from finchain_tw_templates.common import (
    ASK_MONEY,
    ASK_MONEY_INT,
    ASK_NUM,
    ASK_PCT,
    ORG_PREFIXES,
    Chain,
    ask,
    fmt_value,
    ntd,
    num,
    pct,
    pick_companies,
    pick_company,
    pick_decimal,
    pick_emitter,
    pick_money,
    pick_person,
    pick_rate,
)
from finchain_tw_templates.core import Problem, template
from finchain_tw_templates.facts import CARBON_FEE_DEDUCTION, CARBON_FEE_RATES

D = "sustainable_finance"


def pick_org(rng: random.Random, kind: str) -> str:
    return rng.choice(ORG_PREFIXES) + kind
T = "公噸二氧化碳當量"


def tons(x: float, digits: int | None = None) -> str:
    return f"{num(x, digits)} 公噸"


def bond_price(face: float, coupon: float, y: float, n: int) -> float:
    """Annual-coupon bond price at yield y."""
    return face * coupon * (1 - (1 + y) ** -n) / y + face / (1 + y) ** n


# ---------------------------------------------------------------- carbon_credits


@template(D, "carbon_credits", "carbon_credits_basic1", "基礎")
def carbon_credits_basic1(rng: random.Random) -> Problem:
    red = pick_money(rng, 5_000, 300_000, 100)
    co = pick_emitter(rng, red)
    buf = pick_rate(rng, 5, 20, 1)
    price = pick_money(rng, 200, 1_500, 10)
    c = Chain()
    issued = c.add("可核發的碳權數量", red * (1 - buf), f"{num(red)} × (1 − {pct(buf, 0)})", lambda x: tons(x, 2))
    rev = c.add("碳權出售收入", issued * price, f"{num(issued, 2)} × {ntd(price)}", ntd)
    q = (f"{co}的沼氣發電減量專案經查證後減量 {num(red)} {T}。假設主管機關核發減量額度時扣留 {pct(buf, 0)} 作為風險緩衝、不予核發，"
         f"其餘可出售，每公噸售價 {ntd(price)}。請問出售碳權可得多少收入？")
    return c.numeric(q, rev, ntd(rev), {"red": red, "buf": buf, "price": price})


@template(D, "carbon_credits", "carbon_credits_basic2", "基礎")
def carbon_credits_basic2(rng: random.Random) -> Problem:
    threshold = CARBON_FEE_DEDUCTION
    emis = pick_money(rng, 26_000, 500_000, 100)
    co = pick_emitter(rng, emis, carbon_fee=True)
    rate = rng.choice(CARBON_FEE_RATES)  # 一般費率 NT$300, 優惠費率 NT$100 / NT$50 (facts.py)
    c = Chain()
    base = c.add("計費排放量", emis - threshold, f"{num(emis)} − {num(threshold)}", lambda x: tons(x))
    fee = c.add("應繳碳費", base * rate, f"{num(base)} × {ntd(rate)}", ntd)
    q = (f"{co}去年直接與間接溫室氣體排放量合計 {num(emis)} {T}。假設碳費只對超過 {num(threshold)} 公噸的部分收取，"
         f"費率每公噸 {ntd(rate)}，請問應繳碳費是多少？")
    return c.numeric(q, fee, ntd(fee), {"threshold": threshold, "emis": emis, "rate": rate})


@template(D, "carbon_credits", "carbon_credits_inter1", "中級")
def carbon_credits_inter1(rng: random.Random) -> Problem:
    while True:
        emis = pick_money(rng, 50_000, 800_000, 100)
        free = pick_money(rng, round(emis * 0.5), round(emis * 0.95), 100)
        banked = pick_money(rng, 0, round(emis * 0.3), 100)
        if emis != free + banked:
            break
    co = pick_emitter(rng, emis, carbon_fee=True)
    c = Chain()
    avail = c.add("可用額度合計", free + banked, f"{num(free)} + {num(banked)}", lambda x: tons(x))
    diff = c.add("排放量減可用額度", emis - avail, f"{num(emis)} − {num(avail)}", lambda x: tons(x))
    c.add("需購買的額度", max(diff, 0), f"{tons(diff)} 與 0 取較大者", lambda x: tons(x))
    ans = "是" if diff > 0 else "否"
    c.note("可用額度不足時須購買，是否需要購買排放額度", ans)
    # Taiwan runs a carbon fee, not an emissions trading system (FACTS.md 5.9): the cap and the free allocation
    # are the question's assumption.
    q = (f"假設主管機關實施溫室氣體總量管制並核配免費排放額度（臺灣現行制度為碳費，此為計算假設）。{co}今年溫室氣體排放量 "
         f"{num(emis)} {T}，獲核配免費額度 {num(free)} 公噸，另有以前年度存留可用的額度 {num(banked)} 公噸"
         f"（1 單位額度抵 1 公噸排放）。請問{co}今年是否需要在市場上購買排放額度？（請回答是或否）")
    return c.categorical(q, ans, {"emis": emis, "free": free, "banked": banked})


@template(D, "carbon_credits", "carbon_credits_inter2", "中級")
def carbon_credits_inter2(rng: random.Random) -> Problem:
    x = pick_money(rng, 2_000, 100_000, 100)
    co = pick_emitter(rng, x)
    fixed = pick_money(rng, 1_000_000, 50_000_000, 100_000)
    unit = pick_money(rng, 50, 800, 10)
    price = pick_money(rng, 300, 1_500, 10)
    c = Chain()
    abate = c.add("自行減量的總成本", fixed + x * unit, f"{ntd(fixed)} + {num(x)} × {ntd(unit)}", ntd)
    buy = c.add("購買碳權的總成本", x * price, f"{num(x)} × {ntd(price)}", ntd)
    save = c.add("自行減量可節省的金額", buy - abate, f"{ntd(buy)} − {ntd(abate)}", ntd)
    q = (f"{co}今年需要抵換 {num(x)} {T}的排放。方案一是汰換鍋爐自行減量：設備費用 {ntd(fixed)}，每減量 1 公噸另需運轉成本 {ntd(unit)}；"
         f"方案二是直接購買碳權，每公噸 {ntd(price)}。只考慮今年，請問自行減量比購買碳權節省多少錢？（自行減量較貴時為負值）")
    return c.numeric(q, save, ntd(save), {"x": x, "fixed": fixed, "unit": unit, "price": price})


@template(D, "carbon_credits", "carbon_credits_adv1", "進階")
def carbon_credits_adv1(rng: random.Random) -> Problem:
    while True:
        e0 = pick_money(rng, 100_000, 1_000_000, 1_000)
        cut = pick_rate(rng, 2, 8, 0.5)
        allow = pick_money(rng, round(e0 * 0.5), round(e0 * 0.85), 1_000)
        if e0 * (1 - cut) ** 3 > allow * 1.02:
            break
    co = pick_emitter(rng, e0, carbon_fee=True)
    p0 = pick_money(rng, 300, 1_200, 10)
    g = pick_rate(rng, 5, 20, 1)
    c = Chain()
    costs = []
    for t in (1, 2, 3):
        short = c.add(f"第 {t} 年額度缺口", e0 * (1 - cut) ** t - allow, f"{num(e0)} × (1 − {pct(cut, 1)})^{t} − {num(allow)}",
                      lambda x: tons(x, 2))
        cost = c.add(f"第 {t} 年購買成本", short * p0 * (1 + g) ** (t - 1),
                     f"{num(short, 2)} × {ntd(p0)} × (1 + {pct(g, 0)})^{t - 1}", ntd)
        costs.append(cost)
    tot = c.add("三年購買成本合計", sum(costs), " + ".join(ntd(x) for x in costs), ntd)
    q = (f"{co}今年（第 0 年）排放 {num(e0)} {T}，推動節能後預計排放量每年減少 {pct(cut, 1)}（以前一年為基準）。假設主管機關實施總量管制，"
         f"未來每年核配{co}的額度固定為 {num(allow)} 公噸，不足部分須購買碳權（臺灣現行制度為碳費，此為計算假設）。第 1 年碳權價格每公噸 {ntd(p0)}，之後每年上漲 {pct(g, 0)}。"
         f"不考慮折現，請問第 1 至第 3 年購買碳權的總成本是多少？{ASK_MONEY_INT}")
    return c.numeric(q, tot, ntd(tot, 0), {"e0": e0, "cut": cut, "allow": allow, "p0": p0, "g": g})


# ---------------------------------------------------------------- esg_investing


def _pick_weights(rng: random.Random) -> tuple[float, float, float]:
    return rng.choice([(0.4, 0.3, 0.3), (0.3, 0.3, 0.4), (0.35, 0.35, 0.3), (0.5, 0.25, 0.25), (0.3, 0.4, 0.3)])


@template(D, "esg_investing", "esg_investing_basic1", "基礎")
def esg_investing_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    e, s, g = (pick_decimal(rng, 35, 95, 1) for _ in range(3))
    we, ws, wg = _pick_weights(rng)
    c = Chain()
    es = c.add("環境與社會加權分數", e * we + s * ws, f"{e} × {pct(we, 0)} + {s} × {pct(ws, 0)}")
    total = c.add("ESG 綜合分數", es + g * wg, f"{fmt_value(es)} + {g} × {pct(wg, 0)}")
    q = (f"某投信評估{co}：環境（E）{e} 分、社會（S）{s} 分、公司治理（G）{g} 分，權重分別為 {pct(we, 0)}、{pct(ws, 0)}、{pct(wg, 0)}。"
         f"請問{co}的 ESG 綜合分數是多少？{ASK_NUM}")
    return c.numeric(q, total, num(total, 2), {"e": e, "s": s, "g": g, "we": we, "ws": ws, "wg": wg})


@template(D, "esg_investing", "esg_investing_basic2", "基礎")
def esg_investing_basic2(rng: random.Random) -> Problem:
    a, b = pick_companies(rng, 2)
    w = pick_rate(rng, 20, 80, 5)
    ia = pick_decimal(rng, 20, 400, 1)
    ib = pick_decimal(rng, 20, 400, 1)
    c = Chain()
    part = c.add(f"{a}的碳密集度貢獻", w * ia, f"{pct(w, 0)} × {ia}")
    waci = c.add("加權平均碳密集度", part + (1 - w) * ib, f"{fmt_value(part)} + {pct(1 - w, 0)} × {ib}")
    q = (f"一檔永續基金只持有兩檔股票：{a}占 {pct(w, 0)}，碳密集度為每百萬元營收 {ia} {T}；{b}占 {pct(1 - w, 0)}，碳密集度 {ib}。"
         f"請問基金的加權平均碳密集度是每百萬元營收多少{T}？{ASK_NUM}")
    return c.numeric(q, waci, num(waci, 2), {"w": w, "ia": ia, "ib": ib})


ESG_BANDS = ((60, "落後"), (75, "中等"), (101, "領先"))


@template(D, "esg_investing", "esg_investing_inter1", "中級")
def esg_investing_inter1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    we, ws, wg = _pick_weights(rng)
    while True:
        e, s, g = (pick_decimal(rng, 40, 98, 1) for _ in range(3))
        ded = rng.choice([0, 2, 3, 5, 8])
        score = e * we + s * ws + g * wg - ded
        if all(abs(score - b) >= 0.3 for b, _ in ESG_BANDS):
            break
    c = Chain()
    pe = c.add("環境加權分數", e * we, f"{e} × {pct(we, 0)}")
    ps = c.add("社會加權分數", s * ws, f"{s} × {pct(ws, 0)}")
    pg = c.add("治理加權分數", g * wg, f"{g} × {pct(wg, 0)}")
    total = c.add("扣除爭議事件後總分", pe + ps + pg - ded, f"{fmt_value(pe)} + {fmt_value(ps)} + {fmt_value(pg)} − {ded}")
    label = next(name for bound, name in ESG_BANDS if total < bound)
    c.note("對照等級：未滿 60 分為落後，60 分以上未滿 75 分為中等，75 分以上為領先", label)
    q = (f"某資產管理公司的 ESG 評等方法：環境、社會、治理三面向分數的權重分別為 {pct(we, 0)}、{pct(ws, 0)}、{pct(wg, 0)}，"
         f"加權後再扣除爭議事件扣分。總分未滿 60 分為「落後」，60 分以上未滿 75 分為「中等」，75 分以上為「領先」。"
         f"{co}的環境 {e} 分、社會 {s} 分、治理 {g} 分，爭議事件扣 {ded} 分。請問{co}的 ESG 等級為何？（請回答落後、中等或領先）")
    return c.categorical(q, label, {"e": e, "s": s, "g": g, "we": we, "ws": ws, "wg": wg, "ded": ded})


@template(D, "esg_investing", "esg_investing_inter2", "中級")
def esg_investing_inter2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    p = pick_money(rng, 100_000, 5_000_000, 10_000)
    r_esg = pick_rate(rng, 4, 10, 0.1)
    r_con = pick_rate(rng, 4, 10, 0.1)
    if r_con == r_esg:
        r_con = round(r_con + 0.003, 10)
    n = rng.randint(3, 15)
    c = Chain()
    a = c.add("ESG 基金期末價值", p * (1 + r_esg) ** n, f"{ntd(p)} × (1 + {pct(r_esg, 1)})^{n}", ntd)
    b = c.add("傳統基金期末價值", p * (1 + r_con) ** n, f"{ntd(p)} × (1 + {pct(r_con, 1)})^{n}", ntd)
    d = c.add("兩者差額", a - b, f"{ntd(a)} − {ntd(b)}", ntd)
    q = (f"{who}比較兩檔基金：ESG 主題基金過去的年化報酬率 {pct(r_esg, 1)}，同類型傳統基金 {pct(r_con, 1)}。若兩者都投入 {ntd(p)}，"
         f"且未來 {n} 年維持相同年化報酬率、每年複利，請問 ESG 基金的期末價值比傳統基金多多少？{ask(0, '新臺幣元', '較少時為負值')}")
    return c.numeric(q, d, ntd(d, 0), {"p": p, "r_esg": r_esg, "r_con": r_con, "n": n})


@template(D, "esg_investing", "esg_investing_adv1", "進階")
def esg_investing_adv1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    fcf = pick_money(rng, 50_000_000, 2_000_000_000, 1_000_000)
    wacc = pick_rate(rng, 7, 11, 0.1)
    bps = rng.choice([10, 20, 25, 30, 40, 50])
    g = pick_rate(rng, 1, 3, 0.25)
    c = Chain()
    w2 = c.add("ESG 調整後資金成本", wacc - bps / 10_000, f"{pct(wacc, 1)} − {bps} 個基點", pct)
    v0 = c.add("調整前企業價值", fcf / (wacc - g), f"{ntd(fcf)} ÷ ({pct(wacc, 1)} − {pct(g)})", ntd)
    v1 = c.add("調整後企業價值", fcf / (w2 - g), f"{ntd(fcf)} ÷ ({pct(w2)} − {pct(g)})", ntd)
    up = c.add("企業價值增加金額", v1 - v0, f"{ntd(v1)} − {ntd(v0)}", ntd)
    upp = c.add("企業價值增加幅度", up / v0, f"{ntd(up)} ÷ {ntd(v0)}", pct)
    q = (f"分析師以成長型永續年金評價{co}：下一年度自由現金流量 {ntd(fcf)}，永續成長率 {pct(g)}，目前加權平均資金成本 {pct(wacc, 1)}。"
         f"{co}的 ESG 表現改善後，分析師認為其資金成本可調降 {bps} 個基點（1 個基點 = 0.01%）。"
         f"請問企業價值增加的幅度是多少？{ASK_PCT}")
    return c.numeric(q, upp, pct(upp), {"fcf": fcf, "wacc": wacc, "bps": bps, "g": g})


# ---------------------------------------------------------------- green_bonds


@template(D, "green_bonds", "green_bonds_basic1", "基礎")
def green_bonds_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    face = pick_money(rng, 500_000_000, 10_000_000_000, 100_000_000)
    cr = pick_rate(rng, 1, 3.5, 0.05)
    c = Chain()
    annual = c.add("每年利息", face * cr, f"{ntd(face)} × {pct(cr)}", ntd)
    semi = c.add("每半年付息金額", annual / 2, f"{ntd(annual)} ÷ 2", ntd)
    q = (f"{co}發行綠色債券 {ntd(face)}，票面利率 {pct(cr)}，每半年付息一次。請問每次應支付的利息是多少？")
    return c.numeric(q, semi, ntd(semi), {"face": face, "cr": cr})


@template(D, "green_bonds", "green_bonds_basic2", "基礎")
def green_bonds_basic2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    face = pick_money(rng, 1_000_000_000, 20_000_000_000, 100_000_000)
    yc = pick_rate(rng, 1.5, 4, 0.01)
    gbps = rng.randint(3, 25)
    yg = round(yc - gbps / 10_000, 10)
    c = Chain()
    gr = c.add("綠色溢價", yc - yg, f"{pct(yc)} − {pct(yg)}", pct)
    save = c.add("每年節省的利息", face * gr, f"{ntd(face)} × {pct(gr)}", ntd)
    q = (f"{co}同時評估兩種 5 年期籌資：一般公司債殖利率 {pct(yc)}，綠色債券殖利率 {pct(yg)}。若以綠色債券發行 {ntd(face)}"
         f"（票面利率等於殖利率），請問每年可比一般公司債少付多少利息？")
    return c.numeric(q, save, ntd(save), {"face": face, "yc": yc, "yg": yg})


@template(D, "green_bonds", "green_bonds_inter1", "中級")
def green_bonds_inter1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    face = 100_000
    cr = pick_rate(rng, 1, 4, 0.125)
    y = pick_rate(rng, 1, 4.5, 0.05)
    n = rng.randint(3, 10)
    c = Chain()
    pv_c = c.add("利息現值", face * cr * (1 - (1 + y) ** -n) / y, f"{ntd(face * cr)} × [1 − (1 + {pct(y)})^−{n}] ÷ {pct(y)}", ntd)
    pv_f = c.add("本金現值", face / (1 + y) ** n, f"{ntd(face)} ÷ (1 + {pct(y)})^{n}", ntd)
    price = c.add("債券價格", pv_c + pv_f, f"{ntd(pv_c)} + {ntd(pv_f)}", ntd)
    q = (f"{co}發行的 {n} 年期綠色債券每張面額 {ntd(face)}，票面利率 {pct(cr, 3)}，每年付息一次。若市場殖利率為 {pct(y)}，"
         f"請問每張債券的價格是多少？{ASK_MONEY}")
    return c.numeric(q, price, ntd(price, 2), {"face": face, "cr": cr, "y": y, "n": n})


@template(D, "green_bonds", "green_bonds_inter2", "中級")
def green_bonds_inter2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    proceeds = pick_money(rng, 500_000_000, 10_000_000_000, 100_000_000)
    cost_mw = pick_money(rng, 30_000_000, 60_000_000, 1_000_000)
    cf = pick_rate(rng, 12, 20, 0.5)
    ef = pick_decimal(rng, 0.45, 0.55, 3)
    c = Chain()
    mw = c.add("可建置裝置容量", proceeds / cost_mw, f"{ntd(proceeds)} ÷ {ntd(cost_mw)}", lambda x: num(x, 2) + " MW")
    mwh = c.add("年發電量", mw * 8760 * cf, f"{num(mw, 2)} × 8,760 × {pct(cf, 1)}", lambda x: num(x, 2) + " MWh")
    avoided = c.add("每年避免排放量", mwh * 1000 * ef / 1000, f"{num(mwh, 2)} × 1,000 × {ef} ÷ 1,000", lambda x: tons(x, 2))
    per = c.add("每百萬元募集資金的年減碳量", avoided / (proceeds / 1_000_000), f"{num(avoided, 2)} ÷ {num(proceeds / 1_000_000)}",
                lambda x: tons(x, 4))
    q = (f"{co}發行綠色債券募得 {ntd(proceeds)}，全數投入太陽光電，每 MW 建置成本 {ntd(cost_mw)}，容量因數 {pct(cf, 1)}（一年以 8,760 小時計）。"
         f"假設電力排碳係數為每度 {ef} 公斤二氧化碳當量（1 MWh = 1,000 度）。請問每百萬元募集資金每年可避免多少{T}的排放？"
         f"{ask(4)}")
    return c.numeric(q, per, num(per, 4), {"proceeds": proceeds, "cost_mw": cost_mw, "cf": cf, "ef": ef})


@template(D, "green_bonds", "green_bonds_adv1", "進階")
def green_bonds_adv1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    face = 100_000
    n = rng.randint(3, 10)
    yc = pick_rate(rng, 1.5, 4, 0.05)
    gbps = rng.choice([5, 8, 10, 12, 15, 20])
    yg = round(yc - gbps / 10_000, 10)
    cr = yc  # coupon set at the conventional market yield
    units = pick_money(rng, 5_000, 100_000, 1_000)
    c = Chain()
    c.add("綠色債券殖利率", yg, f"{pct(yc)} − {gbps} 個基點", pct)
    # At the conventional yield the coupon equals the yield, so that price is the face value (a given, not a step).
    cpn = c.add("每張每年債息", face * cr, f"{ntd(face)} × {pct(cr)}", ntd)
    p_g = c.add("以綠色債券殖利率計算的價格", bond_price(face, cr, yg, n),
                f"{ntd(cpn)} × [1 − (1 + {pct(yg)})^−{n}] ÷ {pct(yg)} + {ntd(face)} ÷ (1 + {pct(yg)})^{n}", ntd)
    diff = c.add("每張多募得的金額", p_g - face, f"{ntd(p_g)} − 面額 {ntd(face)}", ntd)
    extra = c.add("整體多募得的金額", diff * units, f"{ntd(diff)} × {num(units)}", ntd)
    q = (f"{co}發行 {n} 年期綠色債券 {num(units)} 張，每張面額 {ntd(face)}，票面利率 {pct(cr)}（等於同時發行的一般公司債殖利率，故按一般公司債殖利率發行時價格等於面額），每年付息一次。"
         f"因投資人對綠色債券需求強，實際發行殖利率比一般公司債低 {gbps} 個基點（1 個基點 = 0.01%）。"
         f"請問與按一般公司債殖利率發行相比，{co}整體多募得多少資金？{ASK_MONEY_INT}")
    return c.numeric(q, extra, ntd(extra, 0), {"face": face, "n": n, "yc": yc, "gbps": gbps, "units": units})


# ---------------------------------------------------------------- social_impact_investing


@template(D, "social_impact_investing", "social_impact_investing_basic1", "基礎")
def social_impact_investing_basic1(rng: random.Random) -> Problem:
    org = pick_org(rng, "社會企業")
    inv = pick_money(rng, 1_000_000, 30_000_000, 100_000)
    n = pick_money(rng, 100, 5_000, 10)
    s = pick_rate(rng, 30, 90, 1)
    c = Chain()
    ok = c.add("成功就業人數", n * s, f"{num(n)} × {pct(s, 0)}", lambda x: fmt_value(x) + " 人")
    cost = c.add("每位成功就業者的成本", inv / ok, f"{ntd(inv)} ÷ {fmt_value(ok)}", ntd)
    q = (f"影響力投資人投入 {ntd(inv)} 支持{org}的職業訓練計畫，共有 {num(n)} 位弱勢青年參加，其中 {pct(s, 0)} 成功就業。"
         f"請問每位成功就業者平均花費多少？{ASK_MONEY}")
    return c.numeric(q, cost, ntd(cost, 2), {"inv": inv, "n": n, "s": s})


@template(D, "social_impact_investing", "social_impact_investing_basic2", "基礎")
def social_impact_investing_basic2(rng: random.Random) -> Problem:
    org = pick_org(rng, "長照協會")
    inv = pick_money(rng, 2_000_000, 50_000_000, 100_000)
    val = pick_money(rng, round(inv * 0.8), round(inv * 5), 100_000)
    c = Chain()
    c.add("淨社會價值", val - inv, f"{ntd(val)} − {ntd(inv)}", ntd)
    sroi = c.add("社會投資報酬率", val / inv, f"{ntd(val)} ÷ {ntd(inv)}")
    q = (f"{org}計畫投入 {ntd(inv)}，評估後產生的社會價值（已折現）為 {ntd(val)}。先算出淨社會價值，"
         f"再以「社會價值 ÷ 投入金額」計算社會投資報酬率（SROI）。請問 SROI 是多少？{ask(2, note='例如 2.35 代表每投入 1 元創造 2.35 元')}")
    return c.numeric(q, sroi, num(sroi, 2), {"inv": inv, "val": val})


@template(D, "social_impact_investing", "social_impact_investing_inter1", "中級")
def social_impact_investing_inter1(rng: random.Random) -> Problem:
    org = pick_org(rng, "食物銀行")
    inv = pick_money(rng, 1_000_000, 20_000_000, 100_000)
    vals = [pick_money(rng, round(inv * 0.2), round(inv * 0.9), 10_000) for _ in range(3)]
    r = pick_rate(rng, 3, 6, 0.5)
    c = Chain()
    pv = c.add("社會價值現值", sum(v / (1 + r) ** t for t, v in enumerate(vals, 1)),
               " + ".join(f"{ntd(v)} ÷ (1 + {pct(r, 1)})^{t}" for t, v in enumerate(vals, 1)), ntd)
    c.add("淨社會價值現值", pv - inv, f"{ntd(pv)} − {ntd(inv)}", ntd)
    sroi = c.add("社會投資報酬率", pv / inv, f"{ntd(pv)} ÷ {ntd(inv)}")
    q = (f"{org}擴點計畫期初投入 {ntd(inv)}，預估第 1、2、3 年年底分別產生社會價值 {'、'.join(ntd(v) for v in vals)}。"
         f"以 {pct(r, 1)} 折現，請問社會投資報酬率（SROI，社會價值現值 ÷ 投入金額）是多少？{ASK_NUM}")
    return c.numeric(q, sroi, num(sroi, 2), {"inv": inv, "vals": vals, "r": r})


@template(D, "social_impact_investing", "social_impact_investing_inter2", "中級")
def social_impact_investing_inter2(rng: random.Random) -> Problem:
    gov = "某縣市政府"
    principal = pick_money(rng, 10_000_000, 200_000_000, 1_000_000)
    target = pick_rate(rng, 5, 15, 1)
    actual = pick_rate(rng, target * 100, target * 100 + 10, 1)
    base = pick_rate(rng, 2, 5, 0.5)
    bonus = pick_rate(rng, 0.2, 1, 0.1)
    n = rng.randint(3, 6)
    c = Chain()
    pts = c.add("超過目標的百分點數", (actual - target) * 100, f"({pct(actual, 0)} − {pct(target, 0)}) × 100")
    rate = c.add("總報酬率", base + bonus * pts, f"{pct(base, 1)} + {pct(bonus, 1)} × {fmt_value(pts)}", pct)
    c.add("政府支付總額", principal * (1 + rate), f"{ntd(principal)} × (1 + {pct(rate)})", ntd)
    ann = c.add("年化報酬率", (1 + rate) ** (1 / n) - 1, f"(1 + {pct(rate)})^(1/{n}) − 1", pct)
    q = (f"{gov}以社會效益債券推動更生人就業計畫，投資人提供 {ntd(principal)}，期間 {n} 年。合約約定：再犯率降幅達到目標 {pct(target, 0)} 時，"
         f"政府到期支付本金加上 {pct(base, 1)} 的總報酬；降幅每超過目標 1 個百分點，總報酬再加 {pct(bonus, 1)}。"
         f"實際再犯率降幅為 {pct(actual, 0)}，請問投資人的年化報酬率是多少？{ASK_PCT}")
    return c.numeric(q, ann, pct(ann), {"principal": principal, "target": target, "actual": actual, "base": base,
                                        "bonus": bonus, "n": n})


@template(D, "social_impact_investing", "social_impact_investing_adv1", "進階")
def social_impact_investing_adv1(rng: random.Random) -> Problem:
    org = pick_org(rng, "教育基金會")
    inv = pick_money(rng, 2_000_000, 30_000_000, 100_000)
    gross = pick_money(rng, round(inv * 0.4), round(inv * 1.5), 10_000)
    dw = pick_rate(rng, 5, 30, 1)
    att = pick_rate(rng, 10, 40, 1)
    drop = pick_rate(rng, 10, 40, 1)
    r = pick_rate(rng, 3, 5, 0.5)
    c = Chain()
    y1 = c.add("第 1 年調整後價值", gross * (1 - dw) * (1 - att), f"{ntd(gross)} × (1 − {pct(dw, 0)}) × (1 − {pct(att, 0)})", ntd)
    y2 = c.add("第 2 年調整後價值", y1 * (1 - drop), f"{ntd(y1)} × (1 − {pct(drop, 0)})", ntd)
    y3 = c.add("第 3 年調整後價值", y2 * (1 - drop), f"{ntd(y2)} × (1 − {pct(drop, 0)})", ntd)
    pv = c.add("三年價值現值", y1 / (1 + r) + y2 / (1 + r) ** 2 + y3 / (1 + r) ** 3,
               f"{ntd(y1)} ÷ (1 + {pct(r, 1)}) + {ntd(y2)} ÷ (1 + {pct(r, 1)})^2 + {ntd(y3)} ÷ (1 + {pct(r, 1)})^3", ntd)
    sroi = c.add("社會投資報酬率", pv / inv, f"{ntd(pv)} ÷ {ntd(inv)}")
    q = (f"{org}投入 {ntd(inv)} 推動課輔計畫，預估第 1 年產生的成果價值（未調整）為 {ntd(gross)}。依社會投資報酬分析的慣例調整："
         f"無論有無計畫都會發生的部分（無謂因子）占 {pct(dw, 0)}，應歸功於其他單位的部分（歸因）占 {pct(att, 0)}；之後成果每年衰減 "
         f"{pct(drop, 0)}，只計 3 年，各年價值於年底發生，折現率 {pct(r, 1)}。請問社會投資報酬率（SROI）是多少？{ASK_NUM}")
    return c.numeric(q, sroi, num(sroi, 2), {"inv": inv, "gross": gross, "dw": dw, "att": att, "drop": drop, "r": r})


# ---------------------------------------------------------------- sustainability_reporting


@template(D, "sustainability_reporting", "sustainability_reporting_basic1", "基礎")
def sustainability_reporting_basic1(rng: random.Random) -> Problem:
    fuel = pick_money(rng, 10_000, 2_000_000, 100)
    ef_f = pick_decimal(rng, 2.2, 2.8, 3)
    kwh = pick_money(rng, 100_000, 50_000_000, 1_000)
    ef_e = pick_decimal(rng, 0.45, 0.55, 3)
    c = Chain()
    s1 = c.add("範疇一排放量", fuel * ef_f / 1000, f"{num(fuel)} × {ef_f} ÷ 1,000", lambda x: tons(x, 2))
    total = c.add("範疇一與範疇二合計", s1 + kwh * ef_e / 1000, f"{num(s1, 2)} + {num(kwh)} × {ef_e} ÷ 1,000", lambda x: tons(x, 2))
    co = pick_emitter(rng, total)
    q = (f"{co}去年公務車與鍋爐共使用柴油 {num(fuel)} 公升，排放係數每公升 {ef_f} 公斤二氧化碳當量；外購電力 {num(kwh)} 度，"
         f"假設電力排碳係數為每度 {ef_e} 公斤二氧化碳當量。請問範疇一與範疇二排放量合計多少{T}？{ASK_NUM}")
    return c.numeric(q, total, num(total, 2), {"fuel": fuel, "ef_f": ef_f, "kwh": kwh, "ef_e": ef_e})


@template(D, "sustainability_reporting", "sustainability_reporting_basic2", "基礎")
def sustainability_reporting_basic2(rng: random.Random) -> Problem:
    emis = pick_money(rng, 1_000, 800_000, 10)
    co = pick_emitter(rng, emis)
    rev = pick_money(rng, 500_000_000, 200_000_000_000, 10_000_000)
    c = Chain()
    m = c.add("營業收入（百萬元）", rev / 1_000_000, f"{ntd(rev)} ÷ 1,000,000", lambda x: num(x, 2))
    inten = c.add("排放密集度", emis / m, f"{num(emis)} ÷ {num(m, 2)}", lambda x: num(x, 4))
    q = (f"{co}永續報告書揭露：去年溫室氣體排放量 {num(emis)} {T}，營業收入 {ntd(rev)}。"
         f"請問每百萬元營業收入的排放密集度是多少{T}？{ask(4)}")
    return c.numeric(q, inten, num(inten, 4), {"emis": emis, "rev": rev})


@template(D, "sustainability_reporting", "sustainability_reporting_inter1", "中級")
def sustainability_reporting_inter1(rng: random.Random) -> Problem:
    kwh = pick_money(rng, 1_000_000, 100_000_000, 1_000)
    rec = pick_money(rng, 0, round(kwh * 0.6), 1_000)
    ef = pick_decimal(rng, 0.45, 0.55, 3)
    co = pick_emitter(rng, kwh * ef / 1000)
    c = Chain()
    loc = c.add("地點基礎範疇二排放量", kwh * ef / 1000, f"{num(kwh)} × {ef} ÷ 1,000", lambda x: tons(x, 2))
    mkt = c.add("市場基礎範疇二排放量", (kwh - rec) * ef / 1000, f"({num(kwh)} − {num(rec)}) × {ef} ÷ 1,000", lambda x: tons(x, 2))
    red = c.add("再生能源憑證帶來的減量比例", 1 - mkt / loc, f"1 − {num(mkt, 2)} ÷ {num(loc, 2)}", pct)
    q = (f"{co}去年用電 {num(kwh)} 度，其中 {num(rec)} 度有購買再生能源憑證。假設電力排碳係數為每度 {ef} 公斤二氧化碳當量，"
         f"持有憑證的用電在市場基礎法下排放為 0。請問市場基礎的範疇二排放量比地點基礎少了多少比例？{ASK_PCT}")
    return c.numeric(q, red, pct(red), {"kwh": kwh, "rec": rec, "ef": ef})


@template(D, "sustainability_reporting", "sustainability_reporting_inter2", "中級")
def sustainability_reporting_inter2(rng: random.Random) -> Problem:
    while True:
        e0 = pick_money(rng, 10_000, 1_000_000, 100)
        target = pick_rate(rng, 5, 30, 1)
        e1 = pick_money(rng, round(e0 * (1 - target - 0.1)), round(e0 * (1 - target + 0.08)), 100)
        if abs(1 - e1 / e0 - target) > 0.001:
            break
    co = pick_emitter(rng, max(e0, e1))
    c = Chain()
    red = c.add("減排量", e0 - e1, f"{num(e0)} − {num(e1)}", lambda x: tons(x))
    rate = c.add("相對基準年的減排比例", red / e0, f"{num(red)} ÷ {num(e0)}", pct)
    gap = c.add("減排比例減目標", rate - target, f"{pct(rate)} − {pct(target, 0)}", pct)
    ans = "是" if gap >= 0 else "否"
    c.note("差額不為負即達標，是否達成今年的減碳目標", ans)
    q = (f"{co}以基準年排放量 {num(e0)} {T}設定減碳目標：今年排放量須比基準年減少 {pct(target, 0)}。今年實際排放量為 {num(e1)} 公噸。"
         f"請問{co}今年是否達成減碳目標？（請回答是或否）")
    return c.categorical(q, ans, {"e0": e0, "target": target, "e1": e1})


@template(D, "sustainability_reporting", "sustainability_reporting_adv1", "進階")
def sustainability_reporting_adv1(rng: random.Random) -> Problem:
    e0 = pick_money(rng, 20_000, 2_000_000, 1_000)
    total_cut = pick_rate(rng, 25, 50, 1)
    years = rng.choice([8, 9, 10, 12])
    k = rng.randint(2, years - 3)
    e_now = pick_money(rng, round(e0 * (1 - total_cut * k / years - 0.05)), round(e0 * (1 - total_cut * k / years + 0.08)), 100)
    co = pick_emitter(rng, max(e0, e_now))
    c = Chain()
    path = c.add("今年依線性路徑應有的排放量", e0 * (1 - total_cut * k / years),
                 f"{num(e0)} × (1 − {pct(total_cut, 0)} × {k} ÷ {years})", lambda x: tons(x, 2))
    c.add("實際排放減線性路徑排放量", e_now - path, f"{num(e_now)} − {num(path, 2)}", lambda x: tons(x, 2))
    end = c.add("目標年排放上限", e0 * (1 - total_cut), f"{num(e0)} × (1 − {pct(total_cut, 0)})", lambda x: tons(x, 2))
    left = c.add("剩餘年數", years - k, f"{years} − {k}")
    need = c.add("今後每年需減少的排放量", (e_now - end) / left, f"({num(e_now)} − {num(end, 2)}) ÷ {int(left)}", lambda x: tons(x, 2))
    q = (f"{co}以基準年排放量 {num(e0)} {T}設定目標：{years} 年後排放量比基準年減少 {pct(total_cut, 0)}，中間各年依線性路徑遞減。"
         f"現在是基準年後第 {k} 年，今年實際排放 {num(e_now)} 公噸。請先比較今年實際排放與線性路徑，"
         f"再計算：若要在目標年達標，今後每年需平均減少多少{T}？{ASK_NUM}")
    return c.numeric(q, need, num(need, 2), {"e0": e0, "total_cut": total_cut, "years": years, "k": k, "e_now": e_now})

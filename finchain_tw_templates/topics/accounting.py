"""會計與財務報導 (accounting): balance_sheets, cash_flow_statements, depreciation_and_amortization,
income_statements. Our own zh-TW templates; formulas are standard accounting identities."""

from __future__ import annotations

import random

from finchain_tw_templates.common import (
    ASK_MONEY,
    ASK_PCT,
    TW_CORPORATE_TAX,
    Chain,
    ntd,
    pct,
    pick_company,
    pick_money,
    pick_rate,
    pick_year,
    plus,
)
from finchain_tw_templates.core import Problem, template

D = "accounting"



# ---------------------------------------------------------------- balance_sheets


@template(D, "balance_sheets", "balance_sheets_basic1", "基礎")
def bs_basic1(rng: random.Random) -> Problem:
    co, y = pick_company(rng), pick_year(rng)
    ca = pick_money(rng, 80_000_000, 600_000_000, 100_000)
    nca = pick_money(rng, 200_000_000, 1_500_000_000, 100_000)
    tl = pick_money(rng, int((ca + nca) * 0.2), int((ca + nca) * 0.8), 1_000)
    q = (f"{co}公司 {y} 年底的資產負債表顯示：流動資產 {ntd(ca)}，非流動資產 {ntd(nca)}，"
         f"負債總額 {ntd(tl)}。請依會計恆等式計算該公司的權益總額。{ASK_MONEY}")
    c = Chain()
    ta = c.add("資產總額", ca + nca, f"流動資產 + 非流動資產 = {ntd(ca)} + {ntd(nca)}", ntd)
    eq = c.add("權益總額", ta - tl, f"資產總額 − 負債總額 = {ntd(ta)} − {ntd(tl)}", ntd)
    return c.numeric(q, eq, ntd(eq), params={"ca": ca, "nca": nca, "tl": tl})


@template(D, "balance_sheets", "balance_sheets_basic2", "基礎")
def bs_basic2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    cash = pick_money(rng, 10_000_000, 90_000_000, 100_000)
    ar = pick_money(rng, 15_000_000, 120_000_000, 100_000)
    inv = pick_money(rng, 20_000_000, 150_000_000, 100_000)
    cl = pick_money(rng, 20_000_000, int((cash + ar + inv) * 0.9), 100_000)
    q = (f"{co}公司期末的流動資產包括現金 {ntd(cash)}、應收帳款 {ntd(ar)} 及存貨 {ntd(inv)}，"
         f"流動負債合計 {ntd(cl)}。請計算該公司的營運資金。{ASK_MONEY}")
    c = Chain()
    ca = c.add("流動資產", cash + ar + inv, f"現金 + 應收帳款 + 存貨 = {ntd(cash)} + {ntd(ar)} + {ntd(inv)}", ntd)
    wc = c.add("營運資金", ca - cl, f"流動資產 − 流動負債 = {ntd(ca)} − {ntd(cl)}", ntd)
    return c.numeric(q, wc, ntd(wc), params={"cash": cash, "ar": ar, "inv": inv, "cl": cl})


@template(D, "balance_sheets", "balance_sheets_intermediate1", "中級")
def bs_inter1(rng: random.Random) -> Problem:
    co, y = pick_company(rng), pick_year(rng)
    cash = pick_money(rng, 20_000_000, 200_000_000, 100_000)
    ar = pick_money(rng, 30_000_000, 250_000_000, 100_000)
    ppe = pick_money(rng, 300_000_000, 1_200_000_000, 100_000)
    ap = pick_money(rng, 20_000_000, 150_000_000, 100_000)
    room = cash + ar + ppe - ap  # keeps equity positive
    ltd = pick_money(rng, int(room * 0.1), int(room * 0.7), 100_000)
    q = (f"{co}公司 {y} 年 12 月 31 日的帳上資料如下：現金 {ntd(cash)}、應收帳款 {ntd(ar)}、"
         f"不動產、廠房及設備淨額 {ntd(ppe)}、應付帳款 {ntd(ap)}、長期借款 {ntd(ltd)}。"
         f"請計算該公司的負債比率（負債總額 ÷ 資產總額）。{ASK_PCT}")
    c = Chain()
    ta = c.add("資產總額", cash + ar + ppe, f"{ntd(cash)} + {ntd(ar)} + {ntd(ppe)}", ntd)
    tl = c.add("負債總額", ap + ltd, f"應付帳款 + 長期借款 = {ntd(ap)} + {ntd(ltd)}", ntd)
    c.add("權益總額", ta - tl, f"資產總額 − 負債總額 = {ntd(ta)} − {ntd(tl)}", ntd)
    ratio = c.add("負債比率", tl / ta, f"負債總額 ÷ 資產總額 = {ntd(tl)} ÷ {ntd(ta)}", pct)
    return c.numeric(q, ratio, pct(ratio), params={"cash": cash, "ar": ar, "ppe": ppe, "ap": ap, "ltd": ltd})


@template(D, "balance_sheets", "balance_sheets_intermediate2", "中級")
def bs_inter2(rng: random.Random) -> Problem:
    co, y = pick_company(rng), pick_year(rng)
    eq0 = pick_money(rng, 500_000_000, 3_000_000_000, 1_000_000)
    ni = pick_money(rng, 50_000_000, 400_000_000, 1_000_000)
    div = pick_money(rng, 10_000_000, int(ni * 0.8), 1_000_000)
    issue = pick_money(rng, 10_000_000, 300_000_000, 10_000_000)
    q = (f"{co}公司 {y} 年初權益總額為 {ntd(eq0)}。當年度本期淨利 {ntd(ni)}，發放現金股利 {ntd(div)}，"
         f"並辦理現金增資 {ntd(issue)}，無其他權益變動。請計算該公司權益總額的年成長率。{ASK_PCT}")
    c = Chain()
    re = c.add("保留盈餘增加數", ni - div, f"本期淨利 − 現金股利 = {ntd(ni)} − {ntd(div)}", ntd)
    eq1 = c.add("年底權益總額", eq0 + re + issue, f"{ntd(eq0)} + {ntd(re)} + {ntd(issue)}", ntd)
    g = c.add("權益成長率", (eq1 - eq0) / eq0, f"（{ntd(eq1)} − {ntd(eq0)}）÷ {ntd(eq0)}", pct)
    return c.numeric(q, g, pct(g), params={"eq0": eq0, "ni": ni, "div": div, "issue": issue})


@template(D, "balance_sheets", "balance_sheets_advanced1", "進階")
def bs_adv1(rng: random.Random) -> Problem:
    co, y = pick_company(rng), pick_year(rng)
    cash = pick_money(rng, 30_000_000, 300_000_000, 100_000)
    ar = pick_money(rng, 40_000_000, 300_000_000, 100_000)
    inv = pick_money(rng, 50_000_000, 400_000_000, 100_000)
    ppe = pick_money(rng, 400_000_000, 2_000_000_000, 1_000_000)
    ap = pick_money(rng, 30_000_000, 200_000_000, 100_000)
    stl = pick_money(rng, 20_000_000, 200_000_000, 100_000)
    # keep equity positive: long-term debt is 10%–60% of what assets leave after current liabilities
    room = cash + ar + inv + ppe - ap - stl
    ltd = pick_money(rng, int(room * 0.1), int(room * 0.6), 1_000_000)
    q = (f"{co}公司 {y} 年底資產負債表摘要：現金 {ntd(cash)}、應收帳款 {ntd(ar)}、存貨 {ntd(inv)}、"
         f"不動產、廠房及設備淨額 {ntd(ppe)}；應付帳款 {ntd(ap)}、短期借款 {ntd(stl)}、長期借款 {ntd(ltd)}。"
         f"請依序計算流動資產、流動負債、營運資金、資產總額與權益總額，最後求出負債權益比"
         f"（負債總額 ÷ 權益總額，以倍數表示，四捨五入至小數點後第 2 位）。")
    c = Chain()
    ca = c.add("流動資產", cash + ar + inv, f"{ntd(cash)} + {ntd(ar)} + {ntd(inv)}", ntd)
    cl = c.add("流動負債", ap + stl, f"{ntd(ap)} + {ntd(stl)}", ntd)
    c.add("營運資金", ca - cl, f"流動資產 − 流動負債 = {ntd(ca)} − {ntd(cl)}", ntd)
    ta = c.add("資產總額", ca + ppe, f"流動資產 + 不動產、廠房及設備淨額 = {ntd(ca)} + {ntd(ppe)}", ntd)
    tl = cl + ltd
    eq = c.add("權益總額", ta - tl, f"資產總額 − 流動負債 − 長期借款 = {ntd(ta)} − {ntd(cl)} − {ntd(ltd)}", ntd)
    de = c.add("負債權益比", tl / eq, f"（{ntd(cl)} + {ntd(ltd)}）÷ {ntd(eq)}", lambda v: f"{v:.4f} 倍")
    return c.numeric(q, de, f"{de:.2f}",
                     params={"cash": cash, "ar": ar, "inv": inv, "ppe": ppe, "ap": ap, "stl": stl, "ltd": ltd})


# ---------------------------------------------------------------- cash_flow_statements


@template(D, "cash_flow_statements", "cash_flow_statements_basic1", "基礎")
def cf_basic1(rng: random.Random) -> Problem:
    co, y = pick_company(rng), pick_year(rng)
    cfo = pick_money(rng, 10_000_000, 200_000_000, 100_000)
    capex = pick_money(rng, 2_000_000, int(cfo * 1.2), 100_000)
    q = (f"{co}公司 {y} 年度營業活動之淨現金流入為 {ntd(cfo)}，當年度購置不動產、廠房及設備支付現金 "
         f"{ntd(capex)}。請計算該公司當年度的自由現金流量。{ASK_MONEY}")
    c = Chain()
    fcf = c.add("自由現金流量", cfo - capex, f"營業活動之淨現金流入 − 資本支出 = {ntd(cfo)} − {ntd(capex)}", ntd)
    return c.numeric(q, fcf, ntd(fcf), params={"cfo": cfo, "capex": capex})


@template(D, "cash_flow_statements", "cash_flow_statements_basic2", "基礎")
def cf_basic2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    cfo = pick_money(rng, 5_000_000, 80_000_000, 10_000)
    cfi = -pick_money(rng, 2_000_000, 60_000_000, 10_000)
    cff = pick_money(rng, -30_000_000, 30_000_000, 10_000)
    begin = pick_money(rng, 5_000_000, 50_000_000, 10_000)
    ff = f"淨現金流入 {ntd(cff)}" if cff >= 0 else f"淨現金流出 {ntd(-cff)}"
    q = (f"{co}公司本年度現金流量表顯示：營業活動之淨現金流入 {ntd(cfo)}，投資活動之淨現金流出 {ntd(-cfi)}，"
         f"籌資活動之{ff}。期初現金及約當現金為 {ntd(begin)}，請計算期末現金及約當現金。{ASK_MONEY}")
    c = Chain()
    net = c.add("本期現金淨變動", cfo + cfi + cff, f"{ntd(cfo)} − {ntd(-cfi)} {'+' if cff >= 0 else '−'} {ntd(abs(cff))}", ntd)
    end = c.add("期末現金及約當現金", begin + net, f"期初現金 + 本期現金淨變動 = {ntd(begin)} {plus(net, ntd)}", ntd)
    return c.numeric(q, end, ntd(end), params={"cfo": cfo, "capex_out": -cfi, "cff_abs": abs(cff), "begin": begin,
                                               "_cff": cff})


@template(D, "cash_flow_statements", "cash_flow_statements_intermediate1", "中級")
def cf_inter1(rng: random.Random) -> Problem:
    co, y = pick_company(rng), pick_year(rng)
    ni = pick_money(rng, 5_000_000, 60_000_000, 10_000)
    dep = pick_money(rng, 1_000_000, 15_000_000, 10_000)
    d_ar = pick_money(rng, 100_000, 8_000_000, 10_000)
    d_inv = pick_money(rng, 100_000, 8_000_000, 10_000)
    d_ap = pick_money(rng, 100_000, 8_000_000, 10_000)
    q = (f"{co}公司 {y} 年度本期淨利為 {ntd(ni)}，折舊費用 {ntd(dep)}；當年度應收帳款增加 {ntd(d_ar)}、"
         f"存貨增加 {ntd(d_inv)}、應付帳款增加 {ntd(d_ap)}。請以間接法計算營業活動之淨現金流量。{ASK_MONEY}")
    c = Chain()
    adj = c.add("加回非現金費用後金額", ni + dep, f"本期淨利 + 折舊 = {ntd(ni)} + {ntd(dep)}", ntd)
    wc = c.add("營運資金變動影響數", -d_ar - d_inv + d_ap,
               f"− 應收帳款增加 − 存貨增加 + 應付帳款增加 = −{ntd(d_ar)} − {ntd(d_inv)} + {ntd(d_ap)}", ntd)
    cfo = c.add("營業活動之淨現金流量", adj + wc, f"{ntd(adj)} {plus(wc, ntd)}", ntd)
    return c.numeric(q, cfo, ntd(cfo), params={"ni": ni, "dep": dep, "d_ar": d_ar, "d_inv": d_inv, "d_ap": d_ap})


@template(D, "cash_flow_statements", "cash_flow_statements_intermediate2", "中級")
def cf_inter2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    cfo = pick_money(rng, 10_000_000, 100_000_000, 10_000)
    capex = pick_money(rng, 5_000_000, 60_000_000, 10_000)
    sale = pick_money(rng, 10_000, 10_000_000, 10_000)
    issue = pick_money(rng, 100_000, 40_000_000, 100_000)
    borrow = pick_money(rng, 100_000, 30_000_000, 100_000)
    repay = pick_money(rng, 100_000, 30_000_000, 100_000)
    div = pick_money(rng, 1_000_000, 20_000_000, 100_000)
    q = (f"{co}公司本年度營業活動之淨現金流入 {ntd(cfo)}。投資活動：購置設備 {ntd(capex)}、處分舊設備收現 "
         f"{ntd(sale)}。籌資活動：現金增資 {ntd(issue)}、舉借長期借款 {ntd(borrow)}、償還借款 {ntd(repay)}、"
         f"發放現金股利 {ntd(div)}。請計算本年度現金及約當現金的淨增加（減少）數，減少以負數表示。{ASK_MONEY}")
    c = Chain()
    cfi = c.add("投資活動之淨現金流量", sale - capex, f"{ntd(sale)} − {ntd(capex)}", ntd)
    cff = c.add("籌資活動之淨現金流量", issue + borrow - repay - div,
                f"{ntd(issue)} + {ntd(borrow)} − {ntd(repay)} − {ntd(div)}", ntd)
    net = c.add("現金及約當現金淨變動", cfo + cfi + cff, f"{ntd(cfo)} {plus(cfi, ntd)} {plus(cff, ntd)}", ntd)
    return c.numeric(q, net, ntd(net), params={"cfo": cfo, "capex": capex, "sale": sale, "issue": issue,
                                               "borrow": borrow, "repay": repay, "div": div})


@template(D, "cash_flow_statements", "cash_flow_statements_advanced1", "進階")
def cf_adv1(rng: random.Random) -> Problem:
    co, y = pick_company(rng), pick_year(rng)
    ni = pick_money(rng, 10_000_000, 80_000_000, 10_000)
    dep = pick_money(rng, 2_000_000, 20_000_000, 10_000)
    amort = pick_money(rng, 500_000, 5_000_000, 10_000)
    d_ar = pick_money(rng, -6_000_000, 9_000_000, 10_000)
    d_inv = pick_money(rng, -6_000_000, 9_000_000, 10_000)
    d_ap = pick_money(rng, -5_000_000, 7_000_000, 10_000)
    capex = pick_money(rng, 5_000_000, 50_000_000, 100_000)
    div = pick_money(rng, 1_000_000, 20_000_000, 100_000)
    begin = pick_money(rng, 10_000_000, 60_000_000, 10_000)

    def chg(name: str, v: int) -> str:
        return f"{name}{'增加' if v >= 0 else '減少'} {ntd(abs(v))}"

    q = (f"{co}公司 {y} 年度資料如下：本期淨利 {ntd(ni)}、折舊費用 {ntd(dep)}、無形資產攤銷 {ntd(amort)}；"
         f"{chg('應收帳款', d_ar)}、{chg('存貨', d_inv)}、{chg('應付帳款', d_ap)}；資本支出 {ntd(capex)}；"
         f"發放現金股利 {ntd(div)}，無其他現金收支。期初現金為 {ntd(begin)}。請以間接法求營業活動之淨現金流量與"
         f"自由現金流量，並計算期末現金餘額。{ASK_MONEY}")
    c = Chain()
    noncash = c.add("非現金費用合計", dep + amort, f"折舊 + 攤銷 = {ntd(dep)} + {ntd(amort)}", ntd)
    wc = c.add("營運資金變動影響數", -d_ar - d_inv + d_ap,
               f"− 應收帳款變動 − 存貨變動 + 應付帳款變動 = {plus(-d_ar, ntd)} {plus(-d_inv, ntd)} {plus(d_ap, ntd)}",
               ntd)
    cfo = c.add("營業活動之淨現金流量", ni + noncash + wc, f"{ntd(ni)} + {ntd(noncash)} {plus(wc, ntd)}", ntd)
    fcf = c.add("自由現金流量", cfo - capex, f"{ntd(cfo)} − {ntd(capex)}", ntd)
    end = c.add("期末現金餘額", begin + fcf - div,
                f"期初現金 + 自由現金流量 − 現金股利 = {ntd(begin)} {plus(fcf, ntd)} − {ntd(div)}", ntd)
    return c.numeric(q, end, ntd(end), params={"ni": ni, "dep": dep, "amort": amort, "d_ar_abs": abs(d_ar),
                                               "d_inv_abs": abs(d_inv), "d_ap_abs": abs(d_ap), "capex": capex,
                                               "div": div, "begin": begin, "_d_ar": d_ar, "_d_inv": d_inv,
                                               "_d_ap": d_ap})


# ---------------------------------------------------------------- depreciation_and_amortization


@template(D, "depreciation_and_amortization", "depreciation_and_amortization_basic1", "基礎")
def da_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    cost = pick_money(rng, 200_000, 5_000_000, 1_000)
    salvage = pick_money(rng, 1_000, int(cost * 0.15), 1_000)
    life = rng.randint(3, 15)
    q = (f"{co}公司購入一部機器設備，成本 {ntd(cost)}，估計殘值 {ntd(salvage)}，耐用年限 {life} 年，"
         f"採直線法提列折舊。請計算每年的折舊費用。{ASK_MONEY}")
    c = Chain()
    base = c.add("應提折舊總額", cost - salvage, f"成本 − 殘值 = {ntd(cost)} − {ntd(salvage)}", ntd)
    dep = c.add("每年折舊費用", base / life, f"{ntd(base)} ÷ {life}", ntd)
    return c.numeric(q, dep, ntd(dep), params={"cost": cost, "salvage": salvage, "life": life})


@template(D, "depreciation_and_amortization", "depreciation_and_amortization_basic2", "基礎")
def da_basic2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    cost = pick_money(rng, 100_000, 3_000_000, 1_000)
    life = rng.randint(5, 20)
    n = rng.randint(1, life - 1)
    q = (f"{co}公司取得一項專利權，成本 {ntd(cost)}，估計經濟效益年限 {life} 年，無殘值，採直線法攤銷。"
         f"請計算第 {n} 年年底該專利權的帳面金額。{ASK_MONEY}")
    c = Chain()
    am = c.add("每年攤銷金額", cost / life, f"{ntd(cost)} ÷ {life}", ntd)
    bv = c.add(f"第 {n} 年底帳面金額", cost - am * n, f"{ntd(cost)} − {ntd(am)} × {n}", ntd)
    return c.numeric(q, bv, ntd(bv), params={"cost": cost, "life": life, "n": n})


@template(D, "depreciation_and_amortization", "depreciation_and_amortization_intermediate1", "中級")
def da_inter1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    cost = pick_money(rng, 300_000, 6_000_000, 1_000)
    life = rng.randint(5, 12)
    salvage = pick_money(rng, 1_000, int(cost * 0.1), 1_000)
    q = (f"{co}公司購入運輸設備，成本 {ntd(cost)}，估計殘值 {ntd(salvage)}，耐用年限 {life} 年，"
         f"採倍數餘額遞減法（折舊率為直線法的 2 倍）提列折舊。請計算第 2 年年底的帳面金額。{ASK_MONEY}")
    c = Chain()
    rate = c.add("折舊率", 2 / life, f"2 ÷ {life}", pct)
    d1 = c.add("第 1 年折舊", cost * rate, f"{ntd(cost)} × {pct(rate, 4)}", ntd)
    d2 = c.add("第 2 年折舊", (cost - d1) * rate, f"（{ntd(cost)} − {ntd(d1)}）× {pct(rate, 4)}", ntd)
    bv = c.add("第 2 年底帳面金額", cost - d1 - d2, f"{ntd(cost)} − {ntd(d1)} − {ntd(d2)}", ntd)
    return c.numeric(q, bv, ntd(bv), params={"cost": cost, "life": life, "salvage": salvage})


@template(D, "depreciation_and_amortization", "depreciation_and_amortization_intermediate2", "中級")
def da_inter2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    cost = pick_money(rng, 300_000, 6_000_000, 1_000)
    salvage = pick_money(rng, 1_000, int(cost * 0.1), 1_000)
    life = rng.randint(4, 10)
    k = rng.randint(2, life)
    q = (f"{co}公司的生產設備成本 {ntd(cost)}，估計殘值 {ntd(salvage)}，耐用年限 {life} 年，"
         f"採年數合計法提列折舊。請計算第 {k} 年的折舊費用。{ASK_MONEY}")
    c = Chain()
    base = c.add("應提折舊總額", cost - salvage, f"{ntd(cost)} − {ntd(salvage)}", ntd)
    syd = c.add("年數合計", life * (life + 1) / 2, f"{life} × （{life} + 1）÷ 2")
    dep = c.add(f"第 {k} 年折舊費用", base * (life - k + 1) / syd, f"{ntd(base)} × {life - k + 1} ÷ {syd:g}", ntd)
    return c.numeric(q, dep, ntd(dep), params={"cost": cost, "salvage": salvage, "life": life, "k": k})


@template(D, "depreciation_and_amortization", "depreciation_and_amortization_advanced1", "進階")
def da_adv1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    cost = pick_money(rng, 500_000, 8_000_000, 1_000)
    salvage = pick_money(rng, 1_000, int(cost * 0.1), 1_000)
    units = pick_money(rng, 100_000, 1_000_000, 10_000)
    used = [pick_money(rng, units // 10, units // 4, 1_000) for _ in range(3)]
    price = pick_money(rng, int(cost * 0.1), int(cost * 0.8), 1_000)
    q = (f"{co}公司購入一台沖壓機，成本 {ntd(cost)}，估計殘值 {ntd(salvage)}，預估總產量 {units:,} 件，"
         f"採生產數量法提列折舊。前 3 年產量分別為 {used[0]:,} 件、{used[1]:,} 件與 {used[2]:,} 件。"
         f"第 3 年年底公司以 {ntd(price)} 將該機器出售。請計算處分利益（損失以負數表示）。{ASK_MONEY}")
    c = Chain()
    per = c.add("每件折舊額", (cost - salvage) / units, f"（{ntd(cost)} − {ntd(salvage)}）÷ {units:,}",
                lambda v: ntd(v, 4))
    tot = c.add("前 3 年累計產量", sum(used), f"{used[0]:,} + {used[1]:,} + {used[2]:,}", lambda v: f"{v:,.0f} 件")
    acc = c.add("累計折舊", per * tot, f"{ntd(per, 4)} × {tot:,.0f}", ntd)
    bv = c.add("出售時帳面金額", cost - acc, f"{ntd(cost)} − {ntd(acc)}", ntd)
    gain = c.add("處分損益", price - bv, f"售價 − 帳面金額 = {ntd(price)} − {ntd(bv)}", ntd)
    return c.numeric(q, gain, ntd(gain), params={"cost": cost, "salvage": salvage, "units": units, "u1": used[0],
                                                 "u2": used[1], "u3": used[2], "price": price})


# ---------------------------------------------------------------- income_statements


@template(D, "income_statements", "income_statements_basic1", "基礎")
def is_basic1(rng: random.Random) -> Problem:
    co, y = pick_company(rng), pick_year(rng)
    rev = pick_money(rng, 20_000_000, 500_000_000, 100_000)
    cogs = pick_money(rng, int(rev * 0.4), int(rev * 0.9), 100_000)
    q = (f"{co}公司 {y} 年度營業收入為 {ntd(rev)}，營業成本為 {ntd(cogs)}。請計算該公司的毛利率。{ASK_PCT}")
    c = Chain()
    gp = c.add("營業毛利", rev - cogs, f"{ntd(rev)} − {ntd(cogs)}", ntd)
    gm = c.add("毛利率", gp / rev, f"營業毛利 ÷ 營業收入 = {ntd(gp)} ÷ {ntd(rev)}", pct)
    return c.numeric(q, gm, pct(gm), params={"rev": rev, "cogs": cogs})


@template(D, "income_statements", "income_statements_basic2", "基礎")
def is_basic2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    rev = pick_money(rng, 20_000_000, 500_000_000, 100_000)
    cogs = pick_money(rng, int(rev * 0.4), int(rev * 0.75), 100_000)
    opex = pick_money(rng, int(rev * 0.05), int(rev * 0.2), 100_000)
    q = (f"{co}公司本年度營業收入 {ntd(rev)}，營業成本 {ntd(cogs)}，推銷、管理及研究發展費用合計 {ntd(opex)}。"
         f"請計算該公司本年度的營業利益。{ASK_MONEY}")
    c = Chain()
    gp = c.add("營業毛利", rev - cogs, f"{ntd(rev)} − {ntd(cogs)}", ntd)
    oi = c.add("營業利益", gp - opex, f"營業毛利 − 營業費用 = {ntd(gp)} − {ntd(opex)}", ntd)
    return c.numeric(q, oi, ntd(oi), params={"rev": rev, "cogs": cogs, "opex": opex})


@template(D, "income_statements", "income_statements_intermediate1", "中級")
def is_inter1(rng: random.Random) -> Problem:
    co, y = pick_company(rng), pick_year(rng)
    rev = pick_money(rng, 50_000_000, 800_000_000, 100_000)
    cogs = pick_money(rng, int(rev * 0.4), int(rev * 0.7), 100_000)
    opex = pick_money(rng, int(rev * 0.05), int(rev * 0.15), 100_000)
    other = pick_money(rng, 10_000, int(rev * 0.03), 10_000)
    interest = pick_money(rng, 100_000, int(rev * 0.04), 10_000)
    tax = TW_CORPORATE_TAX
    q = (f"{co}公司 {y} 年度營業收入 {ntd(rev)}、營業成本 {ntd(cogs)}、營業費用 {ntd(opex)}、"
         f"營業外收入 {ntd(other)}、利息費用 {ntd(interest)}，所得稅率 {pct(tax, 0)}。請計算本期淨利。{ASK_MONEY}")
    c = Chain()
    oi = c.add("營業利益", rev - cogs - opex, f"{ntd(rev)} − {ntd(cogs)} − {ntd(opex)}", ntd)
    ebt = c.add("稅前淨利", oi + other - interest, f"{ntd(oi)} + {ntd(other)} − {ntd(interest)}", ntd)
    tx = c.add("所得稅費用", ebt * tax, f"{ntd(ebt)} × {pct(tax, 0)}", ntd)
    ni = c.add("本期淨利", ebt - tx, f"{ntd(ebt)} − {ntd(tx)}", ntd)
    return c.numeric(q, ni, ntd(ni), params={"rev": rev, "cogs": cogs, "opex": opex, "other": other,
                                             "interest": interest, "tax": tax})


@template(D, "income_statements", "income_statements_intermediate2", "中級")
def is_inter2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    rev = pick_money(rng, 50_000_000, 800_000_000, 100_000)
    cogs = pick_money(rng, int(rev * 0.45), int(rev * 0.7), 100_000)
    sell = pick_money(rng, int(rev * 0.02), int(rev * 0.08), 10_000)
    admin = pick_money(rng, int(rev * 0.02), int(rev * 0.06), 10_000)
    rd = pick_money(rng, int(rev * 0.01), int(rev * 0.08), 10_000)
    q = (f"{co}公司本年度營業收入 {ntd(rev)}，營業成本 {ntd(cogs)}，推銷費用 {ntd(sell)}、管理費用 {ntd(admin)}、"
         f"研究發展費用 {ntd(rd)}。請計算該公司的營業利益率。{ASK_PCT}")
    c = Chain()
    opex = c.add("營業費用合計", sell + admin + rd, f"{ntd(sell)} + {ntd(admin)} + {ntd(rd)}", ntd)
    oi = c.add("營業利益", rev - cogs - opex, f"{ntd(rev)} − {ntd(cogs)} − {ntd(opex)}", ntd)
    om = c.add("營業利益率", oi / rev, f"{ntd(oi)} ÷ {ntd(rev)}", pct)
    return c.numeric(q, om, pct(om), params={"rev": rev, "cogs": cogs, "sell": sell, "admin": admin, "rd": rd})


@template(D, "income_statements", "income_statements_advanced1", "進階")
def is_adv1(rng: random.Random) -> Problem:
    co, y = pick_company(rng), pick_year(rng)
    rev0 = pick_money(rng, 50_000_000, 600_000_000, 100_000)
    g = pick_rate(rng, -10, 25, 0.5)
    cogs_ratio = pick_rate(rng, 50, 75, 0.5)
    opex = pick_money(rng, int(rev0 * 0.05), int(rev0 * 0.12), 100_000)
    interest = pick_money(rng, 100_000, int(rev0 * 0.02), 10_000)
    tax = TW_CORPORATE_TAX
    word = "成長" if g >= 0 else "衰退"
    q = (f"{co}公司 {y - 1} 年度營業收入為 {ntd(rev0)}。{y} 年度營業收入較前一年{word} {pct(abs(g), 1)}，"
         f"營業成本占營業收入的 {pct(cogs_ratio, 1)}，營業費用 {ntd(opex)}，利息費用 {ntd(interest)}，"
         f"所得稅率 {pct(tax, 0)}。請計算 {y} 年度的淨利率（本期淨利 ÷ 營業收入）。{ASK_PCT}")
    c = Chain()
    rev = c.add(f"{y} 年營業收入", rev0 * (1 + g), f"{ntd(rev0)} × （1 {'+' if g >= 0 else '−'} {pct(abs(g), 1)}）", ntd)
    gp = c.add("營業毛利", rev * (1 - cogs_ratio), f"{ntd(rev)} × （1 − {pct(cogs_ratio, 1)}）", ntd)
    oi = c.add("營業利益", gp - opex, f"{ntd(gp)} − {ntd(opex)}", ntd)
    ebt = c.add("稅前淨利", oi - interest, f"{ntd(oi)} − {ntd(interest)}", ntd)
    ni = c.add("本期淨利", ebt * (1 - tax), f"{ntd(ebt)} × （1 − {pct(tax, 0)}）", ntd)
    nm = c.add("淨利率", ni / rev, f"{ntd(ni)} ÷ {ntd(rev)}", pct)
    return c.numeric(q, nm, pct(nm), params={"rev0": rev0, "g_abs": abs(g), "cogs_ratio": cogs_ratio, "opex": opex,
                                             "interest": interest, "tax": tax, "_g": g})

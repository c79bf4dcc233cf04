"""併購 (mergers_acquisitions): deal_structure, due_diligence, post_merger_integration,
synergies_and_cost_savings, valuation_methods."""

from __future__ import annotations

import random

from finchain_tw_templates.common import (
    ASK_MONEY,
    ASK_MONEY_INT,
    ASK_NUM,
    ASK_PCT,
    TW_CORPORATE_TAX,
    Chain,
    ask,
    fmt_value,
    ntd,
    num,
    pct,
    pick_companies,
    pick_company,
    pick_decimal,
    pick_money,
    pick_rate,
    plus,
    times,
)
from finchain_tw_templates.core import Problem, template
from finchain_tw_templates.facts import twse_price

D = "mergers_acquisitions"


def shares_text(n: float) -> str:
    return f"{num(n)} 股"


# ---------------------------------------------------------------- deal_structure


@template(D, "deal_structure", "deal_structure_basic1", "基礎")
def deal_structure_basic1(rng: random.Random) -> Problem:
    acq, tgt = pick_companies(rng, 2)
    pa = twse_price(pick_decimal(rng, 40, 300, 1))
    offer = pick_decimal(rng, 20, 200, 1)
    nt = pick_money(rng, 5_000_000, 80_000_000, 100_000)
    c = Chain()
    ratio = c.add("換股比例", offer / pa, f"{ntd(offer)} ÷ {ntd(pa)}", lambda x: fmt_value(x))
    new = c.add("需發行的新股數", nt * ratio, f"{num(nt)} × {ntd(offer)} ÷ {ntd(pa)}",
                lambda x: num(x, 0) + " 股")
    q = (f"{acq}擬以換股方式合併{tgt}。{acq}股價為每股 {ntd(pa)}，對{tgt}的收購價為每股 {ntd(offer)}，"
         f"{tgt}流通在外股數為 {shares_text(nt)}。請問{acq}需發行多少新股？{ask(0, '股數')}")
    return c.numeric(q, new, num(new, 0), {"pa": pa, "offer": offer, "nt": nt})


@template(D, "deal_structure", "deal_structure_basic2", "基礎")
def deal_structure_basic2(rng: random.Random) -> Problem:
    acq, tgt = pick_companies(rng, 2)
    price = pick_decimal(rng, 20, 250, 1)
    nt = pick_money(rng, 5_000_000, 100_000_000, 100_000)
    cash_w = pick_rate(rng, 20, 80, 5)
    c = Chain()
    total = c.add("收購總對價", price * nt, f"{ntd(price)} × {num(nt)}", ntd)
    cash = c.add("現金支付部分", total * cash_w, f"{ntd(total)} × {pct(cash_w, 0)}", ntd)
    q = (f"{acq}以每股 {ntd(price)} 收購{tgt}全部 {shares_text(nt)}流通在外股份，對價中 {pct(cash_w, 0)} 以現金支付、"
         f"其餘以{acq}股票支付。請問現金支付的金額是多少？")
    return c.numeric(q, cash, ntd(cash), {"price": price, "nt": nt, "cash_w": cash_w})


@template(D, "deal_structure", "deal_structure_inter1", "中級")
def deal_structure_inter1(rng: random.Random) -> Problem:
    acq, tgt = pick_companies(rng, 2)
    na = pick_money(rng, 50_000_000, 500_000_000, 1_000_000)
    nt = pick_money(rng, 10_000_000, 200_000_000, 1_000_000)
    ratio = pick_decimal(rng, 0.2, 1.5, 2)
    c = Chain()
    new = c.add("發行新股數", nt * ratio, f"{num(nt)} × {ratio}", lambda x: num(x) + " 股")
    total = c.add("合併後總股數", na + new, f"{num(na)} + {num(new)}", lambda x: num(x) + " 股")
    own = c.add(f"原{tgt}股東持股比例", new / total, f"{num(new)} ÷ {num(total)}", pct)
    q = (f"{acq}原有流通在外股數 {shares_text(na)}，以每 1 股{tgt}換發 {ratio} 股{acq}新股的比例合併{tgt}"
         f"（{tgt}流通在外 {shares_text(nt)}）。請問合併後原{tgt}股東持有存續公司多少比例的股份？{ASK_PCT}")
    return c.numeric(q, own, pct(own), {"na": na, "nt": nt, "ratio": ratio})


@template(D, "deal_structure", "deal_structure_inter2", "中級")
def deal_structure_inter2(rng: random.Random) -> Problem:
    acq, tgt = pick_companies(rng, 2)
    ni_a = pick_money(rng, 500_000_000, 5_000_000_000, 10_000_000)
    na = pick_money(rng, 100_000_000, 1_000_000_000, 10_000_000)
    ni_t = pick_money(rng, 50_000_000, 1_000_000_000, 10_000_000)
    # price at a plausible P/E, and a deal P/E near it, so accretion stays within a realistic band
    pe_a = rng.uniform(10, 25)
    pa = twse_price(ni_a / na * pe_a)
    deal = pick_money(rng, round(ni_t * pe_a * 0.7), round(ni_t * pe_a * 1.4), 10_000_000)
    c = Chain()
    eps = c.add("併購前每股盈餘", ni_a / na, f"{ntd(ni_a)} ÷ {num(na)}", lambda x: ntd(x, 4))
    new = c.add("發行新股數", deal / pa, f"{ntd(deal)} ÷ {ntd(pa)}", lambda x: num(x) + " 股")
    pf = c.add("合併後預估每股盈餘", (ni_a + ni_t) / (na + new), f"({ntd(ni_a)} + {ntd(ni_t)}) ÷ ({num(na)} + {num(new)})",
               lambda x: ntd(x, 4))
    acc = c.add("每股盈餘增加（稀釋）幅度", pf / eps - 1, f"{ntd(pf, 4)} ÷ {ntd(eps, 4)} − 1", pct)
    q = (f"{acq}稅後淨利 {ntd(ni_a)}，流通在外 {shares_text(na)}，股價 {ntd(pa)}。{acq}擬以發行新股方式、總價 {ntd(deal)} "
         f"收購稅後淨利為 {ntd(ni_t)} 的{tgt}（新股按目前股價發行）。不考慮綜效，請問合併後每股盈餘（EPS）相對併購前"
         f"增加多少？{ask(2, '百分比', '稀釋時為負值')}")
    return c.numeric(q, acc, pct(acc), {"ni_a": ni_a, "na": na, "ni_t": ni_t, "pa": pa, "deal": deal})


@template(D, "deal_structure", "deal_structure_adv1", "進階")
def deal_structure_adv1(rng: random.Random) -> Problem:
    acq, tgt = pick_companies(rng, 2)
    ni_a = pick_money(rng, 1_000_000_000, 6_000_000_000, 10_000_000)
    na = pick_money(rng, 200_000_000, 1_000_000_000, 10_000_000)
    pe_a = rng.uniform(10, 22)
    pa = twse_price(ni_a / na * pe_a)
    ni_t = pick_money(rng, 100_000_000, 1_200_000_000, 10_000_000)
    deal = pick_money(rng, round(ni_t * pe_a * 0.7), round(ni_t * pe_a * 1.4), 10_000_000)
    cash_w = pick_rate(rng, 30, 70, 5)
    i = pick_rate(rng, 2, 5, 0.25)
    tax = TW_CORPORATE_TAX
    syn = pick_money(rng, round(ni_t * 0.05), round(ni_t * 0.3), 1_000_000)
    c = Chain()
    eps = c.add("併購前每股盈餘", ni_a / na, f"{ntd(ni_a)} ÷ {num(na)}", lambda x: ntd(x, 4))
    cash = c.add("以借款支應的現金對價", deal * cash_w, f"{ntd(deal)} × {pct(cash_w, 0)}", ntd)
    int_at = c.add("稅後利息費用", cash * i * (1 - tax), f"{ntd(cash)} × {pct(i)} × (1 − {pct(tax, 0)})", ntd)
    new = c.add("發行新股數", (deal - cash) / pa, f"({ntd(deal)} − {ntd(cash)}) ÷ {ntd(pa)}", lambda x: num(x) + " 股")
    ni = c.add("合併後預估稅後淨利", ni_a + ni_t + syn * (1 - tax) - int_at,
               f"{ntd(ni_a)} + {ntd(ni_t)} + {ntd(syn)} × (1 − {pct(tax, 0)}) − {ntd(int_at)}", ntd)
    pf = c.add("合併後預估每股盈餘", ni / (na + new), f"{ntd(ni)} ÷ ({num(na)} + {num(new)})", lambda x: ntd(x, 4))
    acc = c.add("每股盈餘增加（稀釋）幅度", pf / eps - 1, f"{ntd(pf, 4)} ÷ {ntd(eps, 4)} − 1", pct)
    q = (f"{acq}稅後淨利 {ntd(ni_a)}、流通在外 {shares_text(na)}、股價 {ntd(pa)}，擬以總價 {ntd(deal)} 收購稅後淨利 {ntd(ni_t)} 的{tgt}。"
         f"對價中 {pct(cash_w, 0)} 以現金支付，資金全數向銀行借款，年利率 {pct(i)}；其餘以{acq}新股按目前股價支付。"
         f"合併後每年可產生稅前綜效 {ntd(syn)}，所得稅率 {pct(tax, 0)}。請問合併後第一年的每股盈餘相對併購前增加多少？"
         f"{ask(2, '百分比', '稀釋時為負值')}")
    return c.numeric(q, acc, pct(acc), {"ni_a": ni_a, "na": na, "pa": pa, "ni_t": ni_t, "deal": deal, "cash_w": cash_w,
                                        "i": i, "tax": tax, "syn": syn})


# ---------------------------------------------------------------- due_diligence


@template(D, "due_diligence", "due_diligence_basic1", "基礎")
def due_diligence_basic1(rng: random.Random) -> Problem:
    tgt = pick_company(rng)
    ebitda = pick_money(rng, 50_000_000, 800_000_000, 1_000_000)
    one_off = pick_money(rng, 1_000_000, round(ebitda * 0.1), 100_000)
    gain = pick_money(rng, 1_000_000, round(ebitda * 0.1), 100_000)
    c = Chain()
    adj = c.add("淨調整數", one_off - gain, f"{ntd(one_off)} − {ntd(gain)}", ntd)
    adj_e = c.add("調整後 EBITDA", ebitda + adj, f"{ntd(ebitda)} {plus(adj, ntd)}", ntd)
    q = (f"盡職調查發現，{tgt}帳列 EBITDA 為 {ntd(ebitda)}，其中包含一次性的訴訟和解費用 {ntd(one_off)}"
         f"（應加回），以及一次性的處分土地利益 {ntd(gain)}（應扣除）。請問調整後 EBITDA 是多少？")
    return c.numeric(q, adj_e, ntd(adj_e), {"ebitda": ebitda, "one_off": one_off, "gain": gain})


@template(D, "due_diligence", "due_diligence_basic2", "基礎")
def due_diligence_basic2(rng: random.Random) -> Problem:
    tgt = pick_company(rng)
    price = pick_money(rng, 500_000_000, 5_000_000_000, 10_000_000)
    peg = pick_money(rng, 50_000_000, 400_000_000, 1_000_000)
    actual = pick_money(rng, round(peg * 0.7), round(peg * 1.3), 1_000_000)
    c = Chain()
    diff = c.add("營運資金差額", actual - peg, f"{ntd(actual)} − {ntd(peg)}", ntd)
    adj = c.add("調整後收購價格", price + diff, f"{ntd(price)} {plus(diff, ntd)}", ntd)
    q = (f"收購{tgt}的合約約定基本價格 {ntd(price)}，並以目標營運資金 {ntd(peg)} 作為價格調整基準："
         f"交割日實際營運資金高於目標時，差額加價；低於目標時，差額減價。交割日實際營運資金為 {ntd(actual)}。"
         f"請問調整後的收購價格是多少？")
    return c.numeric(q, adj, ntd(adj), {"price": price, "peg": peg, "actual": actual})


@template(D, "due_diligence", "due_diligence_inter1", "中級")
def due_diligence_inter1(rng: random.Random) -> Problem:
    tgt = pick_company(rng)
    threshold = rng.choice([0.7, 0.8])
    while True:
        ni = pick_money(rng, 50_000_000, 600_000_000, 1_000_000)
        da = pick_money(rng, round(ni * 0.1), round(ni * 0.5), 1_000_000)
        dwc = pick_money(rng, round(-ni * 0.2), round(ni * 0.9), 1_000_000)
        ratio = (ni + da - dwc) / ni
        if abs(ratio - threshold) > 0.01 and ratio > 0:
            break
    c = Chain()
    cfo = c.add("營業活動現金流量", ni + da - dwc, f"{ntd(ni)} + {ntd(da)} {plus(-dwc, ntd)}", ntd)
    r = c.add("盈餘現金轉換率", cfo / ni, f"{ntd(cfo)} ÷ {ntd(ni)}", pct)
    gap = c.add("與門檻的差距", r - threshold, f"{pct(r)} − {pct(threshold, 0)}", pct)
    ans = "是" if gap < 0 else "否"
    c.note(f"轉換率{'低於' if gap < 0 else '不低於'}門檻 {pct(threshold, 0)}，是否需要擴大盈餘品質查核", ans)
    q = (f"買方在盡職調查中檢視{tgt}的盈餘品質：本期稅後淨利 {ntd(ni)}，折舊及攤銷 {ntd(da)}，營運資金"
         f"{'增加' if dwc >= 0 else '減少'} {ntd(abs(dwc))}。以「營業活動現金流量 ÷ 稅後淨利」衡量盈餘現金轉換率，若低於 {pct(threshold, 0)} 就須擴大查核應收帳款與存貨。"
         f"請問是否需要擴大查核？（請回答是或否）")
    return c.categorical(q, ans, {"ni": ni, "da": da, "dwc": dwc, "threshold": threshold})


@template(D, "due_diligence", "due_diligence_inter2", "中級")
def due_diligence_inter2(rng: random.Random) -> Problem:
    tgt = pick_company(rng)
    ebitda = pick_money(rng, 80_000_000, 600_000_000, 1_000_000)
    salary = pick_money(rng, 2_000_000, 15_000_000, 100_000)
    legal = pick_money(rng, 1_000_000, 20_000_000, 100_000)
    mult = pick_decimal(rng, 6, 12, 1)
    net_debt = pick_money(rng, 0, round(ebitda * 2), 1_000_000)
    contingent = pick_money(rng, 5_000_000, 80_000_000, 1_000_000)
    c = Chain()
    adj = c.add("常態化 EBITDA", ebitda + salary + legal, f"{ntd(ebitda)} + {ntd(salary)} + {ntd(legal)}", ntd)
    ev = c.add("企業價值", adj * mult, f"{ntd(adj)} × {mult}", ntd)
    eq = c.add("扣除淨負債後的權益價值", ev - net_debt, f"{ntd(ev)} − {ntd(net_debt)}", ntd)
    final = c.add("扣除或有負債後的權益價值", eq - contingent, f"{ntd(eq)} − {ntd(contingent)}", ntd)
    q = (f"{tgt}帳列 EBITDA 為 {ntd(ebitda)}。盡職調查發現：老闆兼任總經理的薪酬比市場行情高出 {ntd(salary)}（應加回），"
         f"另有已結案的一次性法律費用 {ntd(legal)}（應加回）。以 {mult} 倍 EV/EBITDA 評價，{tgt}淨負債 {ntd(net_debt)}，"
         f"並發現一筆估計金額 {ntd(contingent)} 的環保罰款或有負債，買方要求從價格中全額扣除。請問調整後的權益價值是多少？")
    return c.numeric(q, final, ntd(final), {"ebitda": ebitda, "salary": salary, "legal": legal, "mult": mult,
                                            "net_debt": net_debt, "contingent": contingent})


@template(D, "due_diligence", "due_diligence_adv1", "進階")
def due_diligence_adv1(rng: random.Random) -> Problem:
    acq, tgt = pick_companies(rng, 2)
    ebitda = pick_money(rng, 100_000_000, 800_000_000, 1_000_000)
    mult = pick_decimal(rng, 7, 12, 1)
    net_debt = pick_money(rng, 0, round(ebitda * 1.5), 1_000_000)
    offer = pick_money(rng, round((ebitda * mult - net_debt) * 0.95), round((ebitda * mult - net_debt) * 1.05), 1_000_000)
    overstated = pick_money(rng, round(ebitda * 0.05), round(ebitda * 0.4), 1_000_000)
    margin = pick_rate(rng, 20, 50, 1)
    addback = pick_money(rng, 1_000_000, round(ebitda * 0.05), 100_000)
    tax_owed = pick_money(rng, 2_000_000, 50_000_000, 100_000)
    pension = pick_money(rng, 2_000_000, 60_000_000, 100_000)
    c = Chain()
    cut = c.add("營收認列不當造成的 EBITDA 減少數", overstated * margin, f"{ntd(overstated)} × {pct(margin, 0)}", ntd)
    adj = c.add("調整後 EBITDA", ebitda - cut + addback, f"{ntd(ebitda)} − {ntd(cut)} + {ntd(addback)}", ntd)
    ev = c.add("調整後企業價值", adj * mult, f"{ntd(adj)} × {mult}", ntd)
    debt_like = c.add("類負債項目合計", tax_owed + pension, f"{ntd(tax_owed)} + {ntd(pension)}", ntd)
    eq = c.add("調整後權益價值", ev - net_debt - debt_like, f"{ntd(ev)} − {ntd(net_debt)} − {ntd(debt_like)}", ntd)
    chg = c.add("相對原出價的變動幅度", eq / offer - 1, f"{ntd(eq)} ÷ {ntd(offer)} − 1", pct)
    q = (f"{acq}原本對{tgt}的股權出價為 {ntd(offer)}，依據是帳列 EBITDA {ntd(ebitda)}、{mult} 倍 EV/EBITDA 與淨負債 {ntd(net_debt)}。"
         f"盡職調查後發現：(1) 有 {ntd(overstated)} 營收提前認列，這部分營收的 EBITDA 利潤率為 {pct(margin, 0)}，應自 EBITDA 扣除；"
         f"(2) 一次性重整費用 {ntd(addback)} 應加回；(3) 另有未繳稅款 {ntd(tax_owed)} 與退休金提撥不足 {ntd(pension)}，"
         f"視為類負債自權益價值扣除。倍數不變，請問依盡職調查結果重新計算的權益價值，相對原出價變動多少？"
         f"{ask(2, '百分比', '下修時為負值')}")
    return c.numeric(q, chg, pct(chg), {"offer": offer, "ebitda": ebitda, "mult": mult, "net_debt": net_debt,
                                        "overstated": overstated, "margin": margin, "addback": addback,
                                        "tax_owed": tax_owed, "pension": pension})


# ---------------------------------------------------------------- post_merger_integration


@template(D, "post_merger_integration", "post_merger_integration_basic1", "基礎")
def post_merger_integration_basic1(rng: random.Random) -> Problem:
    acq, tgt = pick_companies(rng, 2)
    heads = rng.randint(20, 400)
    cost = pick_money(rng, 600_000, 1_500_000, 10_000)
    one_off = pick_money(rng, round(heads * cost * 0.5), round(heads * cost * 2.5), 100_000)
    c = Chain()
    save = c.add("每年節省的人事成本", heads * cost, f"{heads} × {ntd(cost)}", ntd)
    pb = c.add("回收期間（年）", one_off / save, f"{ntd(one_off)} ÷ {ntd(save)}")
    q = (f"{acq}合併{tgt}後整併重複的後勤部門，可減少 {heads} 個職位，每個職位每年人事成本 {ntd(cost)}；"
         f"一次性的資遣與整合費用為 {ntd(one_off)}。請問需要幾年才能回收整合費用？{ASK_NUM}")
    return c.numeric(q, pb, num(pb, 2), {"heads": heads, "cost": cost, "one_off": one_off})


@template(D, "post_merger_integration", "post_merger_integration_basic2", "基礎")
def post_merger_integration_basic2(rng: random.Random) -> Problem:
    acq, tgt = pick_companies(rng, 2)
    cust = pick_money(rng, 5_000, 200_000, 100)
    attr = pick_rate(rng, 2, 20, 0.5)
    arpu = pick_money(rng, 2_000, 60_000, 500)
    c = Chain()
    lost = c.add("流失客戶數", cust * attr, f"{num(cust)} × {pct(attr, 1)}", lambda x: fmt_value(x) + " 家")
    rev = c.add("流失的年營業收入", lost * arpu, f"{fmt_value(lost)} × {ntd(arpu)}", ntd)
    q = (f"{acq}與{tgt}合併後共有 {num(cust)} 家客戶，預估整合期間因系統轉換與業務人員異動，客戶流失率為 {pct(attr, 1)}。"
         f"每家客戶每年平均貢獻營業收入 {ntd(arpu)}，請問預估流失的年營業收入是多少？")
    return c.numeric(q, rev, ntd(rev), {"cust": cust, "attr": attr, "arpu": arpu})


@template(D, "post_merger_integration", "post_merger_integration_inter1", "中級")
def post_merger_integration_inter1(rng: random.Random) -> Problem:
    acq, tgt = pick_companies(rng, 2)
    run_rate = pick_money(rng, 50_000_000, 800_000_000, 1_000_000)
    ramp = [pick_rate(rng, 20, 50, 5), pick_rate(rng, 55, 80, 5), pick_rate(rng, 85, 95, 5)]  # < 100%: no restating step
    cost = pick_money(rng, round(run_rate * 0.5), round(run_rate * 1.5), 1_000_000)
    c = Chain()
    yrs = [c.add(f"第 {t} 年實現綜效", run_rate * w, f"{ntd(run_rate)} × {pct(w, 0)}", ntd) for t, w in enumerate(ramp, 1)]
    net = c.add("三年累計淨效益", sum(yrs) - cost, f"{' + '.join(ntd(y) for y in yrs)} − {ntd(cost)}", ntd)
    q = (f"{acq}併購{tgt}後，預估完全整合時每年可實現成本綜效 {ntd(run_rate)}，第 1、2、3 年分別實現 {pct(ramp[0], 0)}、"
         f"{pct(ramp[1], 0)}、{pct(ramp[2], 0)}。整合期間一次性整合成本共 {ntd(cost)}。不考慮折現，"
         f"請問前三年累計實現綜效扣除整合成本後的淨效益是多少？（虧損時為負值）")
    return c.numeric(q, net, ntd(net), {"run_rate": run_rate, "ramp": ramp, "cost": cost})


@template(D, "post_merger_integration", "post_merger_integration_inter2", "中級")
def post_merger_integration_inter2(rng: random.Random) -> Problem:
    acq, tgt = pick_companies(rng, 2)
    it_a = pick_money(rng, 20_000_000, 150_000_000, 1_000_000)
    it_t = pick_money(rng, 10_000_000, 100_000_000, 1_000_000)
    it_new = pick_money(rng, round((it_a + it_t) * 0.6), round((it_a + it_t) * 0.85), 1_000_000)
    mig = pick_money(rng, 10_000_000, 150_000_000, 1_000_000)
    n = rng.randint(3, 7)
    c = Chain()
    before = c.add("整併前資訊系統年成本", it_a + it_t, f"{ntd(it_a)} + {ntd(it_t)}", ntd)
    save = c.add("每年節省金額", before - it_new, f"{ntd(before)} − {ntd(it_new)}", ntd)
    total = c.add(f"{n} 年累計節省", save * n, f"{ntd(save)} × {n}", ntd)
    net = c.add("扣除轉換成本後的淨節省", total - mig, f"{ntd(total)} − {ntd(mig)}", ntd)
    q = (f"{acq}與{tgt}合併後要整併核心資訊系統。{acq}現行系統每年成本 {ntd(it_a)}，{tgt}為 {ntd(it_t)}；"
         f"整併成單一新系統後每年成本 {ntd(it_new)}，一次性資料轉換成本 {ntd(mig)}。"
         f"請問 {n} 年內（不考慮折現）的淨節省金額是多少？（虧損時為負值）")
    return c.numeric(q, net, ntd(net), {"it_a": it_a, "it_t": it_t, "it_new": it_new, "mig": mig, "n": n})


@template(D, "post_merger_integration", "post_merger_integration_adv1", "進階")
def post_merger_integration_adv1(rng: random.Random) -> Problem:
    acq, tgt = pick_companies(rng, 2)
    run_rate = pick_money(rng, 100_000_000, 1_000_000_000, 10_000_000)
    ramp = [pick_rate(rng, 25, 50, 5), pick_rate(rng, 60, 90, 5)]
    tax = TW_CORPORATE_TAX
    cost = pick_money(rng, round(run_rate * 0.8), round(run_rate * 2.0), 10_000_000)
    r = pick_rate(rng, 7, 12, 0.5)
    c = Chain()
    at = c.add("完全實現時的稅後綜效", run_rate * (1 - tax), f"{ntd(run_rate)} × (1 − {pct(tax, 0)})", ntd)
    pv1 = c.add("第 1 年稅後綜效現值", at * ramp[0] / (1 + r), f"{ntd(at)} × {pct(ramp[0], 0)} ÷ (1 + {pct(r, 1)})", ntd)
    pv2 = c.add("第 2 年稅後綜效現值", at * ramp[1] / (1 + r) ** 2, f"{ntd(at)} × {pct(ramp[1], 0)} ÷ (1 + {pct(r, 1)})^2", ntd)
    pv35 = c.add("第 3 至 5 年稅後綜效現值", sum(at / (1 + r) ** t for t in (3, 4, 5)),
                 f"Σ {ntd(at)} ÷ (1 + {pct(r, 1)})^t，t = 3、4、5", ntd)
    pv = c.add("五年綜效現值合計", pv1 + pv2 + pv35, f"{ntd(pv1)} + {ntd(pv2)} + {ntd(pv35)}", ntd)
    npv = c.add("整合計畫淨現值", pv - cost, f"{ntd(pv)} − {ntd(cost)}", ntd)
    q = (f"{acq}併購{tgt}後的整合計畫：期初一次性整合成本 {ntd(cost)}；完全實現時每年稅前綜效 {ntd(run_rate)}，"
         f"第 1 年實現 {pct(ramp[0], 0)}、第 2 年實現 {pct(ramp[1], 0)}、第 3 至 5 年完全實現（綜效皆於年底發生，只計 5 年）。"
         f"所得稅率 {pct(tax, 0)}，折現率 {pct(r, 1)}。請問整合計畫的淨現值是多少？{ask(0, '新臺幣元', '虧損時為負值')}")
    return c.numeric(q, npv, ntd(npv, 0), {"run_rate": run_rate, "ramp": ramp, "tax": tax, "cost": cost, "r": r})


# ---------------------------------------------------------------- synergies_and_cost_savings


@template(D, "synergies_and_cost_savings", "synergies_and_cost_savings_basic1", "基礎")
def synergies_and_cost_savings_basic1(rng: random.Random) -> Problem:
    acq, tgt = pick_companies(rng, 2)
    opex = pick_money(rng, 500_000_000, 8_000_000_000, 10_000_000)
    s = pick_rate(rng, 2, 10, 0.5)
    tax = TW_CORPORATE_TAX
    c = Chain()
    pre = c.add("每年稅前成本綜效", opex * s, f"{ntd(opex)} × {pct(s, 1)}", ntd)
    post = c.add("每年稅後成本綜效", pre * (1 - tax), f"{ntd(pre)} × (1 − {pct(tax, 0)})", ntd)
    q = (f"{acq}與{tgt}合併後營業費用合計 {ntd(opex)}，整合採購與物流後預估可降低 {pct(s, 1)}。所得稅率 {pct(tax, 0)}，"
         f"請問每年的稅後成本綜效是多少？")
    return c.numeric(q, post, ntd(post), {"opex": opex, "s": s, "tax": tax})


@template(D, "synergies_and_cost_savings", "synergies_and_cost_savings_basic2", "基礎")
def synergies_and_cost_savings_basic2(rng: random.Random) -> Problem:
    acq, tgt = pick_companies(rng, 2)
    cust = pick_money(rng, 1_000, 50_000, 100)
    spend = pick_money(rng, 5_000, 200_000, 1_000)
    margin = pick_rate(rng, 15, 50, 1)
    c = Chain()
    rev = c.add("交叉銷售新增營業收入", cust * spend, f"{num(cust)} × {ntd(spend)}", ntd)
    gp = c.add("新增毛利", rev * margin, f"{ntd(rev)} × {pct(margin, 0)}", ntd)
    q = (f"{acq}併購{tgt}後，預估可把自家產品交叉銷售給{tgt}的 {num(cust)} 家客戶，每家客戶每年平均購買 {ntd(spend)}，"
         f"毛利率 {pct(margin, 0)}。請問每年營收綜效帶來的新增毛利是多少？")
    return c.numeric(q, gp, ntd(gp), {"cust": cust, "spend": spend, "margin": margin})


@template(D, "synergies_and_cost_savings", "synergies_and_cost_savings_inter1", "中級")
def synergies_and_cost_savings_inter1(rng: random.Random) -> Problem:
    acq, tgt = pick_companies(rng, 2)
    syn = pick_money(rng, 20_000_000, 500_000_000, 1_000_000)
    tax = TW_CORPORATE_TAX
    r = pick_rate(rng, 7, 12, 0.5)
    cost = pick_money(rng, round(syn * 0.5), round(syn * 4), 1_000_000)
    c = Chain()
    at = c.add("每年稅後綜效", syn * (1 - tax), f"{ntd(syn)} × (1 − {pct(tax, 0)})", ntd)
    pv = c.add("綜效現值（永續年金）", at / r, f"{ntd(at)} ÷ {pct(r, 1)}", ntd)
    net = c.add("扣除整合成本後的綜效價值", pv - cost, f"{ntd(pv)} − {ntd(cost)}", ntd)
    q = (f"{acq}合併{tgt}後，預估每年可永續產生稅前綜效 {ntd(syn)}（自第 1 年底開始），所得稅率 {pct(tax, 0)}，折現率 {pct(r, 1)}，"
         f"一次性整合成本 {ntd(cost)}。請問扣除整合成本後的綜效淨值是多少？{ASK_MONEY_INT}")
    return c.numeric(q, net, ntd(net, 0), {"syn": syn, "tax": tax, "r": r, "cost": cost})


@template(D, "synergies_and_cost_savings", "synergies_and_cost_savings_inter2", "中級")
def synergies_and_cost_savings_inter2(rng: random.Random) -> Problem:
    acq, tgt = pick_companies(rng, 2)
    mcap = pick_money(rng, 2_000_000_000, 30_000_000_000, 100_000_000)
    prem = pick_rate(rng, 15, 45, 1)
    syn = pick_money(rng, round(mcap * 0.01), round(mcap * 0.04), 1_000_000)
    r = pick_rate(rng, 8, 12, 0.5)
    g = pick_rate(rng, 1, 3, 0.5)
    c = Chain()
    premium = c.add("收購溢價金額", mcap * prem, f"{ntd(mcap)} × {pct(prem, 0)}", ntd)
    pv = c.add("綜效現值（成長型永續年金）", syn / (r - g), f"{ntd(syn)} ÷ ({pct(r, 1)} − {pct(g, 1)})", ntd)
    npv = c.add("收購方的淨現值", pv - premium, f"{ntd(pv)} − {ntd(premium)}", ntd)
    q = (f"{tgt}目前市值 {ntd(mcap)}，{acq}提出溢價 {pct(prem, 0)} 的收購價。收購後第 1 年底起每年可產生稅後綜效 {ntd(syn)}，"
         f"之後每年成長 {pct(g, 1)}，折現率 {pct(r, 1)}。若目前市值反映{tgt}的獨立價值，請問這筆交易對{acq}股東的淨現值是多少？"
         f"{ask(0, '新臺幣元', '虧損時為負值')}")
    return c.numeric(q, npv, ntd(npv, 0), {"mcap": mcap, "prem": prem, "syn": syn, "r": r, "g": g})


@template(D, "synergies_and_cost_savings", "synergies_and_cost_savings_adv1", "進階")
def synergies_and_cost_savings_adv1(rng: random.Random) -> Problem:
    acq, tgt = pick_companies(rng, 2)
    opex = pick_money(rng, 1_000_000_000, 10_000_000_000, 10_000_000)
    s = pick_rate(rng, 2, 8, 0.5)
    rev = pick_money(rng, 2_000_000_000, 30_000_000_000, 100_000_000)
    uplift = pick_rate(rng, 1, 5, 0.5)
    margin = pick_rate(rng, 20, 45, 1)
    dis = pick_money(rng, round(opex * s * 0.05), round(opex * s * 0.3), 1_000_000)
    tax = TW_CORPORATE_TAX
    r = pick_rate(rng, 8, 12, 0.5)
    g = pick_rate(rng, 0.5, 2.5, 0.5)
    cost = pick_money(rng, 100_000_000, 1_000_000_000, 10_000_000)
    shares = pick_money(rng, 200_000_000, 2_000_000_000, 10_000_000)
    c = Chain()
    cs = c.add("成本綜效", opex * s, f"{ntd(opex)} × {pct(s, 1)}", ntd)
    rs = c.add("營收綜效帶來的毛利", rev * uplift * margin, f"{ntd(rev)} × {pct(uplift, 1)} × {pct(margin, 0)}", ntd)
    pre = c.add("稅前淨綜效", cs + rs - dis, f"{ntd(cs)} + {ntd(rs)} − {ntd(dis)}", ntd)
    at = c.add("稅後淨綜效", pre * (1 - tax), f"{ntd(pre)} × (1 − {pct(tax, 0)})", ntd)
    pv = c.add("綜效現值", at / (r - g), f"{ntd(at)} ÷ ({pct(r, 1)} − {pct(g, 1)})", ntd)
    net = c.add("扣除整合成本後的綜效價值", pv - cost, f"{ntd(pv)} − {ntd(cost)}", ntd)
    per = c.add("每股綜效價值", net / shares, f"{ntd(net)} ÷ {num(shares)}", lambda x: ntd(x, 2))
    q = (f"{acq}合併{tgt}的綜效評估：(1) 合併後營業費用 {ntd(opex)} 可降低 {pct(s, 1)}；(2) 合併營收 {ntd(rev)} 可因交叉銷售增加 "
         f"{pct(uplift, 1)}，新增營收的毛利率 {pct(margin, 0)}；(3) 因客戶重疊產生的負綜效每年 {ntd(dis)}。所得稅率 {pct(tax, 0)}，"
         f"稅後淨綜效於第 1 年底開始實現、之後每年成長 {pct(g, 1)}，折現率 {pct(r, 1)}，一次性整合成本 {ntd(cost)}。合併後流通在外 "
         f"{shares_text(shares)}，請問每股綜效價值是多少？{ASK_MONEY}")
    return c.numeric(q, per, ntd(per, 2), {"opex": opex, "s": s, "rev": rev, "uplift": uplift, "margin": margin,
                                           "dis": dis, "tax": tax, "r": r, "g": g, "cost": cost, "shares": shares})


# ---------------------------------------------------------------- valuation_methods


@template(D, "valuation_methods", "valuation_methods_basic1", "基礎")
def valuation_methods_basic1(rng: random.Random) -> Problem:
    tgt = pick_company(rng)
    eps = pick_decimal(rng, 1, 20, 2)
    pe = pick_decimal(rng, 8, 30, 1)
    shares = pick_money(rng, 10_000_000, 500_000_000, 1_000_000)
    c = Chain()
    price = c.add("每股價值", eps * pe, f"{ntd(eps)} × {pe}", ntd)
    eq = c.add("權益價值", price * shares, f"每股價值 × 股數 = {ntd(eps)} × {pe} × {num(shares)}", ntd)
    q = (f"{tgt}每股盈餘（EPS）{ntd(eps)}，流通在外 {shares_text(shares)}，同業可比公司的平均本益比為 {times(pe, 1)}。"
         f"以本益比法評價，請問{tgt}的權益價值是多少？")
    return c.numeric(q, eq, ntd(eq), {"eps": eps, "pe": pe, "shares": shares})


@template(D, "valuation_methods", "valuation_methods_basic2", "基礎")
def valuation_methods_basic2(rng: random.Random) -> Problem:
    tgt = pick_company(rng)
    ebitda = pick_money(rng, 50_000_000, 2_000_000_000, 1_000_000)
    mult = pick_decimal(rng, 5, 15, 1)
    net_debt = pick_money(rng, 0, round(ebitda * 2.5), 1_000_000)
    c = Chain()
    ev = c.add("企業價值", ebitda * mult, f"{ntd(ebitda)} × {mult}", ntd)
    eq = c.add("權益價值", ev - net_debt, f"{ntd(ev)} − {ntd(net_debt)}", ntd)
    q = (f"{tgt}的 EBITDA 為 {ntd(ebitda)}，淨負債 {ntd(net_debt)}，可比交易的 EV/EBITDA 倍數為 {mult} 倍。"
         f"請問{tgt}的權益價值是多少？")
    return c.numeric(q, eq, ntd(eq), {"ebitda": ebitda, "mult": mult, "net_debt": net_debt})


@template(D, "valuation_methods", "valuation_methods_inter1", "中級")
def valuation_methods_inter1(rng: random.Random) -> Problem:
    tgt = pick_company(rng)
    d0 = pick_decimal(rng, 1, 8, 2)
    while True:  # the growth model needs a cost of equity well above growth
        rf = pick_rate(rng, 1, 3, 0.25)
        beta = pick_decimal(rng, 0.6, 1.5, 2)
        mrp = pick_rate(rng, 4, 7, 0.25)
        g = pick_rate(rng, 1, 4, 0.25)
        if rf + beta * mrp - g >= 0.03:
            break
    c = Chain()
    ke = c.add("權益資金成本", rf + beta * mrp, f"{pct(rf)} + {beta} × {pct(mrp)}", lambda x: pct(x, 4))
    d1 = c.add("下一年度每股股利", d0 * (1 + g), f"{ntd(d0)} × (1 + {pct(g)})", lambda x: ntd(x, 4))
    price = c.add("每股價值", d1 / (ke - g), f"{ntd(d1, 4)} ÷ ({pct(ke, 4)} − {pct(g)})", lambda x: ntd(x, 2))
    q = (f"{tgt}剛發放每股現金股利 {ntd(d0)}，預期股利每年固定成長 {pct(g)}。無風險利率 {pct(rf)}，{tgt}的貝他係數 {beta}，"
         f"市場風險溢酬 {pct(mrp)}。以 CAPM 估計權益資金成本，再用股利成長模型評價，請問每股價值是多少？{ASK_MONEY}")
    return c.numeric(q, price, ntd(price, 2), {"d0": d0, "rf": rf, "beta": beta, "mrp": mrp, "g": g})


@template(D, "valuation_methods", "valuation_methods_inter2", "中級")
def valuation_methods_inter2(rng: random.Random) -> Problem:
    tgt = pick_company(rng)
    ni = pick_money(rng, 100_000_000, 3_000_000_000, 10_000_000)
    pe = pick_decimal(rng, 10, 25, 1)
    ebitda = pick_money(rng, round(ni * 1.4), round(ni * 2.2), 10_000_000)
    mult = pick_decimal(rng, 6, 12, 1)
    net_debt = pick_money(rng, 0, round(ebitda * 1.5), 10_000_000)
    dcf = pick_money(rng, round(ni * 10), round(ni * 22), 10_000_000)
    w1, w2 = rng.choice([(0.3, 0.3), (0.25, 0.25), (0.2, 0.3), (0.3, 0.2)])
    w3 = round(1 - w1 - w2, 2)
    c = Chain()
    v1 = c.add("本益比法權益價值", ni * pe, f"{ntd(ni)} × {pe}", ntd)
    v2 = c.add("EV/EBITDA 法權益價值", ebitda * mult - net_debt, f"{ntd(ebitda)} × {mult} − {ntd(net_debt)}", ntd)
    v = c.add("加權平均權益價值", v1 * w1 + v2 * w2 + dcf * w3,
              f"{ntd(v1)} × {pct(w1, 0)} + {ntd(v2)} × {pct(w2, 0)} + {ntd(dcf)} × {pct(w3, 0)}", ntd)
    q = (f"評價{tgt}時採用三種方法：(1) 本益比法：稅後淨利 {ntd(ni)}，可比公司本益比 {times(pe, 1)}；(2) EV/EBITDA 法：EBITDA {ntd(ebitda)}，"
         f"倍數 {mult} 倍，淨負債 {ntd(net_debt)}；(3) 現金流量折現法（DCF）算出的權益價值 {ntd(dcf)}。"
         f"三者權重分別為 {pct(w1, 0)}、{pct(w2, 0)}、{pct(w3, 0)}。請問加權平均後的權益價值是多少？")
    return c.numeric(q, v, ntd(v), {"ni": ni, "pe": pe, "ebitda": ebitda, "mult": mult, "net_debt": net_debt, "dcf": dcf,
                                    "w1": w1, "w2": w2, "w3": w3})


@template(D, "valuation_methods", "valuation_methods_adv1", "進階")
def valuation_methods_adv1(rng: random.Random) -> Problem:
    tgt = pick_company(rng)
    fcf0 = pick_money(rng, 50_000_000, 1_000_000_000, 1_000_000)
    g1 = pick_rate(rng, 5, 15, 0.5)
    gt = pick_rate(rng, 1, 3, 0.5)
    wacc = pick_rate(rng, 7, 11, 0.5)
    net_debt = pick_money(rng, 0, round(fcf0 * 5), 1_000_000)
    shares = pick_money(rng, 50_000_000, 800_000_000, 1_000_000)
    c = Chain()
    f1 = c.add("第 1 年自由現金流量", fcf0 * (1 + g1), f"{ntd(fcf0)} × (1 + {pct(g1, 1)})", ntd)
    f2 = c.add("第 2 年自由現金流量", f1 * (1 + g1), f"{ntd(f1)} × (1 + {pct(g1, 1)})", ntd)
    f3 = c.add("第 3 年自由現金流量", f2 * (1 + g1), f"{ntd(f2)} × (1 + {pct(g1, 1)})", ntd)
    tv = c.add("第 3 年底終值", f3 * (1 + gt) / (wacc - gt), f"{ntd(f3)} × (1 + {pct(gt, 1)}) ÷ ({pct(wacc, 1)} − {pct(gt, 1)})", ntd)
    pv = c.add("預測期現金流量現值", f1 / (1 + wacc) + f2 / (1 + wacc) ** 2 + f3 / (1 + wacc) ** 3,
               f"{ntd(f1)} ÷ (1 + {pct(wacc, 1)}) + {ntd(f2)} ÷ (1 + {pct(wacc, 1)})^2 + {ntd(f3)} ÷ (1 + {pct(wacc, 1)})^3", ntd)
    pv_tv = c.add("終值現值", tv / (1 + wacc) ** 3, f"{ntd(tv)} ÷ (1 + {pct(wacc, 1)})^3", ntd)
    ev = c.add("企業價值", pv + pv_tv, f"{ntd(pv)} + {ntd(pv_tv)}", ntd)
    per = c.add("每股價值", (ev - net_debt) / shares, f"({ntd(ev)} − {ntd(net_debt)}) ÷ {num(shares)}", lambda x: ntd(x, 2))
    q = (f"以現金流量折現法評價{tgt}：最近一年自由現金流量 {ntd(fcf0)}，未來 3 年每年成長 {pct(g1, 1)}，之後永續成長 {pct(gt, 1)}。"
         f"加權平均資金成本（WACC）{pct(wacc, 1)}，淨負債 {ntd(net_debt)}，流通在外 {shares_text(shares)}。"
         f"終值以第 3 年底的成長型永續年金計算。請問每股價值是多少？{ASK_MONEY}")
    return c.numeric(q, per, ntd(per, 2), {"fcf0": fcf0, "g1": g1, "gt": gt, "wacc": wacc, "net_debt": net_debt,
                                           "shares": shares})

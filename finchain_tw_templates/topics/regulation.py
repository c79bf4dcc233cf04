"""金融法規 (regulation): aml, basel, compliance, kyc, security. Thresholds and rules are stated in each
question as the scenario's assumptions (calculations, not legal advice)."""

from __future__ import annotations

import random

from finchain_tw_templates.common import (
    ASK_MONEY,
    ASK_NUM,
    ASK_PCT,
    Chain,
    ask,
    fmt_value,
    ntd,
    num,
    pct,
    pick_bank,
    pick_company,
    pick_decimal,
    pick_money,
    pick_person,
    pick_rate,
)
from finchain_tw_templates.core import Problem, template
from finchain_tw_templates.facts import (
    CASH_REPORT_BODY,
    CASH_REPORT_DAYS,
    CASH_REPORT_THRESHOLD,
    CET1_BASE_MIN,
    CONSERVATION_BUFFER,
    annuity_factor,
    annuity_factor_given,
)

D = "regulation"
CASH_THRESHOLD = CASH_REPORT_THRESHOLD  # 大額通貨交易：單筆現金收付達 NT$50 萬（facts.py）


def _pts(v: float) -> str:
    return f"{fmt_value(v)} 分"


# ---------------------------------------------------------------- aml


@template(D, "aml", "aml_basic1", "基礎")
def aml_basic1(rng: random.Random) -> Problem:
    bank, who = pick_bank(rng), pick_person(rng)
    n = rng.randint(2, 3)
    amounts = [pick_money(rng, 50_000, 800_000, 1_000) for _ in range(n)]
    listing = "、".join(ntd(a) for a in amounts)
    q = (f"{bank}的客戶{who}於同一營業日在臨櫃辦理 {n} 筆現金存款，金額分別為 {listing}。依洗錢防制相關規定，"
         f"金融機構對單筆現金收付達 {ntd(CASH_THRESHOLD)}（含等值外幣）以上的通貨交易，須於交易完成後 "
         f"{CASH_REPORT_DAYS} 個營業日內向{CASH_REPORT_BODY}申報大額通貨交易。請判斷{bank}是否須就本案申報"
         f"大額通貨交易（回答「是」或「否」）。")
    c = Chain()
    top = c.add("單筆最大現金存款", max(amounts), "（" + "、".join(ntd(a) for a in amounts) + "）中的最大者", ntd)
    need = top >= CASH_THRESHOLD
    c.note(f"以單筆金額與申報門檻 {ntd(CASH_THRESHOLD)} 比較（各筆不合併計算）",
           "有單筆達門檻" if need else "沒有單筆達門檻")
    params = {"threshold": CASH_THRESHOLD, **{f"a{i}": a for i, a in enumerate(amounts)}}
    return c.categorical(q, "是" if need else "否", params=params)


@template(D, "aml", "aml_basic2", "基礎")
def aml_basic2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    months = [pick_money(rng, 20_000, 300_000, 1_000) for _ in range(3)]
    now = pick_money(rng, 50_000, 3_000_000, 1_000)
    q = (f"{who}的帳戶過去三個月的入帳金額分別為 {ntd(months[0])}、{ntd(months[1])} 與 {ntd(months[2])}，本月入帳 {ntd(now)}。"
         f"交易監控系統以「本月入帳 ÷ 前三個月平均入帳」衡量異常程度。請計算此倍數。{ASK_NUM}")
    c = Chain()
    avg = c.add("前三個月平均入帳", sum(months) / 3, f"（{' + '.join(ntd(m) for m in months)}）÷ 3", ntd)
    mult = c.add("異常倍數", now / avg, f"{ntd(now)} ÷ {ntd(avg)}", lambda v: f"{fmt_value(v)} 倍")
    return c.numeric(q, mult, num(mult, 2), params={"m0": months[0], "m1": months[1], "m2": months[2], "now": now})


@template(D, "aml", "aml_intermediate1", "中級")
def aml_inter1(rng: random.Random) -> Problem:
    who = pick_company(rng)
    weights = (0.4, 0.35, 0.25)
    scores = [rng.randint(1, 10) for _ in range(3)]
    q = (f"銀行以加權評分評估企業客戶{who}公司的洗錢風險：地域風險分數 {scores[0]}（權重 40%）、行業風險分數 "
         f"{scores[1]}（權重 35%）、交易型態風險分數 {scores[2]}（權重 25%），滿分均為 10 分。請計算加權後的洗錢"
         f"風險分數。{ASK_NUM}")
    c = Chain()
    parts = [c.add(name, s * w, f"{s} × {pct(w, 0)}", _pts)
             for name, s, w in zip(("地域風險得分", "行業風險得分", "交易型態風險得分"), scores, weights)]
    tot = c.add("洗錢風險分數", sum(parts), " + ".join(fmt_value(p) for p in parts), _pts)
    return c.numeric(q, tot, num(tot, 2), params={"s0": scores[0], "s1": scores[1], "s2": scores[2]})


@template(D, "aml", "aml_intermediate2", "中級")
def aml_inter2(rng: random.Random) -> Problem:
    bank, who = pick_bank(rng), pick_person(rng)
    amounts = [pick_money(rng, 150_000, 499_000, 1_000) for _ in range(3)]
    days = sorted(rng.sample(range(1, 8), 3))
    q = (f"{bank}的監控規則：同一客戶 7 日內有多筆單筆未達大額通貨交易申報門檻 {ntd(CASH_THRESHOLD)} 的現金存款，"
         f"但合計達 {ntd(CASH_THRESHOLD)} 的 2 倍（含）以上，且平均單筆金額達門檻的 70%（含）以上，即列為疑似分散交易，須進一步審查。客戶{who}在第 "
         f"{days[0]}、{days[1]}、{days[2]} 天分別存入現金 {ntd(amounts[0])}、{ntd(amounts[1])}、{ntd(amounts[2])}。"
         f"請判斷是否列為疑似分散交易（回答「是」或「否」）。")
    c = Chain()
    tot = c.add("7 日內現金存款合計", sum(amounts), " + ".join(ntd(a) for a in amounts), ntd)
    ratio = c.add("合計相對門檻倍數", tot / CASH_THRESHOLD, f"{ntd(tot)} ÷ {ntd(CASH_THRESHOLD)}",
                  lambda v: f"{fmt_value(v)} 倍")
    avg = c.add("平均單筆金額占門檻比例", tot / 3 / CASH_THRESHOLD, f"{ntd(tot)} ÷ 3 ÷ {ntd(CASH_THRESHOLD)}", pct)
    flag = ratio >= 2 and avg >= 0.7
    c.note("兩項條件是否同時成立", "成立" if flag else "不成立")
    return c.categorical(q, "是" if flag else "否", params={"a0": amounts[0], "a1": amounts[1], "a2": amounts[2],
                                                          "threshold": CASH_THRESHOLD})


@template(D, "aml", "aml_advanced1", "進階")
def aml_adv1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    cash_in = [pick_money(rng, 10_000, 400_000, 1_000) for _ in range(2)]
    wire_in = [pick_money(rng, 50_000, 1_500_000, 1_000) for _ in range(2)]
    total_in = sum(cash_in) + sum(wire_in)
    out24 = pick_money(rng, int(total_in * 0.3), int(total_in * 0.99), 1_000)
    q = (f"{who}的帳戶在一天內收到現金存入 {ntd(cash_in[0])}、{ntd(cash_in[1])}，以及兩筆跨行匯入 {ntd(wire_in[0])}、"
         f"{ntd(wire_in[1])}；這些資金在入帳後 24 小時內共有 {ntd(out24)} 被轉往境外帳戶。請計算「快進快出比率」"
         f"（24 小時內轉出 ÷ 當日總流入）。{ASK_PCT}")
    c = Chain()
    ci = c.add("現金存入合計", sum(cash_in), f"{ntd(cash_in[0])} + {ntd(cash_in[1])}", ntd)
    wi = c.add("匯入合計", sum(wire_in), f"{ntd(wire_in[0])} + {ntd(wire_in[1])}", ntd)
    tot = c.add("當日總流入", ci + wi, f"{ntd(ci)} + {ntd(wi)}", ntd)
    c.add("帳戶留存金額", tot - out24, f"{ntd(tot)} − {ntd(out24)}", ntd)
    c.add("現金占總流入比例", ci / tot, f"{ntd(ci)} ÷ {ntd(tot)}", pct)
    r = c.add("快進快出比率", out24 / tot, f"{ntd(out24)} ÷ {ntd(tot)}", pct)
    return c.numeric(q, r, pct(r), params={"c0": cash_in[0], "c1": cash_in[1], "w0": wire_in[0], "w1": wire_in[1],
                                           "out24": out24})


# ---------------------------------------------------------------- basel


@template(D, "basel", "basel_basic1", "基礎")
def basel_basic1(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    rwa = pick_money(rng, 100_000_000_000, 3_000_000_000_000, 1_000_000_000)
    cap = pick_money(rng, int(rwa * 0.08), int(rwa * 0.18), 100_000_000)
    q = (f"{bank}的合格自有資本淨額為 {ntd(cap)}，風險性資產總額為 {ntd(rwa)}。請計算該行的資本適足率。{ASK_PCT}")
    c = Chain()
    car = c.add("資本適足率", cap / rwa, f"{ntd(cap)} ÷ {ntd(rwa)}", pct)
    return c.numeric(q, car, pct(car), params={"cap": cap, "rwa": rwa})


@template(D, "basel", "basel_basic2", "基礎")
def basel_basic2(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    rwa = pick_money(rng, 100_000_000_000, 2_000_000_000_000, 1_000_000_000)
    cet1 = pick_money(rng, int(rwa * 0.05), int(rwa * 0.1), 100_000_000)
    minimum, buffer = CET1_BASE_MIN, CONSERVATION_BUFFER
    q = (f"{bank}的普通股權益第一類資本為 {ntd(cet1)}，風險性資產總額 {ntd(rwa)}。若最低普通股權益比率為 {pct(minimum, 1)}，"
         f"另須加計 {pct(buffer, 1)} 的留存緩衝資本，請判斷該行是否符合要求（回答「是」或「否」）。")
    c = Chain()
    ratio = c.add("普通股權益比率", cet1 / rwa, f"{ntd(cet1)} ÷ {ntd(rwa)}", pct)
    req = c.add("應達比率", minimum + buffer, f"{pct(minimum, 1)} + {pct(buffer, 1)}", pct)
    ok = ratio >= req - 1e-12
    c.note("比較普通股權益比率與應達比率", "符合" if ok else "不符合")
    return c.categorical(q, "是" if ok else "否", params={"cet1": cet1, "rwa": rwa, "minimum": minimum,
                                                        "buffer": buffer})


@template(D, "basel", "basel_intermediate1", "中級")
def basel_inter1(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    gov = pick_money(rng, 10_000_000_000, 300_000_000_000, 100_000_000)
    corp = pick_money(rng, 50_000_000_000, 800_000_000_000, 100_000_000)
    mort = pick_money(rng, 30_000_000_000, 500_000_000_000, 100_000_000)
    w_corp = rng.choice([0.5, 0.65, 0.75])  # not 100%: that step would only restate the exposure
    w_mort = rng.choice([0.35, 0.45])
    est = corp * w_corp + mort * w_mort
    cap = pick_money(rng, int(est * 0.09), int(est * 0.16), 10_000_000)
    q = (f"{bank}的信用曝險包括：本國政府債券 {ntd(gov)}（風險權數 0%）、企業放款 {ntd(corp)}（風險權數 {pct(w_corp, 0)}）、"
         f"住宅抵押貸款 {ntd(mort)}（風險權數 {pct(w_mort, 0)}）。合格自有資本 {ntd(cap)}。若僅考慮信用風險，"
         f"請計算資本適足率。{ASK_PCT}")
    c = Chain()
    a = c.add("企業放款風險性資產", corp * w_corp, f"{ntd(corp)} × {pct(w_corp, 0)}", ntd)
    b = c.add("住宅抵押貸款風險性資產", mort * w_mort, f"{ntd(mort)} × {pct(w_mort, 0)}", ntd)
    rwa = c.add("風險性資產總額", a + b, f"NT$0 + {ntd(a)} + {ntd(b)}", ntd)
    car = c.add("資本適足率", cap / rwa, f"{ntd(cap)} ÷ {ntd(rwa)}", pct)
    return c.numeric(q, car, pct(car), params={"gov": gov, "corp": corp, "mort": mort, "w_corp": w_corp,
                                               "w_mort": w_mort, "cap": cap})


@template(D, "basel", "basel_intermediate2", "中級")
def basel_inter2(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    on = pick_money(rng, 500_000_000_000, 5_000_000_000_000, 1_000_000_000)
    off = pick_money(rng, 50_000_000_000, 800_000_000_000, 1_000_000_000)
    ccf = rng.choice([0.1, 0.2, 0.4, 0.5])
    tier1 = pick_money(rng, int((on + off * ccf) * 0.03), int((on + off * ccf) * 0.08), 100_000_000)
    q = (f"{bank}的表內曝險總額為 {ntd(on)}，表外承諾額度 {ntd(off)}，信用轉換係數為 {pct(ccf, 0)}；第一類資本淨額 "
         f"{ntd(tier1)}。請計算該行的槓桿比率（第一類資本 ÷ 曝險總額）。{ASK_PCT}")
    c = Chain()
    off_eq = c.add("表外曝險約當金額", off * ccf, f"{ntd(off)} × {pct(ccf, 0)}", ntd)
    exp = c.add("曝險總額", on + off_eq, f"{ntd(on)} + {ntd(off_eq)}", ntd)
    lev = c.add("槓桿比率", tier1 / exp, f"{ntd(tier1)} ÷ {ntd(exp)}", pct)
    return c.numeric(q, lev, pct(lev), params={"on": on, "off": off, "ccf": ccf, "tier1": tier1})


@template(D, "basel", "basel_advanced1", "進階")
def basel_adv1(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    corp = pick_money(rng, 100_000_000_000, 900_000_000_000, 1_000_000_000)
    retail = pick_money(rng, 50_000_000_000, 600_000_000_000, 1_000_000_000)
    bank_exp = pick_money(rng, 20_000_000_000, 300_000_000_000, 1_000_000_000)
    op_charge = pick_money(rng, 1_000_000_000, 20_000_000_000, 100_000_000)
    mkt_charge = pick_money(rng, 500_000_000, 10_000_000_000, 100_000_000)
    est = corp + retail * 0.75 + bank_exp * 0.2 + (op_charge + mkt_charge) * 12.5
    cap = pick_money(rng, int(est * 0.08), int(est * 0.16), 100_000_000)
    q = (f"{bank}的資料如下：企業放款 {ntd(corp)}（風險權數 100%）、零售放款 {ntd(retail)}（風險權數 75%）、"
         f"對其他銀行債權 {ntd(bank_exp)}（風險權數 20%）；作業風險資本要求 {ntd(op_charge)}，市場風險資本要求 "
         f"{ntd(mkt_charge)}（兩者皆乘以 12.5 換算為風險性資產）。合格自有資本淨額 {ntd(cap)}。"
         f"請計算該行的資本適足率。{ASK_PCT}")
    c = Chain()
    credit = c.add("信用風險性資產", corp * 1.0 + retail * 0.75 + bank_exp * 0.2,
                   f"{ntd(corp)} × 100% + {ntd(retail)} × 75% + {ntd(bank_exp)} × 20%", ntd)
    op = c.add("作業風險性資產", op_charge * 12.5, f"{ntd(op_charge)} × 12.5", ntd)
    mk = c.add("市場風險性資產", mkt_charge * 12.5, f"{ntd(mkt_charge)} × 12.5", ntd)
    rwa = c.add("風險性資產總額", credit + op + mk, f"{ntd(credit)} + {ntd(op)} + {ntd(mk)}", ntd)
    car = c.add("資本適足率", cap / rwa, f"{ntd(cap)} ÷ {ntd(rwa)}", pct)
    return c.numeric(q, car, pct(car), params={"corp": corp, "retail": retail, "bank_exp": bank_exp,
                                               "op_charge": op_charge, "mkt_charge": mkt_charge, "cap": cap})


# ---------------------------------------------------------------- compliance


@template(D, "compliance", "compliance_basic1", "基礎")
def comp_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    staff = rng.randint(80, 5_000)
    done = rng.randint(staff // 2, staff)
    q = (f"{co}公司共有 {staff:,} 名員工須完成年度法令遵循教育訓練，截至期限已有 {done:,} 人完成。"
         f"請計算訓練完成率。{ASK_PCT}")
    c = Chain()
    r = c.add("訓練完成率", done / staff, f"{done:,} ÷ {staff:,}", pct)
    return c.numeric(q, r, pct(r), params={"staff": staff, "done": done})


@template(D, "compliance", "compliance_basic2", "基礎")
def comp_basic2(rng: random.Random) -> Problem:
    co = pick_company(rng)
    people = pick_money(rng, 2_000_000, 40_000_000, 10_000)
    systems = pick_money(rng, 1_000_000, 30_000_000, 10_000)
    rev = pick_money(rng, 500_000_000, 20_000_000_000, 1_000_000)
    q = (f"{co}公司本年度法令遵循相關支出包括人事費用 {ntd(people)} 與系統建置費用 {ntd(systems)}，全年營業收入為 "
         f"{ntd(rev)}。請計算法遵成本占營業收入的比例。{ASK_PCT}")
    c = Chain()
    tot = c.add("法遵成本合計", people + systems, f"{ntd(people)} + {ntd(systems)}", ntd)
    r = c.add("法遵成本占營收比例", tot / rev, f"{ntd(tot)} ÷ {ntd(rev)}", pct)
    return c.numeric(q, r, pct(r), params={"people": people, "systems": systems, "rev": rev})


@template(D, "compliance", "compliance_intermediate1", "中級")
def comp_inter1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    prob0 = pick_rate(rng, 10, 40, 1)
    prob1 = pick_rate(rng, 1, prob0 * 100 - 3, 1)
    fine = pick_money(rng, 5_000_000, 100_000_000, 100_000)
    cost = pick_money(rng, 500_000, 20_000_000, 10_000)
    q = (f"{co}公司評估內部控制缺失：若不改善，一年內遭主管機關裁罰的機率為 {pct(prob0, 0)}，預估罰鍰 {ntd(fine)}；"
         f"投入 {ntd(cost)} 改善後，機率可降至 {pct(prob1, 0)}。請計算改善方案的年度淨效益（預期罰鍰減少數 − 改善成本；"
         f"若為負數，表示改善不符成本效益）。{ASK_MONEY}")
    c = Chain()
    e0 = c.add("改善前預期罰鍰", prob0 * fine, f"{pct(prob0, 0)} × {ntd(fine)}", ntd)
    e1 = c.add("改善後預期罰鍰", prob1 * fine, f"{pct(prob1, 0)} × {ntd(fine)}", ntd)
    net = c.add("年度淨效益", e0 - e1 - cost, f"{ntd(e0)} − {ntd(e1)} − {ntd(cost)}", ntd)
    return c.numeric(q, net, ntd(net), params={"prob0": prob0, "prob1": prob1, "fine": fine, "cost": cost})


@template(D, "compliance", "compliance_intermediate2", "中級")
def comp_inter2(rng: random.Random) -> Problem:
    bank, co = pick_bank(rng), pick_company(rng)
    nw = pick_money(rng, 50_000_000_000, 500_000_000_000, 1_000_000_000)
    limit = rng.choice([0.03, 0.05, 0.1, 0.15])
    existing = pick_money(rng, int(nw * limit * 0.3), int(nw * limit * 0.9), 10_000_000)
    new = pick_money(rng, int(nw * limit * 0.05), int(nw * limit * 0.5), 10_000_000)
    q = (f"{bank}的內部授信政策規定：對同一企業的授信總餘額不得超過本行淨值的 {pct(limit, 0)}。本行淨值 {ntd(nw)}，"
         f"對{co}公司現有授信餘額 {ntd(existing)}，該公司再申請新授信 {ntd(new)}。請判斷此筆申請在額度內是否可核准"
         f"（回答「是」或「否」）。")
    c = Chain()
    cap = c.add("同一企業授信上限", nw * limit, f"{ntd(nw)} × {pct(limit, 0)}", ntd)
    after = c.add("核貸後授信總餘額", existing + new, f"{ntd(existing)} + {ntd(new)}", ntd)
    room = c.add("剩餘額度", cap - after, f"{ntd(cap)} − {ntd(after)}", ntd)
    ok = room >= 0
    c.note("剩餘額度是否為非負", "在額度內" if ok else "超過上限")
    return c.categorical(q, "是" if ok else "否", params={"nw": nw, "limit": limit, "existing": existing, "new": new})


@template(D, "compliance", "compliance_advanced1", "進階")
def comp_adv1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    fine_cut = pick_money(rng, 2_000_000, 30_000_000, 100_000)
    labor = pick_money(rng, 500_000, 8_000_000, 10_000)
    run = pick_money(rng, 1_000_000, 10_000_000, 10_000)
    invest = pick_money(rng, 5_000_000, 60_000_000, 100_000)
    n = rng.randint(3, 8)
    r = pick_rate(rng, 3, 10, 0.5)
    q = (f"{co}公司評估導入法遵科技系統：期初投資 {ntd(invest)}，之後 {n} 年每年可減少預期罰鍰 {ntd(fine_cut)}、"
         f"節省人工審核成本 {ntd(labor)}，但每年須支付系統維運費 {ntd(run)}。折現率 {pct(r, 1)}，效益於每年年底發生"
         f"（{annuity_factor_given(r, n)}）。"
         f"請計算此方案的淨現值。{ASK_MONEY}")
    c = Chain()
    gain = c.add("每年效益合計", fine_cut + labor, f"{ntd(fine_cut)} + {ntd(labor)}", ntd)
    cf = c.add("每年淨現金流量", gain - run, f"{ntd(gain)} − {ntd(run)}", ntd)
    disc = c.add("年金現值因子", annuity_factor(r, n), f"〔1 − （1 + {pct(r, 1)}）^−{n}〕÷ {pct(r, 1)}",
                 lambda v: f"{v:.4f}")
    pv = c.add("淨現金流量現值", cf * disc, f"{ntd(cf)} × {fmt_value(disc)}", ntd)
    npv = c.add("淨現值", pv - invest, f"{ntd(pv)} − {ntd(invest)}", ntd)
    return c.numeric(q, npv, ntd(npv), params={"fine_cut": fine_cut, "labor": labor, "run": run, "invest": invest,
                                               "n": n, "r": r})


# ---------------------------------------------------------------- kyc

def _kyc_level(score: float, low_max: float, mid_max: float) -> str:
    return "低" if score <= low_max else ("中" if score <= mid_max else "高")


@template(D, "kyc", "kyc_basic1", "基礎")
def kyc_basic1(rng: random.Random) -> Problem:
    bank, who = pick_bank(rng), pick_person(rng)
    job = rng.choice([("公務員", 0), ("一般上班族", 1), ("自營業者", 2), ("珠寶商", 3), ("虛擬資產業者", 3)])
    country = rng.choice([("本國", 0), ("低風險國家", 1), ("高風險國家或地區", 3)])
    volume = rng.choice([("每月 NT$100,000 以下", 0), ("每月 NT$100,000 至 NT$1,000,000", 1),
                         ("每月 NT$1,000,000 以上", 2)])
    # FACTS.md 1.7: a current foreign PEP is high risk outright; a domestic (or international-organisation) PEP
    # is risk-assessed — here by the bank's points
    pep = rng.choice([("否", 0, False), ("否", 0, False), ("現任國內政府之重要政治性職務人士", 2, False),
                      ("現任國外政府之重要政治性職務人士", 0, True)])
    q = (f"{bank}開戶審查的風險計分規則：職業別（公務員 0 分、一般上班族 1 分、自營業者 2 分、珠寶商或虛擬資產業者 3 分）、"
         f"國籍或居住地（本國 0 分、低風險國家 1 分、高風險國家或地區 3 分）、預期交易量（每月 NT$100,000 以下 0 分、"
         f"NT$100,000 至 NT$1,000,000 1 分、NT$1,000,000 以上 2 分）、重要政治性職務人士（現任國內政府或國際組織之"
         f"重要政治性職務人士 2 分、非重要政治性職務人士 0 分）。總分 0–3 分為低風險、4–6 分為中風險、7 分以上為高風險；"
         f"但依金融機構防制洗錢辦法，客戶為現任國外政府之重要政治性職務人士者，不論分數，直接列為高風險。"
         f"新客戶{who}為{job[0]}，居住於{country[0]}，預期交易量{volume[0]}，"
         f"是否為重要政治性職務人士：{pep[0]}。請判斷其 KYC 風險等級（低／中／高）。")
    c = Chain()
    score = c.add("風險總分", job[1] + country[1] + volume[1] + pep[1],
                  f"{job[1]} + {country[1]} + {volume[1]} + {pep[1]}", _pts)
    if pep[2]:
        level = "高"
        c.note("現任國外政府之重要政治性職務人士，直接列為高風險", "高風險")
    else:
        level = _kyc_level(score, 3, 6)
        c.note("對照分級標準", f"{level}風險")
    return c.categorical(q, level, params={"_job": job[1], "_country": country[1], "_volume": volume[1],
                                           "_pep": pep[1], "_foreign_pep": pep[2]})


@template(D, "kyc", "kyc_basic2", "基礎")
def kyc_basic2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    income = pick_money(rng, 400_000, 5_000_000, 10_000)
    trade = pick_money(rng, 50_000, 8_000_000, 10_000)
    q = (f"客戶{who}開戶時申報的年收入為 {ntd(income)}，本年度迄今透過帳戶的交易總額為 {ntd(trade)}。銀行以「交易總額 ÷ "
         f"申報年收入」檢視交易是否與身分相符。請計算此比率。{ASK_PCT}")
    c = Chain()
    r = c.add("交易額占年收入比例", trade / income, f"{ntd(trade)} ÷ {ntd(income)}", pct)
    return c.numeric(q, r, pct(r), params={"income": income, "trade": trade})


@template(D, "kyc", "kyc_intermediate1", "中級")
def kyc_inter1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    expected = pick_money(rng, 50_000, 2_000_000, 10_000)
    actual = [pick_money(rng, int(expected * 0.5), int(expected * 2.5), 1_000) for _ in range(3)]
    q = (f"客戶{who}開戶時聲明每月預期交易金額約 {ntd(expected)}，最近三個月實際交易金額為 {ntd(actual[0])}、"
         f"{ntd(actual[1])}、{ntd(actual[2])}。請計算實際月平均交易額超出（或低於）預期的比例，低於以負數表示。{ASK_PCT}")
    c = Chain()
    tot = c.add("三個月交易合計", sum(actual), " + ".join(ntd(a) for a in actual), ntd)
    avg = c.add("月平均交易額", tot / 3, f"{ntd(tot)} ÷ 3", ntd)
    dev = c.add("偏離預期比例", avg / expected - 1, f"{ntd(avg)} ÷ {ntd(expected)} − 1", pct)
    return c.numeric(q, dev, pct(dev), params={"expected": expected, "a0": actual[0], "a1": actual[1],
                                               "a2": actual[2]})


@template(D, "kyc", "kyc_intermediate2", "中級")
def kyc_inter2(rng: random.Random) -> Problem:
    bank, who = pick_bank(rng), pick_person(rng)
    weights = (0.3, 0.3, 0.2, 0.2)
    names = ("客戶身分", "地域", "產品與通路", "交易行為")
    scores = [rng.randint(1, 5) for _ in range(4)]
    desc = "、".join(f"{n} {s} 分（權重 {pct(w, 0)}）" for n, s, w in zip(names, scores, weights))
    q = (f"{bank}對客戶{who}進行定期審查，四個構面的風險分數（1–5 分）與權重為：{desc}。加權分數低於 2.0 為低風險、"
         f"2.0（含）至 3.5 為中風險、3.5（含）以上為高風險。請判斷其 KYC 風險等級（低／中／高）。")
    c = Chain()
    parts = [c.add(f"{n}加權分數", s * w, f"{s} × {pct(w, 0)}", _pts) for n, s, w in zip(names[:3], scores, weights)]
    tail = scores[3] * weights[3]
    tot = c.add("加權總分", sum(parts) + tail, f"{' + '.join(fmt_value(p) for p in parts)} + {scores[3]} × 20%", _pts)
    level = "低" if tot < 2.0 - 1e-9 else ("中" if tot < 3.5 - 1e-9 else "高")
    c.note("對照分級標準", f"{level}風險")
    return c.categorical(q, level, params={f"s{i}": s for i, s in enumerate(scores)})


@template(D, "kyc", "kyc_advanced1", "進階")
def kyc_adv1(rng: random.Random) -> Problem:
    bank, who = pick_bank(rng), pick_person(rng)
    income = pick_money(rng, 500_000, 6_000_000, 10_000)
    # monthly activity between 0.3 and 2.5 times the declared monthly income: all three levels occur
    monthly = [pick_money(rng, income // 40, income * 5 // 24, 1_000) for _ in range(3)]
    cash_share = pick_rate(rng, 0, 50, 5)
    foreign = rng.randint(0, 8)
    q = (f"{bank}以量化規則評估客戶{who}的 KYC 風險：(1) 年化交易額（近三個月月平均 × 12）÷ 申報年收入，每 1 倍得 2 分"
         f"（最高 6 分）；(2) 現金交易占比每 10 個百分點得 1 分；(3) 近三個月與高風險地區往來筆數每筆得 0.5 分。總分低於 4 分為"
         f"低風險，4（含）至 8 分為中風險，8 分（含）以上為高風險。客戶申報年收入 {ntd(income)}，近三個月交易額為 "
         f"{ntd(monthly[0])}、{ntd(monthly[1])}、{ntd(monthly[2])}，現金交易占比 {pct(cash_share, 0)}，與高風險地區往來 "
         f"{foreign} 筆。請判斷其風險等級（低／中／高）。")
    c = Chain()
    avg = c.add("月平均交易額", sum(monthly) / 3, f"（{' + '.join(ntd(m) for m in monthly)}）÷ 3", ntd)
    annual = c.add("年化交易額", avg * 12, f"{ntd(avg)} × 12", ntd)
    mult = c.add("年化交易額對年收入倍數", annual / income, f"{ntd(annual)} ÷ {ntd(income)}", lambda v: f"{fmt_value(v)} 倍")
    s1 = c.add("交易規模得分", min(6.0, 2 * mult), f"2 × {fmt_value(mult)}（最高 6 分）", _pts)
    s2 = c.add("現金交易得分", cash_share * 100 / 10, f"{pct(cash_share, 0)} ÷ 10 個百分點", _pts)
    s3 = c.add("高風險地區往來得分", foreign * 0.5, f"{foreign} × 0.5", _pts)
    tot = c.add("風險總分", s1 + s2 + s3, f"{fmt_value(s1)} + {fmt_value(s2)} + {fmt_value(s3)}", _pts)
    level = "低" if tot < 4 - 1e-9 else ("中" if tot < 8 - 1e-9 else "高")
    c.note("對照分級標準", f"{level}風險")
    return c.categorical(q, level, params={"income": income, "m0": monthly[0], "m1": monthly[1], "m2": monthly[2],
                                           "cash_share": cash_share, "foreign": foreign})


# ---------------------------------------------------------------- security


@template(D, "security", "security_basic1", "基礎")
def sec_basic1(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    av = pick_money(rng, 1_000_000, 200_000_000, 100_000)
    ef = pick_rate(rng, 5, 80, 5)
    aro = pick_decimal(rng, 0.05, 3, 2)
    q = (f"{bank}評估網路銀行系統遭勒索軟體攻擊的風險：資產價值 {ntd(av)}，單次事件的暴露係數為 {pct(ef, 0)}，"
         f"年發生率估計為 {num(aro, 2)} 次。請計算年度預期損失。{ASK_MONEY}")
    c = Chain()
    sle = c.add("單一損失預期值（SLE）", av * ef, f"{ntd(av)} × {pct(ef, 0)}", ntd)
    ale = c.add("年度預期損失", sle * aro, f"{ntd(sle)} × {num(aro, 2)}", ntd)
    return c.numeric(q, ale, ntd(ale), params={"av": av, "ef": ef, "aro": aro})


@template(D, "security", "security_basic2", "基礎")
def sec_basic2(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    days = rng.choice([30, 31, 90, 365])
    down = pick_decimal(rng, 0.5, 30, 1)
    q = (f"{bank}的行動支付系統在 {days} 天的統計期間內共停機 {num(down, 1)} 小時。請計算該期間的系統可用率。"
         f"{ask(4, '百分比')}")
    c = Chain()
    hours = c.add("統計期間總時數", days * 24, f"{days} × 24", lambda v: f"{fmt_value(v)} 小時")
    av = c.add("系統可用率", (hours - down) / hours, f"（{fmt_value(hours)} − {num(down, 1)}）÷ {fmt_value(hours)}",
               lambda v: pct(v, 4))
    return c.numeric(q, av, pct(av, 4), params={"days": days, "down": down})


@template(D, "security", "security_intermediate1", "中級")
def sec_inter1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    sle = pick_money(rng, 500_000, 50_000_000, 10_000)
    aro0 = pick_decimal(rng, 0.2, 3, 2)
    aro1 = pick_decimal(rng, 0.01, aro0 * 0.6, 2)
    cost = pick_money(rng, 100_000, int(sle * aro0), 10_000)
    q = (f"{co}公司的客戶資料外洩事件單一損失預期值（SLE）為 {ntd(sle)}，年發生率 {num(aro0, 2)} 次。導入資料外洩防護系統後，"
         f"年發生率可降至 {num(aro1, 2)} 次，系統年成本 {ntd(cost)}。請計算導入後的年度淨效益（若為負數，表示導入不符成本效益）。{ASK_MONEY}")
    c = Chain()
    a0 = c.add("導入前年度預期損失", sle * aro0, f"{ntd(sle)} × {num(aro0, 2)}", ntd)
    a1 = c.add("導入後年度預期損失", sle * aro1, f"{ntd(sle)} × {num(aro1, 2)}", ntd)
    red = c.add("預期損失減少數", a0 - a1, f"{ntd(a0)} − {ntd(a1)}", ntd)
    net = c.add("年度淨效益", red - cost, f"{ntd(red)} − {ntd(cost)}", ntd)
    return c.numeric(q, net, ntd(net), params={"sle": sle, "aro0": aro0, "aro1": aro1, "cost": cost})


@template(D, "security", "security_intermediate2", "中級")
def sec_inter2(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    while True:  # redraw until the answer is between 0.01 day and 10 million days
        charset, label = rng.choice([(10, "純數字"), (26, "小寫英文字母"), (36, "小寫英文字母加數字"),
                                     (62, "大小寫英文字母加數字")])
        length = rng.randint(6, 10)
        rate = rng.choice([1_000, 10_000, 100_000, 1_000_000, 10_000_000])
        if 0.01 <= charset**length / 2 / rate / 86_400 <= 1e7:
            break
    q = (f"{bank}評估密碼政策：若密碼由{label}組成（共 {charset} 種字元），長度 {length} 碼，攻擊者每秒可嘗試 {rate:,} 組。"
         f"假設平均須嘗試全部組合的一半才能破解，請計算平均破解所需時間（以天為單位）。{ASK_NUM}")
    c = Chain()
    combos = c.add("密碼組合數", float(charset**length), f"{charset}^{length}", lambda v: f"{v:,.0f}")
    tries = c.add("平均嘗試次數", combos / 2, f"{combos:,.0f} ÷ 2", lambda v: f"{v:,.0f}")
    secs = c.add("平均破解秒數", tries / rate, f"{tries:,.0f} ÷ {rate:,}", lambda v: f"{fmt_value(v)} 秒")
    days = c.add("平均破解天數", secs / 86_400, f"{fmt_value(secs)} ÷ 86,400", lambda v: f"{fmt_value(v)} 天")
    return c.numeric(q, days, num(days, 2), params={"charset": charset, "length": length, "rate": rate})


@template(D, "security", "security_advanced1", "進階")
def sec_adv1(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    av = pick_money(rng, 10_000_000, 500_000_000, 100_000)
    ef = pick_rate(rng, 10, 60, 5)
    aro = pick_decimal(rng, 0.2, 2, 2)
    cut = pick_rate(rng, 30, 90, 5)
    red_est = av * ef * aro * cut
    cost = pick_money(rng, int(red_est * 0.5) + 10_000, int(red_est * 1.5), 10_000)  # ROSI within −33%…+100%
    q = (f"{bank}評估導入端點偵測與回應系統：受保護資產價值 {ntd(av)}，單次資安事件暴露係數 {pct(ef, 0)}，目前年發生率 "
         f"{num(aro, 2)} 次；系統可使年發生率降低 {pct(cut, 0)}，每年總成本 {ntd(cost)}。請計算資安投資報酬率"
         f"（（預期損失減少數 − 年成本）÷ 年成本）。{ASK_PCT}")
    c = Chain()
    sle = c.add("單一損失預期值（SLE）", av * ef, f"{ntd(av)} × {pct(ef, 0)}", ntd)
    ale0 = c.add("導入前年度預期損失", sle * aro, f"{ntd(sle)} × {num(aro, 2)}", ntd)
    aro1 = c.add("導入後年發生率", aro * (1 - cut), f"{num(aro, 2)} × （1 − {pct(cut, 0)}）", lambda v: f"{fmt_value(v)} 次")
    ale1 = c.add("導入後年度預期損失", sle * aro1, f"{ntd(sle)} × {fmt_value(aro1)}", ntd)
    red = c.add("預期損失減少數", ale0 - ale1, f"{ntd(ale0)} − {ntd(ale1)}", ntd)
    rosi = c.add("資安投資報酬率", (red - cost) / cost, f"（{ntd(red)} − {ntd(cost)}）÷ {ntd(cost)}", pct)
    return c.numeric(q, rosi, pct(rosi), params={"av": av, "ef": ef, "aro": aro, "cut": cut, "cost": cost})

"""金融科技 (fintech): digital_banking, payment_technologies, robo_advisors."""

from __future__ import annotations

import random

from finchain_tw_templates.common import (
    ASK_MONEY,
    ASK_MONEY_INT,
    ASK_NUM,
    ASK_PCT,
    DIGITAL_BANKS,
    PAYMENT_FIRMS,
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
    plus,
    usd,
)
from finchain_tw_templates.core import Problem, template
from finchain_tw_templates.facts import INTERNET_BANK_MIN_CAPITAL

D = "fintech"

# ---------------------------------------------------------------- digital_banking


@template(D, "digital_banking", "digital_banking_basic1", "基礎")
def digital_banking_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    n = pick_money(rng, 50, 600, 10)
    fee_branch = rng.choice([15, 30])
    fee_app = rng.choice([0, 5, 10])
    c = Chain()
    save = c.add("每筆轉帳節省的手續費", fee_branch - fee_app, f"{ntd(fee_branch)} − {ntd(fee_app)}", ntd)
    yearly = c.add("一年節省的手續費", save * n * 12, f"{ntd(save)} × {n} × 12", ntd)
    q = (f"{co}每月需對供應商跨行轉帳 {n} 筆。臨櫃轉帳每筆手續費 {ntd(fee_branch)}，改用數位銀行 App 轉帳每筆 {ntd(fee_app)}。"
         f"請問全面改用 App 轉帳後，一年可節省多少手續費？")
    return c.numeric(q, yearly, ntd(yearly), {"n": n, "fee_branch": fee_branch, "fee_app": fee_app})


@template(D, "digital_banking", "digital_banking_basic2", "基礎")
def digital_banking_basic2(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    accounts = pick_money(rng, 10_000, 150_000, 500)
    spend = accounts * pick_money(rng, 500, 4_000, 10)
    margin = pick_money(rng, round(spend / accounts / 30), round(spend / accounts / 3), 5)
    c = Chain()
    cac = c.add("每戶獲客成本", spend / accounts, f"{ntd(spend)} ÷ {num(accounts)}", ntd)
    months = c.add("回收獲客成本所需月數", cac / margin, f"{ntd(cac)} ÷ {ntd(margin)}")
    q = (f"{bank}推出純網路開戶活動，行銷費用共 {ntd(spend)}，新增 {num(accounts)} 個數位帳戶。"
         f"若每個新帳戶平均每月可貢獻淨收益 {ntd(margin)}，請問需要幾個月才能回收每戶的獲客成本？{ASK_NUM}")
    return c.numeric(q, months, num(months, 2), {"spend": spend, "accounts": accounts, "margin": margin})


@template(D, "digital_banking", "digital_banking_inter1", "中級")
def digital_banking_inter1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    bank = pick_bank(rng)
    cap = rng.choice([100_000, 200_000, 300_000, 500_000])
    bal = pick_money(rng, cap + 10_000, cap * 4, 1_000)
    r_hi = pick_rate(rng, 1.5, 4, 0.05)
    r_lo = pick_rate(rng, 0.05, 0.8, 0.05)
    c = Chain()
    hi = c.add("優惠利率部分的年利息", cap * r_hi, f"{ntd(cap)} × {pct(r_hi)}", ntd)
    lo = c.add("一般利率部分的年利息", (bal - cap) * r_lo, f"({ntd(bal)} − {ntd(cap)}) × {pct(r_lo)}", ntd)
    total = c.add("全年利息合計", hi + lo, f"{ntd(hi)} + {ntd(lo)}", ntd)
    q = (f"{who}在{bank}的數位帳戶活存餘額為 {ntd(bal)}。活動規定：餘額在 {ntd(cap)} 以內的部分享有年利率 {pct(r_hi)}，"
         f"超過的部分只適用一般活存利率 {pct(r_lo)}。若餘額一整年不變、以單利計算，請問一年可領多少利息？{ASK_MONEY}")
    return c.numeric(q, total, ntd(total, 2), {"bal": bal, "cap": cap, "r_hi": r_hi, "r_lo": r_lo})


@template(D, "digital_banking", "digital_banking_inter2", "中級")
def digital_banking_inter2(rng: random.Random) -> Problem:
    bank = pick_bank(rng)
    arpu = pick_money(rng, 100, 600, 10)
    margin = pick_rate(rng, 30, 70, 1)
    churn = pick_rate(rng, 5, 30, 1)
    cac = pick_money(rng, 200, 2_000, 50)
    c = Chain()
    annual = c.add("每戶每年毛利", arpu * 12 * margin, f"{ntd(arpu)} × 12 × {pct(margin, 0)}", ntd)
    life = c.add("平均往來年數", 1 / churn, f"1 ÷ {pct(churn, 0)}")
    clv = c.add("顧客終身價值", annual * life, f"{ntd(annual)} × {fmt_value(life)}", ntd)
    net = c.add("扣除獲客成本後的淨價值", clv - cac, f"{ntd(clv)} − {ntd(cac)}", ntd)
    q = (f"{bank}的數位帳戶客戶平均每月帶來營業收入 {ntd(arpu)}，毛利率 {pct(margin, 0)}，每年客戶流失率 {pct(churn, 0)}"
         f"（平均往來年數以 1 ÷ 流失率估算），每位客戶的獲客成本為 {ntd(cac)}。不考慮折現，"
         f"請問每位客戶扣除獲客成本後的終身價值是多少？{ASK_MONEY}")
    return c.numeric(q, net, ntd(net, 2), {"arpu": arpu, "margin": margin, "churn": churn, "cac": cac})


@template(D, "digital_banking", "digital_banking_adv1", "進階")
def digital_banking_adv1(rng: random.Random) -> Problem:
    bank = rng.choice(DIGITAL_BANKS)
    while True:  # redraw until the ROE is one a real bank could report (−10% to 30%)
        n = pick_money(rng, 200_000, 1_500_000, 10_000)
        bal = pick_money(rng, 20_000, 150_000, 1_000)
        spread = pick_rate(rng, 1, 2.5, 0.05)
        fee = pick_money(rng, 100, 600, 10)
        cost = pick_money(rng, 150, 600, 10)
        fixed = pick_money(rng, 500_000_000, 3_000_000_000, 10_000_000)
        # a pure-internet bank's paid-in capital is at least NT$100 億 (facts.INTERNET_BANK_MIN_CAPITAL)
        capital = pick_money(rng, INTERNET_BANK_MIN_CAPITAL, 2 * INTERNET_BANK_MIN_CAPITAL, 100_000_000)
        if -0.10 < (n * (bal * spread + fee - cost) - fixed) / capital < 0.30:
            break
    c = Chain()
    nii = c.add("每戶年利差收入", bal * spread, f"{ntd(bal)} × {pct(spread)}", ntd)
    rev = c.add("每戶年收入合計", nii + fee, f"{ntd(nii)} + {ntd(fee)}", ntd)
    contrib = c.add("每戶年貢獻", rev - cost, f"{ntd(rev)} − {ntd(cost)}", ntd)
    total = c.add("全體帳戶貢獻", contrib * n, f"{ntd(contrib)} × {num(n)}", ntd)
    profit = c.add("營業利益", total - fixed, f"{ntd(total)} − {ntd(fixed)}", ntd)
    roe = c.add("權益報酬率", profit / capital, f"{ntd(profit)} ÷ {ntd(capital)}", pct)
    q = (f"{bank}（純網路銀行）有 {num(n)} 個有效帳戶，每戶平均存款餘額 {ntd(bal)}，存放款利差 {pct(spread)}；"
         f"每戶每年另有手續費收入 {ntd(fee)}，每戶每年變動服務成本 {ntd(cost)}。全行每年固定營運成本 {ntd(fixed)}，"
         f"權益總額 {ntd(capital)}。不考慮所得稅，請問權益報酬率（ROE）是多少？{ask(2, '百分比', '虧損時為負值')}")
    return c.numeric(q, roe, pct(roe), {"n": n, "bal": bal, "spread": spread, "fee": fee, "cost": cost,
                                        "fixed": fixed, "capital": capital})


# ---------------------------------------------------------------- payment_technologies


@template(D, "payment_technologies", "payment_technologies_basic1", "基礎")
def payment_technologies_basic1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    sales = pick_money(rng, 100_000, 5_000_000, 1_000)
    mdr = pick_rate(rng, 1.5, 3, 0.05)
    c = Chain()
    fee = c.add("刷卡手續費", sales * mdr, f"{ntd(sales)} × {pct(mdr)}", ntd)
    net = c.add("實際入帳金額", sales - fee, f"{ntd(sales)} − {ntd(fee)}", ntd)
    q = (f"{co}門市本月信用卡刷卡營業額為 {ntd(sales)}，收單銀行收取的刷卡手續費率為 {pct(mdr)}。"
         f"請問扣除手續費後，實際入帳金額是多少？{ASK_NUM}")
    return c.numeric(q, net, ntd(net, 2), {"sales": sales, "mdr": mdr})


@template(D, "payment_technologies", "payment_technologies_basic2", "基礎")
def payment_technologies_basic2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    spend = pick_money(rng, 3_000, 60_000, 100)
    rate = pick_rate(rng, 1, 6, 0.5)
    cap = rng.choice([300, 500, 800, 1_000])
    c = Chain()
    raw = c.add("未設上限的回饋金額", spend * rate, f"{ntd(spend)} × {pct(rate, 1)}", ntd)
    got = c.add("實際回饋金額", min(raw, cap), f"{ntd(raw)} 與上限 {ntd(cap)} 取較小者", ntd)
    q = (f"{who}本月以行動支付消費 {ntd(spend)}，行動支付平台提供 {pct(rate, 1)} 回饋，每月回饋上限 {ntd(cap)}。"
         f"請問{who}本月可獲得多少回饋？{ASK_MONEY}")
    return c.numeric(q, got, ntd(got, 2), {"spend": spend, "rate": rate, "cap": cap})


@template(D, "payment_technologies", "payment_technologies_inter1", "中級")
def payment_technologies_inter1(rng: random.Random) -> Problem:
    co = pick_company(rng)
    n = pick_money(rng, 500, 8_000, 50)
    ticket = pick_money(rng, 80, 1_500, 10)
    card = pick_rate(rng, 1.5, 2.8, 0.05)
    qr = pick_rate(rng, 0.5, 1.5, 0.05)
    monthly_fee = pick_money(rng, 300, 3_000, 100)
    c = Chain()
    sales = c.add("每月交易金額", n * ticket, f"{num(n)} × {ntd(ticket)}", ntd)
    fee_card = c.add("信用卡收單手續費", sales * card, f"{ntd(sales)} × {pct(card)}", ntd)
    fee_qr = c.add("QR Code 支付總成本", sales * qr + monthly_fee, f"{ntd(sales)} × {pct(qr)} + {ntd(monthly_fee)}", ntd)
    save = c.add("每月可節省的金流成本", fee_card - fee_qr, f"{ntd(fee_card)} − {ntd(fee_qr)}", ntd)
    q = (f"{co}每月約有 {num(n)} 筆交易，平均客單價 {ntd(ticket)}，目前全部以信用卡收款，手續費率 {pct(card)}。"
         f"若全部改用 QR Code 支付，費率 {pct(qr)}，另收系統月租費 {ntd(monthly_fee)}。"
         f"請問每月可節省多少金流成本？{ask(2, '新臺幣元', '增加成本時為負值')}")
    return c.numeric(q, save, ntd(save, 2), {"n": n, "ticket": ticket, "card": card, "qr": qr, "monthly_fee": monthly_fee})


@template(D, "payment_technologies", "payment_technologies_inter2", "中級")
def payment_technologies_inter2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    amount = pick_money(rng, 50, 3_000, 5)
    fx = pick_decimal(rng, 29.5, 33.5, 3)
    markup = pick_rate(rng, 0.5, 2, 0.1)
    fixed = rng.choice([15, 30, 50, 100])
    c = Chain()
    base = c.add("以中間匯率換算的新臺幣金額", amount * fx, f"{usd(amount)} × {fx}", ntd)
    fee = c.add("國外交易服務費", base * markup, f"{ntd(base)} × {pct(markup, 1)}", ntd)
    total = c.add("實際扣款金額", base + fee + fixed, f"{ntd(base)} + {ntd(fee)} + {ntd(fixed)}", ntd)
    cost = c.add("實際負擔的費用率", total / base - 1, f"{ntd(total)} ÷ {ntd(base)} − 1", lambda x: pct(x, 4))
    q = (f"{who}用電子錢包在美國網站購買 {usd(amount)} 的商品，當日中間匯率為 1 美元兌 {fx} 元新臺幣。"
         f"錢包業者另收取換算後金額 {pct(markup, 1)} 的國外交易服務費，以及每筆固定手續費 {ntd(fixed)}。"
         f"請問相對於中間匯率換算金額，{who}實際負擔的費用率是多少？{ASK_PCT}")
    return c.numeric(q, cost, pct(cost), {"amount": amount, "fx": fx, "markup": markup, "fixed": fixed})


@template(D, "payment_technologies", "payment_technologies_adv1", "進階")
def payment_technologies_adv1(rng: random.Random) -> Problem:
    co = rng.choice(PAYMENT_FIRMS)
    tpv = pick_money(rng, 500_000_000, 5_000_000_000, 10_000_000)
    take = pick_rate(rng, 1.8, 3, 0.05)
    inter = pick_rate(rng, 1, 1.6, 0.05)
    fraud = pick_rate(rng, 0.02, 0.15, 0.01)
    opex = pick_money(rng, 20_000_000, 150_000_000, 1_000_000)
    c = Chain()
    annual = c.add("全年交易金額", tpv * 12, f"{ntd(tpv)} × 12", ntd)
    gross = c.add("手續費收入", annual * take, f"{ntd(annual)} × {pct(take)}", ntd)
    ic = c.add("支付給發卡機構與卡組織的成本", annual * inter, f"{ntd(annual)} × {pct(inter)}", ntd)
    loss = c.add("盜刷損失", annual * fraud, f"{ntd(annual)} × {pct(fraud)}", ntd)
    net_rev = c.add("淨收入", gross - ic - loss, f"{ntd(gross)} − {ntd(ic)} − {ntd(loss)}", ntd)
    profit = c.add("全年營業利益", net_rev - opex, f"{ntd(net_rev)} − {ntd(opex)}", ntd)
    q = (f"第三方支付業者{co}每月處理的交易金額為 {ntd(tpv)}，向特約商店收取 {pct(take)} 的手續費；"
         f"其中 {pct(inter)} 須支付給發卡機構與卡組織，另有相當於交易金額 {pct(fraud)} 的盜刷損失。"
         f"全年營運費用 {ntd(opex)}。請問全年營業利益是多少？（虧損時為負值）")
    return c.numeric(q, profit, ntd(profit), {"tpv": tpv, "take": take, "inter": inter, "fraud": fraud, "opex": opex})


# ---------------------------------------------------------------- robo_advisors


@template(D, "robo_advisors", "robo_advisors_basic1", "基礎")
def robo_advisors_basic1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    aum = pick_money(rng, 50_000, 3_000_000, 1_000)
    fee = pick_rate(rng, 0.2, 1.2, 0.05)
    c = Chain()
    annual = c.add("年管理費", aum * fee, f"{ntd(aum)} × {pct(fee)}", ntd)
    monthly = c.add("平均每月管理費", annual / 12, f"{ntd(annual)} ÷ 12", ntd)
    q = (f"{who}在機器人理財平台投入 {ntd(aum)}，平台年管理費率 {pct(fee)}，按月平均收取。"
         f"假設資產金額不變，請問每月管理費是多少？{ASK_MONEY}")
    return c.numeric(q, monthly, ntd(monthly, 2), {"aum": aum, "fee": fee})


@template(D, "robo_advisors", "robo_advisors_basic2", "基礎")
def robo_advisors_basic2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    w = pick_rate(rng, 20, 80, 5)
    rs = pick_rate(rng, 5, 10, 0.25)
    rb = pick_rate(rng, 1.5, 4, 0.25)
    c = Chain()
    part = c.add("股票部位貢獻的報酬率", w * rs, f"{pct(w, 0)} × {pct(rs)}", lambda x: pct(x, 4))
    total = c.add("投資組合預期報酬率", part + (1 - w) * rb, f"{pct(part, 4)} + {pct(1 - w, 0)} × {pct(rb)}", lambda x: pct(x, 4))
    q = (f"機器人理財平台替{who}配置股票型 ETF {pct(w, 0)}、債券型 ETF {pct(1 - w, 0)}。"
         f"股票型 ETF 預期年報酬率 {pct(rs)}，債券型 ETF 預期年報酬率 {pct(rb)}。"
         f"請問此投資組合的預期年報酬率是多少？{ASK_PCT}")
    return c.numeric(q, total, pct(total), {"w": w, "rs": rs, "rb": rb})


PROFILE_BANDS = ((45, "保守型"), (70, "穩健型"), (101, "積極型"))


@template(D, "robo_advisors", "robo_advisors_inter1", "中級")
def robo_advisors_inter1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    while True:
        s_exp, s_tol, s_hor = (rng.randint(1, 10) * 10 for _ in range(3))
        w_exp, w_tol = rng.choice([(0.2, 0.5), (0.3, 0.4), (0.25, 0.45)])
        w_hor = round(1 - w_exp - w_tol, 2)
        score = s_exp * w_exp + s_tol * w_tol + s_hor * w_hor
        if all(abs(score - b) > 0.5 for b, _ in PROFILE_BANDS):  # never on a band edge
            break
    c = Chain()
    a = c.add("投資經驗加權分數", s_exp * w_exp, f"{s_exp} × {pct(w_exp, 0)}")
    b = c.add("風險承受度加權分數", s_tol * w_tol, f"{s_tol} × {pct(w_tol, 0)}")
    h = c.add("投資期間加權分數", s_hor * w_hor, f"{s_hor} × {pct(w_hor, 0)}")
    total = c.add("總分", a + b + h, f"{fmt_value(a)} + {fmt_value(b)} + {fmt_value(h)}")
    label = next(name for bound, name in PROFILE_BANDS if total < bound)
    c.note("對照分級：未滿 45 分為保守型，45 分以上未滿 70 分為穩健型，70 分以上為積極型", label)
    q = (f"機器人理財平台的風險屬性問卷有三個構面（各 0 至 100 分）：{who}的投資經驗得 {s_exp} 分、風險承受度得 {s_tol} 分、"
         f"投資期間得 {s_hor} 分，權重分別為 {pct(w_exp, 0)}、{pct(w_tol, 0)}、{pct(w_hor, 0)}。加權總分未滿 45 分為保守型，"
         f"45 分以上未滿 70 分為穩健型，70 分以上為積極型。請問{who}的風險屬性為何？（請回答保守型、穩健型或積極型）")
    return c.categorical(q, label, {"s_exp": s_exp, "s_tol": s_tol, "s_hor": s_hor, "w_exp": w_exp, "w_tol": w_tol,
                                    "w_hor": w_hor})


@template(D, "robo_advisors", "robo_advisors_inter2", "中級")
def robo_advisors_inter2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    v = pick_money(rng, 100_000, 3_000_000, 10_000)
    w = pick_rate(rng, 40, 80, 5)
    rs = pick_rate(rng, 8, 30, 0.5)
    rb = pick_rate(rng, -2, 4, 0.5)
    c = Chain()
    s = c.add("股票部位期末價值", v * w * (1 + rs), f"{ntd(v)} × {pct(w, 0)} × (1 {plus(rs, lambda x: pct(x, 1))})", ntd)
    b = c.add("債券部位期末價值", v * (1 - w) * (1 + rb), f"{ntd(v)} × {pct(1 - w, 0)} × (1 {plus(rb, lambda x: pct(x, 1))})", ntd)
    total = c.add("投資組合期末總值", s + b, f"{ntd(s)} + {ntd(b)}", ntd)
    sell = c.add("需賣出的股票金額", s - w * total, f"{ntd(s)} − {pct(w, 0)} × {ntd(total)}", ntd)
    q = (f"{who}在機器人理財帳戶投入 {ntd(v)}，目標配置為股票 {pct(w, 0)}、債券 {pct(1 - w, 0)}。一年後股票部位上漲 {pct(rs, 1)}，"
         f"債券部位報酬 {pct(rb, 1)}。平台要把配置調回目標比例，請問需要賣出多少股票部位（轉入債券）？{ASK_MONEY}")
    return c.numeric(q, sell, ntd(sell, 2), {"v": v, "w": w, "rs": rs, "rb": rb})


@template(D, "robo_advisors", "robo_advisors_adv1", "進階")
def robo_advisors_adv1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    p = pick_money(rng, 100_000, 2_000_000, 10_000)
    r = pick_rate(rng, 4, 9, 0.25)
    f_robo = pick_rate(rng, 0.3, 0.8, 0.05)
    f_human = pick_rate(rng, 1.2, 2.5, 0.05)
    n = rng.randint(5, 30)
    c = Chain()
    net_r = c.add("機器人理財的淨報酬率", r - f_robo, f"{pct(r)} − {pct(f_robo)}", pct)
    net_h = c.add("傳統理財顧問的淨報酬率", r - f_human, f"{pct(r)} − {pct(f_human)}", pct)
    fv_r = c.add("機器人理財期末價值", p * (1 + net_r) ** n, f"{ntd(p)} × (1 + {pct(net_r)})^{n}", ntd)
    fv_h = c.add("傳統理財顧問期末價值", p * (1 + net_h) ** n, f"{ntd(p)} × (1 + {pct(net_h)})^{n}", ntd)
    diff = c.add("兩者期末價值差距", fv_r - fv_h, f"{ntd(fv_r)} − {ntd(fv_h)}", ntd)
    q = (f"{who}有 {ntd(p)} 要長期投資 {n} 年，預期年報酬率（扣費前）{pct(r)}。機器人理財年費率 {pct(f_robo)}，"
         f"傳統理財顧問年費率 {pct(f_human)}；費用直接從年報酬率中扣除，每年複利。"
         f"請問 {n} 年後，選擇機器人理財比傳統理財顧問多累積多少金額？{ASK_MONEY_INT}")
    return c.numeric(q, diff, ntd(diff, 0), {"p": p, "r": r, "f_robo": f_robo, "f_human": f_human, "n": n})

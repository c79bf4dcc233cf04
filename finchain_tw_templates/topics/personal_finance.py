"""個人理財 (personal_finance): budgeting, loan_repayment, personal_investment, savings_and_retirement,
tax_calculation.

Tax templates state their brackets, exemptions and rates in the question as assumptions ("假設…"): they
test the calculation, not knowledge of a given year's law."""

from __future__ import annotations

import random

from finchain_tw_templates.common import (
    ASK_MONEY,
    ASK_MONEY_INT,
    ASK_NUM,
    ASK_PCT,
    Chain,
    ask,
    fmt_value,
    join_items,
    ntd,
    num,
    pct,
    pick_bank,
    pick_decimal,
    pick_money,
    pick_person,
    pick_rate,
)
from finchain_tw_templates.core import Problem, template
from finchain_tw_templates.facts import (
    BOARD_LOT,
    BROKER_FEE_CAP,
    DIVIDEND_CREDIT_CAP,
    DIVIDEND_CREDIT_RATE,
    DIVIDEND_SEPARATE_RATE,
    LABOR_PENSION_EMPLOYER_MIN,
    NHI_SUPPLEMENTARY_MIN,
    NHI_SUPPLEMENTARY_RATE,
    SECURITIES_TX_TAX_STOCK,
    twse_price,
)

D = "personal_finance"

# Taiwan-style progressive brackets: (upper bound of net taxable income, rate, progressive difference).
BRACKETS: tuple[tuple[float, float, int], ...] = (
    (590_000, 0.05, 0),
    (1_330_000, 0.12, 41_300),
    (2_660_000, 0.20, 147_700),
    (4_980_000, 0.30, 413_700),
    (float("inf"), 0.40, 911_700),
)


def brackets_text() -> str:
    parts = []
    lo = 0
    for hi, rate, diff in BRACKETS:
        rng_text = f"超過 {ntd(lo)}" if hi == float("inf") else f"{ntd(lo)} 至 {ntd(hi)}"
        parts.append(f"{rng_text}，稅率 {pct(rate, 0)}、累進差額 {ntd(diff)}")
        lo = hi
    return "：" + "；".join(parts)


def bracket_of(x: float) -> tuple[float, int]:
    for hi, rate, diff in BRACKETS:
        if x <= hi:
            return rate, diff
    raise AssertionError("unreachable")


def income_tax(x: float) -> float:
    """Tax by the progressive-difference shortcut: x × rate − difference."""
    rate, diff = bracket_of(x)
    return x * rate - diff


def pmt(rate: float, n: int, pv: float) -> float:
    """Level payment (end of period) that repays pv over n periods."""
    return pv * rate / (1 - (1 + rate) ** -n)


# ---------------------------------------------------------------- budgeting


@template(D, "budgeting", "budgeting_basic1", "基礎")
def budgeting_basic1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    income = pick_money(rng, 30_000, 150_000, 1_000)
    need = pick_rate(rng, 40, 60, 5)
    want = pick_rate(rng, 15, 35, 5)
    c = Chain()
    ratio = c.add("儲蓄比例", 1 - need - want, f"1 − {pct(need, 0)} − {pct(want, 0)}", lambda x: pct(x, 0))
    save = c.add("每月儲蓄金額", income * ratio, f"{ntd(income)} × {pct(ratio, 0)}", ntd)
    q = (f"{who}每月稅後收入 {ntd(income)}，依預算規劃把 {pct(need, 0)} 用於房租、餐費等必要支出，{pct(want, 0)} 用於娛樂等想要支出，"
         f"其餘全部儲蓄。請問{who}每月可儲蓄多少錢？")
    return c.numeric(q, save, ntd(save), {"income": income, "need": need, "want": want})


@template(D, "budgeting", "budgeting_basic2", "基礎")
def budgeting_basic2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    income = pick_money(rng, 30_000, 150_000, 1_000)
    spend = pick_money(rng, round(income * 0.5), round(income * 0.95), 100)
    c = Chain()
    surplus = c.add("每月結餘", income - spend, f"{ntd(income)} − {ntd(spend)}", ntd)
    rate = c.add("儲蓄率", surplus / income, f"{ntd(surplus)} ÷ {ntd(income)}", pct)
    q = f"{who}每月稅後收入 {ntd(income)}，每月生活支出 {ntd(spend)}。請問{who}的儲蓄率是多少？{ASK_PCT}"
    return c.numeric(q, rate, pct(rate), {"income": income, "spend": spend})


# category -> plausible monthly budget range (NT$) for one person
BUDGET_ITEMS: dict[str, tuple[int, int]] = {
    "房租": (8_000, 25_000), "餐費": (6_000, 15_000), "交通": (1_000, 5_000), "娛樂": (1_000, 8_000),
    "保險": (1_000, 6_000), "通訊": (500, 2_000),
}


@template(D, "budgeting", "budgeting_inter1", "中級")
def budgeting_inter1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    items = rng.sample(sorted(BUDGET_ITEMS), 4)
    while True:
        budget = [pick_money(rng, *BUDGET_ITEMS[k], 500) for k in items]
        actual = [pick_money(rng, round(b * 0.8), round(b * 1.25), 10) for b in budget]
        if abs(sum(actual) - sum(budget)) >= 100:
            break
    c = Chain()
    tb = c.add("本月總預算", sum(budget), " + ".join(ntd(b) for b in budget), ntd)
    ta = c.add("本月實際總支出", sum(actual), " + ".join(ntd(a) for a in actual), ntd)
    diff = c.add("實際支出減預算", ta - tb, f"{ntd(ta)} − {ntd(tb)}", ntd)
    ans = "是" if diff > 0 else "否"
    c.note("差額為正代表超支，是否超出總預算", ans)
    plan = "、".join(f"{k} {ntd(b)}" for k, b in zip(items, budget))
    spent = "、".join(f"{k} {ntd(a)}" for k, a in zip(items, actual))
    q = (f"{who}本月的預算為{plan}；實際支出為{spent}。請問{who}本月的總支出是否超出總預算？（請回答是或否）")
    return c.categorical(q, ans, {"budget": budget, "actual": actual})


@template(D, "budgeting", "budgeting_inter2", "中級")
def budgeting_inter2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    essential = pick_money(rng, 15_000, 60_000, 500)
    months = rng.choice([3, 6, 9, 12])
    have = pick_money(rng, 10_000, round(essential * months * 0.7), 1_000)
    k = rng.choice([6, 10, 12, 18, 24])
    c = Chain()
    target = c.add("緊急預備金目標", essential * months, f"{ntd(essential)} × {months}", ntd)
    gap = c.add("尚缺金額", target - have, f"{ntd(target)} − {ntd(have)}", ntd)
    monthly = c.add("每月需存入金額", gap / k, f"{ntd(gap)} ÷ {k}", ntd)
    q = (f"{who}每月必要生活支出 {ntd(essential)}，理財規劃建議準備 {months} 個月必要支出的緊急預備金。{who}目前已存 {ntd(have)}，"
         f"希望在 {k} 個月內補足（不計利息）。請問每月需要存入多少錢？{ASK_MONEY}")
    return c.numeric(q, monthly, ntd(monthly, 2), {"essential": essential, "months": months, "have": have, "k": k})


@template(D, "budgeting", "budgeting_adv1", "進階")
def budgeting_adv1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    salary = pick_money(rng, 35_000, 120_000, 500)
    raise_ = pick_rate(rng, 1, 8, 0.5)
    ded = pick_rate(rng, 8, 15, 0.5)
    spend = pick_money(rng, round(salary * 0.5), round(salary * 0.8), 100)
    inf = pick_rate(rng, 1, 4, 0.25)
    c = Chain()
    new = c.add("調薪後月薪", salary * (1 + raise_), f"{ntd(salary)} × (1 + {pct(raise_, 1)})", ntd)
    take = c.add("每月實領金額", new * (1 - ded), f"{ntd(new)} × (1 − {pct(ded, 1)})", ntd)
    exp = c.add("明年每月支出", spend * (1 + inf), f"{ntd(spend)} × (1 + {pct(inf)})", ntd)
    surplus = c.add("明年每月結餘", take - exp, f"{ntd(take)} − {ntd(exp)}", ntd)
    rate = c.add("明年儲蓄率", surplus / take, f"{ntd(surplus)} ÷ {ntd(take)}", pct)
    q = (f"{who}目前月薪 {ntd(salary)}，明年將調薪 {pct(raise_, 1)}。勞健保自付額與薪資預扣稅款合計約為月薪的 {pct(ded, 1)}。"
         f"{who}目前每月生活支出 {ntd(spend)}，預期明年物價上漲 {pct(inf)}，支出同幅增加。"
         f"請問明年{who}的儲蓄率（每月結餘 ÷ 每月實領金額）是多少？{ask(2, '百分比', '入不敷出時為負值')}")
    return c.numeric(q, rate, pct(rate), {"salary": salary, "raise_": raise_, "ded": ded, "spend": spend, "inf": inf})


# ---------------------------------------------------------------- loan_repayment


@template(D, "loan_repayment", "loan_repayment_basic1", "基礎")
def loan_repayment_basic1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    p = pick_money(rng, 300_000, 1_500_000, 10_000)
    r = pick_rate(rng, 2, 6, 0.05)
    n = rng.choice([3, 4, 5, 6, 7])
    c = Chain()
    i = c.add("月利率", r / 12, f"{pct(r)} ÷ 12", lambda x: pct(x, 4))
    pay = c.add("每月應繳金額", pmt(i, 12 * n, p), f"{ntd(p)} × {pct(i, 4)} ÷ [1 − (1 + {pct(i, 4)})^−{12 * n}]", ntd)
    q = (f"{who}向{pick_bank(rng)}申辦車貸 {ntd(p)}，年利率 {pct(r)}，期限 {n} 年，按月本息平均攤還。"
         f"請問每月應繳金額是多少？{ASK_MONEY}")
    return c.numeric(q, pay, ntd(pay, 2), {"p": p, "r": r, "n": n})


@template(D, "loan_repayment", "loan_repayment_basic2", "基礎")
def loan_repayment_basic2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    p = pick_money(rng, 50_000, 800_000, 10_000)
    r = pick_rate(rng, 3, 12, 0.25)
    n = rng.randint(1, 5)
    c = Chain()
    interest = c.add("總利息", p * r * n, f"{ntd(p)} × {pct(r)} × {n}", ntd)
    total = c.add("到期應償還總額", p + interest, f"{ntd(p)} + {ntd(interest)}", ntd)
    q = (f"{who}向親友借款 {ntd(p)}，約定年利率 {pct(r)}、以單利計息，{n} 年後一次償還本金與利息。"
         f"請問到期時應償還多少錢？")
    return c.numeric(q, total, ntd(total), {"p": p, "r": r, "n": n})


@template(D, "loan_repayment", "loan_repayment_inter1", "中級")
def loan_repayment_inter1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    p = pick_money(rng, 3_000_000, 20_000_000, 100_000)
    r = pick_rate(rng, 1.5, 3.5, 0.01)
    years = rng.choice([20, 25, 30, 40])
    c = Chain()
    i = c.add("月利率", r / 12, f"{pct(r)} ÷ 12", lambda x: pct(x, 4))
    n = c.add("總期數", 12 * years, f"{years} × 12")
    pay = c.add("每月本息", pmt(i, int(n), p), f"{ntd(p)} × {pct(i, 4)} ÷ [1 − (1 + {pct(i, 4)})^−{int(n)}]", ntd)
    interest = c.add("全期利息總額", pay * n - p, f"{ntd(pay)} × {int(n)} − {ntd(p)}", ntd)
    q = (f"{who}向{pick_bank(rng)}申請房屋貸款 {ntd(p)}，年利率 {pct(r)}（固定），貸款 {years} 年，按月本息平均攤還。"
         f"請問全部繳清時總共要付多少利息？{ASK_MONEY_INT}")
    return c.numeric(q, interest, ntd(interest, 0), {"p": p, "r": r, "years": years})


@template(D, "loan_repayment", "loan_repayment_inter2", "中級")
def loan_repayment_inter2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    p = pick_money(rng, 1_200_000, 12_000_000, 120_000)
    r = pick_rate(rng, 1.5, 3.5, 0.01)
    years = rng.choice([10, 15, 20, 30])
    n = 12 * years
    i = r / 12
    c = Chain()
    principal = c.add("每月應還本金", p / n, f"{ntd(p)} ÷ {n}", ntd)
    first_int = c.add("第 1 期利息", p * i, f"{ntd(p)} × {pct(r)} ÷ 12", ntd)
    c.add("第 1 期應繳金額", principal + first_int, f"{ntd(principal)} + {ntd(first_int)}", ntd)
    total_int = c.add("全期利息總額", p * i * (n + 1) / 2, f"{ntd(p)} × {pct(r)} ÷ 12 × ({n} + 1) ÷ 2", ntd)
    q = (f"{who}申請房屋貸款 {ntd(p)}，年利率 {pct(r)}，貸款 {years} 年，採本金平均攤還（每月償還相同本金，利息按剩餘本金計算）。"
         f"請先算出第 1 期應繳金額，再算全期利息總額。請問全期利息總額是多少？{ASK_MONEY_INT}")
    return c.numeric(q, total_int, ntd(total_int, 0), {"p": p, "r": r, "years": years})


@template(D, "loan_repayment", "loan_repayment_adv1", "進階")
def loan_repayment_adv1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    p = pick_money(rng, 5_000_000, 25_000_000, 100_000)
    r = pick_rate(rng, 1.8, 3.2, 0.01)
    years = rng.choice([20, 30, 40])
    grace = rng.choice([1, 2, 3, 5])
    c = Chain()
    i = c.add("月利率", r / 12, f"{pct(r)} ÷ 12", lambda x: pct(x, 4))
    io = c.add("寬限期每月利息", p * i, f"{ntd(p)} × {pct(i, 4)}", ntd)
    n2 = c.add("寬限期後攤還期數", 12 * (years - grace), f"({years} − {grace}) × 12")
    pay = c.add("寬限期後每月本息", pmt(i, int(n2), p), f"{ntd(p)} × {pct(i, 4)} ÷ [1 − (1 + {pct(i, 4)})^−{int(n2)}]", ntd)
    total = c.add("全期利息總額", io * 12 * grace + pay * n2 - p, f"{ntd(io)} × {12 * grace} + {ntd(pay)} × {int(n2)} − {ntd(p)}", ntd)
    q = (f"{who}購屋貸款 {ntd(p)}，年利率 {pct(r)}，貸款期限 {years} 年，前 {grace} 年為寬限期（只繳利息、不還本金），"
         f"寬限期結束後在剩餘期間內按月本息平均攤還。請依序計算寬限期每月利息與寬限期後每月本息，"
         f"請問全期共需支付多少利息？{ASK_MONEY_INT}")
    return c.numeric(q, total, ntd(total, 0), {"p": p, "r": r, "years": years, "grace": grace})


# ---------------------------------------------------------------- personal_investment


@template(D, "personal_investment", "personal_investment_basic1", "基礎")
def personal_investment_basic1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    p0 = twse_price(pick_decimal(rng, 20, 600, 1))
    p1 = twse_price(pick_decimal(rng, p0 * 0.75, p0 * 1.4, 1))
    div = pick_decimal(rng, p0 * 0.01, p0 * 0.07, 1)
    c = Chain()
    gain = c.add("每股總收益", p1 - p0 + div, f"{ntd(p1)} − {ntd(p0)} + {ntd(div)}", lambda x: ntd(x, 2))
    tr = c.add("持有期間總報酬率", gain / p0, f"{ntd(gain, 2)} ÷ {ntd(p0)}", pct)
    q = (f"{who}年初以每股 {ntd(p0)} 買進某上市股票，年中領到每股現金股利 {ntd(div)}，年底股價為 {ntd(p1)}。"
         f"請問這一年的總報酬率是多少？{ask(2, '百分比', '虧損時為負值')}")
    return c.numeric(q, tr, pct(tr), {"p0": p0, "p1": p1, "div": div})


@template(D, "personal_investment", "personal_investment_basic2", "基礎")
def personal_investment_basic2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    amt = pick_money(rng, 3_000, 30_000, 1_000)
    prices = [pick_decimal(rng, 20, 150, 2)]
    for _ in range(2):
        prices.append(pick_decimal(rng, prices[-1] * 0.85, prices[-1] * 1.15, 2))
    c = Chain()
    units = c.add("累計單位數", sum(amt / x for x in prices), " + ".join(f"{ntd(amt)} ÷ {ntd(x)}" for x in prices),
                  lambda x: num(x, 4))
    avg = c.add("平均每單位成本", amt * 3 / units, f"{ntd(amt * 3)} ÷ {num(units, 4)}", lambda x: ntd(x, 4))
    q = (f"{who}以定期定額方式每月投入 {ntd(amt)} 買進某檔基金，連續 3 個月的買進淨值分別為 "
         f"{'、'.join(ntd(x) for x in prices)}（不計手續費，單位數可為小數）。請問平均每單位成本是多少？{ASK_MONEY}")
    return c.numeric(q, avg, ntd(avg, 2), {"amt": amt, "prices": prices})


@template(D, "personal_investment", "personal_investment_inter1", "中級")
def personal_investment_inter1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    lots = rng.randint(1, 10)
    buy = twse_price(pick_decimal(rng, 15, 300, 1))
    sell = twse_price(pick_decimal(rng, buy * 0.85, buy * 1.3, 1))
    fee = BROKER_FEE_CAP
    disc = rng.choice([0.28, 0.5, 0.6, 0.65])
    min_fee = 20
    tax = SECURITIES_TX_TAX_STOCK
    shares = lots * BOARD_LOT
    c = Chain()
    f_buy = c.add("買進手續費", max(shares * buy * fee * disc, min_fee),
                  f"{ntd(shares * buy)} × 0.1425% × {disc}（不足 {ntd(min_fee)} 以 {ntd(min_fee)} 計）", ntd)
    f_sell = c.add("賣出手續費", max(shares * sell * fee * disc, min_fee),
                   f"{ntd(shares * sell)} × 0.1425% × {disc}（不足 {ntd(min_fee)} 以 {ntd(min_fee)} 計）", ntd)
    t = c.add("證券交易稅", shares * sell * tax, f"{ntd(shares * sell)} × 0.3%", ntd)
    net = c.add("淨損益", shares * (sell - buy) - f_buy - f_sell - t,
                f"({ntd(sell)} − {ntd(buy)}) × {num(shares)} − {ntd(f_buy)} − {ntd(f_sell)} − {ntd(t)}", ntd)
    q = (f"{who}以每股 {ntd(buy)} 買進某上市股票 {lots} 張（1 張 = 1,000 股），之後以每股 {ntd(sell)} 全數賣出。"
         f"券商手續費率 0.1425%，再乘以 {disc} 的折扣，每筆最低收 {ntd(min_fee)}；賣出時另課證券交易稅 0.3%。"
         f"不考慮尾數進位，請問這筆交易的淨損益是多少？{ask(2, '新臺幣元', '虧損時為負值')}")
    return c.numeric(q, net, ntd(net, 2), {"lots": lots, "buy": buy, "sell": sell, "disc": disc, "fee": fee,
                                           "min_fee": min_fee, "tax": tax})


@template(D, "personal_investment", "personal_investment_inter2", "中級")
def personal_investment_inter2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    p = pick_money(rng, 100_000, 2_000_000, 10_000)
    r = pick_rate(rng, 4, 9, 0.25)
    e = pick_rate(rng, 0.1, 2, 0.05)
    n = rng.randint(5, 30)
    c = Chain()
    gross = c.add("不計費用的期末價值", p * (1 + r) ** n, f"{ntd(p)} × (1 + {pct(r)})^{n}", ntd)
    net = c.add("扣除內扣費用後的期末價值", p * (1 + r - e) ** n, f"{ntd(p)} × (1 + {pct(r)} − {pct(e)})^{n}", ntd)
    drag = c.add("費用造成的價值減少", gross - net, f"{ntd(gross)} − {ntd(net)}", ntd)
    q = (f"{who}投資 {ntd(p)} 於一檔預期年報酬率 {pct(r)} 的基金，基金每年內扣總費用率 {pct(e)}（直接從報酬率中扣除），"
         f"每年複利，持有 {n} 年。請問與不計費用相比，費用讓期末價值少了多少？{ASK_MONEY_INT}")
    return c.numeric(q, drag, ntd(drag, 0), {"p": p, "r": r, "e": e, "n": n})


@template(D, "personal_investment", "personal_investment_adv1", "進階")
def personal_investment_adv1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    names = ("台股 ETF", "科技股", "投資等級債 ETF")
    vals = [pick_money(rng, 50_000, 800_000, 10_000) for _ in names]
    rets = [pick_rate(rng, 6, 12, 0.5), pick_rate(rng, 8, 18, 0.5), pick_rate(rng, 2, 5, 0.5)]
    betas = [pick_decimal(rng, 0.9, 1.1, 2), pick_decimal(rng, 1.2, 1.8, 2), pick_decimal(rng, 0.1, 0.4, 2)]
    rf = pick_rate(rng, 1, 2.5, 0.25)
    rm = pick_rate(rng, 6, 10, 0.5)
    c = Chain()
    total = c.add("投資組合總市值", sum(vals), " + ".join(ntd(v) for v in vals), ntd)
    ret = c.add("投資組合預期報酬率", sum(v * x for v, x in zip(vals, rets)) / total,
                " + ".join(f"{ntd(v)} × {pct(x, 1)}" for v, x in zip(vals, rets)) + f"，再除以 {ntd(total)}",
                lambda x: pct(x, 4))
    beta = c.add("投資組合貝他係數", sum(v * b for v, b in zip(vals, betas)) / total,
                 " + ".join(f"{ntd(v)} × {b}" for v, b in zip(vals, betas)) + f"，再除以 {ntd(total)}")
    req = c.add("CAPM 必要報酬率", rf + beta * (rm - rf), f"{pct(rf)} + {fmt_value(beta)} × ({pct(rm, 1)} − {pct(rf)})",
                lambda x: pct(x, 4))
    alpha = c.add("預期超額報酬（阿爾法）", ret - req, f"{pct(ret, 4)} − {pct(req, 4)}", lambda x: pct(x, 4))
    hold = join_items([f"{n} {ntd(v)}（預期報酬率 {pct(x, 1)}、貝他係數 {b}）" for n, v, x, b in zip(names, vals, rets, betas)])
    q = (f"{who}的投資組合包含{hold}。無風險利率 {pct(rf)}，市場預期報酬率 {pct(rm, 1)}。請以市值加權計算投資組合的預期報酬率與貝他係數，"
         f"再和 CAPM 必要報酬率比較。請問預期報酬率比必要報酬率高出多少？{ask(2, '百分比', '低於時為負值')}")
    return c.numeric(q, alpha, pct(alpha), {"vals": vals, "rets": rets, "betas": betas, "rf": rf, "rm": rm})


# ---------------------------------------------------------------- savings_and_retirement


@template(D, "savings_and_retirement", "savings_and_retirement_basic1", "基礎")
def savings_and_retirement_basic1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    monthly = pick_money(rng, 20_000, 100_000, 1_000)
    w = pick_rate(rng, 3, 5, 0.5)
    c = Chain()
    annual = c.add("每年生活支出", monthly * 12, f"{ntd(monthly)} × 12", ntd)
    target = c.add("退休金目標", annual / w, f"{ntd(annual)} ÷ {pct(w, 1)}", ntd)
    q = (f"{who}估計退休後每月生活支出 {ntd(monthly)}，打算採用每年提領 {pct(w, 1)} 的提領法則。"
         f"請問{who}退休時需要準備多少退休金？{ASK_MONEY_INT}")
    return c.numeric(q, target, ntd(target, 0), {"monthly": monthly, "w": w})


@template(D, "savings_and_retirement", "savings_and_retirement_basic2", "基礎")
def savings_and_retirement_basic2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    dep = pick_money(rng, 1_000, 30_000, 1_000)
    r = pick_rate(rng, 1, 2.5, 0.01)
    n = rng.choice([12, 24, 36, 48, 60])
    c = Chain()
    i = c.add("月利率", r / 12, f"{pct(r)} ÷ 12", lambda x: pct(x, 4))
    fv = c.add("到期本利和", dep * ((1 + i) ** n - 1) / i, f"{ntd(dep)} × [(1 + {pct(i, 4)})^{n} − 1] ÷ {pct(i, 4)}", ntd)
    q = (f"{who}每月月底存入 {ntd(dep)} 到零存整付帳戶，年利率 {pct(r)}、按月複利，共存 {n} 個月。"
         f"請問到期本利和是多少？{ASK_NUM}")
    return c.numeric(q, fv, ntd(fv, 2), {"dep": dep, "r": r, "n": n})


@template(D, "savings_and_retirement", "savings_and_retirement_inter1", "中級")
def savings_and_retirement_inter1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    while True:  # existing savings must leave a real gap to fill
        target = pick_money(rng, 3_000_000, 20_000_000, 100_000)
        have = pick_money(rng, 10_000, round(target * 0.3), 10_000)
        r = pick_rate(rng, 2, 7, 0.25)
        years = rng.randint(10, 30)
        if have * (1 + r / 12) ** (12 * years) < 0.8 * target:
            break
    i = r / 12
    n = 12 * years
    c = Chain()
    fv_have = c.add("現有資產到期終值", have * (1 + i) ** n, f"{ntd(have)} × (1 + {pct(r)} ÷ 12)^{n}", ntd)
    gap = c.add("尚缺金額", target - fv_have, f"{ntd(target)} − {ntd(fv_have)}", ntd)
    pay = c.add("每月應投入金額", gap * i / ((1 + i) ** n - 1), f"{ntd(gap)} × ({pct(r)} ÷ 12) ÷ [(1 + {pct(r)} ÷ 12)^{n} − 1]", ntd)
    q = (f"{who}希望 {years} 年後累積退休金 {ntd(target)}。目前已有 {ntd(have)} 投資在年報酬率 {pct(r)}（按月複利）的帳戶，"
         f"之後每月月底再投入相同金額到同一帳戶。請問每月需要投入多少錢？{ASK_MONEY}")
    return c.numeric(q, pay, ntd(pay, 2), {"target": target, "have": have, "r": r, "years": years})


@template(D, "savings_and_retirement", "savings_and_retirement_inter2", "中級")
def savings_and_retirement_inter2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    wage = pick_money(rng, 28_000, 150_000, 100)
    emp = LABOR_PENSION_EMPLOYER_MIN
    self_r = pick_rate(rng, 1, 6, 1)
    m = rng.choice([0.05, 0.12, 0.2, 0.3])
    c = Chain()
    e = c.add("雇主全年提繳", wage * emp * 12, f"{ntd(wage)} × {pct(emp, 0)} × 12", ntd)
    s = c.add("個人全年自提", wage * self_r * 12, f"{ntd(wage)} × {pct(self_r, 0)} × 12", ntd)
    c.add("個人退休金專戶全年入帳", e + s, f"{ntd(e)} + {ntd(s)}", ntd)
    tax = c.add("自提部分的節稅金額", s * m, f"{ntd(s)} × {pct(m, 0)}", ntd)
    q = (f"{who}的月提繳工資為 {ntd(wage)}，雇主每月提繳 {pct(emp, 0)} 到勞工退休金個人專戶，{who}另外每月自提 {pct(self_r, 0)}。"
         f"假設自提金額可全額自當年度薪資所得中減除，{who}適用的邊際稅率為 {pct(m, 0)}。"
         f"請先算出專戶全年入帳金額，再算出自提一年可節省多少所得稅。請問節稅金額是多少？{ASK_MONEY}")
    return c.numeric(q, tax, ntd(tax, 2), {"wage": wage, "emp": emp, "self_r": self_r, "m": m})


@template(D, "savings_and_retirement", "savings_and_retirement_adv1", "進階")
def savings_and_retirement_adv1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    years = rng.randint(10, 35)
    have = pick_money(rng, 100_000, 3_000_000, 10_000)
    contrib = pick_money(rng, 3_000, 40_000, 500)
    r1 = pick_rate(rng, 3, 8, 0.25)
    ret_years = rng.randint(15, 30)
    r2 = pick_rate(rng, 1.5, 4, 0.25)
    i1 = r1 / 12
    n1 = 12 * years
    c = Chain()
    fv1 = c.add("既有資產退休時終值", have * (1 + i1) ** n1, f"{ntd(have)} × (1 + {pct(r1)} ÷ 12)^{n1}", ntd)
    fv2 = c.add("每月提撥累積終值", contrib * ((1 + i1) ** n1 - 1) / i1,
                f"{ntd(contrib)} × [(1 + {pct(r1)} ÷ 12)^{n1} − 1] ÷ ({pct(r1)} ÷ 12)", ntd)
    nest = c.add("退休時資產總額", fv1 + fv2, f"{ntd(fv1)} + {ntd(fv2)}", ntd)
    i2 = c.add("退休後月報酬率", r2 / 12, f"{pct(r2)} ÷ 12", lambda x: pct(x, 4))
    n2 = 12 * ret_years
    draw = c.add("退休後每月可提領金額", pmt(i2, n2, nest), f"{ntd(nest)} × {pct(i2, 4)} ÷ [1 − (1 + {pct(i2, 4)})^−{n2}]", ntd)
    q = (f"{who}距離退休還有 {years} 年，目前已有退休資產 {ntd(have)}，之後每月月底再投入 {ntd(contrib)}，退休前年報酬率 {pct(r1)}"
         f"（按月複利）。退休後預計生活 {ret_years} 年，資產改放在年報酬率 {pct(r2)}（按月複利）的保守配置，每月月底等額提領、"
         f"期末剛好用完。請問退休後每月可提領多少錢？{ASK_MONEY}")
    return c.numeric(q, draw, ntd(draw, 2), {"years": years, "have": have, "contrib": contrib, "r1": r1,
                                             "ret_years": ret_years, "r2": r2})


# ---------------------------------------------------------------- tax_calculation


@template(D, "tax_calculation", "tax_calculation_basic1", "基礎")
def tax_calculation_basic1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    x = pick_money(rng, 600_000, 4_900_000, 1_000)
    rate, diff = bracket_of(x)
    c = Chain()
    gross = c.add("所得淨額乘以稅率", x * rate, f"{ntd(x)} × {pct(rate, 0)}", ntd)
    tax = c.add("應納稅額", gross - diff, f"{ntd(gross)} − {ntd(diff)}", ntd)
    q = (f"{who}的綜合所得淨額為 {ntd(x)}。假設所適用級距的稅率為 {pct(rate, 0)}、累進差額為 {ntd(diff)}，"
         f"請問應納稅額是多少？")
    return c.numeric(q, tax, ntd(tax), {"x": x, "rate": rate, "diff": diff})


@template(D, "tax_calculation", "tax_calculation_basic2", "基礎")
def tax_calculation_basic2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    div = pick_money(rng, 20_000, 2_000_000, 100)
    rate = NHI_SUPPLEMENTARY_RATE
    c = Chain()
    prem = c.add("補充保險費", div * rate, f"{ntd(div)} × {pct(rate)}", ntd)
    net = c.add("實際入帳股利", div - prem, f"{ntd(div)} − {ntd(prem)}", ntd)
    q = (f"{who}收到一筆單次給付 {ntd(div)} 的現金股利。假設單次給付達 {ntd(NHI_SUPPLEMENTARY_MIN)} 就須按 {pct(rate)} 扣取二代健保補充保險費，"
         f"請問扣費後實際入帳的股利是多少？{ASK_NUM}")
    return c.numeric(q, net, ntd(net, 2), {"div": div, "rate": rate})


@template(D, "tax_calculation", "tax_calculation_inter1", "中級")
def tax_calculation_inter1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    married = rng.random() < 0.5
    people = rng.randint(2, 5) if married else rng.randint(2, 3)  # 「× 1」 would only restate the exemption
    exemption = 97_000
    std = 262_000 if married else 131_000
    special = 218_000
    # salary high enough that the net taxable income is at least NT$100,000
    salary = pick_money(rng, exemption * people + std + special + 100_000, 4_000_000, 1_000)
    c = Chain()
    ex = c.add("免稅額合計", exemption * people, f"{ntd(exemption)} × {people}", ntd)
    ded = c.add("扣除額合計", std + special, f"{ntd(std)} + {ntd(special)}", ntd)
    net = c.add("綜合所得淨額", salary - ex - ded, f"{ntd(salary)} − {ntd(ex)} − {ntd(ded)}", ntd)
    rate, diff = bracket_of(net)
    tax = c.add("應納稅額", net * rate - diff, f"{ntd(net)} × {pct(rate, 0)} − {ntd(diff)}", ntd)
    status = f"已婚，與配偶合併申報，全戶共 {people} 人" if married else f"單身，申報戶共 {people} 人"
    q = (f"{who}{status}，全戶只有{who}有薪資收入 {ntd(salary)}，沒有其他所得。假設：每人免稅額 {ntd(exemption)}；"
         f"採標準扣除額 {ntd(std)}；薪資所得特別扣除額 {ntd(special)}；稅率級距為{brackets_text()}。"
         f"請問應納稅額是多少？")
    return c.numeric(q, tax, ntd(tax), {"people": people, "salary": salary, "exemption": exemption, "std": std,
                                        "special": special})


@template(D, "tax_calculation", "tax_calculation_inter2", "中級")
def tax_calculation_inter2(rng: random.Random) -> Problem:
    who = pick_person(rng)
    x = pick_money(rng, 700_000, 4_900_000, 1_000)
    parts = []
    lo = 0.0
    tax_sum = 0.0
    for hi, rate, _ in BRACKETS:
        if x <= lo:
            break
        portion = min(x, hi) - lo
        tax_sum += portion * rate
        parts.append(f"{ntd(portion)} × {pct(rate, 0)}")
        lo = hi
    c = Chain()
    tax = c.add("各級距稅額合計", tax_sum, " + ".join(parts), ntd)
    c.add("稅後所得淨額", x - tax, f"{ntd(x)} − {ntd(tax)}", ntd)
    eff = c.add("有效稅率", tax / x, f"{ntd(tax)} ÷ {ntd(x)}", pct)
    tiers = []
    lo = 0
    for hi, rate, _ in BRACKETS:
        tiers.append(f"超過 {ntd(lo)} 的部分 {pct(rate, 0)}" if hi == float("inf")
                     else f"{ntd(lo)} 至 {ntd(hi)} 的部分 {pct(rate, 0)}")
        lo = hi
    lo_hi = "；".join(tiers)
    q = (f"{who}的綜合所得淨額為 {ntd(x)}。假設採超額累進稅率：{lo_hi}。請逐級計算稅額，"
         f"請問{who}的有效稅率（應納稅額 ÷ 所得淨額）是多少？{ASK_PCT}")
    return c.numeric(q, eff, pct(eff), {"x": x})


@template(D, "tax_calculation", "tax_calculation_adv1", "進階")
def tax_calculation_adv1(rng: random.Random) -> Problem:
    who = pick_person(rng)
    credit_rate, cap, sep_rate = DIVIDEND_CREDIT_RATE, DIVIDEND_CREDIT_CAP, DIVIDEND_SEPARATE_RATE
    while True:
        x = pick_money(rng, 200_000, 6_000_000, 1_000)
        div = pick_money(rng, 50_000, 3_000_000, 1_000)
        a = income_tax(x + div) - min(div * credit_rate, cap)
        b = income_tax(x) + div * sep_rate
        if abs(a - b) >= 1_000:
            break
    c = Chain()
    base = c.add("不含股利的應納稅額", income_tax(x), f"依級距計算 {ntd(x)} 的稅額", ntd)
    with_div = c.add("股利併入後的應納稅額", income_tax(x + div), f"依級距計算 {ntd(x)} + {ntd(div)} 的稅額", ntd)
    credit = c.add("股利可抵減稅額", min(div * credit_rate, cap), f"{ntd(div)} × {pct(credit_rate, 1)}，上限 {ntd(cap)}", ntd)
    opt_a = c.add("合併計稅的稅負（負數為可退稅）", with_div - credit, f"{ntd(with_div)} − {ntd(credit)}", ntd)
    opt_b = c.add("分開計稅的稅負", base + div * sep_rate, f"{ntd(base)} + {ntd(div)} × {pct(sep_rate, 0)}", ntd)
    d = c.add("合併計稅減分開計稅", opt_a - opt_b, f"{ntd(opt_a)} − {ntd(opt_b)}", ntd)
    ans = "合併計稅" if d < 0 else "分開計稅"
    c.note("稅負較低的方式", ans)
    q = (f"{who}今年綜合所得淨額（不含股利）為 {ntd(x)}，另有股利所得 {ntd(div)}。假設股利有兩種計稅方式可擇一："
         f"(1) 合併計稅：股利併入綜合所得淨額依級距課稅，再以股利的 {pct(credit_rate, 1)} 抵減應納稅額，抵減上限 {ntd(cap)}"
         f"（抵減後可為負數，代表退稅）；(2) 分開計稅：股利按 {pct(sep_rate, 0)} 單一稅率另行計算，其餘所得照級距課稅。"
         f"稅率級距為{brackets_text()}。請問哪一種方式的稅負較低？（請回答合併計稅或分開計稅）")
    return c.categorical(q, ans, {"x": x, "div": div, "credit_rate": credit_rate, "cap": cap, "sep_rate": sep_rate})

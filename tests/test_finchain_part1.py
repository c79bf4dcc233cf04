"""FinChain-TW part 1 (accounting, corporate_finance, crypto, regulation, markets, ratios): every template
is checked against an independent oracle written here from its parameters (a different formula path or a
library where one exists), its step chain is recomputed, and 200 seeds per template are range-checked
(finite, sane, zh-TW clean, inputs shown in the question)."""

from __future__ import annotations

import math
import random
import re
import statistics
from collections.abc import Callable

import numpy as np
import numpy_financial as npf
import pytest

import finchain_tw_templates.topics  # noqa: F401  (registers the templates)
from finchain_tw_templates.common import num, pct
from finchain_tw_templates.core import REGISTRY, Problem
from tests.finchain_zh import zh_literals, zh_problems

PART1_DOMAINS = ("accounting", "corporate_finance", "crypto", "regulation", "markets", "ratios")
PART1_TOPICS = {
    "accounting": {"balance_sheets", "cash_flow_statements", "depreciation_and_amortization", "income_statements"},
    "corporate_finance": {"capital_structure", "dividend_policies", "eps", "wacc"},
    "crypto": {"defi", "global_events_impact", "regulations", "sentiments", "tokenomics", "transaction_analysis",
               "whale_detection"},
    "regulation": {"aml", "basel", "compliance", "kyc", "security"},
    "markets": {"bond_pricing", "forex_trading", "option_pricing", "stock_market_analysis"},
    "ratios": {"efficiency_ratios", "leverage_ratios", "liquidity_ratios", "profitability_ratios"},
}
PART1_IDS = sorted(t for t, s in REGISTRY.items() if s.domain in PART1_DOMAINS)

# An oracle takes the template's params and returns (expected step values in order, expected answer).
# Answers of categorical templates are strings.
Oracle = Callable[[dict], tuple[list[float], float | str]]
ORACLES: dict[str, Oracle] = {}


def oracle(template_id: str):
    def reg(fn: Oracle) -> Oracle:
        ORACLES[template_id] = fn
        return fn

    return reg


def run(template_id: str, seed: int) -> Problem:
    return REGISTRY[template_id].func(random.Random(f"{template_id}:{seed}"))


# ================================================================ accounting


@oracle("balance_sheets_basic1")
def _(p):
    eq = (p["ca"] + p["nca"]) - p["tl"]
    return [eq + p["tl"], eq], eq


@oracle("balance_sheets_basic2")
def _(p):
    ca = sum((p["cash"], p["ar"], p["inv"]))
    return [ca, ca - p["cl"]], ca - p["cl"]


@oracle("balance_sheets_intermediate1")
def _(p):
    ta = p["cash"] + p["ar"] + p["ppe"]
    tl = p["ap"] + p["ltd"]
    return [ta, tl, ta - tl, 1 - (ta - tl) / ta], 1 - (ta - tl) / ta


@oracle("balance_sheets_intermediate2")
def _(p):
    end = p["eq0"] + p["ni"] - p["div"] + p["issue"]
    return [p["ni"] - p["div"], end, end / p["eq0"] - 1], end / p["eq0"] - 1


@oracle("balance_sheets_advanced1")
def _(p):
    ca = p["cash"] + p["ar"] + p["inv"]
    cl = p["ap"] + p["stl"]
    ta = ca + p["ppe"]
    eq = ta - cl - p["ltd"]
    return [ca, cl, ca - cl, ta, eq, (ta - eq) / eq], (ta - eq) / eq


@oracle("cash_flow_statements_basic1")
def _(p):
    return [p["cfo"] - p["capex"]], p["cfo"] - p["capex"]


@oracle("cash_flow_statements_basic2")
def _(p):
    net = p["cfo"] - p["capex_out"] + p["_cff"]
    return [net, p["begin"] + net], p["begin"] + net


@oracle("cash_flow_statements_intermediate1")
def _(p):
    wc = p["d_ap"] - p["d_ar"] - p["d_inv"]
    cfo = p["ni"] + p["dep"] + wc
    return [p["ni"] + p["dep"], wc, cfo], cfo


@oracle("cash_flow_statements_intermediate2")
def _(p):
    flows = [p["cfo"], -p["capex"], p["sale"], p["issue"], p["borrow"], -p["repay"], -p["div"]]
    return [p["sale"] - p["capex"], p["issue"] + p["borrow"] - p["repay"] - p["div"], sum(flows)], sum(flows)


@oracle("cash_flow_statements_advanced1")
def _(p):
    wc = -p["_d_ar"] - p["_d_inv"] + p["_d_ap"]
    cfo = p["ni"] + p["dep"] + p["amort"] + wc
    end = p["begin"] + cfo - p["capex"] - p["div"]
    return [p["dep"] + p["amort"], wc, cfo, cfo - p["capex"], end], end


@oracle("depreciation_and_amortization_basic1")
def _(p):
    return [p["cost"] - p["salvage"], (p["cost"] - p["salvage"]) / p["life"]], (p["cost"] - p["salvage"]) / p["life"]


@oracle("depreciation_and_amortization_basic2")
def _(p):
    bv = p["cost"] * (p["life"] - p["n"]) / p["life"]
    return [p["cost"] / p["life"], bv], bv


@oracle("depreciation_and_amortization_intermediate1")
def _(p):
    r = 2 / p["life"]
    bv = p["cost"] * (1 - r) ** 2  # closed form of two declining-balance years
    return [r, p["cost"] * r, p["cost"] * (1 - r) * r, bv], bv


@oracle("depreciation_and_amortization_intermediate2")
def _(p):
    n, k = p["life"], p["k"]
    weights = list(range(n, 0, -1))  # year 1 gets n, year n gets 1
    dep = (p["cost"] - p["salvage"]) * weights[k - 1] / sum(weights)
    return [p["cost"] - p["salvage"], sum(weights), dep], dep


@oracle("depreciation_and_amortization_advanced1")
def _(p):
    used = p["u1"] + p["u2"] + p["u3"]
    acc = (p["cost"] - p["salvage"]) * used / p["units"]
    bv = p["cost"] - acc
    return [(p["cost"] - p["salvage"]) / p["units"], used, acc, bv, p["price"] - bv], p["price"] - bv


@oracle("income_statements_basic1")
def _(p):
    return [p["rev"] - p["cogs"], 1 - p["cogs"] / p["rev"]], 1 - p["cogs"] / p["rev"]


@oracle("income_statements_basic2")
def _(p):
    return [p["rev"] - p["cogs"], p["rev"] - p["cogs"] - p["opex"]], p["rev"] - p["cogs"] - p["opex"]


@oracle("income_statements_intermediate1")
def _(p):
    oi = p["rev"] - p["cogs"] - p["opex"]
    ebt = oi + p["other"] - p["interest"]
    return [oi, ebt, ebt * p["tax"], ebt * (1 - p["tax"])], ebt * (1 - p["tax"])


@oracle("income_statements_intermediate2")
def _(p):
    opex = p["sell"] + p["admin"] + p["rd"]
    oi = p["rev"] - p["cogs"] - opex
    return [opex, oi, oi / p["rev"]], oi / p["rev"]


@oracle("income_statements_advanced1")
def _(p):
    rev = p["rev0"] * (1 + p["_g"])
    gp = rev - rev * p["cogs_ratio"]
    ebt = gp - p["opex"] - p["interest"]
    ni = ebt - ebt * p["tax"]
    return [rev, gp, gp - p["opex"], ebt, ni, ni / rev], ni / rev


# ================================================================ corporate_finance


@oracle("capital_structure_basic1")
def _(p):
    return [p["debt"] / p["eq"]], p["debt"] / p["eq"]


@oracle("capital_structure_basic2")
def _(p):
    e = p["shares"] * p["price"]
    return [e, 1 - e / (e + p["debt"])], 1 - e / (e + p["debt"])


@oracle("capital_structure_intermediate1")
def _(p):
    # equity of the levered firm = unlevered value minus the after-tax part of the debt
    e = p["vu"] - p["debt"] * (1 - p["t"])
    return [p["t"] * p["debt"], e + p["debt"], e], e


@oracle("capital_structure_intermediate2")
def _(p):
    bl = p["bu"] + p["bu"] * (1 - p["t"]) * p["debt"] / p["eq"]
    return [p["debt"] / p["eq"], (1 - p["t"]) * p["debt"] / p["eq"], bl], bl


@oracle("capital_structure_advanced1")
def _(p):
    vu = p["ebit"] * (1 - p["t"]) / p["ru"]
    vl = vu + p["t"] * p["debt"]
    e = vl - p["debt"]
    # independent path: equity holders receive (EBIT − interest)(1 − t) forever, so r_E = that / E
    re = (p["ebit"] - p["rd"] * p["debt"]) * (1 - p["t"]) / e
    return [vu, p["t"] * p["debt"], vl, e, re], re


@oracle("dividend_policies_basic1")
def _(p):
    return [p["dps"] / p["price"]], p["dps"] / p["price"]


@oracle("dividend_policies_basic2")
def _(p):
    payout = p["dps"] * p["shares"] / p["ni"]
    return [p["ni"] / p["shares"], payout], payout


@oracle("dividend_policies_intermediate1")
def _(p):
    # Gordon price as the sum of a long finite stream of growing dividends (converges since g < r)
    d1 = p["d0"] * (1 + p["g"])
    q = (1 + p["g"]) / (1 + p["r"])
    price = sum(d1 / (1 + p["r"]) * q**k for k in range(20000))
    return [d1, p["r"] - p["g"], price], price


@oracle("dividend_policies_intermediate2")
def _(p):
    keep = p["capex"] * p["we"]
    return [keep, p["ni"] - keep, (p["ni"] - keep) / p["shares"]], (p["ni"] - keep) / p["shares"]


@oracle("dividend_policies_advanced1")
def _(p):
    ratio = p["stock_div"] / 10
    new = p["held"] * ratio
    ref = (p["price"] - p["cash_div"]) / (1 + ratio)
    cash = p["held"] * p["cash_div"]
    # the ex-right/ex-dividend reference price preserves wealth: shares × old price
    return [ratio, new, cash, ref, (p["held"] + new) * ref, p["held"] * p["price"]], p["held"] * p["price"]


@oracle("eps_basic1")
def _(p):
    return [p["ni"] - p["pref"], (p["ni"] - p["pref"]) / p["shares"]], (p["ni"] - p["pref"]) / p["shares"]


@oracle("eps_basic2")
def _(p):
    pe = p["price"] * p["shares"] / p["ni"]  # market cap ÷ earnings
    return [p["ni"] / p["shares"], pe], pe


@oracle("eps_intermediate1")
def _(p):
    # share-months over the year
    months = [p["s0"] + (p["new"] if m >= p["m_new"] else 0) - (p["buy"] if m >= p["m_buy"] else 0)
              for m in range(1, 13)]
    w = sum(months) / 12
    return [p["new"] * (13 - p["m_new"]) / 12, p["buy"] * (13 - p["m_buy"]) / 12, w, p["ni"] / w], p["ni"] / w


@oracle("eps_intermediate2")
def _(p):
    interest = p["face"] * p["coupon"]
    adj = p["ni"] + interest - interest * p["t"]
    n = p["shares"] + p["face"] / p["conv_price"]
    return [interest * (1 - p["t"]), adj, n, adj / n], adj / n


@oracle("eps_advanced1")
def _(p):
    nic = p["ni"] - p["pref"]
    months = [p["s0"] + (p["new"] if m >= p["m_new"] else 0) for m in range(1, 13)]
    w = sum(months) / 12
    # treasury-stock method: options exercised, proceeds buy back shares at the average price
    inc = p["opts"] - p["opts"] * p["strike"] / p["price"]
    return [nic, w, nic / w, inc, nic / (w + inc)], nic / (w + inc)


@oracle("wacc_basic1")
def _(p):
    return [p["rd"] - p["rd"] * p["t"]], p["rd"] - p["rd"] * p["t"]


@oracle("wacc_basic2")
def _(p):
    re = (1 - p["beta"]) * p["rf"] + p["beta"] * p["rm"]
    return [p["rm"] - p["rf"], re], re


@oracle("wacc_intermediate1")
def _(p):
    v = p["e"] + p["d"]
    w = (p["e"] * p["re"] + p["d"] * p["rd"] * (1 - p["t"])) / v
    return [v, p["e"] / v, p["d"] / v, w], w


@oracle("wacc_intermediate2")
def _(p):
    re = p["rf"] + p["beta"] * p["mrp"]
    w = np.dot([1 - p["wd"], p["wd"]], [re, p["rd"] * (1 - p["t"])])
    return [re, p["rd"] * (1 - p["t"]), 1 - p["wd"], float(w)], float(w)


@oracle("wacc_advanced1")
def _(p):
    e = p["shares"] * p["price"]
    d = p["bonds"] * 1000 * p["bond_price"]
    re = (p["d1"] + p["g"] * p["price"]) / p["price"]
    w = (e * re + d * p["ytm"] * (1 - p["t"])) / (e + d)
    return [e, d, re, p["ytm"] * (1 - p["t"]), e / (e + d), w], w


# ================================================================ crypto


@oracle("defi_basic1")
def _(p):
    apy = math.exp(365 * math.log1p(p["apr"] / 365)) - 1
    return [apy], apy


@oracle("defi_basic2")
def _(p):
    return [p["qty"] * p["price"], p["qty"] * p["price"] * p["ltv"]], p["qty"] * p["price"] * p["ltv"]


@oracle("defi_intermediate1")
def _(p):
    eff = p["dx"] * (1 - p["fee"])
    out = p["y"] * eff / (p["x"] + eff)  # closed form of the constant-product swap
    return [eff, p["x"] * p["y"], p["y"] - out, out], out


@oracle("defi_intermediate2")
def _(p):
    val = p["qty"] * p["price"]
    hf = val * p["lt"] / p["debt"]
    drop = 1 - 1 / hf  # the price may fall until the health factor reaches 1
    return [val, hf, p["price"] * (1 - drop), drop], drop


@oracle("defi_advanced1")
def _(p):
    # explicit pool: half the value in tokens, half in stablecoins; arbitrage moves it along x·y = k
    x0, y0 = p["v0"] / 2 / p["p0"], p["v0"] / 2
    k = x0 * y0
    x1, y1 = math.sqrt(k / p["p1"]), math.sqrt(k * p["p1"])
    lp = x1 * p["p1"] + y1
    hodl = x0 * p["p1"] + y0
    fees = p["v0"] * p["fee_apr"] * p["days"] / 365
    return [p["p1"] / p["p0"], hodl, lp, lp - hodl, fees, lp - hodl + fees], lp - hodl + fees


@oracle("global_events_impact_basic1")
def _(p):
    pl = p["qty"] * p["p0"] * p["_shock"]
    return [p["p0"] * (1 + p["_shock"]), pl], pl


@oracle("global_events_impact_basic2")
def _(p):
    return [p["p1"] - p["p0"], p["p1"] / p["p0"] - 1], p["p1"] / p["p0"] - 1


@oracle("global_events_impact_intermediate1")
def _(p):
    v0 = p["btc"] + p["eth"] + p["stable"]
    v1 = p["btc"] * (1 + p["_sbtc"]) + p["eth"] * (1 + p["_seth"]) + p["stable"]
    return [p["btc"] * p["_sbtc"], p["eth"] * p["_seth"], v1 - v0, v1 / v0 - 1], v1 / v0 - 1


@oracle("global_events_impact_intermediate2")
def _(p):
    r = p["beta"] * p["_mkt"]
    return [r, p["p0"] * (1 + r), p["qty"] * p["p0"] * r], p["qty"] * p["p0"] * r


@oracle("global_events_impact_advanced1")
def _(p):
    growth = np.prod([1 + p["_e1"], 1 + p["_e2"], 1 + p["_e3"]])
    prices = p["p0"] * np.cumprod([1 + p["_e1"], 1 + p["_e2"], 1 + p["_e3"]])
    v0 = p["qty"] * p["p0"] * p["fx0"]
    v1 = v0 * growth * p["fx1"] / p["fx0"]
    return [*map(float, prices), float(growth - 1), v0, float(v1), float(v1 - v0)], float(v1 - v0)


@oracle("regulations_basic1")
def _(p):
    gain = p["sell"] - p["buy"] - p["fees"]
    return [gain, gain * p["rate"]], gain * p["rate"]


@oracle("regulations_basic2")
def _(p):
    v = p["qty"] * p["price"]
    return [v], ("是" if v >= p["threshold"] else "否")


@oracle("regulations_intermediate1")
def _(p):
    a, b = p["q1"] * p["p1"], p["q2"] * p["p2"]
    return [a, b, a + b + p["stable"], p["reserve"] / (a + b + p["stable"])], p["reserve"] / (a + b + p["stable"])


@oracle("regulations_intermediate2")
def _(p):
    per_case = p["base"] + p["avg"] * p["rate"]
    raw = p["n"] * per_case
    return [p["n"] * p["avg"], p["n"] * p["avg"] * p["rate"], raw, min(raw, p["cap"])], min(raw, p["cap"])


@oracle("regulations_advanced1")
def _(p):
    a, b = p["btc_q"] * p["btc_p"], p["eth_q"] * p["eth_p"]
    tot = a + b + p["stable"]
    req = max(p["floor"], tot * p["ratio"])
    return [a, b, tot, tot * p["ratio"], req, req - p["capital"]], req - p["capital"]


@oracle("sentiments_basic1")
def _(p):
    v = float(np.dot([p["w0"], p["w1"], p["w2"]], [p["s0"], p["s1"], p["s2"]]))
    return [v], v


@oracle("sentiments_basic2")
def _(p):
    n = p["bull"] + p["bear"] + p["neutral"]
    return [n, p["bull"] / n - p["bear"] / n], p["bull"] / n - p["bear"] / n


@oracle("sentiments_intermediate1")
def _(p):
    r = (p["alpha"] + p["beta"] * (p["s1"] - p["s0"])) / 100
    return [p["s1"] - p["s0"], r, p["p0"] + p["p0"] * r], p["p0"] + p["p0"] * r


@oracle("sentiments_intermediate2")
def _(p):
    periods = p["days"] * 24 / 8
    return ([p["notional"] * p["rate"], periods, p["notional"] * p["rate"] * periods, p["rate"] * 1095],
            p["notional"] * p["rate"] * periods)


@oracle("sentiments_advanced1")
def _(p):
    xs = np.array([p["x0"], p["x1"], p["x2"]])
    zs = (xs - np.array([p["m0"], p["m1"], p["m2"]])) / np.array([p["s0"], p["s1"], p["s2"]])
    comp = float(zs @ np.array([0.4, 0.35, 0.25]))
    r = comp * p["k"] / 100
    return [*map(float, zs), comp, r, p["p0"] * (1 + r)], p["p0"] * (1 + r)


@oracle("tokenomics_basic1")
def _(p):
    diff = p["maxs"] * p["price"] - p["circ"] * p["price"]
    return [p["maxs"] - p["circ"], diff], diff


@oracle("tokenomics_basic2")
def _(p):
    new = p["per_block"] * p["blocks"]
    return [new, new / p["supply"]], new / p["supply"]


@oracle("tokenomics_intermediate1")
def _(p):
    alloc = p["total"] * p["team"]
    schedule = [0.0] * p["cliff"] + [alloc / p["vest"]] * p["vest"]  # unlock per month
    done = sum(schedule[: p["m"]])
    return [alloc, alloc / p["vest"], done], done


@oracle("tokenomics_intermediate2")
def _(p):
    nom = p["infl"] / p["staked"]
    # a staker's share of supply grows by (1 + nom)/(1 + infl)
    real = (1 + nom) / (1 + p["infl"]) - 1
    return [nom, 1 + nom, real], real


@oracle("tokenomics_advanced1")
def _(p):
    burned = p["burn"] * p["txs"]
    s1 = p["s0"] + p["emission"] - burned
    price = p["price"] * p["s0"] / s1
    return [burned, p["emission"] - burned, s1, s1 / p["s0"] - 1, p["s0"] * p["price"], price], price


@oracle("transaction_analysis_basic1")
def _(p):
    sats = p["size"] * p["feerate"]
    return [sats, sats * p["price"] / 1e8], sats * p["price"] / 1e8


@oracle("transaction_analysis_basic2")
def _(p):
    return [(p["n1"] - p["n0"]) / p["n0"], p["vol"] / p["n1"]], p["vol"] / p["n1"]


@oracle("transaction_analysis_intermediate1")
def _(p):
    daily = p["per_block"] * (86_400 / p["block_time"])
    return [p["per_block"] / p["block_time"], daily, daily * p["fee"]], daily * p["fee"]


@oracle("transaction_analysis_intermediate2")
def _(p):
    ins = [v for k, v in sorted(p.items()) if k.startswith("in")]
    fee = (sum(ins) - p["pay"] - p["change"]) * 1e8
    return [sum(ins), p["pay"] + p["change"], fee, fee / p["size"]], fee / p["size"]


@oracle("transaction_analysis_advanced1")
def _(p):
    cost = p["qty"] * p["pa"] + p["qty"] * p["pa"] * p["fee_a"]
    got = p["qty"] - p["wd"]
    net_sale = got * p["pb"] - got * p["pb"] * p["fee_b"]
    return [cost, got, got * p["pb"], net_sale, net_sale - cost, net_sale / cost - 1], net_sale - cost


@oracle("whale_detection_basic1")
def _(p):
    share = p["held"] / p["supply"]
    return [share], "是" if p["held"] >= p["threshold"] * p["supply"] - 1e-9 else "否"


@oracle("whale_detection_basic2")
def _(p):
    return [p["qty"] * p["price"], p["qty"] * p["price"] / p["vol"]], p["qty"] * p["price"] / p["vol"]


@oracle("whale_detection_intermediate1")
def _(p):
    top = sum(v for k, v in p.items() if k.startswith("h"))
    d = top / p["supply"] * 100 - p["prev"] * 100
    return [top, top / p["supply"], d], d


@oracle("whale_detection_intermediate2")
def _(p):
    # average of a linear price path between p0 and the post-trade price
    impact = p["qty"] / p["depth"] / 100
    p1 = p["p0"] - p["p0"] * impact
    proceeds = p["qty"] * p["p0"] * (1 - impact / 2)
    return [impact, p1, (p["p0"] + p1) / 2, proceeds], proceeds


@oracle("whale_detection_advanced1")
def _(p):
    nets = [p[f"in{k}"] - p[f"out{k}"] for k in range(4)]
    val = sum(nets) * p["price"]
    share = val / p["vol"]
    level = "賣壓強" if share >= 0.05 else "賣壓中" if share >= 0.02 else "賣壓弱"
    return [*nets, sum(nets), val, share], level


# ================================================================ regulation


@oracle("aml_basic1")
def _(p):
    # a 大額通貨交易 is one cash transaction of NT$500,000 or more: the day's deposits are not added up
    singles = sorted((v for k, v in p.items() if k.startswith("a")), reverse=True)
    return [singles[0]], "是" if any(v >= 500_000 for v in singles) else "否"


@oracle("aml_basic2")
def _(p):
    avg = (p["m0"] + p["m1"] + p["m2"]) / 3
    return [avg, 3 * p["now"] / (p["m0"] + p["m1"] + p["m2"])], p["now"] / avg


@oracle("aml_intermediate1")
def _(p):
    parts = [p["s0"] * 0.4, p["s1"] * 0.35, p["s2"] * 0.25]
    return [*parts, float(np.dot([p["s0"], p["s1"], p["s2"]], [0.4, 0.35, 0.25]))], sum(parts)


@oracle("aml_intermediate2")
def _(p):
    amounts = [p["a0"], p["a1"], p["a2"]]
    tot = sum(amounts)
    flag = all(a < p["threshold"] for a in amounts) and tot >= 2 * p["threshold"] and tot / 3 >= 0.7 * p["threshold"]
    return [tot, tot / p["threshold"], tot / 3 / p["threshold"]], "是" if flag else "否"


@oracle("aml_advanced1")
def _(p):
    ci, wi = p["c0"] + p["c1"], p["w0"] + p["w1"]
    tot = ci + wi
    return [ci, wi, tot, tot - p["out24"], ci / tot, p["out24"] / tot], p["out24"] / tot


@oracle("basel_basic1")
def _(p):
    return [p["cap"] / p["rwa"]], p["cap"] / p["rwa"]


@oracle("basel_basic2")
def _(p):
    need = p["rwa"] * (p["minimum"] + p["buffer"])  # capital needed, compared in money
    return [p["cet1"] / p["rwa"], p["minimum"] + p["buffer"]], "是" if p["cet1"] >= need - 1e-3 else "否"


@oracle("basel_intermediate1")
def _(p):
    a, b = p["corp"] * p["w_corp"], p["mort"] * p["w_mort"]
    rwa = float(np.dot([p["gov"], p["corp"], p["mort"]], [0.0, p["w_corp"], p["w_mort"]]))
    return [a, b, rwa, p["cap"] / rwa], p["cap"] / rwa


@oracle("basel_intermediate2")
def _(p):
    exp = p["on"] + p["off"] * p["ccf"]
    return [p["off"] * p["ccf"], exp, p["tier1"] / exp], p["tier1"] / exp


@oracle("basel_advanced1")
def _(p):
    credit = p["corp"] + 0.75 * p["retail"] + 0.2 * p["bank_exp"]
    rwa = credit + 12.5 * (p["op_charge"] + p["mkt_charge"])
    # equivalently: capital ratio = capital ÷ (8% requirement grossed up); check via the 8% charge form
    charge = 0.08 * credit + p["op_charge"] + p["mkt_charge"]
    car = p["cap"] * 0.08 / charge
    return [credit, 12.5 * p["op_charge"], 12.5 * p["mkt_charge"], rwa, car], car


@oracle("compliance_basic1")
def _(p):
    return [p["done"] / p["staff"]], p["done"] / p["staff"]


@oracle("compliance_basic2")
def _(p):
    tot = p["people"] + p["systems"]
    return [tot, tot / p["rev"]], tot / p["rev"]


@oracle("compliance_intermediate1")
def _(p):
    net = (p["prob0"] - p["prob1"]) * p["fine"] - p["cost"]
    return [p["prob0"] * p["fine"], p["prob1"] * p["fine"], net], net


@oracle("compliance_intermediate2")
def _(p):
    cap = p["nw"] * p["limit"]
    after = p["existing"] + p["new"]
    return [cap, after, cap - after], "是" if after <= cap else "否"


@oracle("compliance_advanced1")
def _(p):
    cf = p["fine_cut"] + p["labor"] - p["run"]
    factor = round(-float(npf.pv(p["r"], p["n"], 1)) + 1e-12, 4)  # stated in the question to 4 decimals
    assert abs(factor * cf - float(npf.npv(p["r"], [0] + [cf] * p["n"]))) <= 5e-5 * abs(cf) + 1e-6
    npv = cf * factor - p["invest"]
    return [p["fine_cut"] + p["labor"], cf, factor, cf * factor, npv], npv


@oracle("kyc_basic1")
def _(p):
    score = p["_job"] + p["_country"] + p["_volume"] + p["_pep"]
    if p["_foreign_pep"]:  # FACTS.md 1.7: a current foreign PEP is high risk whatever the points
        return [score], "高"
    return [score], "低" if score <= 3 else "中" if score <= 6 else "高"


@oracle("kyc_basic2")
def _(p):
    return [p["trade"] / p["income"]], p["trade"] / p["income"]


@oracle("kyc_intermediate1")
def _(p):
    tot = p["a0"] + p["a1"] + p["a2"]
    dev = (tot - 3 * p["expected"]) / (3 * p["expected"])
    return [tot, tot / 3, dev], dev


@oracle("kyc_intermediate2")
def _(p):
    s = [p["s0"], p["s1"], p["s2"], p["s3"]]
    w = [0.3, 0.3, 0.2, 0.2]
    tot = float(np.dot(s, w))
    level = "低" if tot < 2.0 - 1e-9 else "中" if tot < 3.5 - 1e-9 else "高"
    return [s[0] * w[0], s[1] * w[1], s[2] * w[2], tot], level


@oracle("kyc_advanced1")
def _(p):
    total3 = p["m0"] + p["m1"] + p["m2"]
    annual = total3 * 4
    mult = annual / p["income"]
    s1 = min(6.0, 2 * mult)
    s2 = p["cash_share"] * 10
    s3 = p["foreign"] / 2
    tot = s1 + s2 + s3
    level = "低" if tot < 4 - 1e-9 else "中" if tot < 8 - 1e-9 else "高"
    return [total3 / 3, annual, mult, s1, s2, s3, tot], level


@oracle("security_basic1")
def _(p):
    return [p["av"] * p["ef"], p["av"] * p["ef"] * p["aro"]], p["av"] * p["ef"] * p["aro"]


@oracle("security_basic2")
def _(p):
    hours = p["days"] * 24
    return [hours, 1 - p["down"] / hours], 1 - p["down"] / hours


@oracle("security_intermediate1")
def _(p):
    red = p["sle"] * (p["aro0"] - p["aro1"])
    return [p["sle"] * p["aro0"], p["sle"] * p["aro1"], red, red - p["cost"]], red - p["cost"]


@oracle("security_intermediate2")
def _(p):
    combos = p["charset"] ** p["length"]
    days = math.exp(math.log(combos) - math.log(2) - math.log(p["rate"]) - math.log(86_400))
    return [combos, combos / 2, combos / 2 / p["rate"], days], days


@oracle("security_advanced1")
def _(p):
    sle = p["av"] * p["ef"]
    red = sle * p["aro"] * p["cut"]
    rosi = red / p["cost"] - 1
    return [sle, sle * p["aro"], p["aro"] * (1 - p["cut"]), sle * p["aro"] * (1 - p["cut"]), red, rosi], rosi


# ================================================================ markets


@oracle("bond_pricing_basic1")
def _(p):
    return [p["face"] * p["coupon"], p["face"] * p["coupon"] / p["price"]], p["face"] * p["coupon"] / p["price"]


@oracle("bond_pricing_basic2")
def _(p):
    price = -float(npf.pv(p["y"], p["n"], 0, p["face"]))
    return [price / p["face"], price], price


@oracle("bond_pricing_intermediate1")
def _(p):
    cpn = p["face"] * p["coupon"]
    flows = [cpn] * p["n"]
    flows[-1] += p["face"]
    price = sum(cf / (1 + p["y"]) ** t for t, cf in enumerate(flows, 1))  # explicit cash-flow discounting
    pv_face = p["face"] / (1 + p["y"]) ** p["n"]
    assert math.isclose(price, -float(npf.pv(p["y"], p["n"], cpn, p["face"])), rel_tol=1e-12)
    return [cpn, price - pv_face, pv_face, price], price


@oracle("bond_pricing_intermediate2")
def _(p):
    i, n = p["y"] / 2, p["years"] * 2
    cpn = p["face"] * p["coupon"] / 2
    price = sum(cpn / (1 + i) ** t for t in range(1, n + 1)) + p["face"] / (1 + i) ** n
    return [cpn, n, i, price], price


@oracle("bond_pricing_advanced1")
def _(p):
    y, n, face = p["y"], p["n"], p["face"]
    c = face * p["coupon"]
    price = -float(npf.pv(y, n, c, face))
    # closed-form Macaulay duration of an annual-coupon bond
    cr = p["coupon"]
    mac = (1 + y) / y - (1 + y + n * (cr - y)) / (cr * ((1 + y) ** n - 1) + y)
    mod = mac / (1 + y)
    chg = -mod * p["_dy"]
    return [price, mac * price, mac, mod, chg, price * (1 + chg)], price * (1 + chg)


@oracle("forex_trading_basic1")
def _(p):
    return [p["twd"] / p["rate"]], p["twd"] / p["rate"]


@oracle("forex_trading_basic2")
def _(p):
    usd_needed = p["amount"] / p["usdjpy"]
    return [p["usdtwd"] / p["usdjpy"], usd_needed * p["usdtwd"]], usd_needed * p["usdtwd"]


@oracle("forex_trading_intermediate1")
def _(p):
    cost, back = p["amount"] * p["ask0"], p["amount"] * p["bid1"]
    return [cost, back, back - cost, p["bid1"] / p["ask0"] - 1], p["bid1"] / p["ask0"] - 1


@oracle("forex_trading_intermediate2")
def _(p):
    a, b = 1 + p["i_tw"] * p["days"] / 360, 1 + p["i_us"] * p["days"] / 360
    # forward premium form: F = S + S × (a − b) / b
    f = p["spot"] + p["spot"] * (a - b) / b
    return [a, b, f], f


@oracle("forex_trading_advanced1")
def _(p):
    a, b = 1 + p["i_tw"] * p["days"] / 360, 1 + p["i_us"] * p["days"] / 360
    fair = p["spot"] * a / b
    pl = p["principal"] * b / p["spot"] * (p["fwd"] - fair)  # profit = USD proceeds × forward mispricing
    u0 = p["principal"] / p["spot"]
    return [u0, u0 * b, u0 * b * p["fwd"], p["principal"] * a, pl], pl


@oracle("option_pricing_basic1")
def _(p):
    payoff = max(p["st"] - p["k"], 0.0)
    return [payoff, payoff - p["prem"]], payoff - p["prem"]


@oracle("option_pricing_basic2")
def _(p):
    t = p["months"] / 12
    pvk = p["k"] / math.exp(p["r"] * t)
    return [pvk, p["s"] - pvk + p["put"]], p["s"] - pvk + p["put"]


@oracle("option_pricing_intermediate1")
def _(p):
    u, d, r = 1 + p["up"], 1 - p["down"], p["r"]
    cu, cd = max(p["s"] * u - p["k"], 0.0), max(p["s"] * d - p["k"], 0.0)
    # replicating portfolio: delta shares plus borrowing
    delta = (cu - cd) / (p["s"] * (u - d))
    bond = (cd * u - cu * d) / ((u - d) * (1 + r))
    q = (1 + r - d) / (u - d)
    return [q, cu, cd, delta * p["s"] + bond], delta * p["s"] + bond


@oracle("option_pricing_intermediate2")
def _(p):
    n = p["shares"]
    # a covered call pays min(S_T, K) per share plus the premium
    total = (min(p["st"], p["k"]) - p["s0"] + p["prem"]) * n
    return [(p["st"] - p["s0"]) * n, max(p["st"] - p["k"], 0.0) * n, p["prem"] * n, total], total


@oracle("option_pricing_advanced1")
def _(p):
    s, k, r, sig, t = p["s"], p["k"], p["r"], p["sigma"], p["t"]
    nd = statistics.NormalDist()
    d1 = (math.log(s / k) + (r + sig * sig / 2) * t) / (sig * math.sqrt(t))
    d2 = (math.log(s / k) + (r - sig * sig / 2) * t) / (sig * math.sqrt(t))
    call = s * nd.cdf(d1) - k * math.exp(-r * t) * nd.cdf(d2)
    put = k * math.exp(-r * t) * nd.cdf(-d2) - s * nd.cdf(-d1)
    assert math.isclose(call - put, s - k * math.exp(-r * t), rel_tol=1e-9, abs_tol=1e-9)
    return [d1, d2, nd.cdf(d1), nd.cdf(d2), call], call


@oracle("stock_market_analysis_basic1")
def _(p):
    r = (p["p1"] + p["div"]) / p["p0"] - 1
    return [p["p1"] - p["p0"], r], r


@oracle("stock_market_analysis_basic2")
def _(p):
    pb = p["price"] * p["shares"] / p["eq"]  # market cap ÷ book equity
    return [p["eq"] / p["shares"], pb], pb


@oracle("stock_market_analysis_intermediate1")
def _(p):
    closes = np.array([p[f"c{i}"] for i in range(6)])
    ma = np.convolve(closes, np.ones(5) / 5, mode="valid")
    bias = closes[-1] / ma[-1] - 1
    return [float(ma[0]), float(ma[1]), float(bias)], float(bias)


@oracle("stock_market_analysis_intermediate2")
def _(p):
    m = p["p1"] / (p["price"] * p["ratio"])
    cost = p["price"] * p["shares"]
    return [cost, cost * p["ratio"], p["p1"] * p["shares"], m], m


@oracle("stock_market_analysis_advanced1")
def _(p):
    actual = (p["p1"] + p["div"]) / p["p0"] - 1
    exp = (1 - p["beta"]) * p["rf"] + p["beta"] * p["_rm"]
    return [p["p1"] - p["p0"], actual, p["_rm"] - p["rf"], exp, actual - exp], actual - exp


# ================================================================ ratios


@oracle("efficiency_ratios_basic1")
def _(p):
    t = 2 * p["cogs"] / (p["inv0"] + p["inv1"])
    return [(p["inv0"] + p["inv1"]) / 2, t], t


@oracle("efficiency_ratios_basic2")
def _(p):
    d = p["ar"] * 365 / p["sales"]
    return [p["sales"] / p["ar"], d], d


@oracle("efficiency_ratios_intermediate1")
def _(p):
    avg = (p["ta0"] + p["ta1"]) / 2
    roa = p["ni"] / avg  # turnover × margin collapses to income ÷ average assets
    return [avg, p["sales"] / avg, p["ni"] / p["sales"], roa], roa


def _ccc(sales, cogs, inv, ar, ap):
    dio, dso, dpo = 365 * inv / cogs, 365 * ar / sales, 365 * ap / cogs
    return dio, dso, dpo, 365 * ((inv - ap) / cogs + ar / sales)


@oracle("efficiency_ratios_intermediate2")
def _(p):
    dio, dso, dpo, ccc = _ccc(p["sales"], p["cogs"], p["inv"], p["ar"], p["ap"])
    return [dio, dso, dpo, ccc], ccc


@oracle("efficiency_ratios_advanced1")
def _(p):
    inv, ar, ap = (np.mean([p["inv0"], p["inv1"]]), np.mean([p["ar0"], p["ar1"]]), np.mean([p["ap0"], p["ap1"]]))
    dio, dso, dpo, ccc = _ccc(p["sales"], p["cogs"], float(inv), float(ar), float(ap))
    return [float(inv), float(ar), float(ap), dio, dso, dpo, ccc], ccc


@oracle("leverage_ratios_basic1")
def _(p):
    return [p["tl"] / p["ta"]], p["tl"] / p["ta"]


@oracle("leverage_ratios_basic2")
def _(p):
    return [p["ebt"] + p["interest"], 1 + p["ebt"] / p["interest"]], 1 + p["ebt"] / p["interest"]


@oracle("leverage_ratios_intermediate1")
def _(p):
    eq = p["ta"] - p["tl"]
    return [eq, p["tl"] / eq, 1 + p["tl"] / eq], 1 + p["tl"] / eq


@oracle("leverage_ratios_intermediate2")
def _(p):
    ebitda = p["ebit"] + p["da"]
    return [ebitda, p["debt"] - p["cash"], (p["debt"] - p["cash"]) / ebitda], (p["debt"] - p["cash"]) / ebitda


@oracle("leverage_ratios_advanced1")
def _(p):
    cm = p["units"] * (p["price"] - p["vc"])
    ebit = cm - p["fixed"]
    dol, dfl = cm / ebit, ebit / (ebit - p["interest"])
    # independent path: recompute EPS-proportional income after the sales change (taxes cancel out)
    ebit_new = cm * (1 + p["g"]) - p["fixed"]
    change = (ebit_new - p["interest"]) / (ebit - p["interest"]) - 1
    return [cm, ebit, dol, dfl, dol * dfl, change], change


@oracle("liquidity_ratios_basic1")
def _(p):
    return [p["ca"] / p["cl"]], p["ca"] / p["cl"]


@oracle("liquidity_ratios_basic2")
def _(p):
    quick = p["ca"] - p["inv"] - p["prepaid"]
    return [quick, quick / p["cl"]], quick / p["cl"]


@oracle("liquidity_ratios_intermediate1")
def _(p):
    ca = p["cash"] + p["sec"] + p["ar"] + p["inv"]
    cl = p["ap"] + p["loan"] + p["accrued"]
    return [ca, cl, ca / cl, (p["cash"] + p["sec"]) / cl], (p["cash"] + p["sec"]) / cl


@oracle("liquidity_ratios_intermediate2")
def _(p):
    quick = p["cash"] + p["sec"] + p["ar"]
    days = 365 * quick / (p["opex"] - p["dep"])
    return [quick, (p["opex"] - p["dep"]) / 365, days], days


@oracle("liquidity_ratios_advanced1")
def _(p):
    before = p["ca"] / p["cl"]
    delta = p["buy"] - p["pay"]
    after = (p["ca"] + delta) / (p["cl"] + delta)
    return [before, p["ca"] + delta, p["cl"] + delta, after, after - before], after


@oracle("profitability_ratios_basic1")
def _(p):
    roe = 2 * p["ni"] / (p["e0"] + p["e1"])
    return [(p["e0"] + p["e1"]) / 2, roe], roe


@oracle("profitability_ratios_basic2")
def _(p):
    roa = 2 * p["ni"] / (p["a0"] + p["a1"])
    return [(p["a0"] + p["a1"]) / 2, roa], roa


@oracle("profitability_ratios_intermediate1")
def _(p):
    return [p["ni"] / p["sales"], p["sales"] / p["ta"], p["ta"] / p["eq"], p["ni"] / p["eq"]], p["ni"] / p["eq"]


@oracle("profitability_ratios_intermediate2")
def _(p):
    ebitda = p["sales"] - p["cogs"] - p["opex"] + p["dep"] + p["amort"]
    return [ebitda - p["dep"] - p["amort"], ebitda, ebitda / p["sales"]], ebitda / p["sales"]


@oracle("profitability_ratios_advanced1")
def _(p):
    ebt = p["ebit"] - p["interest"]
    ni = ebt * (1 - p["tax"])
    factors = [ni / ebt, ebt / p["ebit"], p["ebit"] / p["sales"], p["sales"] / p["ta"], p["ta"] / p["eq"]]
    return [*factors, ni / p["eq"]], ni / p["eq"]


# ================================================================ generic checks

# ratios that may legitimately exceed 100% (not yields or returns)
PCT_OVER_100_OK = {"kyc_basic2", "kyc_intermediate1", "stock_market_analysis_intermediate2"}
DIFF_STEPS = {"基礎": (1, 2), "中級": (3, 4), "進階": (5, 99)}
ORACLE_SEEDS = range(12)
ZH_SEEDS = 8
RANGE_SEEDS = range(200)
# step labels that name a price, which can never be zero or negative
PRICE_LABEL = re.compile(r"(價格|股價|參考價|理論價|匯率|遠期匯率|買權價|賣權價)$")


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def displays(v: float):
    """Ways an input value may be printed in a question (lazily: the first match ends the search)."""
    if float(v).is_integer():
        yield str(int(v))
    for d in range(0, 7):
        yield num(abs(v), d)  # the sign may sit before a currency symbol: -NT$1,000
        yield num(v, d)
        yield pct(v, d)
        yield num(v, d).replace(",", "")


def test_part1_topics_are_all_registered():
    present: dict[str, set[str]] = {d: set() for d in PART1_DOMAINS}
    for spec in REGISTRY.values():
        if spec.domain in PART1_DOMAINS:
            present[spec.domain].add(spec.topic)
    assert present == PART1_TOPICS
    assert len(PART1_IDS) == 28 * 5


def test_every_part1_template_has_an_oracle():
    missing = [t for t in PART1_IDS if t not in ORACLES]
    assert not missing, missing
    assert set(ORACLES) <= set(PART1_IDS)


@pytest.mark.parametrize("template_id", PART1_IDS)
def test_oracle_recomputes_steps_and_answer(template_id):
    for seed in ORACLE_SEEDS:
        prob = run(template_id, seed)
        steps, answer = ORACLES[template_id](prob.params)
        got = [s.value for s in prob.steps]
        assert len(got) == len(steps), (seed, [s.label for s in prob.steps])
        for i, (g, e) in enumerate(zip(got, steps)):
            assert close(g, e), (seed, prob.steps[i].label, g, e)
        if prob.answer_type == "numeric":
            assert close(prob.answer_value, answer), (seed, prob.answer_value, answer)
        else:
            assert prob.answer_text == answer, (seed, prob.answer_text, answer)


def _check_display(prob: Problem) -> None:
    """The answer display string is the rounded answer value (percent answers: the fraction × 100)."""
    if prob.answer_type != "numeric":
        return
    shown = prob.answer_display
    m = re.fullmatch(r"(-?)(?:NT\$|US\$)?([\d,]+(?:\.\d+)?)(%?)", shown)
    assert m, shown
    value = float(m.group(2).replace(",", "")) * (-1 if m.group(1) else 1)
    target = prob.answer_value * (100 if m.group(3) else 1)
    decimals = len(m.group(2).split(".")[1]) if "." in m.group(2) else 0
    assert abs(value - target) <= 0.5 * 10**-decimals + 1e-9 * max(1.0, abs(target)), (shown, prob.answer_value)


@pytest.mark.parametrize("template_id", PART1_IDS)
def test_200_seeds_are_sane_and_clean(template_id):
    spec = REGISTRY[template_id]
    lo, hi = DIFF_STEPS[spec.difficulty]
    questions = set()
    categorical_answers = set()
    for seed in RANGE_SEEDS:
        prob = run(template_id, seed)
        questions.add(prob.question)
        assert lo <= len(prob.steps) <= hi, (seed, len(prob.steps))
        for s in prob.steps:
            assert math.isfinite(s.value), (seed, s.label)
            if PRICE_LABEL.search(s.label):
                assert s.value > 0, (seed, s.label, s.value)
        if prob.answer_type == "numeric":
            assert math.isfinite(prob.answer_value)
            if prob.answer_display.endswith("%") and template_id not in PCT_OVER_100_OK:
                assert abs(prob.answer_value) <= 1.0, (seed, prob.answer_display)  # no −104% yields
        else:
            categorical_answers.add(prob.answer_text)
        _check_display(prob)
        for key, v in prob.params.items():
            if key.startswith("_") or not isinstance(v, (int, float)):
                continue
            assert any(d in prob.question for d in displays(v)), (seed, key, v, prob.question)
        if seed < ZH_SEEDS:  # the checker costs ~10 µs a character; names are checked once below
            for field, text in (("question", prob.question), ("solution", prob.solution)):
                problems = zh_problems(text)
                assert not problems, (seed, field, problems, text)
    assert len(questions) >= 150, "seeds should give distinct questions"
    if categorical_answers:
        assert len(categorical_answers) >= 2, f"categorical template always answers {categorical_answers}"


def test_fictional_names_pass_the_zh_checker():
    from finchain_tw_templates import common

    names = [*common.all_names(), *common.PERSONS, *common.INDUSTRIES, *common.FUND_THEMES]
    assert not zh_problems("、".join(names))


@pytest.mark.parametrize("module", sorted(PART1_DOMAINS))
def test_every_wording_fragment_is_clean(module):
    """All zh text fragments of a topic module (every rng.choice branch, not only the seeds drawn)."""
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "finchain_tw_templates" / "topics" / f"{module}.py"
    fragments = zh_literals(path)
    assert len(fragments) > 40
    problems = zh_problems("\n".join(fragments))
    assert not problems, problems


def test_categorical_share_is_in_the_original_range():
    cats = sum(run(t, 0).answer_type == "categorical" for t in PART1_IDS)
    assert 0.05 <= cats / len(PART1_IDS) <= 0.11, cats


def test_library_oracles_agree_with_closed_forms():
    """Sanity of the oracles' own tools (numpy-financial, NormalDist)."""
    assert math.isclose(-npf.pv(0.05, 10, 30, 1000), sum(30 / 1.05**t for t in range(1, 11)) + 1000 / 1.05**10)
    assert math.isclose(statistics.NormalDist().cdf(1.0), 0.5 * (1 + math.erf(1 / math.sqrt(2))))
    assert np.isclose(npf.npv(0.1, [-100, 60, 60]), -100 + 60 / 1.1 + 60 / 1.21)


# ================================================================ economic invariants (200 seeds)

INVARIANTS: dict[str, Callable[[dict, Problem], bool]] = {
    # a bond trades at a premium exactly when its coupon rate exceeds the yield
    "bond_pricing_intermediate1": lambda p, r: (r.answer_value > p["face"]) == (p["coupon"] > p["y"])
    or math.isclose(r.answer_value, p["face"]),
    "bond_pricing_intermediate2": lambda p, r: (r.answer_value > p["face"]) == (p["coupon"] > p["y"])
    or math.isclose(r.answer_value, p["face"]),
    # duration: Macaulay ≤ maturity, and a yield fall raises the price
    "bond_pricing_advanced1": lambda p, r: r.steps[2].value <= p["n"] + 1e-9
    and (r.answer_value > r.steps[0].value) == (p["_dy"] < 0),
    # no-arbitrage bounds of a European call
    "option_pricing_advanced1": lambda p, r: max(p["s"] - p["k"] * math.exp(-p["r"] * p["t"]), 0) - 1e-9
    <= r.answer_value <= p["s"],
    "option_pricing_intermediate1": lambda p, r: 0 <= r.answer_value <= p["s"] and 0 < r.steps[0].value < 1,
    "option_pricing_basic2": lambda p, r: r.answer_value > 0,
    # declining balance never goes below salvage within two years here
    "depreciation_and_amortization_intermediate1": lambda p, r: r.answer_value >= p["salvage"],
    # WACC lies between the after-tax cost of debt and the cost of equity
    "wacc_intermediate1": lambda p, r: p["rd"] * (1 - p["t"]) <= r.answer_value <= p["re"],
    "wacc_advanced1": lambda p, r: min(r.steps[2].value, r.steps[3].value) <= r.answer_value
    <= max(r.steps[2].value, r.steps[3].value),
    # leverage raises the cost of equity above the unlevered cost
    "capital_structure_advanced1": lambda p, r: r.answer_value > p["ru"],
    "capital_structure_intermediate2": lambda p, r: r.answer_value > p["bu"],
    # Gordon price exceeds the next dividend capitalised at r
    "dividend_policies_intermediate1": lambda p, r: r.answer_value > p["d0"] * (1 + p["g"]) / p["r"],
    # impermanent loss is never a gain
    "defi_advanced1": lambda p, r: r.steps[3].value <= 1e-9,
    # the AMM output is below the pool and below the no-slippage quote
    "defi_intermediate1": lambda p, r: 0 < r.answer_value < p["dx"] * p["y"] / p["x"],
    # the liquidation price is below today's price
    "defi_intermediate2": lambda p, r: 0 < r.answer_value < 1,
}


@pytest.mark.parametrize("template_id", sorted(INVARIANTS))
def test_economic_invariants_hold_for_200_seeds(template_id):
    for seed in RANGE_SEEDS:
        prob = run(template_id, seed)
        assert INVARIANTS[template_id](prob.params, prob), (seed, prob.params, prob.answer_value)

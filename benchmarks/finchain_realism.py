#!/usr/bin/env python3
"""Count the FinChain-TW realism patterns of issue 20 point 5 in a FinChain-TW JSONL file, so a change can
report each pattern's count before → after with one command.

    python benchmarks/finchain_realism.py data/finchain_tw.jsonl         # the built file (seeds 0–9)
    python benchmarks/finchain_realism.py --seeds 1000                    # generate seeds 0–999 in process
    python benchmarks/finchain_realism.py --seeds 1000 --scorer           # + the scorer over every gold
    python benchmarks/finchain_realism.py data/finchain_tw.jsonl --listed twse_equities.csv tpex_equities.csv

Patterns (items counted, not occurrences; the rules live in finchain_tw_templates/realism.py):
- tax_not_20_no_assumption: a corporate income-tax rate other than 20% in a question without 「假設」.
- real_brand_name: a fictional name built on a real TWSE/TPEx company or financial group (realism.REAL_BRAND_STEMS;
  `--listed` also checks every name pool of the templates against every listed short name, from CSVs whose
  third column is the name, e.g. the TWSE/TPEx code lists).
- fund_named_company_plus_基金: a fund named 「<company>基金」 instead of a 投信 product.
- small_firm_large_amount: a small-business name (農產, 餐飲, 茶業, 家居) next to an amount ≥ NT$1 億.
- question_states_no_rounding: a numeric question that does not say to how many decimals to answer.
- gold_not_rounded_as_asked: the displayed gold does not have the decimals the question asks for.
- gold_answer_line_not_digits: the gold 「答案：」 line holds more than the system prompt allows (digits,
  decimal point, minus sign, %).
- restating_step: a step whose formula only restates a given (× 100%, × 1, one operand).
- difficulty_label_mismatch: template id suffix, difficulty label and step count disagree.
- 同天評估: 「同天」 (written 「同時」).
- rounding_wording_not_standard: a rounding instruction other than 「四捨五入至小數點後第 N 位」／「四捨五入至整數」
  (「取到小數第二位」 may be read as truncation; 「整數元」).
- beta_not_貝他係數: beta written other than the glossary's 「貝他係數」 (「貝他值」, 「資產貝他」).
- company_deal_under_500萬: a named company buys land, a plant or a production line, issues a corporate bond or
  reports a balance sheet, revenue or cash flow, and the question's largest NT$ amount is under NT$500 萬.
- invalid_twse_tick: a stock price the question states that is not on the TWSE tick grid (0.01 below NT$10, 0.05
  to 50, 0.1 to 100, 0.5 to 500, 1 to 1,000, 5 above; finchain_tw_templates/FACTS.md §3).
- move_over_daily_limit: consecutive daily closes that move more than the TWSE 10% daily limit.
- non_taifex_contract_terms: a stock-option strike or premium off TAIFEX's grids, a contract that is not 2,000
  shares, or an index contract (臺股期貨, 小型臺指, 臺指選擇權) with another NT$ per point (FACTS.md §4).
- cash_report_rule_wrong: a 大額通貨交易 report stated as a total of several deposits, with another amount than
  NT$500,000, or filed with another body than 法務部調查局 (FACTS.md §1).
- quantile_not_stated: a normal-distribution question at a confidence level that does not give the z value.
- annuity_factor_not_stated: a solution that multiplies by an annuity factor the question does not give.
- internet_bank_capital_under_100億: a 純網路銀行 with equity or paid-in capital under NT$100 億 (FACTS.md §2).
- pep_rule_not_stated: a KYC score counting a 重要政治性職務人士 without the rule that a current foreign PEP is
  high risk outright (金融機構防制洗錢辦法; FACTS.md 1.7).
- wording_not_taiwan: 自營商 as an occupation (it is a securities dealer), 地區基礎 (地點基礎), 出售淨得 (出售淨額).
- scorer_rejects_gold (with --scorer): the scorer rejects 「答案：<gold>」.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from finchain_tw_templates.realism import CHECKS, findings, name_built_on_brand  # noqa: E402  (the rules)


def listed_names(paths: list[str]) -> set[str]:
    names: set[str] = set()
    for p in paths:
        with open(p, encoding="utf-8") as f:
            for row in csv.reader(f):
                if len(row) > 2 and row[0] in ("股票", "創新板", "ETF") and len(row[2]) >= 2:
                    names.add(row[2][:2] if row[0] == "ETF" else row[2])
    return names


def pool_clashes(listed: set[str]) -> list[str]:
    """Fictional names whose first two characters start a listed name, or that contain one."""
    from finchain_tw_templates.common import all_names
    return [n for n in all_names() if name_built_on_brand(n, listed)]


def count(records: list[dict], scorer: bool) -> Counter:
    c: Counter = Counter()
    if scorer:
        from tw_fin_eval.scoring import scorers
        cot = scorers.scorer_for("numeric_cot")
        cot.prepare(records)
        ctx = scorers.ScoreSettings()
    for r in records:
        c.update(findings(r))
        if scorer and r["answer_type"] == "numeric":
            item = cot.score(r, None, "答案：" + r["answer"], ctx)
            if not item.correct:
                c["scorer_rejects_gold"] += 1
                c["scorer_rejects_gold:" + r["template_id"]] += 1
    return c


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="?", help="a FinChain-TW JSONL file (default: generate in process)")
    ap.add_argument("--seeds", type=int, default=10, help="seeds per template when generating (default 10)")
    ap.add_argument("--scorer", action="store_true", help="also score every gold answer")
    ap.add_argument("--listed", nargs="*", default=[], help="CSV files of listed securities (name in column 3)")
    args = ap.parse_args(argv)
    if args.data:
        from tw_fin_eval.jsonl import read_jsonl
        records = list(read_jsonl(args.data))
    else:
        from finchain_tw_templates.generate import generate_records
        records = generate_records(seeds=args.seeds)
    c = count(records, args.scorer)
    print(f"{len(records)} items")
    if args.listed:
        clashes = pool_clashes(listed_names(args.listed))
        print(f"name pools: {len(clashes)} names clash with a listed name: {'、'.join(clashes)}")
    keys = list(CHECKS) + (["scorer_rejects_gold"] if args.scorer else [])
    for k in keys:
        print(f"{k}: {c.get(k, 0)}")
    for k, v in sorted(c.items()):
        if k.startswith("scorer_rejects_gold:"):
            print(f"  {k.split(':', 1)[1]}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

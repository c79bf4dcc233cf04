#!/usr/bin/env python3
"""Count the FinChain-TW realism patterns of issue 20 point 5 in a FinChain-TW JSONL file, so a change can
report each pattern's count before → after with one command.

    python benchmarks/finchain_realism.py data/finchain_tw.jsonl         # the built file (seeds 0–9)
    python benchmarks/finchain_realism.py --seeds 1000                    # generate seeds 0–999 in process
    python benchmarks/finchain_realism.py --seeds 1000 --scorer           # + the scorer over every gold
    python benchmarks/finchain_realism.py data/finchain_tw.jsonl --listed twse_equities.csv tpex_equities.csv

Patterns (items counted, not occurrences):
- tax_not_20_no_assumption: a corporate income-tax rate other than 20% in a question without 「假設」.
- real_brand_name: a fictional name built on a real TWSE/TPEx company or financial group (the stems below;
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
- 同天評估: the phrase.
- scorer_rejects_gold (with --scorer): the scorer rejects 「答案：<gold>」.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from finchain_tw_templates.common import asked_decimals  # noqa: E402  (the one rounding-clause rule)

# Stems of real listed companies / financial groups that fictional names must not be built on.
REAL_BRAND_STEMS = (
    "正隆", "福懋", "富邦", "新光", "永豐", "群益", "晶元", "長興", "大同", "台元", "玉山", "宏遠", "德昌",
    "萬泰", "永信", "華豐", "中興", "東亞", "太平洋", "國瑞", "匯通", "昱成", "寶島", "星鏈", "日月",
    "國泰", "中信", "兆豐", "元大", "台新", "華南", "合庫", "彰銀", "凱基", "復華", "野村", "聯邦", "日盛",
    "安泰", "京城", "王道", "南山", "三商", "遠雄", "宏泰",
)
SMALL_FIRM = re.compile(r"農產|餐飲|茶業|家居")
TAX = re.compile(r"(?:營利事業)?所得稅率(?:為)?\s*(\d+(?:\.\d+)?)%")
DIGITS_ONLY = re.compile(r"-?\d+(?:\.\d+)?%?")
IDENTITY = re.compile(r"^(?:[^=]*?) = (?:[^ =+−×÷]+) × (?:100%|1)(?: = |$)|^[^=]+ = ([^=+−×÷]+) = \1$")
SUFFIX_DIFFICULTY = {"basic": "基礎", "inter": "中級", "intermediate": "中級", "adv": "進階", "advanced": "進階"}


def shown_decimals(answer: str) -> int:
    core = answer.rstrip("%").split("$")[-1]
    return len(core.split(".")[1]) if "." in core else 0


def difficulty_ok(r: dict) -> bool:
    suffix = re.sub(r"\d+$", "", r["template_id"].rsplit("_", 1)[-1])
    n = len(r["steps"])
    by_steps = "基礎" if n <= 2 else "中級" if n <= 4 else "進階"
    return SUFFIX_DIFFICULTY.get(suffix) == r["difficulty"] == by_steps


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
    return [n for n in all_names() if any(x in n or x[:2] == n[:2] for x in listed)]


def count(records: list[dict], listed: set[str], scorer: bool) -> Counter:
    c: Counter = Counter()
    stems = set(REAL_BRAND_STEMS)
    if scorer:
        from tw_fin_eval.scoring import tasks
        cot = tasks.scorer_for("numeric_cot")
        cot.prepare(records)
        ctx = tasks.Context()
    for r in records:
        text = r["question"] + "\n" + r["solution"]
        q = r["question"]
        if any(float(m.group(1)) != 20 for m in TAX.finditer(q)) and "假設" not in q:
            c["tax_not_20_no_assumption"] += 1
        if any(s in text for s in stems):
            c["real_brand_name"] += 1
        if re.search(r"(?:精密|科技|電子|營造|食品|光電|半導體|紡織|物流|生技|航運|能源|機械|化工|醫材|建設|零件|資訊|綠能|"
                     r"塑膠|鋼鐵|通訊|精機|商貿|電機|包材|百貨|微系統|茶業|水務|光學|工業|餐飲|軟體|造紙|製藥|電池|家居|農產)"
                     r"(?:成長|科技|退休)?基金", q):
            c["fund_named_company_plus_基金"] += 1
        if SMALL_FIRM.search(q) and any(float(x.replace(",", "")) >= 1e8
                                        for x in re.findall(r"NT\$(\d[\d,]*)", q)):
            c["small_firm_large_amount"] += 1
        if r["answer_type"] == "numeric":
            d = asked_decimals(q)
            if d is None:
                c["question_states_no_rounding"] += 1
            elif shown_decimals(r["answer"]) != d:
                c["gold_not_rounded_as_asked"] += 1
            last = r["solution"].splitlines()[-1]
            if not (last.startswith("答案：") and DIGITS_ONLY.fullmatch(last[3:].strip())):
                c["gold_answer_line_not_digits"] += 1
        lines = [ln.split("：", 1)[1] for ln in r["solution"].splitlines() if ln.startswith("步驟")]
        if any(IDENTITY.search(ln) for ln in lines):
            c["restating_step"] += 1
        if not difficulty_ok(r):
            c["difficulty_label_mismatch"] += 1
        if "同天評估" in text:
            c["同天評估"] += 1
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
    c = count(records, set(), args.scorer)
    print(f"{len(records)} items")
    if args.listed:
        clashes = pool_clashes(listed_names(args.listed))
        print(f"name pools: {len(clashes)} names clash with a listed name: {'、'.join(clashes)}")
    keys = ["tax_not_20_no_assumption", "real_brand_name", "fund_named_company_plus_基金", "small_firm_large_amount",
            "question_states_no_rounding", "gold_not_rounded_as_asked", "gold_answer_line_not_digits", "restating_step",
            "difficulty_label_mismatch", "同天評估"] + (["scorer_rejects_gold"] if args.scorer else [])
    for k in keys:
        print(f"{k}: {c.get(k, 0)}")
    for k, v in sorted(c.items()):
        if k.startswith("scorer_rejects_gold:"):
            print(f"  {k.split(':', 1)[1]}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Finance Agent Benchmark v1 public set (50 questions with answers and rubrics) → English items."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from tw_fin_eval.errors import InputError, not_a_file
from tw_fin_eval.sources.base import SourceItem

PAPER = "arXiv 2508.00828"
URL = "https://github.com/vals-ai/finance-agent"
LICENSE = "MIT (code and data, vals-ai/finance-agent); CC BY 4.0 per the paper"

# the benchmark's 9 question types → zh-TW subcategory
QUESTION_TYPES = {
    "Simple retrieval - Qualitative": "簡單檢索－質性",
    "Simple retrieval - Quantitative": "簡單檢索－量化",
    "Numerical Reasoning": "數值推理",
    "Beat or Miss": "優於／低於預期",
    "Financial Modeling Projections": "財務模型與預測",
    "Adjustments": "調整項目",
    "Market Analysis": "市場分析",
    "Trends": "趨勢分析",
    "Complex Retrieval": "複雜檢索",
}


def _type_key(raw: str) -> str:
    norm = " ".join(raw.replace("-", " - ").split()).lower()
    for key in QUESTION_TYPES:
        if " ".join(key.replace("-", " - ").split()).lower() == norm:
            return key
    raise KeyError(raw)


def load(root: Path) -> list[SourceItem]:
    path = root / "finance_agent" / "v1" / "public.csv"
    if not path.is_file():
        raise not_a_file(path, "source file missing", "source file")
    items = []
    with path.open(encoding="utf-8", newline="") as fh:
        for index, row in enumerate(csv.DictReader(fh), 1):
            line = index + 1
            try:
                rubric = json.loads(row["Rubric"])
                qtype = _type_key(row["Question Type"])
            except json.JSONDecodeError as exc:
                raise InputError(f"rubric is not JSON ({exc.msg})", path=path, line=line) from None
            except KeyError as exc:
                raise InputError(f"unknown question type or column {exc}", path=path, line=line) from None
            items.append(SourceItem(
                subset="financeagent", source_id=f"financeagent-{index:03d}", index=index,
                question=row["Question"].strip(), table=None, evidence=[], setting=None,
                fields={
                    "answer": row["Answer"].strip(),
                    "rubric": [{"operator": r["operator"], "criteria": r["criteria"]} for r in rubric],
                    "question_type": qtype,
                    "expert_time_mins": row.get("Expert time (mins)"),
                },
            ))
    return items

"""Small synthetic unified records (docs/FORMATS.md §1) for the release, builder and review-sample tests:
they exercise every declared feature (nested tables, turns, steps, rubric, nulls, yes/no answers) without
the English sources or any built data, and they pass the zh-TW rule checker."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tw_fin_eval.jsonl import write_jsonl
from tw_fin_eval.subsets import get_spec

META = {"translation": "synthetic test record", "review_status": "unreviewed", "version": "0.1"}
SYSTEM = "你是一位嚴謹的台灣財務分析師。最後一行務必以「答案：<數值>」的格式寫出最終答案。"


def _messages(question: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": f"問題：{question}"}]


def _source(name: str, orig_id: str, license_: str = "MIT") -> dict[str, str]:
    return {"name": name, "paper": "arXiv 0000.00000", "orig_id": orig_id, "url": "https://example.org",
            "license": license_}


def finqa_records(n: int = 3, kinds: tuple[str, ...] = ("增減計算", "比率計算", "比較判斷")) -> list[dict[str, Any]]:
    out = []
    for i in range(1, n + 1):
        kind = kinds[(i - 1) % len(kinds)]
        yes_no = kind == "比較判斷"
        a, b = 5000 + i, 4000 + i
        out.append({
            "id": f"finqa_tw-test-{i:04d}", "dataset": "FinQA-TW", "source": _source("FinQA", f"SYN/2016/page_{i}.pdf-1"),
            "category": "C_財報數值推理", "subcategory": kind, "task_type": "numeric", "difficulty": None,
            "lang": "zh-TW",
            "question": f"{2015 + i % 2} 年的淨營收變動是多少？",
            "context": {"table": [["", "金額（百萬）"], ["2014 年淨營收", f"$ {b}"], ["2015 年淨營收", f"$ {a}"]],
                        "evidence": [f"2015 年淨營收（金額（百萬））為 $ {a}。"],
                        "setting": "silver_evidence" if i % 2 else "gold_evidence", "table_unit": None},
            "answer": "yes" if yes_no else str(a - b),
            "answer_value": None if yes_no else a - b,  # an int on purpose: the release must store float64
            "answer_text": "yes" if yes_no else None,
            "program": f"subtract({a}, {b})",
            "messages": _messages("淨營收變動是多少？"),
            "original_en": {"question": f"what is the change in net revenue in {2015 + i % 2}?",
                            "table": [["", "amount ( in millions )"], ["2014 net revenue", f"$ {b}"],
                                      ["2015 net revenue", f"$ {a}"]],
                            "evidence": [{"key": "table_2", "text": f"the 2015 net revenue is $ {a} ;"}],
                            # FinQA's human answer string where upstream has one (null otherwise)
                            "answer": None if yes_no else str(a - b),
                            # the upstream gold (differs from the top-level gold only for a fixed unit)
                            "answer_value": None if yes_no else float(a - b),
                            "answer_text": "yes" if yes_no else None, "program": f"subtract({a}, {b})"},
            # gold verification: one unit read and verified, the others not read yet (null)
            "gold_status": "verified" if i == 1 else None, "gold_reason": None,
            "gold_sweep": "unit" if i == 1 else None,
            # the gold's unit (the table is in millions); null for yes/no
            "answer_scale": None if yes_no else 6,
            "meta": META,
            "undeclared_extra": "dropped by the release",
        })
    return out


def convfinqa_records(n: int = 2) -> list[dict[str, Any]]:
    out = []
    for i in range(1, n + 1):
        turns = [
            {"question": "2015 年的淨利是多少？", "answer": "120", "answer_value": 120.0, "answer_text": None,
             "program": "120", "question_en": "what was net income in 2015?",
             # a fixed turn: the upstream gold read the 2014 cell
             "gold_status": "fixed", "gold_reason": "wrong_operand", "gold_sweep": "sign", "original_answer_value": 100.0,
             "original_answer_text": None,
             "original_program": "100", "original_answer": "100", "answer_scale": None},
            {"question": "淨利是否增加？", "answer": "yes", "answer_value": None, "answer_text": "yes",
             "program": "greater(120, 100)", "question_en": "did net income increase?",
             "gold_status": None, "gold_reason": None, "gold_sweep": None, "original_answer_value": None,
             "original_answer_text": "yes",
             "original_program": "greater(120, 100)", "original_answer": "yes", "answer_scale": None},
        ]
        out.append({
            "id": f"convfinqa_tw-dev-{i:04d}", "dataset": "ConvFinQA-TW",
            "source": _source("ConvFinQA", f"Single_SYN/2015/page_{i}.pdf-1"),
            "category": "C_財報數值推理", "subcategory": "雙題組合" if i % 2 == 0 else "單題拆解",
            "task_type": "conversation_numeric", "difficulty": None, "lang": "zh-TW",
            "question": turns[0]["question"],
            "context": {"table": [["", "2015", "2014"], ["淨利", "120", "100"]], "evidence": [], "setting": "gold_evidence",
                        "table_unit": "單位：百萬"},
            "answer": "yes", "answer_value": None, "answer_text": "yes", "program": "greater(120, 100)",
            "turns": turns, "system": SYSTEM, "first_user_prefix": "表格：\n| | 2015 | 2014 |\n\n",
            "messages": _messages(turns[0]["question"]),
            "original_en": {"questions": [t["question_en"] for t in turns],
                            "table": [["", "2015", "2014"], ["net income", "120", "100"]], "evidence": []},
            "meta": META,
        })
    return out


def finchain_records(n: int = 3) -> list[dict[str, Any]]:
    out = []
    for i in range(1, n + 1):
        categorical = i == n
        out.append({
            "id": f"finchain_tw-{i:04d}", "dataset": "FinChain-TW",
            "source": _source("FinChain", f"syn_template:{i}", "Apache-2.0"),
            "category": "投資分析", "subcategory": "bond_pricing", "task_type": "numeric_cot",
            "difficulty": ("基礎", "中級", "進階")[i % 3], "lang": "zh-TW",
            "question": f"面額 NT$1,000 的債券票面利率 {i}%，請計算每年利息。",
            "context": {"table": None, "evidence": [], "setting": None},
            "answer": "高" if categorical else str(10 * i),
            "answer_value": None if categorical else float(10 * i),
            "answer_text": "高" if categorical else None,
            "answer_decimals": None if categorical else 0,
            "program": None,
            "solution": f"步驟 1：利息 = NT$1,000 × {i}% = NT${10 * i}\n答案：{10 * i}",
            "steps": [{"label": "利息", "value": float(10 * i)}],
            "answer_type": "categorical" if categorical else "numeric",
            "template_id": "syn_template", "seed": i,
            "messages": _messages("請計算每年利息。"),
            "original_en": None,
            "meta": META,
        })
    return out


def financeagent_records(n: int = 2) -> list[dict[str, Any]]:
    out = []
    for i in range(1, n + 1):
        rubric = [{"operator": "correctness", "criteria": f"營收成長 {i}%"},
                  {"operator": "contradiction", "criteria": f"營收成長 {i}%"}]
        out.append({
            "id": f"financeagent_tw-{i:04d}", "dataset": "FinanceAgent-TW",
            "source": _source("Finance Agent Benchmark", f"financeagent-{i:03d}"),
            "category": "G_工具與Agent", "subcategory": "數值推理" if i % 2 else "市場分析",
            "task_type": "open_rubric_agent", "difficulty": None, "lang": "zh-TW",
            "question": f"該公司 2024 年營收成長多少？（第 {i} 題）",
            "context": {"table": None, "evidence": [], "setting": None},
            "answer": f"營收成長 {i}%。", "answer_value": None, "answer_text": None, "program": None,
            "rubric": rubric, "requires_tools": True,
            "messages": _messages("該公司營收成長多少？"),
            "original_en": {"question": f"How much did revenue grow in 2024? (question {i})",
                            "answer": f"Revenue grew {i}%.",
                            "rubric": [{"operator": r["operator"], "criteria": f"Revenue grew {i}%"} for r in rubric],
                            "question_type": "Numerical Reasoning"},
            "meta": META,
        })
    return out


def write_synthetic_data(folder: Path, counts: dict[str, int] | None = None) -> dict[str, list[dict[str, Any]]]:
    """Write data/*.jsonl for the four release configs; returns the records per config."""
    counts = {"finqa": 3, "convfinqa": 2, "finchain": 3, "financeagent": 2, **(counts or {})}
    makers = {"finqa": finqa_records, "convfinqa": convfinqa_records, "finchain": finchain_records,
              "financeagent": financeagent_records}
    out = {}
    for name, make in makers.items():
        out[name] = make(counts[name])
        write_jsonl(Path(folder) / get_spec(name).data_file, out[name])
    return out

"""FinQA test (1,147 items, official order) → English items with gold or silver evidence.

Gold evidence is FinQA's `gold_inds` (test_core.json: 509, recovered_gold.json: 74). For the others we
select *silver* evidence: the table rows and page-text sentences that hold the numbers the gold program
uses (`table_*` aggregate programs: their table row). An item whose program numbers cannot all be found in
its table or text is not grounded: the build keeps it out and writes a manifest line (id, reason)."""

from __future__ import annotations

import re
from pathlib import Path

from tw_fin_eval.answers.match import gold_display
from tw_fin_eval.sources.amount_scale import unit_note
from tw_fin_eval.sources.base import (
    Evidence,
    SourceItem,
    numbers_in,
    read_json,
    table_row_sentence,
)

PAPER = "arXiv 2109.00122"
URL = "https://github.com/czyssrs/FinQA"
LICENSE = "MIT"

_STEP = re.compile(r"(\w+)\(([^)]*)\)")
_NUMERIC_ARG = re.compile(r"^-?\d[\d,]*(?:\.\d+)?%?$")
MAX_SILVER = 8


def _split_flat(text: str) -> list[str]:
    """Sentence lists were lost for 29 items (text joined with single spaces); FinQA sentences end in ' .'"""
    parts = re.split(r"(?<= \.) (?=\S)", text.strip())
    return [p for p in (s.strip() for s in parts) if p]


def program_numbers(program: str) -> list[float]:
    """The literal numbers a FinQA program uses (no constants, no #k references)."""
    out = []
    for _, args in _STEP.findall(program):
        for arg in (a.strip() for a in args.split(",")):
            if _NUMERIC_ARG.match(arg):
                value = float(arg.rstrip("%").replace(",", ""))
                if value not in out:
                    out.append(value)
    return out


def aggregate_rows(program: str) -> list[str]:
    """Row names of table_sum/min/max/average steps."""
    return [args.split(",")[0].strip() for op, args in _STEP.findall(program) if op.startswith("table_")]


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _holds(text: str, value: float) -> bool:
    return any(_close(v, value) or _close(abs(v), abs(value)) for v in numbers_in(text))


def select_silver(question: str, table: list[list[str]], sentences: list[str], program: str) -> tuple[list[str], str | None]:
    """Evidence keys for a program, or (keys, reason) when some number cannot be found."""
    keys: list[str] = []
    for name in aggregate_rows(program):
        for r, row in enumerate(table[1:], 1):
            if row and row[0].strip().lower() == name.lower() and f"table_{r}" not in keys:
                keys.append(f"table_{r}")
                break
        else:
            return keys, f"aggregate row {name!r} not in table"
    missing = []
    for value in program_numbers(program):
        if any(_holds(" ".join(table[r]), value) for r in (int(k[6:]) for k in keys if k.startswith("table_"))):
            continue
        if any(_holds(sentences[int(k[5:])], value) for k in keys if k.startswith("text_")):
            continue
        rows = [r for r, row in enumerate(table[1:], 1) if any(_holds(c, value) for c in row[1:])]
        if rows:
            keys.append(f"table_{rows[0]}")
            continue
        texts = [i for i, s in enumerate(sentences) if _holds(s, value)]
        if texts:
            keys.append(f"text_{texts[0]}")
            continue
        # a number the question itself states (e.g. "if 25% more …") needs no evidence
        if _holds(question, value):
            continue
        # row labels and headers sometimes hold the number (e.g. a year used as a period count)
        if table and any(_holds(row[0], value) for row in table) or table and _holds(" ".join(table[0]), value):
            continue
        missing.append(value)
    if missing:
        return keys, "program numbers not found in table or text: " + ", ".join(f"{m:g}" for m in missing)
    if len(keys) > MAX_SILVER:
        return keys, f"silver evidence too large ({len(keys)} entries)"
    return sorted(keys, key=lambda k: (k.startswith("text_"), int(k.split("_")[1]))), None


def load(root: Path) -> list[SourceItem]:
    core = read_json(root / "finqa" / "test_core.json")
    gold_extra = {r["id"]: r for r in read_json(root / "finqa" / "recovered_gold.json")}
    text_extra = {r["id"]: r for r in read_json(root / "finqa" / "recovered_text.json")}
    items = []
    for index, rec in enumerate(core, 1):
        sid = rec["id"]
        extra = gold_extra.get(sid, {})
        if rec.get("pre_text") is not None:
            pre, post, text_kind = rec["pre_text"], rec["post_text"], "page_text"
        elif extra.get("pre_text") is not None:
            pre, post, text_kind = extra["pre_text"], extra["post_text"], "page_text"
        elif sid in text_extra and text_extra[sid]["kind"] == "page_text":
            pre, post, text_kind = text_extra[sid]["pre_text"], text_extra[sid]["post_text"], "page_text"
        elif sid in text_extra:
            pre = _split_flat(text_extra[sid]["pre_text_flat"])
            post = _split_flat(text_extra[sid]["post_text_flat"])
            text_kind = "flat_resplit"
        else:
            pre, post, text_kind = [], [], "none"
        sentences = list(pre) + list(post)
        table = [[str(c) for c in row] for row in rec["table"]]
        gold = rec.get("gold_inds") or extra.get("gold_inds")
        problem = None
        if gold:
            setting = "gold_evidence"
            evidence = [Evidence(k, v) for k, v in gold.items()]
        else:
            setting = "silver_evidence"
            keys, problem = select_silver(rec["question"], table, sentences, rec["program"])
            evidence = [
                Evidence(k, table_row_sentence(table, int(k[6:])) if k.startswith("table_") else sentences[int(k[5:])])
                for k in keys
            ]
        exe = rec["exe_ans"] if rec.get("exe_ans") is not None else extra.get("exe_ans")
        answer = rec.get("answer") or extra.get("answer")
        yes_no = isinstance(exe, str)
        items.append(SourceItem(
            subset="finqa", source_id=sid, index=index, question=rec["question"], table=table,
            evidence=evidence, setting=setting,
            fields={
                "program": rec["program"],
                # FinQA's human answer string where the scorer accepts it for the executed answer, else it
                # restated precisely enough, else the executed answer (101 human answers disagree with the
                # program's result, which is the scored gold) — the shared rule, answers.match.gold_display
                "answer": exe if yes_no else gold_display(answer, float(exe), questions=[rec["question"]]),
                "answer_original": answer,
                "answer_value": None if yes_no else float(exe),
                "answer_text": exe if yes_no else None,
                "text_kind": text_kind,
                "ungrounded": problem,
                "page_text": sentences,  # every sentence of the page, for the operand locator (verification/)
                # the table's unit as the sentence before the table states it ("( in thousands ) :")
                "unit_note": unit_note(table, list(pre)),
            },
        ))
    return items

"""ConvFinQA dev (421 conversations, 1,490 turns; 300 Single + 121 Double) → English items.

Evidence is the gold evidence of the processed copy: its text (one flattened string, split back into
sentences on FinQA's " . " boundaries → `text_N` keys) and its table rows (matched to the PoT table →
`table_N` keys; the header row is context, not evidence)."""

from __future__ import annotations

import re
from pathlib import Path

from tw_fin_eval.answers.match import gold_display
from tw_fin_eval.errors import InputError
from tw_fin_eval.sources.amount_scale import unit_note
from tw_fin_eval.sources.base import (
    Evidence,
    SourceItem,
    read_json,
    table_row_sentence,
)

PAPER = "arXiv 2210.03849"
URL = "https://github.com/czyssrs/ConvFinQA"
LICENSE = "MIT"


def split_sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=\.)\s+(?=\S)", text.strip())
    out = []
    for p in parts:
        p = p.strip()
        if p and p != ".":
            out.append(p)
    return out


def load(root: Path) -> list[SourceItem]:
    path = root / "convfinqa" / "dev_merged.json"
    data = read_json(path)
    items = []
    for index, conv in enumerate(data, 1):
        sid = conv["id"]
        table = [[str(c) for c in row] for row in conv["table"]]
        if table and table[0] and table[0][0] == "-":
            table[0][0] = ""  # PoT renders FinQA's empty top-left header cell as "-"
        gold = conv.get("gold_evidence") or {}
        evidence = [Evidence(f"text_{i}", s) for i, s in enumerate(split_sentences(gold.get("text") or ""))]
        for row in gold.get("table_rows") or []:
            row = [str(c) for c in row]
            if row and row[0] == "-":
                row[0] = ""
            matches = [r for r, t in enumerate(table) if t == row]
            if not matches:
                raise InputError("gold evidence row not found in the table", path=path, item_id=sid)
            if matches[0] == 0:
                continue
            key = f"table_{matches[0]}"
            if all(e.key != key for e in evidence):
                evidence.append(Evidence(key, table_row_sentence(table, matches[0])))
        questions = conv["dialogue_break"]
        n = len(questions)
        if not (len(conv["turn_program"]) == len(conv["exe_ans_list"]) == len(conv["conv_answers"]) == n):
            raise InputError("turn lists of different lengths", path=path, item_id=sid)
        turns = []
        for q, prog, exe, ans, split in zip(questions, conv["turn_program"], conv["exe_ans_list"],
                                            conv["conv_answers"], conv["qa_split"]):
            yes_no = isinstance(exe, str)
            turns.append({
                "question_en": q,
                "program": prog,
                # the human answer string where it states the executed answer, else the executed answer: it is
                # what the gold history shows the model, and it must not contradict the scored value
                "answer": exe if yes_no else gold_display(str(ans), float(exe), questions=[q]),
                "answer_value": None if yes_no else float(exe),
                "answer_text": exe if yes_no else None,
                "qa_split": int(split),
            })
        items.append(SourceItem(
            subset="convfinqa", source_id=sid, index=index, question=questions[0], table=table,
            evidence=evidence, setting="gold_evidence",
            fields={"turns": turns, "conv_type": "double" if sid.startswith("Double_") else "single",
                    # every sentence of the page, for the operand locator (verification/)
                    "page_text": split_sentences(f"{conv.get('pre_text') or ''} {conv.get('post_text') or ''}"),
                    # the table's unit as the sentence before the table states it ("( in thousands ) :")
                    "unit_note": unit_note(table, split_sentences(conv.get("pre_text") or ""))},
        ))
    return items

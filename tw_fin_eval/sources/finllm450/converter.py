"""FinLLM450 conversion: workbook rows → records (docs/FORMATS.md §1) + the data-problem list, and the
`tw-fin-eval convert-finllm450` command. What stops the conversion and what becomes a problem is listed
in tw_fin_eval/sources/finllm450/__init__.py."""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tw_fin_eval import DATA_VERSION, prompts
from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import atomic_writer, dumps
from tw_fin_eval.paths import DATA_DIR, REPO_ROOT
from tw_fin_eval.schema import base_record
from tw_fin_eval.sources.finllm450.options import (
    convert_code,
    parse_answer_codes,
    parse_options,
    reply_conclusion,
)
from tw_fin_eval.sources.finllm450.workbook import EMPTY_RUN, HEADERS, Row, Sheet, cell_text, read_sheet
from tw_fin_eval.zhcheck.rules import find_prc_terms, find_simplified

# the subset's label and data file, read by its spec (tw_fin_eval/subsets/finllm450.py) — spelled once, here
DATASET = "FinLLM450"
DATA_FILE = "finllm450.jsonl"
DEFAULT_OUT = DATA_DIR / DATA_FILE
DEFAULT_ISSUES = REPO_ROOT / "FinLLM450_資料問題清單.csv"
ISSUE_COLUMNS = ("序號", "欄位", "問題", "建議修正")
SOURCE_NAME = "FinLLM 450 評測訓練題"
SOURCE_LICENSE = "內部使用（APMIC × 銀行團），不對外發布"
TRANSLATION_NOTE = "原為繁體中文，未翻譯"

ABILITIES = ("財富規劃與退休理財", "授信與財務分析", "法規判讀與合規", "金融知識查詢")
ABILITY_REMAP = {"銀行契約、擔保與支付法務": "法規判讀與合規", "國際貿易與金融": "金融知識查詢"}
TASK_TYPES = {
    "選擇題": "mcq", "單選題": "mcq", "複選題": "mcq", "選擇": "mcq",
    "短答題": "short_answer", "簡答題": "short_answer", "短答": "short_answer", "簡答": "short_answer",
    "案例題": "case_study", "案例分析題": "case_study", "案例": "case_study", "個案題": "case_study",
}
REVIEW_FIXED, REVIEW_COMMENTED, REVIEW_PLAIN = "bank_fixed", "bank_commented", "bank_reviewed"

ZH_CHECKED_FIELDS = ("題目", "正確答案", "APMIC 最終回覆", "訓練思維鏈", "評分重點")

_YES = {"是", "V", "Y", "YES", "TRUE", "1", "✓", "✔", "☑", "須修正", "需修正"}
_NO = {"", "否", "N", "NO", "FALSE", "0", "-", "無", "☐", "□", "不須修正", "無須修正"}


# ---- conversion --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Problem:
    serial: int | None
    field: str
    problem: str
    fix: str
    kind: str  # for the summary only (not written to the CSV)

    def row(self) -> tuple[str, str, str, str]:
        return ("" if self.serial is None else str(self.serial), self.field, self.problem, self.fix)


@dataclass
class Result:
    records: list[dict[str, Any]]
    problems: list[Problem]
    stats: Counter = field(default_factory=Counter)


def _fail(sheet: Sheet, row: Row, header: str, message: str, item_id: str | None = None) -> InputError:
    return InputError(f"{sheet.where(row.excel_row, header)}: {message}", path=sheet.path, line=row.excel_row,
                      item_id=item_id, field=header)


def _serial(sheet: Sheet, row: Row) -> int:
    raw = row.cells["序號"]
    text = cell_text(raw)
    if text is None:
        raise _fail(sheet, row, "序號", "empty 序號 on a row that has content")
    t = unicodedata.normalize("NFKC", text)
    if not re.fullmatch(r"\d+", t) or int(t) <= 0:
        raise _fail(sheet, row, "序號", f"序號 {text!r} is not a positive integer")
    return int(t)


def _ability(sheet: Sheet, row: Row, item_id: str) -> tuple[str, str, bool]:
    """(category, label as written, whether it was remapped)."""
    original = cell_text(row.cells["能力"])
    if original is None:
        raise _fail(sheet, row, "能力", "empty 能力", item_id)
    key = re.sub(r"\s+", "", unicodedata.normalize("NFKC", original))
    key = re.sub(r"[,，､]", "、", key)
    key = key.removesuffix("能力")
    if key in ABILITIES:
        return key, original, False
    if key in ABILITY_REMAP:
        return ABILITY_REMAP[key], original, True
    known = "、".join(list(ABILITIES) + list(ABILITY_REMAP))
    raise _fail(sheet, row, "能力", f"unknown ability {original!r} (known: {known}, optionally ending in 能力)",
                item_id)


def _task_type(sheet: Sheet, row: Row, item_id: str) -> str:
    text = cell_text(row.cells["題型"])
    key = re.sub(r"\s+", "", unicodedata.normalize("NFKC", text or ""))
    key = re.sub(r"\([^)]*\)", "", key)  # 「選擇題（複選）」: the note does not change the type
    if key not in TASK_TYPES:
        raise _fail(sheet, row, "題型", f"unknown 題型 {text!r} (known: {'、'.join(TASK_TYPES)})", item_id)
    return TASK_TYPES[key]


def _needs_fix(sheet: Sheet, row: Row, item_id: str) -> bool:
    raw = row.cells["是否須修正"]
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, int | float) and raw in (0, 1):
        return bool(raw)
    t = re.sub(r"\s+", "", unicodedata.normalize("NFKC", cell_text(raw) or "")).upper()
    if t in _YES:
        return True
    if t in _NO:
        return False
    raise _fail(sheet, row, "是否須修正", f"cannot read {cell_text(raw)!r} as yes/no "
                f"(yes: {' '.join(sorted(_YES))}; no: blank {' '.join(sorted(_NO - {''}))})", item_id)


def _zh_problems(serial: int, header: str, text: str | None) -> list[Problem]:
    """Simplified characters and PRC terms in one field (a Simplified run inside a PRC term, 「杠」 in
    「杠杆」, is reported once, as the term)."""
    if not text:
        return []
    out: list[Problem] = []
    terms = find_prc_terms(text)
    for f in terms:
        out.append(Problem(serial, header, f"中國用語「{f.found}」（{f.text.strip()}）",
                           f"改用「{f.fix}」" if f.fix else f.message, "prc_term"))
    for f in find_simplified(text):
        if any(f.found in t.found for t in terms):
            continue
        out.append(Problem(serial, header, f"簡體字「{f.found}」（{f.text.strip()}）",
                           f"改為「{f.fix}」" if f.fix else f.message, "simplified"))
    return out


def _same_key(text: str) -> str:
    """What two 題號 or two questions are compared by: NFKC, whitespace removed."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def _fmt_codes(codes: Sequence[str]) -> str:
    return "、".join(codes)


def convert(sheet: Sheet) -> Result:
    """Rows → records + problems. Raises InputError (naming sheet, cell and header) on what cannot be
    converted; every other oddity becomes a Problem."""
    records: list[dict[str, Any]] = []
    problems: list[Problem] = []
    stats: Counter = Counter()
    first_row: dict[int, int] = {}
    qids: dict[str, list[tuple[int, str, str]]] = defaultdict(list)  # 題號 key → [(序號, 題號, 題目 key)]
    for row in sheet.rows:
        serial = _serial(sheet, row)
        if serial in first_row:
            raise _fail(sheet, row, "序號", f"duplicate 序號 {serial} (first on row {first_row[serial]})")
        first_row[serial] = row.excel_row
        rid = f"finllm450-{serial:04d}"
        text = {h: cell_text(row.cells.get(h)) for h in HEADERS}
        ability, ability_original, remapped = _ability(sheet, row, rid)
        task_type = _task_type(sheet, row, rid)
        question = text["題目"]
        if question is None:
            raise _fail(sheet, row, "題目", "empty question", rid)
        answer_text = text["正確答案"]
        if answer_text is None:
            raise _fail(sheet, row, "正確答案", "empty answer", rid)
        needs_fix = _needs_fix(sheet, row, rid)
        row_problems: list[Problem] = []

        def problem(header: str, what: str, fix: str, kind: str, _serial: int = serial,
                    _out: list[Problem] = row_problems) -> None:
            _out.append(Problem(_serial, header, what, fix, kind))

        qid = text["題號"]
        if qid is None:
            problem("題號", "題號空白", "補上題號", "blank")
        else:
            qids[_same_key(qid)].append((serial, qid, _same_key(question)))
        if text["科目"] is None:
            problem("科目", "科目空白", "補上科目（20 個專業科目之一）", "blank")
        stats["ability_remapped"] += remapped

        options = option_format = answer = reference_answer = None
        if task_type == "mcq":
            if text["選項"]:
                question = question + "\n" + text["選項"]
            parsed = parse_options(text["選項"] or text["題目"])
            if parsed is None:
                raise _fail(sheet, row, "選項" if text["選項"] else "題目",
                            "no options (A)–(D) or (1)–(4) found in the question", rid)
            options, option_format = parsed
            if len(options) > 4:
                raise _fail(sheet, row, "選項" if text["選項"] else "題目",
                            f"{len(options)} options; the scorer reads A–D and 1–4 only", rid)
            codes = parse_answer_codes(answer_text)
            if not codes:
                raise _fail(sheet, row, "正確答案", f"answer {answer_text!r} is not option codes "
                            f"({_fmt_codes(options)})", rid)
            converted = [convert_code(c, option_format) for c in codes]
            if converted != codes:
                shown = "(1)–(4)" if option_format == "number" else "(A)–(D)"
                kind = "字母" if option_format == "number" else "數字"
                rule = "A→1、B→2、C→3、D→4" if option_format == "number" else "1→A、2→B、3→C、4→D"
                problem("正確答案", f"選項為 {shown}，正確答案卻寫成{kind}「{answer_text}」",
                        f"改為「{_fmt_codes(converted)}」（轉檔已依 {rule} 轉換）", "answer_format")
                stats["answer_converted"] += 1
            outside = [c for c in converted if c not in options]
            if outside:
                raise _fail(sheet, row, "正確答案", f"answer {answer_text!r} is not among the options "
                            f"{_fmt_codes(options)}", rid)
            answer = sorted(converted, key=options.index)
            if len(answer) > 1:
                stats["multi_answer"] += 1
            said = reply_conclusion(text["APMIC 最終回覆"])
            said_conv = sorted(dict.fromkeys(convert_code(c, option_format) for c in said),
                               key=lambda c: options.index(c) if c in options else 99)
            if text["APMIC 最終回覆"] is None:
                pass  # reported below as blank
            elif not said:
                problem("APMIC 最終回覆", "無法從回覆判讀選項結論，未能與正確答案比對",
                        "在回覆最後一行寫明「答案：<選項>」", "apmic_unreadable")
            elif set(said_conv) != set(answer):
                problem("APMIC 最終回覆", f"回覆結論為「{_fmt_codes(said)}」，與正確答案「{_fmt_codes(answer)}」不一致",
                        "確認正確答案；若回覆有誤，用於訓練前修正回覆", "apmic_mismatch")
            else:
                stats["apmic_agrees"] += 1
                if converted != codes:
                    stats["answer_converted_apmic_agrees"] += 1
        else:
            reference_answer = answer_text
            if text["評分重點"] is None:
                problem("評分重點", "評分重點空白", "補上評分重點（目前以參考答案評分；補上後可改為逐條評分）",
                        "blank_scoring_points")
        if text["APMIC 最終回覆"] is None:
            problem("APMIC 最終回覆", "APMIC 最終回覆空白", "補上 APMIC 最終回覆", "blank")
        if text["訓練思維鏈"] is None:
            problem("訓練思維鏈", "訓練思維鏈空白", "補上訓練思維鏈", "blank")
        comment = text["銀行團審題意見"]
        if needs_fix and comment is None:
            problem("銀行團審題意見", "勾選「須修正」但審題意見空白", "補上審題意見，說明修正內容", "review")
        status = REVIEW_FIXED if needs_fix else REVIEW_COMMENTED if comment else REVIEW_PLAIN
        stats[f"review_{status}"] += 1
        for header in ZH_CHECKED_FIELDS:
            row_problems.extend(_zh_problems(serial, header, text.get(header)))
        problems.extend(row_problems)
        stats[task_type] += 1
        stats[f"category:{ability}"] += 1

        messages = (prompts.mcq_messages(question, option_format, len(answer) > 1) if task_type == "mcq"
                    else prompts.expert_messages(question, task_type))
        records.append(base_record(
            id=rid,
            dataset=DATASET,
            source={"name": SOURCE_NAME, "paper": None, "orig_id": str(serial), "orig_qid": qid, "url": None,
                    "license": SOURCE_LICENSE},
            category=ability,
            subcategory=text["科目"],
            task_type=task_type,
            question=question,
            answer=answer,
            extra={"options": options, "option_format": option_format, "reference_answer": reference_answer,
                   "reference": {"apmic_reply": text["APMIC 最終回覆"], "training_cot": text["訓練思維鏈"]},
                   "scoring_points": text["評分重點"], "ability_original": ability_original},
            messages=messages,
            meta={"translation": TRANSLATION_NOTE, "review_status": status, "version": DATA_VERSION,
                  "review_comment": comment},
        ))

    questions: dict[str, list[tuple[int, str]]] = defaultdict(list)  # 題目 key → [(序號, 題號 key)]
    for members in qids.values():
        for s, qid, q in members:
            questions[q].append((s, _same_key(qid)))
    for members in qids.values():
        if len(members) < 2:
            continue
        stats["duplicate_qid_groups"] += 1
        qid = members[0][1]
        serials = "、".join(str(s) for s, _, _ in members)
        for s, _, q in members:
            same = [t for t, _, other in members if t != s and other == q]
            if same:
                what = f"題號「{qid}」重複（序號 {serials}），與序號 {'、'.join(map(str, same))} 題目內容相同"
                fix = "確認是否重複收錄；若是，刪除其中一題"
            else:
                what = f"題號「{qid}」重複（序號 {serials}），題目內容不同"
                fix = "為重複的題目另編題號（轉檔 id 以序號產生，不受影響）"
            problems.append(Problem(s, "題號", what, fix, "duplicate_qid"))
    for members in questions.values():  # the same question under different 題號 (same 題號: reported above)
        for s, key in members:
            others = [t for t, k in members if t != s and k != key]
            if others:
                problems.append(Problem(s, "題目", f"題目與序號 {'、'.join(map(str, others))} 完全相同（題號不同）",
                                        "確認是否重複收錄；若是，刪除其中一題", "duplicate_question"))
    if sheet.trailing is not None:
        cell, n, first_blank = sheet.trailing
        problems.append(Problem(None, "（工作表）", f"第 {first_blank} 列起連續 {EMPTY_RUN} 列空白，以下 {n} 個儲存格"
                                f"（自 {cell} 起）未讀取", "刪除多餘的儲存格；若為題目，移除中間的空白列", "unread_cells"))
    order = {h: i for i, h in enumerate(HEADERS)}
    problems.sort(key=lambda p: (p.serial if p.serial is not None else -1, order.get(p.field, 99)))
    return Result(records, problems, stats)


def issues_csv(problems: Sequence[Problem]) -> str:
    from tw_fin_eval.jsonl import safe_csv_cell

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(ISSUE_COLUMNS)
    for p in problems:
        w.writerow([safe_csv_cell(c) for c in p.row()])  # a cell starting with = + - @ is not a formula
    return buf.getvalue()


def write_outputs(result: Result, out: str | Path, issues: str | Path) -> None:
    """Both files are rendered in memory and written to temporaries before either is renamed into place."""
    data = "".join(dumps(r) + "\n" for r in result.records)
    sheet = issues_csv(result.problems)
    with contextlib.ExitStack() as stack:
        stack.enter_context(atomic_writer(out)).write(data)
        stack.enter_context(atomic_writer(issues, encoding="utf-8-sig", newline="")).write(sheet)


def summary_lines(result: Result, sheet: Sheet) -> list[str]:
    s = result.stats
    cats = "、".join(f"{c} {s[f'category:{c}']}" for c in ABILITIES)
    kinds = Counter(p.kind for p in result.problems)
    lines = [
        f"sheet {sheet.title!r}: header on row {sheet.header_row}, {len(result.records)} questions",
        f"task types: mcq {s['mcq']} / short_answer {s['short_answer']} / case_study {s['case_study']}",
        f"abilities: {cats} (remapped: {s['ability_remapped']})",
        f"duplicate 題號 groups: {s['duplicate_qid_groups']}; multi-answer mcq: {s['multi_answer']}",
        f"answers converted between letters and numbers: {s['answer_converted']} "
        f"(APMIC reply agrees: {s['answer_converted_apmic_agrees']}); mcq agreeing with the APMIC reply: "
        f"{s['apmic_agrees']}/{s['mcq']}",
        f"review: {s['review_' + REVIEW_FIXED]} {REVIEW_FIXED}, {s['review_' + REVIEW_COMMENTED]} "
        f"{REVIEW_COMMENTED}, {s['review_' + REVIEW_PLAIN]} {REVIEW_PLAIN}",
        f"problems: {len(result.problems)} in {len({p.serial for p in result.problems})} questions ("
        + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) + ")",
        f"questions with Simplified characters / PRC terms in the APMIC reply or CoT: "
        f"{len({p.serial for p in result.problems if p.kind in ('simplified', 'prc_term') and p.field in ('APMIC 最終回覆', '訓練思維鏈')})}",
    ]
    return lines


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--xlsx", required=True, help="the workbook (FinLLM 450 評測訓練題.xlsx)")
    parser.add_argument("--sheet", help="sheet name (default: the one sheet holding the expected headers)")
    parser.add_argument("--out", default=str(DEFAULT_OUT), help="records JSONL (default: data/finllm450.jsonl)")
    parser.add_argument("--issues", default=str(DEFAULT_ISSUES),
                        help="data-problem list, CSV with BOM (default: FinLLM450_資料問題清單.csv)")
    parser.add_argument("--quiet", action="store_true", help="no summary on stdout")


def main(args: argparse.Namespace) -> int:
    sheet = read_sheet(args.xlsx, args.sheet)
    result = convert(sheet)
    if not result.records:
        raise InputError(f"sheet {sheet.title!r} has no question rows below the header (row {sheet.header_row})",
                         path=sheet.path)
    try:
        write_outputs(result, args.out, args.issues)
    except OSError as exc:
        raise InputError(f"cannot write outputs: {exc.strerror or exc}", path=exc.filename) from None
    if not args.quiet:
        for line in summary_lines(result, sheet):
            print(line)
        print(f"wrote {args.out} ({len(result.records)} records) and {args.issues} ({len(result.problems)} problems)")
    return 0

"""`tw-fin-eval convert-finllm450 --xlsx PATH` / `tools/convert_finllm450.py`: the bank consortium's
workbook 「FinLLM 450 評測訓練題.xlsx」 → `data/finllm450.jsonl` (docs/FORMATS.md §1: mcq / short_answer /
case_study) and `FinLLM450_資料問題清單.csv` (UTF-8 with BOM; columns 序號, 欄位, 問題, 建議修正).

The workbook
------------
One sheet holds the questions (`--sheet NAME`; without it, the one sheet whose header row carries every
required header — zero or several such sheets is an error that lists the sheets). The header row is found
by its contents (the first 15 rows are searched), so a title row above it or a two-level header (a merged
group cell such as 「APMIC」 over 「最終回覆」「訓練思維鏈」) is fine; merged cells are read as if every cell of
the range held the value (this also covers a 能力 cell merged down several rows). Columns are matched by
name, in any order; extra columns are ignored. A header matches after NFKC (full-width → half-width),
removing whitespace, a trailing 「：」 or 「*」, and either a bracketed note (「題型（選擇題／短答題／案例題）」)
or just the brackets (「【APMIC】最終回覆」). Accepted headers (first = the name used in messages and in the
problem list; * = required):

    序號*            序號, 流水號, No.                     unique positive integer → id finllm450-0001…
    題號*            題號, 原題號, 題目編號, 題目代號       → source.orig_qid (may repeat)
    能力*            能力, 能力類別, 能力別, 四大能力, 能力分類
    科目*            科目, 子類別, 科目/子類別, 專業科目, 科目別, 科目類別 → subcategory
    題型*            題型, 題目類型 — 選擇題 / 單選題 / 複選題 → mcq; 短答題 / 簡答題 → short_answer;
                     案例題 / 案例分析題 → case_study (a bracketed note such as 「（複選）」 is ignored)
    題目*            題目, 題目內容, 題幹, 問題
    選項             選項, 選項內容 (optional: when a row's cell is filled, its options are read from it
                     and it is appended to the question; otherwise the options are inside 題目)
    正確答案*        正確答案, 標準答案, 答案, 參考答案
    APMIC 最終回覆*  APMIC最終回覆, APMIC回覆, 最終回覆
    訓練思維鏈*      訓練思維鏈, 思維鏈, CoT
    評分重點         評分重點, 評分要點 (optional)
    銀行團審題意見*  銀行團審題意見, 審題意見, 銀行團意見
    是否須修正*      是否須修正, 須修正, 是否需修正, 需修正 — yes: 是 V Y TRUE 1 ✓ ✔ ☑ 須修正; no: blank 否 N
                     FALSE 0 - 無; anything else is an error

Options are written inside the question text, as Taiwan exam papers do: 「(A)… (B)… (C)… (D)…」 (full-width
brackets too, or 「A.」 at a line start) or 「(1)…(4)」 / 「①…④」. A chain (A)(B)… wins over (1)(2)…, because
numbered statements inside a stem are often answered by lettered options; the last chain starting at (A)
(or (1)) is taken. Two to four options; more than D / 4 is an error (the scorer reads A–D and 1–4).
`options` are the codes; the question keeps the option text.

The record (FORMATS §1 plus the finllm450 features): `category` is one of the four abilities
(財富規劃與退休理財, 授信與財務分析, 法規判讀與合規, 金融知識查詢; a trailing 「能力」 is dropped), with
「銀行契約、擔保與支付法務能力」→ 法規判讀與合規 and 「國際貿易與金融」→ 金融知識查詢; the label as written is kept
in `ability_original`. `answer` is the list of option codes for mcq (null for short/case, which carry
`reference_answer`). `reference = {apmic_reply, training_cot}` is kept and never scored. `scoring_points`
keeps 評分重點 (null when blank). `meta.review_status`: ``bank_fixed`` (須修正 ticked; the workbook already
holds the corrected content), ``bank_commented`` (a comment, not ticked), ``bank_reviewed`` (neither);
`meta.review_comment` holds the comment.

Answers: a letter answer on (1)–(4) options is converted A→1, B→2 … (and a number answer on (A)–(D)
options 1→A …); both are listed as problems. Every MCQ answer is compared with the conclusion of the APMIC
reply (「答案：」, \\boxed{}, 「故選 (2)」, 「正確答案為 B」…); a disagreement or an unreadable conclusion is
listed — the answer is never changed to agree with the reply.

Stops (exit 2, nothing written, the message names sheet, cell and header): missing sheet or headers, an
unreadable or duplicate 序號, an empty 題目 or 正確答案, an unknown 題型 or 能力, MCQ options not found,
an answer that is not option codes or not among the options, an unreadable 是否須修正.
Listed as problems (the record is still written): duplicate 題號 (content different or the same), the same
question under different 題號, the
answer-format conversions, APMIC disagreements / unreadable conclusions, Simplified characters and PRC terms
(tw_fin_eval.zhcheck) in 題目, 正確答案, APMIC 最終回覆, 訓練思維鏈 and 評分重點, blank 題號 / 科目 / APMIC 最終回覆
/ 訓練思維鏈, blank 評分重點 of short-answer and case items, 須修正 ticked without a comment.
"""

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

DATASET = "FinLLM450"
DEFAULT_OUT = DATA_DIR / "finllm450.jsonl"
DEFAULT_ISSUES = REPO_ROOT / "FinLLM450_資料問題清單.csv"
ISSUE_COLUMNS = ("序號", "欄位", "問題", "建議修正")
SOURCE_NAME = "FinLLM 450 評測訓練題"
SOURCE_LICENSE = "內部使用（APMIC × 銀行團），不對外發布"
TRANSLATION_NOTE = "原為繁體中文，未翻譯"
HEADER_SEARCH_ROWS = 15

ABILITIES = ("財富規劃與退休理財", "授信與財務分析", "法規判讀與合規", "金融知識查詢")
ABILITY_REMAP = {"銀行契約、擔保與支付法務": "法規判讀與合規", "國際貿易與金融": "金融知識查詢"}
TASK_TYPES = {
    "選擇題": "mcq", "單選題": "mcq", "複選題": "mcq", "選擇": "mcq",
    "短答題": "short_answer", "簡答題": "short_answer", "短答": "short_answer", "簡答": "short_answer",
    "案例題": "case_study", "案例分析題": "case_study", "案例": "case_study", "個案題": "case_study",
}
REVIEW_FIXED, REVIEW_COMMENTED, REVIEW_PLAIN = "bank_fixed", "bank_commented", "bank_reviewed"

# canonical name → (aliases, required)
HEADERS: dict[str, tuple[tuple[str, ...], bool]] = {
    "序號": (("序號", "流水號", "NO", "NO."), True),
    "題號": (("題號", "原題號", "題目編號", "題目代號"), True),
    "能力": (("能力", "能力類別", "能力別", "四大能力", "能力分類"), True),
    "科目": (("科目", "子類別", "科目/子類別", "專業科目", "科目別", "科目類別"), True),
    "題型": (("題型", "題目類型"), True),
    "題目": (("題目", "題目內容", "題幹", "問題"), True),
    "選項": (("選項", "選項內容"), False),
    "正確答案": (("正確答案", "標準答案", "答案", "參考答案"), True),
    "APMIC 最終回覆": (("APMIC最終回覆", "APMIC回覆", "最終回覆"), True),
    "訓練思維鏈": (("訓練思維鏈", "思維鏈", "COT"), True),
    "評分重點": (("評分重點", "評分要點"), False),
    "銀行團審題意見": (("銀行團審題意見", "審題意見", "銀行團意見"), True),
    "是否須修正": (("是否須修正", "須修正", "是否需修正", "需修正"), True),
}
ZH_CHECKED_FIELDS = ("題目", "正確答案", "APMIC 最終回覆", "訓練思維鏈", "評分重點")

_YES = {"是", "V", "Y", "YES", "TRUE", "1", "✓", "✔", "☑", "須修正", "需修正"}
_NO = {"", "否", "N", "NO", "FALSE", "0", "-", "無", "☐", "□", "不須修正", "無須修正"}


# ---- small text helpers ------------------------------------------------------------------------------------
def _header_keys(text: str) -> set[str]:
    t = re.sub(r"\s+", "", unicodedata.normalize("NFKC", str(text))).upper().strip(":*")
    no_note = re.sub(r"[(\[【〔《<][^)\]】〕》>]*[)\]】〕》>]", "", t).strip(":*")
    no_brackets = re.sub(r"[()\[\]【】〔〕《》<>「」『』]", "", t).strip(":*")
    return {k for k in (t, no_note, no_brackets) if k}


_ALIAS: dict[str, str] = {}
for _canon, (_aliases, _req) in HEADERS.items():
    for _a in _aliases:
        for _k in _header_keys(_a):
            _ALIAS.setdefault(_k, _canon)


def header_name(text: Any) -> str | None:
    """The canonical header a header cell names, or None.

    >>> header_name(" 題型（選擇題／短答題／案例題） "), header_name("【APMIC】最終回覆"), header_name("科目／子類別")
    ('題型', 'APMIC 最終回覆', '科目')
    """
    if text is None:
        return None
    for key in sorted(_header_keys(str(text)), key=len, reverse=True):
        if key in _ALIAS:
            return _ALIAS[key]
    return None


def cell_text(value: Any) -> str | None:
    """A cell as text: numbers without a spurious .0, Excel's _x000D_ and CRLF cleaned, blank → None."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).replace("_x000D_", "").replace("\r\n", "\n").replace("\r", "\n").strip()
    return text or None


def _norm_code_text(text: str) -> str:
    circled = str.maketrans({"①": "(1)", "②": "(2)", "③": "(3)", "④": "(4)", "⑤": "(5)"})
    return unicodedata.normalize("NFKC", text.translate(circled))


_BRACKET_MARK = re.compile(r"\(\s*([A-E]|[1-5])\s*\)")
_LINE_MARK = re.compile(r"(?m)^[ \t]*([A-E])[ \t]*[.、:)]")


def _chain(codes: list[str], first: str) -> list[str]:
    """The last run of codes in order first, first+1, … (each may be separated by other markers)."""
    best: list[str] = []
    current: list[str] = []
    for c in codes:
        if c == first:
            current = [c]
        elif current and ord(c) == ord(current[-1]) + 1:
            current.append(c)
        else:
            continue
        if len(current) >= 2 and current[0] == first:
            best = list(current)
    return best


def parse_options(text: str) -> tuple[list[str], str] | None:
    """(codes, option_format) of the options written in a question, or None.

    >>> parse_options("下列何者正確？(A)甲 (B)乙 (C)丙 (D)丁")
    (['A', 'B', 'C', 'D'], 'letter')
    >>> parse_options("依規定：(1)甲 (2)乙 (3)丙，何者正確？（A）僅(1) （B）(1)(2) （C）(2)(3) （D）(1)(2)(3)")
    (['A', 'B', 'C', 'D'], 'letter')
    >>> parse_options("下列何者正確？①甲 ②乙 ③丙 ④丁")
    (['1', '2', '3', '4'], 'number')
    """
    t = _norm_code_text(text)
    marks = sorted([(m.start(), m.group(1)) for m in _BRACKET_MARK.finditer(t)]
                   + [(m.start(), m.group(1)) for m in _LINE_MARK.finditer(t)])
    letters = _chain([c for _, c in marks if c.isalpha()], "A")
    if letters:
        return letters, "letter"
    numbers = _chain([c for _, c in marks if c.isdigit()], "1")
    if numbers:
        return numbers, "number"
    return None


_ANSWER_OK = re.compile(r"[\s()\[\],、;/&和及與]*(?:[A-E1-5][\s()\[\],、;/&和及與]*)+")


def parse_answer_codes(value: str) -> list[str] | None:
    """Option codes of an answer cell: 「B」, 「（2）」, 「A、C」, 「AC」, 「②」, 「答案：B」; None if it is not codes.

    >>> parse_answer_codes("Ａ、Ｃ"), parse_answer_codes("（2）"), parse_answer_codes("BD"), parse_answer_codes("答：B")
    (['A', 'C'], ['2'], ['B', 'D'], ['B'])
    >>> parse_answer_codes("甲"), parse_answer_codes("A、2")
    (None, None)
    """
    t = _norm_code_text(value).upper()
    t = re.sub(r"^\s*(?:正確)?答案?\s*[:為是]?\s*", "", t).rstrip("。. ")
    if not t or not _ANSWER_OK.fullmatch(t):
        return None
    codes = list(dict.fromkeys(re.findall(r"[A-E1-5]", t)))
    if any(c.isalpha() for c in codes) and any(c.isdigit() for c in codes):
        return None
    return codes


def _convert(code: str, to_format: str) -> str:
    if to_format == "number" and code.isalpha():
        return str(ord(code) - ord("A") + 1)
    if to_format == "letter" and code.isdigit():
        return chr(ord("A") + int(code) - 1)
    return code


_CUE = re.compile(r"(?:正確答案|最終答案|答案|正解|故選|應選|本題選|因此選|所以選|故答案|選擇)\s*(?:應該?是|應為|應選|是|為|:)?\s*")
_CODE = re.compile(r"\(?\s*([A-D1-4])\s*\)?(?![0-9A-Za-z.%])(?!\s*[年月日天個元萬億倍次股%])")
_CODE_SEP = re.compile(r"\s*(?:,|、|和|及|與|/)?\s*")


def _codes_at(text: str, pos: int) -> list[str]:
    codes: list[str] = []
    while True:
        m = _CODE.match(text, pos)
        if not m:
            break
        codes.append(m.group(1))
        sep = _CODE_SEP.match(text, m.end())
        if not sep or not _CODE.match(text, sep.end()):
            break
        pos = sep.end()
    run = re.match(r"\(?([A-D]{2,4})\)?(?![A-Za-z])", text[pos:]) if not codes else None
    return list(dict.fromkeys(run.group(1))) if run else list(dict.fromkeys(codes))


def reply_conclusion(reply: str | None) -> list[str]:
    """The option codes an APMIC reply concludes with ([] when it cannot be read).

    >>> reply_conclusion("依銀行法第 33 條……故選 (2)。"), reply_conclusion("分析如上。\\n答案：A、C")
    (['2'], ['A', 'C'])
    >>> reply_conclusion("此為選擇權交易，正確答案為 B，因為 A 不符規定。"), reply_conclusion("說明很長，沒有結論")
    (['B'], [])
    """
    if not reply:
        return []
    from tw_fin_eval.scoring import extract  # standard library only; imported late to keep startup light

    mode, found = extract.extract_choice(reply)
    if mode in (extract.STRICT, extract.BOXED) and found:
        return found
    text = _norm_code_text(extract.strip_think(reply)).upper()
    for m in reversed(list(_CUE.finditer(text))):
        codes = _codes_at(text, m.end())
        if codes:
            return codes
    return found if mode == extract.LAST_LINE else []


# ---- reading the workbook ----------------------------------------------------------------------------------
@dataclass
class Row:
    excel_row: int
    cells: dict[str, Any]  # canonical header → raw cell value


@dataclass
class Sheet:
    path: str
    title: str
    columns: dict[str, int]  # canonical header → 0-based column index
    header_row: int  # 1-based
    rows: list[Row]

    def where(self, row: int, header: str) -> str:
        from openpyxl.utils import get_column_letter

        return f"sheet {self.title!r} cell {get_column_letter(self.columns[header] + 1)}{row} ({header})"


def _grid(ws: Any) -> list[list[Any]]:
    grid = [list(r) for r in ws.iter_rows(values_only=True)]
    for rng in ws.merged_cells.ranges:
        value = grid[rng.min_row - 1][rng.min_col - 1]
        for r in range(rng.min_row - 1, min(rng.max_row, len(grid))):
            for c in range(rng.min_col - 1, min(rng.max_col, len(grid[r]))):
                grid[r][c] = value
    return grid


def _row_headers(grid: list[list[Any]], r: int) -> tuple[dict[str, int], dict[str, list[int]]]:
    """Headers named by row r (a two-level header reads 「APMIC」 + 「最終回覆」 across rows r-1 and r)."""
    found: dict[str, list[int]] = defaultdict(list)
    for c, value in enumerate(grid[r]):
        lower = cell_text(value)
        if lower is None:
            continue
        upper = cell_text(grid[r - 1][c]) if r > 0 and c < len(grid[r - 1]) else None
        name = (header_name(upper + lower) if upper and upper != lower else None) or header_name(lower)
        if name:
            found[name].append(c)
    return {k: v[0] for k, v in found.items()}, {k: v for k, v in found.items() if len(v) > 1}


def _missing(columns: dict[str, int]) -> list[str]:
    return [h for h, (_, req) in HEADERS.items() if req and h not in columns]


def _find_header(grid: list[list[Any]]) -> tuple[int, dict[str, int]] | tuple[None, dict[str, Any]]:
    best: dict[str, Any] = {"row": None, "columns": {}, "dups": {}}
    for r in range(min(HEADER_SEARCH_ROWS, len(grid))):
        columns, dups = _row_headers(grid, r)
        if not _missing(columns) and not dups:
            return r, columns
        if len(columns) > len(best["columns"]):
            best = {"row": r, "columns": columns, "dups": dups}
    return None, best


def _sheet_names_text(names: Sequence[str]) -> str:
    return "、".join(repr(n) for n in names)


def _norm_sheet(name: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", name))


def read_sheet(path: str | Path, sheet: str | None = None) -> Sheet:
    """Open the workbook, choose the sheet, locate the header, return the non-blank rows."""
    try:
        import openpyxl
    except ImportError:
        raise InputError("openpyxl is needed to read Excel: pip install openpyxl (or pip install -e '.[excel]')",
                         path=path) from None
    p = Path(path)
    if not p.is_file():
        raise InputError("workbook not found", path=p)
    try:
        wb = openpyxl.load_workbook(p, data_only=True)
    except Exception as exc:  # zipfile.BadZipFile, KeyError, InvalidFileException, …: all "not a workbook"
        raise InputError(f"cannot read the workbook ({type(exc).__name__}: {exc})", path=p) from None
    names = list(wb.sheetnames)
    if sheet is None and len(names) == 1:
        sheet = names[0]
    if sheet is not None:
        chosen = [n for n in names if _norm_sheet(n) == _norm_sheet(sheet)]
        if not chosen:
            raise InputError(f"no sheet named {sheet!r}; the workbook has {_sheet_names_text(names)}", path=p)
        candidates = chosen[:1]
    else:
        candidates = names
    located = []
    reports = []
    for name in candidates:
        grid = _grid(wb[name])
        r, info = _find_header(grid)
        if r is not None:
            located.append((name, grid, r, info))
        else:
            reports.append((name, info))
    if sheet is None and len(located) != 1:
        what = "no sheet has" if not located else "several sheets have"
        raise InputError(f"{what} the expected header row; choose one with --sheet (sheets: "
                         f"{_sheet_names_text(names)}; required headers: {'、'.join(_missing({}))})", path=p)
    if not located:
        name, info = reports[0]
        if info["dups"]:
            dup = "；".join(f"{h} in {len(cs)} columns" for h, cs in info["dups"].items())
            raise InputError(f"sheet {name!r}: header named more than once: {dup}", path=p)
        where = f" (best match: row {info['row'] + 1})" if info["row"] is not None else ""
        raise InputError(f"sheet {name!r}: missing headers {'、'.join(_missing(info['columns']))}{where} "
                         f"in the first {HEADER_SEARCH_ROWS} rows", path=p)
    name, grid, r, columns = located[0]
    rows = []
    for i in range(r + 1, len(grid)):
        cells = {h: (grid[i][c] if c < len(grid[i]) else None) for h, c in columns.items()}
        if all(cell_text(v) is None for v in cells.values()):
            continue  # blank or whitespace-only rows (trailing rows Excel keeps formatted)
        rows.append(Row(i + 1, cells))
    return Sheet(str(p), name, columns, r + 1, rows)


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
    from tw_fin_eval.zhcheck.rules import find_prc_terms, find_simplified

    out: list[Problem] = []
    terms = find_prc_terms(text)
    term_words = [m.group(1) for f in terms if (m := re.search(r"「(.+?)」", f.message))]
    for f in terms:
        m = re.match(r"中國用語「(.+?)」→ 臺灣用「(.+?)」", f.message)
        word, fix = (m.group(1), m.group(2)) if m else (f.message, "")
        out.append(Problem(serial, header, f"中國用語「{word}」（{f.text.strip()}）", f"改用「{fix}」" if fix else f.message,
                           "prc_term"))
    for f in find_simplified(text):
        m = re.match(r"簡體字「(.+?)」→ 改用繁體「(.+?)」", f.message)
        run, fix = (m.group(1), m.group(2)) if m else (f.message, "")
        if any(run in w for w in term_words):
            continue
        out.append(Problem(serial, header, f"簡體字「{run}」（{f.text.strip()}）", f"改為「{fix}」" if fix else f.message,
                           "simplified"))
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
            converted = [_convert(c, option_format) for c in codes]
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
            said_conv = sorted(dict.fromkeys(_convert(c, option_format) for c in said),
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
        records.append({
            "id": rid,
            "dataset": DATASET,
            "source": {"name": SOURCE_NAME, "paper": None, "orig_id": str(serial), "orig_qid": qid, "url": None,
                       "license": SOURCE_LICENSE},
            "category": ability,
            "subcategory": text["科目"],
            "task_type": task_type,
            "difficulty": None,
            "lang": "zh-TW",
            "question": question,
            "context": {"table": None, "evidence": [], "setting": None},
            "answer": answer,
            "answer_value": None,
            "answer_text": None,
            "program": None,
            "options": options,
            "option_format": option_format,
            "reference_answer": reference_answer,
            "reference": {"apmic_reply": text["APMIC 最終回覆"], "training_cot": text["訓練思維鏈"]},
            "scoring_points": text["評分重點"],
            "ability_original": ability_original,
            "messages": messages,
            "meta": {"translation": TRANSLATION_NOTE, "review_status": status, "version": DATA_VERSION,
                     "review_comment": comment},
        })

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
    order = {h: i for i, h in enumerate(HEADERS)}
    problems.sort(key=lambda p: (p.serial if p.serial is not None else -1, order.get(p.field, 99)))
    return Result(records, problems, stats)


def issues_csv(problems: Sequence[Problem]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(ISSUE_COLUMNS)
    for p in problems:
        w.writerow(p.row())
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

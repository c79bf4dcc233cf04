"""Reading the FinLLM 450 workbook: choose the sheet, find the header row by its contents (aliases,
two-level headers, merged cells), return the non-blank rows keyed by canonical header
(the accepted headers are listed in tw_fin_eval/sources/finllm450/__init__.py)."""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tw_fin_eval.errors import InputError, not_a_file

HEADER_SEARCH_ROWS = 15
EMPTY_RUN = 50  # this many blank rows in a row end the questions: what lies below is not read

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
    # cells in the header's columns left unread below a run of EMPTY_RUN blank rows: (first cell, how many,
    # first blank row), or None
    trailing: tuple[str, int, int] | None = None

    def where(self, row: int, header: str) -> str:
        from openpyxl.utils import get_column_letter

        return f"sheet {self.title!r} cell {get_column_letter(self.columns[header] + 1)}{row} ({header})"


Grid = dict[int, dict[int, Any]]  # 0-based row → 0-based column → value (only cells that hold a value)


def _cells(ws: Any) -> dict[tuple[int, int], Any]:
    """The cells that hold a value, keyed by 1-based (row, column).

    Never iterate the sheet's used range (`ws.iter_rows()`): a workbook with just A1 and XFD1048576 spans
    16,384 × 1,048,576 cells, and openpyxl creates every one it is asked for (measured: > 60 s, 4.9 GB).
    The worksheet keeps the cells present in the file in `_cells`; reading that is linear in the file."""
    stored = getattr(ws, "_cells", None)
    if stored is None:  # another openpyxl layout: fall back to the bounded public API
        return {(c.row, c.column): c.value for row in ws.iter_rows(max_row=min(ws.max_row, 100_000),
                                                                    max_col=min(ws.max_column, 256))
                for c in row if c.value is not None}
    return {key: cell.value for key, cell in stored.items() if cell.value is not None}


def _grid(cells: dict[tuple[int, int], Any], merged: Sequence[Any], rows: range, cols: Sequence[int]) -> Grid:
    """The values of `rows` × `cols` (0-based), merged cells read as if every cell of the range held the
    top-left value; merged ranges are clipped to the area, so a huge range costs no more than the area."""
    want = set(cols)
    grid: Grid = {r: {} for r in rows}
    for (r1, c1), value in cells.items():
        if r1 - 1 in grid and c1 - 1 in want:
            grid[r1 - 1][c1 - 1] = value
    for rng in merged:
        value = cells.get((rng.min_row, rng.min_col))
        if value is None:
            continue
        for r in range(max(rng.min_row - 1, rows.start), min(rng.max_row, rows.stop)):
            for c in cols:
                if rng.min_col - 1 <= c < rng.max_col:
                    grid[r][c] = value
    return grid


def _row_headers(grid: Grid, r: int) -> tuple[dict[str, int], dict[str, list[int]]]:
    """Headers named by row r (a two-level header reads 「APMIC」 + 「最終回覆」 across rows r-1 and r)."""
    found: dict[str, list[int]] = defaultdict(list)
    for c, value in sorted(grid[r].items()):
        lower = cell_text(value)
        if lower is None:
            continue
        upper = cell_text(grid[r - 1].get(c)) if r > 0 else None
        name = (header_name(upper + lower) if upper and upper != lower else None) or header_name(lower)
        if name:
            found[name].append(c)
    return {k: v[0] for k, v in found.items()}, {k: v for k, v in found.items() if len(v) > 1}


def _missing(columns: dict[str, int]) -> list[str]:
    return [h for h, (_, req) in HEADERS.items() if req and h not in columns]


def _find_header(grid: Grid) -> tuple[int, dict[str, int]] | tuple[None, dict[str, Any]]:
    best: dict[str, Any] = {"row": None, "columns": {}, "dups": {}}
    for r in sorted(grid):
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
        raise not_a_file(p, "workbook not found", "workbook")
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
        ws = wb[name]
        cells = _cells(ws)
        merged = list(ws.merged_cells.ranges)
        top = range(HEADER_SEARCH_ROWS)
        # a header cell holds its own text (a merged group label above it is filled in by _grid)
        header_cols = sorted({c - 1 for (r, c) in cells if r <= HEADER_SEARCH_ROWS})
        r, info = _find_header(_grid(cells, merged, top, header_cols))
        if r is not None:
            located.append((name, cells, merged, r, info))
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
    name, cells, merged, r, columns = located[0]
    # only the header's columns are read, down to the last row holding a value of its own in one of them
    cols = sorted(set(columns.values()))
    last = max((row for (row, c) in cells if c - 1 in columns.values()), default=r + 1)
    grid = _grid(cells, merged, range(r + 1, last), cols)
    rows: list[Row] = []
    blank_run = 0
    ignored: list[tuple[int, int]] = []
    for i in range(r + 1, last):
        values = {h: grid[i].get(c) for h, c in columns.items()}
        if all(cell_text(v) is None for v in values.values()):
            blank_run += 1  # blank or whitespace-only rows (trailing rows Excel keeps formatted)
            if blank_run >= EMPTY_RUN:
                ignored = sorted((row, c) for (row, c) in cells if row > i + 1 and c - 1 in columns.values())
                break
            continue
        blank_run = 0
        rows.append(Row(i + 1, values))
    trailing = None
    if ignored:
        from openpyxl.utils import get_column_letter

        row0, col0 = ignored[0]
        trailing = (f"{get_column_letter(col0)}{row0}", len(ignored), i + 2 - EMPTY_RUN)
    return Sheet(str(p), name, columns, r + 1, rows, trailing)

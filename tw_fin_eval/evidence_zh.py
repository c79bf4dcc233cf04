"""Render one row of a translated table as a zh-TW evidence sentence (FinQA/ConvFinQA table evidence).

The English template ("( in millions ) the 2015 net revenue of amount is $ 5829 ;") is rewritten the way a
Taiwan analyst writes a table row: the row label as the subject, year columns as 「2015 年」, the unit
(from the top-left header cell or a column header's bracket) once at the end, no nested brackets, and
FinQA's duplicated numbers (「27% ( 27 % )」, 「-32 ( 32 )」) written once. The sentence is built from the
*translated* table, so it always agrees with it; numbers are copied from the cells unchanged.

>>> table = [["（百萬美元）", "金額"], ["2015 年淨營收", "$ 5829"]]
>>> render_row(table, 1)
'2015 年淨營收為 $ 5829（單位：百萬美元）。'
>>> render_row([["", "2013", "2014"], ["預期波動率", "27% ( 27 % )", "-3 ( 3 )"]], 1)
'預期波動率：2013 年為 27%，2014 年為 -3。'
>>> render_row([["", "金額（百萬）"], ["2014 年淨營收", "$ 5735"]], 1)
'2014 年淨營收為 $ 5735（單位：百萬）。'
>>> render_row([["計畫類別", "剩餘數量（不含 ( a ) 欄）"], ["合計", "5156223"]], 1)
'計畫類別「合計」：剩餘數量（不含 a 欄）為 5156223。'
"""

from __future__ import annotations

import re

# words that make a bracket or a header cell a unit statement: （百萬美元）, （單位：千）, （每日千桶）
_UNIT_WORD_RE = re.compile(r"百萬|千|十億|億|萬|單位|美元|元|桶|平方英尺|英畝|噸|兆瓦|MW|百分比")
_FULL_BRACKET_RE = re.compile(r"（([^（）]*)）")
_HALF_BRACKET_RE = re.compile(r"\(\s*([^()]*?)\s*\)")
# a column header that names nothing beyond "the value" (金額（百萬）→ the unit is all it says)
_GENERIC_COLUMNS = frozenset({"", "金額", "數額", "數值", "價值"})
_YEAR_RE = re.compile(r"(?:19|20)\d\d")
_US_DATE = r"(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01])/(?:(?:19|20)?\d\d)"  # 12/31/2011, 12/31/11
_US_DATE_RE = re.compile(r"(0?[1-9]|1[0-2])/(0?[1-9]|[12]\d|3[01])/((?:19|20)?\d\d)")
# FinQA's OCR codes of a dash where the page printed one: 2014 (—), 2013 (–), 2212 (−)
_DASH_CODES = "2013|2014|2212"
_US_MONTH_RE = re.compile(r"(0?[1-9]|1[0-2])/(\d\d)")  # 12/16 in a header row of year-ends
# a label column header that only says "these are periods": dropped before a year label
_GENERIC_TIME_LEADS = frozenset({"年度", "年", "期間", "日期", "會計年度", "年份"})
# the lead of the label column that is about time: 「截至 12 月 31 日止年度」, 「年度」, 「期間」
_TIME_LEAD_RE = re.compile(r"[年月日]|期間|截至|季")
_PCT_DUP_RE = re.compile(r"(-?\d[\d,]*(?:\.\d+)?)\s*%\s*\(\s*-?\1\s*%\s*\)")
_NEG_DUP_RE = re.compile(r"-(\d[\d,]*(?:\.\d+)?)\s*\(\s*\1\s*\)")


def _split_unit(text: str) -> tuple[str, str]:
    """(text without its unit bracket, unit) — 「金額（百萬美元）」 → ("金額", "百萬美元")."""
    text = text.strip()
    for pattern in (_FULL_BRACKET_RE, _HALF_BRACKET_RE):
        for m in pattern.finditer(text):
            inner = m.group(1).strip()
            if inner and _UNIT_WORD_RE.search(inner) and not re.search(r"%\s*$", inner):
                rest = (text[:m.start()] + text[m.end():]).strip(" ，,：:")
                return rest, inner
    return text, ""


def _corner(text: str) -> tuple[str, str]:
    """The top-left header cell as (lead, unit): 「（百萬美元）」 → ("", "百萬美元"), 「百萬美元」 → ("",
    "百萬美元"), 「截至 12 月 31 日止年度（百萬美元）」 → ("截至 12 月 31 日止年度", "百萬美元")."""
    rest, unit = _split_unit(text)
    if not unit and _UNIT_WORD_RE.search(rest) and not _TIME_LEAD_RE.search(rest) and len(rest) <= 12:
        return "", rest  # 「百萬美元」, 「單位：百萬」 without brackets
    return rest.rstrip(":："), unit


def _date_label(text: str) -> str:
    """A year label reads 「2015 年」; a US date 「12/31/2011」 reads 「2011 年 12 月 31 日」."""
    text = text.strip().rstrip(":：")
    if _YEAR_RE.fullmatch(text):
        return f"{text} 年"
    if _US_DATE_RE.fullmatch(text):
        return _tw_date(text)
    m = _US_MONTH_RE.fullmatch(text)
    if m:
        return f"{_full_year(m.group(2))} 年 {int(m.group(1))} 月"
    if _US_DATE_IN_TEXT_RE.search(text):  # 「10/01/04 2013 10/31/04」, 「基期 12/31/05」
        text = _DATE_RANGE_RE.sub(lambda m: _tw_range(m.group(1), m.group(2)), text)
        text = _US_DATE_IN_TEXT_RE.sub(lambda m: _tw_date(m.group(0)), text)
    return _value(text)  # a label may carry FinQA's duplicate too: 「3.50% ( 3.50 % ) 票據」


_US_DATE_IN_TEXT_RE = re.compile(rf"(?<![\d/]){_US_DATE}(?![\d/])")
_DATE_RANGE_RE = re.compile(rf"(?<![\d/])({_US_DATE})\s*(?:{_DASH_CODES}|-|–|—|至|to)\s*({_US_DATE})")


def _tw_range(first: str, last: str) -> str:
    """「10/01/04 – 10/31/04」 → 「2004 年 10 月 1 日至 10 月 31 日」 (the year once when both share it)."""
    a, b = _tw_date(first), _tw_date(last)
    return f"{a}至{b[b.index('年') + 1:]}" if a[:4] == b[:4] and "年" in b else f"{a}至 {b}"


def _tw_date(us: str) -> str:
    m = _US_DATE_RE.fullmatch(us.strip())
    return f"{_full_year(m.group(3))} 年 {int(m.group(1))} 月 {int(m.group(2))} 日" if m else us


def _full_year(year: str) -> str:
    if len(year) == 4:
        return year
    return f"20{year}" if int(year) < 50 else f"19{year}"


def _is_time(label: str) -> bool:
    return bool(re.fullmatch(r"(?:19|20)\d\d 年(?: \d+ 月(?: \d+ 日)?)?", label))


def _is_word(name: str, value: str) -> str:
    """「名稱為 值」, with a space after a name ending in Latin text or a bracket: 「據點數 ( 1 ) 為 19」."""
    return f"{name}{' ' if re.search(r'[A-Za-z0-9)]$', name) else ''}為 {value}"


_DASH_CODE_RE = re.compile(rf"\(?\s*\$?\s*\(?\s*({_DASH_CODES})\s*\)?\s*\)?")  # a cell holding only a dash


_NEG_PCT_RE = re.compile(r"\(\s*(\d[\d,]*(?:\.\d+)?)\s*\)\s*%(?:\s*\(\s*%\s*\))?")  # 「( 41 ) % ( % )」 = −41%


def _value(cell: str, keep: frozenset[float] = frozenset()) -> str:
    """The cell's number written once: 「27% ( 27 % )」 → 「27%」, 「$ -32 ( 32 )」 → 「$ -32」; a dash code
    (「$ 2014」 for —) reads 「—」 unless a gold program computes with that number (`keep`): then it is one."""
    cell = cell.strip()
    m = _DASH_CODE_RE.fullmatch(cell)
    if m and float(m.group(1)) not in keep:
        return "—"
    cell = _PCT_DUP_RE.sub(r"\1%", cell)
    cell = _NEG_PCT_RE.sub(r"-\1%", cell)
    return _NEG_DUP_RE.sub(r"-\1", cell)


def _unit_suffix(unit: str) -> str:
    return f"（{unit}）" if "單位" in unit else f"（單位：{unit}）"


_YEARS_ONLY_RE = re.compile(r"(?:(?:19|20)\d\d[\s—–\-]*)+")  # 「2008 20142007」: years (and a dash code)
_YEAR_PAIR_RE = re.compile(rf"(?:.*?\s)?((?:19|20)\d\d)(?: ?年)?\s*(?:—|–|-|{_DASH_CODES})\s*((?:19|20)\d\d)(?: ?年)?")
_PLACEHOLDERS = frozenset({"無", "不適用", "n/a", "na", "nm", "—", "-", "–", "***", "*", "不適用者"})


def header_is_data(header: list[str]) -> bool:
    """FinQA tables without a header row use their first data row as one: 「$ 4066.4」 names no column
    (a cell of years only — 「2008 20142007」, OCR for 「2008—2007」 — is a header)."""
    cells = [c.strip() for c in header[1:]]
    return any(re.search(r"\d", c) and not re.search(r"[^\d\s$,.%()\-]", c) and not _YEARS_ONLY_RE.fullmatch(c)
               for c in cells)


def _year_pair(name: str) -> str | None:
    """A change column between two years — 「2008 20142007」 (OCR for 2008—2007), 「截至 12 月 31 日止年度
    2009—2008」 — reads 「2008 年較 2007 年」."""
    m = _YEAR_PAIR_RE.fullmatch(name.strip())
    if not m:
        return None
    first, second = m.group(1), m.group(2)
    # a later second year is a period (「2020 - 2024」 → 2020 年至 2024 年), an earlier one a comparison
    return f"{first} 年至 {second} 年" if second > first else f"{first} 年較 {second} 年"


# a cell that holds its own name and value: 「2006 年費用 $ 496」, 「2008 年 12 月 31 日負債 2014」 (a one-row table)
_NAME_AND_VALUE_RE = re.compile(r".*[^\W\d_].*?\s\(?-?\$?\s?-?\d[\d,]*(?:\.\d+)?(?:\s*\(\s*[\d,.]+\s*\))?\)?")


def _render_name_value_row(cells: list[str], keep: frozenset[float]) -> str:
    """A table of one row whose cells each say name and value (FinQA's header-only tables): each cell once —
    「員工離職：2005 年 12 月 31 日負債 $ 20963，2006 年費用 $ 496，…」, a trailing dash code read 「—」."""
    def cell(text: str) -> str:
        text = _value(text.strip(), keep)
        m = re.search(rf"\s({_DASH_CODES})$", text)
        return text[:m.start()] + " —" if m and float(m.group(1)) not in keep else text
    parts = [cell(c) for c in cells[1:] if c.strip()]
    return _flatten(f"{_date_label(cells[0])}：" + "，".join(parts)) + "。"


def _footnote_row(cells: list[str]) -> bool:
    return len(cells) > 1 and all(re.fullmatch(r"\s*(?:\(\s*[a-z]\s*\))?\s*", c) for c in cells) and \
        any(c.strip() for c in cells)


def _section_header(table: list[list[str]], row: int) -> list[str]:
    """The header a row is read under: the nearest section row above it (a label with word-only cells, as
    「2011: | 最高 | 最低」 halfway down a price table), else the table's first row."""
    for r in range(row - 1, 0, -1):
        cells = table[r]
        if len(cells) > 1 and cells[0].strip() and all(
                re.search(r"[^\W\d_]", c) and c.strip().lower() not in _PLACEHOLDERS and not re.search(r"\d", c)
                for c in cells[1:]):
            return cells
    return table[0] if table else []


_TIME_FIRST_RE = re.compile(r"((?:19|20)\d\d) ?年?\s*(\S.*)")
_TIME_LAST_RE = re.compile(r"(\S.*?)\s*((?:19|20)\d\d)(?: ?年)?")


def _time_and_rest(name: str) -> tuple[str, str] | None:
    """「2017 年營收總額」 or 「營收總額 2017」 → ("2017 年", "營收總額"); None when the name holds no year."""
    if _is_time(_date_label(name)):  # 「2015」, 「12/31/2011」: a date, nothing to split
        return None
    for pattern, t, r in ((_TIME_FIRST_RE, 1, 2), (_TIME_LAST_RE, 2, 1)):
        m = pattern.fullmatch(name)
        rest = m.group(r).strip() if m else ""
        # the rest must be a name: not 「年」, not a date's continuation (「1 月 1 日負債」), not a structured
        # header (「各年度合約義務：」), no second year
        if (rest and not rest.startswith("年") and not rest[0].isdigit() and not re.search(r"[：:]", rest)
                and not re.search(r"[—–\-、，,]$", rest) and not _YEAR_RE.search(rest)
                and re.search(r"[^\W\d_]", rest)):
            return f"{m.group(t)} 年", rest
    return None


def _factor_common_name(label: str, columns: list[tuple[str, str]]) -> tuple[str, list[tuple[str, str]]]:
    """Columns that all name the row's own quantity for different years (row 「營收總額」 under 「營收總額 2017」,
    「營收總額 2016」) say it once: 「營收總額：2017 年為 $ 10530，…」. Under another row label the columns keep
    their names (「歐亞策略事業單位：2017 年營收總額為 1590」): which of the two words leads is not ours to guess."""
    named = [name for name, _ in columns if name]
    split = [_time_and_rest(name) for name in named]
    if len(named) < 2 or any(p is None for p in split) or len({p[1] for p in split}) != 1:
        return label, columns
    common = split[0][1]
    if label and not label.endswith(common):
        return label, columns
    times = iter(p[0] for p in split)
    return label or common, [(next(times) if name else name, unit) for name, unit in columns]


def _is_value(cell: str) -> bool:
    return bool(re.fullmatch(r"[\s$\d,.\-()%]*\d[\s$\d,.\-()%]*", cell))


def _row_unit(cells: list[str]) -> str:
    """The unit when every cell of a row only states one (「（單位：千）」 under every year), else ""."""
    corners = [_corner(c) for c in cells]
    units = {u for _, u in corners}
    return units.pop() if cells and len(units) == 1 and all(not lead for lead, _ in corners) else ""


def _unit_row(table: list[list[str]]) -> str:
    return next((u for cells in table[1:] if (u := _row_unit(cells))), "")


def _render_unlabelled(table: list[list[str]], row: int, keep: frozenset[float]) -> str | None:
    """A table whose header is all years and whose rows carry no label (ETR: years, a unit row, the values):
    「2004 年為 $ 61592，2003 年為 $ 19064…（單位：千）。」"""
    header, cells = table[0], table[row]
    if len(header) != len(cells) or not cells or not all(_is_time(_date_label(h)) for h in header):
        return None
    if (unit := _row_unit(cells)):
        return f"各年度金額{_unit_suffix(unit)}。"
    if not all(_is_value(c) for c in cells if c.strip()):
        return None
    parts = [_is_word(_date_label(h), _value(c, keep)) for h, c in zip(header, cells) if c.strip()]
    unit = _unit_row(table)
    return "，".join(parts) + (_unit_suffix(unit) if unit else "") + "。"


def render_row(table: list[list[str]], row: int, keep: frozenset[float] = frozenset()) -> str:
    """The zh-TW sentence for row `row` of a translated table (see the module docstring). `keep`: numbers the
    gold programs compute with (a dash code among them is a value, not a dash)."""
    cells = table[row]
    if row > 0 and (unlabelled := _render_unlabelled(table, row, keep)) is not None:
        return unlabelled
    if row == 0 and len(cells) > 1 and all(_NAME_AND_VALUE_RE.fullmatch(c.strip()) for c in cells[1:] if c.strip()):
        return _render_name_value_row(cells, keep)
    header = _section_header(table, row) if row > 0 else (table[0] if table else [])
    if row > 1 and header is table[0] and _footnote_row(table[0]):
        header = table[1]  # row 0 only carries footnote letters ( a )…( d ): the names are in row 1
    label = (_year_pair(cells[0]) or _date_label(cells[0])) if cells else ""
    no_header = header_is_data(header) if header else True
    lead, corner_unit = ("", "") if no_header or not header else _corner(header[0])
    lead = _date_label(lead) if lead else ""
    if lead and _is_time(lead) and lead[:4] in label:
        lead = ""  # 「2012:」 over 「2012 年 1 月 1 日至 2012 年 3 月 31 日」 says nothing the label does not
    date_column = bool(lead) and bool(re.search(r"(?:日|日期)$", lead)) and not re.search(r"\d|截至", lead) and "日" in label \
        and _is_time(label)  # 「既得日」 over 2011 年 1 月 25 日: the label is a value of that column
    if lead in _GENERIC_TIME_LEADS:
        lead = ""  # 「年度」, 「期間」 over the label column say nothing the label does not
    columns: list[tuple[str, str]] = []  # (column name, unit)
    generic = ""  # the one generic column name (「金額」), said after a time label that is the whole subject
    for c in range(1, len(cells)):
        name, unit = ("", "") if no_header or c >= len(header) else _split_unit(header[c])
        if name in _GENERIC_COLUMNS:
            generic = name if len(cells) == 2 else ""
            name = ""
        elif (pair := _year_pair(name)) is not None:
            name = pair
        else:
            split = _time_and_rest(name)  # a flattened two-level header 「營收總額 2017」 reads 「2017 年營收總額」
            year_last = split is not None and not name.startswith(split[0][:4])
            name = _value(f"{split[0]}{split[1]}") if year_last else _date_label(name)
        columns.append((name, unit or corner_unit))
    label, columns = _factor_common_name(label, columns)
    if generic and _is_time(label) and not lead:
        label += generic  # 「2018 年金額為 $ 760000」, not 「2018 年為 …」
    units = {u for _, u in columns}
    shared_unit = units.pop() if len(units) == 1 else ""
    parts = []
    for (name, unit), cell in zip(columns, cells[1:]):
        value = _value(cell, keep)
        if not value:
            continue
        own = _unit_suffix(unit) if unit and not shared_unit else ""
        parts.append((name, value + own))
    named = [p for p in parts if p[0]]
    if len(parts) == 1 and parts[0][0] and label and (_is_time(parts[0][0]) or _is_time(label)):
        first, second = (parts[0][0], label) if _is_time(parts[0][0]) else (label, parts[0][0])
        body = _is_word(first + second, parts[0][1])   # 「2015 年淨營收為 $ 5829」
    elif not named:
        values = "、".join(v for _, v in parts)
        body = _is_word(label, values) if label else values
    else:
        listing = "，".join(_is_word(n, v) if n else v for n, v in parts)
        body = f"{label}：{listing}" if label else listing
    if lead and date_column and body.startswith(label):
        body = f"{lead}為 {label}之{body[len(label):].lstrip('：')}"  # 「既得日為 2011 年 1 月 25 日之限制型股票單位為 8000」
    elif lead:
        # the label column's header: a time lead opens the sentence, a category lead names the label
        body = f"{lead}，{body}" if _TIME_LEAD_RE.search(lead) or not label else f"{lead}「{label}」" + body[len(label):]
    return _flatten(body + (_unit_suffix(shared_unit) if shared_unit else "")) + "。"


def _flatten(text: str) -> str:
    """No bracket inside a bracket in prose: an inner 「( a )」 keeps its content (「（不含 a 欄所列證券）」),
    an inner 「（每股金額除外）」 becomes 「，每股金額除外」."""
    out: list[str] = []
    depth = 0
    for ch in text:
        if ch in "（(":
            depth += 1
            if depth >= 2:
                if ch == "（":
                    out.append("，")
                continue
        elif ch in "）)":
            depth = max(0, depth - 1)
            if depth >= 1:
                continue
        out.append(ch)
    return re.sub(r" {2,}", " ", "".join(out)).replace("， ", "，").replace(" ，", "，")

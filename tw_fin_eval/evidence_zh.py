"""Render one row of a translated table as a zh-TW evidence sentence (FinQA/ConvFinQA table evidence).

The English template ("( in millions ) the 2015 net revenue of amount is $ 5829 ;") is rewritten the way a
Taiwan analyst writes a table row: the row label as the subject, then its values in one clause, in the
table's order, each column's shared lead said once (「依期間劃分之應付款項 1 年以內 $ 38,480、1–3 年
$ 109,436」), a row over two to four period columns with its periods once and 「分別為」 (「年底餘額於 2010、
2009 及 2008 年分別為 $ 50.9、$ 55.2 及 $ 65.7」); years as 「2015 年」, a calendar fiscal year as 「2015 年度」, a change column as 「2009 年較
2008 年減少 6%」; the unit (from the top-left header cell or a column header's bracket) once at the end (a unit
in 美元 takes the amounts' 「$」 away: the currency is said once), no
nested brackets, FinQA's duplicated numbers (「27% ( 27 % )」, 「-32 ( 32 )」) and OCR debris (「% ( % )」)
written once or not at all. The sentence is read from the *translated* table as `display_table` prints
it (thousands separators, a dash code as 「—」), so it always agrees with the record's table; every figure of
the row's cells is kept.

>>> table = [["（百萬美元）", "金額"], ["2015 年淨營收", "$ 5829"]]
>>> render_row(table, 1)
'2015 年淨營收為 5,829（單位：百萬美元）。'
>>> render_row([["", "2013", "2014"], ["預期波動率", "27% ( 27 % )", "-3 ( 3 )"]], 1)
'預期波動率於 2013 及 2014 年分別為 27% 及 -3。'
>>> render_row([["", "金額（百萬）"], ["2014 年淨營收", "$ 5735"]], 1)
'2014 年淨營收為 5,735（單位：百萬美元）。'
>>> render_row([["計畫類別", "剩餘數量（不含 ( a ) 欄）"], ["合計", "5156223"]], 1)
'合計：剩餘數量（不含 a 欄）為 5,156,223。'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tw_fin_eval import dash_codes
from tw_fin_eval.dash_codes import DASH_CODE_RE as _DASH_CODE_RE
from tw_fin_eval.dash_codes import DASH_CODES as _DASH_CODES

_ALL_CODES = frozenset(float(code) for code in _DASH_CODES.split("|"))

# words that make a bracket or a header cell a unit statement: （百萬美元）, （單位：千）, （每日千桶）
_UNIT_WORD_RE = re.compile(r"百萬|千|十億|億|萬|單位|美元|元|桶|平方英尺|英畝|噸|兆瓦|MW|百分比")
_FULL_BRACKET_RE = re.compile(r"（([^（）]*)）")
_HALF_BRACKET_RE = re.compile(r"\(\s*([^()]*?)\s*\)")
# a column header that names nothing beyond "the value" (金額（百萬）→ the unit is all it says)
_GENERIC_COLUMNS = frozenset({"", "金額", "數額", "數值", "價值"})
_YEAR_RE = re.compile(r"(?:19|20)\d\d")
_US_DATE = r"(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01])/(?:(?:19|20)?\d\d)"  # 12/31/2011, 12/31/11
_US_DATE_RE = re.compile(r"(0?[1-9]|1[0-2])/(0?[1-9]|[12]\d|3[01])/((?:19|20)?\d\d)")
_US_MONTH_RE = re.compile(r"(0?[1-9]|1[0-2])/(\d\d)")  # 12/16 in a header row of year-ends
_AS_OF_MONTH_RE = re.compile(r"截至 ((?:19|20)\d\d) 年 (\d{1,2}) 月")  # "as of december 2014": a month-end
# a label column header that only says "these are periods": dropped before a year label
_GENERIC_TIME_LEADS = frozenset({"年度", "年", "期間", "日期", "會計年度", "年份", "季度", "季別", "月份"})
# a label column header that says which date or period the rows are (「季度截止日」, 「支付日期」, 「衡量時點」)
_DATE_KIND_LEAD_RE = re.compile(r"[^\d\s（）()]*(?:日|日期|時點|季度)(?:（註 ?\d+）)?")
# a time lead without a year that the year columns take in: 「12 月 31 日」, 「截至 9 月 30 日止年度」
_FOLDABLE_TIME_RE = re.compile(r"(?:截至 )?(\d{1,2} 月(?: \d{1,2} 日)?)(止(?:會計)?年度)?")
# the lead of the label column that is about time: 「截至 12 月 31 日止年度」, 「年度」, 「期間」
_TIME_LEAD_RE = re.compile(r"[年月日]|期間|截至|季")
# 「27% ( 27 % )」, 「71%/79% ( 71%/79 % )」: FinQA's second rendering of a percent
_PCT_DUP_RE = re.compile(r"(-?\d[\d,]*(?:\.\d+)?(?:%/-?\d[\d,]*(?:\.\d+)?)*)\s*%\s*\(\s*-?\1\s*%\s*\)")
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
    """A year label reads 「2015 年」; a US date 「12/31/2011」 reads 「2011 年 12 月 31 日」; "as of december 2014"
    (「截至 2014 年 12 月」) reads 「2014 年 12 月底」."""
    text = text.strip().rstrip(":：")
    if (mark := re.search(r"(?:（(?:[a-z]|註 \d{1,2})）)+$", text)) and mark.start():
        return _date_label(text[:mark.start()]) + mark.group(0)  # 「2016（註 1）」 → 「2016 年（註 1）」
    if _YEAR_RE.fullmatch(text):
        return f"{text} 年"
    if _US_DATE_RE.fullmatch(text):
        return _tw_date(text)
    m = _US_MONTH_RE.fullmatch(text)
    if m:
        return f"{_full_year(m.group(2))} 年 {int(m.group(1))} 月"
    if m := _AS_OF_MONTH_RE.fullmatch(text):
        return f"{m.group(1)} 年 {int(m.group(2))} 月底"  # a balance at a month's end, as a Taiwan report dates it
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


_MONTH_YEAR_RE = re.compile(r"(0?[1-9]|1[0-2])/((?:19|20)\d\d)")  # 「11/2004」: a maturity month


def _prose_date(value: str) -> str:
    """A date cell said in prose the Taiwan way: 「11/2004」 → 「2004 年 11 月」, 「11/23/2010」 → 「2010 年 11 月 23 日」."""
    if m := _MONTH_YEAR_RE.fullmatch(value.strip()):
        return f"{m.group(2)} 年 {int(m.group(1))} 月"
    return _tw_date(value)  # a value that is no US date comes back as it is


def _full_year(year: str) -> str:
    if len(year) == 4:
        return year
    return f"20{year}" if int(year) < 50 else f"19{year}"


def _is_time(label: str) -> bool:
    return bool(re.fullmatch(r"(?:19|20)\d\d 年(?: \d+ 月(?: \d+ 日|底)?)?", label))


def _is_word(name: str, value: str) -> str:
    """「名稱為 值」, with a space after a name ending in Latin text or a bracket (「據點數 ( 1 ) 為 19」) and
    none before a value in words (「產權為租賃」); a dash cell is said as nothing (`_nil`)."""
    if value == "—":
        return _nil(name)
    after = "" if re.match(r"[^\W\d_]", value) and not re.match(r"[A-Za-z]", value) else " "
    before = " " if re.search(r"[A-Za-z0-9).\]]$", name) else ""
    return f"{name}{before}為{after}{value}"


_NIL_NAME_MAX = 10  # word characters a name may have and still take 「無」 before it (「無未攤銷折價」)


def _nil(name: str) -> str:
    """A dash cell in prose, as a Taiwan analyst says it: 「無未攤銷折價」 for a thing, 「2016 年無」 for a period,
    「名稱：無」 for a long name, a total or a name that opens with its period — never 「未攤銷折價為 —」."""
    if re.search(r"(?:\d ?(?:年度?|月|日|季)(?:以上|以內|以後|以前|後|前)?|以後年度)$", name):
        return f"{name}無"
    if name in _BARE_TOTALS or _words(name) > _NIL_NAME_MAX or re.match(r"\d", name) or re.search(r"[（(]", name):
        return f"{name}：無"
    return f"無{name}"


_BARE_NAME_MAX = 8  # word characters a column name may have and still stand before its value without 「為」


def _needs_is(name: str, value: str) -> bool:
    """Would 「名稱 值」 run name and value together? A bare number after a date or a bracket (「12 月 6」,
    「( 3 ) 79」), a dash (「2011 年 —」), an amount after a footnote mark (「（註 1） $ 150」): then the entry
    says 「為」."""
    if value in _PLACEHOLDERS or value.startswith("—"):
        return True
    if re.search(r"（(?:註 ?)?[\da-z]{1,2}）$", name) and value.startswith("$"):
        return True  # 「2007 年 12 月 31 日（註 1）為 $ 150」, not 「（註 1） $ 150」
    return bool(re.search(r"[\dA-Za-z)\]）%年月日度季]$", name) and re.match(r"[-\d.+]", value)
                and not value.endswith("%"))


def _item(name: str, value: str, say_is: bool = False) -> str:
    """One entry of a row's listing: 「1 年以內 $ 38,480」, or 「2011 年為 —」 (`say_is`, see _needs_is)."""
    if not name:
        return value
    return _is_word(name, value) if say_is or _needs_is(name, value) else f"{name} {value}"


def _is_text(value: str) -> bool:
    """A cell in words (「租賃」, 「公司總部」), not an amount with a unit word (「19600 平方英尺」)."""
    return bool(re.search(r"[^\W\d_]", value)) and not re.search(r"\d", value)


_GROUP_RE = re.compile(r"(?<![\d.,A-Za-z])(-?)(\d{4,})(?=[.\s%)（）]|$)(?! ?[年月日])")  # not 「20ac1000」 (€ OCR)


def _grouped(values: list[str], digits: int | None = None) -> list[str]:
    """Amounts with thousands separators, as a Taiwan report prints them: 「$ 1725584」 → 「$ 1,725,584」.
    A row groups its four-digit amounts too when it has a larger one (「$ 2,140、$ 13,893」); a row of
    four-digit figures only (which may be years) is left as the table prints it. `digits`: the fewest
    digits grouped, whatever the row holds."""
    if digits is None:
        digits = 4 if any(len(m.group(2)) >= 5 for v in values for m in _GROUP_RE.finditer(v)) else 5
    def group(m: re.Match, value: str) -> str:
        figure = m.group(2)
        year = len(figure) == 4 and _YEAR_RE.fullmatch(figure) and "$" not in value \
            and not re.match(r"\.\d", value[m.end():])  # 「到期年度為 2018」, not 1934.1
        return m.group(1) + (figure if len(figure) < digits or year else f"{int(figure):,}")
    return [_GROUP_RE.sub(lambda m, v=v: group(m, v), v) for v in values]


# column names: FinQA's debris and English-order period headers, rewritten the way a Taiwan report heads a column
_FY_RE = re.compile(r"截至 ((?:19|20)\d\d) 年 12 月(?: 31 日)?止年度\s*")  # calendar fiscal year → 「2012 年度」
_CHANGE_BETWEEN_RE = re.compile(r"變動\s*((?:19|20)\d\d) 年對 ((?:19|20)\d\d) 年")
_PCT_DEBRIS_RE = re.compile(r"%\s*\(\s*%\s*\)")


def _column_name(name: str) -> str:
    """「截至 2012 年 12 月 31 日止年度」 → 「2012 年度」; 「% ( % ) 變動 2009 年對 2008 年」 → 「2009 年較
    2008 年變動」; 「截至 12 月 31 日止年度變動 $」 → 「變動金額」, 「% ( % )」 → 「變動百分比」."""
    text = re.sub(r"變動 %$", "變動百分比", name.strip())  # the record's header (`_header_cell`) said in prose
    percent = bool(_PCT_DEBRIS_RE.search(text))
    text = _PCT_DEBRIS_RE.sub(" ", text)
    text = _CHANGE_BETWEEN_RE.sub(r"\1 年較 \2 年變動", text)
    text = _FY_RE.sub(r"\1 年度", text)
    text = re.sub(r"((?:19|20)\d\d) 年度(第 \d 季)", r"\1 年\2", text)
    # a period column: 「截至 2013 年 9 月 28 日止三個月」 reads 「2013 年 9 月 28 日止三個月」
    text = re.sub(r"^截至 ((?:19|20)\d\d 年 \d+ 月(?: \d+ 日)?止)", r"\1", text)
    # 「截至 12 月 31 日止年度：2008 年較 2007 年變動」: the period is the table's; the comparison is the column
    text = re.sub(r"^截至 \d+ 月(?: \d+ 日)?止(?:會計)?年度[：:，,\s]*(?=.*(?:變動|較))", "", text)
    dollar = bool(re.search(r"(?:^|\s)\$(?:\s|$)", text))
    text = re.sub(r"(?:^|\s)\$(?=\s|$)", " ", text)
    text = re.sub(r"(\d) ?- ?(\d+ 年)", r"\1–\2", text)  # 「1-3 年」 → 「1–3 年」
    text = re.sub(r"\s{2,}", " ", text).strip(" ，,")
    if text in ("", "變動") and (percent or dollar):
        return ("變動百分比" if text else "百分比") if percent else "變動金額"
    return text


_DOLLAR_CHANGE_RE = re.compile(r"(?:^|\s)\$(?:\s|$)")


_OCR_YEAR_PAIR_RE = re.compile(r"((?:19|20)\d\d)\s+(?:2013|2014)((?:19|20)\d\d)")  # two years, the dash read as 2014


def change_pair_header(cell: str) -> str | None:
    """A header cell that is only FinQA's OCR of a change column between two years, the dash read as a dash code —
    「2008 20142007」 (the page's 2008—2007) — named as a Taiwan table heads it: 「2008 年較 2007 年變動」; else None.

    >>> change_pair_header("2008 20142007"), change_pair_header("2008 2007"), change_pair_header("2007 20142008")
    ('2008 年較 2007 年變動', None, None)
    """
    m = _OCR_YEAR_PAIR_RE.fullmatch(cell.strip())
    return f"{m.group(1)} 年較 {m.group(2)} 年變動" if m and m.group(1) > m.group(2) else None


def _header_cell(cell: str, previous: str) -> str:
    """A change column's header as a Taiwan table heads it, where FinQA's debris leaves no doubt (r31a class D):
    「截至 12 月 31 日止年度變動 $」 → 「變動金額」, 「% (  % )」 after a change column → 「變動 %」, 「% (  % ) 變動
    2009 年對 2008 年」 → 「2009 年較 2008 年變動 %」, 「…帳面價值之 % (  % )」 → 「…帳面價值之百分比」. A lone
    「% (  % )」 after anything else says too little to name: left as it is. `previous`: the header cell to
    the left, as printed."""
    if "變動" in previous and (named := change_pair_header(cell)) is not None:
        return named  # 「2008 20142007」 beside 「…2009 年較 2008 年變動」 (v36: convfinqa 0188)
    percent = bool(_PCT_DEBRIS_RE.search(cell))
    if not percent and not ("變動" in cell and _DOLLAR_CHANGE_RE.search(cell)):
        return cell
    name = _column_name(cell)
    if name == "變動金額" or name == "變動百分比":
        return "變動 %" if percent else name
    if name == "百分比":
        return "變動 %" if "變動" in previous else cell
    if percent and name.endswith("變動"):
        return f"{name} %"
    if percent and name.endswith(("之", "的")):
        return f"{name}百分比"
    return cell


def _change_item(name: str, value: str) -> str | None:
    """A change between two years said as a Taiwan analyst says it: 「2009 年較 2008 年變動」 with 「-41%」 →
    「2009 年較 2008 年減少 41%」, with 「5 點」 → 「2009 年較 2008 年增加 5 點」 (the magnitude as printed)."""
    m = re.fullmatch(r"(\$ ?)?(-?)(\d[\d,]*(?:\.\d+)?)(\s*(?:%|個百分點|點))?", value)
    if not re.search(r"較 (?:19|20)\d\d 年(?:變動(?:百分比|金額)?)?$", name) or not m or float(m.group(3).replace(",", "")) == 0:
        return None
    name = re.sub(r"變動(?:百分比|金額)?$", "", name)
    return f"{name}{'減少' if m.group(2) else '增加'} {m.group(1) or ''}{m.group(3)}{m.group(4) or ''}"


# where a name may be cut into a lead said once and the rest: after a space or punctuation, after a time
# phrase (「2008 年」, 「12 月 31 日」, 「2010 年度」); a lead of 4+ word characters may end anywhere
_TIME_END_RE = re.compile(r"\d\s*(?:年度?|月|日|季)(?:以內|以上|以後|後|前)?\s*$")
_TIME_CHARS = "年月日度季止至截"


def _words(text: str) -> int:
    return sum(1 for ch in text if re.match(r"[^\W\d_]", ch) and ch not in _TIME_CHARS)


def _cut_ok(head: str, tail: str, anywhere: bool) -> bool:
    """May 「head」+「tail」 be read as a lead and what follows it? (`anywhere`: the shared part is long
    enough to end inside a run of characters.)"""
    if not head.strip() or not tail.strip():
        return False
    if head[-1].isdigit() and tail[0].isdigit() or re.match(r"[A-Za-z]", head[-1]) and re.match(r"[A-Za-z]", tail[0]):
        return False  # never inside a number or a Latin word
    if re.search(r"\d\s*$", head) and re.match(r"\s*[^\W\d_%]|\s*%", tail) or re.search(r"[之的及與或和]$", head.strip()) \
            or re.match(r"\s*[之的度]", tail):
        return False  # nor between a number and its unit or word (「第 3」 等級), nor after a dangling 「之」
    if anywhere and _words(head) >= 2 and _words(tail) >= 2:
        return True  # inside a run of characters both sides must be words (「應收帳款」淨額, not 「買回股份總」數)
    return head[-1] in " ，：:—–/" or tail[0] == " " or bool(_TIME_END_RE.search(head))


def _common_lead(names: list[str]) -> int:
    """Length of the lead all `names` share (0: none) — 「依期間劃分之應付款項 1 年以內」, 「…合計」 → the lead
    「依期間劃分之應付款項」; 「2008 年平均」, 「2008 年最高」 → 「2008 年」; 「全球工業」, 「全球機構」 → none."""
    n = min(len(x) for x in names)
    lcp = 0
    while lcp < n and len({x[lcp] for x in names}) == 1:
        lcp += 1
    for cut in range(lcp, 0, -1):
        head = names[0][:cut]
        # a lead that is only a time (「2008 年」) leads names, not the rest of a date (「2011 年」 1 月 1 日)
        time_lead = re.search(r"\d\s*[年月日季度]\s*[，、：:]?\s*$", head) and \
            all(re.match(r"\s*[^\W\d_]", x[cut:]) for x in names)
        # a long lead may end inside a run of characters only where the names part (「應收帳款」淨額／總額)
        if (_words(head) >= 2 or time_lead) and all(_cut_ok(head, x[cut:], _words(head) >= 4 and cut == lcp) for x in names):
            return cut
    return 0


def _common_tail(names: list[str]) -> int:
    """Length of the tail all `names` share after a time phrase (「2010 年度應付款項」, 「2011 年度應付款項」 →
    「應付款項」), or a tail of 4+ word characters (「第一級公允價值」, 「第二級公允價值」 → 「公允價值」)."""
    n = min(len(x) for x in names)
    lcs = 0
    while lcs < n and len({x[-1 - lcs] for x in names}) == 1:
        lcs += 1
    for cut in range(lcs, 0, -1):
        tail = names[0][-cut:]
        heads = [x[:-cut] for x in names]
        if _words(tail) >= 2 and not re.match(r"\s*[\d止]", tail) and \
                all(_cut_ok(h, tail, _words(tail) >= 4 and cut == lcs) for h in heads):
            return cut
    return 0


def _listing(parts: list[tuple[str, str]]) -> str:
    """A row's named values in one run, each shared lead said once: columns that share a lead (or a tail)
    form a group whose first entry has the full name and the others only what differs —
    「依期間劃分之應付款項 1 年以內 $ 38,480、1–3 年 $ 109,436、合計 $ 2,200,900」. Groups are set off by
    「，」; a row with values in words is a list of 「名稱為值」 clauses."""
    if len(parts) == 1 or any(_is_text(v) for _, v in parts):  # one value is a sentence: 「…總數為 7,673,266」
        return "，".join(_is_word(n, v) if n else v for n, v in parts)
    names = [n for n, _ in parts]
    groups: list[list[tuple[str, str]]] = []
    i = 0
    while i < len(parts):
        best, best_kind, best_cut = i, "", 0
        for kind, common in (("lead", _common_lead), ("tail", _common_tail)):
            j = i + 1
            while j < len(parts) and names[j] and names[i] and (cut := common(names[i:j + 1])) and \
                    len(set(names[i:j + 1])) == j + 1 - i:  # a repeated name starts a new group (a second period)
                if j > best:
                    best, best_kind, best_cut = j, kind, cut
                j += 1
        entries = []
        for k in range(i, best + 1):
            name, value = parts[k]
            if k > i:  # the lead (or tail) said once, on the group's first entry
                name = name[best_cut:].strip() if best_kind == "lead" else name[:-best_cut].strip()
                name = f"{name} 年" if _YEAR_RE.fullmatch(name) else name  # 「…—2018」 after its lead: 「2018 年」
            entries.append((name, value))
        groups.append(entries)
        i = best + 1
    # one style in a row; a long name of its own (not a group's shared lead) runs into a bare value: 「…範圍
    # （平均數／中位數） $ 47」
    say_is = any(_needs_is(n, v) or len(entries) == 1 and _words(n) > _BARE_NAME_MAX
                 for entries in groups for n, v in entries)
    groups = [[_change_item(n, v) or _item(n, v, say_is) for n, v in entries] for entries in groups]
    runs: list[list[str]] = []  # lone entries next to each other share a run; a group is a run of its own
    for items in groups:
        if runs and len(items) == 1 and runs[-1][0] == "":
            runs[-1].append(items[0])
        else:
            runs.append([""] + items if len(items) == 1 else items)
    # names that hold 「、」 themselves (「選擇權、認股權證及權利」) are listed with 「，」, their groups with 「；」
    inner, outer = ("，", "；") if any("、" in n for n in names) else ("、", "，")
    return outer.join(inner.join(x for x in run if x) for run in runs)


# 「( 41 ) % ( % )」 = −41%, 「( 1.3 ) 個百分點」 = −1.3 個百分點
_NEG_PCT_RE = re.compile(r"\(\s*(\d[\d,]*(?:\.\d+)?)\s*\)\s*(%|個百分點|點)(?:\s*\(\s*%\s*\))?")


def _value(cell: str, keep: frozenset[float] = frozenset()) -> str:
    """The cell's number written once: 「27% ( 27 % )」 → 「27%」, 「$ -32 ( 32 )」 → 「$ -32」; a dash code
    (「$ 2014」 for —) reads 「—」 unless a gold program computes with that number (`keep`): then it is one."""
    cell = cell.strip()
    m = _DASH_CODE_RE.fullmatch(cell)
    if m and float(m.group(1)) not in keep:
        return "—"
    cell = range_dashes(_PCT_DUP_RE.sub(r"\1%", cell))
    cell = _NEG_PCT_RE.sub(lambda m: f"-{m.group(1)}{'%' if m.group(2) == '%' else ' ' + m.group(2)}", cell)
    return _NEG_DUP_RE.sub(r"-\1", cell)


# a dash code between two values of one kind in a data cell is the range's dash: 「0.26% 2013 0.36%」, 「$ 81.99 2013
# $ 85.05」, and glued to a percent, 「4.98% 20145.05%」 (4.98%–5.05%; no rate of 20,145% sits beside 4.98%)
_RANGE_CODE_RE = re.compile(r"(?P<a>(?P<da>\$\s*)?-?\d[\d,]*(?:\.\d+)?(?P<pa>\s*%)?)\s+(?:2013|2014)"
                            r"(?P<sp>\s*)(?P<b>(?P<db>\$\s*)?-?\d[\d,]*(?:\.\d+)?(?P<pb>\s*%)?)(?![\d.,])")


def range_dashes(cell: str) -> str:
    """FinQA's OCR of a range dash inside a cell written as a range: 「0.26% 2013 0.36%」 → 「0.26% 至 0.36%」,
    「$ 81.99 2013 $ 85.05」 → 「$ 81.99 至 $ 85.05」, 「4.98% 20145.05%」 → 「4.98% 至 5.05%」. Both ends must be
    percents or both dollar amounts (a plain 「12 2014 15」 may be a year between figures); a code glued to the
    second figure only for percents.

    >>> range_dashes("4.98% 20145.05%"), range_dashes("$ 61.27 2013 $ 63.48"), range_dashes("27.5% 201428.7%")
    ('4.98% 至 5.05%', '$ 61.27 至 $ 63.48', '27.5% 至 28.7%')
    >>> range_dashes("12 2014 15"), range_dashes("5% 2014 $ 3"), range_dashes("$ 5 2014"), range_dashes("2.0% 20145")
    ('12 2014 15', '5% 2014 $ 3', '$ 5 2014', '2.0% 20145')
    """
    def one(m: re.Match) -> str:
        pct, dollar = bool(m["pa"]) and bool(m["pb"]), bool(m["da"]) and bool(m["db"])
        same = (pct and not m["da"] and not m["db"]) or (dollar and not m["pa"] and not m["pb"])
        if not same or (not m["sp"] and not pct):
            return m.group(0)
        return f"{m['a']} 至 {m['b']}"

    return _RANGE_CODE_RE.sub(one, cell)


def _unit_suffix(unit: str) -> str:
    return f"（{unit}）" if "單位" in unit else f"（單位：{unit}）"


_EXCEPTED_RE = re.compile(r"^(?P<base>.+?)[，,]\s*(?P<kinds>[^，,]+?)除外$")
_RATE_LABEL_RE = re.compile(r"率|比例|百分比|%")
_BARE_SCALE_RE = re.compile(r"(?:單位：)?(?:千|百萬|十億)")
_SHARES_LABEL_RE = re.compile(r"^(?!.*每股).*(?:股數|股份數)")


def _exempt(kind: str, label: str, values: list[str]) -> bool | None:
    """Whether a row is of the kind a unit excepts (「每股金額」, 「比率」, 「股數」); None for a kind we do not know."""
    if "每股" in kind:
        return "每股" in label
    if re.search(r"比率|百分比|比例|利率", kind):
        return all(v.endswith("%") for v in values) or bool(_RATE_LABEL_RE.search(label))
    if "股" in kind:
        return "每股" not in label and bool(re.search(r"股數|股份|[^每]股$", label))
    return None


def row_unit(unit: str, label: str, values: list[str]) -> str:
    """The unit a row's sentence states: a unit's exceptions (「百萬美元，每股金額除外」) are the table's, a row
    states the one that is its own — an amount row 「百萬美元」, a per-share or a rate row none; a row of
    percentages states no amount unit; a bare scale (「百萬」) names shares in a share-count row and dollars in a
    row whose own figures carry 「$」. Exceptions we cannot read keep the whole unit."""
    if not unit or not values:
        return unit
    if m := _EXCEPTED_RE.match(unit.strip()):
        verdicts = [_exempt(k, label, values) for k in re.split(r"及|與|、|和", m["kinds"]) if k.strip()]
        if not verdicts or None in verdicts:
            return unit
        if any(verdicts):
            return ""
        unit = m["base"].strip()
    if all(v.endswith("%") for v in values) and "%" not in unit:
        return ""
    if _BARE_SCALE_RE.fullmatch(unit):
        if _SHARES_LABEL_RE.search(label):
            return unit + "股"  # 「普通股買回股數…（單位：百萬）」 counts shares: 百萬股
        if any(v.lstrip("-").startswith("$") for v in values):
            return unit + "美元"  # 「淨營收為 $ 2,045（單位：百萬）」: the row's own 「$」 names the currency
    return unit


_YEARS_ONLY_RE = re.compile(r"(?:(?:19|20)\d\d[\s—–\-]*)+")  # 「2008 20142007」: years (and a dash code)
_YEAR_PAIR_RE = re.compile(rf"(?:.*?\s)?((?:19|20)\d\d)(?: ?年)?\s*(?:—|–|-|{_DASH_CODES})\s*((?:19|20)\d\d)(?: ?年)?")
_PLACEHOLDERS = frozenset({"無", "不適用", "n/a", "na", "nm", "—", "-", "–", "***", "*", "不適用者"})


def header_is_data(header: list[str]) -> bool:
    """FinQA tables without a header row use their first data row as one: 「$ 4066.4」 names no column
    (a cell of years only — 「2008 20142007」, OCR for 「2008—2007」 — is a header)."""
    cells = [strip_marks(c) for c in header[1:]]  # 「2013 ( 1 )」 is a year with its note, no datum
    if "—" in cells:
        return True  # `display_table` printed a dash code of a data cell (「$ 2014」) as 「—」
    return any(re.search(r"\d", c) and not re.search(r"[^\d\s$,.%()\-]", c) and not _YEARS_ONLY_RE.fullmatch(c)
               for c in cells)


# a year (「20081」: FinQA glued note 1 to 2008), 「以後年度」, 「2018 年及以後年度」; a date 「2003 年 12 月 31 日」
_YEAR_CELL_RE = re.compile(r"(?:(?:19|20)\d\d\d?(?: ?年(?:度)?)?|(?:(?:19|20)\d\d ?年及)?以後年度)")
_DATE_CELL_RE = re.compile(r"(?:19|20)\d\d 年 \d{1,2} 月 \d{1,2} 日")


def prompt_header(table: list[list[str]] | None, table_unit: str | None = None) -> list[str] | None:
    """The header a table printed without one is shown under (its first row is data, `header_is_data`):
    「| 年度 | 金額 |」 over year rows (a maturity schedule: years, 「以後年度」, its total), 「| 日期 | 金額 |」 over
    dates, 「| 項目 | 金額 |」 over amounts (a 「$」 or a currency unit), else
    「| 項目 | 數值 |」; a wider table names its first column only. None when the table has its own header."""
    if not table or len(table) < 2 or len(table[0]) < 2 or not header_is_data(table[0]):
        return None
    width = max(len(row) for row in table)
    labels = [strip_marks(row[0]).strip() for row in table if row]
    body = labels[:-1] if len(labels) > 2 else labels  # a maturity schedule's last row is its total
    first = "年度" if all(_YEAR_CELL_RE.fullmatch(c) for c in body) else \
        "日期" if all(_DATE_CELL_RE.fullmatch(c) for c in body) else "項目"
    if width > 2:
        return [first] + [""] * (width - 1)
    amounts = any("$" in row[1] for row in table if len(row) > 1) or "元" in (table_unit or "")
    return [first, "金額" if amounts else "數值"]


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


def _name_value_cell(text: str, keep: frozenset[float]) -> str:
    """A cell that says name and value (「2008 年 12 月 31 日負債 2014」): the value once, a trailing dash code
    read 「—」, five-digit and longer amounts grouped, and four-digit ones after 「$」 (the name holds years)."""
    text = _value(text.strip(), keep)
    m = re.search(rf"\s({_DASH_CODES})$", text)
    text = text[:m.start()] + " —" if m and float(m.group(1)) not in keep else text
    # a four-digit figure after 「$」 is an amount, never one of the name's years (「其他 $ -1743」 → 「$ -1,743」)
    text = re.sub(r"(\$\s?-?)(\d{4})(?![\d,])", lambda d: f"{d.group(1)}{int(d.group(2)):,}", text)
    return _grouped([text], digits=5)[0]


def _render_name_value_row(cells: list[str], keep: frozenset[float]) -> str:
    """A table of one row whose cells each say name and value (FinQA's header-only tables): each cell once —
    「員工離職：2005 年 12 月 31 日負債 $ 20963，2006 年費用 $ 496，…」, a trailing dash code read 「—」."""
    parts = [_name_value_cell(c, keep) for c in cells[1:] if c.strip()]
    return _flatten(f"{_date_label(cells[0])}：" + "、".join(parts)) + "。"


def _footnote_row(cells: list[str]) -> bool:
    """A header row of column letters only (「（a）」 | 「（b）」 …, raw 「( a )」 too)."""
    return len(cells) > 1 and all(not strip_marks(c) for c in cells) and any(c.strip() for c in cells)


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
    if not all(_is_value(c) or c.strip() in _PLACEHOLDERS for c in cells if c.strip()):
        return None
    filled = [(h, c) for h, c in zip(header, cells) if c.strip()]
    parts = [(_date_label(h), _value(c, keep)) for h, c in filled]
    say_is = any(_needs_is(n, v) for n, v in parts)
    unit = row_unit(_unit_row(table), "", [v for _, v in parts])
    parts = [_item(n, v, say_is) for n, v in parts]
    return "、".join(parts) + (_unit_suffix(unit) if unit else "") + "。"


def _valueish(cell: str) -> bool:
    """A data cell: a number (with FinQA's duplicate or a footnote letter: 「135696 ( a )」), a dash or a
    placeholder."""
    cell = strip_marks(cell)
    return _is_value(cell) or cell.lower() in _PLACEHOLDERS


# a header cell that holds a column name and the first data row's value: 「最高 $ 17.84」, 「年限 -」
_MERGED_CELL_RE = re.compile(r"(.*?(?:[^\W\d_]|[）)]))\s+(\$?\s?\(?-?\$?\s?\d[\d,]*(?:\.\d+)?\s*\)?%?|[-—–])")


@dataclass(frozen=True)
class _MergedHeader:
    """A header row FinQA flattened into the first data row (「2002 年第一季 | 最高 $ 17.84 | 最低 $ 4.11 |
    2001 年第一季 | 最高 $ 60.15 | …」): the column names, that first data row, and the side-by-side blocks
    (label column, its value columns) — a second label column (「2001 年第一季」 over 「第二季」…) starts one."""

    names: list[str]
    first: list[str]
    blocks: list[tuple[int, list[int]]]


def merged_header(table: list[list[str]]) -> _MergedHeader | None:
    """The header row read as names plus a data row, or None when it is a plain header (or data only).
    Two or more 「name value」 cells are needed, or one whose value is plainly an amount (「$ 14.97」):
    a lone 「標普 500」 is a name."""
    if len(table) < 2 or len(table[0]) < 2:
        return None
    head = table[0]
    if _corner(head[0])[1]:
        return None  # a corner that states a unit (「（百萬美元）」) heads a real header row
    names, first, blocks = [""], [head[0].strip()], [(0, [])]
    merged = strong = 0
    for c in range(1, len(head)):
        cell = head[c].strip()
        below = [r[c].strip() for r in table[1:] if c < len(r) and r[c].strip()]
        m = _MERGED_CELL_RE.fullmatch(cell)
        # 「應付款項合計 ( 1 )」 is a footnote, 「百慕達子公司 2008」 a year: names, not a value
        footnote = m and (re.fullmatch(r"\(\s*\d{1,2}\s*\)", m.group(2)) or _YEAR_RE.fullmatch(m.group(2)))
        if m and not footnote and len(re.findall(r"[^\W\d_]", m.group(1))) >= 2 and below and all(_valueish(x) for x in below):
            names.append(m.group(1).strip())
            first.append(m.group(2))
            blocks[-1][1].append(c)
            merged += 1
            strong += "$" in m.group(2) or "." in m.group(2)
        elif cell and not _valueish(cell) and (texts := [x for x in below if x.lower() not in _PLACEHOLDERS]) \
                and not any(_valueish(x) for x in texts):
            names.append("")  # a second label column: the next block's row labels
            first.append(cell)
            blocks.append((c, []))
        elif not cell:
            names.append("")
            first.append("")
            blocks[-1][1].append(c)
        else:
            return None
    return _MergedHeader(names, first, blocks) if merged >= 2 or strong else None


_PERIOD = r"第[一二三四1-4]季|上半年|下半年|[一二三四五六七八九十]{1,2}月"


def _inherit_year(head_label: str, label: str) -> str:
    """A block's later rows name only the period; its first row carries the year heading: 「2002 年第一季」
    over 「第二季」 → 「2002 年第二季」."""
    m = re.fullmatch(rf"((?:19|20)\d\d) ?年\s*(?:{_PERIOD})", head_label.strip())
    return f"{m.group(1)} 年{label}" if m and re.fullmatch(_PERIOD, label.strip()) else label


def _render_merged(table: list[list[str]], row: int, merged: _MergedHeader, keep: frozenset[float]) -> str:
    """Each side-by-side block as its own clause under its column names, the shared unit said once:
    「2002 年第二季：最高 9.17、最低 3.55；2001 年第二季：最高 52.25、最低 39.95。」"""
    cells = merged.first if row == 0 else table[row]
    clauses = []
    for label_col, columns in merged.blocks:
        label = cells[label_col].strip() if label_col < len(cells) else ""
        label = _inherit_year(merged.first[label_col], label) if row > 0 else label
        values = [cells[c] if c < len(cells) else "" for c in columns]
        if all(v.strip().lower() in _PLACEHOLDERS | {""} for v in [label, *values]):
            continue  # an empty block (the shorter list of two ends first)
        sub = [[""] + [merged.names[c] for c in columns], [label] + values]
        clauses.append(render_row(sub, 1, keep).removesuffix("。"))
    units = {m.group(0) for c in clauses if (m := re.search(r"（單位：[^（）]*）$", c))}
    if len(units) == 1 and all(c.endswith(next(iter(units))) for c in clauses):
        unit = units.pop()
        clauses = [c.removesuffix(unit) for c in clauses[:-1]] + clauses[-1:]
    return "；".join(clauses) + "。"


# the quantity a table of years lists, named by its total row: 「未來最低租賃給付總額」 → 「未來最低租賃給付」
_TOTAL_ROW_RE = re.compile(r"(?:合計|總計)?\s*(\D+?)\s*(?:總額|合計|總計|總數)")
_LATER_YEARS_RE = re.compile(r"(?:(?:19|20)\d\d 年及)?以後年度|其後年度")


def _subject(table: list[list[str]], label: str) -> str:
    """What a row of one unnamed amount is, said after its time label: the table's total (「2015 年未來最低
    租賃給付為 8,985」), else 「餘額」 at a date and 「金額」 for a period."""
    for cells in table:
        m = _TOTAL_ROW_RE.fullmatch(cells[0].strip()) if cells else None
        if m and _words(m.group(1)) >= 2 and not re.search(r"[：:，,（(]", m.group(1)):
            return m.group(1)
    return "餘額" if re.search(r"\d 日$", label) else "金額"


def _time_like(label: str) -> bool:
    return _is_time(label) or bool(_LATER_YEARS_RE.fullmatch(label) or re.fullmatch(r"(?:19|20)\d\d 年度", label))


# a row label whose value may be a year: it names a date field (「到期年度」, 「發行日期」, 「年份」), not a period
# (「2019 年度」) nor a thing that merely mentions dates (「2016 年至 2036 年到期之票據」: its 1941 is $ 1,941 million)
_YEAR_LABEL_RE = re.compile(r"^(?!\s*(?:19|20)\d\d)[^\d]*?(?:年度|年份|日期|到期日?|年)$")


# footnote marks (glossary §1.19): FinQA prints a note reference half-width and space-padded (「購買義務 ( a )」,
# 「買回股份總數 ( 1 )」, 「18322320 ( 1 )」); a Taiwan table writes it full-width against the word, a letter as
# 「（a）」 and a number as 「（註 1）」 — a bare 「( 1 )」 reads as minus one. A letter is a mark anywhere; a
# number only after a word, a bracket, a 「%」 or 「.」 (「Visa Inc. ( 1 )」), or after a figure in a data cell
# (「30,000 ( 1 )」; never 「-34 ( 34 )」, FinQA's duplicate, which `_value` writes once first).
_COLUMN_REF_RE = re.compile(r"\s*(?:\(\s*|（)([a-z])(?:\s*\)|）)\s*欄")
_LETTER_MARK_RE = re.compile(r"\s*\(\s*([a-z])\s*\)")
_WORD_NOTE_RE = re.compile(r"(?<=[^\W\d_]|[）).%])\s*\(\s*(\d{1,2})\s*\)")
_FIGURE_NOTE_RE = re.compile(r"(?<=\d)\s+\(\s*(\d{1,2})\s*\)(?=\s*(?:（|$))")
# a cell that is only marks, as printed: 「（a）」, 「（註 10）」, 「（a）（b）」
MARK_ONLY_RE = re.compile(r"(?:（(?:[a-z]|註 \d{1,2})）)+")
_MARK_RE = re.compile(r"（(?:[a-z]|註 \d{1,2})）")


def footnote_marks(text: str, figures: bool = False) -> str:
    """`text` with FinQA's footnote marks written as a Taiwan table writes them: 「購買義務 ( a )」 →
    「購買義務（a）」, 「買回股份總數 ( 1 ) ( 2 )」 → 「買回股份總數（註 1）（註 2）」; `figures` (a data cell):
    a number after a figure is a note too (「18322320 ( 1 )」 → 「18322320（註 1）」). A bracketed number on its
    own (「( 14 )」, a negative) is left alone. Idempotent.

    >>> footnote_marks("購買義務 ( a )"), footnote_marks("( 14 )"), footnote_marks("30,000 ( 1 )", figures=True)
    ('購買義務（a）', '( 14 )', '30,000（註 1）')
    >>> footnote_marks("可發行證券數量（不含 ( a ) 欄所列證券）( c )")
    '可發行證券數量（不含 a 欄所列證券）（c）'

    """
    text = _COLUMN_REF_RE.sub(r" \1 欄", text)  # 「不含 ( a ) 欄所列證券」: a column named by its letter
    text = _LETTER_MARK_RE.sub(lambda m: f"（{m.group(1)}）", text)
    text = _WORD_NOTE_RE.sub(lambda m: f"（註 {m.group(1)}）", text)
    if figures:
        text = _FIGURE_NOTE_RE.sub(lambda m: f"（註 {m.group(1)}）", text)
    return text


# a label or header FinQA glued its footnote number to (「securities borrowed2」, 「total1」)
_EN_GLUED_NOTE_RE = re.compile(r".*[a-z)](\d{1,2})")
_ZH_TRAILING_NOTE_RE = re.compile(r"(.*[^\W\d_A-Za-z）)])\s*(\d{1,2})")


def glued_notes(zh_table: list[list[str]], en_table: list[list[str]] | None) -> list[list[str]]:
    """`zh_table` with the footnote numbers the English glued to a label or header word (「securities
    borrowed2」) and the translation left bare after the words (「借入證券 2」, 「總資產1」) written 「（註 2）」 —
    r31a class C, in f31's style. Only where the English cell ends in a word glued to that same number (「tier
    1」, 「level 2」 are names; 「CET1」 keeps its Latin); data cells are never touched. Idempotent."""
    out = [list(row) for row in zh_table]
    for r, row in enumerate(out):
        for c, cell in enumerate(row):
            if r > 0 and c > 0 or not en_table or r >= len(en_table) or c >= len(en_table[r]):
                continue
            en = _EN_GLUED_NOTE_RE.fullmatch(en_table[r][c].strip())
            zh = _ZH_TRAILING_NOTE_RE.fullmatch(cell.strip())
            if en and zh and en.group(1) == zh.group(2):
                row[c] = f"{zh.group(1).rstrip()}（註 {zh.group(2)}）"
    return out


def strip_marks(text: str) -> str:
    """`text` without its footnote marks, raw or printed (what a cell says about its value or name)."""
    return _MARK_RE.sub("", footnote_marks(text, figures=True)).strip()


def _note_column(table: list[list[str]], c: int, first: int) -> bool:
    """A column of footnote references FinQA printed as negatives (「-2 ( 2 )」, 「-3 ( 3 )」 … down an ownership
    table: the page's 「(2)」「(3)」): every filled data cell 「-n ( n )」 or 「( n )」, at least three, numbered
    consecutively. Amounts never count up by one row after row."""
    numbers = []
    for row in table[first:]:
        cell = row[c].strip() if c < len(row) else ""
        if not cell:
            continue
        m = re.fullmatch(r"-(\d{1,2}) \( \1 \)|\(\s*(\d{1,2})\s*\)|（註 (\d{1,2})）", cell)
        if not m:
            return False
        numbers.append(int(next(g for g in m.groups() if g)))
    return len(numbers) >= 3 and all(b == a + 1 for a, b in zip(numbers, numbers[1:]))


def _note(cell: str) -> str:
    """A cell of a note column (`_note_column`) as its mark: 「-10 ( 10 )」 → 「（註 10）」."""
    number = re.search(r"\d+", cell)
    return f"（註 {number.group(0)}）" if number else cell


def _dedupe(text: str) -> str:
    """FinQA's duplicated renderings written once, nothing else touched (header and label cells)."""
    return _NEG_DUP_RE.sub(r"-\1", _PCT_DUP_RE.sub(r"\1%", text))


_FOOTNOTE_MARK_RE = re.compile(r"\s*-(\d{1,2})\s*\(\s*\1\s*\)\s*")


def _footnote_columns(table: list[list[str]]) -> list[list[str]]:
    """A column of FinQA's footnote marks — the page's 「(2)」, 「(3)」 … beside each name, read by FinQA as negatives
    「-2 ( 2 )」, 「-3 ( 3 )」 — says 「（註 2）」: three or more cells, every one a mark, numbered one after another."""
    width = max((len(r) for r in table), default=0)
    out = [list(r) for r in table]
    for c in range(1, width):
        cells = [(r, row[c]) for r, row in enumerate(table) if c < len(row) and row[c].strip()]
        marks = [_FOOTNOTE_MARK_RE.fullmatch(cell) for _, cell in cells]
        if len(cells) < 3 or not all(marks):
            continue
        numbers = [int(m.group(1)) for m in marks]
        if all(b == a + 1 for a, b in zip(numbers, numbers[1:])):
            for (r, _), n in zip(cells, numbers):
                out[r][c] = f"（註 {n}）"
    return out


_YEAR_RANGE_CODE_RE = re.compile(r"(?<![\d.,])((?:19|20)\d\d)\s+(?:2013|2014)\s+((?:19|20)\d\d)(?![\d.,])")


def year_range_label(cell: str) -> str:
    """A label or header naming a span of years whose dash FinQA's OCR read as 2013/2014 (「2016 2014 2020」,
    「年度 2012 2013 2016」) prints the span: 「2016–2020」 — only when the years ascend around the code.

    >>> year_range_label("2016 2014 2020"), year_range_label("年度 2012 2013 2016"), year_range_label("2018 2014 2016")
    ('2016–2020', '年度 2012–2016', '2018 2014 2016')
    """
    return _YEAR_RANGE_CODE_RE.sub(lambda m: f"{m.group(1)}–{m.group(2)}" if int(m.group(1)) < int(m.group(2))
                                   else m.group(0), cell)


def display_table(table: list[list[str]], keep: frozenset[float] = frozenset(),
                  keep_rows: frozenset[int] | None = None, stated: frozenset[float] = frozenset()) -> list[list[str]]:
    """The translated table as a Taiwan table prints it (the record's table; the evidence sentences are read
    from it, so both print every figure alike): FinQA's duplicates written once (「-34 ( 34 )」 → 「-34」,
    「6.5% ( 6.5 % )」 → 「6.5%」), a dash code in a data cell (「2014」 for —) as 「—」 unless the table reads it
    as a number (`dash_codes.number_cells`: a year in a column of years, a value its totals need, one it
    cannot tell; `stated`: the numbers of the page's text, which may state a total) or a gold program
    computes with it (`keep`; with `keep_rows`, only in those rows — the gold's evidence rows), and every
    amount of four or more digits with thousands separators (「1,725,584」). A year stays a year: a column
    whose figures are all years (19xx/20xx, no $), or a year-looking figure in a row about dates (「到期年度」). Header and label cells only lose duplicates.
    Every numeral's value is kept; the function is idempotent."""
    if not table:
        return []
    if len(table) == 1:  # a header-only table: each cell says name and value
        return [[footnote_marks(_dedupe(table[0][0]), figures=True)]
                + [footnote_marks(_name_value_cell(c, keep), figures=True) if c.strip() else c for c in table[0][1:]]]
    table = _footnote_columns(table)
    merged = merged_header(table) is not None
    first = 0 if merged or header_is_data(table[0]) else 1  # the first data row
    # a header of years only heads value columns from the first (ETR's tables have no label column)
    lead = 0 if first and table[0][0].strip() and all(_is_time(_date_label(h)) for h in table[0] if h.strip()) else 1
    numbers = dash_codes.number_cells(table, first, lead, stated)  # codes the table (or its page) reads as numbers

    def kept(r: int, k: int) -> frozenset[float]:
        return _ALL_CODES if (r, k) in numbers else keep if keep_rows is None or r in keep_rows else frozenset()

    notes = {c for c in range(1, max(len(r) for r in table)) if _note_column(table, c, first)}
    out = [[year_range_label(footnote_marks(_dedupe(c), figures=True)) for c in row] for row in table[:first]]
    for row in out:  # the header's change columns named (a cell to the right reads the one to its left as printed)
        for k in range(lead, len(row)):
            row[k] = _header_cell(row[k], row[k - 1] if k else "")
    out += [[year_range_label(footnote_marks(_dedupe(c), figures=True)) if k < lead else _note(c) if k in notes else
             footnote_marks(_value(c, kept(r, k)), figures=True)
             if c.strip() else c for k, c in enumerate(row)]
            for r, row in enumerate(table[first:], first)]
    width = max(len(r) for r in out)
    # the header repeated inside the table (「9 月 30 日 | 2016 | 2015」 above a second block, v40: convfinqa 0204): its
    # figures are the header's years, not 2,016 — only a row that repeats the header's year cells exactly
    head = [cell.strip() for cell in out[0][lead:]] if first else []
    year_rows = {r for r, row in enumerate(out) if r >= first and head and any(_YEAR_RE.fullmatch(h) for h in head)
                 and [cell.strip() for cell in row[lead:]] == head}
    for c in range(lead, width):
        data = [(r, row[c]) for r, row in enumerate(out) if r >= first and c < len(row)]
        figures = [(r, m) for r, cell in data for m in _GROUP_RE.finditer(cell)]
        years_only = all(_YEAR_RE.fullmatch(m.group(2)) and "$" not in out[r][c] for r, m in figures)
        for r, cell in data:
            label = out[r][0] if out[r] else ""
            out[r][c] = _GROUP_RE.sub(lambda m, x=cell, lab=label, y=years_only or r in year_rows:
                                      _group_figure(m, x, lab, y), cell)
    return out


def _group_figure(m: re.Match, cell: str, label: str, years_only: bool) -> str:
    figure = m.group(2)
    year = _YEAR_RE.fullmatch(figure) and "$" not in cell and (years_only or _YEAR_LABEL_RE.search(label))
    return m.group(1) + (figure if year else f"{int(figure):,}")


_UNIT_END_RE = re.compile(r"（(?:金額)?單位：[^（）]*美元[^（）]*）。$")


_DOLLAR_SIGN_RE = re.compile(r"\$\s*(?=[-\d.(])")  # 「$ 2,045」, 「$ -799」: the sign before an amount


def _currency_once(sentence: str) -> str:
    """A sentence that ends with its unit in 美元 prints its amounts without 「$」 (「2004 年 61,592…（單位：千美元）」)."""
    return _DOLLAR_SIGN_RE.sub("", sentence) if _UNIT_END_RE.search(sentence) else sentence
_FISCAL_PERIOD_RE = re.compile(r"(?:19|20)\d\d 年 \d{1,2} 月(?: \d{1,2} 日)?止(?:會計)?年度")  # a label `_fold_lead` dated
_YEAR_OVER_QUARTER_RE = re.compile(r"(?:19|20)\d\d ?(?:會計)?年度?")


def render_row(table: list[list[str]], row: int, keep: frozenset[float] = frozenset()) -> str:
    """The zh-TW sentence for row `row` of a translated table (see the module docstring). `keep`: numbers the
    gold programs compute with (a dash code among them is a value, not a dash). The row is read from
    `display_table`, so the sentence prints each figure as the record's table does."""
    table = display_table(table, keep)
    keep = keep | _ALL_CODES  # the dashes are 「—」 now: a dash code left in the table is a number
    cells = table[row]
    if (merged := merged_header(table)) is not None:
        return _currency_once(_render_merged(table, row, merged, keep))
    if row > 0 and (unlabelled := _render_unlabelled(table, row, keep)) is not None:
        return _currency_once(unlabelled)
    if row == 0 and len(cells) > 1 and not (len(table) > 1 and header_is_data(cells)):
        # the header row itself (a table of one row): each cell once; a first row of data is a row like the others
        return _render_name_value_row(cells, keep)
    header = _section_header(table, row) if row > 0 else (table[0] if table else [])
    if row > 1 and header is table[0] and _footnote_row(table[0]):
        header = table[1]  # row 0 only carries footnote letters ( a )…( d ): the names are in row 1
    label = (_year_pair(cells[0]) or _date_label(cells[0])) if cells else ""
    if row > 0 and any(MARK_ONLY_RE.fullmatch(c.strip()) for c in cells[1:]):
        # a cell that only refers to a note (an ownership table's 「（註 10）」 column) marks the row's label
        label += "".join(c.strip() for c in cells[1:] if MARK_ONLY_RE.fullmatch(c.strip()))
        cells = [cells[0]] + ["" if MARK_ONLY_RE.fullmatch(c.strip()) else c for c in cells[1:]]
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
    for c in range(1, len(cells)):
        name, unit = ("", "") if no_header or c >= len(header) else _split_unit(header[c])
        name = _column_name(name)
        if name == "百分比" and columns and "變動" in columns[-1][0]:
            name = "變動百分比"  # 「% ( % )」 after a change column is the change in percent
        if name in _GENERIC_COLUMNS:
            name = ""
        elif (pair := _year_pair(name)) is not None:
            name = pair
        else:
            split = _time_and_rest(name)  # a flattened two-level header 「營收總額 2017」 reads 「2017 年營收總額」
            year_last = split is not None and not name.startswith(split[0][:4])
            name = _value(f"{split[0]}{split[1]}") if year_last else _date_label(name)
        columns.append((name, unit or corner_unit))
    # a name every column shares goes to the label first, so the period left in each column can take the lead
    label, columns = _factor_common_name(label, columns)
    lead, label, columns = _fold_lead(lead, label, columns, date_column)
    if _time_like(label) and not lead and len(cells) == 2 and not any(name for name, _ in columns):
        # one amount under no column name (「金額」, a unit only, no header at all): a time is no subject
        label += _subject(table, label)  # 「2018 年金額為 $ 760000」, not 「2018 年為 …」
    units = {u for _, u in columns}
    units_shared = len(units) == 1
    shared_unit = units.pop() if units_shared else ""
    row_label = cells[0] if cells else ""
    values = [_prose_date(_value(cell, keep)) for cell in cells[1:]]  # each cell's figure once, as printed
    shared_unit = row_unit(shared_unit, row_label, [v for v in values if v])
    parts = []
    for (name, unit), value in zip(columns, values):
        if not value:
            continue
        own = row_unit(unit, row_label, [value]) if unit and not units_shared else ""
        if "美元" in (own or shared_unit):
            if sign := _DOLLAR_SIGN_RE.match(value):  # 「2,045（單位：百萬美元）」: the unit says the currency once
                value = value[sign.end():]
        parts.append((name, value + (_unit_suffix(own) if own else "")))
    named = [p for p in parts if p[0]]
    if len(parts) == 1 and parts[0][0] and label and (_time_like(parts[0][0]) or _time_like(label)
                                                       or _FISCAL_PERIOD_RE.fullmatch(label)):
        first, second = (parts[0][0], label) if _time_like(parts[0][0]) else (label, parts[0][0])
        body = _is_word(first + second, parts[0][1])   # 「2015 年淨營收為 $ 5829」
    elif not named or len(named) == len(parts) > 1 and len({n for n, _ in parts}) == 1:
        # no column names, or one name over every column (「年限 3 | 年限 - | 年限 40」): said once
        values = "、".join(v for _, v in parts)
        subject = f"{label}：{parts[0][0]}" if named and label else label or parts[0][0]
        body = _is_word(subject, values) if subject else values
    elif not lead and (said := _respectively(label, parts)) is not None:
        body = said
    else:
        listing = _listing(parts)
        body = f"{label}：{listing}" if label else listing
    if lead and date_column and body.startswith(label):
        body = f"{lead}為 {label}之{body[len(label):].lstrip('：')}"  # 「既得日為 2011 年 1 月 25 日之限制型股票單位為 8000」
    elif lead:
        # the label column's header: a time lead opens the sentence, a category lead names the label; a year
        # over a quarter is one period (「2010 年第 4 季：最高 53.14」, not 「2010 年，第 4 季：」)
        if _YEAR_OVER_QUARTER_RE.fullmatch(lead) and re.match(r"第 ?[1-4] ?季", label):
            body = f"{lead}{body}"
        else:
            body = f"{lead}，{body}" if _TIME_LEAD_RE.search(lead) or not label else f"{lead}「{label}」" + body[len(label):]
    return _flatten(body + (_unit_suffix(shared_unit) if shared_unit else "")) + "。"


_PERIOD_NAME_RE = re.compile(r"((?:19|20)\d\d) 年(度)?((?: \d{1,2} 月(?: \d{1,2} 日|底))?)")
_DAY_LABEL_RE = re.compile(r"\d{1,2} 月 \d{1,2} 日")  # 「1 月 1 日餘額」, 「12 月 31 日」: dated in each column's year
_BARE_TOTALS = frozenset({"合計", "總計", "小計", "總額", "合計數"})  # 「合計分別為」 reads as a contradiction (v35)
_MAX_RESPECTIVELY = 4  # past four values a reader can no longer pair 「分別為」's values with their periods


def _and(items: list[str], sep: str = " ") -> str:
    """「A、B 及 C」 (`sep` around 及: a space after a numeral, none after 年)."""
    return items[0] if len(items) == 1 else "、".join(items[:-1]) + f"{sep}及 " + items[-1]


def _respectively(label: str, parts: list[tuple[str, str]]) -> str | None:
    """A row over period columns as a Taiwan report writes it — the periods once, the values after 「分別為」:
    「年底餘額於 2010、2009 及 2008 年分別為 $ 50.9、$ 55.2 及 $ 65.7」, 「其他於 2012 年及 2011 年 12 月 31 日分別為
    81 及 120」, a label dated by the columns' years 「2013、2012 及 2011 年 1 月 1 日餘額分別為 …」. Only for two to four
    amounts under distinct years (年 / 年度, or one month-day), none a dash or words, under a label that names
    something (not a bare 「合計」); else None (the listing says it). A leading 「減：」 (a deduction row) is the table's sign convention, not part of the name.

    >>> _respectively("年底餘額", [("2010 年", "$ 50.9"), ("2009 年", "$ 55.2"), ("2008 年度", "$ 65.7")])
    '年底餘額於 2010、2009 及 2008 年度分別為 $ 50.9、$ 55.2 及 $ 65.7'
    >>> _respectively("Other", [("2012 年 12 月 31 日", "81"), ("2011 年 12 月 31 日", "120")])
    'Other 於 2012 年及 2011 年 12 月 31 日分別為 81 及 120'
    >>> _respectively("1 月 1 日餘額", [("2013 年", "$ 5"), ("2012 年", "$ 4")])
    '2013 及 2012 年 1 月 1 日餘額分別為 $ 5 及 $ 4'
    >>> _respectively("其他", [("2012 年", "—"), ("2011 年", "$ 4")]) is None
    True
    """
    periods = [_PERIOD_NAME_RE.fullmatch(name) for name, _ in parts]
    values = [value for _, value in parts]
    if not label or label in _BARE_TOTALS or not 2 <= len(parts) <= _MAX_RESPECTIVELY or not all(periods) or _time_like(label) \
            or any(_is_text(v) or v in _PLACEHOLDERS or v.startswith("—") for v in values):
        return None
    years = [m.group(1) for m in periods]
    days = {m.group(3).strip() for m in periods}
    if len(set(years)) != len(years) or len(days) != 1:
        return None
    day = days.pop()
    fiscal = any(m.group(2) for m in periods)
    label = re.sub(r"^減\s*[：:]\s*", "", label)
    said = _and(values)
    space = " " if re.search(r"[A-Za-z0-9)\]]$", label) else ""
    if not day and not fiscal and _DAY_LABEL_RE.match(label):
        if re.fullmatch(r"\d{1,2} 月 \d{1,2} 日", label):
            label += "餘額"  # a bare 「12 月 31 日」 row is the balance at that date (a roll-forward's last row)
        return f"{_and(years)} 年 {label}{space}分別為 {said}"
    period = f"{_and([f'{y} 年' for y in years], '')} {day}" if day else f"{_and(years)} {'年度' if fiscal else '年'}"
    return f"{label}{space}於 {period}分別為 {said}"


def _fold_lead(lead: str, label: str, columns: list[tuple[str, str]],
               date_column: bool) -> tuple[str, str, list[tuple[str, str]]]:
    """The corner header put where a Taiwan analyst puts it, not before every row (r31a class A): a date over
    year columns joins each year (「12 月 31 日」 over 2008 → 「2008 年 12 月 31 日」, 「截至 12 月 31 日止年度」 →
    「2008 年度」); a date over a year label joins the label (「衡量時點 12 月 31 日」, 2014 → 「2014 年 12 月 31
    日」); a header naming only what kind of date the labels are (「季度截止日」, 「支付日期」) or a category
    (「幣別」, 「地點」, 「計畫類別」) over labels that say it is dropped — 「歐元：2012 年為 27.1…」. A header
    phrase (「提供（使用）之現金」 over 「營業活動」) completes its label and stays. Returns (lead, label, columns)."""
    if not lead or date_column:
        return lead, label, columns
    date = _FOLDABLE_TIME_RE.fullmatch(re.sub(r"^[^\d截]*?\s*(?=截至|\d)", "", lead))
    years = [name for name, _ in columns if name]
    if date and years and all(re.fullmatch(r"(?:19|20)\d\d 年", n) for n in years) and not _is_time(label):
        def join(name: str) -> str:
            if not name:
                return name
            if date.group(2):  # a fiscal year: 「截至 2008 年 12 月 31 日止年度」 → 「2008 年度」
                return _column_name(f"截至 {name} {date.group(1)}{date.group(2)}")
            return f"{name} {date.group(1)}"
        return "", label, [(join(name), unit) for name, unit in columns]
    if date and re.fullmatch(r"(?:19|20)\d\d 年", label) and date.group(2):
        # a fiscal year over a year label is that year's period: 「截至 3 月 31 日止會計年度」, 2007 → 「2007 會計年度」
        return "", _column_name(f"截至 {label} {date.group(1)}{date.group(2)}"), columns
    if date and re.fullmatch(r"(?:19|20)\d\d 年", label) and not lead.startswith(date.group(0)):
        # 「衡量時點 12 月 31 日」 dates a year label; a bare 「12 月 31 日」 over years may head a flow (各年到期金額)
        return "", f"{label} {date.group(1)}", columns
    if _time_like(label) or re.fullmatch(r"\d+ 月(?: \d+ 日)?", label):
        return ("" if _DATE_KIND_LEAD_RE.fullmatch(lead) else lead), label, columns
    category = not _TIME_LEAD_RE.search(lead) and not re.search(r"[之的（）()]", lead)
    return ("" if category and _words(label) >= 2 else lead), label, columns


def _flatten(text: str) -> str:
    """No bracket inside a bracket in prose: an inner 「( a )」 keeps its content (「（不含 a 欄所列證券）」),
    an inner 「（每股金額除外）」 becomes 「，每股金額除外」."""
    out: list[str] = []
    depth = 0
    i = 0
    while i < len(text):
        ch = text[i]
        i += 1
        if depth >= 1 and ch == "（" and (m := _MARK_RE.match(text, i - 1)):
            # a mark inside a bracket: 「（不含（a）欄所列證券）」 → 「（不含 a 欄所列證券）」, 「（年（註 1））」 → 「（年，註 1）」
            inner = m.group(0)[1:-1]
            out.append(f" {inner} " if len(inner) == 1 else f"，{inner}")
            i = m.end()
            continue
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

"""Answer extraction — the one place that decides *where* in a model's output the answer is.

Order (each reported as its own mode):
1. ``strict``: the text after the last 「答案：」 / 「答案:」 / ``Answer:`` (case-insensitive; 「最終答案：」 and
   markdown bold 「**答案**：」 count too); the first number of the marker's line (or of the next line
   when the marker ends its line), after the last 「=」/「≈」 when the line restates the computation;
2. ``boxed``: the content of the last ``\\boxed{…}`` (flexible);
3. ``last_number`` (numbers) / ``last_line`` (yes/no, options): the last number / the last line (flexible);
4. ``none``: nothing found.
A ``<think>…</think>`` block is removed first (the raw text is kept by the caller). If the strict marker
exists but its first lines hold no number, the fallbacks still run (\\boxed anywhere, then the last number
*after* the marker); the mode says which one decided.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tw_fin_eval.answers.numbers import (
    CJK_NUMERAL_RUN,
    Num,
    find_numbers,
    normalize,
    parse_cjk_numeral,
    parse_english_number,
)
from tw_fin_eval.answers.script import to_traditional
from tw_fin_eval.answers.vocabulary import (
    ALTERNATIVE_JOINERS,
    ALTERNATIVE_LEADS,
    ALTERNATIVE_QUALIFIERS,
    AMOUNT_CURRENCY_MARKS,
    ANSWER_IS_EN,
    ANSWER_MARKER_CLOSERS,
    ANSWER_MARKERS,
    APPROXIMATE_RESTATEMENTS,
    BOUNDS_AFTER,
    BOUNDS_BEFORE,
    CHOICE_JOINERS,
    CHOICE_LEADS,
    CLOSING_COURTESIES,
    COMPARATIVE_LEADS,
    COMPARATIVE_LOWER,
    CONCLUSION_JOINERS,
    CONDITIONAL_WORDS,
    COPULA_NOT_AFTER,
    COPULAS,
    CORRECTION_MARKERS,
    DATE_SUFFIXES,
    DECREASE_AFTER,
    DECREASE_LINKS,
    DECREASE_WORDS,
    DECREASE_WORDS_EN,
    HEDGE_DEGREES,
    HEDGE_PARTICLES,
    HEDGES,
    HEDGES_AFTER,
    INCREASE_VERBS,
    LABEL_RANGE_JOINERS,
    LABEL_REJECTORS,
    LAST_LINE_YES_NO,
    LOOSE_ANSWER_COPULAS,
    LOSS_LINKS,
    LOSS_WORDS,
    LOWER_THAN,
    NEGATED_VERB_GAP,
    NEGATOR_ADVERBS,
    NEGATOR_MODALS,
    NEGATOR_PASSIVES,
    NEGATORS_BEFORE_PREDICATE,
    NO_ALONE_WORDS,
    NO_ANSWER_WORDS,
    NO_CHANGE_WORDS,
    NO_LEADING_WORDS,
    NOT_AN_ANSWER_AFTER,
    NOT_NEGATIONS,
    NOT_TENTHS_AFTER,
    NUMBER_CORRECTION_MARKERS,
    ORDINAL_PREFIXES,
    PERCENT_WORD_PREFIX,
    REFUSAL_PHRASES,
    RESTATED_WHETHER,
    STEP_LABELS,
    UNCERTAIN_HEDGES,
    YEAR_JOINERS,
    YEAR_LEADS,
    YES_ALONE_WORDS,
    YES_ANSWER_WORDS,
    YES_LEADING_WORDS,
    YES_NO_HEDGES,
    alternation,
)
from tw_fin_eval.schema import strip_think

STRICT = "strict"
BOXED = "boxed"
LAST_NUMBER = "last_number"
LAST_LINE = "last_line"
NONE = "none"
REFUSAL = "refusal"  # the strict answer declines to answer (「無法判斷」): wrong, and counted

_MARKER = re.compile(f"(?:{alternation(ANSWER_MARKERS)})" + r"[ \t]{0,3}(?:\*\*|__)?[ \t]{0,3}[:：]", re.I)
# Used only when the reply has no exact marker: 「答案是 …」, 「答案為：…」, 「【答案】…」, "The answer is …".
_LOOSE_MARKER = re.compile(r"答案[ \t]{0,3}(?:\*\*|__)?[ \t]{0,3}(?:"
                           f"(?:{alternation(LOOSE_ANSWER_COPULAS)})(?!{alternation(NOT_AN_ANSWER_AFTER)})"
                           r"[ \t]{0,3}(?:\*\*|__)?[ \t]{0,3}[:：]?|" f"(?:{alternation(ANSWER_MARKER_CLOSERS)})"
                           r"[ \t]{0,3}[:：]?)|" f"(?:{alternation(ANSWER_IS_EN)})" r"[ \t]*:?", re.I)
_BOXED = re.compile(r"\\boxed\s*\{")
_LATEX_WRAP = re.compile(r"\\(?:text|mathrm|textbf|mathbf|operatorname)\s*\{([^{}]*)\}")
_STEP_LABEL = re.compile(f"(?:{alternation(STEP_LABELS)})" + r"\s*\d+\s*[:：.、]?", re.I)


def clean_latex(text: str) -> str:
    """Unwrap the LaTeX a model puts around an answer (\\text{億}, \\%, \\$, \\,, **bold**)."""
    if "\\" not in text and "**" not in text:
        return text
    out = text
    for _ in range(3):
        out = _LATEX_WRAP.sub(r"\1", out)
    out = (out.replace("\\times", "×").replace("\\%", "%").replace("\\$", "$").replace("\\,", "").replace("\\!", "")
           .replace("\\ ", " ").replace("**", "").replace("\\left", "").replace("\\right", ""))
    return out


def answer_segment(text: str) -> str | None:
    """The text after the last answer marker, or None when there is no marker: the prompt's exact 「答案：」,
    else the last 「答案是」 / 「答案為」 / 「最終答案是」 / 「【答案】」 / "the answer is"."""
    return answer_marker(text)[0]


def answer_marker(text: str) -> tuple[str | None, bool]:
    """(the text after the answer marker or None, whether that marker is the prompt's exact 「答案：」 format)."""
    for marker, exact in ((_MARKER, True), (_LOOSE_MARKER, False)):
        end = _last_marker_end(text, marker)
        if end >= 0:
            return text[end:], exact
    return None, False


def uses_exact_marker(output: str | None) -> bool:
    """Whether the visible reply has the prompt's exact 「答案：」 line (not 「答案是」, not none at all)."""
    return _last_marker_end(strip_think(output), _MARKER) >= 0


def _last_marker_end(text: str, marker: re.Pattern[str]) -> int:
    # Scan backwards from the last "答案" / "answer" rather than running the regex over the whole text.
    best = -1
    lowered = text.lower()
    if len(lowered) != len(text):  # a character whose lower case is longer: offsets would not line up
        found = list(marker.finditer(text))
        return found[-1].end() if found else -1
    for word in ANSWER_MARKERS:
        pos = len(lowered)
        while True:
            pos = lowered.rfind(word, 0, pos)
            if pos < 0:
                break
            if word.isascii() and pos > 0 and lowered[pos - 1].isalpha():  # "reanswer", not "answer"
                continue
            m = marker.match(text, pos)
            if m:
                best = max(best, m.end())
                break
    return best


def last_boxed(text: str) -> str | None:
    """The content of the last \\boxed{…}, braces balanced."""
    starts = [m.end() for m in _BOXED.finditer(text)]
    if not starts:
        return None
    i = starts[-1]
    depth, j = 1, i
    while j < len(text) and depth:
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
        j += 1
    return text[i:j - 1] if depth == 0 else text[i:]


def _first_lines(segment: str, n: int = 2) -> str:
    """The first `n` non-empty lines of a segment (an answer may sit on the line after the marker); a
    「答案：\\boxed{B}」 line gives its boxed content."""
    lines = [ln for ln in segment.splitlines() if ln.strip() and ln.strip() not in ("$", "$$", "**")]
    out = "\n".join(lines[:n])
    inner = last_boxed(out) if "\\boxed" in out else None
    return inner if inner is not None and inner.strip() else out


_OPEN, _CLOSE = "（([【", "）)]】"
# a bracketed lone amount is an accounting negative: (1,234), ($6), (NT$1,234), (US$6), (HK$ 3.5), (USD 6)
_LONE_NUMBER = re.compile(r"\s*(?:NT|US|HK)?\s?\$?\s*(?:USD|TWD|NTD)?\s*-?[\d,.]+\s*(?:%|元|美元)?\s*")


def drop_asides(line: str) -> str:
    """Remove bracketed asides — 「7,947（= (9,557 + 6,337) ÷ 2）」, "747 (574 for pensions …)" — keeping a
    bracketed lone number, which is an accounting negative ("(1,234)")."""
    if not any(c in line for c in _OPEN):
        return line
    out: list[str] = []
    stack: list[int] = []
    for ch in line:
        if ch in _OPEN:
            stack.append(len(out))
            out.append(ch)
        elif ch in _CLOSE and stack:
            start = stack.pop()
            inner = "".join(out[start + 1:])
            if _LONE_NUMBER.fullmatch(inner) and ch == ")" and out[start] == "(":
                out.append(ch)
            else:
                del out[start:]
                out.append(" ")
        else:
            out.append(ch)
    return "".join(out)


# A clause ends at 「；」「。」, a Chinese comma that is not a digit-group separator, or ", " before words.
_CLAUSE_SPLIT = re.compile(r"[；;。]|，|,(?=\s*[^\d\s])|\.\s+(?=[A-Za-z])")
# The value follows the last of these when the line states "label = value" / "X 為 value".
_FISCAL_YEAR = re.compile(r"(?:FY|fiscal\s+(?:year\s+)?)\s?((?:19|20)\d\d)(?:\s?年度?)?[.。]?", re.I)
_PCT_WORDS = re.compile(r"[負负]?" + PERCENT_WORD_PREFIX
                        + r"((?:[負负])?[零〇一二兩两三四五六七八九十百]+(?:[點点][零〇一二兩两三四五六七八九]+)?)")
_NO_CHANGE = re.compile(alternation(NO_CHANGE_WORDS), re.I)
_TENTHS = re.compile(r"\s?成([一二三四五六七八九])?" + f"(?![{NOT_TENTHS_AFTER}])")
_COPULA = re.compile(alternation(COPULAS), re.I)
_JOINED_COPULA = re.compile(f"(?:{alternation(COPULA_NOT_AFTER)})" + r"\s{0,2}$")  # 「或是」, 「可能是」: not a copula
# Ranges and alternatives between two numbers: 「28,000–30,000」, 「369 或大約 373」, 「介於 X 與 Y 之間」, "12 to 13".
_QUALIFIER = f"(?:{alternation(ALTERNATIVE_QUALIFIERS)})"
_ALTERNATIVE = re.compile(r"\s{0,2}" + f"(?:{alternation(ALTERNATIVE_JOINERS)})" + r"\s{0,2}" + _QUALIFIER + r"?\s{0,2}$",
                          re.I)
_FRACTION = re.compile(r"/")  # 「3/8」, 「93.49/100」: a tight slash between plain numbers; 「0.35 / 0.40」 is two values
# a direction may stand between the hedge and its value: 「也可能下修 14.5%」, 「或許成長 6%」, "could also be down 3%"
_DIRECTION = f"(?:(?:{alternation(DECREASE_WORDS + INCREASE_VERBS + DECREASE_WORDS_EN)})" + r"\s{0,2}" \
    + f"(?:{alternation(DECREASE_LINKS)})?" + r"\s{0,2})?"
_HEDGED_VALUE = re.compile(f"(?:{alternation(HEDGES)})" + r"\s{0,2}" + _QUALIFIER + r"?\s{0,2}" + _DIRECTION + _QUALIFIER
                           + r"?\s{0,2}(?=[-+(\d.$NUHT新負])", re.I)
# a bound right before or after the value: 「至少 12.5%」, 「超過 NT$5」, 「12.5% 以上」, 「12.5%±0.5%」
_BOUND_BEFORE = re.compile(r"(?<![A-Za-z])(?:" + alternation(BOUNDS_BEFORE) + r")\s{0,2}" + _QUALIFIER + r"?\s{0,2}"
                           + f"(?:{alternation(AMOUNT_CURRENCY_MARKS)})?" + r"\s{0,2}$", re.I)
_BOUND_AFTER = re.compile(r"\s{0,2}(?:" + alternation(BOUNDS_AFTER) + ")", re.I)
# a later clause that restates the value approximately: 「，四捨五入後約 13%」, 「，差不多 13%」
_APPROXIMATE = re.compile(r"^\s{0,2}(?:" + alternation(APPROXIMATE_RESTATEMENTS) + r")\s{0,2}(?=[-+(\d.$NUHT新負])", re.I)
_HEDGE_AFTER = re.compile(r"\s{0,2}" + f"(?:{alternation(HEDGES_AFTER)})", re.I)
_CONDITIONAL = re.compile(alternation(CONDITIONAL_WORDS), re.I)
_CORRECTION = re.compile(alternation(CORRECTION_MARKERS), re.I)
_NUMBER_CORRECTION = re.compile(alternation(CORRECTION_MARKERS + NUMBER_CORRECTION_MARKERS), re.I)
_NUMBER_START = re.compile(r"\s{0,2}" + _QUALIFIER + r"?\s{0,2}(?:[-+(.$負]|NT|US|HK|新|\d)", re.I)
# Words that give a positive magnitude its sign: 「減少 2」, 「跌幅為 5.2%」, "a decrease of 2", 「虧損 NT$5」.
_CURRENCY = r"\s{0,2}" + f"(?:{alternation(AMOUNT_CURRENCY_MARKS)})?" + r"\s{0,2}$"
_NEGATIVE_WORD = re.compile(f"(?:(?:{alternation(DECREASE_WORDS + DECREASE_WORDS_EN)})"
                            + r"(?:\s{0,2}" + f"(?:{alternation(DECREASE_LINKS)})" + r"){0,3}|"
                            + f"(?:{alternation(LOSS_WORDS)})" + r"(?:\s{0,2}" + f"(?:{alternation(LOSS_LINKS)})"
                            + r"){0,3})" + _CURRENCY, re.I)
_NEGATIVE_AFTER = re.compile(r"\s{0,2}" + f"(?:{alternation(DECREASE_AFTER)})", re.I)
# 「比門檻報酬率低 6.31 個百分點」, 「較去年少了 320 萬元」, 「低於門檻 6.31 個百分點」: the amount is how much lower
_LOWER_BY = re.compile(f"(?:(?:{alternation(COMPARATIVE_LEADS)})" + r"[^\d，,。；;:：]{1,16}?" + f"(?:{alternation(COMPARATIVE_LOWER)})"
                       + r"|(?:" + alternation(LOWER_THAN) + r")[^\d\s，,。；;:：]{1,16})(?:了)?\s{0,2}(?:約|约)?" + _CURRENCY)


def ends_with_decrease_word(text: str) -> bool:
    """Whether `text` (what stands right before a positive amount) ends with a word that makes it negative:
    「減少 」, 「衰退約 」, 「亏损达 」, "a decrease of $" — the one rule for final answers and step values
    (「下降至 」, 「降為 」 state a level, not a change)."""
    return bool(_NEGATIVE_WORD.search(text) or _LOWER_BY.search(text))


def decrease_follows(text: str, pos: int) -> bool:
    """Whether a decrease word follows the amount ending at `pos`: 「5.2% 的跌幅」, "5.2% lower"."""
    return bool(_NEGATIVE_AFTER.match(text, pos))
_STEP_LABEL_NUM = re.compile(f"(?:{alternation(STEP_LABELS)})" + r"\s*$", re.I)
_ORDINAL_BEFORE = re.compile(f"(?:{alternation(ORDINAL_PREFIXES)})" + r"\s{0,2}$", re.I)
_YEARISH = re.compile(r"(?:19|20)\d\d")
_DATE_AFTER = re.compile(r"\s{0,2}" + f"(?:{alternation(tuple(DATE_SUFFIXES))})")
_YEAR_BEFORE = re.compile(f"(?:{alternation(YEAR_LEADS)})" + r"\s{0,2}$", re.I)
_YEAR_AFTER = re.compile(r"\s{0,2}" + f"(?:{alternation(YEAR_JOINERS)})" + r"\s{0,2}(?:19|20)\d\d", re.I)


@dataclass(frozen=True)
class LineReading:
    num: Num | None
    ambiguous: bool = False  # a range or alternatives: no single answer
    text: str = ""


def _is_label(n: Num, text: str) -> bool:
    """Years, ordinals and step numbers in a lead-in are labels, not values."""
    before = text[max(0, n.start - 6):n.start]
    if _ORDINAL_BEFORE.search(before) or _STEP_LABEL_NUM.search(before):
        return True
    if n.unit or n.currency or "." in n.text or "," in n.text:
        return False
    if _DATE_AFTER.match(text, n.end):  # 「2015 年」, 「12 月」
        return True
    return bool(_YEARISH.fullmatch(n.text.strip().lstrip("+-")) and (
        _YEAR_BEFORE.search(before) or _YEAR_AFTER.match(text, n.end)))


def corrected(text: str, *, number: bool = False) -> str:
    """The part of an answer line after its last correction (「先前誤算為 8.1，正確為 7.6」, 「不是 A，而是 B」,
    「更正為 …」, "not A but B"); the whole line when it corrects nothing. For a number (`number`) also 「應為」,
    「→」, and the corrected part must start with the number."""
    last = None
    for m in (_NUMBER_CORRECTION if number else _CORRECTION).finditer(text):
        rest = text[m.end():]
        if _NUMBER_START.match(rest) if number else re.search(r"[^\W_]", rest):
            last = m
    return text if last is None else text[last.end():]


def same_amount(a: Num, b: Num) -> bool:
    """Whether two numbers of one answer state exactly the same amount — the same value restated in another
    unit (「1,234,000 元」 and 「123.4 萬元」, 「12.5%」 and 「0.125」). A rounder value (「14.46% 或 14.5%」) is an
    alternative, not a restatement."""
    return abs(a.value - b.value) <= 1e-9 * max(abs(a.value), abs(b.value))


_DECIMALS = re.compile(r"\d(?:[\d,]*)\.(\d+)")


def rounds_to(value: Num, rounded: Num) -> bool:
    """Whether `rounded` is `value` rounded to the decimals `rounded` is written with (12.47 → 12.5, 12.5 → 13 or 12)."""
    m = _DECIMALS.search(rounded.text)
    decimals = len(m.group(1)) if m else 0
    return abs(rounded.bare - value.bare) <= 0.5 * 10.0 ** -decimals + 1e-9


def _different_kinds(a: Num, b: Num) -> bool:
    """An amount (a currency or a scale unit) and a percentage answer different questions («增加 28 百萬美元，或
    15%»): not alternatives of each other."""
    def amount(n: Num) -> bool:
        return n.currency or n.multiplier not in (1.0, 0.01)
    return (a.percent and amount(b)) or (b.percent and amount(a))


def _hedged_values(text: str) -> list[Num]:
    """The numbers a hedge introduces anywhere on the line (「但也可能是 45%」, 「（或許是 45%）」, "could also be
    45") or follows (「13% 也有可能」)."""
    out = [n for n in find_numbers(text) if _HEDGE_AFTER.match(text, n.end)]
    for m in _HEDGED_VALUE.finditer(text):
        window = text[m.end():m.end() + 40]
        nums = find_numbers(window)
        if nums and nums[0].start <= 3 and not _is_label(nums[0], window):
            out.append(_signed(nums[0], text[:m.end() + nums[0].start], after=False))
    return out


def read_answer_line(line: str) -> LineReading:
    """The one number an answer line states (see the module docstring for the rules)."""
    text = normalize(clean_latex(line))
    inner = last_boxed(text)
    if inner is not None:
        text = clean_latex(inner)
    text = corrected(text, number=True)
    hedged = _hedged_values(text)
    conditional = bool(_CONDITIONAL.search(text))
    restated: list[Num] = []  # approximate restatements: a second value unless they round the value
    for aside in _ASIDE.findall(text):  # 「12.5%（若四捨五入為 13%）」, 「12.5%（約 13%）」: a second value in brackets
        if _CONDITIONAL.match(aside.strip()) or _APPROXIMATE.match(aside):
            reading = _read_clause(aside)
            if reading is not None and reading.num is not None:
                (hedged if _CONDITIONAL.match(aside.strip()) else restated).append(reading.num)
    text = drop_asides(text)
    clauses = _CLAUSE_SPLIT.split(text)
    for i, clause in enumerate(clauses):
        reading = _read_clause(clause)
        if reading is not None:
            if reading.num is None:
                return reading
            if conditional:  # 「若含稅為 12.5%，不含稅為 13%」: each condition's value is an alternative
                hedged += [r.num for c in clauses[i + 1:] if (r := _read_clause(c)) is not None and r.num is not None]
            # 「12.5%，差不多 14%」, 「12.5%（約 14%）」: an approximate restatement in the same unit that is not the value
            # rounded is a second value; 「12.47%（約 12.5%）」, 「12.5%，四捨五入後約 13%」 round it, and «NT$1,234,000（約
            # NT$1.23 million）» converts it — one answer
            restated += [r.num for c in clauses[i + 1:] if _APPROXIMATE.match(c)
                         and (r := _read_clause(c)) is not None and r.num is not None]
            hedged += [n for n in restated if n.multiplier == reading.num.multiplier and n.unit == reading.num.unit
                       and not rounds_to(reading.num, n)]
            if any(not same_amount(reading.num, h) and not _different_kinds(reading.num, h) for h in hedged):
                return LineReading(None, ambiguous=True, text=clause)
            return reading
    for clause in clauses:  # only labels-like numbers (「5 年」): the first one that is not an ordinal
        for n in find_numbers(clause):
            before = clause[max(0, n.start - 6):n.start]
            if not (_ORDINAL_BEFORE.search(before) or _STEP_LABEL_NUM.search(before)):
                return LineReading(n, text=clause)
    fiscal = _FISCAL_YEAR.fullmatch(text.strip())
    if fiscal:  # 「FY2010」 as the whole answer: the year
        return LineReading(Num(fiscal.group(0), 0, len(fiscal.group(0)), float(fiscal.group(1)), None, 1.0), text=text)
    pct_words = _PCT_WORDS.search(text) if not re.search(r"\d", text) else None
    if pct_words and (value := parse_cjk_numeral(pct_words.group(1))) is not None:  # 「百分之七十點二」 = 70.2%
        value = -value if pct_words.group(0).startswith(("負", "负")) else value
        num = Num(pct_words.group(0), pct_words.start(), pct_words.end(), value, "%", 0.01)
        return LineReading(_signed(num, text), text=text)  # 「減少百分之五」 is −5%
    cjk = CJK_NUMERAL_RUN.search(text)
    if cjk and not re.search(r"\d", text):
        value = parse_cjk_numeral(cjk.group(0))
        if value is not None:
            after = text[cjk.end():]
            end = cjk.end()
            unit = next((u for u in ("%", "個百分點") if after.lstrip().startswith(u)), None)
            tenth = _TENTHS.match(after)  # 「一成」 = 10%, 「三成五」 = 35%
            if tenth and not unit:
                value, unit, end = value * 10 + (parse_cjk_numeral(tenth.group(1)) or 0 if tenth.group(1) else 0), \
                    "%", end + tenth.end()
            mult = 0.01 if unit else 1.0
            num = Num(text[cjk.start():end], cjk.start(), end, value, "%" if unit else None, mult)
            return LineReading(_signed(num, text), text=text)  # 「縮水近兩成」 is −20%
    unchanged = _NO_CHANGE.search(text) if not re.search(r"\d", text) else None
    if unchanged:  # 「持平」, 「不變」, 「沒有變化」: a change of zero
        return LineReading(Num(unchanged.group(0), unchanged.start(), unchanged.end(), 0.0, None, 1.0), text=text)
    words = parse_english_number(text) if not re.search(r"\d", text) else None
    if words is not None:  # "negative thirty point six percent"
        return LineReading(words, text=text)
    return LineReading(None, text=text)


def _read_clause(clause: str) -> LineReading | None:
    nums = find_numbers(clause)
    values = [n for n in nums if not _is_label(n, clause)]
    if not values:
        return None
    # 「label = value」 / 「X 為 value」 / "the change was value": the value after the last copula that is
    # followed by a number
    pick = values[0]
    for m in _COPULA.finditer(clause):
        if _JOINED_COPULA.search(clause, 0, m.start()):  # 「52.57% 或是 53%」: 是 joins, it does not state
            continue
        later = [n for n in values if n.start >= m.end()]
        if later:
            pick = later[0]
    idx = nums.index(pick)
    nxt = nums[idx + 1] if idx + 1 < len(nums) else None
    if nxt is not None and _FRACTION.fullmatch(clause[pick.end:nxt.start]) and nxt.bare != 0 \
            and pick.multiplier == 1.0 and nxt.multiplier == 1.0 and not (pick.currency or nxt.currency):
        frac = Num(clause[pick.start:nxt.end], pick.start, nxt.end, pick.bare / nxt.bare, None, 1.0)
        return LineReading(frac, text=clause)
    pick = _signed(pick, clause)
    if _BOUND_BEFORE.search(clause, 0, pick.start) or _BOUND_AFTER.match(clause, pick.end):
        return LineReading(None, ambiguous=True, text=clause)  # 「至少 12.5%」, 「12.5% 以上」: a bound, not a value
    # the numbers joined to it (「12.5% 或大約 13%」, 「介於 X 與 Y 之間」): one answer only when they restate it
    prev = pick
    for other in nums[idx + 1:]:
        if not _ALTERNATIVE.fullmatch(clause[prev.end:other.start]) or _is_label(other, clause):
            break
        if not same_amount(pick, (o := _signed(other, clause))) and not _different_kinds(pick, o):
            return LineReading(None, ambiguous=True, text=clause)
        prev = other
    return LineReading(pick, text=clause)


def _signed(n: Num, text: str, *, after: bool = True) -> Num:
    """`n` with the sign a decrease or loss word gives it (「減少 2」, 「亏损 NT$5」, "fell 3%", 「5.2% 的跌幅」).
    `text` is the clause `n` was found in, or (after=False) the text that ends right before it."""
    start = n.start if after else len(text)
    if n.bare > 0 and (ends_with_decrease_word(text[max(0, start - 24):start]) or (after and decrease_follows(text, n.end))):
        return Num(n.text, n.start, n.end, -n.bare, n.unit, n.multiplier, n.currency)
    return n


@dataclass(frozen=True)
class NumberExtraction:
    mode: str
    num: Num | None
    segment: str | None  # the text the number was read from
    ambiguous: bool = False  # the strict answer line gives a range or alternatives

    @property
    def extracted(self) -> str | None:
        return self.num.text.strip() if self.num else None


def extract_number(output: str | None) -> NumberExtraction:
    text = strip_think(output)
    seg = answer_segment(text)
    if seg is not None:
        # The answer is on the marker's line, or on the next non-empty line when the marker ends its line.
        for line in [ln for ln in seg.splitlines() if ln.strip()][:2]:
            reading = read_answer_line(line)
            if reading.ambiguous:
                return NumberExtraction(STRICT, None, reading.text, ambiguous=True)
            if reading.num is not None:
                return NumberExtraction(STRICT, reading.num, reading.text)
            if is_refusal(line):
                break
    boxed = last_boxed(text)
    if boxed is not None:
        reading = read_answer_line(boxed)
        if reading.num is not None:
            return NumberExtraction(BOXED, reading.num, reading.text)
    if seg is None and refuses_at_end(text):  # no answer line, and the reply ends by declining
        return NumberExtraction(REFUSAL, None, None)
    # With a marker, the last number is looked for only after it: numbers before a 「答案：無法判斷」
    # are reasoning, not an answer. Step labels (「步驟 2：」) are never read.
    scope = text if seg is None else seg
    nums = find_numbers(_STEP_LABEL.sub(" ", clean_latex(scope)))
    if nums:
        return NumberExtraction(LAST_NUMBER, nums[-1], scope)
    return NumberExtraction(NONE, None, None)


# ---- refusals ---------------------------------------------------------------------------------------------
_REFUSAL = re.compile(alternation(REFUSAL_PHRASES), re.I)


def is_refusal(text: str | None) -> bool:
    """「無法判斷」, 「資料不足」, "cannot determine" … (either script): the model declined to answer."""
    return bool(text) and bool(_REFUSAL.search(to_traditional(normalize(text))))


_COURTESY = re.compile(r"^[\s*>#-]*(?:" + alternation(CLOSING_COURTESIES) + ")", re.I)


def content_lines(text: str) -> list[str]:
    """The non-empty lines of a reply without its closing courtesies («希望這個回答對您有幫助！», "Hope this helps")."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    while lines and _COURTESY.match(to_traditional(lines[-1])) and not re.search(r"\d", lines[-1]):
        lines.pop()
    return lines


def refuses_at_end(text: str) -> bool:
    """A reply without an answer line whose last line declines («資料不足，無法判斷»), closing courtesies aside."""
    lines = content_lines(text)
    return bool(lines) and is_refusal(lines[-1])


# ---- yes / no -------------------------------------------------------------------------------------------
_ALONE = r"(?=\s*(?:[，,。.；;！!、:：]|$))"  # the word stands alone: 「沒有，…」, 「不會。」
_NO = re.compile(f"^(?:(?:{alternation(NO_ANSWER_WORDS)})(?![a-z])|(?:{alternation(NO_ALONE_WORDS)}){_ALONE})", re.I)
_YES = re.compile(f"^(?:(?:{alternation(YES_ANSWER_WORDS)})(?![a-z])|(?:{alternation(YES_ALONE_WORDS)}){_ALONE})", re.I)
_NO_START = re.compile(f"^(?:{alternation(NO_LEADING_WORDS)})")
_YES_START = re.compile(f"^(?:{alternation(YES_LEADING_WORDS)})")
# a lead-in before the yes/no word (not a refusal: 「可能」, 「不確定」 stay undecided or refusals)
_HEDGE = re.compile(f"^(?:{alternation(YES_NO_HEDGES)})" + r"[ \t:：，,]*", re.I)
_YES_NO_ANY = re.compile(r"(?<![a-z])(yes|no)(?![a-z])|" + f"({alternation(LAST_LINE_YES_NO)})", re.I)


def classify_yes_no(text: str | None, question: str | None = None) -> str | None:
    """'yes' / 'no' for an answer (「否」, 「不是」, 「是的」, "Yes.", or — given the question — a phrase that
    states or negates what the question asks: 「須申報」/「無需申報」 for 「是否須申報」, 「符合」 for
    「是否符合」), else None. A refusal (「無法判斷」, "cannot determine"), an uncertain answer (「可能是符合」,
    「不一定超過」, `is_uncertain`) and an answer with an alternative that reads the other way (「是或否」, 「符合，但也
    可能不符合」, `alternative_parts`) are never yes or no."""
    if text is None:
        return None
    t = to_traditional(clean_latex(normalize(text))).strip().lstrip("*「『\"'(（[ ").strip()
    if is_refusal(t):
        return None
    t = _HEDGE.sub("", _RESTATED.sub("", corrected(t)))  # 「應該是」, 「我認為否」, 「是否超過上限：否」: still the answer
    if is_uncertain(t):
        return None
    got, kind = _yes_no_reading(t, question)
    if got is None:
        return None
    for part, led in alternative_parts(t):
        other, other_kind = _yes_no_reading(part, question)
        # a joined part counts when it restates the same words the other way (「符合或不符合」, 「是/否」); a part a
        # hedge introduces counts however it is phrased (「是，但也可能不符合」)
        if other is not None and other != got and (led or other_kind == kind):
            return None
    return got


def _yes_no_reading(t: str, question: str | None) -> tuple[str | None, str]:
    """(yes/no/None, how it was read: "word", "lead", or the question's words the answer restates)."""
    t = t.strip().lstrip("*「『\"'(（[ ").strip()
    if _NO.match(t):
        return "no", "word"
    if _YES.match(t):
        return "yes", "word"
    if question:
        got, run = _predicate_reading(t, question)
        if got == UNCERTAIN:
            return None, run
        if got is not None:
            return got, run
    if _NO_START.match(t):  # 「沒有超過」 with no predicate to read it against
        return "no", "lead"
    return ("yes", "lead") if _YES_START.match(t) else (None, "")


# ---- negation, uncertainty and alternatives: one rule for yes/no answers and categorical labels ---------------
NEGATED, UNCERTAIN = "negated", "uncertain"
_GAP = "[\u4e00-\u9fff]{0," + str(NEGATED_VERB_GAP) + "}"
_MODAL = f"(?:{alternation(NEGATOR_MODALS)})?"
# a negator, an optional modal, adverb and passive, then at most a short verb right before the words read:
# 「並未實際超過」, 「不應申報」, 「未超過風險胃納」, 「沒有被列為」
_NEGATED_BEFORE = re.compile(f"(?:{alternation(NEGATORS_BEFORE_PREDICATE)}){_MODAL}(?:{alternation(NEGATOR_ADVERBS)})?"
                             f"(?:{alternation(NEGATOR_PASSIVES)})?{_GAP}" + r"\s*$")
_UNCERTAIN_BEFORE = re.compile(f"(?:{alternation(UNCERTAIN_HEDGES)}){_MODAL}{_GAP}" + r"\s*$", re.I)
_DEGREE = f"(?:(?:{alternation(HEDGE_DEGREES)})\\s?)?"
_UNCERTAIN_START = re.compile(f"^\\W*{_DEGREE}(?:{alternation(UNCERTAIN_HEDGES)})", re.I)
# a clause that is only a hedge: 「可能吧」, 「（可能）」, "probably.", "maybe not"
_BARE_HEDGE = re.compile(f"^\\W*{_DEGREE}(?:{alternation(UNCERTAIN_HEDGES)})\\s*(?:{alternation(HEDGE_PARTICLES)})?\\W*$", re.I)
_RESTATED = re.compile("^" + RESTATED_WHETHER + r"\s*")
_NOT_NEGATION = re.compile(alternation(NOT_NEGATIONS))
_BLANK = "□"  # stands for a word skipped before a negation is looked for (not a CJK ideograph: ends a verb gap)


def stance_before(text: str, pos: int) -> str | None:
    """NEGATED when a negation stands right before position `pos` of `text` (Traditional script) — a negator, an
    optional modal / adverb / passive and at most a short verb («未超過», «不須», «並未實際», «沒有被列為», «未達») —
    UNCERTAIN when a hedge does («可能», «也許會», «不一定», «未必»), else None. Words that start with a negator but do
    not negate (`vocabulary.NOT_NEGATIONS`: 不僅, 未來, 非常, 不動產 …) are skipped."""
    window = _NOT_NEGATION.sub(lambda m: _BLANK * len(m.group(0)), text[max(0, pos - 14):pos])[-10:]
    if _UNCERTAIN_BEFORE.search(window):
        return UNCERTAIN
    return NEGATED if _NEGATED_BEFORE.search(window) else None


def is_uncertain(text: str) -> bool:
    """The answer starts with a hedge of uncertainty («可能是符合», «很可能», «也許», «大概是高風險», «不一定», "maybe"), or
    one of its clauses or asides is only a hedge («是，可能吧», «中風險（可能）», "Yes, probably")."""
    t = to_traditional(text)
    if _UNCERTAIN_START.match(t):
        return True
    parts = _CLAUSE_BREAK.split(_ASIDE.sub("，", t))[1:] + _ASIDE.findall(t)
    return any(_BARE_HEDGE.match(part) for part in parts if part.strip())


_CLAUSE_BREAK = re.compile(r"[，,。；;]")
_ALT_LEAD = re.compile(r"^[\s*「『]*(?:" + alternation(ALTERNATIVE_LEADS) + r")[\s:：]*", re.I)
_CONCLUSION_JOINER = re.compile(alternation(CONCLUSION_JOINERS), re.I)
_ASIDE = re.compile(r"[（(]([^（）()]*)[)）]")


def alternative_parts(text: str) -> list[tuple[str, bool]]:
    """The alternatives a conclusion states besides its first reading, each with whether a hedge introduces it:
    the parts of the first clause after a joiner («是或否», «符合或不符合», «是/否»: False), and a later clause or
    a bracketed aside that a hedge or a joiner starts («符合，但也可能不符合», «是（或許否）», «積極型，或是穩健型»: True)."""
    asides = _ASIDE.findall(text)
    clauses = [c for c in _CLAUSE_BREAK.split(_ASIDE.sub("，", text)) if c.strip()]
    out: list[tuple[str, bool]] = []
    if clauses:
        out += [(part, False) for part in _CONCLUSION_JOINER.split(clauses[0])[1:] if part.strip()]
    for clause in clauses[1:] + asides:
        lead = _ALT_LEAD.match(clause)
        if lead and clause[lead.end():].strip():
            out.append((clause[lead.end():], True))
    return out


def alternative_aside(text: str) -> bool:
    """Whether a bracketed aside of `text` states an alternative («是（或許否）», «積極型（也可能是穩健型）»)."""
    return any(_ALT_LEAD.match(to_traditional(aside)) for aside in _ASIDE.findall(normalize(text)))


_WHETHER = re.compile(r"是否(?:為|是)?\s*([^，,。；;？?！!（(「」『』\s]{1,20})")


def _norm_predicate(text: str) -> str:
    """The predicate's words in one form: Traditional script, 需 as 須 (「需要」 → 「須要」)."""
    return to_traditional(text).replace("需", "須").replace("必須", "須")


def yes_no_by_predicate(answer: str, question: str) -> str | None:
    """Read 「須隨同傳送…」 / 「不列為疑似分散交易」 against the predicate of 「是否 P」 in the question: the
    longest common run (≥ 2 characters) of P in the answer, negated when a negation stands right before it
    (`stance_before`); None when a hedge does («可能超過»)."""
    got = _predicate_reading(answer, question)[0]
    return None if got == UNCERTAIN else got


def _predicate_reading(answer: str, question: str) -> tuple[str | None, str]:
    """(yes / no / UNCERTAIN / None, the run of the question's predicate the answer restates)."""
    m = _WHETHER.search(normalize(question))
    if not m:
        return None, ""
    pred = _norm_predicate(m.group(1))
    ans = _norm_predicate(answer)
    best = (0, -1, "")  # (length, position in the answer, run)
    for i in range(len(pred)):
        for j in range(len(pred), i + max(1, best[0]), -1):
            pos = ans.find(pred[i:j])
            if pos >= 0:
                if j - i > best[0]:
                    best = (j - i, pos, pred[i:j])
                break
    length, pos, run = best
    if length < min(2, len(pred)):
        return None, ""
    # a negation before the predicate's verb (「未超過」, 「負債比率沒有超過」, 「並未實際超過」, 「未超過風險胃納」) flips it
    stance = stance_before(ans, pos)
    return (UNCERTAIN if stance == UNCERTAIN else "no" if stance == NEGATED else "yes"), run


# ---- categorical labels ----------------------------------------------------------------------------------
_LABEL_STRIP = re.compile(r"[\s「」『』\"'“”．.（）()*`]")
_LABEL_BREAK = re.compile(r"[。，,：:；;！!]+")
_LABEL_BREAK_MARK = "|"  # a clause break in a label text: never part of a label, ends a negation's reach
_REJECTOR = re.compile(f"(?:{alternation(LABEL_REJECTORS)})$")


def norm_label(text: str | None) -> str:
    """A label or a conclusion in the form labels are compared in: Traditional script, lower case, no spaces,
    quotes, brackets or punctuation («「中風險」。» → 「中風險」)."""
    return to_traditional(_LABEL_BREAK.sub("", _LABEL_STRIP.sub("", text or ""))).lower()


def _label_text(text: str) -> str:
    """`norm_label` that keeps each clause break as one mark (so a negation does not reach across it)."""
    return to_traditional(_LABEL_BREAK.sub(_LABEL_BREAK_MARK, _LABEL_STRIP.sub("", text))).lower()


def read_label(conclusion: str | None, labels: dict[str, str | None]) -> str | None:
    """The one label a categorical conclusion names, or None when it names none, or several (alternatives:
    «穩健型或積極型», «積極型，也可能是穩健型»), or is uncertain («可能是穩健型», «大概是高風險»). `labels` maps each
    label (`norm_label` form) to the label it negates when it is a negated form («非乙方案» → 「乙方案」), else None.
    A label after a negation (`stance_before`: «不選乙方案», «而非乙方案», «沒有被列為高風險») or a rejector
    («甲方案優於乙方案», «排除乙方案») is rejected, not named; «中高風險» (a label glued to another's first
    character) cannot be read. The same negation, uncertainty and alternatives rules as yes/no answers."""
    if not conclusion or is_uncertain(corrected(to_traditional(normalize(conclusion)))):
        return None
    text = _label_text(normalize(conclusion))
    initials = {lab[0] for lab in labels if lab}
    named: set[str] = set()
    rejected: set[str] = set()
    negated_forms: set[str] = set()
    taken = [False] * len(text)
    for lab in sorted(labels, key=len, reverse=True):
        start = text.find(lab)
        while lab and start >= 0:
            span = range(start, start + len(lab))
            if not any(taken[i] for i in span):
                for i in span:
                    taken[i] = True
                # 「中高風險」, 「中至高風險」: glued or joined to another label's first character — no single label
                if start > 0 and not taken[start - 1] and (text[start - 1] in initials or (
                        text[start - 1] in LABEL_RANGE_JOINERS and start > 1 and text[start - 2] in initials)):
                    return None
                stance = stance_before(text, start)
                if labels[lab] is not None:  # 「非乙方案」: a negated form rejects its label
                    negated_forms.add(lab)
                    rejected.add(labels[lab])
                elif stance == UNCERTAIN:  # 「甲方案，乙方案也許更好」 is not a conclusion for 乙方案 — nor for 甲方案
                    return None
                elif stance == NEGATED or _REJECTOR.search(text, 0, start):
                    rejected.add(lab)
                else:
                    named.add(lab)
            start = text.find(lab, start + 1)
    named -= rejected
    if not named and len(negated_forms) == 1:  # 「無須申報」 alone: a label of its own
        named = negated_forms
    # exactly one label named and not rejected («選擇甲方案，不選乙方案», «甲方案，而非乙方案» are 甲方案); a
    # conclusion that only rejects labels («不屬於高風險») or names two cannot decide
    return named.pop() if len(named) == 1 else None


def extract_yes_no(output: str | None, question: str | None = None) -> tuple[str, str | None]:
    """(mode, 'yes'/'no'/None). A refusal in the strict answer gives mode ``refusal``."""
    text = strip_think(output)
    seg = answer_segment(text)
    if seg is not None:
        first = _first_lines(seg, 1)
        if is_refusal(first):
            return REFUSAL, None
        got = classify_yes_no(first, question)
        if got:
            return STRICT, got
    elif refuses_at_end(text) and last_boxed(text) is None:
        return REFUSAL, None
    boxed = last_boxed(text)
    if boxed is not None and classify_yes_no(boxed):
        return BOXED, classify_yes_no(boxed)
    lines = content_lines(text)
    if lines and not is_refusal(lines[-1]):
        found = list(_YES_NO_ANY.finditer(lines[-1]))
        if found:
            word = found[-1].group(0).lower()
            return LAST_LINE, "no" if word in {"no", "不是", "否"} else "yes"
    return NONE, None


# ---- multiple choice --------------------------------------------------------------------------------------
_LEAD = re.compile(r"^[ \t*「『\"'\[]{0,10}" + f"(?:{alternation(CHOICE_LEADS)})?" + r"[ \t]{0,3}", re.I)
_CODE_SEQ = re.compile(r"[(（]?\s*([A-Da-d]|[1-4])\s*[)）]?(?![A-Za-z0-9])")
_LETTER_RUN = re.compile(r"[(（]?([A-Da-d]{2,4})[)）]?(?![A-Za-z])")
_SEP = re.compile(r"[ \t]{0,3}" + f"(?:{alternation(CHOICE_JOINERS)}|" + r"[ \t])[ \t]{0,3}", re.I)
# Circled and parenthesised digits as option codes: ③ / ⑶ / ❸ → (3).
_CIRCLED = {0x2460 + i: f"({i + 1})" for i in range(4)}
_CIRCLED.update({0x2474 + i: f"({i + 1})" for i in range(4)})
_CIRCLED.update({0x2776 + i: f"({i + 1})" for i in range(4)})
_LOOSE_LETTER = re.compile(r"(?<![A-Za-z])[A-D](?![A-Za-z])")


def parse_choice_codes(text: str | None) -> list[str]:
    """Option codes at the start of an answer: 「B」, 「(2)」, 「A、C」, 「(A)(C)」, 「AC」, 「③」, 「選項 B：…」,
    "B and D".
    Codes come back upper-case letters or digits, in order, without duplicates."""
    if not text:
        return []
    t = clean_latex(normalize(text)).translate(_CIRCLED).strip()
    t = t.split("\n", 1)[0]
    pos = _LEAD.match(t).end()
    run = _LETTER_RUN.match(t, pos)
    if run:  # 「AC」, 「ABD」: a multi-answer written as one run of letters
        return list(dict.fromkeys(run.group(1).upper()))
    codes: list[str] = []
    while True:
        m = _CODE_SEQ.match(t, pos)
        if not m:
            break
        code = m.group(1).upper()
        if code not in codes:
            codes.append(code)
        pos = m.end()
        if m.group(0).rstrip().endswith((")", "）")) and t.startswith(("(", "（"), pos):
            continue  # 「(A)(C)」: bracketed codes need no separator
        sep = _SEP.match(t, pos)
        if not sep or sep.end() == pos:
            break
        nxt = _CODE_SEQ.match(t, sep.end())
        if not nxt:
            break
        pos = sep.end()
    if not codes:  # 「正確答案應為 B」: the upper-case letters standing alone on the line
        codes = list(dict.fromkeys(_LOOSE_LETTER.findall(t)))
    return codes


def extract_choice(output: str | None) -> tuple[str, list[str]]:
    """(mode, codes) from 「答案：」, then \\boxed{}, then a last line that holds only codes."""
    text = strip_think(output)
    seg = answer_segment(text)
    if seg is not None:
        codes = parse_choice_codes(_first_lines(seg, 1))
        if codes:
            return STRICT, codes
    boxed = last_boxed(text)
    if boxed is not None:
        codes = parse_choice_codes(boxed)
        if codes:
            return BOXED, codes
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if lines and re.fullmatch(r"[\s(（]*[A-D1-4][\s)）.,、A-D1-4和及與]*", normalize(lines[-1]).strip()):
        return LAST_LINE, parse_choice_codes(lines[-1])
    return NONE, []


# ---- free-text conclusions --------------------------------------------------------------------------------
def extract_conclusion(output: str | None) -> tuple[str, str | None]:
    """(mode, text) of a categorical conclusion: the strict segment's first line, else \\boxed{}, else the
    last non-empty line (closing courtesies aside) — mode ``refusal`` when that line declines."""
    text = strip_think(output)
    seg = answer_segment(text)
    if seg is not None and seg.strip():
        return STRICT, corrected(clean_latex(_first_lines(seg, 1))).strip()
    boxed = last_boxed(text)
    if boxed is not None and boxed.strip():
        return BOXED, clean_latex(boxed).strip()
    lines = content_lines(text)
    if lines and is_refusal(lines[-1]):  # no answer line, and the reply ends by declining
        return REFUSAL, clean_latex(lines[-1]).strip()
    if lines:
        return LAST_LINE, clean_latex(lines[-1]).strip()
    return NONE, None


def recall_text(output: str | None) -> str:
    """The visible output as step_recall reads it: think removed, LaTeX unwrapped, and the 「步驟 N：」
    labels blanked (their N is not a value)."""
    return _STEP_LABEL.sub(" ", clean_latex(strip_think(output)))


"""Matching an extracted answer against the gold answer — the one place for every matching rule.

Numeric tolerance
    A prediction p matches gold g when ``|p - g| <= abs_tol`` or ``|p - g| <= rel_tol * |g|``
    (defaults rel_tol = 0.01, abs_tol = 0.005; both configurable through ``Tolerance``). In percent
    questions p and g are percentage points (rule 2).

Readings of a predicted number (see ``numbers.py``)
    *value* = the numeral with its unit applied (「1.2億」 → 120,000,000; 「14.1%」 → 0.141; 「25 bps」 →
    0.0025, or 25 when the question asks for basis points); *bare* = the numeral as written (1.2, 14.1, 25).

Rules; the one that fires is recorded as ``path``:
- Percent questions use one rule, ``percent``: everything is compared in percentage points, P = 100·f,
  where f is the gold as a fraction: f = g, except when the gold answer string ends with "%" and its
  numeral equals g (the gold value is already in percentage points, e.g. answer "16.93%", value
  16.938) — then f = g / 100. The numeral x as written matches when x ≈ P (14.1, 14.1%) or 100·x ≈ P
  (0.141), whether or not a % is written; a basis-point answer counts by its value (25 bps = 0.25
  points). So for gold 0.141 the answers 0.141, 14.1, 14.1% and 14% (0.7% relative) match; for gold
  value 16.938 with answer "16.93%" the answers 16.94%, 16.94 and 0.1694 match. Working in points keeps
  the absolute tolerance meaningful — 0.005 of a point, not half a point (gold 2.59%: 2.85% is wrong).
  A question is a percent question when the gold answer string ends with "%"; or — unless the gold
  string carries a currency or unit ($, 元, 倍, 萬, 億, 千, 股, 次, 天, 年, bps, 基點) — when the question
  (zh-TW, and the English original when given) asks for one (`vocabulary.PERCENT_CUES`): 百分比, 百分率,
  百分點, 百分之, 比例, 比重, 佔比, 成長率, 增長率, 增加率, 減少率, 下降率, 變動率, 變化率, 報酬率, 收益率,
  殖利率, 利潤率, 毛利率, 淨利率, 利率, 稅率, any other 「…率」 but 比率/倍率/匯率/頻率/效率 (攤銷率, 違約率),
  「以 % 表示」, 「（%）」, 「單位：%」, "percent(age)", "growth rate", "rate of return", "portion",
  "proportion", "in %" — not 比率 (「A 與 B 的比率」 is a ratio) nor a named ratio (夏普比率, 流動比率 …,
  `vocabulary.NAMED_RATIOS`), and it does not ask for a multiple (以倍數表示, 幾倍, 倍數, 多少倍, 「（倍）」,
  "times") or for basis points (基點, bps). A "%" that only appears in the set-up
  (「權益占 55%」) does not make a percent question.
  Known leniency, chosen on purpose: because a % sign is not used to rescale, "0.141%" also matches
  gold 0.141 — FinQA gold values are sometimes in percentage points without a % in the gold string,
  and rejecting "16.94%" there would be the worse error. Exact golds (FinChain, ``display_decides``) get
  none: a written % is percent there («0.0825%» is wrong for 8.25%).
- Other questions: ``value`` — the value with its unit ≈ g (「1.2億」 for 120,000,000; 「127.5%」 for
  1.275); else ``bare_numeral`` — the answer carries a unit or % and its bare numeral ≈ g (「94 百萬美元」
  for gold 94 from a table in millions: the unit restates the table's scale). The bare-numeral path is
  accepted and counted as ``bare_numeral_decided`` in every report so that scale mistakes stay visible.
Signs count (-94 never matches 94), with two exceptions where either sign is right, each its own ``path``:
- ``direction_in_question``: the asked clause names the decrease («減少了多少», «減幅», "percentage decrease") —
  the sign is in the question, so 「7.95%」 matches gold −0.0795;
- ``undirected_difference``: the asked clause asks an undirected difference («相差多少», «差額», «差距», «差異為多少»,
  «之間的差», «A 和/與 B 的差», "the difference (in X) between A and B", "how much do A and B differ"; a ConvFinQA
  turn by its own question, «那差額是多少？») — A − B and B − A are both right, so 41 and −41 both match gold −41.
  It does not fire when anything in the question (zh-TW or the English original, outside brackets) gives the
  difference a direction — a change or movement (變動/變化/增減/增加/減少/成長/下降 …), an order («從 A 到 B», «由 A 至
  B», «2018 至 2019 年», «較 A», «A 比 B 多/少/高/低», «超出», «高出», «相對於»), a subtraction («A 減 B», «扣除», "A
  minus B"), "change", "increase", "decrease", "from … to", "more/less/higher/lower" — nor when the question asks for
  a sign, brackets included («以正數表示», «減少時為負值», «以絕對值表示», "negative if"). The magnitude must still match.

yes/no: gold "yes"/"no" (also 是/否) against the answer's first word (是/否/不是/對/yes/no …).
Multiple choice: the set of option codes must equal the gold set exactly; a number answer to a letter
question (or the reverse) is mapped 1↔A … 4↔D and counted as ``cross_format``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tw_fin_eval.answers import extract
from tw_fin_eval.answers.numbers import Num, normalize, parse_number
from tw_fin_eval.answers.vocabulary import (
    ASK_WORDS,
    BPS_CUES,
    DECREASE_ASK_EN,
    DECREASE_ASKED,
    DECREASE_NOUNS,
    DECREASE_VERBS,
    DIRECTED_DIFFERENCE,
    LOSS_ASKED,
    LOSS_BALANCES,
    LOSS_CHANGE_WORDS,
    LOSS_EITHER_WAY,
    LOSS_INCREASE_WORDS,
    LOSS_NOT_THE_AMOUNT,
    LOSS_RESULTS,
    NAMED_RATIOS,
    NO_GOLD_WORDS,
    NON_PERCENT_RATE_BEFORE,
    NOT_PERCENT_GOLD_MARKS,
    PERCENT_CUES,
    POINT_UNITS,
    QUESTION_CONVERT_WORDS,
    QUESTION_COUNT_UNITS,
    QUESTION_SCALE_CURRENCIES,
    QUESTION_SCALE_UNITS,
    QUESTION_SCALE_WORDS,
    QUESTION_SCALE_WORDS_EN,
    RATE_LABEL_CUES,
    SCALE_WORDS,
    SIGN_ASKED,
    TIMES_CUES,
    UNDIRECTED_DIFFERENCE,
    YES_GOLD_WORDS,
    alternation,
)
from tw_fin_eval.schema import DEFAULT_TOLERANCE, Tolerance, display_number

PATH_VALUE = "value"
PATH_PERCENT = "percent"
PATH_BARE = "bare_numeral"
PATH_SCALE = "question_unit"  # 「5,000 萬美元」 for gold 50 when the question asks in 百萬美元
PATH_CONTEXT = "context_unit"  # 「7.72 億美元」 for gold 772 when the record's unit (answer_scale) is millions
PATH_POINTS = "percentage_points"  # 「16.58 個百分點」 for a gold of 16.58 percentage points
PATH_UNSIGNED = "direction_in_question"  # 「7.95%」 for gold −0.0795 when the question asks for the decrease
PATH_UNDIRECTED = "undirected_difference"  # 「41」 for gold −41 when the question asks 「這兩個數值的差額」
PATH_LOSS = "loss_named"  # 「-9,402」 for gold 9402 when the question asks 「累積其他綜合損失總額是多少」


# ---- what the question asks for ------------------------------------------------------------------------
_PARENS = re.compile(r"[（(]([^（）()]*)[)）]")
_CLAUSE = re.compile(r"[，,。；;？?！!]")
_ASKS = re.compile(alternation(ASK_WORDS), re.I)


@functools.lru_cache(maxsize=8192)
def asked_part(question: str | None) -> tuple[str, str]:
    """(asked clause, instructions) of a question: the last clause that asks something, outside
    brackets, and the bracketed instructions («（以百分比表示，四捨五入至小數點後第 2 位）»). The set-up before
    it («所得稅率 20%，…») is not what is asked."""
    if not question:
        return "", ""
    q = normalize(question)
    instructions = " ".join(_PARENS.findall(q))
    bare = _PARENS.sub(" ", q)
    clauses = [c for c in _CLAUSE.split(bare) if c.strip()]
    asked = next((c for c in reversed(clauses) if _ASKS.search(c)), clauses[-1] if clauses else "")
    return asked, instructions


# Named ratios and multiples are not percentages (夏普比率 0.52, 流動比率 1.11, A 與 B 的比率 1.59).
_NAMED_RATIOS = re.compile(alternation(NAMED_RATIOS), re.I)
_PERCENT_WORDS = alternation(PERCENT_CUES)
# any other 「…率」 an asked clause names is a rate in percent (攤銷率, 折舊率, 違約率, 使用率) — except the ratios and
# non-percent rates below (named ratios are removed before this test)
_OTHER_RATE = f"(?<![{NON_PERCENT_RATE_BEFORE}])率"
_PERCENT_ASK = re.compile(_PERCENT_WORDS + r"|" + _OTHER_RATE + r"|以 ?% ?表示|^ ?% ?$|單位 ?[:：]? ?%|in %", re.I)
# A step label that names a rate (step_recall also tries 100× for these).
_PERCENT_CUES = re.compile(_PERCENT_WORDS + "|" + alternation(RATE_LABEL_CUES), re.I)
_TIMES_CUES = re.compile(alternation(TIMES_CUES), re.I)
# A gold display string with a currency or a unit is not a percentage (「NT$0.16」, 「1.52 倍」).
_NOT_PERCENT_GOLD = re.compile(alternation(NOT_PERCENT_GOLD_MARKS), re.I)


@functools.lru_cache(maxsize=8192)
def _question_asks_percent(question: str) -> bool:
    asked, instructions = asked_part(question)
    parts = [_NAMED_RATIOS.sub(" ", asked)] + [_NAMED_RATIOS.sub(" ", i) for i in _PARENS.findall(normalize(question))]
    if any(_TIMES_CUES.search(p) for p in parts):
        return False
    return any(_PERCENT_ASK.search(p) for p in parts) or bool(instructions and _PERCENT_ASK.search(instructions))


def is_percent_question(gold_answer: str | None, *questions: str | None, display_decides: bool = False) -> bool:
    """A percent question: the gold display string ends with "%"; or — unless the display string decides
    (FinChain golds are displayed in the asked scale) or carries a currency/unit — the question's asked
    clause or its bracketed instructions ask for a percentage, not for a named ratio or a multiple."""
    if gold_answer is not None:
        g = normalize(str(gold_answer)).strip()
        if g.endswith("%"):
            return True
        if display_decides or _NOT_PERCENT_GOLD.search(g):
            return False
    if is_bps_question(*questions):  # 「殖利率上升幾個基點」 asks for basis points
        return False
    return any(q and _question_asks_percent(q) for q in questions)


def is_bps_question(*questions: str | None) -> bool:
    return any(q and any(cue in q.lower() for cue in BPS_CUES) for q in questions)


# The asked quantity is a decrease: 「減少了多少」, 「下降的百分比」 (Taiwan filings write 「下降之百分比」), 「減幅」,
# "percentage decrease", "decline in".
_DIRECTION = re.compile(f"(?:{alternation(DECREASE_VERBS)})" + r"了?(?:百分之)?(?:多少|幾|[的之]?" + f"(?:{alternation(DECREASE_ASKED)}))|"
                        + alternation(DECREASE_NOUNS) + f"|\\b(?:{alternation(DECREASE_ASK_EN)})\\b", re.I)


def direction_in_question(*questions: str | None) -> bool:
    """The asked clause names the direction («減少了多少», "percentage decrease"): the sign is in the question,
    so an answer of the same magnitude counts with either sign. Bracketed instructions («減少時為負值»)
    do not count: they ask for a sign."""
    return any(q and _DIRECTION.search(asked_part(q)[0]) for q in questions)


_UNDIRECTED = re.compile(alternation(UNDIRECTED_DIFFERENCE), re.I)
_DIRECTED = re.compile(alternation(DIRECTED_DIFFERENCE), re.I)
_SIGN_ASKED = re.compile(alternation(SIGN_ASKED), re.I)


@functools.lru_cache(maxsize=8192)
def _directed(question: str) -> bool:
    """The question gives a direction (outside brackets: «從 A 到 B», «變動», «較», "change", "minus") or asks for a
    sign (anywhere, brackets included: «以正數表示», «減少時為負值», "negative if")."""
    q = normalize(question)
    return bool(_DIRECTED.search(_PARENS.sub(" ", q)) or _SIGN_ASKED.search(q))


def undirected_difference(*questions: str | None) -> bool:
    """The asked clause of a question (zh-TW or the English original) asks an undirected difference («相差多少»,
    «差額», «差距», «A 與 B 之間的差», "the difference between A and B", "how much do A and B differ") and no
    question gives it a direction or asks for a sign: A − B and B − A are both right, so the magnitude counts
    with either sign. Conservative on purpose — one directed word anywhere in either question keeps the sign."""
    qs = [q for q in questions if q]
    return (any(_UNDIRECTED.search(asked_part(q)[0]) for q in qs)
            and not any(_directed(q) for q in qs))


_LOSS_ASKED = re.compile(alternation(LOSS_ASKED), re.I)
_LOSS_EITHER_WAY = re.compile(alternation(LOSS_EITHER_WAY), re.I)
_LOSS_BALANCES = re.compile(alternation(LOSS_BALANCES), re.I)
_LOSS_RESULTS = re.compile(alternation(LOSS_RESULTS), re.I)
_LOSS_CHANGE = re.compile(alternation(LOSS_CHANGE_WORDS), re.I)
_LOSS_NOT_THE_AMOUNT = re.compile(alternation(LOSS_NOT_THE_AMOUNT), re.I)
_INCREASE_ASKED = re.compile(alternation(LOSS_INCREASE_WORDS), re.I)


@functools.lru_cache(maxsize=8192)
def _loss_named(question: str) -> bool:
    asked = asked_part(question)[0]
    if (_SIGN_ASKED.search(normalize(question)) or _LOSS_EITHER_WAY.search(asked) or _LOSS_BALANCES.search(asked)
            or _LOSS_NOT_THE_AMOUNT.search(asked)):
        return False
    if _INCREASE_ASKED.search(asked):
        return False  # «虧損增加了多少» asks the growth: positive
    if _LOSS_CHANGE.search(asked):
        return bool(_LOSS_RESULTS.search(asked))
    return bool(_LOSS_ASKED.search(asked))


def loss_named(*questions: str | None) -> bool:
    """The asked clause names a loss or an outflow as the quantity (vocabulary `LOSS_ASKED`): its amount
    («2015 年的累積其他綜合損失總額是多少», «投資活動之現金流出是多少») or a neutral change of a net loss, an
    accumulated comprehensive loss or an outflow («累積其他綜合損失總額的淨變動»). Filings print such amounts
    with either sign, and the word gives the direction, so the magnitude counts with either sign. Not a
    gain-or-loss, a loss allowance or reserve, an increase asked, an arithmetic result or a headroom, or a
    question that asks for a sign."""
    return any(q and _loss_named(q) for q in questions)


def sign_free(*questions: str | None) -> str | None:
    """The rule under which the sign of an answer does not count (its `path`), or None: the question names the
    decrease (`direction_in_question`), asks an undirected difference (`undirected_difference`) or names a loss
    or an outflow as the asked quantity (`loss_named`)."""
    if direction_in_question(*questions):
        return PATH_UNSIGNED
    if undirected_difference(*questions):
        return PATH_UNDIRECTED
    if loss_named(*questions):
        return PATH_LOSS
    return None


_SCALES = alternation(QUESTION_SCALE_WORDS)
_SCALE = re.compile(r"(?:(?:以|單位[:：]?|[（(])\s*" + f"(?:{alternation(QUESTION_SCALE_CURRENCIES)})?" + r"\s*"
                    + f"({_SCALES}|{alternation(QUESTION_SCALE_WORDS_EN)})"
                    + f"(?:{alternation(QUESTION_SCALE_UNITS)})?" + r"\s*(?:計|表示|[)）])"
                    # 「換算成十億美元是多少」, 「減少了多少百萬股」: the unit the asked amount is stated in
                    + f"|(?:{alternation(QUESTION_CONVERT_WORDS)})" + r"\s*" + f"({_SCALES})"
                    r"|(?:多少|幾)\s*" + f"({_SCALES})" + f"(?:{alternation(QUESTION_COUNT_UNITS)}))", re.I)
_SCALE_FACTOR = SCALE_WORDS


@functools.lru_cache(maxsize=8192)
def _question_scale(question: str) -> float | None:
    m = _SCALE.search(normalize(question))
    return _SCALE_FACTOR[next(g for g in m.groups() if g).lower().rstrip("s")] if m else None


def question_scale(*questions: str | None) -> float | None:
    """The unit the question asks in («（百萬美元）», «以千元計»), or None."""
    return next((f for q in questions if q and (f := _question_scale(q))), None)


# ---- the tolerance a stated rounding implies (FinChain) -------------------------------------------------
_CJK_SMALL_NUM = {"一": 1, "二": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6}
_ROUNDING = re.compile(r"(?:小數點?後?第?\s*([0-9一二兩三四五六])\s*位)|(?:四捨五入|取)(?:至|到)?整數")
_DISPLAY_DECIMALS = re.compile(r"\.(\d+)")


def stated_decimals(record: Mapping[str, Any]) -> int | None:
    """The decimals a FinChain answer is asked in: the record's `answer_decimals` when it declares one, else
    the question's rounding («四捨五入至小數點後第 2 位», «取到小數第四位», «四捨五入至整數元» → 0), else the
    decimals of the displayed gold («NT$16,800» → 0). None when there is no display either."""
    declared = record.get("answer_decimals")
    if isinstance(declared, int) and not isinstance(declared, bool) and declared >= 0:
        return declared
    m = _ROUNDING.search(normalize(str(record.get("question") or "")))
    if m:
        d = m.group(1)
        return 0 if d is None else int(d) if d.isdigit() else _CJK_SMALL_NUM[d]
    shown = record.get("answer")
    if isinstance(shown, str) and re.search(r"\d", shown):
        dm = _DISPLAY_DECIMALS.search(normalize(shown))
        return len(dm.group(1)) if dm else 0
    return None


def gold_fraction(gold_value: float, gold_answer: str | None) -> float:
    """The gold as a fraction in a percent question (see rule 2 in the module docstring)."""
    if gold_answer is not None and normalize(str(gold_answer)).strip().endswith("%"):
        n = parse_number(str(gold_answer))
        if n is not None and DEFAULT_TOLERANCE.close(n.bare, gold_value) and not DEFAULT_TOLERANCE.close(n.value, gold_value):
            return gold_value / 100.0
    return gold_value


def number_matches(num: Num, gold_value: float, *, percent_question: bool = False, bps_question: bool = False,
                   gold_answer: str | None = None, tol: Tolerance = DEFAULT_TOLERANCE, scale: float | None = None,
                   either_sign: bool | str | None = None, context_scale: float | None = None,
                   exact: bool = False) -> str | None:
    """The path by which `num` matches the gold, or None. `scale` is the unit the question asks in,
    `context_scale` the unit the gold is counted in (the record's `answer_scale`, e.g. 1e6); `exact`: the gold
    display is exact (FinChain), so a written % means percent — no percentage-points leniency. `either_sign`: the
    magnitude counts with either sign — the path to record (`sign_free`), or True for `direction_in_question`."""
    path = _number_matches(num, gold_value, percent_question, bps_question, gold_answer, tol, scale, context_scale,
                           exact)
    if path is None and either_sign and num.bare != 0:
        flipped = Num(num.text, num.start, num.end, -num.bare, num.unit, num.multiplier, num.currency)
        if _number_matches(flipped, gold_value, percent_question, bps_question, gold_answer, tol, scale,
                           context_scale, exact):
            return either_sign if isinstance(either_sign, str) else PATH_UNSIGNED
    return path


_CJK_SCALE_CHARS = re.compile(r"[萬億兆]")  # 「一億九千二百萬」 states its unit in its numerals


def _number_matches(num: Num, gold_value: float, percent_question: bool, bps_question: bool,
                    gold_answer: str | None, tol: Tolerance, scale: float | None,
                    context_scale: float | None = None, exact: bool = False) -> str | None:
    if percent_question:
        # Compared in percentage points, so the absolute tolerance means 0.005 points, not 0.5 points.
        points = 100.0 * gold_fraction(gold_value, gold_answer)
        if exact and num.percent:  # an exact gold: 「0.0825%」 is 0.0825 points, never 8.25
            return PATH_PERCENT if tol.close(num.bare, points) else None
        if tol.close(num.bare, points) or tol.close(100.0 * num.bare, points) or tol.close(100.0 * num.value, points):
            return PATH_PERCENT
        return None
    value = num.bare if (num.bps and bps_question) else num.value
    if tol.close(value, gold_value):
        return PATH_VALUE
    # a basis-point question answered in percentage points or %: 「0.11 個百分點」 = 11 bps
    if bps_question and num.percent and tol.close(100.0 * num.bare, gold_value):
        return PATH_VALUE
    # the amount restated in another unit, written with that unit (「5,000 萬美元」, 「$ 50,000,000」) — a bare
    # 125,504,486 for 「換算成百萬是多少」 is the figure the question asked to convert, not an answer in millions
    if scale and (num.multiplier not in (0.01, 1.0) or num.currency or _CJK_SCALE_CHARS.search(num.text)):
        if tol.close(value, gold_value * scale):
            return PATH_SCALE
    # the same amount restated in another unit: 「7.72 億美元」 or 「772,000,000」 for 772 (millions)
    if context_scale and not scale and not num.percent and num.multiplier != 0.01 \
            and tol.close(value, gold_value * context_scale):
        return PATH_CONTEXT
    if num.multiplier != 1.0 and not num.percent and tol.close(num.bare, gold_value):
        # 「45.2 億美元」 for 45.2 from a table in millions is 100× off: when the gold's unit is known (the record's
        # answer_scale or the question's own unit), a stated scale other than it contradicts it
        if (scale is not None or context_scale is not None) and num.unit in SCALE_WORDS:
            return None
        return PATH_BARE
    # 「減少 16.58 個百分點」 for a gold counted in percentage points (displayed −16.58, not as a percent)
    if any(u in num.text for u in POINT_UNITS) and tol.close(num.bare, gold_value):
        return PATH_POINTS
    return None


@dataclass(frozen=True)
class Match:
    correct: bool  # the strict reading (the headline verdict)
    mode: str  # extraction mode (strict / boxed / last_number / last_line / refusal / none)
    extracted: str | None
    path: str | None = None  # which rule decided a numeric match
    flexible: bool | None = None  # right with the flexible fallbacks (\boxed{}, last number / line)
    ambiguous: bool = False  # a range or alternatives in the answer line
    refused: bool = False


def match_numeric(output: str | None, gold_value: float, *, gold_answer: str | None = None,
                  questions: Iterable[str | None] = (), tol: Tolerance = DEFAULT_TOLERANCE,
                  display_decides: bool = False, answer_scale: int | None = None) -> Match:
    """`answer_scale`: the power of ten the gold is counted in (the record's `answer_scale`), if known."""
    qs = list(questions)
    ext = extract.extract_number(output)
    refused = ext.mode == extract.REFUSAL or (ext.mode != extract.STRICT and extract.is_refusal(
        extract.answer_segment(extract.strip_think(output)) or ""))
    if ext.num is None:
        return Match(False, ext.mode, None, ambiguous=ext.ambiguous, flexible=False, refused=refused)
    path = number_matches(ext.num, gold_value,
                          percent_question=is_percent_question(gold_answer, *qs, display_decides=display_decides),
                          bps_question=is_bps_question(*qs), gold_answer=gold_answer, tol=tol,
                          scale=question_scale(*qs), either_sign=sign_free(*qs),
                          context_scale=None if answer_scale is None else 10.0 ** answer_scale,
                          exact=display_decides)
    ok = path is not None
    return Match(ok and ext.mode == extract.STRICT, ext.mode, ext.extracted, path, flexible=ok, refused=refused)


_YES_WORDS = YES_GOLD_WORDS
_NO_WORDS = NO_GOLD_WORDS


def normalize_yes_no(gold: str) -> str | None:
    g = str(gold).strip().lower()
    if g in _YES_WORDS:
        return "yes"
    if g in _NO_WORDS:
        return "no"
    return None


def match_yes_no(output: str | None, gold: str, question: str | None = None) -> Match:
    want = normalize_yes_no(gold)
    mode, got = extract.extract_yes_no(output, question)
    ok = got is not None and got == want
    return Match(ok and mode == extract.STRICT, mode, got, flexible=ok, refused=mode == extract.REFUSAL)


_LETTERS = "ABCD"


def _to_format(code: str, option_format: str | None) -> tuple[str, bool]:
    """Map a code to the question's option format; the bool says whether it had to be converted."""
    if option_format == "letter" and code.isdigit() and 1 <= int(code) <= 4:
        return _LETTERS[int(code) - 1], True
    if option_format == "number" and code in _LETTERS:
        return str(_LETTERS.index(code) + 1), True
    return code, False


@dataclass(frozen=True)
class ChoiceMatch:
    correct: bool
    mode: str
    predicted: list[str]
    cross_format: bool


def match_choice(output: str | None, gold: Iterable[str], option_format: str | None = None) -> ChoiceMatch:
    """Exact set match of option codes (a multi-answer question needs all of them and nothing else)."""
    gold_codes = {normalize(str(g)).strip().strip("()（）").upper() for g in gold}
    if option_format is None:
        option_format = "number" if all(c.isdigit() for c in gold_codes) else "letter"
    mode, codes = extract.extract_choice(output)
    mapped, cross = [], False
    for c in codes:
        m, converted = _to_format(c, option_format)
        cross = cross or converted
        if m not in mapped:
            mapped.append(m)
    return ChoiceMatch(bool(mapped) and set(mapped) == gold_codes, mode, mapped, cross)


def gold_value_from_string(text: str) -> float | None:
    """A gold numeric value from its display string ("94", "14.1%" → 0.141, "1.2億" → 1.2e8)."""
    n = parse_number(str(text))
    return None if n is None else n.value


def answer_matches(answer: str, gold_value: float | None, *, gold_answer: str | None = None,
                   questions: Iterable[str | None] = (), tol: Tolerance = DEFAULT_TOLERANCE) -> bool:
    """Whether the model answer text `answer` is right for this gold by the strict reading (the answer after
    the last 「答案：」) — numeric when `gold_value` is a number, else yes/no against `gold_answer`."""
    if gold_value is None:
        return match_yes_no(answer, gold_answer or "").correct
    m = match_numeric(answer, float(gold_value), gold_answer=gold_answer, questions=questions, tol=tol)
    return m.correct and m.mode == extract.STRICT


# A display string is a number, optionally signed, with "$" and "%" ("$ 1,877", "-3.5%"), nothing else.
_PLAIN_DISPLAY = re.compile(r"[-+]?\s?\$?\s?[-+]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)\s?%?")


def _last_place(text: str) -> float:
    """The unit of a plain number's last significant digit: 「822.06」 0.01, 「7304」 1, 「2270000」 10^4."""
    digits = re.sub(r"[^\d.]", "", normalize(text))
    if "." in digits:
        return 10.0 ** -len(digits.split(".", 1)[1])
    kept = digits.rstrip("0")
    return 10.0 ** (len(digits) - len(kept)) if kept else 1.0


def gold_display(human: str | None, gold_value: float, *, questions: Iterable[str | None] = ()) -> str:
    """The display string of a numeric gold, chosen so that "答案：" + it is accepted by the scorer:
    1. the human string (FinQA/ConvFinQA's `answer`) when it is a plain number ("$ 1,877", "-3.5%") that states the value (its value — "14%" is 0.14 —
       within the default tolerance of the gold, its digits the value's rounded at its last place) and the
       scorer accepts it as it stands;
    2. else, when it states the value but too roughly for the scorer ("14%" for 0.14464), the same style (percent or plain) with the fewest decimals that the scorer accepts
       within half its tolerance ("14.5%", "5.85%");
    3. else the executed value (`display_number`: "-0.09709").
    """
    qs = list(questions)
    if human is not None and str(human).strip():
        h = str(human).strip()
        num = parse_number(h) if _PLAIN_DISPLAY.fullmatch(h) else None
        # the human string must state the value itself (its value within the tolerance: "142.4%" for
        # 1.42403, not "360" for 3.6) — then the scorer decides whether it is precise enough
        if num is not None and DEFAULT_TOLERANCE.close(num.value, gold_value):
            plain = normalize(h)
            percent = plain.endswith("%")
            shown = 100.0 * gold_value if percent else gold_value
            # kept only if its digits are the value rounded at its own last place ("2270000" for 2,272,727; an
            # integer's trailing zeros are not significant): "7304" for 7,301 is a slip the model would read as gold
            # history, and "822.06" for 822.0667 or "163%" for 163.8% a cut a reader takes for a wrong answer
            if abs((100.0 * num.value if percent else num.value) - shown) <= _last_place(h) * (0.5 + 1e-6) \
                    and answer_matches("答案：" + h, gold_value, gold_answer=h, questions=qs):
                return h
            decimals = len(plain.split(".", 1)[1].rstrip("%").strip()) if "." in plain else 0
            for d in range(min(decimals, 6), 7):  # no fewer decimals than the human string shows
                cand = f"{shown:.{d}f}" + ("%" if percent else "")
                if answer_matches("答案：" + cand, gold_value, gold_answer=cand, questions=qs,
                                  tol=DEFAULT_TOLERANCE.halved()):
                    return cand
    return display_number(gold_value)

"""Gold answers written as model outputs, in the realistic formats models use, and the wrong answers models
write — what `selfcheck` feeds the scorer. Each task scorer picks its writer (`TaskScorer.gold_output`,
`corrupt_output`, `off_by_ten_output`); the format is chosen from a hash of the item id (deterministic)."""

from __future__ import annotations

import math
import re
import zlib
from collections.abc import Sequence
from typing import Any

from tw_fin_eval.answers import match

_ANSWER_MARK = re.compile(r"答案[:：]")
_FULLWIDTH_DIGITS = str.maketrans("0123456789.", "０１２３４５６７８９．")


def plain(x: float, decimals: int | None = None) -> str:
    """A number as a model writes it: no exponent, no float noise (6 significant digits or the integer; or
    rounded to the `decimals` the question asks for)."""
    if decimals is not None:
        return f"{x:.{max(0, decimals)}f}"
    if x == 0:
        return "0"
    if abs(x) >= 1e6:
        return f"{x:.0f}" if abs(x - round(x)) < 1e-9 * abs(x) + 1e-9 else f"{x:.2f}"
    s = f"{x:.6g}"
    if "e" in s:
        s = f"{x:.12f}".rstrip("0").rstrip(".")
    return s


def pick(key: str, n: int) -> int:
    return zlib.crc32(key.encode("utf-8")) % n


def gold_of(record: dict[str, Any], turn: int | None) -> tuple[dict[str, Any], list[str | None]]:
    if turn is not None:
        t = record["turns"][turn]
        return t, [t.get("question")]
    return record, [record.get("question")]


def numeric_text(value: float, gold_answer: str | None, questions: Sequence[str | None], key: str, *,
                 display_decides: bool = False, decimals: int | None = None, answer_scale: int | None = None) -> str:
    """One realistic rendering of a numeric answer (the value may be the gold or a corrupted one). Every
    form has a 「答案：」 line: the headline verdict is the strict reading. A unit word restating the table's
    scale is the gold's own unit (the question's, else `answer_scale`), 百萬 when neither is known."""
    pq = match.is_percent_question(gold_answer, *questions, display_decides=display_decides)
    f = match.gold_fraction(value, gold_answer) if pq else value
    d = decimals

    def shift(k: int) -> int | None:  # the same rounding written in another scale (萬, fraction …)
        return None if d is None else d + k
    think = "<think>先找出表格中的相關數字：2014 年為 5,735，2015 年為 5,829，再計算。</think>\n"
    if pq:
        p, fr = plain(100 * f, d), plain(f, shift(2))
        forms = [f"答案：{p}%", f"答案：{fr}", f"{think}依題意計算比率。\n答案：{p}%",
                 f"計算結果如下。\n答案：\\boxed{{{p}\\%}}", f"**答案**：\n{p} %", f"答案：{p}", f"Answer: {fr}"]
    else:
        v = plain(value, d)
        forms = [f"答案：{v}", f"{think}依表格計算。\n答案：{v}", f"經計算，\n答案：$\\boxed{{{v}}}$",
                 f"**答案**：\n**{v}**", f"答案：{v.translate(_FULLWIDTH_DIGITS)}"]
        if abs(value) >= 1000:
            two = 2 if d is None else d
            forms.append(f"答案：({abs(value):,.{two}f})" if value < 0 else f"答案：NT$ {value:,.{two}f}")
        if abs(value) >= 1e7:
            forms.append(f"答案：約 {plain(value / 1e8, shift(8))} 億元")
        elif abs(value) >= 1e4:
            forms.append(f"答案：{plain(value / 1e4, shift(4))} 萬元")
        unit = _unit_word(answer_scale, questions)
        if abs(value) >= 1 and value == round(value) and d is None and unit:
            forms.append(f"答案：{plain(value)} {unit}美元")  # the unit restates the table's scale
    return forms[pick(key, len(forms))]


_SCALE_WORDS = {3: "千", 4: "萬", 6: "百萬", 7: "千萬", 8: "億", 9: "十億"}


def _unit_word(answer_scale: int | None, questions: Sequence[str | None]) -> str | None:
    """The unit the scorer knows the gold in: the question's own («（以百萬計）») first, as in `match`."""
    scale = match.question_scale(*questions)
    if scale is not None:
        return _SCALE_WORDS.get(round(math.log10(scale)))
    return "百萬" if answer_scale is None else _SCALE_WORDS.get(answer_scale)


def yes_no_text(yes: bool, key: str) -> str:
    forms = (["答案：是", "Answer: yes", "<think>比較兩年數字。</think>\n答案：是的，較高。"] if yes
             else ["答案：否", "Answer: no", "<think>比較兩年數字。</think>\n答案：不是，較低。"])
    return forms[pick(key, len(forms))]




# ---- per task family: numeric (single or a conversation turn), FinChain, multiple choice, judged ----------
def numeric_gold(record: dict[str, Any], turn: int | None) -> str:
    key = f"{record['id']}#{turn}"
    gold, qs = gold_of(record, turn)
    if gold.get("answer_value") is None:
        return yes_no_text(match.normalize_yes_no(gold.get("answer_text") or "") == "yes", key)
    return numeric_text(float(gold["answer_value"]), gold.get("answer"), qs, key,
                        answer_scale=gold.get("answer_scale"))


def finchain_gold(record: dict[str, Any], turn: int | None) -> str:
    key = f"{record['id']}#{turn}"
    # The gold solution may already end with its own 「答案：」 line; the format under test replaces it.
    lines = (record.get("solution") or "").rstrip().split("\n")
    if lines and _ANSWER_MARK.search(lines[-1]):
        lines.pop()
    solution = "\n".join(lines).rstrip()
    if record.get("answer_type") == "categorical":
        return f"{solution}\n答案：{record['answer_text']}"
    body = numeric_text(float(record["answer_value"]), record.get("answer"), [record.get("question")], key,
                        display_decides=True, decimals=match.stated_decimals(record))
    return f"{solution}\n{body}" if pick(key + "s", 2) else f"{solution}\n答案：{record.get('answer')}"


def choice_gold(record: dict[str, Any], turn: int | None) -> str:
    key = f"{record['id']}#{turn}"
    codes = list(record["answer"])
    forms = [f"答案：{'、'.join(codes)}", f"答案：({')、('.join(codes)})", f"所以選\n答案：\\boxed{{{','.join(codes)}}}"]
    return forms[pick(key, len(forms))]


def reference_gold(record: dict[str, Any], turn: int | None) -> str:
    reference = record.get("reference_answer") or record.get("answer") or ""
    return f"{reference}\n答案：{reference}"


def _wrong_number(key: str, gold: dict[str, Any], qs: Sequence[str | None], *, display_decides: bool,
                  decimals: int | None) -> tuple[str, str]:
    if gold.get("answer_value") is None:
        yes = match.normalize_yes_no(gold.get("answer_text") or "") == "yes"
        return "flip_yes_no", yes_no_text(not yes, key)
    g = float(gold["answer_value"])
    kinds = ["times_1.1", "leading_digit", "times_10", "sign"]
    # a gold of 0 is unchanged by ×1.1, ×10 and a sign flip: that would not be a wrong answer
    kind = kinds[pick(key + "c", len(kinds))] if g else "leading_digit"
    if kind == "times_1.1":
        wrong = g * 1.1
    elif kind == "leading_digit":
        wrong = g + math.copysign(10 ** math.floor(math.log10(abs(g))), g) if g else 1.0
    elif kind == "times_10":
        wrong = g * 10
    else:
        wrong = -g
    return kind, numeric_text(wrong, gold.get("answer"), qs, key, display_decides=display_decides, decimals=decimals,
                              answer_scale=gold.get("answer_scale"))


def numeric_corrupt(record: dict[str, Any], turn: int | None, labels: Sequence[str] = ()) -> tuple[str, str]:
    gold, qs = gold_of(record, turn)
    return _wrong_number(f"{record['id']}#{turn}", gold, qs, display_decides=False, decimals=None)


def finchain_corrupt(record: dict[str, Any], turn: int | None, labels: Sequence[str] = ()) -> tuple[str, str]:
    key = f"{record['id']}#{turn}"
    if record.get("answer_type") == "numeric":
        return _wrong_number(key, record, [record.get("question")], display_decides=True,
                             decimals=match.stated_decimals(record))
    gold = record["answer_text"]  # categorical: another label of the same template
    others = [lab for lab in labels if lab != gold]
    wrong = others[pick(key, len(others))] if others else ("否" if gold == "是" else "不" + gold)
    return "other_label", f"答案：{wrong}"


def choice_corrupt(record: dict[str, Any], turn: int | None, labels: Sequence[str] = ()) -> tuple[str, str]:
    fmt = record.get("option_format") or "letter"
    opts = ["A", "B", "C", "D"] if fmt == "letter" else ["1", "2", "3", "4"]
    wrong = [o for o in opts if o not in record["answer"]][:1]
    return "other_option", f"答案：{wrong[0]}"


def numeric_off_by_ten(record: dict[str, Any], turn: int | None) -> str | None:
    gold, qs = gold_of(record, turn)
    if gold.get("answer_value") is None:
        return None
    return numeric_text(1.1 * float(gold["answer_value"]), gold.get("answer"), qs, f"{record['id']}#{turn}",
                        answer_scale=gold.get("answer_scale"))


def finchain_off_by_ten(record: dict[str, Any], turn: int | None) -> str | None:
    if record.get("answer_type") != "numeric" or record.get("answer_value") is None:
        return None
    return numeric_text(1.1 * float(record["answer_value"]), record.get("answer"), [record.get("question")],
                        f"{record['id']}#{turn}", display_decides=True, decimals=match.stated_decimals(record),
                        answer_scale=record.get("answer_scale"))

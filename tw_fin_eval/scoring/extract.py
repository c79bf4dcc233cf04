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

from tw_fin_eval.schema import strip_think
from tw_fin_eval.scoring.numbers import Num, find_numbers, first_answer_number, normalize

STRICT = "strict"
BOXED = "boxed"
LAST_NUMBER = "last_number"
LAST_LINE = "last_line"
NONE = "none"
FLEXIBLE_MODES = frozenset({BOXED, LAST_NUMBER, LAST_LINE})

_MARKER = re.compile(r"(?:答案|answer)[ \t]{0,3}(?:\*\*|__)?[ \t]{0,3}[:：]", re.I)
_BOXED = re.compile(r"\\boxed\s*\{")
_LATEX_WRAP = re.compile(r"\\(?:text|mathrm|textbf|mathbf|operatorname)\s*\{([^{}]*)\}")
_STEP_LABEL = re.compile(r"(?:步驟|Step)\s*\d+\s*[:：.、]?", re.I)


def clean_latex(text: str) -> str:
    """Unwrap the LaTeX a model puts around an answer (\\text{億}, \\%, \\$, \\,, **bold**)."""
    if "\\" not in text and "**" not in text:
        return text
    out = text
    for _ in range(3):
        out = _LATEX_WRAP.sub(r"\1", out)
    out = (out.replace("\\%", "%").replace("\\$", "$").replace("\\,", "").replace("\\!", "")
           .replace("\\ ", " ").replace("**", "").replace("\\left", "").replace("\\right", ""))
    return out


def answer_segment(text: str) -> str | None:
    """The text after the last answer marker, or None when there is no marker."""
    # Scan backwards from the last "答案" / "answer" rather than running the regex over the whole text.
    best = -1
    lowered = text.lower()
    if len(lowered) != len(text):  # a character whose lower case is longer: offsets would not line up
        found = list(_MARKER.finditer(text))
        return text[found[-1].end():] if found else None
    for word in ("答案", "answer"):
        pos = len(lowered)
        while True:
            pos = lowered.rfind(word, 0, pos)
            if pos < 0:
                break
            m = _MARKER.match(text, pos)
            if m:
                best = max(best, m.end())
                break
    return None if best < 0 else text[best:]


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
    """The first `n` non-empty lines of a segment (an answer may sit on the line after the marker)."""
    lines = [ln for ln in segment.splitlines() if ln.strip()]
    return "\n".join(lines[:n])


_EQUALS = re.compile(r"=|＝|≈|約等於|等於")


def _result_side(line: str) -> str:
    """「答案：5,829 − 5,735 = 94」 restates the computation: the result is after the last equals sign."""
    parts = _EQUALS.split(line)
    if len(parts) > 1 and find_numbers(parts[-1]):
        return parts[-1]
    return line


@dataclass(frozen=True)
class NumberExtraction:
    mode: str
    num: Num | None
    segment: str | None  # the text the number was read from

    @property
    def extracted(self) -> str | None:
        return self.num.text.strip() if self.num else None


def extract_number(output: str | None) -> NumberExtraction:
    text = strip_think(output)
    seg = answer_segment(text)
    if seg is not None:
        # The answer is on the marker's line, or on the next non-empty line when the marker ends its line.
        for line in [ln for ln in seg.splitlines() if ln.strip()][:2]:
            line = clean_latex(line)
            inner = last_boxed(line)
            line = clean_latex(inner) if inner is not None else _result_side(line)
            num = first_answer_number(line)
            if num is not None:
                return NumberExtraction(STRICT, num, line)
    boxed = last_boxed(text)
    if boxed is not None:
        b = clean_latex(boxed)
        num = first_answer_number(b)
        if num is not None:
            return NumberExtraction(BOXED, num, b)
    # With a marker, the last number is looked for only after it: numbers before a 「答案：無法判斷」
    # are reasoning, not an answer.
    scope = text if seg is None else seg
    nums = find_numbers(clean_latex(scope))
    if nums:
        return NumberExtraction(LAST_NUMBER, nums[-1], scope)
    return NumberExtraction(NONE, None, None)


# ---- yes / no -------------------------------------------------------------------------------------------
_NO = re.compile(r"^(?:否|不是|不對|不正確|錯誤?|非|沒有|無|不會|不|no|false|n)(?![a-z])", re.I)
_YES = re.compile(r"^(?:是|對|正確|有|會|yes|true|y)(?![a-z])", re.I)
_YES_NO_ANY = re.compile(r"(?<![a-z])(yes|no)(?![a-z])|(不是|否|是)", re.I)


def classify_yes_no(text: str | None) -> str | None:
    """'yes' / 'no' for the start of an answer (「否」, 「不是」, 「是的」, "Yes."), else None."""
    if text is None:
        return None
    t = clean_latex(normalize(text)).strip().lstrip("*「『\"'(（[ ").strip()
    if _NO.match(t):
        return "no"
    if _YES.match(t):
        return "yes"
    return None


def extract_yes_no(output: str | None) -> tuple[str, str | None]:
    """(mode, 'yes'/'no'/None)."""
    text = strip_think(output)
    seg = answer_segment(text)
    if seg is not None:
        got = classify_yes_no(_first_lines(seg, 1))
        if got:
            return STRICT, got
    boxed = last_boxed(text)
    if boxed is not None and classify_yes_no(boxed):
        return BOXED, classify_yes_no(boxed)
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if lines:
        found = list(_YES_NO_ANY.finditer(lines[-1]))
        if found:
            word = found[-1].group(0).lower()
            return LAST_LINE, "no" if word in {"no", "不是", "否"} else "yes"
    return NONE, None


# ---- multiple choice --------------------------------------------------------------------------------------
_LEAD = re.compile(r"^[ \t*「『\"'\[]{0,10}(?:選項|選擇|選|option|choice)?[ \t]{0,3}", re.I)
_CODE_SEQ = re.compile(r"[(（]?\s*([A-Da-d]|[1-4])\s*[)）]?(?![A-Za-z0-9])")
_LETTER_RUN = re.compile(r"[(（]?([A-Da-d]{2,4})[)）]?(?![A-Za-z])")
_SEP = re.compile(r"[ \t]{0,3}(?:,|，|、|和|及|與|/|&|and|[ \t])[ \t]{0,3}", re.I)
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
    last non-empty line."""
    text = strip_think(output)
    seg = answer_segment(text)
    if seg is not None and seg.strip():
        return STRICT, clean_latex(_first_lines(seg, 1)).strip()
    boxed = last_boxed(text)
    if boxed is not None and boxed.strip():
        return BOXED, clean_latex(boxed).strip()
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if lines:
        return LAST_LINE, clean_latex(lines[-1]).strip()
    return NONE, None


def recall_text(output: str | None) -> str:
    """The visible output as step_recall reads it: think removed, LaTeX unwrapped, and the 「步驟 N：」
    labels blanked (their N is not a value)."""
    return _STEP_LABEL.sub(" ", clean_latex(strip_think(output)))


def numbers_for_recall(output: str | None) -> list[Num]:
    """Every number of the visible output as step_recall sees it."""
    return find_numbers(recall_text(output))

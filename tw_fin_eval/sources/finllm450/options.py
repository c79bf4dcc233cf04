"""Option codes of FinLLM450 multiple-choice items: the options written in a question, the codes of an
answer cell, the conclusion of an APMIC reply, letter ⇄ number conversion."""

from __future__ import annotations

import re
import unicodedata

from tw_fin_eval.answers.vocabulary import CONCLUSION_COPULAS, CONCLUSION_CUES, alternation


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


def convert_code(code: str, to_format: str) -> str:
    """An option code in the other format: letter → number (A → 1) or number → letter (1 → A)."""
    if to_format == "number" and code.isalpha():
        return str(ord(code) - ord("A") + 1)
    if to_format == "letter" and code.isdigit():
        return chr(ord("A") + int(code) - 1)
    return code


_CUE = re.compile(f"(?:{alternation(CONCLUSION_CUES)})" + r"\s*" + f"(?:{alternation(CONCLUSION_COPULAS)})?" + r"\s*")
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
    from tw_fin_eval.answers import extract  # standard library only; imported late to keep startup light

    mode, found = extract.extract_choice(reply)
    if mode in (extract.STRICT, extract.BOXED) and found:
        return found
    text = _norm_code_text(extract.strip_think(reply)).upper()
    for m in reversed(list(_CUE.finditer(text))):
        codes = _codes_at(text, m.end())
        if codes:
            return codes
    return found if mode == extract.LAST_LINE else []

"""Numbers as written in a twin's text: find them (with a zh-TW scale word such as 億 or 萬), compare them
by value and write a new value in the same style. Standard library only.

A zh-TW sentence may restate a table amount in another unit: the page's 「$ 772（單位：百萬美元）」 is
「7.72 億美元」 in prose. `Token.matches(v)` says whether a token states the page value `v` in the page's unit
or restated from thousands, millions or billions, and `Token.restate(v, new)` writes the new value the same way.

>>> [t.text for t in tokens("淨營收為 $ 5,829，較前一年的 7.72 億美元，2015 年 12 月")]
['5,829', '7.72 億', '2015', '12']
>>> t = tokens("7.72 億美元")[0]; t.matches(Decimal("772")), t.restate(Decimal("772"), Decimal("801.5"))
(True, '8.015 億')
>>> tokens("$ 5,829")[0].restate(Decimal("5829"), Decimal("6112"))
'6,112'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

# a number not glued to a Latin letter, digit or dot on either side; an optional zh-TW scale word after it
_TOKEN = re.compile(r"(?<![A-Za-z0-9_.])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?![0-9A-Za-z])"
                    r"(?:(?P<sp>\s?)(?P<mult>十億|百萬|千萬|億|萬))?")
MULTIPLIERS = {"十億": Decimal(10) ** 9, "百萬": Decimal(10) ** 6, "千萬": Decimal(10) ** 7,
               "億": Decimal(10) ** 8, "萬": Decimal(10) ** 4}
PAGE_SCALES = (Decimal(10) ** 3, Decimal(10) ** 6, Decimal(10) ** 9)  # thousands, millions, billions
# a number right before one of these is a date or a period, never an amount
_DATE_AFTER = re.compile(r"\s?(?:年|月|日|季|週|個月|天|歲)")
_DATE_BEFORE = re.compile(r"(?:第|民國|FY|Q)\s?$")
_EN_DATE_BEFORE = re.compile(r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s*$", re.I)
_EN_DATE_AFTER = re.compile(r"\s?(?:years?|months?|days?|quarters?)\b", re.I)
# FinQA's English keeps OCR codes of curly quotes glued to a number: 「201c4.25% notes」 (“4.25% notes”)
_EN_TOKEN = re.compile(r"(?:(?<![A-Za-z0-9_.])|(?<=201c)|(?<=201d))"
                       r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?![0-9A-Za-z])"
                       r"(?:(?P<sp>\s?)(?P<mult>十億|百萬|千萬|億|萬))?")


def dec(text: str | float | Decimal) -> Decimal:
    """A Decimal of a numeral as written ("5,829" → 5829) or of a float through its shortest repr."""
    if isinstance(text, Decimal):
        return text
    try:
        return Decimal(text.replace(",", "") if isinstance(text, str) else repr(float(text)))
    except InvalidOperation:
        raise ValueError(f"not a number: {text!r}") from None


def decimals(text: str) -> int:
    body = text.replace(",", "")
    return len(body.split(".", 1)[1]) if "." in body else 0


def fmt(value: Decimal, places: int, grouped: bool = False) -> str:
    """`value` (≥ 0) with exactly `places` decimals, thousands grouped when the original was."""
    q = value.quantize(Decimal(1).scaleb(-places)) if places else value.quantize(Decimal(1))
    return f"{q:,}" if grouped else f"{q}"


def plain(value: Decimal) -> str:
    """The shortest exact decimal form (no exponent, no trailing zeros): 8.01500 → 8.015."""
    text = f"{value.normalize():f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


@dataclass(frozen=True)
class Token:
    text: str  # as matched, scale word included
    start: int
    end: int
    num: str  # the numeral alone
    mult: str | None  # 億, 萬 …
    dated: bool  # a date or period number (2015 年, 12 月, 第 3 季)

    @property
    def value(self) -> Decimal:
        return dec(self.num)

    def scaled(self) -> Decimal:
        return self.value * MULTIPLIERS[self.mult] if self.mult else self.value

    def page_scale(self, page_value: Decimal) -> Decimal | None:
        """The page unit this token states `page_value` in (1 = as written), or None when it does not."""
        if self.mult is None:
            return Decimal(1) if self.value == abs(page_value) else None
        for scale in PAGE_SCALES:
            if self.scaled() == abs(page_value) * scale:
                return scale
        return None

    def matches(self, page_value: Decimal) -> bool:
        return not self.dated and self.page_scale(page_value) is not None

    def restate(self, page_value: Decimal, new_value: Decimal) -> str:
        """This token rewritten for `new_value` (≥ 0 expected; the sign stays in the text around it)."""
        scale = self.page_scale(page_value)
        assert scale is not None
        new = abs(new_value)
        if self.mult is None:
            return fmt(new, decimals(self.num), "," in self.num)
        written = plain(new * scale / MULTIPLIERS[self.mult])
        if "," in self.num:  # 「2,900 萬美元」 keeps its grouping
            whole, _, frac = written.partition(".")
            written = f"{int(whole):,}" + (f".{frac}" if frac else "")
        sp = self.text[len(self.num):-len(self.mult)]
        return f"{written}{sp}{self.mult}"


def tokens(text: str, english: bool = False) -> list[Token]:
    """The numbers of a text; `english`: FinQA's English (month-day dates, OCR quote codes)."""
    out = []
    for m in (_EN_TOKEN if english else _TOKEN).finditer(text):
        before = text[max(0, m.start() - 12):m.start()]
        dated = bool(_DATE_AFTER.match(text, m.end("num"))) or bool(_DATE_BEFORE.search(before)) or (
            english and (bool(_EN_DATE_BEFORE.search(before)) or bool(_EN_DATE_AFTER.match(text, m.end("num")))))
        out.append(Token(m.group(0), m.start(), m.end(), m.group("num"), m.group("mult"), dated))
    return out


def replace(text: str, mapping: dict[Decimal, Decimal], english: bool = False) -> tuple[str, int]:
    """Every token stating a page value of `mapping` (absolute values) rewritten with its new value;
    (new text, replacements made). Date and period numbers are never touched."""
    if not mapping:
        return text, 0
    parts, pos, count = [], 0, 0
    for tok in tokens(text, english):
        hit = next((old for old in mapping if tok.matches(old)), None)
        if hit is None:
            continue
        parts += [text[pos:tok.start], tok.restate(hit, mapping[hit])]
        pos = tok.end
        count += 1
    return "".join(parts) + text[pos:], count


def holds(text: str, page_value: Decimal) -> bool:
    """Does the text state this page value (in any of the units above)?"""
    return any(t.matches(page_value) for t in tokens(text))

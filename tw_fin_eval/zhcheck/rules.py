"""zh-TW rule-checker primitives: pure functions over strings (the glossary is loaded once).

Every rule returns a list of `Finding`s; an empty list means the text passes. The rules mirror the
translation conventions of 術語表_glossary_zh-TW.md:

- ``simplified``: a character that OpenCC ``s2tw`` would change and the glossary does not allow;
- ``prc_term``: a forbidden PRC term from the glossary;
- ``numeral_missing``: an Arabic numeral of the English source missing from the zh-TW;
- ``table_shape``: rows/columns differ, or a cell without Latin letters was changed;
- ``english_residue``: untranslated English left in the zh-TW (acronyms, units and short names allowed);
- ``convention``: English month names, 「1 月 1 日」 spacing, million/billion left, "to" in tables,
  required renderings (long-term debt → 長期債務).

>>> [f.rule for f in check_zh("我們的软件質量很好")]
['simplified', 'prc_term']
>>> check_translation("net revenue was $ 5735 million in 2015", "2015 年淨營收為 $ 5735 百萬")
[]
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tw_fin_eval.evidence_zh import (
    change_pair_header,
    footnote_marks,
    header_is_data,
    range_dashes,
    year_range_label,
)
from tw_fin_eval.finding import Finding
from tw_fin_eval.glossary import Glossary, load_glossary

RULES = ("simplified", "prc_term", "numeral_missing", "table_shape", "table_cell", "english_residue", "convention",
         "written_row")
_CONTEXT = 20  # characters of context each side of an offending span (Finding.text ≤ 60 chars)


def _glossary() -> Glossary:
    return load_glossary()


def _snippet(text: str, start: int, end: int, context: int = _CONTEXT) -> str:
    """The span with some context, never more than 60 characters, on one line."""
    end = min(end, start + 60 - 2 * min(context, 10))
    lo = max(0, start - context)
    hi = min(len(text), end + context)
    while hi - lo > 60:
        if start - lo > hi - end:
            lo += 1
        else:
            hi -= 1
    return text[lo:hi].replace("\n", " ")


# ---------------------------------------------------------------------------------------------
# simplified characters

@functools.lru_cache(maxsize=1)
def _converter():
    import opencc  # imported lazily: only regenerating the character table needs the C extension

    return opencc.OpenCC("s2tw")


# every code point s2tw could change: the BMP above ASCII (minus surrogates) and CJK extensions B–F
_UNIVERSE = ((0x80, 0xD7FF), (0xE000, 0xFFFF), (0x20000, 0x2FA1F))
S2TW_TABLE = Path(__file__).with_name("s2tw_chars.json")


def opencc_s2tw_changes() -> dict[str, str]:
    """char → s2tw(char) for every character that OpenCC's s2tw changes on its own (≈ 4,900 characters):
    the whole universe converted once, newline-separated so no two characters form an OpenCC phrase."""
    chars = [chr(i) for lo, hi in _UNIVERSE for i in range(lo, hi + 1) if chr(i) != "\n"]
    converted = _converter().convert("\n".join(chars)).split("\n")
    if len(converted) != len(chars):  # a conversion changed the length: fall back to one by one
        converted = [_converter().convert(ch) for ch in chars]
    return {a: b for a, b in zip(chars, converted) if a != b}


def write_s2tw_table(path: Path | None = None) -> int:
    """Regenerate the committed table from the installed OpenCC (`measure s2tw-table --write`)."""
    import opencc

    path = path or S2TW_TABLE
    changes = opencc_s2tw_changes()
    meta = {"generated_by": "python -m tw_fin_eval.zhcheck.measure s2tw-table --write", "config": "s2tw",
            "opencc": getattr(opencc, "__version__", "unknown")}
    path.write_text(json.dumps({**meta, "changes": changes}, ensure_ascii=False, indent=0, sort_keys=True) + "\n",
                    encoding="utf-8")
    return len(changes)


@functools.cache
def _s2tw_changes() -> dict[str, str]:
    """char → s2tw(char) for every character that s2tw changes on its own, read from the committed table
    (s2tw_chars.json, generated from OpenCC; a test keeps it equal to the installed OpenCC). Reading it takes a
    few milliseconds, where OpenCC's start-up alone takes 0.1 s and the bulk conversion 0.2–0.6 s — it is the
    fixed cost of every check-zh run and of the scorer's zh-TW purity figure. Without the file (a trimmed
    install) OpenCC converts the universe instead."""
    try:
        return json.loads(S2TW_TABLE.read_text(encoding="utf-8"))["changes"]
    except FileNotFoundError:
        return opencc_s2tw_changes()


def _s2tw_char(ch: str) -> str:
    return _s2tw_changes().get(ch, ch)


@functools.lru_cache(maxsize=4)
def _simplified_index(glossary: Glossary) -> tuple[re.Pattern[str], frozenset[str]]:
    """A regex for runs of candidate characters and the exact set of flagged characters.

    sre compiles BMP characters of a class into a fast bitmap, but tests astral ones (CJK extension B
    and beyond) one by one; so the class holds the flagged BMP characters plus the whole astral range,
    and astral characters are checked against the set afterwards (measured: 0.65 s vs 160 s for 10 MB).
    """
    bad = frozenset(_s2tw_changes()) - glossary.simplified_allow
    bmp = sorted(ch for ch in bad if ord(ch) < 0x10000)
    pattern = re.compile("[" + "".join(re.escape(ch) for ch in bmp) + "\U00010000-\U0010FFFF]+")
    return pattern, bad


_SHORT_TEXT = 20_000


def find_simplified(text: str) -> list[Finding]:
    """Characters that s2tw changes (each on its own), unless allow-listed (台, 里, 占…) or inside an
    allow-listed word (拮据, 風采). Adjacent flagged characters form one finding."""
    glossary = _glossary()
    changes = _s2tw_changes()
    if len(text) < _SHORT_TEXT and _simplified_index.cache_info().currsize == 0:
        # a short text in a process that has not compiled the big character class: the text's own flagged
        # characters make a small one (same results, see test_short_and_long_paths_agree)
        bad = frozenset(ch for ch in set(text) if ch in changes and ch not in glossary.simplified_allow)
        if not bad:
            return []
        pattern = re.compile("[" + "".join(re.escape(ch) for ch in sorted(bad)) + "]+")
    else:
        pattern, bad = _simplified_index(glossary)
    word_index = _allow_word_index(glossary)
    findings = []
    for m in pattern.finditer(text):
        for start, end in _flagged_runs(text, m, bad, word_index):
            run = text[start:end]
            fixed = "".join(changes.get(ch, ch) for ch in run)
            findings.append(Finding("simplified", f"簡體字「{run}」→ 改用繁體「{fixed}」",
                                    _snippet(text, start, end), found=run, fix=fixed))
    return findings


def _flagged_runs(text: str, m: re.Match[str], bad: frozenset[str],
                  word_index: dict[str, tuple[tuple[str, int], ...]]) -> list[tuple[int, int]]:
    """Split a candidate run into runs of flagged characters: astral candidates may be fine, and a
    character inside an allow-listed word (拮据) is."""
    runs: list[tuple[int, int]] = []
    start = None
    for i, ch in enumerate(m.group(), m.start()):
        if ch in bad and not _in_allowed_word(text, i, word_index):
            if start is None:
                start = i
        elif start is not None:
            runs.append((start, i))
            start = None
    if start is not None:
        runs.append((start, m.end()))
    return runs


@functools.lru_cache(maxsize=4)
def _allow_word_index(glossary: Glossary) -> dict[str, tuple[tuple[str, int], ...]]:
    """character → (allow-listed word, offset of the character in it) for the word-level allow-list."""
    index: dict[str, list[tuple[str, int]]] = {}
    for word in glossary.simplified_allow_words:
        for offset, ch in enumerate(word):
            index.setdefault(ch, []).append((word, offset))
    return {ch: tuple(pairs) for ch, pairs in index.items()}


def _in_allowed_word(text: str, i: int, index: dict[str, tuple[tuple[str, int], ...]]) -> bool:
    return any(i >= off and text.startswith(word, i - off) for word, off in index.get(text[i], ()))


# ---------------------------------------------------------------------------------------------
# forbidden PRC terms

@functools.lru_cache(maxsize=4)
def _term_index(glossary: Glossary) -> tuple[re.Pattern[str], dict[str, tuple[tuple[str, int], ...]]]:
    """One alternation of the forbidden terms, longest first (so the longest term wins at a position),
    and per term its exceptions as (word, offset of the term in the word)."""
    terms = sorted(glossary.forbidden, key=lambda t: (-len(t), t))
    pattern = re.compile("|".join(re.escape(t) for t in terms))
    exceptions: dict[str, tuple[tuple[str, int], ...]] = {}
    for term, words in glossary.forbidden_exceptions.items():
        pairs = []
        for word in words:
            offset = word.find(term)
            while offset >= 0:
                pairs.append((word, offset))
                offset = word.find(term, offset + 1)
        exceptions[term] = tuple(pairs)
    return pattern, exceptions


def _excused(text: str, start: int, exceptions: tuple[tuple[str, int], ...]) -> bool:
    return any(text.startswith(word, start - offset) for word, offset in exceptions if start >= offset)


def find_prc_terms(text: str) -> list[Finding]:
    """Glossary forbidden terms; at one position the longest term wins and matches do not overlap.

    A term inside one of its listed exceptions (「品質量測」 holds 「質量」) is not a finding; the scan
    then resumes one character later, so a shorter term overlapping the exception is still seen.
    One regex alternation is ~6× faster than str.find per term on long texts (measured, 10 MB).
    """
    glossary = _glossary()
    pattern, exceptions = _term_index(glossary)
    findings = []
    pos = 0
    while True:
        m = pattern.search(text, pos)
        if m is None:
            break
        term = m.group()
        if _excused(text, m.start(), exceptions.get(term, ())):
            # a shorter term starting here may still be a finding (rare): try every shorter one
            shorter = next((t for t in _shorter_terms(glossary, term)
                            if text.startswith(t, m.start()) and not _excused(text, m.start(), exceptions.get(t, ()))),
                           None)
            if shorter is None:
                pos = m.start() + 1
                continue
            term = shorter
        end = m.start() + len(term)
        findings.append(Finding("prc_term", f"中國用語「{term}」→ 臺灣用「{glossary.forbidden[term]}」",
                                _snippet(text, m.start(), end), found=term, fix=glossary.forbidden[term]))
        pos = end
    return findings


@functools.lru_cache(maxsize=256)
def _shorter_terms(glossary: Glossary, term: str) -> tuple[str, ...]:
    return tuple(t for t in sorted(glossary.forbidden, key=len, reverse=True) if len(t) < len(term) and term.startswith(t))


# ---------------------------------------------------------------------------------------------
# English residue

# words that make a Latin run a sentence fragment rather than a name
FUNCTION_WORDS = frozenset("""
a an the of and to in for is was are were be been being with on by as at from that this these those
what which who whom whose how why when where its it or per has have had than total net not no into
over under between during after before about than then there their our we you they he she if do does
did will would shall should can could may might must also all any each other such only more most less
""".split())
# function words that never occur in a company or person name (unlike Can, May, Will, All, First…)
_SENTENCE_WORDS = frozenset("""
is was were are be been being what which who whom whose how why when where did does do has have had
that this these those than there their its with from into per total net not would should could
""".split())
# financial vocabulary: a capitalised run holding one of these is a heading left in English, not a name.
# Kept short on purpose: Price, Cash, Equity, Interest… are surnames or parts of company names.
_NOT_NAME_WORDS = frozenset("""
revenue revenues income expense expenses assets liabilities earnings dividend dividends amount amounts
million millions billion billions thousand thousands percent total net gross increase decrease ratio
""".split())
_NAME_CONNECTORS = frozenset({"of", "and", "&", "the", "de", "du", "des", "la", "le", "les", "los", "las", "el",
                              "en", "et", "y", "da", "di", "do", "dos", "von", "van", "der", "den", "del"})
_MAX_NAME_WORDS = 6  # "Entergy New Orleans Storm Recovery Funding" is one name; 7+ is a title

# runs of printable ASCII except , ; ( ): CJK, full-width punctuation and list separators end a run
_SEGMENT_RE = re.compile(r"[\x20-\x27\x2a\x2b\x2d-\x3a\x3c-\x7e\t]+")
_TOKEN_RE = re.compile(r"[A-Za-z0-9$][A-Za-z0-9'’&.\-/$]*")
_EDGE_PUNCT = ".,;:!?'’\"-/"


def _norm_token(token: str) -> str:
    return token.strip(_EDGE_PUNCT)


def _allowed(token: str, allow: frozenset[str]) -> bool:
    core = token.rstrip(".,;:!?")
    candidates = {token, core, core + ".", _norm_token(token)}
    if core.endswith(("'s", "’s")):
        candidates.add(core[:-2])
    return any(c in allow for c in candidates)


def _run_is_residue(words: list[str]) -> bool:
    if all(len(w) == 1 for w in words):
        return False  # footnote markers (a), (b) and lone letters
    if len(words) <= 2 and all(w.isupper() for w in words):
        return False  # tickers and acronyms: NYSE: ALL, NET, HUM
    lowered = [w.lower().replace("’", "'").removesuffix("'s") for w in words]
    capitalised = [w for w, lo in zip(words, lowered) if lo not in _NAME_CONNECTORS]
    is_name = (
        bool(capitalised)
        and all(w[0].isupper() for w in capitalised)
        and not any(lo in _SENTENCE_WORDS or lo in _NOT_NAME_WORDS for lo in lowered)
        and len(capitalised) <= _MAX_NAME_WORDS
    )
    if is_name:
        return False
    if len(words) >= 5:
        return True
    if any(w.islower() and len(w) >= 2 for w in words):
        return True  # "net revenue", "in millions": names are capitalised, English phrases are not
    if len(words) >= 3:
        return True
    return any(lo in FUNCTION_WORDS or lo in _NOT_NAME_WORDS for lo in lowered)


def _bracketed(text: str, start: int, end: int) -> bool:
    return text[:start].rstrip()[-1:] in ("(", "（", "[") and text[end:].lstrip()[:1] in (")", "）", "]")


# URLs, e-mail addresses and file names are not English prose
_URL_RE = re.compile(r"(?:https?://|www\.)[^\s，。；、（）「」]+|[\w.+-]+@[\w-]+\.[\w.]+"
                     r"|\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|gov|edu|htm|html|pdf)\b[^\s，。；、（）「」]*", re.ASCII)


def find_english_residue(text: str, *, extra_allow: Iterable[str] = ()) -> list[Finding]:
    """Untranslated English: a run of Latin words (between CJK text or full-width punctuation) is a
    finding unless it is only allowed tokens (EPS, 10-K, mw…), codes with digits (Q4, 201c) or a short
    capitalised name (Entergy, U.S. Steel, Bank of America). Any lowercase English word (≥ 2 letters),
    a run of ≥ 3 words that is not a name, or ≥ 5 words is residue."""
    allow = _glossary().allowed_english | frozenset(extra_allow)
    original = text
    text = _URL_RE.sub(lambda m: " " * len(m.group()), text)  # same length: positions stay valid
    findings = []
    for seg in _SEGMENT_RE.finditer(text):
        words: list[str] = []
        spans: list[tuple[int, int]] = []
        for tok in _TOKEN_RE.finditer(seg.group()):
            raw = tok.group()
            word = _norm_token(raw)
            if not word or not re.search(r"[A-Za-z]", word) or re.search(r"\d", word):
                continue  # numbers, amounts, codes such as 10-K, Q4, 201c, 2019s
            if _allowed(raw, allow) or _allowed(word, allow) or "&" in word:
                continue  # "&" marks an acronym or a name: S&P, RD&E, BM&FBovespa
            words.append(word)
            spans.append((seg.start() + tok.start(), seg.start() + tok.end()))
        if words and all(len(w) <= 2 for w in words) and _bracketed(text, seg.start(), seg.end()):
            continue  # footnote markers: 購買義務（bc）
        if words and _run_is_residue(words):
            start, end = spans[0][0], spans[-1][1]
            run = original[start:end]
            shown = run if len(run) <= 40 else run[:39] + "…"
            findings.append(Finding("english_residue",
                                    f"英文殘留「{shown}」：請譯成中文（縮寫、代號、單位與公司名稱可保留）",
                                    _snippet(original, start, end), found=run))
    return findings


# ---------------------------------------------------------------------------------------------
# numerals

_NUMERAL_RE = re.compile(r"\d[\d,]*(?:\.\d+)?")
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december")
# a year-like 2013/2014 between two lowercase words is FinQA's OCR of an en/em dash ("options 2013 marathon"),
# unless the words around it say it is a year ("of 2014 is", "from 2013 to", "december 2014 and")
_YEAR_BEFORE = frozenset(_MONTHS) | frozenset("""
of in from to fiscal year years during since through until between by before after ended ending for
and than at end early late mid calendar beginning the a an our its their this that each every per last next
same prior current his her total annual full reported projected estimated expected actual adjusted
""".split())
_YEAR_AFTER = frozenset("to and or through compared versus vs than".split())
# FinQA's PDF extraction wrote some punctuation as the hex of its code point:
# “ 201c, ” 201d, ‘ 2018, ’ 2019, – 2013, — 2014, • 2022 and the no-break space as a0
# (or, opening a sentence, as its decimal code 0160: handled in _is_ocr_artefact, not listed here).
_OCR_CODES = frozenset({"2013", "2014", "2018", "2019", "2022"})


def _norm_numeral(raw: str) -> str:
    """Drop thousands commas and leading zeros ("07" is 7 in "April 07"), keep decimals as written."""
    num = raw.rstrip(",").replace(",", "")
    stripped = num.lstrip("0")
    return "0" + stripped if stripped[:1] in ("", ".") else stripped


def _zh_numerals(zh: str) -> Counter[str]:
    # full-width digits count too; a full-width comma is punctuation, never a thousands separator
    # (「$ 44,048，1 年以內」 is 44048 and 1, not 440481)
    zh = unicodedata.normalize("NFKC", zh.replace("，", "、"))
    return Counter(_norm_numeral(m.group()) for m in _NUMERAL_RE.finditer(zh))


def _is_ocr_artefact(en: str, m: re.Match[str]) -> bool:
    raw = _norm_numeral(m.group())
    end = m.start() + len(m.group().rstrip(","))
    nxt = en[end] if end < len(en) else ""
    if raw in _OCR_CODES and (nxt.isalpha() or nxt == "$"):
        return True  # 2019s, 2014during, 2018plan, 2014$ 34 million
    if raw == "201" and nxt in ("c", "d"):
        return True  # 201c, 201d
    if raw in ("2013", "2014") and re.search(r"\bnote\s+\d+\s+$", en[: m.start()]):
        return True  # "note 13 2013 leases"
    if raw in ("2013", "2014") and re.search(r"\b\d{1,2}\s+$", en[: m.start()]) \
            and re.match(r"\s+\d{1,2}(?![\d,.]|[a-z])", en[end:]) \
            and not re.search(r"(?:" + "|".join(_MONTHS) + r")\s+\d{1,2}\s+$", en[: m.start()]):
        return True  # a range of small numbers: "due in 2 2013 3 years"
    if raw in _OCR_CODES - {"2022"}:
        # the word before must stand alone: "company's 2019 results" is a year, not ’
        before = re.search(r"(?:^|\s)([a-z]+)\s+$", en[: m.start()])
        after = re.match(r"\s+([a-z]+|\()", en[end:])
        apostrophe = raw in ("2018", "2019")  # quotes: only "holders 2019 equity", "company 2019 s"
        if (before and after and before.group(1) not in _YEAR_BEFORE and after.group(1) not in _YEAR_AFTER
                and (not apostrophe or before.group(1).endswith("s") or after.group(1) == "s")):
            return True  # "options 2013 marathon", "stockholders 2019 equity", "statements 2013 ( continued )"
    if raw == "2022":  # a bullet: ": 2022 an increase", "; and 2022 a decrease", "2022 construction …"
        prefix = en[: m.start()]
        after = re.match(r"\s+([a-z]+)", en[end:])
        if after and after.group(1) not in _YEAR_AFTER:
            if re.search(r"(?:^|[:;])\s*$|(?:^|[:;,])\s*(?:and|or)\s+$", prefix):
                return True  # never after a comma: "december 31, 2022 the company" is a year
            number = re.search(r"(?<![\d.,])(\d(?:[\d.,]*\d)?)\s+$", prefix)  # "31, 2022": not after a comma
            if number and not re.fullmatch(r"(?:19|20)\d\d", number.group(1)):
                return True  # after a list item ending in an amount: "$ 5583333 2022 upon …", "$ 5 2022 billion"
    if raw in ("2013", "2014") and re.search(r"\d/\d+\s+$", en[: m.start()]) and re.match(r"\s+\d+/", en[end:]):
        return True  # a dash between two dates: "10/01/04 2013 10/31/04"
    if (m.group() == "0160" and re.search(r"(?:^|[.;:]\s)\s*$", en[: m.start()])
            and not re.search(r"\bno\s*\.\s*$", en[: m.start()], re.IGNORECASE) and re.match(r"\s+[a-z]", en[end:])):
        # &#160; (no-break space) written as its decimal code, opening a sentence in SLB's FinQA/ConvFinQA
        # text: "0160 cash flow provided by operations was …"; with the leading zero it is no amount
        # (but "account no . 0160 was" is a number)
        return True
    return False


# Latin-1 and private-use characters that FinQA wrote as hex: a0 (no-break space, also glued to the next
# number: "a031" is " 31"), a9 (©), f0b7 (a bullet)
_LATIN1_CODE_RE = re.compile(r"(?<![A-Za-z0-9])a[09](?=[a-z\s\d]|$)|f0b7")


def _blank_latin1_codes(en: str) -> str:
    """Replace the codes by spaces of the same length (positions stay valid for messages)."""
    return _LATIN1_CODE_RE.sub(lambda m: " " * len(m.group()), en)


# "21% ( 21 % )" / "-32 ( 32 )" / "71%/79% ( 71%/79 % )": groups 2, 4, 6 are the repeat
_EN_DUP_RE = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*%\s*\(\s*-?(?:201[cd])?(\d[\d,]*(?:\.\d+)?)\s*%\s*\)"
                        r"|(?<![\w.])-(\d[\d,]*(?:\.\d+)?)\s*\(\s*(\d[\d,]*(?:\.\d+)?)\s*\)"
                        r"|(\d+(?:\.\d+)?%/\d+(?:\.\d+)?)%\s*\(\s*(\d+(?:\.\d+)?%/\d+(?:\.\d+)?)\s*%\s*\)")


def _en_numeral_matches(en: str) -> list[re.Match[str]]:
    """The numerals of an English text that must survive, as matches over the text with FinQA's Latin-1
    codes blanked (same length, so positions are those of `en`), without FinQA's OCR artefacts."""
    en = _blank_latin1_codes(en)
    matches = list(_NUMERAL_RE.finditer(en))
    exempt = [_is_ocr_artefact(en, m) for m in matches]
    # a code standing next to an artefact is one too: "( the 2018 2018plan 2019 2019 )"
    changed = True
    while changed:
        changed = False
        for i, m in enumerate(matches):
            if exempt[i] or _norm_numeral(m.group()) not in _OCR_CODES:
                continue
            for j in (i - 1, i + 1):
                if 0 <= j < len(matches) and exempt[j]:
                    lo, hi = sorted((i, j))
                    if re.fullmatch(r"[a-z]*\s+", en[matches[lo].end():matches[hi].start()]):
                        exempt[i] = changed = True
                        break
    # FinQA repeats a signed figure in parentheses ("21% ( 21 % )", "-32 ( 32 )"); prose writes it once
    # (glossary §1 rule 17), so the parenthesised repeat is no numeral of its own
    for dup in _EN_DUP_RE.finditer(en):
        first, repeat = next((k, k + 1) for k in (1, 3, 5) if dup.group(k) is not None)
        if re.sub(r"[\d.,]+", lambda m: _norm_numeral(m.group()), dup.group(first)) != \
                re.sub(r"[\d.,]+", lambda m: _norm_numeral(m.group()), dup.group(repeat)):
            continue
        for i, m in enumerate(matches):
            if dup.start(repeat) <= m.start() < dup.end(repeat):
                exempt[i] = True
    return [m for m, skip in zip(matches, exempt) if not skip]


def en_numerals(en: str) -> Counter[str]:
    """The Arabic numerals of an English text that must survive (commas and leading zeros dropped,
    "5.0" kept as is), without FinQA's OCR artefacts."""
    return Counter(_norm_numeral(m.group()) for m in _en_numeral_matches(en))


def _glued_date(num: str, have: Counter[str]) -> bool:
    """FinQA glues numbers ("december 312012", "31.2013", "2007 20142006"): accept when the zh has the parts."""
    m = re.fullmatch(r"(\d{1,2})\.?((?:19|20)\d\d)", num)
    if m and 1 <= int(m.group(1)) <= 31 and have[_norm_numeral(m.group(1))] > 0 and have[m.group(2)] > 0:
        return True
    # a dash code glued to a year: "2007 20142006" is "2007 — 2006"
    m = re.fullmatch(r"(?:2013|2014|2018|2019)((?:19|20)\d\d)", num)
    return bool(m) and have[m.group(1)] > 0


# --- value-aware amounts: an amount restated in another scale keeps its value (glossary §1.3) -------------

# English scale words after a numeral: "5.9 billion", "$ 42.5 million", "$5.9bn", "$42.5M", "300k"
_EN_SCALES = {"thousand": 3, "million": 6, "billion": 9, "trillion": 12,
              "mn": 6, "mm": 6, "bn": 9, "k": 3, "m": 6, "b": 9}
# (an accounting negative keeps its scale outside the bracket: "$(149.7) million")
_EN_SCALE_AFTER_RE = re.compile(r"\)?(?:\s+20(?:13|14|22))?\s*(thousand|million|billion|trillion|mil-\s*lion|bil-\s*lion)s?\b"
                                r"|\)?\s?(mn|mm|bn)\b"
                                r"|\)?([kmb])\b", re.IGNORECASE | re.ASCII)
# the rest of a list whose last item carries the scale: "1.8 , 1.9 , and 2.0 million" (each in millions)
_EN_LIST_TAIL_RE = re.compile(r"(?:\s*(?:,|and|or|to|-)\s*(?:and\s+)?\$?\s*\d[\d,]*(?:\.\d+)?)+(?=\s*(?:thousand|million|"
                              r"billion|trillion)s?\b)", re.IGNORECASE | re.ASCII)
# a text's unit statement: "( in millions )", "dollars in thousands" scales its bare numerals
_EN_UNIT_RE = re.compile(r"\bin\s+(thousands|millions|billions)\b", re.IGNORECASE | re.ASCII)
# Chinese scales (powers of ten); longest first so 十億 is not read as 十 + 億
_ZH_SCALES = {"千億": 11, "百億": 10, "十億": 9, "千萬": 7, "百萬": 6, "十萬": 5, "兆": 12, "億": 8, "萬": 4, "千": 3}
_ZH_SCALE_ALT = "|".join(_ZH_SCALES)
_ZH_PART_RE = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(" + _ZH_SCALE_ALT + ")?")
# one amount: numerals with scales, possibly several (1 億 2,000 萬); a bare numeral is an amount too
_ZH_AMOUNT_RE = re.compile(r"\d[\d,]*(?:\.\d+)?\s*(?:" + _ZH_SCALE_ALT + r")(?:\s*\d[\d,]*(?:\.\d+)?\s*(?:"
                           + _ZH_SCALE_ALT + r"))*|\d[\d,]*(?:\.\d+)?")
# a US date in the English (12/31/12, 12/31/2012, 12/16) and a Taiwan date in the zh-TW (2012 年 12 月 31 日)
_EN_US_DATE_RE = re.compile(r"(?<![\d/.])(0?[1-9]|1[0-2])/(?:(0?[1-9]|[12]\d|3[01])/)?(\d{4}|\d{2})(?![\d/]|\.\d)")
_ZH_DATE_RE = re.compile(r"((?:19|20)\d\d)\s*年\s*(\d{1,2})\s*月(?:\s*(\d{1,2})\s*日)?")
# a fiscal quarter in shorthand (Q4'24, Q4 ’24, Q4 FY24) and in the zh-TW (2024 年第 4 季, 2024 會計年度第 4 季)
_EN_QUARTER_RE = re.compile(r"\bQ([1-4])\s?(?:'|’|FY\s?)(\d{2})\b", re.IGNORECASE)
_ZH_QUARTER_RE = re.compile(r"((?:19|20)\d\d)\s*(?:年|會計年度)\s*第\s*([1-4])\s*季")
# a period named by its calendar end: "quarter ended march 31" is the first quarter, "year ended december 31 ,
# 2015" is the year 2015 — a Taiwan writer says 「第 1 季」, 「2015 年度」, and the day numeral is restated in them
# (FinQA glues the year on: "december 312010"). Only calendar quarter ends: a fiscal quarter keeps its date.
_EN_PERIOD_END_RE = re.compile(
    r"\b(quarters?|years?|fiscal years?|twelve months|12 months)\s+(?:ended|ending)\s+(?:on\s+)?"
    r"(march|mar\.?|june|jun\.?|september|sept?\.?|december|dec\.?)\s+(30|31)((?:19|20)\d\d)?(?!\d)",
    re.IGNORECASE)
_QUARTER_END = {("mar", "31"): 1, ("jun", "30"): 2, ("sep", "30"): 3, ("dec", "31"): 4}
_EN_QUARTER_END_US_RE = re.compile(r"\bquarters?\s+(?:ended|ending)\s+(?:on\s+)?(0?3/31|0?6/30|0?9/30|12/31)/(\d{2}|\d{4})(?![\d/])",
                                   re.IGNORECASE)
_US_QUARTER_END = {"3/31": 1, "6/30": 2, "9/30": 3, "12/31": 4}
_ZH_QUARTER_NO_RE = re.compile(r"第\s*([1-4])\s*季")
_ZH_YEAR_RE = re.compile(r"(?:19|20)\d\d\s*(?:會計)?年度?")
# Basel capital tiers: the banking regulation writes 第一類資本／第二類資本 in Chinese numerals
_EN_TIER_RE = re.compile(r"\btier\s*([123])(?!\d)", re.IGNORECASE | re.ASCII)
_ZH_TIER = {"1": "第一類", "2": "第二類", "3": "第三類"}


def _decimal(num: str):
    from decimal import Decimal

    return Decimal(num)


@dataclass(frozen=True)
class _ZhAmount:
    value: object             # Decimal
    parts: tuple[str, ...]    # the normalised numerals it is written with: 1 億 2,000 萬 → ("1", "2000")
    scaled: bool              # written with a Chinese scale (億, 萬, 十億…)


def _zh_amounts(zh: str) -> list[_ZhAmount]:
    """Amounts of a zh-TW text: 59 億, 4,250 萬, 5.9 十億, 1 億 2,000 萬 (descending scales form one amount)."""
    out = []
    for m in _ZH_AMOUNT_RE.finditer(zh):
        parts = [(p.group(1), p.group(2)) for p in _ZH_PART_RE.finditer(m.group())]
        groups: list[list[tuple[str, str | None]]] = []
        for num, scale in parts:
            last = groups[-1][-1] if groups else None
            # 1 億 2,000 萬 continues while the scales descend; a bare number ends the amount
            if last and last[1] and scale and _ZH_SCALES[scale] < _ZH_SCALES[last[1]]:
                groups[-1].append((num, scale))
            else:
                groups.append([(num, scale)])
        for group in groups:
            value = sum(_decimal(n.replace(",", "")) * 10 ** _ZH_SCALES.get(s or "", 0) for n, s in group)
            out.append(_ZhAmount(value, tuple(_norm_numeral(n) for n, _ in group), any(s for _, s in group)))
    return out


def _en_values(en: str, m: re.Match[str], unit_scales: tuple[int, ...]) -> set:
    """Values an English numeral may take when restated: itself, times a scale word right after it
    ("5.9 billion"), or times the text's stated unit ("in millions")."""
    num = _decimal(_norm_numeral(m.group()))
    values = {num}
    after = _EN_SCALE_AFTER_RE.match(en, m.end())
    if not after:
        tail = _EN_LIST_TAIL_RE.match(en, m.end())
        after = _EN_SCALE_AFTER_RE.match(en, tail.end()) if tail else None
    if after:
        word = re.sub(r"-\s*", "", next(g for g in after.groups() if g))
        values.add(num * 10 ** _EN_SCALES[word.lower()])
    else:
        values.update(num * 10 ** s for s in unit_scales)
    return values


def missing_numerals(en: str, zh: str) -> list[Finding]:
    """Each English numeral must survive in the zh-TW (multiset), written as in the English or restated
    with the same value: 5.9 billion → 59 億, $ 42.5 million → 4,250 萬, 120 million → 1 億 2,000 萬,
    12/31/12 → 2012 年 12 月 31 日, tier 1 → 第一類. Any other change is a finding (5.9 billion → 58 億);
    extra numerals in the zh-TW (12 月 for December) are never an error.

    >>> missing_numerals("revenue of $ 5.9 billion", "營收 59 億美元")
    []
    >>> [f.found for f in missing_numerals("revenue of $ 5.9 billion", "營收 58 億美元")]
    ['5.9']
    """
    matches = _en_numeral_matches(en)
    need = Counter(_norm_numeral(m.group()) for m in matches)
    have = _zh_numerals(zh)
    if any(have[num] < count for num, count in need.items()):
        _restated(en, zh, matches, need, have)
    findings = []
    for num, count in need.items():
        if count <= 0 or have[num] >= count or _glued_date(num, have):
            continue
        where = next((m for m in _NUMERAL_RE.finditer(en) if _norm_numeral(m.group()) == num), None)
        snippet = _snippet(en, where.start(), where.end()) if where else en[:60]
        times = f"（原文 {count} 次，譯文 {max(have[num], 0)} 次）" if count > 1 else ""
        findings.append(Finding("numeral_missing",
                                f"譯文缺少原文數字「{num}」{times}：數字照抄，或換算成億／萬時數值必須相等",
                                snippet, found=num))
    return findings


def _restated(en: str, zh: str, matches: list[re.Match[str]], need: Counter[str], have: Counter[str]) -> None:
    """Resolve missing numerals that the zh-TW restates: dates, capital tiers, amounts in another scale.
    A zh-TW numeral serves once: a restatement only uses numerals the zh-TW has beyond the literal needs."""
    zh_norm = unicodedata.normalize("NFKC", zh)
    # dates
    zh_dates: Counter[tuple[int, int, int]] = Counter(
        (int(d.group(1)), int(d.group(2)), int(d.group(3) or 0)) for d in _ZH_DATE_RE.finditer(zh_norm))
    for d in _EN_US_DATE_RE.finditer(en):
        month, day, year = d.group(1), d.group(2), d.group(3)
        full = int(year) if len(year) == 4 else (2000 + int(year) if int(year) < 50 else 1900 + int(year))
        key = (full, int(month), int(day or 0))
        if zh_dates[key] <= 0:
            continue
        zh_dates[key] -= 1
        for part in filter(None, (month, day, year)):
            need[_norm_numeral(part)] -= 1
        for part in filter(None, (str(full), str(int(month)), str(int(day)) if day else "")):
            have[part] -= 1
    # quarters: Q4'24 → 2024 年第 4 季 (the 24 is written as 2024)
    zh_quarters: Counter[tuple[int, int]] = Counter(
        (int(q.group(1)), int(q.group(2))) for q in _ZH_QUARTER_RE.finditer(zh_norm))
    for q in _EN_QUARTER_RE.finditer(en):
        quarter, yy = q.group(1), q.group(2)
        key = (2000 + int(yy) if int(yy) < 50 else 1900 + int(yy), int(quarter))
        if zh_quarters[key] <= 0:
            continue
        zh_quarters[key] -= 1
        need[_norm_numeral(yy)] -= 1
        have[str(key[0])] -= 1
    # calendar period ends: "quarter ended december 31" → 「第 4 季」, "year ended december 31 , 2015" → 「2015 年度」
    zh_quarter_nos = Counter(int(q.group(1)) for q in _ZH_QUARTER_NO_RE.finditer(zh_norm))
    zh_years = len(_ZH_YEAR_RE.findall(zh_norm))
    for p in _EN_PERIOD_END_RE.finditer(en):
        period, month, day, glued = p.group(1).lower(), p.group(2).lower()[:3], p.group(3), p.group(4)
        key = _norm_numeral(day + (glued or ""))
        if need[key] <= have[key] or (glued and have[glued] <= 0):
            continue
        if period.startswith("quarter"):
            number = _QUARTER_END.get((month, day))
            if number is None or zh_quarter_nos[number] <= 0:
                continue
            zh_quarter_nos[number] -= 1
        elif (month, day) != ("dec", "31") or zh_years <= 0:
            continue
        else:
            zh_years -= 1
        need[key] -= 1
    for p in _EN_QUARTER_END_US_RE.finditer(en):  # "quarter ended 12/31/10" → 「2010 年第 4 季」
        month_day, yy = p.group(1).lstrip("0"), p.group(2)
        full = str(int(yy) + (2000 if int(yy) < 50 else 1900)) if len(yy) == 2 else yy
        number = _US_QUARTER_END[month_day]
        month, day = month_day.split("/")
        if zh_quarter_nos[number] <= 0 or have[full] <= 0 or all(need[k] <= have[k] for k in (month, day, _norm_numeral(yy))):
            continue
        zh_quarter_nos[number] -= 1
        for k in (month, day, _norm_numeral(yy)):
            need[k] -= 1
    # capital tiers
    for t in _EN_TIER_RE.finditer(en):
        word = _ZH_TIER[t.group(1)]
        used = sum(1 for x in _EN_TIER_RE.finditer(en[: t.start()]) if x.group(1) == t.group(1))
        if zh_norm.count(word) > used and need[t.group(1)] > have[t.group(1)]:
            need[t.group(1)] -= 1
    # amounts: each still-missing English numeral may be met by a zh amount of equal value
    surplus = Counter({k: v - need[k] for k, v in have.items() if v > need[k]})
    deficit = Counter({k: v - max(have[k], 0) for k, v in need.items() if v > max(have[k], 0)})
    if not deficit:
        return
    blanked = _blank_latin1_codes(en)
    unit_scales = tuple(_EN_SCALES[u.lower().rstrip("s")] for u in _EN_UNIT_RE.findall(en))
    amounts = _zh_amounts(zh_norm)
    used = [False] * len(amounts)
    for m in matches:
        num = _norm_numeral(m.group())
        if deficit[num] <= 0:
            continue
        bare = _decimal(num)
        values = _en_values(blanked, m, unit_scales)
        for i, a in enumerate(amounts):
            # only a change of scale is a restatement: 5.0 written as 5 is still a changed numeral
            if used[i] or a.value not in values or (not a.scaled and a.value == bare):
                continue
            if any(surplus[p] < c for p, c in Counter(a.parts).items()):
                continue
            used[i] = True
            for p in a.parts:
                surplus[p] -= 1
            deficit[num] -= 1
            need[num] -= 1
            break


# ---------------------------------------------------------------------------------------------
# conventions

_MONTH_RE = re.compile(
    r"\b(?:January|February|March|April|June|July|August|September|October|November|December)\b"
    r"|\bMay\b|\bmay(?=\s*\d)"
    r"|\b(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\b\.?(?=\s*\d)",
    re.IGNORECASE | re.ASCII,  # ASCII: a CJK character next to the word is a word boundary
)
_MAY_RE = re.compile(r"may", re.IGNORECASE)
# a date expression: 2015 年 12 月 31 日, 12 月 31 日, 31 日, 2015 年度 (日圓/日元 are yen, not days)
_DATE_RE = re.compile(r"\d+\s*(?:年\s*\d+\s*月(?:\s*\d+\s*日)?|月(?:\s*\d+\s*日)?|日(?![圓元])|年度)")
_DATE_TIGHT_RE = re.compile(r"\d[年月日]|[年月日]\d")
_TABLE_TO_RE = re.compile(r"[\d)%]\s*\bto\b\s*(?=[-$(\d])", re.IGNORECASE | re.ASCII)


def _phrase_re(phrase: str) -> re.Pattern[str]:
    """A glossary English phrase as a case-insensitive word match: hyphen/space variants, plural -s."""
    parts = [re.escape(p) for p in re.split(r"[-\s]+", phrase.strip()) if p]
    body = r"[-\s]+".join(parts)
    head = r"\b" if phrase[:1].isalnum() else ""
    tail = r"(?:s|es)?\b" if phrase[-1:].isalnum() else ""
    return re.compile(head + body + tail, re.IGNORECASE | re.ASCII)


@functools.lru_cache(maxsize=4)
def _required_index(glossary: Glossary) -> tuple[tuple[object, tuple[re.Pattern[str], ...]], ...]:
    return tuple((req, tuple(_phrase_re(p) for p in req.phrases)) for req in glossary.required)


def convention_issues(zh: str, en: str | None = None, *, in_table: bool = False,
                      allow_english: Iterable[str] = ()) -> list[Finding]:
    """Month names, date spacing, million/billion left in English, "to" in table ranges, required
    renderings. `allow_english` exempts kept English words (e.g. "billion" where a FinanceAgent answer
    format needs it). A 不可用 form that is also a forbidden PRC term is left to find_prc_terms."""
    glossary = _glossary()
    allowed = {a.lower() for a in allow_english}
    findings = []
    for m in _MONTH_RE.finditer(zh):
        word = m.group()
        if _MAY_RE.fullmatch(word) and word.islower() and not re.match(r"\s*\d", zh[m.end():]):
            continue
        if word.lower().rstrip(".") in allowed:
            continue
        findings.append(Finding("convention", f"英文月份「{word}」留在譯文：寫成「12 月 31 日」的形式",
                                _snippet(zh, m.start(), m.end()), found=word, code="month_name"))
    for m in _DATE_RE.finditer(zh):
        if _DATE_TIGHT_RE.search(m.group()):
            fixed = re.sub(r"\s*(\d+)\s*", r" \1 ", m.group()).strip()
            findings.append(Finding("convention", f"日期的數字前後要留空格：「{m.group()}」→「{fixed}」",
                                    _snippet(zh, m.start(), m.end(), 8), found=m.group(), fix=fixed,
                                    code="date_spacing"))
    if not in_table:
        findings += _mixed_scale(zh)
    if in_table:
        for m in _TABLE_TO_RE.finditer(zh):
            findings.append(Finding("convention", "表格區間的「to」請譯為「至」", _snippet(zh, m.start(), m.end()),
                                    found="to", fix="至", code="table_to"))
    for req, patterns in _required_index(glossary):
        # a one-word English phrase kept in the zh-TW is untranslated (million → 百萬); longer phrases
        # left in English are the residue rule's business
        for phrase, pat in zip(req.phrases, patterns):
            if any(ch.isspace() for ch in phrase):
                continue
            for m in pat.finditer(zh):
                if m.group().lower() in allowed or phrase.lower() in allowed or m.group() in glossary.allowed_english:
                    continue  # an allowed token (VIE after 變動利益個體) is kept on purpose
                keep = "（散文可改寫成億／萬，數值須相等）" if re.fullmatch(r"[mb]illions?", m.group(), re.I) else ""
                findings.append(Finding("convention", f"「{m.group()}」未翻譯：譯為「{req.must}」{keep}",
                                        _snippet(zh, m.start(), m.end()), found=m.group(), fix=req.must,
                                        code="untranslated_term"))
        if en is None or not req.forbidden_forms:
            continue
        mentions = sum(len(pat.findall(en)) for pat in patterns)
        # each mention needs its rendering; a 不可用 form beyond that translates another phrase
        # ("long-term debt and other long-term liabilities" → 長期債務及其他長期負債)
        if mentions == 0:
            continue
        # the rendering inside a 不可用 form does not count (「數學全距」 holds 「全距」)
        rest = zh
        for bad in req.forbidden_forms:
            rest = rest.replace(bad, "\0")
        if rest.count(req.must) >= mentions:
            continue
        for bad in sorted(req.forbidden_forms, key=len, reverse=True):
            if bad in glossary.forbidden:
                continue
            start = zh.find(bad)
            if start >= 0:  # one finding per rendering: 「第 1 類資本」, not also 「第 1 類」 inside it
                findings.append(Finding("convention", f"「{req.phrases[0]}」應譯為「{req.must}」，不可用「{bad}」",
                                        _snippet(zh, start, start + len(bad)), found=bad, fix=req.must,
                                        code="required_rendering"))
                break
    return findings


# an amount in the source scale (334 百萬美元, 5.9 十億) and one in Taiwan scale (3.34 億美元, 4,250 萬股)
_SOURCE_SCALE_RE = re.compile(r"\d[\d,]*(?:\.\d+)?\s*(?:十億|百萬)(?:美元|元|股)?")
_TAIWAN_SCALE_RE = re.compile(r"\d[\d,]*(?:\.\d+)?\s*[億萬](?:美元|元|股)")


def _mixed_scale(zh: str) -> list[Finding]:
    """One unit style per prose string (glossary §1.3): 「14 十億美元」 next to 「4,250 萬美元」 is a finding."""
    source, taiwan = _SOURCE_SCALE_RE.search(zh), _TAIWAN_SCALE_RE.search(zh)
    if not (source and taiwan):
        return []
    return [Finding("convention", f"同一段文字的金額單位要一致：「{source.group()}」與「{taiwan.group()}」混用，"
                    "散文請一律寫成億／萬（標準答案的單位需要時才全部保留原文單位）",
                    _snippet(zh, source.start(), source.end()), found=source.group(), code="mixed_scale")]


# money or share amounts, for the item-wide rule (「35 百萬桶油當量」 is a unit name, not a style)
_SOURCE_AMOUNT_RE = re.compile(r"\d[\d,]*(?:\.\d+)?\s*(?:十億|百萬)(?:美元|元|股)")
_TAIWAN_AMOUNT_RE = re.compile(r"\d[\d,]*(?:\.\d+)?\s*[億萬](?:美元|元|股)")


def item_scale_issues(fields: Iterable[tuple[str, str]]) -> list[tuple[str, Finding]]:
    """One amount style per item (issue 30 d): the prose fields of one item (field name, zh-TW text) write
    their amounts either the source's way (「324 百萬美元」, when a gold needs it) or the Taiwan way (「3.24
    億美元」), not both — a reader of the item sees one convention. The finding names the field in the source
    style and the field it disagrees with."""
    source = taiwan = None
    for field, zh in fields:
        if source is None and (m := _SOURCE_AMOUNT_RE.search(zh)):
            source = (field, zh, m)
        if taiwan is None and (m := _TAIWAN_AMOUNT_RE.search(zh)):
            taiwan = (field, zh, m)
    if source is None or taiwan is None or source[0] == taiwan[0]:
        return []  # one field mixing both is the per-string rule's finding
    field, zh, m = source
    return [(field, Finding("convention", f"同一題的金額單位要一致：「{m.group()}」與 {taiwan[0]} 的「{taiwan[2].group()}」"
                                          "混用，請整題一律寫成億／萬（標準答案需要原文單位時，在問題中註明單位）",
                            _snippet(zh, m.start(), m.end()), found=m.group(), code="mixed_scale_item"))]


# ---------------------------------------------------------------------------------------------
# tables and whole translations

_LATIN_RE = re.compile(r"[A-Za-z]")


_DASH_CODE_CELL_RE = re.compile(r"\(?\s*\$?\s*\(?\s*(?:2013|2014|2212)\s*\)?\s*\)?")  # FinQA's OCR for a dash
_DIGIT_GROUP_RE = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


def displayed_as(en_cell: str, zh_cell: str) -> bool:
    """Does `zh_cell` print what `en_cell` says, as a Taiwan table prints it (a built record's table)?
    Identical; or with thousands separators, FinQA's duplicated rendering written once (「-34 ( 34 )」 →
    「-34」, 「6.5% ( 6.5 % )」 → 「6.5%」, 「( 41 ) % ( % )」 → 「-41%」), a dash code (2014, 2013, 2212) as 「—」,
    footnote marks full-width (`evidence_zh.footnote_marks`: 「18322320 ( 1 )」 → 「18,322,320（註 1）」), a note
    column's 「-10 ( 10 )」 as 「（註 10）」, a range's dash code as 「至」 (`evidence_zh.range_dashes`).

    >>> displayed_as("4.98% ( 4.98 % ) 20145.05% ( 20145.05 % )", "4.98% 至 5.05%"), displayed_as("4.98% 20145.05%", "4.98% 至 5.06%")
    (True, False)
    >>> displayed_as("$ -30584 ( 30584 )", "$ -30,584"), displayed_as("2014", "—"), displayed_as("1234", "1,243")
    (True, True, False)
    >>> displayed_as("18322320 ( 1 )", "18,322,320（註 1）"), displayed_as("-10 ( 10 )", "（註 10）"), displayed_as("-10 ( 10 )", "（註 1）")
    (True, True, False)
    """
    if en_cell == zh_cell:
        return True
    if zh_cell.strip() == "—":
        return _DASH_CODE_CELL_RE.fullmatch(en_cell.strip()) is not None
    note = re.fullmatch(r"（註 (\d{1,2})）", zh_cell.strip())
    if note:  # a note column's reference, which FinQA printed as a negative (「-10 ( 10 )」 for the page's (10))
        m = re.fullmatch(r"-(\d{1,2}) \( \1 \)|\(\s*(\d{1,2})\s*\)", en_cell.strip())
        return m is not None and (m.group(1) or m.group(2)) == note.group(1)
    en = re.sub(r"(-?\d[\d,]*(?:\.\d+)?(?:%/-?\d[\d,]*(?:\.\d+)?)*)\s*%\s*\(\s*-?\1\s*%\s*\)", r"\1%",
                en_cell.strip())
    en = re.sub(r"\(\s*(\d[\d,]*(?:\.\d+)?)\s*\)\s*%(?:\s*\(\s*%\s*\))?", r"-\1%", en)
    en = footnote_marks(re.sub(r"-(\d[\d,]*(?:\.\d+)?)\s*\(\s*\1\s*\)", r"-\1", en), figures=True)
    return range_dashes(en) == _DIGIT_GROUP_RE.sub("", zh_cell.strip())


# a change column's header that FinQA left as debris after the period lead, which a built record's table prints as
# 「變動金額」 / 「變動 %」 (`evidence_zh._header_cell`): the period's numerals go with the debris
_CHANGE_HEADERS = frozenset({"變動金額", "變動 %"})
_CHANGE_HEADER_EN_RE = re.compile(r"\s*(?:[^$%]*,\s*)?(?:\$\s*(?:change)?|%\s*\(\s*%\s*\)\s*(?:change)?|\$?\s*change)\s*", re.I)


def _named_year_header(en_cell: str, zh_cell: str) -> bool:
    """A header cell that is only a year in the English (FinQA's flattened two-level header lost the group's
    name: 「bermuda subsidiaries 2008 | … | 2006」) may say the name its siblings have — the year kept, no other
    figure: 「2006 年美國子公司」, 「2006 年平均」.

    >>> _named_year_header("2006", "2006 年美國子公司"), _named_year_header("2006", "2007 年平均")
    (True, False)
    >>> _named_year_header("2006", "2006 年 12 月平均"), _named_year_header("$ 2006", "2006 年")
    (False, False)
    """
    m = re.fullmatch(r"((?:19|20)\d\d)", en_cell.strip())
    return bool(m) and re.fullmatch(rf"{m.group(1)} 年度?[^\d\s][^\d]*", zh_cell.strip()) is not None


def table_issues(en_table: list[list[str]], zh_table: list[list[str]], *, displayed: bool = False) -> list[Finding]:
    """Same rows and row lengths; cells without Latin letters identical (`displayed`: a built record's
    table, which may print them as a Taiwan table does — `displayed_as`); other cells translated well."""
    findings = []
    if len(en_table) != len(zh_table):
        findings.append(Finding("table_shape", f"表格列數不同：原文 {len(en_table)} 列，譯文 {len(zh_table)} 列",
                                f"rows {len(en_table)} → {len(zh_table)}", code="table_rows"))
    for r, (en_row, zh_row) in enumerate(zip(en_table, zh_table)):
        if len(en_row) != len(zh_row):
            findings.append(Finding("table_shape",
                                    f"第 {r} 列欄數不同：原文 {len(en_row)} 欄，譯文 {len(zh_row)} 欄",
                                    " | ".join(zh_row)[:60], code="table_columns"))
            continue
        for c, (en_cell, zh_cell) in enumerate(zip(en_row, zh_row)):
            if displayed and r == 0 and zh_cell.strip() in _CHANGE_HEADERS and _CHANGE_HEADER_EN_RE.fullmatch(en_cell):
                continue  # 「for the years ended december 31 , $」, 「% (  % )」: the display names the change column
            if displayed and r == 0 and zh_cell.strip() == change_pair_header(en_cell):
                continue  # 「2008 20142007」 printed 「2008 年較 2007 年變動」: the years kept, the dash code named
            if r == 0 and _named_year_header(en_cell, zh_cell):
                continue  # a bare 「2006」 over a group's last column named as its siblings: 「2006 年美國子公司」
            # 「2016 2014 2020」, 「years 2012 2013 2016」 printed 「2016–2020」, 「年度 2012–2016」: the code is the span's dash
            shown = year_range_label(en_cell) if displayed else en_cell
            if not _LATIN_RE.search(en_cell):
                if shown != zh_cell and not (displayed and displayed_as(en_cell, zh_cell)):
                    findings.append(Finding("table_cell",
                                            f"第 {r} 列第 {c} 欄沒有英文字母，必須與原文相同：「{en_cell}」",
                                            zh_cell[:60], found=zh_cell, fix=en_cell))
                continue
            en_cell = shown
            if displayed and zh_cell.rstrip().endswith("—"):  # 「…負債 2014」 printed 「…負債 —」: no numeral lost
                en_cell = re.sub(r"\s(?:2013|2014|2212)\s*$", " —", en_cell)
            for f in check_translation(en_cell, zh_cell, in_table=True):
                findings.append(Finding(f.rule, f"第 {r} 列第 {c} 欄：{f.message}", f.text, f.found, f.fix, f.code))
    return findings


@functools.lru_cache(maxsize=4)
def _kept_english_words(glossary: Glossary) -> tuple[str, ...]:
    """One-word English phrases that convention_issues reports when kept (million, mark-to-market…)."""
    words = []
    for req in glossary.required:
        for phrase in req.phrases:
            if not any(ch.isspace() for ch in phrase):
                for form in (phrase, phrase + "s"):
                    words += [form, form.lower(), form.capitalize(), form.upper()]
    return tuple(words)


# a negative figure written without its sign still reads right after a word that says the direction
_ROW_SIGN_WORDS = ("減少", "下降", "減", "降", "虧損", "損失", "淨損", "負", "流出", "支出", "費用", "扣除", "沖銷", "減損",
                   "攤銷", "折舊", "赤字", "低於", "少於")
_NEGATIVE_CELL_RE = re.compile(r"^\s*\$?\s*[-−(（]\s*\$?\s*(\d[\d,]*(?:\.\d+)?)")


_ROW_MARKER_RE = re.compile(r"[（(]\s*(?:註|附註)?\s*(\d{1,2})\s*[）)]|\s(\d{1,2})$")
_TWO_DIGIT_YEAR_RE = re.compile(r"(?<![\d.,])(?:\d{1,2}/){1,2}(\d{2})(?![\d/])")
_DASH_CODE_CELL_RE = re.compile(r"^\s*\$?\s*(2013|2014|2212)\s*$")
_ROW_COUNT_WORDS = ("皆", "均", "都", "同為", "相同", "各為")


def _full_year(yy: str) -> str:
    return str(2000 + int(yy) if int(yy) < 50 else 1900 + int(yy))


def _row_figure(cell: str) -> str | None:
    m = _NUMERAL_RE.search(unicodedata.normalize("NFKC", cell))
    return _norm_numeral(m.group()) if m else None


_CALENDAR_END_RE = re.compile(r"\bdecember\s+31\b", re.IGNORECASE)
_CALENDAR_PERIOD_RE = re.compile(r"(?:19|20)\d\d ?年(?:度|第 ?[1-4] ?季)")


def written_row_issues(en: str, row: list[str], zh: str, *, header: list[str] = (),
                       en_row: list[str] = ()) -> list[Finding]:
    """A hand-written sentence for one table row (overlay `evidence.table_N`) against FinQA's English sentence
    `en` for the row, its translated cells `row`, the table's `header` row and the English row `en_row`.

    FinQA's row sentence repeats the row label and the column header in every clause ("the total of 2008
    is …; the total of 2007 is …"), which a sentence written for the row says once: so each English numeral
    must appear at least once (not once per clause), a value that two data cells share must appear as often
    (unless a word such as 「皆」 says they are equal), and a footnote marker of the row label (「租賃設施 2」,
    「（註 1）」) may go, as may an OCR dash code ("2014") whose cell the translation prints 「—」. The other
    prose rules of `check_translation(en, zh)` apply as written. No figure may appear that is neither in `en`
    nor in the row or header (a year written out from 「12/31/08」 is the header's); a negative cell keeps its
    sign or a word that says the direction.

    >>> [f.code for f in written_row_issues("the total of 2008 is $ 2089 ; the total of 2007 is $ 1500 ;",
    ...                                     ["合計", "$ 2,089", "$ 1,500"], "合計：2008 年 $ 2,089、2007 年 $ 1,500。")]
    []
    >>> [(f.code, f.found) for f in written_row_issues("the total of 2008 is $ 2089 ;", ["合計", "$ 2,089"],
    ...                                                  "合計：2008 年 $ 2,098。")]
    [('numeral_missing', '2089'), ('row_figure_extra', '2098')]
    >>> [f.code for f in written_row_issues("the change of 2009 is -5 ( 5 ) ;", ["變動", "-5 ( 5 )"],
    ...                                     "2009 年變動 5 點。")]
    ['row_sign_lost']
    """
    markers: set[str] = set()
    for cell in [row[0] if row else "", *header]:
        for m in _ROW_MARKER_RE.finditer(unicodedata.normalize("NFKC", cell).strip()):
            markers.add(_norm_numeral(m.group(1) or m.group(2)))
    dash_codes = {m.group(1) for en_cell, zh_cell in zip(en_row, row)
                  if zh_cell.strip().endswith("—") and (m := _DASH_CODE_CELL_RE.match(en_cell))}
    have = _zh_numerals(zh)
    excused = {_norm_numeral(m.group(1)) for m in _TWO_DIGIT_YEAR_RE.finditer(en)
             if _full_year(m.group(1)) in have}  # 12/31/09 said as 「2009 年」 in a row that gave the date once
    if header and header_is_data(header):
        # a table whose first row is data (「2008 | $ 4,935」): FinQA's row sentence names each value by that row's
        # cells ("the 2009 of $ 4935 is 5010"), which are another row's figures — the sentence need not say them
        row_figures = set(_zh_numerals(" ".join(row)))
        excused |= {n for cell in header for n in _zh_numerals(cell) if n not in row_figures}
    if _CALENDAR_END_RE.search(en) and _CALENDAR_PERIOD_RE.search(zh):
        excused.add("31")  # "year ended december 31 2014 1st qtr" said 「2014 年第 1 季」 / 「2014 年度」: the calendar year
    findings = []
    for f in check_translation(en, zh):
        if f.code == "numeral_missing" and (have[f.found] > 0 or f.found in markers | dash_codes | excused):
            continue  # said once for the row; a footnote marker; a dash printed 「—」; an excused figure (above)
        findings.append(f)
    text = unicodedata.normalize("NFKC", zh)
    if not any(w in text for w in _ROW_COUNT_WORDS):
        cells = Counter(filter(None, (_row_figure(c) for c in row[1:])))
        for num, count in sorted(cells.items()):
            if count > 1 and 0 < have[num] < count:
                findings.append(Finding("numeral_missing", f"譯文缺少原文數字「{num}」（該列 {count} 欄皆為此值，"
                                        f"句中只寫 {have[num]} 次；或以「皆為」等字說明）", zh[:60], found=num))
    allowed = set(en_numerals(en))
    lowered = " ".join([en, *en_row]).lower()
    allowed |= {str(k) for k, month in enumerate(_MONTHS, 1) if re.search(rf"\b{month}\b", lowered)}  # december → 「12 月」
    for cell in [en, *header, *row, *en_row]:
        allowed |= set(_zh_numerals(cell)) | {_full_year(m.group(1)) for m in _TWO_DIGIT_YEAR_RE.finditer(cell)}
    for num in sorted(set(have) - allowed):
        findings.append(Finding("written_row", f"表格列句多出原列沒有的數字 {num}（句中數字須與該列及表頭相同）",
                                zh[:60], found=num, code="row_figure_extra"))
    worded = any(w in text for w in _ROW_SIGN_WORDS)
    for cell in row:
        m = _NEGATIVE_CELL_RE.match(unicodedata.normalize("NFKC", cell))
        if not m or worded:
            continue
        num = re.escape(m.group(1))
        if re.search(r"(?<![\d,.])" + num + r"(?![\d])", text) and \
                not re.search(r"[-−(]\s*\$?\s*" + num + r"(?![\d])", text):
            findings.append(Finding("written_row", f"負數 {cell.strip()} 在表格列句中失去正負號（寫 -{m.group(1)}、"
                                    f"({m.group(1)}) 或以「減少／損失」等字說明方向）", zh[:60], found=m.group(1),
                                    code="row_sign_lost"))
    return findings


def check_translation(en: str, zh: str, *, in_table: bool = False, extra_allow: Iterable[str] = ()) -> list[Finding]:
    """All rules for one translated string against its English source."""
    extra = list(extra_allow)
    conventions = convention_issues(zh, en, in_table=in_table, allow_english=extra)
    # words the convention rule already reports are not reported again as English residue
    residue_allow = extra + list(_MONTHS) + [m.capitalize() for m in _MONTHS]
    residue_allow += _kept_english_words(_glossary())
    if in_table and any(f.code == "table_to" for f in conventions):
        residue_allow += ["to", "TO", "To"]
    return (find_simplified(zh) + find_prc_terms(zh) + missing_numerals(en, zh)
            + find_english_residue(zh, extra_allow=residue_allow) + conventions)


def check_zh(text: str) -> list[Finding]:
    """Text without an English source (model outputs, plain files): simplified characters and PRC terms."""
    return find_simplified(text) + find_prc_terms(text)

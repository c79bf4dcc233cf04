"""Parse 術語表_glossary_zh-TW.md: the one file translators read and the zh-TW checker enforces.

The glossary is Markdown for people; the checker reads only plain Markdown tables under fixed headings,
so a translator can edit it with any editor and a malformed row fails loudly with file:line.

>>> g = load_glossary()
>>> g.forbidden["軟件"], "EPS" in g.allowed_english, "台" in g.simplified_allow
('軟體', True, True)
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from tw_fin_eval import paths
from tw_fin_eval.errors import InputError, not_a_file

TERMS_HEADING_PREFIX = "## 2. 術語表"
FORBIDDEN_HEADING = "### 禁用中國用語 (forbidden PRC terms)"
ALLOWED_HEADING = "### 允許的英文 (allowed English tokens)"
REQUIRED_HEADING = "### 必要譯法 (required renderings)"
SIMPLIFIED_HEADING = "### 簡體偵測允許字 (simplified-detection allow-list)"

# 「例外：品質量、物質量」 in a forbidden term's note: longer words that legitimately contain the term.
_EXCEPTION_RE = re.compile(r"例外[：:]\s*([^。；;|]+)")
_LIST_SPLIT_RE = re.compile(r"\s*[、,，]\s*")
_ALT_SPLIT_RE = re.compile(r"\s+/\s+")


@dataclass(frozen=True)
class Term:
    en: str
    zh: str
    note: str


@dataclass(frozen=True)
class Required:
    """If the English source contains `en`, the zh-TW must not contain `must_not` (or, when `must_not`
    is empty, must not keep the English word itself)."""

    en: str
    must: str
    must_not: str

    @property
    def phrases(self) -> tuple[str, ...]:
        """English alternatives, written `a / b` in the glossary (a bare `/` stays: `p/e ratio`)."""
        return tuple(p for p in _ALT_SPLIT_RE.split(self.en.strip()) if p)

    @property
    def forbidden_forms(self) -> tuple[str, ...]:
        return tuple(p for p in _LIST_SPLIT_RE.split(self.must_not.strip()) if p)


@dataclass(frozen=True, eq=False)  # identity hash: the checker caches indexes per loaded glossary
class Glossary:
    terms: tuple[Term, ...]
    forbidden: dict[str, str]
    allowed_english: frozenset[str]
    required: tuple[Required, ...]
    simplified_allow: frozenset[str]
    # words in which a flagged character is correct Taiwan usage (拮据, 風采): allowed there only
    simplified_allow_words: frozenset[str] = frozenset()
    # forbidden term -> longer Taiwan words containing it that are not an error (from the 備註 column)
    forbidden_exceptions: dict[str, tuple[str, ...]] = field(default_factory=dict)
    path: str = ""


@dataclass
class _Row:
    line: int
    cells: list[str]


def _split_row(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    # `\|` is a literal pipe inside a cell
    cells = re.split(r"(?<!\\)\|", body)
    return [c.strip().replace("\\|", "|") for c in cells]


def _is_separator(cells: list[str]) -> bool:
    return bool(cells) and all(re.fullmatch(r":?-{3,}:?", c) for c in cells)


def _table_after(lines: list[str], start: int, path: Path, heading: str) -> tuple[list[str], list[_Row]]:
    """The first Markdown table after line index `start`: header cells and data rows (1-based lines)."""
    i = start + 1
    while i < len(lines) and not lines[i].lstrip().startswith("|"):
        if lines[i].startswith("#"):
            raise InputError(f"no table under heading {heading!r}", path=path, line=start + 1)
        i += 1
    if i >= len(lines):
        raise InputError(f"no table under heading {heading!r}", path=path, line=start + 1)
    header = _split_row(lines[i])
    if i + 1 >= len(lines) or not _is_separator(_split_row(lines[i + 1])):
        raise InputError("table header must be followed by a |---| separator row", path=path, line=i + 2)
    rows: list[_Row] = []
    i += 2
    while i < len(lines) and lines[i].lstrip().startswith("|"):
        cells = _split_row(lines[i])
        if len(cells) != len(header):
            raise InputError(f"table row has {len(cells)} cells, the header has {len(header)}",
                             path=path, line=i + 1)
        if not cells[0]:
            raise InputError("table row has an empty first cell", path=path, line=i + 1)
        rows.append(_Row(i + 1, cells))
        i += 1
    if not rows:
        raise InputError(f"empty table under heading {heading!r}", path=path, line=start + 1)
    return header, rows


def _find_heading(lines: list[str], path: Path, *, exact: str | None = None, prefix: str | None = None) -> int:
    for i, line in enumerate(lines):
        text = line.strip()
        if (exact is not None and text == exact) or (prefix is not None and text.startswith(prefix)):
            return i
    raise InputError(f"glossary heading missing: {exact or prefix!r}", path=path)


def parse_glossary(text: str, path: Path) -> Glossary:
    lines = text.splitlines()

    _, term_rows = _table_after(lines, _find_heading(lines, path, prefix=TERMS_HEADING_PREFIX), path,
                                TERMS_HEADING_PREFIX)
    terms = []
    for row in term_rows:
        if len(row.cells) < 3 or not row.cells[1]:
            raise InputError("term row needs English | 臺灣用語 | 備註", path=path, line=row.line)
        terms.append(Term(row.cells[0], row.cells[1], row.cells[2]))

    _, forbidden_rows = _table_after(lines, _find_heading(lines, path, exact=FORBIDDEN_HEADING), path,
                                     FORBIDDEN_HEADING)
    forbidden: dict[str, str] = {}
    exceptions: dict[str, tuple[str, ...]] = {}
    for row in forbidden_rows:
        if len(row.cells) < 2 or not row.cells[1]:
            raise InputError("forbidden row needs 禁用 | 臺灣用語 | 備註", path=path, line=row.line)
        bad, good = row.cells[0], row.cells[1]
        if bad in forbidden:
            raise InputError(f"forbidden term {bad!r} listed twice", path=path, line=row.line)
        forbidden[bad] = good
        note = row.cells[2] if len(row.cells) > 2 else ""
        match = _EXCEPTION_RE.search(note)
        if match:
            words = tuple(w for w in _LIST_SPLIT_RE.split(match.group(1).strip()) if w)
            for word in words:
                if bad not in word:
                    raise InputError(f"exception {word!r} does not contain the forbidden term {bad!r}",
                                     path=path, line=row.line)
            exceptions[bad] = words
        if bad in good and good not in exceptions.get(bad, ()):
            # the checker would flag its own advice
            raise InputError(f"forbidden term {bad!r} occurs in its replacement {good!r}; list it as 例外",
                             path=path, line=row.line)

    _, allowed_rows = _table_after(lines, _find_heading(lines, path, exact=ALLOWED_HEADING), path,
                                   ALLOWED_HEADING)
    allowed = []
    for row in allowed_rows:
        token = row.cells[0]
        if any(ch.isspace() for ch in token):
            raise InputError(f"allowed English token {token!r} must be one word", path=path, line=row.line)
        allowed.append(token)

    _, required_rows = _table_after(lines, _find_heading(lines, path, exact=REQUIRED_HEADING), path,
                                    REQUIRED_HEADING)
    required = []
    for row in required_rows:
        if len(row.cells) < 3 or not row.cells[1]:
            raise InputError("required row needs English | 必須用 | 不可用", path=path, line=row.line)
        required.append(Required(row.cells[0], row.cells[1], row.cells[2]))

    _, simplified_rows = _table_after(lines, _find_heading(lines, path, exact=SIMPLIFIED_HEADING), path,
                                      SIMPLIFIED_HEADING)
    simplified: list[str] = []
    simplified_words: list[str] = []
    for row in simplified_rows:
        entry = row.cells[0]
        if any(ch.isspace() or ch.isascii() for ch in entry):
            raise InputError(f"allow-list entry {entry!r} must be one CJK character or one CJK word",
                             path=path, line=row.line)
        (simplified if len(entry) == 1 else simplified_words).append(entry)

    return Glossary(terms=tuple(terms), forbidden=forbidden, allowed_english=frozenset(allowed),
                    required=tuple(required), simplified_allow=frozenset(simplified),
                    simplified_allow_words=frozenset(simplified_words),
                    forbidden_exceptions=exceptions, path=str(path))


_BY_ARGUMENT: dict[str, Glossary] = {}


def load_glossary(path: Path | str = paths.GLOSSARY_PATH) -> Glossary:
    """Parse the glossary once per path (the checker calls this for every string, so the lookup by
    the argument as given comes first: resolving the path costs a few system calls)."""
    key = str(path)
    glossary = _BY_ARGUMENT.get(key)
    if glossary is None:
        glossary = _BY_ARGUMENT[key] = _load_cached(Path(path).resolve())
    return glossary


@functools.lru_cache(maxsize=8)
def _load_cached(path: Path) -> Glossary:
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise not_a_file(path, "glossary file not found", "glossary file") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"glossary is not UTF-8: {exc}", path=path) from None
    return parse_glossary(text, path)

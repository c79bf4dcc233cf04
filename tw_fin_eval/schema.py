"""The schema layer every part of the package shares (standard library only): one status enum, one
numeric `Tolerance` default, one think-splitter, the `(id, turn)` unit expansion, and the
unified record (docs/FORMATS.md §1): its TypedDicts and `base_record(...)`, the one constructor every
producer (the subsets' record factories, the FinChain-TW generator, the FinLLM450 converter, the
FinSearchComp adapter) builds its records with, so the common fields are spelled once, in one key order.
The typed `datasets.Features` that mirror these types live in tw_fin_eval/features.py (they need `datasets`).

Nothing here knows a subset by name; task types are looked up through the scorer registry.
"""

from __future__ import annotations

import enum
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict


class Status(str, enum.Enum):
    """Outcome of one scored unit (results.jsonl `status`). A str, so it compares and serialises as its
    value (`Status.SCORED == "scored"`, json.dumps gives "scored")."""

    SCORED = "scored"      # decided (by rule, keyword or judge)
    PENDING = "pending"    # needs a judge that is not configured / not reachable
    MISSING = "missing"    # the judge's reply could not be parsed (never counted as 0)
    ERROR = "error"        # the generation failed: counted wrong
    NOT_RUN = "not_run"    # no line in the runs file: listed, not counted

    __str__ = str.__str__
    __format__ = str.__format__


class GoldStatus(str, enum.Enum):
    """Verdict on a unit's gold (docs/VERIFICATION.md; records' `gold_status`) — the one list of them."""

    VERIFIED = "verified"          # the upstream program is right
    FIXED = "fixed"                # the record holds the corrected gold
    UNANSWERABLE = "unanswerable"  # no right answer from the context: excluded from the headline

    __str__ = str.__str__
    __format__ = str.__format__


GOLD_STATUSES = tuple(s.value for s in GoldStatus)
# Why a gold was fixed or is unanswerable (a verdict's `reason`, records' `gold_reason`).
GOLD_REASONS = {
    "wrong_operand": "a program operand is the wrong cell / row / sentence",
    "swapped_years": "the two years' values are exchanged",
    "wrong_direction": "a ratio or change computed the wrong way round (b/a for a/b, old−new for new−old)",
    "percent_vs_amount": "the question asks a percentage and the gold is an amount, or the reverse",
    "unit_mismatch": "the question's unit differs from the gold's (millions vs thousands, % vs fraction)",
    "question_table_mismatch": "the question asks about something the context does not hold (a year, a row)",
    "ocr_garbage": "the upstream table or text is garbled where the question needs it",
    "other": "anything else (say what in the note)",
}
# The residual classes a gold sweep re-reads (a verdict's `sweep.class`, records' `gold_sweep`).
GOLD_SWEEP_CLASSES = {
    "unit": "the question's unit differs from the gold's, or the prompt does not state the table's unit",
    "program": "the program answers another question (final quantity, operands, denominator)",
    "missing_fact": "an operand or constant the prompt does not show",
    "sign": "a sign or the direction of a change; a turn depending on a fixed turn",
    "unanswerable": "an unanswerable verdict re-read",
    "table": "the rendered table hides an operand (two columns share a header, the cell shows a dash)",
}


# ---- tolerance ----------------------------------------------------------------------------------------------
_FLOAT_NOISE = 1e-9


@dataclass(frozen=True)
class Tolerance:
    """A prediction p matches gold g when |p − g| ≤ abs or |p − g| ≤ rel·|g| (the default: rel 1%, abs 0.005).
    `for_decimals(d)` is the tolerance a stated rounding implies: half a unit in the d-th decimal place
    (plus float noise), no relative part."""

    rel: float = 0.01
    abs: float = 0.005

    def close(self, pred: float, gold: float) -> bool:
        if not (math.isfinite(pred) and math.isfinite(gold)):
            return False
        diff = abs(pred - gold)
        return diff <= self.abs or diff <= self.rel * abs(gold)

    @classmethod
    def for_decimals(cls, decimals: int) -> Tolerance:
        half_unit = 0.5 * 10.0 ** (-decimals)
        return cls(rel=_FLOAT_NOISE, abs=half_unit * (1 + 1e-6) + _FLOAT_NOISE)

    def halved(self) -> Tolerance:
        return Tolerance(rel=self.rel / 2, abs=self.abs / 2)


DEFAULT_TOLERANCE = Tolerance()


def tolerance_from(rel: float | None = None, abs: float | None = None) -> Tolerance | None:  # noqa: A002
    """A caller's tolerance from optional parts (a part not given is the default's); None when neither is
    given — "the scorer picks" (the default, or the tolerance a question's stated rounding implies)."""
    if rel is None and abs is None:
        return None
    return Tolerance(rel=DEFAULT_TOLERANCE.rel if rel is None else rel, abs=DEFAULT_TOLERANCE.abs if abs is None else abs)


# ---- reasoning blocks -----------------------------------------------------------------------------------------
_THINK_TAG = re.compile(r"</?think(?:ing)?>", re.I)


def split_think(text: str | None) -> tuple[str | None, str | None]:
    """(visible answer, reasoning) of a reply — the one think-splitter (runner, scorer, judge, converters).

    - every closed ``<think>…</think>`` block is reasoning, wherever it is;
    - an unclosed ``<think>`` at the start (the model ran out of tokens while thinking) makes the rest
      reasoning; an unclosed one later in the text is kept as a literal;
    - a ``</think>`` with no opening tag (chat templates that put ``<think>`` into the prompt) makes
      everything before it reasoning.
    One linear pass over the tags. None → (None, None); no tags → (text, None) unchanged; otherwise the
    answer is stripped.

    >>> split_think("<think>a+b</think>\\n答案：3")
    ('答案：3', 'a+b')
    >>> split_think("template opened the tag</think>答案：3")
    ('答案：3', 'template opened the tag')
    >>> split_think("<think>cut off by max_tokens")
    ('', 'cut off by max_tokens')
    >>> split_think("答案：1 <think>")
    ('答案：1 <think>', None)
    """
    if text is None:
        return None, None
    if _THINK_TAG.search(text) is None:  # (not text.lower(): a copy of a 16 MiB reply)
        return text, None
    kept: list[str] = []
    thoughts: list[str] = []
    pos, open_at = 0, -1
    for tag in _THINK_TAG.finditer(text):
        closing = tag.group(0)[1] == "/"
        if open_at >= 0:
            if closing:
                thoughts.append(text[open_at:tag.start()])
                open_at, pos = -1, tag.end()
            continue
        if closing:  # a close with no open: everything so far was reasoning
            thoughts = ["".join(kept) + text[pos:tag.start()]]
            kept, pos = [], tag.end()
        else:
            kept.append(text[pos:tag.start()])
            open_at = tag.end()
            pos = tag.start()
    if open_at >= 0:
        if "".join(kept).strip():  # a literal "<think>" after the answer: not a reasoning block
            kept.append(text[pos:])
        else:
            thoughts.append(text[open_at:])
    else:
        kept.append(text[pos:])
    answer = "".join(kept).strip()
    reasoning = "\n".join(t.strip() for t in thoughts if t.strip())
    if not thoughts:
        return answer, None
    return answer, reasoning


def strip_think(text: str | None) -> str:
    """The visible answer only, stripped ("" for None)."""
    return (split_think(text)[0] or "").strip()


# ---- units ----------------------------------------------------------------------------------------------------
def units(record: Mapping[str, Any]) -> list[int | None]:
    """The turns a record is asked and scored in: `[None]` for a single item, `[0, 1, …]` for a record
    with a `turns` list (one generation per turn). The runner and the scorer both expand records this way,
    so a `(id, turn)` key means the same thing in a runs file and in results.jsonl."""
    turns = record.get("turns")
    if isinstance(turns, list) and turns:
        return list(range(len(turns)))
    return [None]


def unit_keys(record: Mapping[str, Any]) -> list[tuple[str, int | None]]:
    return [(record["id"], t) for t in units(record)]


def display_number(value: float) -> str:
    """A value as a plain decimal string (no exponent, at most 5 decimals): 16750002, -0.09709."""
    text = f"{value:.5f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


# ---- records ---------------------------------------------------------------------------------------------------
class Source(TypedDict):
    name: str
    paper: str | None
    orig_id: str
    url: str | None
    license: str


class Context(TypedDict):
    table: list[list[str]] | None
    evidence: list[str]
    setting: str | None


class Message(TypedDict):
    role: str  # system / user / assistant
    content: str


class Meta(TypedDict):
    translation: str
    review_status: str
    version: str


class Record(TypedDict, total=False):
    """The common fields of every record; each subset adds its own (turns, rubric, steps, options, …)."""

    id: str
    dataset: str
    source: Source
    category: str
    subcategory: str | None
    task_type: str
    difficulty: str | None
    lang: str
    question: str
    context: Context
    answer: Any  # the gold as shown (str), or option codes (FinLLM450 mcq: list[str])
    answer_value: float | None
    answer_text: str | None
    program: str | None
    messages: list[Message]
    original_en: dict[str, Any] | None
    meta: Meta


# the common fields in the order every data file writes them (subset fields go between `program` and
# `messages`; `original_en` and `meta` close the record)
COMMON_FIELDS = ("id", "dataset", "source", "category", "subcategory", "task_type", "difficulty", "lang",
                 "question", "context", "answer", "answer_value", "answer_text", "program", "messages", "meta")

_ABSENT: Any = object()


def empty_context() -> Context:
    """The context of a question without a table or evidence."""
    return {"table": None, "evidence": [], "setting": None}


def base_record(*, id: str, dataset: str, source: Source | dict[str, Any], category: str,
                subcategory: str | None, task_type: str, question: str, messages: list[Message] | list[dict],
                meta: Meta | dict[str, Any], lang: str = "zh-TW", difficulty: str | None = None,
                context: Context | dict[str, Any] | None = None, answer: Any = None,
                answer_value: float | None = None, answer_text: str | None = None, answer_decimals: Any = _ABSENT,
                program: str | None = None, extra: dict[str, Any] | None = None, original_en: Any = _ABSENT,
                tail: dict[str, Any] | None = None) -> dict[str, Any]:
    """One record with the common fields in their fixed order.

    `answer_decimals` (the rounding a question asks for; FinChain-TW) follows `answer_text` when given;
    `extra` (subset fields) goes between `program` and `messages`; `original_en` (when given, even None)
    between `messages` and `meta`; `tail` after `meta` (FinSearchComp keeps its upstream fields there)."""
    record: dict[str, Any] = {
        "id": id,
        "dataset": dataset,
        "source": source,
        "category": category,
        "subcategory": subcategory,
        "task_type": task_type,
        "difficulty": difficulty,
        "lang": lang,
        "question": question,
        "context": empty_context() if context is None else context,
        "answer": answer,
        "answer_value": answer_value,
        "answer_text": answer_text,
    }
    if answer_decimals is not _ABSENT:
        record["answer_decimals"] = answer_decimals
    record["program"] = program
    record.update(extra or {})
    record["messages"] = messages
    if original_en is not _ABSENT:
        record["original_en"] = original_en
    record["meta"] = meta
    record.update(tail or {})
    return record

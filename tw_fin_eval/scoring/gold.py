"""Gold status of a unit (issue 21) and the views the scorer and the report need of a unit's gold.

FinQA records carry `gold_status` at the top level, ConvFinQA turns in `turns[k].gold_status`: ``verified``
(the upstream program is right), ``fixed`` (the record holds the corrected gold; the upstream value is kept in
`original_en.answer_value` / `original_en.program`, or `turns[k].original_answer_value` /
`turns[k].original_program`) or ``unanswerable``. A unit without a status counts as verified (records built
before the verification pass, and subsets whose gold is computed, such as FinChain).

Headline accuracy: verified + fixed units, scored against the corrected gold; unanswerable units are excluded
and counted. Upstream accuracy: every unit scored against the upstream gold (for comparison with papers).

    >>> rec = {"id": "q", "answer_value": 2.0, "answer": "2", "gold_status": "fixed",
    ...        "original_en": {"answer_value": 0.5, "program": "divide(1, 2)"}}
    >>> status(rec, None), upstream_view(rec, None)["answer_value"]
    ('fixed', 0.5)
    >>> status({"id": "x"}, None), upstream_view({"id": "x"}, None) is None
    ('verified', True)
"""

from __future__ import annotations

from typing import Any

from tw_fin_eval.schema import GOLD_STATUSES

VERIFIED, FIXED, UNANSWERABLE = GOLD_STATUSES  # schema.GoldStatus: the one list
STATUSES = GOLD_STATUSES
_CANONICAL = {s: s for s in STATUSES}


def unit_of(record: dict[str, Any], turn: int | None) -> dict[str, Any]:
    """The dict holding the unit's question and gold: the record, or its turn."""
    if turn is not None and isinstance(record.get("turns"), list) and 0 <= turn < len(record["turns"]):
        return record["turns"][turn]
    return record


def status(record: dict[str, Any], turn: int | None) -> str:
    value = unit_of(record, turn).get("gold_status")
    return _CANONICAL.get(value, VERIFIED) if isinstance(value, str) else VERIFIED  # one shared string each


def upstream_view(record: dict[str, Any], turn: int | None) -> dict[str, Any] | None:
    """The record as it stood upstream, for a fixed unit whose upstream value is kept; None otherwise (the
    unit's verdict against the upstream gold is then its verdict)."""
    if status(record, turn) != FIXED:
        return None
    if turn is None:
        orig = record.get("original_en")
        if not isinstance(orig, dict) or "answer_value" not in orig:
            return None
        view = dict(record)
        view["answer_value"] = orig["answer_value"]
        view["answer_text"] = orig.get("answer_text", record.get("answer_text"))  # a fix may change the type
        view["program"] = orig.get("program", record.get("program"))
        view["answer"] = orig.get("answer", record.get("answer"))
        return view
    t = unit_of(record, turn)
    if "original_answer_value" not in t:
        return None
    new_turn = dict(t, answer_value=t["original_answer_value"], program=t.get("original_program", t.get("program")),
                    answer_text=t.get("original_answer_text", t.get("answer_text")),
                    answer=t.get("original_answer", t.get("answer")))
    turns = list(record["turns"])
    turns[turn] = new_turn
    return dict(record, turns=turns)


def gold_of(record: dict[str, Any], turn: int | None) -> dict[str, Any]:
    """The gold a results.jsonl line shows: display answer, value, label, and the reference of judged items."""
    u = unit_of(record, turn)
    out: dict[str, Any] = {"answer": u.get("answer"), "answer_value": u.get("answer_value"),
                           "answer_text": u.get("answer_text")}
    if record.get("reference_answer") is not None:
        out["reference_answer"] = record["reference_answer"]
    view = upstream_view(record, turn)
    if view is not None:
        out["upstream_answer_value"] = unit_of(view, turn).get("answer_value")
    return out


def question_of(record: dict[str, Any], turn: int | None) -> str | None:
    q = unit_of(record, turn).get("question")
    return q if isinstance(q, str) else record.get("question")

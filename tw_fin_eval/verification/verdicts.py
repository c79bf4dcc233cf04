"""Verdict files `verification/<subset>/*.jsonl` (docs/VERIFICATION.md): one line per unit (a FinQA item or
a ConvFinQA turn), validated against the English source items, and the build step that writes each unit's
`gold_status` and, for a `fixed` unit, the corrected gold into the records (keeping the upstream gold).

A verdict line: {"id": "finqa_tw-test-0007", "turn": null, "status": "fixed", "reason": "wrong_direction",
"note": "…", "answer_value": 0.1234, "program": "divide(…)", "reader": "h-verify",
"second_read": {"reader": "…", "status": "fixed", "agree": true, "note": "…"}}"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tw_fin_eval.answers.match import answer_matches, gold_display
from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import iter_jsonl
from tw_fin_eval.records import numeric_messages, program_kind
from tw_fin_eval.schema import GOLD_REASONS, GOLD_STATUSES, GOLD_SWEEP_CLASSES, display_number
from tw_fin_eval.sources.base import SourceItem
from tw_fin_eval.subsets import SUBSETS, get_spec
from tw_fin_eval.verification.evidence_additions import apply_additions
from tw_fin_eval.verification.program import ProgramError, execute, same_value

VERIFIED_SUBSETS = tuple(s.name for s in SUBSETS.values() if s.gold_verification)  # a spec property, not names
STATUSES = GOLD_STATUSES  # the schema's one list (schema.GoldStatus)
REASONS = GOLD_REASONS
FIELDS = {"id", "turn", "status", "reason", "note", "reader", "answer_value", "answer_text", "answer", "program",
          "second_read", "sweep"}
SECOND_READ_FIELDS = {"reader", "status", "agree", "note"}
# the residual-class sweep (docs/VERIFICATION.md "Residual classes"; flagged by `verify-screen`): a unit read
# again for one class carries `sweep {class, reader, was, changed}` — `was` the status before the sweep,
# `changed` whether the sweep changed the verdict (status or gold)
SWEEP_CLASSES = GOLD_SWEEP_CLASSES
SWEEP_FIELDS = {"class", "reader", "was", "changed"}
_RANGE_NAME = re.compile(r"^(\d+)-(\d+)$")


@dataclass(frozen=True)
class Unit:
    """One gradable unit with its upstream gold."""

    subset: str
    record_id: str
    turn: int | None
    index: int  # 1-based position of the item / conversation
    program: str
    answer_value: float | None
    answer_text: str | None  # "yes"/"no" units
    table: list[list[str]]
    question_en: str

    @property
    def key(self) -> tuple[str, int | None]:
        return (self.record_id, self.turn)

    @property
    def label(self) -> str:
        return self.record_id if self.turn is None else f"{self.record_id} turn {self.turn}"


@dataclass(frozen=True)
class Verdict:
    id: str
    turn: int | None
    status: str
    reason: str | None
    note: str
    reader: str
    answer_value: float | None = None
    answer_text: str | None = None
    answer: str | None = None
    program: str | None = None
    second_read: dict[str, Any] | None = None
    path: str = ""
    line: int = 0
    sweep: dict[str, Any] | None = None

    @property
    def key(self) -> tuple[str, int | None]:
        return (self.id, self.turn)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def units(subset: str, items: list[SourceItem]) -> dict[tuple[str, int | None], Unit]:
    """Every unit of a verified subset, keyed by (record id, turn) (turn None for FinQA)."""
    if subset not in VERIFIED_SUBSETS:
        raise KeyError(f"subset {subset!r} has no gold verification; known: {', '.join(VERIFIED_SUBSETS)}")
    out: dict[tuple[str, int | None], Unit] = {}
    for it in items:
        rid = get_spec(subset).record_id(it.index)
        table = it.table or []
        if not get_spec(subset).conversational:
            f = it.fields
            u = Unit(subset, rid, None, it.index, f["program"], f["answer_value"], f["answer_text"], table,
                     it.question)
            out[u.key] = u
        else:
            for k, t in enumerate(it.fields["turns"]):
                u = Unit(subset, rid, k, it.index, t["program"], t["answer_value"], t["answer_text"], table,
                         t["question_en"])
                out[u.key] = u
    return out


def verdict_files(verification_dir: Path, subset: str) -> list[Path]:
    folder = verification_dir / subset
    return sorted(folder.glob("*.jsonl")) if folder.is_dir() else []


def _file_range(path: Path) -> tuple[int, int] | None:
    """`0151-0200.jsonl` → (151, 200): every id in the file must be in that range (catches misplaced lines)."""
    m = _RANGE_NAME.match(path.stem)
    return (int(m.group(1)), int(m.group(2))) if m else None


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def parse_verdict(obj: dict[str, Any], path: Path, line: int,
                  known: dict[tuple[str, int | None], Unit]) -> Verdict:
    """One verdict line → Verdict, or InputError naming file:line and id."""
    rid = obj.get("id")

    def fail(msg: str, field: str | None = None) -> InputError:
        return InputError(msg, path=path, line=line, item_id=str(rid) if rid is not None else None, field=field)

    extra = set(obj) - FIELDS
    if extra:
        raise fail(f"unknown field(s): {', '.join(sorted(extra))} (allowed: {', '.join(sorted(FIELDS))})")
    if not isinstance(rid, str) or not rid:
        raise fail("verdict without a string 'id'")
    turn = obj.get("turn")
    if turn is not None and (not isinstance(turn, int) or isinstance(turn, bool)):
        raise fail("turn must be an integer (0-based) or null", "turn")
    unit = known.get((rid, turn))
    if unit is None:
        subset_of = {u.record_id: u.subset for u in known.values()}
        if rid not in subset_of:
            raise fail("unknown id (verdicts use the record id, e.g. finqa_tw-test-0001 / convfinqa_tw-dev-0001)")
        if turn is None:
            raise fail("this id is a conversation: give the 0-based turn", "turn")
        if not get_spec(subset_of[rid]).conversational:
            raise fail("FinQA items have no turns: turn must be null", "turn")
        n = sum(1 for u in known.values() if u.record_id == rid)
        raise fail(f"unknown turn {turn} (the conversation has turns 0–{n - 1})", "turn")
    status = obj.get("status")
    if status not in STATUSES:
        raise fail(f"status must be one of {', '.join(STATUSES)}, got {status!r}", "status")
    reason = obj.get("reason")
    if status == "verified":
        if reason is not None:
            raise fail("a verified unit has reason null", "reason")
    elif reason not in REASONS:
        raise fail(f"a {status} unit needs a reason, one of {', '.join(REASONS)}; got {reason!r}", "reason")
    note = obj.get("note")
    note = "" if note is None else note
    if not isinstance(note, str) or "\n" in note:
        raise fail("note must be a one-line string", "note")
    if status != "verified" and not note.strip():
        raise fail(f"a {status} unit needs a note saying what is wrong", "note")
    reader = obj.get("reader")
    if not isinstance(reader, str) or not reader.strip():
        raise fail("reader (who read it) is required", "reader")

    value, text, answer, program = obj.get("answer_value"), obj.get("answer_text"), obj.get("answer"), obj.get("program")
    if status != "fixed":
        for name in ("answer_value", "answer_text", "answer", "program"):
            if obj.get(name) is not None:
                raise fail(f"only a fixed unit carries a corrected {name}", name)
    else:
        if not isinstance(program, str) or not program.strip():
            raise fail("a fixed unit needs the corrected program", "program")
        try:
            result = execute(program, unit.table)
        except ProgramError as exc:
            raise fail(f"the corrected program does not run: {exc}", "program") from None
        # the corrected gold is a number (answer_value) or yes/no (answer_text): a numeric upstream gold on a
        # yes/no question ("are the reserves greater …?" → 471) is fixed to yes/no and the reverse
        if (value is None) == (text is None):
            raise fail("a fixed unit needs exactly one of answer_value (a number) or answer_text (\"yes\"/\"no\")",
                       "answer_value")
        if text is not None:
            if text not in ("yes", "no"):
                raise fail("answer_text must be \"yes\" or \"no\"", "answer_text")
            if result != text:
                shown = result if isinstance(result, str) else display_number(result)
                raise fail(f"the corrected program gives {shown}, not answer_text {text!r}", "program")
            if text == unit.answer_text:
                raise fail("fixed, but answer_text equals the upstream gold (use verified)", "answer_text")
            if answer is not None:
                raise fail("a yes/no fix has no separate answer string", "answer")
        else:
            if not _is_number(value):
                raise fail("answer_value must be a number", "answer_value")
            if isinstance(result, str) or not same_value(result, float(value)):
                shown = result if isinstance(result, str) else display_number(result)
                raise fail(f"the corrected program gives {shown}, not answer_value {value}", "answer_value")
            if unit.answer_value is not None and same_value(float(value), unit.answer_value):
                raise fail("fixed, but answer_value equals the upstream gold (use verified, or say so in "
                           "the note of a verified line)", "answer_value")
            # the display string is the record's gold answer, which the scorer reads with the gold (a "104%"
            # display makes a fraction gold a percent even when the question is not worded as one)
            if answer is not None and (not isinstance(answer, str) or not answer_matches(
                    "答案：" + answer, float(value), gold_answer=answer, questions=[unit.question_en])):
                raise fail(f"answer {answer!r} does not state answer_value {value}", "answer")
    second = obj.get("second_read")
    if second is not None:
        if not isinstance(second, dict):
            raise fail("second_read must be an object {reader, status, agree, note}", "second_read")
        extra = set(second) - SECOND_READ_FIELDS
        if extra:
            raise fail(f"unknown second_read field(s): {', '.join(sorted(extra))}", "second_read")
        if not isinstance(second.get("reader"), str) or not second["reader"].strip():
            raise fail("second_read.reader is required", "second_read")
        if second["reader"] == reader:
            raise fail("the second read must be by another reader", "second_read")
        if second.get("status") not in STATUSES:
            raise fail(f"second_read.status must be one of {', '.join(STATUSES)}", "second_read")
        if not isinstance(second.get("agree"), bool):
            raise fail("second_read.agree must be true or false", "second_read")
        if not isinstance(second.get("note", ""), str) or "\n" in second.get("note", ""):
            raise fail("second_read.note must be a one-line string", "second_read")
    sweep = obj.get("sweep")
    if sweep is not None:
        if not isinstance(sweep, dict) or set(sweep) != SWEEP_FIELDS:
            raise fail(f"sweep must be an object with exactly {', '.join(sorted(SWEEP_FIELDS))}", "sweep")
        if sweep["class"] not in SWEEP_CLASSES:
            raise fail(f"sweep.class must be one of {', '.join(SWEEP_CLASSES)}, got {sweep['class']!r}", "sweep")
        if not isinstance(sweep["reader"], str) or not sweep["reader"].strip():
            raise fail("sweep.reader is required", "sweep")
        if sweep["was"] not in STATUSES:
            raise fail(f"sweep.was must be one of {', '.join(STATUSES)}", "sweep")
        if not isinstance(sweep["changed"], bool):
            raise fail("sweep.changed must be true or false", "sweep")
        changed_by_second_read = isinstance(obj.get("second_read"), dict) and obj["second_read"].get("agree") is False
        if sweep["was"] != status and not sweep["changed"] and not changed_by_second_read:
            raise fail(f"sweep.was is {sweep['was']!r} but the status is {status!r}: changed must be true", "sweep")
    return Verdict(rid, turn, status, reason, note, reader, None if value is None else float(value), text,
                   answer, program, second, str(path), line, sweep)


def load_verdicts(subset: str, items: list[SourceItem], verification_dir: Path) -> dict[tuple[str, int | None], Verdict]:
    """Every verdict of a subset, validated; unknown id/turn, duplicates, bad status/reason or a fixed unit
    without a (consistent) corrected value raise InputError with file:line and id."""
    known = units(subset, items)
    out: dict[tuple[str, int | None], Verdict] = {}
    for path in verdict_files(verification_dir, subset):
        bounds = _file_range(path)
        for line, obj in iter_jsonl(path):
            v = parse_verdict(obj, path, line, known)
            if bounds and not bounds[0] <= known[v.key].index <= bounds[1]:
                raise InputError(f"id outside this file's range {bounds[0]}–{bounds[1]}", path=path, line=line,
                                 item_id=v.id)
            if v.key in out:
                what = v.id if v.turn is None else f"{v.id} turn {v.turn}"
                raise InputError(f"duplicate verdict for {what} (first at {out[v.key].where})", path=path,
                                 line=line, item_id=v.id)
            out[v.key] = v
    return out


@dataclass
class Coverage:
    total: int
    status: Counter
    reasons: Counter  # (status, reason) → count
    second_reads: int = 0
    disagreements: int = 0  # second reads with agree false
    sweeps: Counter = field(default_factory=Counter)  # (sweep class, changed) → count

    @property
    def done(self) -> int:
        return sum(self.status.values())

    def line(self) -> str:
        parts = ", ".join(f"{s} {self.status[s]:,}" for s in STATUSES if self.status[s])
        return f"{self.done:,}/{self.total:,} units read" + (f" ({parts})" if parts else "")


def coverage(subset: str, items: list[SourceItem], verdicts: dict[tuple[str, int | None], Verdict]) -> Coverage:
    return Coverage(len(units(subset, items)), Counter(v.status for v in verdicts.values()),
                    Counter((v.status, v.reason) for v in verdicts.values() if v.reason),
                    sum(1 for v in verdicts.values() if v.second_read),
                    sum(1 for v in verdicts.values() if v.second_read and not v.second_read["agree"]),
                    Counter((v.sweep["class"], v.sweep["changed"]) for v in verdicts.values() if v.sweep))


def audit_sample(verdicts_by_subset: dict[str, dict[tuple[str, int | None], Verdict]], n: int, seed: int, *,
                 audited_elsewhere: frozenset[tuple[str, int | None]] = frozenset(),
                 read_here: frozenset[tuple[str, int | None]] = frozenset()) -> list[Verdict]:
    """A seeded random sample of `n` verified units for an independent audit: units with a `sweep` (changed or
    read by it) and units another seed's audit already read (`audited_elsewhere`) are excluded, so every seed
    audits fresh units.

    Each unit's place is a keyed hash of (seed, id, turn), one order across subsets (an auditor who stops early
    still holds a random sample of every subset). The order of the remaining units does not move when other units
    are corrected later, and the units this seed's own audit has read (`read_here`) keep their place whatever
    their status is now, so the list an auditor works from stays the same while the audit's finds are corrected.
    Same verdicts + same seed → same sample. (Seeds 2029 and 2030 were drawn by an earlier rule; their files
    list the units.)"""
    import hashlib

    def place(v: Verdict) -> bytes:
        return hashlib.sha256(f"{seed}\t{v.id}\t{'' if v.turn is None else v.turn}".encode()).digest()

    pool = [v for vs in verdicts_by_subset.values() for v in vs.values()
            if v.key in read_here or (v.status == "verified" and v.sweep is None and v.key not in audited_elsewhere)]
    if n > len(pool):
        raise ValueError(f"asked for {n} units, only {len(pool)} verified units without a sweep or an earlier audit")
    return sorted(pool, key=place)[:n]


def counts_markdown(covs: dict[str, Coverage]) -> str:
    """The counts tables of docs/VERIFICATION.md (`verify-check --all --markdown` prints them)."""
    lines = ["| subset | units | read | verified | fixed | unanswerable | second reads | disagreements |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for subset, c in covs.items():
        lines.append(f"| {get_spec(subset).dataset} | {c.total:,} | {c.done:,} | {c.status['verified']:,} | "
                     f"{c.status['fixed']:,} | {c.status['unanswerable']:,} | {c.second_reads:,} | {c.disagreements:,} |")
    lines += ["", "| reason | " + " | ".join(f"{get_spec(s).dataset} {st}" for s in covs for st in ("fixed", "unanswerable"))
              + " |", "| --- |" + " ---: |" * (2 * len(covs))]
    for reason in REASONS:
        cells = [str(c.reasons[(st, reason)]) for c in covs.values() for st in ("fixed", "unanswerable")]
        lines.append(f"| {reason} | " + " | ".join(cells) + " |")
    if any(c.sweeps for c in covs.values()):
        lines += ["", "| residual-class sweep | " + " | ".join(f"{get_spec(s).dataset} {what}" for s in covs
                                                             for what in ("read", "changed")) + " |",
                  "| --- |" + " ---: |" * (2 * len(covs))]
        for cls in SWEEP_CLASSES:
            if not any(c.sweeps[(cls, changed)] for c in covs.values() for changed in (False, True)):
                continue  # a class no sweep has read yet (its flags are routed, screen_pending.jsonl)
            cells = [str(c.sweeps[(cls, changed)] + (0 if changed else c.sweeps[(cls, True)]))
                     for c in covs.values() for changed in (False, True)]
            lines.append(f"| {cls} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


# ---- the build step -------------------------------------------------------------------------------------

def _corrected_answer(v: Verdict, questions: list[str]) -> str:
    """The display string of the corrected gold, by the scorer's own rule (answers.match.gold_display)."""
    if v.answer_text is not None:
        return v.answer_text
    return gold_display(v.answer, v.answer_value or 0.0, questions=questions)


def _fix_finqa(rec: dict[str, Any], v: Verdict | None) -> None:
    rec["original_en"]["answer_value"] = rec["answer_value"]
    rec["original_en"]["answer_text"] = rec["answer_text"]  # a fix may turn a numeric gold into yes/no
    rec["original_en"]["program"] = rec["program"]
    rec["gold_status"] = v.status if v else None
    rec["gold_reason"] = v.reason if v else None
    rec["gold_sweep"] = v.sweep["class"] if v and v.sweep else None
    if v and v.status == "fixed":
        yes_no_changed = (v.answer_text is None) != (rec["answer_text"] is None)
        rec["answer_value"], rec["answer_text"] = v.answer_value, v.answer_text
        rec["answer"] = _corrected_answer(v, [rec["question"], rec["original_en"]["question"]])
        rec["program"] = v.program
        rec["subcategory"] = program_kind(v.program or "")
        if yes_no_changed:  # the prompt asks a yes/no question differently (records.numeric_messages)
            ctx = rec["context"]
            rec["messages"] = numeric_messages(rec["question"], ctx["table"], ctx["evidence"],
                                                       yes_no=v.answer_text is not None,
                                                       table_unit=ctx.get("table_unit"))


def _fix_turn(turn: dict[str, Any], v: Verdict | None) -> None:
    turn["original_answer_value"] = turn["answer_value"]
    turn["original_answer_text"] = turn["answer_text"]
    turn["original_program"] = turn["program"]
    turn["original_answer"] = turn["answer"]
    turn["gold_status"] = v.status if v else None
    turn["gold_reason"] = v.reason if v else None
    turn["gold_sweep"] = v.sweep["class"] if v and v.sweep else None
    if v and v.status == "fixed":
        # the runner's gold history reads turns[k].answer_value/answer: later turns see the corrected gold
        turn["answer_value"], turn["answer_text"] = v.answer_value, v.answer_text
        turn["answer"] = _corrected_answer(v, [turn["question"], turn["question_en"]])
        turn["program"] = v.program


def apply_verdicts(subset: str, items: list[SourceItem], records: list[dict[str, Any]],
                   verification_dir: Path) -> Coverage | None:
    """Record post-processing step of the build: validate the subset's verdicts and write `gold_status`
    (null where no verdict yet) and the corrected gold into the records, in place. None for subsets
    without verification."""
    if subset not in VERIFIED_SUBSETS:
        return None
    verdicts = load_verdicts(subset, items, verification_dir)
    apply_additions(subset, {get_spec(subset).record_id(it.index): it for it in items}, records, verification_dir)  # class 3: needed page sentences, before the fixes
    for rec in records:
        if not get_spec(subset).conversational:
            _fix_finqa(rec, verdicts.get((rec["id"], None)))
        else:
            for k, turn in enumerate(rec["turns"]):
                _fix_turn(turn, verdicts.get((rec["id"], k)))
            last = rec["turns"][-1]  # the record's top-level gold mirrors the last turn
            rec["answer"], rec["answer_value"] = last["answer"], last["answer_value"]
            rec["answer_text"], rec["program"] = last["answer_text"], last["program"]
    return coverage(subset, items, verdicts)

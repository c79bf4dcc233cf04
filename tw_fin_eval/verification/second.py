"""Second reads (docs/VERIFICATION.md, Process): compare a blind second reader's verdict lines with the
committed first reads, report the disagreement rate, and fold them into the verdict files as `second_read`.

A second-read file has the verdict-line format of `verification/<subset>/*.jsonl` (any subset mixed, any
order). Two reads agree when they give the same status and, for `fixed`, the same corrected value (or yes/no
label); the reasons may differ. Folding never changes a unit's top-level (final) verdict: adjudication is a
separate, deliberate edit."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import atomic_writer, iter_jsonl
from tw_fin_eval.schema import display_number
from tw_fin_eval.sources.base import SourceItem
from tw_fin_eval.verification.program import same_value
from tw_fin_eval.verification.verdicts import (
    VERIFIED_SUBSETS,
    Unit,
    Verdict,
    load_verdicts,
    parse_verdict,
    units,
    verdict_files,
)

Key = tuple[str, "int | None"]


def gold_text(v: Verdict) -> str:
    """A verdict in a few characters: `verified`, `fixed 0.25`, `unanswerable (other)`."""
    if v.status == "fixed":
        return f"fixed {v.answer_text if v.answer_text is not None else display_number(v.answer_value or 0.0)}"
    return v.status if v.status == "verified" else f"{v.status} ({v.reason})"


@dataclass(frozen=True)
class Comparison:
    subset: str
    first: Verdict
    second: Verdict

    @property
    def agree(self) -> bool:
        a, b = self.first, self.second
        if a.status != b.status:
            return False
        if a.status != "fixed":
            return True
        if a.answer_text is not None or b.answer_text is not None:
            return a.answer_text == b.answer_text
        return same_value(a.answer_value or 0.0, b.answer_value or 0.0)

    def second_read(self) -> dict[str, Any]:
        """The `second_read` object folded into the first read's line."""
        s = self.second
        note = s.note
        if s.status == "fixed":
            note = f"{gold_text(s)} via {s.program}" + (f"; {note}" if note else "")
        elif s.reason:
            note = f"{s.reason}" + (f"; {note}" if note else "")
        return {"reader": s.reader, "status": s.status, "agree": self.agree, "note": note}


def compare(items: dict[str, list[SourceItem]], verification_dir: Path, reads: list[Path]) -> list[Comparison]:
    """Every second read in the `reads` files next to its unit's first read. InputError (file:line:id) on a
    line that is not a valid verdict, a unit without a first read, a read by the first reader, or a duplicate."""
    known: dict[Key, Unit] = {}
    subset_of: dict[Key, str] = {}
    firsts: dict[Key, Verdict] = {}
    for subset in VERIFIED_SUBSETS:
        us = units(subset, items[subset])
        known.update(us)
        subset_of.update({k: subset for k in us})
        firsts.update(load_verdicts(subset, items[subset], verification_dir))
    out: list[Comparison] = []
    seen: dict[Key, str] = {}
    for path in reads:
        for line, obj in iter_jsonl(path):
            v = parse_verdict(obj, path, line, known)
            if v.key in seen:
                raise InputError(f"duplicate second read (first at {seen[v.key]})", path=path, line=line,
                                 item_id=v.id)
            seen[v.key] = f"{path}:{line}"
            first = firsts.get(v.key)
            if first is None:
                raise InputError("no first read for this unit in the verdict files", path=path, line=line,
                                 item_id=v.id)
            if first.reader == v.reader:
                raise InputError(f"the second read is by the first reader ({v.reader}): not independent",
                                 path=path, line=line, item_id=v.id)
            out.append(Comparison(subset_of[v.key], first, v))
    return out


def summary(comparisons: list[Comparison]) -> list[str]:
    """The disagreement rate overall, per subset and per first-read status, then every disagreement."""
    if not comparisons:
        return ["no second reads"]
    lines = []

    def rate(cs: list[Comparison]) -> str:
        n, d = len(cs), sum(1 for c in cs if not c.agree)
        return f"{n} read, {d} disagree ({d / n:.1%})" if n else "0 read"

    lines.append(f"second reads: {rate(comparisons)}")
    for subset in VERIFIED_SUBSETS:
        cs = [c for c in comparisons if c.subset == subset]
        if cs:
            lines.append(f"  {subset:<10} {rate(cs)}")
    for status in ("verified", "fixed", "unanswerable"):
        cs = [c for c in comparisons if c.first.status == status]
        if cs:
            lines.append(f"  first {status:<13} {rate(cs)}")
    pairs = Counter((c.first.status, c.second.status) for c in comparisons if not c.agree)
    if pairs:
        lines.append("  disagreement kinds: " + ", ".join(f"{a}→{b} {n}" for (a, b), n in pairs.most_common()))
    lines.append("disagreements (first | second):")
    for c in comparisons:
        if not c.agree:
            where = c.first.id + ("" if c.first.turn is None else f" t{c.first.turn}")
            lines.append(f"  {where:<26} {gold_text(c.first):<28} | {gold_text(c.second):<28} {c.second.note[:90]}")
    return lines


def verdict_line(obj: dict[str, Any]) -> str:
    """A verdict line as the committed files write it (spaced JSON, real UTF-8)."""
    return json.dumps(obj, ensure_ascii=False)


def fold(comparisons: list[Comparison], verification_dir: Path, *, replace: bool = False) -> int:
    """Write each comparison's `second_read` into its first read's line (files rewritten atomically, line order
    and every other field kept; lines without a new second read are kept byte for byte). A line that already has a different second read is an error unless `replace`;
    every file is checked before any is written."""
    by_key = {c.first.key: c for c in comparisons}
    pending: dict[Path, list[str]] = {}
    changed = 0
    for subset in VERIFIED_SUBSETS:
        for path in verdict_files(verification_dir, subset):
            raw = path.read_text(encoding="utf-8").splitlines()
            out, touched = [], False
            for line, obj in iter_jsonl(path):
                c = by_key.get((obj.get("id"), obj.get("turn")))
                if c is not None:
                    new, old = c.second_read(), obj.get("second_read")
                    if old not in (None, new) and not replace:
                        raise InputError(f"already has a different second read by {old.get('reader')!r} "
                                         "(--replace to overwrite)", path=path, line=line, item_id=c.first.id)
                    if old != new:
                        obj["second_read"] = new
                        touched = True
                        changed += 1
                        out.append(verdict_line(obj))
                        continue
                out.append(raw[line - 1])  # an untouched line is kept byte for byte (reviewable diffs)
            if touched:
                pending[path] = out
    for path, rows in pending.items():
        with atomic_writer(path) as fh:
            for text in rows:
                fh.write(text + "\n")
    return changed

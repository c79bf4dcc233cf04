"""Independent audits of `verified` gold: the residual error rate after the reads (docs/VERIFICATION.md).

An auditor who read none of the units reads a seeded random sample (`verify-check --all --audit-sample N --seed S`,
listed in one random order across subsets, so a partial read is still a random sample) and writes one line per unit
read to `verification/audit_<seed>.jsonl`:

    {"id": "finqa_tw-test-0880", "turn": null, "verdict": "ok", "class": null, "reason": null, "right_gold": null}

`verdict` is `ok` or `wrong`; a wrong line names its `class` (the residual classes plus `other`), a one-line
`reason` and the `right_gold` (a value or "unanswerable"). The rate per subset and overall is reported with the
Wilson 95% interval (`verify-check --all --audit`, the card's audit line)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import iter_jsonl
from tw_fin_eval.reports.stats import wilson
from tw_fin_eval.subsets import SUBSETS

FIELDS = {"id", "turn", "verdict", "class", "reason", "right_gold", "reader"}
REQUIRED = FIELDS - {"reader"}
VERDICTS = ("ok", "wrong")
CLASSES = ("unit", "program", "missing_fact", "sign", "unanswerable", "table", "other")
FILE = re.compile(r"audit_(\d+)\.jsonl$")


@dataclass(frozen=True)
class AuditLine:
    id: str
    turn: int | None
    verdict: str
    cls: str | None
    reason: str | None
    right_gold: Any
    where: str


@dataclass(frozen=True)
class AuditRate:
    label: str  # a subset's dataset label, or "all"
    read: int
    wrong: int

    @property
    def rate(self) -> float:
        return self.wrong / self.read if self.read else 0.0

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson(self.wrong, self.read)

    def cells(self) -> str:
        lo, hi = self.interval or (0.0, 0.0)
        return f"{self.read:,} | {self.wrong:,} | {self.rate:.1%} | {lo:.1%} – {hi:.1%}"


def _subset_label(record_id: str) -> str | None:
    for spec in SUBSETS.values():
        if spec.gold_verification and record_id.startswith(spec.record_id(1).rsplit("-", 1)[0] + "-"):
            return spec.dataset
    return None


def load_audit(path: Path) -> list[AuditLine]:
    """The lines of one audit file; a bad line is an InputError naming file:line and id."""
    out: list[AuditLine] = []
    seen: dict[tuple[str, int | None], int] = {}
    for line, obj in iter_jsonl(path):
        rid = obj.get("id") if isinstance(obj, dict) else None

        def fail(msg: str, line: int = line, rid: object = rid) -> InputError:
            return InputError(msg, path=path, line=line, item_id=rid if isinstance(rid, str) else None)

        if not isinstance(obj, dict) or not REQUIRED <= set(obj) or set(obj) - FIELDS:
            raise fail(f"an audit line has exactly {', '.join(sorted(REQUIRED))} (and optionally reader)")
        if not isinstance(rid, str) or _subset_label(rid) is None:
            raise fail("id must be a gold-verified record id (finqa_tw-test-NNNN, convfinqa_tw-dev-NNNN)")
        turn = obj["turn"]
        if turn is not None and (not isinstance(turn, int) or isinstance(turn, bool) or turn < 0):
            raise fail("turn must be null or a 0-based turn number")
        if obj["verdict"] not in VERDICTS:
            raise fail(f"verdict must be one of {', '.join(VERDICTS)}, got {obj['verdict']!r}")
        if obj["verdict"] == "wrong" and (obj["class"] not in CLASSES or not obj["reason"]):
            raise fail(f"a wrong unit names its class ({', '.join(CLASSES)}) and a reason")
        if (rid, turn) in seen:
            raise fail(f"unit read twice in one audit (first at line {seen[(rid, turn)]})")
        seen[(rid, turn)] = line
        out.append(AuditLine(rid, turn, obj["verdict"], obj["class"], obj["reason"], obj["right_gold"],
                             f"{path}:{line}"))
    return out


def audit_files(verification_dir: Path) -> list[tuple[int, Path]]:
    """(seed, path) of every audit file, oldest seed first."""
    found = [(int(m.group(1)), p) for p in verification_dir.glob("audit_*.jsonl") if (m := FILE.search(p.name))]
    return sorted(found)


def rates(lines: Iterable[AuditLine]) -> list[AuditRate]:
    """Read and wrong per subset (in registry order) and over all of them."""
    lines = list(lines)
    labels = [s.dataset for s in SUBSETS.values() if s.gold_verification]
    per = {label: [ln for ln in lines if _subset_label(ln.id) == label] for label in labels}
    out = [AuditRate(label, len(ls), sum(ln.verdict == "wrong" for ln in ls)) for label, ls in per.items() if ls]
    out.append(AuditRate("all", len(lines), sum(ln.verdict == "wrong" for ln in lines)))
    return out


def markdown(seed: int, lines: list[AuditLine]) -> str:
    """The audit table of docs/VERIFICATION.md (`verify-check --all --audit`)."""
    rows = ["| subset | units read | wrong | rate | Wilson 95% interval |", "| --- | ---: | ---: | ---: | --- |"]
    rows += [f"| {r.label} | {r.cells()} |" for r in rates(lines)]
    wrong = [ln for ln in lines if ln.verdict == "wrong"]
    by_class: dict[str, int] = {}
    for ln in wrong:
        by_class[ln.cls or "other"] = by_class.get(ln.cls or "other", 0) + 1
    if wrong:
        rows += ["", f"Seed {seed}: wrong units by class — " + "、".join(f"{c} {n}" for c, n in sorted(by_class.items()))]
    return "\n".join(rows) + "\n"


def card_line(verification_dir: Path) -> str | None:
    """The card's audit line, measured from the latest audit file; None when there is none."""
    files = audit_files(verification_dir)
    if not files:
        return None
    seed, path = files[-1]
    total = rates(load_audit(path))[-1]
    lo, hi = total.interval or (0.0, 0.0)
    return (f"獨立抽查 independent audit（seed {seed}，隨機抽出之 verified 單位，由未參與判讀者重讀 re-read by an auditor who "
            f"read none of them）：{total.read:,} 個單位中 {total.wrong:,} 個有誤 wrong（{total.rate:.1%}，"
            f"Wilson 95% {lo:.1%}–{hi:.1%}）；發現的錯誤皆已處理（更正金標或題目，或評分規則改為接受）every error found "
            f"was dealt with (gold or question corrected, or the scoring rule now accepts the answer)")

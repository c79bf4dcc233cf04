"""Records + runs file → per-item results (rules first, the judge only where rules cannot decide).

Reads our records (docs/FORMATS.md §1) and the runner's output (§3: key `(id, turn)`; the last
successful line per key counts). Bad input raises `InputError` naming file and line, before anything is
written. Nothing is dropped silently: duplicate record ids, run lines for unknown ids/turns, keys with
more than one successful line, failed generations and items never run are all counted and listed.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import iter_jsonl
from tw_fin_eval.scoring import judge as judge_mod
from tw_fin_eval.scoring import tasks
from tw_fin_eval.scoring.match import DEFAULT_TOLERANCE, Tolerance
from tw_fin_eval.scoring.plugins import load_plugins

Key = tuple[str, int | None]


@dataclass
class Issues:
    duplicate_record_ids: list[str] = field(default_factory=list)  # "id (file:line, first at file:line)"
    unknown_run_keys: list[str] = field(default_factory=list)
    duplicate_generations: list[str] = field(default_factory=list)  # keys with >1 successful line
    failed_generations: list[str] = field(default_factory=list)  # keys with only failed lines
    not_run: list[str] = field(default_factory=list)
    run_models: list[str] = field(default_factory=list)
    histories: dict[str, int] = field(default_factory=dict)


def key_str(key: Key) -> str:
    return key[0] if key[1] is None else f"{key[0]}#turn{key[1]}"


def load_records(paths: Sequence[str | os.PathLike], issues: Issues) -> list[dict[str, Any]]:
    """All records of the data files, validated against their task type; first occurrence of an id wins."""
    load_plugins()  # a plug-in may register the task types these records use
    seen: dict[str, str] = {}
    out: list[dict[str, Any]] = []
    for path in paths:
        for lineno, rec in iter_jsonl(path):
            rid = rec.get("id")
            if not isinstance(rid, str) or not rid:
                raise InputError("record has no string 'id'", path=path, line=lineno, field="id")
            tt = rec.get("task_type")
            scorer = tasks.scorer_for(tt) if isinstance(tt, str) else None
            if scorer is None:
                raise InputError(f"unknown task_type {tt!r} (known: {', '.join(sorted(tasks.SCORERS))})",
                                 path=path, line=lineno, item_id=rid, field="task_type")
            try:
                scorer.validate(rec)
            except InputError as exc:
                raise InputError(exc.message, path=path, line=lineno, item_id=rid, field=exc.field) from None
            where = f"{path}:{lineno}"
            if rid in seen:
                issues.duplicate_record_ids.append(f"{rid} ({where}; first at {seen[rid]})")
                continue
            seen[rid] = where
            out.append(rec)
    return out


@dataclass
class RunsIndex:
    success: dict[Key, str] = field(default_factory=dict)  # key → response text (last successful line)
    failures: dict[Key, str] = field(default_factory=dict)  # key → last error, for keys never successful
    success_count: dict[Key, int] = field(default_factory=dict)
    models: set[str] = field(default_factory=set)
    histories: dict[str, int] = field(default_factory=dict)  # ConvFinQA turns by history mode (gold / self)
    lines: int = 0


def load_runs(paths: Iterable[str | os.PathLike]) -> RunsIndex:
    idx = RunsIndex()
    for path in paths:
        for lineno, row in iter_jsonl(path):
            idx.lines += 1
            rid, turn = row.get("id"), row.get("turn")
            if not isinstance(rid, str) or not rid:
                raise InputError("runs line has no string 'id'", path=path, line=lineno, field="id")
            if turn is not None and (not isinstance(turn, int) or isinstance(turn, bool) or turn < 0):
                raise InputError(f"'turn' must be a non-negative integer or null, got {turn!r}", path=path,
                                 line=lineno, item_id=rid, field="turn")
            response, error = row.get("response"), row.get("error")
            if response is not None and not isinstance(response, str):
                raise InputError("'response' must be a string or null", path=path, line=lineno, item_id=rid,
                                 field="response")
            if isinstance(row.get("model"), str):
                idx.models.add(row["model"])
            if isinstance(row.get("history"), str):
                idx.histories[row["history"]] = idx.histories.get(row["history"], 0) + 1
            key = (rid, turn)
            if error is None:  # FORMATS §3: successful = error is null (a null response is an empty answer)
                idx.success[key] = response or ""
                idx.success_count[key] = idx.success_count.get(key, 0) + 1
                idx.failures.pop(key, None)
            elif key not in idx.success:
                idx.failures[key] = str(error)
    return idx


@dataclass
class Outcome:
    items: list[tasks.ItemResult]
    issues: Issues
    agreement: dict[str, Any] | None
    judge_calls: int
    judge_config: judge_mod.JudgeConfig
    judge_cache_hits: int = 0


def score(records: Sequence[dict[str, Any]], runs: RunsIndex, *, issues: Issues | None = None,
          judge_config: judge_mod.JudgeConfig | None = None, tolerance: Tolerance = DEFAULT_TOLERANCE,
          judge_runner: judge_mod.JudgeRunner | None = None, progress: bool = True) -> Outcome:
    load_plugins()
    issues = issues or Issues()
    cfg = judge_config or judge_mod.JudgeConfig()
    ctx = tasks.Context(tolerance=tolerance, judge_enabled=cfg.enabled)
    by_type: dict[str, list[dict[str, Any]]] = {}
    for rec in records:
        by_type.setdefault(rec["task_type"], []).append(rec)
    for tt, recs in by_type.items():
        tasks.SCORERS[tt].prepare(recs)

    items: list[tasks.ItemResult] = []
    expected: set[Key] = set()
    for rec in records:
        scorer = tasks.SCORERS[rec["task_type"]]
        for unit in scorer.units(rec):
            key = (rec["id"], unit)
            expected.add(key)
            if key in runs.success:
                item = scorer.score(rec, unit, runs.success[key], ctx)
            elif key in runs.failures:
                item = tasks.new_item(rec, unit, status=tasks.ERROR, correct=False,
                                      reason=f"generation failed: {runs.failures[key]}")
                issues.failed_generations.append(f"{key_str(key)}: {runs.failures[key]}")
            else:
                item = tasks.new_item(rec, unit, status=tasks.NOT_RUN, reason="no line in the runs file")
                issues.not_run.append(key_str(key))
            items.append(item)
    for key in list(runs.success) + list(runs.failures):
        if key not in expected:
            issues.unknown_run_keys.append(key_str(key))
    issues.duplicate_generations.extend(f"{key_str(k)} ×{n}" for k, n in runs.success_count.items()
                                        if n > 1 and k in expected)
    issues.run_models = sorted(runs.models)
    issues.histories = dict(runs.histories)

    to_judge = [it for it in items if it.judge_request is not None]
    agreement = None
    runner = judge_runner
    if to_judge:
        runner = runner or judge_mod.JudgeRunner(cfg, progress=progress)
        verdicts = runner.run([it.judge_request for it in to_judge])
        for it, vs in zip(to_judge, verdicts):
            tasks.SCORERS[it.task_type].apply_verdicts(it, vs)
        if cfg.repeats >= 2:
            agreement = {"all": judge_mod.agreement(verdicts)}
            for tt in sorted({it.task_type for it in to_judge}):
                agreement[tt] = judge_mod.agreement([vs for it, vs in zip(to_judge, verdicts) if it.task_type == tt])
    for it in items:
        it.judge_request = None
    return Outcome(items=items, issues=issues, agreement=agreement,
                   judge_calls=runner.calls if runner is not None else 0, judge_config=cfg,
                   judge_cache_hits=runner.cache_hits if runner is not None else 0)

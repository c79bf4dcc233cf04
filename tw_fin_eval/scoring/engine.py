"""Records + runs file → per-item results (rules first, the judge only where rules cannot decide).

Reads our records (docs/FORMATS.md §1) and the runner's output (§3: key `(id, turn)`; the last
successful line per key counts). Bad input raises `InputError` naming file and line, before anything is
written. Nothing is dropped silently: duplicate record ids, run lines for unknown ids/turns, keys with
more than one successful line, failed generations, stale prompts and items never run are all counted.

Memory stays flat in the size of the inputs: data files are streamed (one pass to validate, one per task
type that needs to see its whole set, one to score), the runs index keeps each key's byte offset instead of
its line, and the per-item details (question, gold, response) go to `on_item` as they are produced.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tw_fin_eval import data_input
from tw_fin_eval.answers import extract
from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import dumps, iter_jsonl_at, read_line_at
from tw_fin_eval.reports.stats import quantile
from tw_fin_eval.schema import Tolerance, split_think
from tw_fin_eval.scoring import gold as gold_mod
from tw_fin_eval.scoring import judge as judge_mod
from tw_fin_eval.scoring import scorers
from tw_fin_eval.scoring.plugins import load_plugins

Key = tuple[str, int | None]
STALE = "stale"  # the runs line answered a different prompt than today's record: not scored


@dataclass
class Issues:
    duplicate_record_ids: list[str] = field(default_factory=list)  # "id (file:line, first at file:line)"
    unknown_run_keys: list[str] = field(default_factory=list)
    duplicate_generations: list[str] = field(default_factory=list)  # keys with >1 successful line
    failed_generations: list[str] = field(default_factory=list)  # keys with only failed lines
    not_run: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)  # keys whose prompt hash differs from today's record
    run_models: list[str] = field(default_factory=list)
    histories: dict[str, int] = field(default_factory=dict)
    run_keys: int = 0  # distinct (id, turn) keys in the runs files
    run_datasets: dict[str, int] = field(default_factory=dict)  # dataset label of the runs lines → lines

    def unmatched_share(self) -> float | None:
        """The share of the runs keys that match no record unit (None: no runs keys)."""
        return len(self.unknown_run_keys) / self.run_keys if self.run_keys else None


# `score` warns (stderr, report.html banner) when more than this share of the runs keys match no record
UNMATCHED_WARN_SHARE = 0.10


def key_str(key: Key) -> str:
    return key[0] if key[1] is None else f"{key[0]}#turn{key[1]}"


def _looks_like_runs_line(rec: dict[str, Any]) -> bool:
    return "task_type" not in rec and ("response" in rec or "messages_sha256" in rec)


def _validated(path: str | os.PathLike, lineno: int, rec: dict[str, Any]) -> str:
    rid = rec.get("id")
    if not isinstance(rid, str) or not rid:
        raise InputError("record has no string 'id'", path=path, line=lineno, field="id")
    tt = rec.get("task_type")
    if tt is None and _looks_like_runs_line(rec):
        raise InputError("this is a runs file (lines with a response and no task_type), not a data file: "
                         "pass it with --runs and the records with --data", path=path, line=lineno, item_id=rid)
    scorer = scorers.scorer_for(tt) if isinstance(tt, str) else None
    if scorer is None:
        raise InputError(f"unknown task_type {tt!r} (known: {', '.join(sorted(scorers.SCORERS))})",
                         path=path, line=lineno, item_id=rid, field="task_type")
    try:
        scorer.validate(rec)
    except InputError as exc:
        raise InputError(exc.message, path=path, line=lineno, item_id=rid, field=exc.field) from None
    return rid


# Inputs up to this size are kept in memory after the first read (the release's 6,222 units: ~20 MB of
# records, ~150 MB in memory); larger ones are re-read from disk on every pass, so memory stays flat
# (290,000 FinChain units: 1 GB of inputs, measured peak 479 MB).
IN_MEMORY_BYTES = 32 * 1024 * 1024


def _total_size(paths: Sequence[Path]) -> int:
    return sum(p.stat().st_size for p in paths if p.is_file())


class RecordFiles:
    """The records of data files, validated once; then kept (small inputs) or re-read on each iteration
    (constant memory). A data file is JSONL, or — through tw_fin_eval.data_input — a parquet file, a
    release folder or Hub id with `configs`. The first occurrence of an id wins; later ones are listed
    in `issues`."""

    def __init__(self, paths: Sequence[str | os.PathLike], issues: Issues, *,
                 configs: Sequence[str] | None = None) -> None:
        load_plugins()  # a plug-in may register the task types these records use
        self.sources = data_input.resolve_all([str(p) for p in paths], configs)
        self.paths = [f for src in self.sources for f in src.local_files]  # what is on disk (hashed in reports)
        self._skip: set[tuple[int, int]] = set()  # (source index, line or row) of duplicate ids
        self.task_types: set[str] = set()
        # a Hub dataset has no local file: keep its (small) records rather than download them twice
        self._kept: list[dict[str, Any]] | None = [] if _total_size(self.paths) <= IN_MEMORY_BYTES else None
        seen: dict[str, str] = {}
        for fi, where, lineno, rec in self._rows():
            rid = _validated(where, lineno, rec)
            place = f"{where}:{lineno}"
            if rid in seen:
                issues.duplicate_record_ids.append(f"{rid} ({place}; first at {seen[rid]})")
                self._skip.add((fi, lineno))
                continue
            seen[rid] = place
            self.task_types.add(rec["task_type"])
            if self._kept is not None:
                self._kept.append(rec)
        self.count = len(seen)

    def _rows(self) -> Iterator[tuple[int, str, int, dict[str, Any]]]:
        for fi, src in enumerate(self.sources):
            if src.kind == data_input.JSONL:
                for lineno, _, rec in iter_jsonl_at(src.location, reject_surrogates=True):
                    yield fi, src.location, lineno, rec
            else:
                for where, number, rec in data_input.iter_records(src):
                    yield fi, where, number, rec

    def __iter__(self) -> Iterator[dict[str, Any]]:
        if self._kept is not None:
            yield from self._kept
            return
        for fi, _, lineno, rec in self._rows():
            if (fi, lineno) not in self._skip:
                yield rec

    def __len__(self) -> int:
        return self.count


def load_records(paths: Sequence[str | os.PathLike], issues: Issues) -> list[dict[str, Any]]:
    """All records of the data files in memory (small inputs, tests); `RecordFiles` streams them."""
    return list(RecordFiles(paths, issues))


GENERATION_FIELDS = ("temperature", "max_tokens", "top_p", "seed", "extra")


@dataclass
class RunStats:
    """What the runs lines say about the run itself: cost, speed, truncation, errors, settings."""
    lines: int = 0
    ok_lines: int = 0
    error_lines: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    lines_with_usage: int = 0
    latencies: list[float] = field(default_factory=list)
    finish_reasons: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)  # error kind (text before the first ':') → lines
    generation: Counter = field(default_factory=Counter)  # canonical JSON of the settings → lines
    first_created: str | None = None
    last_created: str | None = None
    # per dataset label: lines, tokens and latency (what `tw-fin-eval plan` scales to a full run)
    by_dataset: dict[str, Counter] = field(default_factory=dict)
    # per dataset label: the sampling designs of its lines (canonical JSON without the per-record fields →
    # lines) and the first-level strata seen ({stratum: [population, sample]})
    sampling: dict[str, Counter] = field(default_factory=dict)
    strata: dict[str, dict[str, list[int]]] = field(default_factory=dict)

    def _add_sampling(self, ds: str, row: dict[str, Any]) -> None:
        samp = row.get("sampling")
        if not isinstance(samp, dict):
            self.sampling.setdefault(ds, Counter())["null"] += 1
            return
        design = {k: v for k, v in samp.items() if k not in ("stratum", "stratum_population", "stratum_sample", "weight")}
        self.sampling.setdefault(ds, Counter())[dumps(design)] += 1
        if isinstance(samp.get("stratum"), str):
            pop, got = samp.get("stratum_population"), samp.get("stratum_sample")
            if isinstance(pop, int) and isinstance(got, int):
                self.strata.setdefault(ds, {})[samp["stratum"]] = [pop, got]

    def add(self, row: dict[str, Any]) -> None:
        ds = str(row.get("dataset") or "?")
        per = self.by_dataset.setdefault(ds, Counter())
        per["lines"] += 1
        self._add_sampling(ds, row)
        usage = row.get("usage")
        if isinstance(usage, dict):
            for name in ("prompt_tokens", "completion_tokens"):
                v = usage.get(name)
                if isinstance(v, int) and not isinstance(v, bool):
                    per[name] += v
                    per[f"lines_with_{name}"] += 1
        lat = row.get("latency_s")
        if isinstance(lat, (int, float)) and not isinstance(lat, bool) and row.get("error") is None:
            per["latency_sum_ms"] += round(1000 * float(lat))
            per["lines_with_latency"] += 1
        self.lines += 1
        error = row.get("error")
        if error is None:
            self.ok_lines += 1
            self.finish_reasons[str(row.get("finish_reason"))] += 1
            lat = row.get("latency_s")
            if isinstance(lat, (int, float)) and not isinstance(lat, bool):
                self.latencies.append(float(lat))
        else:
            self.error_lines += 1
            self.errors[str(error).split(":", 1)[0].strip()[:80] or "?"] += 1
        usage = row.get("usage")
        if isinstance(usage, dict):
            self.lines_with_usage += 1
            for name, attr in (("prompt_tokens", "prompt_tokens"), ("completion_tokens", "completion_tokens")):
                v = usage.get(name)
                if isinstance(v, int) and not isinstance(v, bool):
                    setattr(self, attr, getattr(self, attr) + v)
            details = usage.get("completion_tokens_details")
            if isinstance(details, dict) and isinstance(details.get("reasoning_tokens"), int):
                self.reasoning_tokens += details["reasoning_tokens"]
        gen = row.get("generation") if isinstance(row.get("generation"), dict) else row
        settings = {k: gen.get(k) for k in GENERATION_FIELDS if k in gen}
        if settings:
            self.generation[dumps(settings)] += 1
        created = row.get("created")
        if isinstance(created, str):
            if self.first_created is None or created < self.first_created:
                self.first_created = created
            if self.last_created is None or created > self.last_created:
                self.last_created = created

    def to_json(self) -> dict[str, Any]:
        lat = sorted(self.latencies)
        return {"lines": self.lines, "ok_lines": self.ok_lines, "error_lines": self.error_lines,
                "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "reasoning_tokens": self.reasoning_tokens, "lines_with_usage": self.lines_with_usage,
                "latency_p50_s": quantile(lat, 0.5) if lat else None,
                "latency_p95_s": quantile(lat, 0.95) if lat else None,
                "finish_reasons": dict(self.finish_reasons.most_common()),
                "truncated_lines": self.finish_reasons.get("length", 0),
                "errors": dict(self.errors.most_common()),
                "first_created": self.first_created, "last_created": self.last_created,
                "by_dataset": {ds: dict(c) for ds, c in sorted(self.by_dataset.items())}}


@dataclass
class RunsIndex:
    """The last successful line per key, as its location in the runs files (or, for callers that build an
    index in memory, the response text itself or a runs-line dict)."""
    success: dict[Key, Any] = field(default_factory=dict)
    failures: dict[Key, str] = field(default_factory=dict)  # key → last error, for keys never successful
    success_count: dict[Key, int] = field(default_factory=dict)  # only keys with more than one success
    models: set[str] = field(default_factory=set)
    histories: dict[str, int] = field(default_factory=dict)  # ConvFinQA turns by history mode (gold / self)
    lines: int = 0
    stats: RunStats = field(default_factory=RunStats)
    paths: list[Path] = field(default_factory=list)
    _handles: dict[int, Any] = field(default_factory=dict, repr=False)

    def row(self, key: Key) -> dict[str, Any]:
        v = self.success[key]
        if isinstance(v, str):
            return {"response": v}
        if isinstance(v, dict):
            return v
        fi, offset = v
        fh = self._handles.get(fi)
        if fh is None:
            fh = self._handles[fi] = open(self.paths[fi], "rb")  # noqa: SIM115 — closed by close()
        return read_line_at(fh, offset)

    def close(self) -> None:
        for fh in self._handles.values():
            fh.close()
        self._handles.clear()


RUNS_PARTIAL = ("the last line is cut short (a run was interrupted while writing it): resume the runner first "
                "— re-run the same `tw-fin-eval run` command, which repairs the file and asks what is missing")

_KEPT_FIELDS = ("response", "reasoning", "finish_reason", "messages_sha256", "history")


def load_runs(paths: Iterable[str | os.PathLike]) -> RunsIndex:
    idx = RunsIndex()
    model_lines: Counter = Counter()
    paths = [Path(p) for p in paths]
    keep = _total_size(paths) <= IN_MEMORY_BYTES  # small: keep what scoring reads; large: byte offsets
    for fi, path in enumerate(paths):
        idx.paths.append(Path(path))
        for lineno, offset, row in iter_jsonl_at(path, reject_surrogates=True, partial_last_hint=RUNS_PARTIAL):
            idx.lines += 1
            rid, turn = row.get("id"), row.get("turn")
            if "task_type" in row and "response" not in row and "error" not in row:
                raise InputError("this is a data file (records with a task_type and no response), not a runs "
                                 "file: --runs takes the file `tw-fin-eval run` wrote, --data the records",
                                 path=path, line=lineno, item_id=rid if isinstance(rid, str) else None)
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
                model_lines[row["model"]] += 1
                if len(model_lines) > 1:
                    names = ", ".join(f"{m!r} ({n} lines)" for m, n in model_lines.items())
                    raise InputError(f"runs lines from more than one model ({names}): one report scores one "
                                     "model; score each model's runs separately and use `tw-fin-eval compare`",
                                     path=path, line=lineno, item_id=rid, field="model")
            if isinstance(row.get("history"), str):
                idx.histories[row["history"]] = idx.histories.get(row["history"], 0) + 1
            idx.stats.add(row)
            key = (rid, turn)
            if error is None:  # FORMATS §3: successful = error is null (a null response is an empty answer)
                if key in idx.success:
                    idx.success_count[key] = idx.success_count.get(key, 1) + 1
                idx.success[key] = {k: row[k] for k in _KEPT_FIELDS if k in row} if keep else (fi, offset)
                idx.failures.pop(key, None)
            elif key not in idx.success:
                idx.failures[key] = str(error)
    idx.models = set(model_lines)
    return idx


class _Prompts:
    """Today's prompt hash of a record's units, to tell a runs line made from an older prompt (stale)."""

    def __init__(self) -> None:
        from tw_fin_eval.runner import requests  # the one place the runner's prompts and their hash are built

        self._runner = requests
        self._conv: tuple[str, Any] | None = None  # the last conversation built (its turns come in a row)

    def sha256(self, record: dict[str, Any], turn: int | None, history: Any) -> str | None:
        r = self._runner
        if turn is None:
            msgs = record.get("messages")
            return r.messages_sha256(msgs) if isinstance(msgs, list) and msgs else None
        if history not in (None, "gold") and turn > 0:
            return None  # self history: the prompt holds the model's own earlier answers
        if self._conv is not None and self._conv[0] == record["id"]:
            conv = self._conv[1]
        else:
            try:
                conv = r._conversation(record, Path("?"), 0, record["id"])
            except InputError:
                conv = None
            self._conv = (record["id"], conv)
        if conv is None:
            return None
        if turn >= len(conv.questions):
            return None
        return r.messages_sha256(conv.messages(turn, "gold"))


def check_runs_match(outcome: Outcome, data_paths: Sequence[str | os.PathLike],
                     runs_paths: Sequence[str | os.PathLike]) -> str | None:
    """A runs file scored against data it was not made from gives an empty or thinned report that looks
    finished. No runs key matching a record → InputError naming both sides and what each holds; more than
    UNMATCHED_WARN_SHARE of the runs keys unmatched → the warning text (None when all is well)."""
    iss = outcome.issues

    def holds_runs() -> str:
        sample = ", ".join(iss.unknown_run_keys[:3])
        parts = ", ".join(f"{n} of {ds}" for ds, n in iss.run_datasets.items()) or "no dataset label"
        return f"{iss.run_keys} keys ({parts}; ids like {sample})"

    def holds_data() -> str:
        per = Counter(it.dataset or "?" for it in outcome.items)
        ids = ", ".join(list(dict.fromkeys(it.id for it in outcome.items[:200]))[:3]) or "—"
        return f"{len(outcome.items)} units ({', '.join(f'{n} of {ds}' for ds, n in sorted(per.items()))}; ids like " \
               f"{ids})"

    runs_s = ", ".join(str(p) for p in runs_paths)
    data_s = ", ".join(str(p) for p in data_paths)
    if iss.run_keys == 0:
        raise InputError(f"the runs file(s) {runs_s} hold no answers (no line with an id): nothing to score "
                         f"against {data_s}; run `tw-fin-eval run` first")
    matched = iss.run_keys - len(iss.unknown_run_keys)
    if matched == 0:
        raise InputError(f"no line of the runs file(s) {runs_s} matches a record of --data {data_s}: the runs hold "
                         f"{holds_runs()}; the data holds {holds_data()}. Pass the --data the runs were made from "
                         "(same subset and version)")
    share = iss.unmatched_share() or 0.0
    if share > UNMATCHED_WARN_SHARE:
        return (f"{len(iss.unknown_run_keys)} of {iss.run_keys} runs keys ({100 * share:.0f}%) in {runs_s} match no "
                f"record of --data {data_s} (e.g. {', '.join(iss.unknown_run_keys[:3])}): is this the --data the "
                "runs were made from? They are not scored")
    return None


def mark_truncated(item: scorers.ItemResult) -> None:
    """A reply cut off by the length limit (finish_reason "length") without a final answer line is wrong
    and counted as truncated; one that still wrote its 「答案：」 line is scored as usual."""
    if item.mode == extract.STRICT or item.decided_by == scorers.JUDGE or item.status not in (scorers.SCORED,
                                                                                               scorers.PENDING):
        return
    item.truncated = True
    if item.judge_request is None:
        item.status, item.correct, item.decided_by = scorers.SCORED, False, item.decided_by or scorers.RULE
        item.reason = "cut off by the length limit before a final answer line"


@dataclass
class Outcome:
    items: list[scorers.ItemResult]
    issues: Issues
    agreement: dict[str, Any] | None
    judge_calls: int
    judge_config: judge_mod.JudgeConfig
    judge_cache_hits: int = 0
    run_stats: RunStats | None = None


ItemSink = Callable[[scorers.ItemResult, dict[str, Any]], None]


def _details(record: dict[str, Any], turn: int | None, row: dict[str, Any] | None) -> dict[str, Any]:
    """What an error analysis needs beside the verdict: the question, the gold, the visible response and the
    reasoning separately (the runs line's `reasoning`, or the response's <think> block)."""
    response = think = None
    if row is not None:
        response, think = split_think(row.get("response"))
        if isinstance(row.get("reasoning"), str) and row["reasoning"].strip():
            think = row["reasoning"]
    return {"question": gold_mod.question_of(record, turn), "gold": gold_mod.gold_of(record, turn),
            "response": response, "think": think, "lang": record.get("lang")}


def score(records: Iterable[dict[str, Any]], runs: RunsIndex, *, issues: Issues | None = None,
          judge_config: judge_mod.JudgeConfig | None = None, tolerance: Tolerance | None = None,
          judge_runner: judge_mod.JudgeRunner | None = None, progress: bool = True,
          on_item: ItemSink | None = None, check_prompts: bool = True) -> Outcome:
    """Score every unit of `records` (a list, or a re-iterable `RecordFiles`). `on_item(item, details)` is
    called once per unit in order, before judging; the judge's verdicts are folded into the same items."""
    load_plugins()
    issues = issues or Issues()
    cfg = judge_config or judge_mod.JudgeConfig()
    judge_mod.check_not_self_judge(cfg, runs.models)
    ctx = scorers.ScoreSettings(tolerance=tolerance, judge_enabled=cfg.enabled)
    _prepare_scorers(records)
    prompts = _Prompts() if check_prompts else None

    items: list[scorers.ItemResult] = []
    expected: set[Key] = set()
    try:
        for rec in records:
            scorer = scorers.SCORERS[rec["task_type"]]
            for unit in scorer.units(rec):
                key = (rec["id"], unit)
                expected.add(key)
                item, row = _score_unit(rec, unit, scorer, runs, prompts, ctx, issues)
                item.failure_kind, item.failure_why = scorer.explain_failure(item, rec, unit)
                item.cluster = sys.intern(scorer.cluster(rec, unit))  # shared by a cluster's units
                item.gold_status = gold_mod.status(rec, unit)
                if on_item is not None:
                    on_item(item, _details(rec, unit, row))
                items.append(item)
    finally:
        runs.close()
    _note_run_issues(issues, runs, expected)
    agreement, runner = _judge(items, cfg, judge_runner, progress)
    return Outcome(items=items, issues=issues, agreement=agreement,
                   judge_calls=runner.calls if runner is not None else 0, judge_config=cfg,
                   judge_cache_hits=runner.cache_hits if runner is not None else 0, run_stats=runs.stats)


def _prepare_scorers(records: Iterable[dict[str, Any]]) -> None:
    """Give the scorers that need the whole record set (e.g. FinChain's labels per template) their records."""
    types = records.task_types if isinstance(records, RecordFiles) else {r["task_type"] for r in records}
    for tt in sorted(types):
        if type(scorers.SCORERS[tt]).prepare is not scorers.TaskScorer.prepare:  # only scorers that need the set
            scorers.SCORERS[tt].prepare(r for r in records if r["task_type"] == tt)


def _score_unit(rec: dict[str, Any], unit: int | None, scorer: scorers.TaskScorer, runs: RunsIndex,
                prompts: _Prompts | None, ctx: scorers.ScoreSettings, issues: Issues) -> tuple[scorers.ItemResult, Any]:
    """One unit: scored from its successful runs line (stale when the line answered an older prompt; also
    against the upstream gold where the gold was fixed), an error when its generation failed, else not run.
    Returns the item and its runs line (None without one)."""
    key = (rec["id"], unit)
    row = None
    if key in runs.success:
        row = runs.row(key)
        want = prompts.sha256(rec, unit, row.get("history")) if prompts and "messages_sha256" in row else None
        if want is not None and row.get("messages_sha256") != want:
            item = scorers.new_item(rec, unit, status=STALE, reason="the runs line answered an older "
                                  "prompt (messages_sha256 differs from today's record): re-run it")
            issues.stale.append(key_str(key))
        else:
            response = row.get("response") or ""
            item = scorer.score(rec, unit, response, ctx)
            if scorer.answer_line:
                item.exact_format = extract.uses_exact_marker(response)
            view = gold_mod.upstream_view(rec, unit)
            if view is not None and item.status == scorers.SCORED and item.decided_by != scorers.JUDGE:
                item.upstream_correct = scorer.score(view, unit, response, ctx).correct
        item.finish_reason = row.get("finish_reason")
        if item.finish_reason == "length":
            mark_truncated(item)
    elif key in runs.failures:
        item = scorers.new_item(rec, unit, status=scorers.ERROR, correct=False,
                              reason=f"generation failed: {runs.failures[key]}")
        issues.failed_generations.append(f"{key_str(key)}: {runs.failures[key]}")
    else:
        item = scorers.new_item(rec, unit, status=scorers.NOT_RUN, reason="no line in the runs file")
        issues.not_run.append(key_str(key))
    return item, row


def _note_run_issues(issues: Issues, runs: RunsIndex, expected: set[Key]) -> None:
    """What the runs file holds beyond the records' units: unknown keys, repeated generations, models, histories."""
    for key in list(runs.success) + list(runs.failures):
        if key not in expected:
            issues.unknown_run_keys.append(key_str(key))
    issues.duplicate_generations.extend(f"{key_str(k)} ×{n}" for k, n in runs.success_count.items()
                                        if n > 1 and k in expected)
    issues.run_models = sorted(runs.models)
    issues.histories = dict(runs.histories)
    issues.run_keys = len(runs.success) + len(runs.failures)
    issues.run_datasets = {ds: c["lines"] for ds, c in sorted(runs.stats.by_dataset.items())}


def _judge(items: list[scorers.ItemResult], cfg: judge_mod.JudgeConfig, judge_runner: judge_mod.JudgeRunner | None,
           progress: bool) -> tuple[dict[str, Any] | None, judge_mod.JudgeRunner | None]:
    """Ask the judge for every item with a judge request and fold the verdicts in (agreement when judged twice)."""
    to_judge = [it for it in items if it.judge_request is not None]
    agreement = None
    runner = judge_runner
    if to_judge:
        runner = runner or judge_mod.JudgeRunner(cfg, progress=progress)
        verdicts = runner.run([it.judge_request for it in to_judge])
        for it, vs in zip(to_judge, verdicts):
            scorer = scorers.SCORERS[it.task_type]
            scorer.apply_verdicts(it, vs)
            it.failure_kind, it.failure_why = scorer.explain_failure(it, None, it.turn)
        if cfg.repeats >= 2:
            agreement = {"all": judge_mod.agreement(verdicts)}
            for tt in sorted({it.task_type for it in to_judge}):
                agreement[tt] = judge_mod.agreement([vs for it, vs in zip(to_judge, verdicts) if it.task_type == tt])
    for it in items:
        it.judge_request = None
    return agreement, runner

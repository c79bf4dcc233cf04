"""The lm-evaluation-harness tasks' logic, without lm-eval itself (so it is tested on its own):
release records → one document per request → our scorer's verdict per generation.

Documents. One per request the runner would send: a FinQA or FinChain record is one document; a
ConvFinQA conversation gives one document per turn, its `messages` holding the gold answers of the
earlier turns (the paper's setting) — built by the runner's own request builder, so lm-eval sends the
same messages as `tw-fin-eval run`. A document keeps the whole record (JSON) for scoring.

Metrics (per document, from `tw_fin_eval.scoring`): `acc` is the scorer's verdict — the headline
`accuracy` of `tw-fin-eval score`; `strict_acc` counts answers read after 「答案：」 only; `flexible_acc`
also accepts the fallbacks (\\boxed{}, last number); FinChain adds `step_recall` and ConvFinQA
`conversation_acc` (every turn of a conversation right, over complete conversations only: `--limit` counts turns,
so it cuts conversations short) with `conversations`, how many it counted."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from typing import Any

from tw_fin_eval.answers import extract
from tw_fin_eval.data_input import DEFAULT_HUB_ID, RELEASE_SPLIT, read_records, resolve
from tw_fin_eval.errors import InputError
from tw_fin_eval.runner.requests import record_tasks
from tw_fin_eval.scoring import scorers

RELEASE_ENV = "TW_FIN_EVAL_RELEASE"  # default location of the release when --metadata does not say
TASK_CONFIGS = ("finqa", "convfinqa", "finchain")

Doc = dict[str, Any]


def release_location(release: str | None = None) -> str:
    """--metadata '{"release": …}' beats $TW_FIN_EVAL_RELEASE beats the Hub id."""
    return release or os.environ.get(RELEASE_ENV) or DEFAULT_HUB_ID


def load_records(config: str, release: str | None = None) -> list[dict[str, Any]]:
    (source,) = resolve(release_location(release), [config])
    records = read_records(source)
    if not records:
        raise InputError(f"no records in config {config!r}", path=source.label)
    return records


def _target(record: dict[str, Any], turn: int | None) -> str:
    gold = record["turns"][turn] if turn is not None else record
    for name in ("answer", "answer_text"):
        value = gold.get(name)
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, list) and value:
            return ",".join(map(str, value))
    value = gold.get("answer_value")
    return "" if value is None else f"{value:.12g}"


def build_docs(records: Iterable[dict[str, Any]]) -> list[Doc]:
    """One document per request (ConvFinQA: per turn, gold history), in record order."""
    records = list(records)
    prepare(records)
    docs: list[Doc] = []
    for rec in records:
        payload = json.dumps(rec, ensure_ascii=False)
        for task in record_tasks(rec, history="gold"):
            docs.append({"id": task.record_id, "turn": task.turn, "messages": task.messages,
                         "target": _target(rec, task.turn), "record": payload})
    return docs


def prepare(records: Sequence[dict[str, Any]]) -> None:
    """Let each task type's scorer see all its records once (FinChain builds each template's label set
    from them), exactly as `tw-fin-eval score` does before scoring."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for rec in records:
        by_type.setdefault(str(rec.get("task_type")), []).append(rec)
    for tt, recs in by_type.items():
        scorer = scorers.scorer_for(tt)
        if scorer is None:
            raise InputError(f"unknown task_type {tt!r}", item_id=str(recs[0].get("id")))
        scorer.prepare(recs)


def score_doc(doc: Doc, response: str) -> scorers.ItemResult:
    record = json.loads(doc["record"])
    scorer = scorers.scorer_for(record["task_type"])
    if scorer is None:
        raise InputError(f"unknown task_type {record['task_type']!r}", item_id=doc["id"])
    return scorer.score(record, doc["turn"], response or "", scorers.ScoreSettings())


def _flexible(item: scorers.ItemResult) -> bool:
    """Right under any extraction mode: the scorer's flexible verdict where it reports one."""
    value = getattr(item, "flexible_correct", None)
    return bool(item.correct) if value is None else bool(value)


def metrics_for(doc: Doc, item: scorers.ItemResult) -> dict[str, Any]:
    correct = bool(item.correct)
    out: dict[str, Any] = {
        "acc": float(correct),
        "strict_acc": float(correct and item.mode == extract.STRICT and item.decided_by != scorers.JUDGE),
        "flexible_acc": float(_flexible(item)),
    }
    scorer = scorers.SCORERS[item.task_type]
    if scorer.scores_steps:
        out["step_recall"] = item.step_recall
    if scorer.conversational:
        turn = (doc["id"], correct, len(json.loads(doc["record"])["turns"]))
        out["conversation_acc"] = out["conversations"] = turn
    return out


def process_results(doc: Doc, results: Sequence[str]) -> dict[str, Any]:
    return metrics_for(doc, score_doc(doc, results[0] if results else ""))


def mean_skip_none(values: Sequence[float | None]) -> float:
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept) if kept else float("nan")


def _conversations(values: Sequence[tuple[str, bool, int]]) -> tuple[int, float | None, int]:
    """(complete conversations, share of them with every turn right, conversations cut short): a conversation is
    complete when all its turns were evaluated — `--limit` counts documents (turns), so it usually cuts the last
    one. The rule itself is `scorers.conversation_accuracy` (the report's)."""
    seen: dict[str, int] = {}
    sizes: dict[str, int] = {}
    turns: list[tuple[str, bool | None]] = []
    for cid, ok, n_turns in values:
        turns.append((cid, bool(ok)))
        seen[cid] = seen.get(cid, 0) + 1
        sizes[cid] = n_turns
    turns += [(cid, None) for cid, n in seen.items() if n != sizes[cid]]  # not every turn evaluated once
    complete, acc = scorers.conversation_accuracy(turns)
    return complete, acc, len(seen) - complete


def conversation_accuracy(values: Sequence[tuple[str, bool, int]]) -> float | None:
    """Conversations with every turn right, among those whose turns were all evaluated (as the report counts
    them: a conversation cut by --limit is left out, and said so on the log). None — never NaN, never a 0.0
    that reads as "all wrong" — when no conversation is complete; `conversations` says how many were counted."""
    complete, acc, cut = _conversations(values)
    if cut:
        _log().warning("conversation_acc counts %d complete conversation(s); %d cut short by --limit %s left out",
                       complete, cut, "is" if cut == 1 else "are")
    return acc


def complete_conversations(values: Sequence[tuple[str, bool, int]]) -> int:
    """How many conversations `conversation_acc` counts (complete ones)."""
    return _conversations(values)[0]


def _log() -> Any:
    import logging

    return logging.getLogger("tw_fin_eval.lm_eval")


def render_plain(messages: Sequence[dict[str, str]]) -> str:
    """The prompt as one text, for completion models run without a chat template."""
    names = {"system": "系統", "user": "使用者", "assistant": "助理"}
    parts = [f"{names.get(m['role'], m['role'])}：{m['content']}" for m in messages]
    return "\n\n".join(parts) + "\n\n助理："


# ---- lm-eval's logged samples → a runs file the scorer reads -------------------------------------------
def sample_to_run_line(sample: dict[str, Any], *, model: str) -> dict[str, Any]:
    """One lm-eval `samples_<task>_*.jsonl` line as a runs-file line (docs/FORMATS.md §3)."""
    doc = sample.get("doc")
    if not isinstance(doc, dict) or not isinstance(doc.get("id"), str):
        raise InputError("sample has no `doc` with an `id`: is this a tw_fin_eval lm-eval samples file?")
    resps = sample.get("resps") or [[None]]
    response = resps[0][0] if resps and isinstance(resps[0], list) and resps[0] else None
    try:
        dataset = json.loads(doc.get("record") or "{}").get("dataset")
    except (TypeError, ValueError):
        dataset = None
    line = {"id": doc["id"], "turn": doc.get("turn"), "dataset": dataset, "model": model,
            "messages": doc.get("messages"), "response": response, "reasoning": None, "finish_reason": None,
            "usage": None, "latency_s": None, "attempts": 1, "error": None, "created": None}
    if doc.get("turn") is not None:
        line["history"] = "gold"
    return line


__all__ = ["RELEASE_ENV", "TASK_CONFIGS", "RELEASE_SPLIT", "build_docs", "load_records", "process_results",
           "score_doc", "metrics_for", "mean_skip_none", "conversation_accuracy", "complete_conversations",
           "render_plain",
           "sample_to_run_line"]

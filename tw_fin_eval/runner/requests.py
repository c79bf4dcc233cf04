"""Request building: data records → (id, turn) tasks → chat-completions request bodies.

Standard library only. `build_request(record, turn, settings)` is the one place a request body is made:
the run loop and batch export both call it (through `request_body`), so a body sent live and one written
to a batch file are the same bytes for the same settings."""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tw_fin_eval import data_input, prompts
from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import dumps

HISTORY_MODES = ("gold", "self")
RESERVED_BODY_KEYS = ("model", "messages")

Key = tuple[str, "int | None"]


@dataclass(frozen=True)
class RequestSettings:
    """What goes into every request besides the messages. None = not sent (the server's default)."""
    model: str
    temperature: float | None = None
    max_tokens: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # --extra, merged last
    history: str = "gold"  # ConvFinQA history: gold answers or the model's own ("self")
    seed: int | None = None  # sent as the request's `seed` (servers that honour it sample reproducibly)

    def generation(self) -> dict[str, Any]:
        """The settings every runs line records; resuming with different ones is refused."""
        return {"temperature": self.temperature, "max_tokens": self.max_tokens, "extra": dict(self.extra),
                "seed": self.seed}


@dataclass
class Conversation:
    """A ConvFinQA record: everything needed to build turn k's prompt."""
    record_id: str
    system: str
    prefix: str
    questions: list[str]
    gold: list[str]  # gold answers as they stand in the history ("答案：…")
    answers: dict[int, str] = field(default_factory=dict)  # the model's own answers (self history)

    def messages(self, turn: int, history: str) -> list[dict[str, str]]:
        if history == "gold":
            hist = self.gold[:turn]
        else:
            hist = [self.answers[j] for j in range(turn)]
        return prompts.conversation_messages(self.system, self.prefix, self.questions[: turn + 1], hist)


@dataclass
class Task:
    record_id: str
    turn: int | None
    dataset: str | None
    messages: list[dict] | None = None  # None until built (self-history turns wait for earlier turns)
    conv: Conversation | None = None
    sampling: dict[str, Any] | None = None  # how its record was chosen (data_input.Sampling.line_fields)

    @property
    def key(self) -> Key:
        return (self.record_id, self.turn)


def _check_messages(msgs: Any, path: Path | None, line: int | None, rid: str) -> list[dict]:
    if not isinstance(msgs, list) or not msgs:
        raise InputError("record has no `messages` (a non-empty list of {role, content}); "
                         "is this a tw_fin_eval data file?", path=path, line=line, item_id=rid, field="messages")
    for i, m in enumerate(msgs):
        if not (isinstance(m, dict) and isinstance(m.get("role"), str) and isinstance(m.get("content"), str)):
            raise InputError(f"messages[{i}] must be an object with string role and content",
                             path=path, line=line, item_id=rid, field="messages")
    # every record of a subset repeats the same system prompt: one shared string instead of one per task
    # keeps a 290,000-item resume under 600 MB (key order, and so messages_sha256, is unchanged)
    return [{**m, "role": sys.intern(m["role"]),
             "content": sys.intern(m["content"]) if m["role"] == "system" else m["content"]} for m in msgs]


def _gold_answer(turn: dict) -> str | None:
    for name in ("answer", "answer_text"):
        if isinstance(turn.get(name), str) and turn[name].strip():
            return turn[name]
    value = turn.get("answer_value")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:.12g}"
    return None


def _conversation(rec: dict, path: Path | None, line: int | None, rid: str) -> Conversation:
    turns = rec.get("turns")
    if not isinstance(turns, list) or not turns:
        raise InputError("conversation record has no `turns`", path=path, line=line, item_id=rid, field="turns")
    for name in ("system", "first_user_prefix"):
        if not isinstance(rec.get(name), str):
            raise InputError(f"conversation record needs a string `{name}`", path=path, line=line,
                             item_id=rid, field=name)
    questions, gold = [], []
    for k, turn in enumerate(turns):
        if not isinstance(turn, dict) or not isinstance(turn.get("question"), str) or not turn["question"].strip():
            raise InputError(f"turns[{k}] has no question", path=path, line=line, item_id=rid, field="turns")
        answer = _gold_answer(turn)
        if answer is None and k < len(turns) - 1:  # the last turn's answer is never shown to the model
            raise InputError(f"turns[{k}] has no gold answer for the history", path=path, line=line,
                             item_id=rid, field="turns")
        questions.append(turn["question"])
        gold.append(prompts.gold_history_answer(answer or ""))
    return Conversation(rid, rec["system"], rec["first_user_prefix"], questions, gold)


def record_tasks(rec: dict, *, history: str = "gold", path: Path | None = None,
                 line: int | None = None) -> list[Task]:
    """The (id, turn) requests of one data record, validated (bad input raises InputError naming
    path:line when given). Self-history turns after the first have `messages` None: they need the
    model's own earlier answers."""
    rid = rec.get("id")
    if not isinstance(rid, str) or not rid:
        raise InputError("record has no string `id`; is this a tw_fin_eval data file?",
                         path=path, line=line, field="id")
    dataset = rec.get("dataset") if isinstance(rec.get("dataset"), str) else None
    if rec.get("turns") is not None:  # the record's shape decides (schema.units): turns are asked one by one
        conv = _conversation(rec, path, line, rid)
        return [Task(rid, k, dataset, conv.messages(k, "gold") if history == "gold" or k == 0 else None, conv)
                for k in range(len(conv.questions))]
    return [Task(rid, None, dataset, _check_messages(rec.get("messages"), path, line, rid))]


def load_tasks(data: Iterable[str | os.PathLike], *, configs: Sequence[str] | str | None = None,
               limit: int | None = None, sample: int | None = None, seed: int | None = None,
               history: str = "gold", allocation: str = data_input.PROPORTIONAL,
               keep: Callable[[Task], bool] | None = None) -> list[Task]:
    """Every (id, turn) to ask, in file order. `data` names JSONL or parquet files, release folders or Hub
    ids (`configs` picks a release's configs; tw_fin_eval.data_input). Per data file: `limit` keeps the
    first N records, `sample` a stratified random sample of N (`allocation` proportional or equal, seeded by
    `seed`, the sampling seed — not the generation seed); every task carries its record's sampling design.
    Validates everything first: bad input raises InputError naming the file and line (or row).

    Records are streamed, never held: `keep(task)` sees every task as it is made and only those it returns
    True for are kept (resume drops finished ones, so resuming 290,000 finished items holds no prompts).
    With `sample` each file is read twice (first only the stratum fields)."""
    tasks: list[Task] = []
    seen: dict[str, tuple[str, int]] = {}  # id → where it was first seen (file name shared, not one string per id)
    for source in data_input.resolve_all([str(d) for d in data], configs):
        if sample is not None:  # the strata of every record, then the chosen ones built on a second read
            stubs = [{k: sys.intern(str(rec[k])) if isinstance(rec.get(k), str) else rec.get(k)
                      for k in data_input.SAMPLE_KEYS if k in rec} for _, _, rec in data_input.iter_records(source)]
            picked, design = data_input.choose(stubs, limit=limit, sample=sample, seed=seed, allocation=allocation)
            wanted: set[int] | None = set(picked)
            del stubs
        else:
            wanted, design = None, None
        fields_of: dict[str, dict[str, Any]] = {}  # one shared `sampling` dict per stratum, not one per record
        count = 0
        for i, (where, line, rec) in enumerate(data_input.iter_records(source)):
            count += 1
            if (wanted is not None and i not in wanted) or (wanted is None and limit is not None and i >= limit):
                continue
            rid = rec.get("id")
            if isinstance(rid, str) and rid in seen:
                raise InputError(f"duplicate id (first seen at {seen[rid][0]}:{seen[rid][1]})", path=where, line=line,
                                 item_id=rid)
            record = record_tasks(rec, history=history, path=Path(where), line=line)
            stratum = data_input.stratum_value(rec, design.key) if design is not None and design.key else ""
            if stratum not in fields_of:
                fields_of[stratum] = design.line_fields(rec) if design is not None else {}
            for task in record:
                task.sampling = fields_of[stratum]
                if keep is None or keep(task):
                    tasks.append(task)
            seen[rid] = (where, line)  # type: ignore[index]
        if design is None:  # the design needs the file's size: filled in now, into the dict the tasks share
            _, design = data_input.choose([{}] * count, limit=limit, seed=seed, allocation=allocation)
            fields_of.setdefault("", {}).update(design.line_fields({}))
    return tasks


def request_body(messages: list[dict], settings: RequestSettings) -> dict[str, Any]:
    """The chat-completions body for `messages`: model, messages, then the generation settings that are
    set (None means "the server's default": not sent), then --extra."""
    body: dict[str, Any] = {"model": settings.model, "messages": messages}
    params: dict[str, Any] = {"temperature": settings.temperature, "max_tokens": settings.max_tokens,
                              "seed": settings.seed}
    params.update(settings.extra)
    body.update({k: v for k, v in params.items() if v is not None})
    return body


def build_request(record: dict, turn: int | None, settings: RequestSettings, *,
                  own_answers: Sequence[str] | None = None) -> dict[str, Any]:
    """The request body the runner sends for `record` at `turn` (None for single-turn records).

    For a ConvFinQA turn under `settings.history == "self"`, `own_answers` holds the model's answers to
    turns 0..turn-1. Bad input raises InputError naming the id."""
    for task in record_tasks(record, history=settings.history):
        if task.turn == turn:
            break
    else:
        raise InputError(f"record has no turn {turn!r}", item_id=str(record.get("id")), field="turn")
    if task.messages is None:
        assert task.conv is not None and task.turn is not None
        if own_answers is None or len(own_answers) < task.turn:
            raise InputError(f"self history: turn {turn} needs the model's answers to turns 0..{task.turn - 1}",
                             item_id=task.record_id, field="turn")
        task.conv.answers = dict(enumerate(own_answers[: task.turn]))
        task.messages = task.conv.messages(task.turn, "self")
    return request_body(task.messages, settings)


def messages_sha256(messages: list[dict]) -> str:
    """sha256 of the messages serialised as every JSONL line is (compact, UTF-8, key order kept)."""
    return hashlib.sha256(dumps(messages).encode("utf-8")).hexdigest()


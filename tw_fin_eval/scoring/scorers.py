"""Per-task scorers behind one registry keyed by `task_type` (never by dataset name).

Each scorer validates the fields its task type needs, lists the units it expects generations for
(`None` for a single item, turn numbers for a conversation), scores one generation by rule, and — where
rules cannot decide — attaches a `JudgeRequest`; `apply_verdicts` then folds the judge's verdicts in.

Item status: ``scored`` (decided: by ``rule``, ``keyword`` or ``judge``), ``pending`` (needs a judge that is
not configured or not reachable), ``missing`` (judge reply unparseable — never 0), ``error`` (the
generation failed: counted as wrong), ``not_run`` (no line in the runs file: not counted, listed), or a
protocol-specific outcome (e.g. ``no_ground_truth``).
"""

from __future__ import annotations

import bisect
import functools
import math
import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tw_fin_eval import schema
from tw_fin_eval.answers import extract, match
from tw_fin_eval.answers.numbers import find_numbers, parse_number, scan_values
from tw_fin_eval.answers.vocabulary import (
    NEGATOR_WORDS,
    YEAR_ASK_WORDS,
    alternation,
)
from tw_fin_eval.errors import InputError
from tw_fin_eval.schema import DEFAULT_TOLERANCE, Status, Tolerance
from tw_fin_eval.scoring import judge, model_outputs

RULE, KEYWORD, JUDGE = "rule", "keyword", "judge"
SCORED, PENDING, MISSING, ERROR, NOT_RUN = Status.SCORED, Status.PENDING, Status.MISSING, Status.ERROR, Status.NOT_RUN


@dataclass
class ItemResult:
    id: str
    turn: int | None
    dataset: str | None
    task_type: str
    category: str | None
    subcategory: str | None
    difficulty: str | None
    status: str = SCORED
    correct: bool | None = None
    score: float | None = None
    extracted: str | None = None
    mode: str | None = None
    decided_by: str | None = None
    match_path: str | None = None
    judge_verdict: Any = None
    judge_raw: Any = None
    step_recall: float | None = None
    step_precision: float | None = None
    step_f1: float | None = None
    flexible_correct: bool | None = None  # diagnostic: right with the flexible fallbacks (\boxed{}, last number)
    truncated: bool = False  # cut off by the length limit with no final answer line
    refused: bool = False  # the answer declines (「無法判斷」): wrong, and counted
    exact_format: bool | None = None  # the reply used the prompt's exact 「答案：」 line (None: no answer line asked)
    reason: str | None = None
    # set by the engine for the report: bootstrap cluster, gold status (issue 21), the verdict against the
    # upstream gold where a fixed gold differs, and the generation's finish_reason
    cluster: str | None = None
    gold_status: str | None = None
    upstream_correct: bool | None = None
    finish_reason: str | None = None
    # why a unit counted wrong is wrong (TaskScorer.explain_failure): one of FAILURE_KINDS, and a sentence
    failure_kind: str | None = None
    failure_why: str | None = None
    judge_request: judge.JudgeRequest | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "turn": self.turn, "dataset": self.dataset, "task_type": self.task_type,
                "category": self.category, "subcategory": self.subcategory, "difficulty": self.difficulty,
                "extracted": self.extracted, "mode": self.mode, "correct": self.correct, "score": self.score,
                "status": self.status, "decided_by": self.decided_by, "match_path": self.match_path,
                "judge_verdict": self.judge_verdict, "judge_raw": self.judge_raw, "step_recall": self.step_recall,
                "step_precision": self.step_precision, "step_f1": self.step_f1,
                "flexible_correct": self.flexible_correct, "truncated": self.truncated, "refused": self.refused,
                "exact_format": self.exact_format,
                "reason": self.reason, "cluster": self.cluster, "gold_status": self.gold_status,
                "upstream_correct": self.upstream_correct,
                "finish_reason": self.finish_reason, "failure_kind": self.failure_kind,
                "failure_why": self.failure_why}


def _shared(value: Any) -> Any:
    """One string object for the labels every item repeats (a 290,000-unit run keeps one copy each)."""
    return sys.intern(value) if isinstance(value, str) else value


def new_item(record: dict[str, Any], turn: int | None, **kw: Any) -> ItemResult:
    return ItemResult(id=record["id"], turn=turn, dataset=_shared(record.get("dataset")),
                      task_type=_shared(record["task_type"]), category=_shared(record.get("category")),
                      subcategory=_shared(record.get("subcategory")), difficulty=_shared(record.get("difficulty")),
                      **kw)


@dataclass
class ScoreSettings:
    tolerance: Tolerance | None = None  # None: the scorer picks (the default, or a question's stated rounding)
    judge_enabled: bool = False


def _need(record: dict[str, Any], cond: bool, field_name: str, what: str) -> None:
    if not cond:
        raise InputError(f"task_type {record.get('task_type')!r} needs {what}", item_id=record.get("id"),
                         field=field_name)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


@dataclass(frozen=True)
class ReportColumn:
    """A summary column a scorer declares (as Inspect AI declares metrics on a scorer): the mean of the item
    attribute `field` over the run items that have it. The report adds every declared column."""

    name: str
    field: str


# Why a wrong unit is wrong: report.html's error analysis groups and samples wrong answers by these kinds.
WRONG_VALUE, SIGN, SCALE, TRUNCATED, REFUSED, FORMAT = "wrong value", "sign", "unit/scale", "truncated", "refused", \
    "format"
FAILED, JUDGED_WRONG, WRONG_CHOICE, WRONG_LABEL = "generation failed", "judged wrong", "wrong choice", "wrong label"
FAILURE_KINDS = (WRONG_VALUE, SIGN, SCALE, TRUNCATED, REFUSED, FORMAT, WRONG_CHOICE, WRONG_LABEL, JUDGED_WRONG,
                 FAILED)
# powers of ten a unit slip produces: %, 千, 萬, 百萬, 億, 十億, 兆
_SLIPS = {2, 3, 4, 6, 8, 9, 12}


class TaskScorer:
    """Everything per task type: validation, units, scoring, judge verdicts, and what the engine, the reports
    and the self-check need to know about the task (nothing outside the scorers switches on `task_type`)."""

    task_type = ""
    answer_line = False  # the prompt asks for a 「答案：」 line (the report counts replies that did not use it)
    report_columns: tuple[ReportColumn, ...] = ()
    rule_scored = False  # decided by rules (the self-check expects 100% on gold answers)
    cluster_name = "item"  # what `cluster` groups units by, as reports name it
    conversational = False  # units are the turns of one conversation: reports add conversation accuracy
    scores_steps = False  # items carry step_recall (intermediate values of a worked solution)

    def gold_output(self, record: dict[str, Any], turn: int | None) -> str:
        """The gold answer written as a model output (self-check)."""
        return model_outputs.reference_gold(record, turn)

    def corrupt_output(self, record: dict[str, Any], turn: int | None, labels: Sequence[str] = ()) -> tuple[str, str]:
        """(kind, output): a wrong answer of a kind models write (self-check); "none" when there is none."""
        return "none", self.gold_output(record, turn)

    def off_by_ten_output(self, record: dict[str, Any], turn: int | None) -> str | None:
        """The numeric answer written 10% too high (self-check), or None for a unit without one."""
        return None

    def explain_failure(self, item: ItemResult, record: dict[str, Any] | None,
                        turn: int | None) -> tuple[str | None, str | None]:
        """(failure kind, why) of a unit that counts as wrong — (None, None) otherwise. The kinds every task
        shares are decided here; `wrong_answer` says what kind of wrong answer this task's answer is."""
        if item.status == ERROR:
            return FAILED, item.reason or "the generation failed"
        if item.status != SCORED or item.correct or item.correct is None:
            return None, None
        if item.truncated:
            return TRUNCATED, "cut off by the length limit before a final answer line"
        if item.refused:
            return REFUSED, "the answer declines to answer"
        if item.decided_by == JUDGE:
            return JUDGED_WRONG, "the judge found the answer wrong" + (
                f" (score {item.score:g})" if item.score is not None else "")
        if item.flexible_correct:
            return FORMAT, "the right answer, but not on the 「答案：」 line (only a fallback reading finds it)"
        if item.reason and "range or alternatives" in item.reason:
            return FORMAT, item.reason
        if not (item.extracted or "").strip():
            return FORMAT, "no answer could be read (no 「答案：」 line, nothing a fallback reads)"
        return self.wrong_answer(item, record, turn)

    def wrong_answer(self, item: ItemResult, record: dict[str, Any] | None,
                     turn: int | None) -> tuple[str, str]:
        return WRONG_VALUE, f"{item.extracted!r} does not match the gold"

    def validate(self, record: dict[str, Any]) -> None:
        pass

    def units(self, record: dict[str, Any]) -> list[int | None]:
        return schema.units(record)

    def cluster(self, record: dict[str, Any], turn: int | None) -> str:
        """Units with the same cluster are resampled together by the bootstrap (default: independent)."""
        return record["id"] if turn is None else f"{record['id']}#turn{turn}"

    def prepare(self, records: Sequence[dict[str, Any]]) -> None:
        pass

    def score(self, record: dict[str, Any], turn: int | None, response: str, ctx: ScoreSettings) -> ItemResult:
        raise NotImplementedError

    def apply_verdicts(self, item: ItemResult, verdicts: list[judge.Verdict]) -> None:
        """Default: the first verdict decides; every verdict is kept in the item."""
        first = verdicts[0]
        item.judge_verdict = first.to_json() if len(verdicts) == 1 else [v.to_json() for v in verdicts]
        item.judge_raw = first.raw if len(verdicts) == 1 else [v.raw for v in verdicts]
        if first.outcome == judge.SCORED:
            item.status, item.correct, item.score, item.decided_by = SCORED, first.correct, first.score, JUDGE
        else:
            item.status, item.correct, item.reason = first.outcome, None, first.reason


SCORERS: dict[str, TaskScorer] = {}


def register(scorer: TaskScorer) -> TaskScorer:
    SCORERS[scorer.task_type] = scorer
    return scorer


_YEAR_ASK = re.compile(alternation(YEAR_ASK_WORDS), re.I)
YEAR_TOLERANCE = Tolerance(rel=0.0, abs=0.5)


def year_tolerance(gold_value: float, asked: Sequence[str | None]) -> Tolerance | None:
    """A year is exact: when the gold is a year (an integer 1900–2100) and the question — or, in a conversation,
    an earlier turn the arithmetic starts from («於哪一年到期？» … «這個年份加 9 是多少？») — asks for a year, the
    1% tolerance (±20 years) does not apply."""
    if float(gold_value).is_integer() and 1900 <= gold_value <= 2100 and any(q and _YEAR_ASK.search(q) for q in asked):
        return YEAR_TOLERANCE
    return None


def _numeric_item(record: dict[str, Any], turn: int | None, response: str, gold: dict[str, Any],
                  questions: list[str | None], ctx: ScoreSettings, asked: Sequence[str | None] = ()) -> ItemResult:
    """A numeric or yes/no answer scored by rule (FinQA items, ConvFinQA turns). `asked`: the questions a
    year gold is recognised from (the conversation so far)."""
    if gold.get("answer_value") is None:
        m = match.match_yes_no(response, gold.get("answer_text") or gold.get("answer") or "", questions[0])
        return _rule_item(record, turn, m, "yes_no")
    gold_value = float(gold["answer_value"])
    tol = year_tolerance(gold_value, asked or questions) or ctx.tolerance or DEFAULT_TOLERANCE
    m = match.match_numeric(response, gold_value, gold_answer=gold.get("answer"),
                            questions=questions, tol=tol, answer_scale=gold.get("answer_scale"))
    return _rule_item(record, turn, m, m.path)


def numeric_failure(extracted: str | None, gold_value: Any) -> tuple[str, str]:
    """A wrong number: the opposite sign, a unit or scale slip (off by 10^k: %, 千, 萬, 百萬, 億 …), or a wrong
    value."""
    num = parse_number(extracted or "")
    if num is None or not _is_number(gold_value):
        return WRONG_VALUE, f"{extracted!r} does not match the gold"
    g = float(gold_value)
    lim = max(DEFAULT_TOLERANCE.abs, DEFAULT_TOLERANCE.rel * abs(g))
    for x in dict.fromkeys((num.value, num.bare)):
        if g != 0 and abs(x + g) <= lim:
            return SIGN, f"{extracted} has the opposite sign of the gold {g:.12g}"
    for x in dict.fromkeys((num.value, num.bare)):
        if g != 0 and x != 0 and (x > 0) == (g > 0):
            k = math.log10(abs(x / g))
            if abs(k - round(k)) < 0.005 and abs(round(k)) in _SLIPS:
                return SCALE, (f"{extracted} is the gold {g:.12g} × 10^{round(k)}: a unit or scale slip "
                               "(%, 千, 萬, 百萬, 億 …)")
    return WRONG_VALUE, f"{extracted} ≠ the gold {g:.12g} (outside the tolerance)"


class _NumericFailure:
    """For scorers whose answer is a number (or yes/no): sign, scale or value."""

    def wrong_answer(self, item: ItemResult, record: dict[str, Any] | None,
                     turn: int | None) -> tuple[str, str]:
        if record is None:
            return WRONG_VALUE, f"{item.extracted!r} does not match the gold"
        unit = record["turns"][turn] if turn is not None and isinstance(record.get("turns"), list) else record
        if unit.get("answer_value") is None:  # a yes/no or label answer
            return WRONG_VALUE, f"{item.extracted!r} is not the gold {unit.get('answer_text') or unit.get('answer')!r}"
        return numeric_failure(item.extracted, unit["answer_value"])


def _rule_item(record: dict[str, Any], turn: int | None, m: match.Match, path: str | None,
               **kw: Any) -> ItemResult:
    reason = "the answer line gives a range or alternatives" if m.ambiguous else \
        "refusal" if m.refused else None
    return new_item(record, turn, correct=m.correct, extracted=m.extracted, mode=m.mode, decided_by=RULE,
                    match_path=path, flexible_correct=m.flexible, refused=m.refused, reason=reason, **kw)


def _validate_gold(record: dict[str, Any], gold: dict[str, Any], where: str) -> None:
    ok = _is_number(gold.get("answer_value")) or isinstance(gold.get("answer_text"), str)
    _need(record, ok, where, "a numeric answer_value or an answer_text")


class _NumericOutputs:
    """Self-check writers of a numeric (or yes/no) gold, for single items and conversation turns alike."""

    rule_scored = True

    def gold_output(self, record: dict[str, Any], turn: int | None) -> str:
        return model_outputs.numeric_gold(record, turn)

    def corrupt_output(self, record: dict[str, Any], turn: int | None, labels: Sequence[str] = ()) -> tuple[str, str]:
        return model_outputs.numeric_corrupt(record, turn, labels)

    def off_by_ten_output(self, record: dict[str, Any], turn: int | None) -> str | None:
        return model_outputs.numeric_off_by_ten(record, turn)


class NumericScorer(_NumericFailure, _NumericOutputs, TaskScorer):
    task_type = "numeric"
    answer_line = True

    def validate(self, record: dict[str, Any]) -> None:
        _validate_gold(record, record, "answer_value")

    def score(self, record: dict[str, Any], turn: int | None, response: str, ctx: ScoreSettings) -> ItemResult:
        return _numeric_item(record, turn, response, record, [record.get("question")], ctx)


class ConversationScorer(_NumericFailure, _NumericOutputs, TaskScorer):
    task_type = "conversation_numeric"
    cluster_name = "conversation"
    conversational = True
    answer_line = True

    def validate(self, record: dict[str, Any]) -> None:
        turns = record.get("turns")
        _need(record, isinstance(turns, list) and len(turns) > 0, "turns", "a non-empty turns list")
        for k, t in enumerate(turns):
            _need(record, isinstance(t, dict), f"turns[{k}]", "turn objects")
            _validate_gold(record, t, f"turns[{k}].answer_value")

    def cluster(self, record: dict[str, Any], turn: int | None) -> str:
        return record["id"]  # the turns of one conversation share a table and a history

    def score(self, record: dict[str, Any], turn: int | None, response: str, ctx: ScoreSettings) -> ItemResult:
        t = record["turns"][turn or 0]
        asked = [u.get("question") for u in record["turns"][:(turn or 0) + 1]]
        return _numeric_item(record, turn, response, t, [t.get("question")], ctx, asked)


# ---- FinChain: final answer + step_recall; categorical conclusions ---------------------------------------
_NEG_WORD_WINDOW = 24  # the word and its links end right before the number (「减少了约 」, "a decrease of about $")


@dataclass(frozen=True)
class StepScores:
    recall: float | None
    precision: float | None
    f1: float | None


def step_scores(output: str | None, steps: Sequence[dict[str, Any]], tol: Tolerance = DEFAULT_TOLERANCE,
                question: str | None = None) -> StepScores:
    """How many gold intermediate values the output computes, one number per step.

    Candidates are the distinct numbers of the visible output (think removed, 「步驟 N：」 labels ignored)
    minus the numbers copied from the question. Each gold step needs its own candidate (one-to-one, so the
    final answer written twice, or one guess, never satisfies two steps); steps whose value is itself a
    number of the question cannot show work and are left out, and steps that repeat an earlier step's value
    (「取較大者」 selecting a value already computed) are one step. A number of the question written as a
    result (right after 「=」/「≈」: 「… × （1 − 20%） = 7.00%」 when the rate is 7.00% too) is a candidate
    only for a step no other number satisfies, and counts in precision only when used. A number matches by its value with unit
    (「1.2 億」, 「5.25%」 → 0.0525) or its bare numeral; for a step whose label names a rate, also 100×
    (5.25 for 0.0525); a negative step needs a negative number or its magnitude after a word that carries
    the sign (減少 / 下降 / 虧損 / 流出 …). recall = steps found / steps; precision = candidates used /
    candidates; F1 their harmonic mean — a list of guesses («2.5%、3%、3.5%、4%…») has a low precision.
    A refusal scores 0."""
    if not steps:
        return StepScores(None, None, None)
    text = extract.recall_text(output)
    q_values = {_key(v) for v, bare, _ in scan_values(question or "") for v in (v, bare)}
    usable, seen = [], set()
    for st in steps:
        if _is_number(st.get("value")) and math.isfinite(st["value"]):
            k = _key(float(st["value"]))
            if k not in q_values and k not in seen:
                seen.add(k)
                usable.append(st)
    if not usable:
        return StepScores(None, None, None)
    seg = extract.answer_segment(text)
    if extract.is_refusal(seg if seg is not None else text[-200:]):
        return StepScores(0.0, 0.0, 0.0)
    # distinct candidates, each with its readings
    # key → [(reading, counts only for a rate step)]
    readings: dict[float, list[tuple[float, bool]]] = {}
    copied = False
    for value, bare, pct in scan_values(text):
        k = _key(value)
        if k in q_values:
            copied = True
            continue
        rs = readings.setdefault(k, [])
        if not rs:
            rs.extend([(value, False), (bare, False)] + ([] if pct else [(bare / 100.0, True)]))
    # question numbers the output writes as a result: the second pass's candidates
    results: dict[float, list[tuple[float, bool]]] = {}
    if copied:
        for m in _RESULT_SIGN.finditer(text):
            first = scan_values(text[m.end():m.end() + 40])[:1]
            for value, bare, pct in first:
                k = _key(value)
                if k in q_values and k not in results:
                    results[k] = [(value, False), (bare, False)] + ([] if pct else [(bare / 100.0, True)])
    if any(float(st["value"]) < 0 for st in usable):
        for n in find_numbers(text):
            if n.bare > 0 and extract.ends_with_decrease_word(text[max(0, n.start - _NEG_WORD_WINDOW):n.start]):
                k = _key(n.value)
                if k in readings:
                    readings[k].extend([(-n.value, False), (-n.bare, False)])
    used, missed = _assign(usable, readings, tol)
    found, candidates = len(used), len(readings)
    if results and missed:
        extra, _ = _assign(missed, results, tol)
        found, candidates = found + len(extra), candidates + len(extra)
    recall = found / len(usable)
    precision = found / candidates if candidates else 0.0
    f1 = 2 * recall * precision / (recall + precision) if recall + precision else 0.0
    return StepScores(recall, precision, f1)


_RESULT_SIGN = re.compile(r"[=＝≈]\s*")


def _assign(steps: Sequence[dict[str, Any]], readings: dict[float, list[tuple[float, bool]]],
            tol: Tolerance) -> tuple[set[int], list[dict[str, Any]]]:
    """(candidates used, steps left unmatched): each step takes the first unused candidate (in order of
    appearance) with a reading within its tolerance — found by bisecting the sorted readings."""
    index = sorted((r, i, rate_only) for i, rs in enumerate(readings.values()) for r, rate_only in rs)
    values = [e[0] for e in index]
    used: set[int] = set()
    missed: list[dict[str, Any]] = []
    for st in steps:
        v = float(st["value"])
        rate = _is_rate_label(str(st.get("label") or ""))
        lim = max(tol.abs, tol.rel * abs(v))
        lo, hi = bisect.bisect_left(values, v - lim), bisect.bisect_right(values, v + lim)
        # the window's edges are re-tested with the original |r − v| ≤ lim (float rounding of v ± lim)
        hits = [i for r, i, rate_only in index[max(0, lo - 1):hi + 1]
                if abs(r - v) <= lim and (rate or not rate_only) and i not in used]
        if hits:
            used.add(min(hits))
        else:
            missed.append(st)
    return used, missed


def _key(value: float) -> float:
    """Numbers compared as written, to 9 significant digits (float noise)."""
    return float("%.9g" % value)  # noqa: UP031 — 1.5× faster than an f-string; 81,000 calls per full scoring


def step_recall(output: str | None, steps: Sequence[dict[str, Any]], tol: Tolerance = DEFAULT_TOLERANCE,
                question: str | None = None) -> float | None:
    return step_scores(output, steps, tol, question).recall


@functools.lru_cache(maxsize=4096)
def _is_rate_label(label: str) -> bool:
    return bool(match._PERCENT_CUES.search(label))  # labels repeat across the seeds of a template


_NEGATORS = NEGATOR_WORDS
_norm_label = extract.norm_label


_OPTION_BRACKET = re.compile(r"[（(]\s*(?:請回答|請選擇|回答)?\s*([^（）()]{1,60}?)\s*[)）]")
_OPTION_ASK = re.compile(r"(?:請回答|請選擇|回答)\s*([^（）()。？?；;]{1,60}?)\s*(?:[)）。？?；;]|$)")
_OPTION_SPLIT = re.compile(r"\s*(?:／|/|、|或)\s*")
_QUOTED = re.compile(r"「([^「」]{1,8})」")
# a fund name: a two-character brand after a non-CJK character or a conjunction, 投信, its name, 基金
_FUND = re.compile(r"(?:(?<![\u4e00-\u9fff])|(?<=[與和及、，]))[\u4e00-\u9fff]{2}投信[\u4e00-\u9fff]{2,12}?基金")


@functools.lru_cache(maxsize=4096)
def question_labels(question: str | None) -> frozenset[str]:
    """The answer options a FinChain question states itself: 「（低／中／高）」, 「（請回答保守型、穩健型或積極型）」,
    the quoted grades of a rule (為「賣壓強」…為「賣壓弱」), and the funds a 「請回答基金名稱」 question compares.
    The seeds shipped with a template may all share one gold, so the seeds alone can miss a label."""
    q = match.normalize(question or "")
    options: set[str] = set()
    for pattern in (_OPTION_BRACKET, _OPTION_ASK):
        for m in pattern.finditer(q):
            parts = [p.strip("「」『』\"' ") for p in _OPTION_SPLIT.split(m.group(1))]
            if len(parts) >= 2 and all(0 < len(p) <= 16 and not re.search(r"\d|名稱", p) for p in parts):
                options.update(parts)
    quoted = [m.group(1) for m in _QUOTED.finditer(q) if not re.search(r"\d", m.group(1))]
    if len(quoted) >= 2:
        options.update(quoted)
    if "名稱" in q:
        options.update(_FUND.findall(q))
    return frozenset(_norm_label(o) for o in options if _norm_label(o))


class FinChainScorer(TaskScorer):
    task_type = "numeric_cot"
    rule_scored = True
    cluster_name = "template"
    scores_steps = True
    answer_line = True
    report_columns = (ReportColumn("mean_step_precision", "step_precision"), ReportColumn("mean_step_f1", "step_f1"))

    def __init__(self) -> None:
        self.labels: dict[str, set[str]] = {}

    def validate(self, record: dict[str, Any]) -> None:
        at = record.get("answer_type")
        _need(record, at in {"numeric", "categorical"}, "answer_type", "answer_type numeric or categorical")
        if at == "numeric":
            _need(record, _is_number(record.get("answer_value")), "answer_value", "a numeric answer_value")
        else:
            _need(record, isinstance(record.get("answer_text"), str) and record["answer_text"].strip() != "",
                  "answer_text", "a categorical answer_text")
        _need(record, isinstance(record.get("steps"), list), "steps", "a steps list")

    def gold_output(self, record: dict[str, Any], turn: int | None) -> str:
        return model_outputs.finchain_gold(record, turn)

    def corrupt_output(self, record: dict[str, Any], turn: int | None, labels: Sequence[str] = ()) -> tuple[str, str]:
        return model_outputs.finchain_corrupt(record, turn, labels)

    def off_by_ten_output(self, record: dict[str, Any], turn: int | None) -> str | None:
        return model_outputs.finchain_off_by_ten(record, turn)

    def cluster(self, record: dict[str, Any], turn: int | None) -> str:
        return str(record.get("template_id") or record["id"])  # the seeds of one template share its method

    def wrong_answer(self, item: ItemResult, record: dict[str, Any] | None,
                     turn: int | None) -> tuple[str, str]:
        if record is not None and record.get("answer_type") == "categorical":
            return WRONG_LABEL, f"the conclusion {item.extracted!r} names another label than {record.get('answer_text')!r}"
        return numeric_failure(item.extracted, None if record is None else record.get("answer_value"))

    def prepare(self, records: Sequence[dict[str, Any]]) -> None:
        """The label set of each categorical template (every answer_text its seeds produce, plus negated
        forms), so a keyword match can tell 「中風險」 from 「高風險」 and 「須申報」 from 「無須申報」."""
        self.labels = defaultdict(set)
        for r in records:
            if r.get("answer_type") == "categorical":
                key = r.get("template_id") or r.get("subcategory") or "?"
                self.labels[key].add(_norm_label(r["answer_text"]))

    def _label_set(self, record: dict[str, Any]) -> dict[str, str | None]:
        """Every label → the label it negates when it is a negated form made here (「非乙方案」), else None."""
        base = set(self.labels.get(record.get("template_id") or record.get("subcategory") or "?", set()))
        base.add(_norm_label(record["answer_text"]))
        base |= question_labels(record.get("question"))
        out: dict[str, str | None] = {}
        for lab in base:
            if not lab.startswith(_NEGATORS):
                out.update((neg + lab, lab) for neg in _NEGATORS)
        out.update((lab, None) for lab in base)
        return out

    def keyword(self, record: dict[str, Any], conclusion: str | None) -> bool | None:
        """True/False when the conclusion names exactly one label of the template's set (for yes/no labels:
        says yes or no, as a word or as the question's predicate), else None. A bracketed aside
        (「分開計稅（比合併計稅少繳 NT$32,375）」) is not the conclusion: it is read without it first — unless it
        states an alternative (「積極型（或許是穩健型）」)."""
        bare = extract.drop_asides(conclusion) if conclusion else ""
        if bare.strip() not in ("", (conclusion or "").strip()) and not extract.alternative_aside(conclusion or ""):
            decided = self._keyword(record, bare)
            if decided is not None:
                return decided
        return self._keyword(record, conclusion)

    def _keyword(self, record: dict[str, Any], conclusion: str | None) -> bool | None:
        gold = _norm_label(record["answer_text"])
        text = _norm_label(conclusion or "")
        if not text:
            return None
        if text == gold:
            return True
        if extract.is_refusal(conclusion):
            return False
        yes_no = match.normalize_yes_no(gold)
        if yes_no is not None:
            got = extract.classify_yes_no(conclusion, record.get("question"))
            return None if got is None else got == yes_no
        named = extract.read_label(conclusion, self._label_set(record))
        return None if named is None else named == gold

    @staticmethod
    def tolerance(record: dict[str, Any], ctx: ScoreSettings) -> Tolerance:
        """The tolerance the question's stated rounding implies (`match.stated_decimals`: half a unit in the
        asked decimal place), unless the caller chose a tolerance of its own."""
        if ctx.tolerance is not None:
            return ctx.tolerance
        decimals = match.stated_decimals(record)
        return DEFAULT_TOLERANCE if decimals is None else Tolerance.for_decimals(decimals)

    def score(self, record: dict[str, Any], turn: int | None, response: str, ctx: ScoreSettings) -> ItemResult:
        steps = step_scores(response, record.get("steps") or [], DEFAULT_TOLERANCE, record.get("question"))
        kw = {"step_recall": steps.recall, "step_precision": steps.precision, "step_f1": steps.f1}
        if record["answer_type"] == "numeric":
            m = match.match_numeric(response, float(record["answer_value"]), gold_answer=record.get("answer"),
                                    questions=[record.get("question")], tol=self.tolerance(record, ctx),
                                    display_decides=True)
            return _rule_item(record, turn, m, m.path, **kw)
        mode, conclusion = extract.extract_conclusion(response)
        decided = self.keyword(record, conclusion)
        item = new_item(record, turn, extracted=conclusion, mode=mode, match_path="keyword", **kw)
        if decided is not None:
            item.refused = extract.is_refusal(conclusion)
            item.correct, item.decided_by = decided and mode == extract.STRICT, KEYWORD
            item.flexible_correct = decided
            return item
        request = judge.PROTOCOLS["conclusion"].build(record, response) if ctx.judge_enabled else None
        item.status = PENDING
        if request is not None:
            item.judge_request, item.reason = request, "keyword match undecided; judge asked"
            return item
        # no judge: an answer that names no single label is not counted wrong — it waits for a judge
        item.reason = "keyword match undecided (no single label in the conclusion); no judge configured"
        return item


class ChoiceScorer(TaskScorer):
    task_type = "mcq"
    rule_scored = True

    def gold_output(self, record: dict[str, Any], turn: int | None) -> str:
        return model_outputs.choice_gold(record, turn)

    def corrupt_output(self, record: dict[str, Any], turn: int | None, labels: Sequence[str] = ()) -> tuple[str, str]:
        return model_outputs.choice_corrupt(record, turn, labels)
    answer_line = True

    def wrong_answer(self, item: ItemResult, record: dict[str, Any] | None,
                     turn: int | None) -> tuple[str, str]:
        gold = ",".join(record.get("answer") or []) if record else "?"
        return WRONG_CHOICE, f"chose {item.extracted}, the answer is {gold}"

    def validate(self, record: dict[str, Any]) -> None:
        ans = record.get("answer")
        _need(record, isinstance(ans, list) and len(ans) > 0 and all(isinstance(a, str) for a in ans), "answer",
              "an answer list of option codes")

    def score(self, record: dict[str, Any], turn: int | None, response: str, ctx: ScoreSettings) -> ItemResult:
        m = match.match_choice(response, record["answer"], record.get("option_format"))
        return new_item(record, turn, correct=m.correct and m.mode == extract.STRICT,
                        extracted=",".join(m.predicted) or None, mode=m.mode, decided_by=RULE,
                        match_path="cross_format" if m.cross_format else "choice", flexible_correct=m.correct)


class JudgedScorer(TaskScorer):
    """Task types only a judge can decide (FinLLM450 short_answer/case_study, FinanceAgent rubric, and any
    plug-in protocol such as FinSearchComp's open_judge)."""

    def __init__(self, task_type: str, required: Sequence[tuple[str, str]] = ()) -> None:
        self.task_type = task_type
        self.required = list(required)

    def validate(self, record: dict[str, Any]) -> None:
        for name, what in self.required:
            v = record.get(name)
            _need(record, v is not None and v != "" and v != [], name, what)

    def score(self, record: dict[str, Any], turn: int | None, response: str, ctx: ScoreSettings) -> ItemResult:
        item = new_item(record, turn, status=PENDING, mode="judge")
        protocol = judge.protocol_for(self.task_type)
        if protocol is None:
            item.reason = f"no judge protocol registered for task_type {self.task_type!r}"
            return item
        if not ctx.judge_enabled:
            item.reason = "no judge configured"
            return item
        request = protocol.build(record, response, turn)
        if request is None:
            item.reason = "nothing to judge against (no reference)"
            return item
        item.judge_request = request
        return item


register(NumericScorer())
register(ConversationScorer())
register(FinChainScorer())
register(ChoiceScorer())
register(JudgedScorer("short_answer", [("question", "a question"), ("reference_answer", "a reference_answer")]))
register(JudgedScorer("case_study", [("question", "a question"), ("reference_answer", "a reference_answer")]))
register(JudgedScorer("open_rubric_agent", [("question", "a question"), ("rubric", "a rubric list")]))
register(JudgedScorer("open_judge"))


def conversation_accuracy(turns: Iterable[tuple[str, bool | None]]) -> tuple[int, float | None]:
    """The one rule for conversation accuracy: (conversation id, turn verdict) per turn, the verdict None for a
    turn not counted (not run, pending, cut by a limit) → (conversations counted, share of them with every turn
    right). A conversation counts only when every one of its turns is counted."""
    counted: dict[str, bool] = {}
    right: dict[str, bool] = {}
    for cid, verdict in turns:
        counted[cid] = counted.get(cid, True) and verdict is not None
        right[cid] = right.get(cid, True) and bool(verdict)
    complete = [cid for cid, ok in counted.items() if ok]
    return len(complete), (sum(1 for cid in complete if right[cid]) / len(complete) if complete else None)


def declared_columns() -> list[ReportColumn]:
    """Every summary column the registered scorers declare, once, in registration order."""
    seen: dict[str, ReportColumn] = {}
    for scorer in SCORERS.values():
        for col in scorer.report_columns:
            seen.setdefault(col.name, col)
    return list(seen.values())


def scorer_for(task_type: str) -> TaskScorer | None:
    return SCORERS.get(task_type)

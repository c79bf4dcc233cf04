"""The LLM judge: a generic protocol (request → raw reply → verdict) and the calls that run it.

A *protocol* knows how to build one `JudgeRequest(system, user)` for an item and how to turn the judge's
reply into a `Verdict`. Protocols are registered by name (`register_protocol`) and task types point at a
protocol (`register_task_protocol`), so a new benchmark plugs in its own prompt and verdict format without
touching the scorer (FinSearchComp registers its own for `open_judge`).

Verdict outcomes:
- ``scored``   — the judge decided (`correct`, and `score` where the protocol has one);
- ``missing``  — the reply could not be parsed: never counted as 0, reported apart;
- ``pending``  — no judge configured, or the judge could not be reached (`reason` says why);
- protocol-specific outcomes (e.g. ``no_ground_truth``) are allowed and counted apart.

Reply parsing (`find_json_objects`) tolerates code fences, analysis text before the JSON, Chinese
punctuation (「：」「，」“ ”｛｝), single quotes, Python booleans and trailing commas; when several JSON
objects appear (system prompts often show examples the judge repeats), the last one with the keys the
protocol needs wins.

Built-in protocols:
- ``score_0_10`` (FinLLM450 short_answer / case_study): 0–10 against the reference answer plus
  ``conclusion_correct``; pass = conclusion correct and score ≥ 7.
- ``rubric`` (FinanceAgent-TW): one pass/fail per rubric criterion; ``correctness`` criteria must be
  present in the answer, ``contradiction`` criteria must not be contradicted; the item passes when every
  criterion passes; score = share of criteria passed × 10.
- ``conclusion`` (FinChain-TW categorical answers): is the stated conclusion the reference conclusion.
"""

from tw_fin_eval.scoring.judge.agreement import agreement
from tw_fin_eval.scoring.judge.cache import JudgeCache
from tw_fin_eval.scoring.judge.parse import as_bool, as_number, find_json_objects, last_object_with
from tw_fin_eval.scoring.judge.protocols import (
    JUDGE_SYSTEM_ZH,
    MISSING,
    PASS_THRESHOLD,
    PENDING,
    PROTOCOLS,
    SCORED,
    TASK_PROTOCOLS,
    ConclusionProtocol,
    JudgeProtocol,
    JudgeRequest,
    RubricProtocol,
    Score010Protocol,
    Verdict,
    missing,
    protocol_for,
    register_protocol,
    register_task_protocol,
)
from tw_fin_eval.scoring.judge.runner import JudgeConfig, JudgeRunner, JudgeUnavailable, check_not_self_judge

__all__ = [
    "JUDGE_SYSTEM_ZH", "MISSING", "PASS_THRESHOLD", "PENDING", "PROTOCOLS", "SCORED", "TASK_PROTOCOLS",
    "ConclusionProtocol", "JudgeCache", "JudgeConfig", "JudgeProtocol", "JudgeRequest", "JudgeRunner",
    "JudgeUnavailable", "RubricProtocol", "Score010Protocol", "Verdict", "agreement", "as_bool", "as_number",
    "check_not_self_judge", "find_json_objects", "last_object_with", "missing", "protocol_for", "register_protocol",
    "register_task_protocol",
]

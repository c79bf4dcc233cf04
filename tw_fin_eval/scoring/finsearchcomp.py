"""FinSearchComp's own judge protocol (task_type `open_judge`), plugged into the shared judge code.

The judge request is exactly the row's own: system = the row's `judge_system_prompt`; user = the row's
`judge_prompt_template` with its slots filled in one pass (`{prompt}`, `{response_reference}`,
`{ground_truth}` in T1 only, `{response}`) — a slot-like text inside a value (a model answer that says
"{prompt}") stays literal, as with the official `str.format`. `{response_reference}` receives
`response_reference`, or `response_reference_translate` where it is null (all T1-Global rows of the HF
version). `{response}` receives the model's answer with any `<think>` block removed (verbatim otherwise;
an empty answer is sent as empty — the judge prompts say to give it 0).

Verdicts. T1 judges end with `{"score":1}`, `{"score":0}` or `{"score":"null"}` (the snapshot holds no
data); T2/T3 judges with `{"answer_score": 0|1}` in a code fence. The key the judge must use is the one its
system prompt asks for. The system prompts contain example verdicts a judge may repeat, so the verdict
is the LAST `key: value` pair in the reply (by position), found after normalising full-width forms and
Chinese quotes/colons, with or without code fences, braces or valid JSON around it. Outcomes:
`scored` (correct = value 1), `no_ground_truth` (T1 "null" — never counted as 0 or 1), `missing` (no
usable verdict — never counted as 0; the official code averages in −100000 instead).

Summary per task × region: `python -m tw_fin_eval.scoring.finsearchcomp reports/<name>/results.jsonl`.
accuracy = correct / (scored + failed generations), the project's definition (reports/summary.py);
missing / no_ground_truth / pending / not_run are counted, never averaged in.

Loading: `tw-fin-eval score` imports scoring plug-ins before scoring; this module is one when named in
$TW_FIN_EVAL_PLUGINS (`TW_FIN_EVAL_PLUGINS=tw_fin_eval.scoring.finsearchcomp`) or imported by a
`scoring/plugins/` module. Importing it registers the protocol and routes `open_judge` to it.
"""

from __future__ import annotations

import argparse
import csv
import io
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from tw_fin_eval.answers.extract import strip_think
from tw_fin_eval.errors import InputError
from tw_fin_eval.scoring import judge
from tw_fin_eval.sources.finsearchcomp import (  # the data knowledge lives there
    DATASET,
    SLOT_RE,
    SLOTS,  # noqa: F401  (re-exported: the judge's slot names)
    reference_of,
)

PROTOCOL = "finsearchcomp"
TASK_TYPE = "open_judge"
NO_GROUND_TRUTH = "no_ground_truth"

_SLOT_RE = SLOT_RE
_THINK = re.compile(r"</?think>", re.IGNORECASE)
_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "「": '"', "」": '"', "『": '"', "』": '"',
                         "‘": "'", "’": "'", "＂": '"'})


def fill_template(template: str, values: Mapping[str, str]) -> str:
    """Fill every `{slot}` of `template` in one pass. A slot without a value is an error."""

    def sub(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in values or values[name] is None:
            raise KeyError(name)
        return values[name]

    return _SLOT_RE.sub(sub, template)


def answer_text(response: str | None) -> str:
    """The model's answer as the judge sees it: <think> removed when present, otherwise verbatim."""
    if not response:
        return ""
    return strip_think(response) if _THINK.search(response) else response


def verdict_key(system_prompt: str) -> str:
    """The key the judge is told to use: T2/T3 prompts ask for answer_score, T1 prompts for score."""
    return "answer_score" if "answer_score" in system_prompt else "score"


def _need_str(record: Mapping[str, Any], name: str) -> str:
    value = record.get(name)
    if not isinstance(value, str) or not value:
        raise InputError(f"FinSearchComp record needs a non-empty string {name!r}", item_id=record.get("id"),
                         field=name)
    return value


def judge_messages_parts(record: Mapping[str, Any], response: str | None) -> tuple[str, str]:
    """(system, user) of the judge request for one record and model answer."""
    system = _need_str(record, "judge_system_prompt")
    template = _need_str(record, "judge_prompt_template")
    reference = reference_of(record)
    if not isinstance(reference, str) or not reference:
        raise InputError("FinSearchComp record has no reference (response_reference / response_reference_translate)",
                         item_id=record.get("id"), field="response_reference")
    values = {
        "prompt": _need_str(record, "prompt"),
        "response_reference": reference,
        # a T1 row without a snapshot: the judge prompt itself says empty real-time data → "null"
        "ground_truth": record.get("ground_truth") or "",
        "response": answer_text(response),
    }
    return system, fill_template(template, values)


def _verdict_re(key: str) -> re.Pattern[str]:
    # the key quoted ("score" / 'score') or bare right after { or , — never a word in prose ("Final score: 1")
    return re.compile(r"(?:[{,]\s*[\"']?|[\"'])" + re.escape(key) + r"[\"']?\s*[:=]\s*(?:\[\s*)*[\"']?"
                      r"([^\s,\"'\]}]*)", re.IGNORECASE)


def _value(token: str) -> str | None:
    """'1' / '0' / 'null' for a usable verdict value, None otherwise (10, 0.5, "your score" …)."""
    t = token.strip().lower().removesuffix("分")  # {"score": "1分"}
    if t in {"null", "none", "nan"}:
        return "null"
    if t in {"true", "false"}:
        return "1" if t == "true" else "0"
    try:
        number = float(t)
    except ValueError:
        return None
    return {1.0: "1", 0.0: "0"}.get(number)


def parse_verdict(raw: str | None, key: str, *, allow_null: bool) -> judge.Verdict:
    """The judge's verdict: the LAST `key: value` in the reply decides (earlier ones are repeated examples);
    a last value that is not 0/1 (or null where allowed) is `missing`, never guessed."""
    if not raw or not raw.strip():
        return judge.missing(raw, "empty judge reply")
    text = unicodedata.normalize("NFKC", raw).translate(_QUOTES)
    hits = list(_verdict_re(key).finditer(text))
    if not hits:
        return judge.missing(raw, f"no {key!r} verdict in the reply")
    token = hits[-1].group(1)
    value = _value(token)
    detail = {"key": key, "value": value, "verdicts_in_reply": len(hits)}
    if value is None:
        return judge.missing(raw, f"last {key!r} is not 0/1{' or null' if allow_null else ''}: {token[:20]!r}")
    if value == "null":
        if allow_null:
            return judge.Verdict(NO_GROUND_TRUTH, detail=detail, raw=raw,
                                 reason="judge: the real-time information holds no data (score null)")
        return judge.missing(raw, f"{key!r} is null (only T1 judges may answer null)")
    correct = value == "1"
    return judge.Verdict(judge.SCORED, correct=correct, score=1.0 if correct else 0.0, detail=detail, raw=raw)


class FinSearchCompProtocol(judge.JudgeProtocol):
    name = PROTOCOL

    def build(self, record: dict[str, Any], response: str, turn: int | None = None) -> judge.JudgeRequest:
        system, user = judge_messages_parts(record, response)
        key = verdict_key(system)
        return judge.JudgeRequest(system, user, self.name,
                                  meta={"key": key, "allow_null": key == "score", "id": record.get("id")})

    def parse(self, raw: str | None, request: judge.JudgeRequest) -> judge.Verdict:
        return parse_verdict(raw, request.meta.get("key", "score"), allow_null=bool(request.meta.get("allow_null")))


def install() -> None:
    """Register the protocol and route open_judge to it (idempotent; tests call it again)."""
    judge.register_protocol(FinSearchCompProtocol())
    judge.register_task_protocol(TASK_TYPE, PROTOCOL)


install()


# ---- summary per task × region ------------------------------------------------------------------------------
COUNTED = ("scored", "correct", "missing", NO_GROUND_TRUTH, "pending", "error", "not_run")
SUMMARY_COLUMNS = ("task", "region", "items", "accuracy", *COUNTED)


def _task(item: Mapping[str, Any]) -> str:
    cat = item.get("category") or ""
    return cat.split("_", 1)[0] if cat else "?"


def summarize(results: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Rows for every task × region, every task, every region and all, from per-item results
    (results.jsonl lines or ItemResult.to_json()). Other datasets' items are ignored."""
    groups: dict[tuple[str, str], Counter] = {}

    def add(key: tuple[str, str], item: Mapping[str, Any]) -> None:
        c = groups.setdefault(key, Counter())
        c["items"] += 1
        status = item.get("status")
        if status in {"scored", "missing", NO_GROUND_TRUTH, "pending", "error", "not_run"}:
            c[status] += 1
        else:
            c["other"] += 1
        if status == "scored" and item.get("correct"):
            c["correct"] += 1

    for item in results:
        if item.get("dataset") != DATASET:
            continue
        task, region = _task(item), item.get("subcategory") or "?"
        for key in ((task, region), (task, "all"), ("all", region), ("all", "all")):
            add(key, item)

    def order(key: tuple[str, str]) -> tuple[int, str, int, str]:
        task, region = key
        return (task == "all", task, region == "all", region)

    rows = []
    for key in sorted(groups, key=order):
        c = groups[key]
        denom = c["scored"] + c["error"]
        rows.append({"task": key[0], "region": key[1], "items": c["items"],
                     "accuracy": c["correct"] / denom if denom else None,
                     **{name: c[name] for name in COUNTED}, "other": c["other"]})
    return rows


def summary_markdown(rows: Iterable[Mapping[str, Any]]) -> str:
    cols = [*SUMMARY_COLUMNS]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for r in rows:
        cells = [f"{100 * r[c]:.1f}%" if c == "accuracy" and r[c] is not None else
                 ("" if r[c] is None else str(r[c])) for c in cols]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def summary_csv(rows: Iterable[Mapping[str, Any]]) -> str:
    from tw_fin_eval.jsonl import safe_csv_cell

    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=[*SUMMARY_COLUMNS, "other"], lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: ("" if r.get(k) is None else (f"{r[k]:.6f}" if isinstance(r[k], float)
                                                      else safe_csv_cell(r[k]))) for k in w.fieldnames})
    return buf.getvalue()


def main(argv: list[str] | None = None) -> int:
    from tw_fin_eval.jsonl import atomic_writer, iter_jsonl

    ap = argparse.ArgumentParser(prog="python -m tw_fin_eval.scoring.finsearchcomp",
                                 description="FinSearchComp accuracy and outcome counts per task × region "
                                             "from a results.jsonl written by `tw-fin-eval score`.")
    ap.add_argument("results", help="reports/<name>/results.jsonl (or the report folder)")
    ap.add_argument("--csv", help="also write the table as CSV to this path")
    args = ap.parse_args(argv)
    path = args.results
    if not path.endswith(".jsonl"):
        path = path.rstrip("/") + "/results.jsonl"
    try:
        rows = summarize(item for _, item in iter_jsonl(path))
        if not rows:
            raise InputError("no FinSearchComp items in the results", path=path)
        if args.csv:
            with atomic_writer(args.csv) as fh:
                fh.write(summary_csv(rows))
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(summary_markdown(rows))
    print("accuracy = correct / (scored + failed generations); missing and no_ground_truth are never counted "
          "as 0 or 1.", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

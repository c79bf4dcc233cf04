"""FinSearchComp (ByteDance Seed, CC BY 4.0): 635 financial search questions → our `open_judge` records.

Source: `<sources>/finsearchcomp/finsearchcomp_data.json` (a plain JSON export of the Hugging Face parquet
beside it; see its PROVENANCE.md). Three tasks × two regions:
T1 Time-Sensitive Data Fetching (244), T2 Simple Historical Lookup (219), T3 Complex Historical
Investigation (172); Greater China (Simplified Chinese prompts) and Global (English prompts).

Each record keeps every upstream field under its upstream name (prompt_id, prompt, response_reference,
response_reference_translate, judge_prompt_template, judge_system_prompt, label, ground_truth, time,
wind_ticker, akshare_ticker, yfinance_ticker) and adds our common fields:
- ``id`` = ``finsearchcomp-<t1|t2|t3>-<global|greater-china>-<n>`` where ``<n>`` is the prompt_id's own
  suffix (``005``, ``b001``): stable, unique, and readable back to the upstream key. The upstream key is
  (prompt_id, label) — 83 T1 prompt_ids occur in both regions — and is kept in ``source.orig_id`` as
  ``"<prompt_id>|<label>"``.
- ``category`` = the task (``T1_Time-Sensitive_Data_Fetching`` …), ``subcategory`` = the region
  (``Greater China`` / ``Global``), plus ``task`` (``T1``…) and ``region`` fields.
- ``answer`` = the reference the judge template's ``{response_reference}`` slot receives: ``response_reference``,
  or ``response_reference_translate`` where it is null (all 134 T1-Global rows of this version; the later
  upstream JSON moved that text into ``response_reference``).
- ``messages`` = the prompt as the only user message (as the official chat script sends it).
- ``lang`` = ``zh-CN`` (Greater China) or ``en`` (Global): this subset is not zh-TW and not released.

T1 ``ground_truth`` is a market snapshot taken on 2025-08-13/14 (``time`` = ``2025/8/14``): stale by design.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tw_fin_eval import DATA_VERSION
from tw_fin_eval.errors import InputError, not_a_file
from tw_fin_eval.schema import base_record

DATASET = "FinSearchComp"
FOLDER = "finsearchcomp"
DATA_FILE = "finsearchcomp_data.json"
PAPER = "arXiv 2509.13160"
URL = "https://huggingface.co/datasets/ByteSeedXpert/FinSearchComp"
LICENSE = "CC BY 4.0"

UPSTREAM_FIELDS = (
    "prompt_id", "prompt", "response_reference", "judge_prompt_template", "judge_system_prompt", "label",
    "wind_ticker", "akshare_ticker", "ground_truth", "time", "response_reference_translate", "yfinance_ticker",
)
# fields every row must carry as a non-empty string (the rest may be null)
REQUIRED = ("prompt_id", "prompt", "judge_prompt_template", "judge_system_prompt", "label")

TASKS = {
    "T1": "Time-Sensitive_Data_Fetching",
    "T2": "Simple_Historical_Lookup",
    "T3": "Complex_Historical_Investigation",
}
REGIONS = {"Greater China": ("greater-china", "zh-CN"), "Global": ("global", "en")}
SLOTS = ("prompt", "response_reference", "ground_truth", "response")
SLOT_RE = re.compile(r"\{(" + "|".join(SLOTS) + r")\}")

_PROMPT_ID = re.compile(r"\((T[123])\)([A-Za-z_-]+?)_([a-z]?\d+)")
_LABEL = re.compile(r"([A-Za-z_-]+)\((Greater China|Global)\)")


def _norm(name: str) -> str:
    return name.replace("-", "_")


def reference_of(row: dict[str, Any]) -> str | None:
    """The text of the `{response_reference}` slot: response_reference, else its translation."""
    ref = row.get("response_reference")
    return ref if ref is not None else row.get("response_reference_translate")


def template_slots(template: str) -> list[str]:
    return SLOT_RE.findall(template)


def source_path(root: str | Path) -> Path:
    """`root` is the sources folder (…/shared/sources) or the finsearchcomp folder itself."""
    root = Path(root)
    for cand in (root / FOLDER / DATA_FILE, root / DATA_FILE):
        if cand.is_file():
            return cand
    raise not_a_file(root / FOLDER / DATA_FILE, "FinSearchComp source file missing", "source file")


def load_rows(root: str | Path) -> tuple[Path, list[dict[str, Any]]]:
    path = source_path(root)
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON ({exc.msg})", path=path, line=exc.lineno) from None
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise InputError("expected a JSON list of row objects", path=path)
    return path, rows


def _check_row(row: dict[str, Any], path: Path, index: int) -> tuple[str, str, str]:
    """Validate one row; returns (task, region, number). Errors name the row (index, prompt_id, label)."""
    where = f"row {index} ({row.get('prompt_id')!r}, {row.get('label')!r})"

    def fail(msg: str, field: str) -> InputError:
        return InputError(msg, path=path, item_id=where, field=field)

    for name in UPSTREAM_FIELDS:
        if name not in row:
            raise fail("field missing", name)
        if row[name] is not None and not isinstance(row[name], str):
            raise fail(f"expected a string or null, got {type(row[name]).__name__}", name)
    for name in REQUIRED:
        if not row[name]:
            raise fail("empty", name)
    m = _PROMPT_ID.fullmatch(row["prompt_id"])
    if not m:
        raise fail("prompt_id is not '(T<k>)<Task_Name>_<n>'", "prompt_id")
    task, task_name, number = m.groups()
    lab = _LABEL.fullmatch(row["label"])
    if not lab:
        raise fail("label is not '<Task-Name>(Greater China|Global)'", "label")
    if _norm(lab.group(1)) != _norm(TASKS[task]) or _norm(task_name) != _norm(TASKS[task]):
        raise fail(f"prompt_id task {task} ({task_name}) disagrees with label {row['label']!r}", "label")
    if not reference_of(row):
        raise fail("no reference (response_reference and response_reference_translate are both empty)",
                   "response_reference")
    template = row["judge_prompt_template"]
    slots = template_slots(template)
    want = ["prompt", "response_reference", "ground_truth", "response"] if task == "T1" else \
        ["prompt", "response_reference", "response"]
    if sorted(slots) != sorted(want) or len(set(slots)) != len(slots):
        raise fail(f"template slots {slots} (expected each of {want} once)", "judge_prompt_template")
    if "{" in SLOT_RE.sub("", template) or "}" in SLOT_RE.sub("", template):
        raise fail("template has braces besides its slots", "judge_prompt_template")
    return task, lab.group(2), number


def record_id(task: str, region: str, number: str) -> str:
    return f"finsearchcomp-{task.lower()}-{REGIONS[region][0]}-{number}"


def build_records(root: str | Path) -> list[dict[str, Any]]:
    """All FinSearchComp rows as our records, in upstream order. Bad rows raise InputError (file, row)."""
    path, rows = load_rows(root)
    out: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for index, row in enumerate(rows):
        task, region, number = _check_row(row, path, index)
        rid = record_id(task, region, number)
        if rid in seen:
            raise InputError(f"duplicate key (prompt_id, label) (first at row {seen[rid]})", path=path,
                             item_id=f"row {index} ({row['prompt_id']!r}, {row['label']!r})")
        seen[rid] = index
        reference = reference_of(row)
        out.append(base_record(
            id=rid,
            dataset=DATASET,
            source={"name": DATASET, "paper": PAPER, "orig_id": f"{row['prompt_id']}|{row['label']}",
                    "url": URL, "license": LICENSE},
            category=f"{task}_{TASKS[task]}",
            subcategory=region,
            task_type="open_judge",
            lang=REGIONS[region][1],
            question=row["prompt"],
            answer=reference,
            messages=[{"role": "user", "content": row["prompt"]}],
            meta={"translation": "none (upstream text: Simplified Chinese / English)",
                  "review_status": "upstream", "version": DATA_VERSION},
            # the upstream fields under their own names, after ours
            tail={"task": task, "region": region, "requires_tools": True,
                  **{name: row[name] for name in UPSTREAM_FIELDS}},
        ))
    return out


# ---- a fresh T1 snapshot -----------------------------------------------------------------------------------
def apply_snapshot(records: list[dict[str, Any]], snapshot_path: str | Path) -> tuple[list[dict[str, Any]], list[str]]:
    """Replace the `ground_truth` (and `time`, when given) of T1 records from a snapshot file: JSONL lines
    `{"id": "finsearchcomp-t1-…", "ground_truth": "<market data as text>", "time": "…"}` taken when the model
    answered. Returns (new records, ids of T1 records still holding the upstream 2025-08-14 snapshot).
    Unknown, duplicate or non-T1 ids and empty ground truth are input errors naming file and line."""
    from tw_fin_eval.jsonl import iter_jsonl

    by_id = {r["id"]: r for r in records}
    fresh: dict[str, dict[str, Any]] = {}
    for lineno, line in iter_jsonl(snapshot_path):
        rid = line.get("id")
        where = {"path": snapshot_path, "line": lineno, "item_id": rid if isinstance(rid, str) else None}
        if rid not in by_id:
            raise InputError("unknown FinSearchComp record id", field="id", **where)
        if by_id[rid].get("task") != "T1":
            raise InputError("only T1 records have a ground_truth snapshot", field="id", **where)
        if rid in fresh:
            raise InputError("id given twice in the snapshot", field="id", **where)
        gt = line.get("ground_truth")
        if not isinstance(gt, str) or not gt.strip():
            raise InputError("ground_truth must be a non-empty string", field="ground_truth", **where)
        if line.get("time") is not None and not isinstance(line["time"], str):
            raise InputError("time must be a string", field="time", **where)
        fresh[rid] = line
    out = []
    for r in records:
        if r["id"] in fresh:
            r = {**r, "ground_truth": fresh[r["id"]]["ground_truth"],
                 "time": fresh[r["id"]].get("time") or r.get("time")}
        out.append(r)
    stale = [r["id"] for r in records if r.get("task") == "T1" and r["id"] not in fresh]
    return out, stale


def main(argv: list[str] | None = None) -> int:
    import argparse
    import sys

    from tw_fin_eval.jsonl import iter_jsonl, write_jsonl

    ap = argparse.ArgumentParser(
        prog="python -m tw_fin_eval.sources.finsearchcomp",
        description="Put a fresh market snapshot into the T1 records of data/finsearchcomp.jsonl (T1 asks for "
                    "the latest prices; the upstream ground truth is from 2025-08-14).")
    ap.add_argument("--data", required=True, help="data/finsearchcomp.jsonl")
    ap.add_argument("--snapshot", required=True, help='JSONL: {"id", "ground_truth", "time"} per T1 record')
    ap.add_argument("--out", required=True, help="where to write the records with the fresh snapshot")
    args = ap.parse_args(argv)
    try:
        if Path(args.out).resolve() == Path(args.data).resolve():
            raise InputError("--out must differ from --data (keep the upstream snapshot)", path=args.out)
        records = [rec for _, rec in iter_jsonl(args.data)]
        if not all(r.get("dataset") == DATASET for r in records):
            raise InputError("not a FinSearchComp data file", path=args.data)
        updated, stale = apply_snapshot(records, args.snapshot)
        write_jsonl(args.out, updated)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    t1 = sum(r.get("task") == "T1" for r in records)
    print(f"wrote {args.out}: {t1 - len(stale)}/{t1} T1 records with the fresh snapshot"
          + (f"; {len(stale)} still hold the 2025-08-14 one (e.g. {', '.join(stale[:3])})" if stale else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

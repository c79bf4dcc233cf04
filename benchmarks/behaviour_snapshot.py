#!/usr/bin/env python3
"""A behaviour snapshot for refactors that must not change behaviour (issue 25): hashes of every built data/
file and of the scorer's outputs on two deterministic runs, written as one manifest to compare before/after.

    python -m tw_fin_eval build --strict
    python benchmarks/behaviour_snapshot.py --out /tmp/snap_before      # on the untouched code
    ... change the code, build again ...
    python benchmarks/behaviour_snapshot.py --out /tmp/snap_after --compare /tmp/snap_before/manifest.json

Record sets: the built data/*.jsonl and the built-in synthetic samples (every task type, also the subsets a
checkout may not build). For each, two runs files are written and scored with `tw-fin-eval score --quiet`:

- gold: every unit answered with its gold answer as a model writes it (the self-check's writer);
- mixed: each unit, by a hash of its key, right (gold), wrong (the self-check's corruption; a made-up number for
  judged units), refused, truncated (finish_reason "length", cut mid-sentence), a failed generation, or not run
  (no line at all).

The runs files are hashed too, so a changed writer shows up as changed input, not as a changed scorer.
What legitimately varies and is left out of the hashes: results.json's `created` (a timestamp) and `git_commit`
(HEAD); the keys of its `data_sha256` / `runs_sha256` are reduced to file names (the values — the hashes — are
kept). results.jsonl and summary.csv are hashed byte for byte; report.md and report.html too once the folders
(--out, --data-dir) are replaced by placeholders, the creation timestamp by `<created>` and report.html's git
commit by `<commit>`. Exit 1 when
--compare finds a difference.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import zlib
from pathlib import Path
from typing import Any

import _common  # noqa: F401  (the repository on sys.path)

from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.jsonl import read_jsonl
from tw_fin_eval.scoring import engine, samples, scorers, selfcheck

REFUSALS = ("答案：無法判斷", "資料不足，無法回答這個問題。", "I cannot determine this from the given information.")
MIXED_KINDS = ("right", "wrong", "refused", "truncated", "error", "not_run")
VARYING = ("created", "git_commit")
_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
_GIT = re.compile(r"git：[^·<]*")  # report.html's meta line: HEAD and whether the checkout is dirty


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _line(prompts: engine._Prompts, rec: dict[str, Any], turn: int | None, response: str | None, **kw: Any) -> dict:
    return {"id": rec["id"], "turn": turn, "model": "snapshot", "messages_sha256": prompts.sha256(rec, turn, "gold"),
            "response": response, "reasoning": None, "finish_reason": "stop",
            "usage": {"prompt_tokens": 10, "completion_tokens": 5}, "latency_s": 0.5, "error": None, **kw}


def runs(records: list[dict[str, Any]]) -> dict[str, list[dict]]:
    """{"gold": lines, "mixed": lines} — deterministic (hashes of the keys, the self-check's fixed seed)."""
    prompts = engine._Prompts()
    by_id = {r["id"]: r for r in records}
    gold = selfcheck.build_outputs(records)
    wrong = selfcheck.corrupt(records, gold, share=1.0, seed=0)  # every rule-scored unit
    gold_lines = [_line(prompts, by_id[i], t, text) for (i, t), text in gold.items()]
    mixed: list[dict] = []
    for (i, t), text in gold.items():
        h = zlib.crc32(f"{i}#{t}".encode())
        kind = MIXED_KINDS[h % len(MIXED_KINDS)]
        rec = by_id[i]
        if kind == "right":
            mixed.append(_line(prompts, rec, t, text))
        elif kind == "wrong":
            bad = wrong[(i, t)][1] if (i, t) in wrong else "答案：987654321"
            mixed.append(_line(prompts, rec, t, bad))
        elif kind == "refused":
            mixed.append(_line(prompts, rec, t, REFUSALS[(h >> 8) % len(REFUSALS)]))
        elif kind == "truncated":
            mixed.append(_line(prompts, rec, t, "先找出表格中的相關數字，再計算" + text[: (h >> 8) % 7],
                               finish_reason="length"))
        elif kind == "error":
            mixed.append(_line(prompts, rec, t, None, finish_reason=None, error="HTTP 500: upstream error"))
    return {"gold": gold_lines, "mixed": mixed}


def _stable_results_json(path: Path) -> bytes:
    doc = json.loads(path.read_text(encoding="utf-8"))
    for key in VARYING:
        doc.pop(key, None)
    for key in ("data_sha256", "runs_sha256"):
        doc[key] = {Path(p).name: v for p, v in sorted((doc.get(key) or {}).items())}
    return json.dumps(doc, ensure_ascii=False, sort_keys=True, indent=1).encode("utf-8")


def _stable_text(path: Path, folders: dict[str, Path]) -> bytes:
    text = path.read_text(encoding="utf-8")
    for name, folder in folders.items():
        text = text.replace(str(folder.resolve()), f"<{name}>").replace(str(folder), f"<{name}>")
    return _GIT.sub("git：<commit>", _TIMESTAMP.sub("<created>", text)).encode("utf-8")


def snapshot(out: Path, data_dir: Path) -> dict[str, Any]:
    manifest: dict[str, Any] = {"data": {}, "runs": {}}
    for p in sorted(data_dir.rglob("*")):
        if p.is_file():
            manifest["data"][str(p.relative_to(data_dir))] = sha256(p.read_bytes())
    data_files = sorted(str(p) for p in data_dir.glob("*.jsonl"))
    sets: dict[str, tuple[list[dict[str, Any]], list[str]]] = {
        "data": ([r for f in data_files for r in read_jsonl(f)], data_files)}
    sample_file = out / "samples.jsonl"
    sample_recs = samples.sample_records()
    _write(sample_file, sample_recs)
    sets["samples"] = (sample_recs, [str(sample_file)])
    for set_name, (records, files) in sets.items():
        if not records:
            raise SystemExit(f"no records in {data_dir} — build first: python -m tw_fin_eval build --strict")
        for run_name, lines in runs(records).items():
            tag = f"{set_name}/{run_name}"
            runs_file = out / f"runs_{set_name}_{run_name}.jsonl"
            _write(runs_file, lines)
            rep = out / f"report_{set_name}_{run_name}"
            rc = cli_main(["score", "--data", *files, "--runs", str(runs_file), "--out", str(rep), "--quiet"])
            if rc != 0:
                raise SystemExit(f"score exited {rc} on {tag}")
            manifest["runs"][tag] = {
                "runs.jsonl": sha256(runs_file.read_bytes()),
                "results.jsonl": sha256((rep / "results.jsonl").read_bytes()),
                "summary.csv": sha256((rep / "summary.csv").read_bytes()),
                "results.json (stable)": sha256(_stable_results_json(rep / "results.json")),
                "report.md (stable)": sha256(_stable_text(rep / "report.md", {"out": out, "data": data_dir})),
                "report.html (stable)": sha256(_stable_text(rep / "report.html", {"out": out, "data": data_dir})),
                "units": len(lines),
            }
    manifest["left_out"] = {"results.json": list(VARYING) + ["paths in data_sha256/runs_sha256 keys"],
                            "report.md, report.html": ["the --out and --data-dir folders", "ISO timestamps",
                                                               "report.html's git commit"]}
    manifest["known_task_types"] = sorted(scorers.SCORERS)
    return manifest


def _write(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def compare(a: dict[str, Any], b: dict[str, Any], prefix: str = "") -> list[str]:
    diffs: list[str] = []
    for key in sorted(set(a) | set(b)):
        va, vb = a.get(key), b.get(key)
        if isinstance(va, dict) and isinstance(vb, dict):
            diffs += compare(va, vb, f"{prefix}{key}/")
        elif va != vb:
            diffs.append(f"{prefix}{key}: {va} → {vb}")
    return diffs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="an empty folder for the runs, reports and manifest.json")
    ap.add_argument("--data-dir", default=str(_common.REPO / "data"))
    ap.add_argument("--compare", default=None, metavar="MANIFEST", help="an earlier manifest.json: exit 1 on any difference")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    manifest = snapshot(out, Path(args.data_dir))
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out / 'manifest.json'}: {len(manifest['data'])} data files, {len(manifest['runs'])} scored runs")
    if args.compare:
        diffs = compare(json.loads(Path(args.compare).read_text(encoding="utf-8")), manifest)
        for d in diffs:
            print("DIFFERENT", d)
        print("identical" if not diffs else f"{len(diffs)} differences")
        return 1 if diffs else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())

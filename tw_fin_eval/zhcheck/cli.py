"""`tw-fin-eval check-zh PATH...` / `tools/check_zh.py`: run the zh-TW rules over overlays, built records,
runs files or plain text. Exit 1 when anything is found, 0 when clean, 2 on unreadable input.

What a file is, is decided by where it lives and what its lines hold:
- `translations/<subset>/*.jsonl` → overlay lines, checked against their English source items;
- JSONL lines with `dataset` and `original_en` → built records (zh fields against original_en);
- JSONL lines with `response` → a runs file (model outputs: Simplified characters and PRC terms);
- anything else → plain text, line by line (Simplified characters and PRC terms).
Folders are searched for *.jsonl, *.txt and *.md files."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from tw_fin_eval import paths
from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import iter_jsonl
from tw_fin_eval.overlay import OVERLAY_FIELDS, Issue, check_overlay, load_overlays
from tw_fin_eval.sources import SUBSETS, load_subset


def _expand(targets: list[str]) -> Iterator[Path]:
    for t in targets:
        p = Path(t)
        if p.is_dir():
            for ext in ("*.jsonl", "*.txt", "*.md"):
                yield from sorted(p.rglob(ext))
        elif p.is_file():
            yield p
        else:
            raise InputError("no such file or folder", path=p)


def _overlay_subset(path: Path) -> str | None:
    """The subset of an overlay file: from its folder (translations/<subset>/), or else from the shape of
    its first line (an overlay line has an id, no `dataset`, and its subset's fields)."""
    if path.suffix != ".jsonl":
        return None
    parent = path.resolve().parent
    if parent.name in SUBSETS and parent.parent.name == "translations":
        return parent.name
    for _, first in iter_jsonl(path):
        if "id" not in first or "dataset" in first or "response" in first:
            return None
        keys = set(first) - {"id", "note"}
        for subset, fields in OVERLAY_FIELDS.items():
            if keys == set(fields):
                return subset
        return None
    return None


def check_overlay_file(path: Path, subset: str, sources: Path, _cache: dict = {}) -> list[Issue]:  # noqa: B006
    if subset not in _cache:
        _cache[subset] = load_subset(subset, sources)
    items = _cache[subset]
    by_id = {it.source_id: it for it in items}
    from tw_fin_eval.overlay import Overlay, validate_structure

    issues: list[Issue] = []
    seen: dict[str, int] = {}
    for lineno, obj in iter_jsonl(path):
        sid = obj.get("id")
        if sid not in by_id:
            raise InputError(f"unknown {subset} source id", path=path, line=lineno, item_id=str(sid))
        if sid in seen:
            raise InputError(f"duplicate id (first at line {seen[sid]})", path=path, line=lineno, item_id=sid)
        seen[sid] = lineno
        ov = Overlay(obj, path, lineno)
        validate_structure(subset, by_id[sid], ov)
        issues.extend(check_overlay(subset, by_id[sid], ov))
    return issues


def _record_issues(path: Path, lineno: int, rec: dict) -> list[Issue]:
    from tw_fin_eval.zhcheck.rules import check_translation, check_zh, table_issues

    out: list[Issue] = []
    rid = rec.get("id")
    if rec.get("lang", "zh-TW") != "zh-TW":
        return out  # FinSearchComp keeps its original zh-CN/en text: the zh-TW rules do not apply

    def add(field: str, findings) -> None:
        out.extend(Issue(str(path), lineno, rid, field, f.rule, f.message, f.text) for f in findings)

    en = rec.get("original_en") or {}
    ctx = rec.get("context") or {}
    if isinstance(en.get("question"), str):
        add("question", check_translation(en["question"], rec.get("question", "")))
    elif rec.get("question"):
        add("question", check_zh(rec["question"]))
    if en.get("table") and ctx.get("table"):
        add("context.table", table_issues(en["table"], ctx["table"]))
    for k, (e, z) in enumerate(zip(en.get("evidence") or [], ctx.get("evidence") or [])):
        if isinstance(e, dict) and not str(e.get("key", "")).startswith("table_"):
            add(f"context.evidence[{k}]", check_translation(e.get("text", ""), z))
    for k, (q_en, t) in enumerate(zip(en.get("questions") or [], rec.get("turns") or [])):
        add(f"turns[{k}].question", check_translation(q_en, t.get("question", "")))
    # only FinanceAgent's reference answer is a translation; elsewhere `answer` is a gold value (FinQA keeps
    # its human answer string in original_en.answer for reference, not as the English of `answer`)
    if rec.get("task_type") == "open_rubric_agent" and isinstance(en.get("answer"), str) and isinstance(rec.get("answer"), str):
        add("answer", check_translation(en["answer"], rec["answer"]))
    for k, (r_en, r) in enumerate(zip(en.get("rubric") or [], rec.get("rubric") or [])):
        add(f"rubric[{k}]", check_translation(r_en.get("criteria", ""), r.get("criteria", "")))
    for field in ("solution",):
        if isinstance(rec.get(field), str):
            add(field, check_zh(rec[field]))
    return out


def check_jsonl(path: Path) -> list[Issue]:
    from tw_fin_eval.zhcheck.rules import check_zh

    issues: list[Issue] = []
    for lineno, obj in iter_jsonl(path):
        if "dataset" in obj and ("original_en" in obj or "messages" in obj):
            issues.extend(_record_issues(path, lineno, obj))
        elif "response" in obj:
            for field in ("response", "reasoning"):
                if isinstance(obj.get(field), str):
                    issues.extend(Issue(str(path), lineno, obj.get("id"), field, f.rule, f.message, f.text)
                                  for f in check_zh(obj[field]))
        else:
            text = json.dumps(obj, ensure_ascii=False)
            issues.extend(Issue(str(path), lineno, obj.get("id"), "(line)", f.rule, f.message, f.text)
                          for f in check_zh(text))
    return issues


def check_text_file(path: Path) -> list[Issue]:
    from tw_fin_eval.zhcheck.rules import check_zh

    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise InputError(f"not valid UTF-8 ({exc.reason})", path=path) from None
    return [Issue(str(path), n, None, "(text)", f.rule, f.message, f.text)
            for n, line in enumerate(lines, 1) for f in check_zh(line)]


def check_paths(targets: list[str], sources: str | None = None) -> tuple[int, list[Issue]]:
    files = 0
    issues: list[Issue] = []
    for path in _expand(targets):
        files += 1
        subset = _overlay_subset(path)
        if subset:
            issues.extend(check_overlay_file(path, subset, paths.sources_dir(sources)))
        elif path.suffix == ".jsonl":
            issues.extend(check_jsonl(path))
        else:
            issues.extend(check_text_file(path))
    return files, issues


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", help="files or folders (overlays, data/*.jsonl, runs files, text)")
    parser.add_argument("--sources", help="English source folder (for overlays)")
    parser.add_argument("--max", type=int, default=200, help="print at most N findings (default: %(default)s)")


def main(args: argparse.Namespace) -> int:
    files, issues = check_paths(args.paths, args.sources)
    for issue in issues[: args.max]:
        print(issue.format())
    if len(issues) > args.max:
        print(f"… {len(issues) - args.max} more")
    ids = {(i.path, i.item_id) for i in issues}
    print(f"check-zh: {files} file(s), {len(issues)} finding(s) in {len(ids)} item(s)", file=sys.stderr)
    return 1 if issues else 0


# the whole-overlay-folder view (duplicates across files) lives in overlay.load_overlays; re-exported for tools
__all__ = ["check_paths", "load_overlays"]

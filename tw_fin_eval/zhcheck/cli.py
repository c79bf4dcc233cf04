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
from tw_fin_eval import subsets as registry
from tw_fin_eval.errors import InputError
from tw_fin_eval.finding import Issue
from tw_fin_eval.jsonl import iter_jsonl
from tw_fin_eval.overlay import Overlay, check_overlay, load_overlays, validate_structure
from tw_fin_eval.subsets import load_subset
from tw_fin_eval.zhcheck.records import is_record, record_issues
from tw_fin_eval.zhcheck.rules import check_zh


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
    names = {s.name for s in registry.translated()}
    if parent.name in names and parent.parent.name == "translations":
        return parent.name
    for _, first in iter_jsonl(path):
        if "id" not in first or "dataset" in first or "response" in first:
            return None
        keys = set(first) - {"id", "note"}
        for spec in registry.translated():
            if keys == set(spec.overlay.fields):
                return spec.name
        return None
    return None


def check_overlay_file(path: Path, subset: str, sources: Path, _cache: dict = {}) -> list[Issue]:  # noqa: B006
    key = (subset, str(sources))
    if key not in _cache:
        _cache[key] = load_subset(subset, sources)
    items = _cache[key]
    spec = registry.get_spec(subset)
    by_id = {it.source_id: it for it in items}
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
        validate_structure(spec, by_id[sid], ov)
        issues.extend(check_overlay(spec, by_id[sid], ov))
    return issues


def check_jsonl(path: Path) -> list[Issue]:
    issues: list[Issue] = []
    for lineno, obj in iter_jsonl(path):
        if "task_type" not in obj and ("response" in obj or "error" in obj):
            # a runs line (it has `messages` and `dataset` too): check what the model wrote, the visible
            # answer and its reasoning (the `reasoning` field, or the response's <think> block) apart
            from tw_fin_eval.schema import split_think

            visible, think = split_think(obj.get("response")) if isinstance(obj.get("response"), str) else (None, None)
            if isinstance(obj.get("reasoning"), str):
                think = obj["reasoning"]
            for field, text in (("response", visible), ("reasoning", think)):
                if isinstance(text, str):
                    issues.extend(Issue.of(f, path=path, line=lineno, item_id=obj.get("id"), field=field)
                                  for f in check_zh(text))
        elif is_record(obj):
            issues.extend(record_issues(obj, path=path, line=lineno))
        else:
            text = json.dumps(obj, ensure_ascii=False)
            issues.extend(Issue.of(f, path=path, line=lineno, item_id=obj.get("id"), field="(line)")
                          for f in check_zh(text))
    return issues


def check_text_file(path: Path) -> list[Issue]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise InputError(f"not valid UTF-8 ({exc.reason})", path=path) from None
    return [Issue.of(f, path=path, line=n, item_id=None, field="(text)")
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

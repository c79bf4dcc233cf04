"""Write hf_release/: one parquet per config with the declared features, the generated card, LICENSES.md,
the scoring code (code/) and the FinChain-TW templates.

Everything is validated before anything is written, written into a hidden temporary folder beside the
target and swapped in by rename, so an interrupted or failed release never leaves a half folder."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path

import datasets

from tw_fin_eval import subsets
from tw_fin_eval.errors import InputError
from tw_fin_eval.features import project
from tw_fin_eval.paths import REPO_ROOT
from tw_fin_eval.release.card import DEFAULT_REPO_ID, PARQUET_NAME, SPLIT, ConfigStats, measure, render_card
from tw_fin_eval.release.standalone import make_standalone
from tw_fin_eval.release.validate import load_records, undeclared_fields
from tw_fin_eval.subsets import features_for
from tw_fin_eval.subsets.spec import SubsetSpec

CODE_DIR = "code"
CODE_TREES = ("tw_fin_eval", "metrics", "tools")  # copied under code/ so tools/*.py find the package
CODE_FILES = ("術語表_glossary_zh-TW.md",)  # the zh-TW checker reads the glossary from the code root
TEMPLATES_DIR = "finchain_tw_templates"
LICENSES = "LICENSES.md"
MANIFEST = "build_manifest.json"
_IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache", ".ruff_cache", "*.egg-info", ".*")
# A loading script named after the repo makes datasets ≥ 4 refuse the whole repo.
FORBIDDEN_SCRIPTS = ("tw_fin_eval_basic.py",)
# Internal or non-zh-TW subsets (every subset not in the release) and internal review files never go public.
FORBIDDEN_MARKERS = (*(s.name for s in subsets.SUBSETS.values() if not s.in_release), "人工抽審表", "資料問題清單")


def forbidden_files(root: Path) -> list[str]:
    """Paths under `root` that must never be published (relative, sorted)."""
    bad = []
    for p in sorted(root.rglob("*")):
        if not p.is_file():
            continue
        rel = p.relative_to(root).as_posix()
        name = p.name.lower()
        if name in FORBIDDEN_SCRIPTS:
            bad.append(f"{rel} (a loading script named after the repo: datasets refuses to load it)")
        elif rel.startswith("data/") and not any(rel.startswith(f"data/{c.name}/") for c in subsets.released()):
            bad.append(f"{rel} (not a release config)")
        elif p.suffix in {".jsonl", ".parquet", ".xlsx", ".csv", ".json"} and any(m in name for m in FORBIDDEN_MARKERS):
            bad.append(f"{rel} (internal or non-release data)")
    return bad


def _manifest(data_dir: Path) -> dict | None:
    path = data_dir / MANIFEST
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None  # coverage is a nicety on the card, never a reason to fail


def _tracked_files(repo_root: Path, tree: str) -> list[str] | None:
    """Files git tracks under `tree` (None outside a git checkout): local scratch files, notes or
    secrets lying in a working tree never reach the release, which matches a fresh clone."""
    try:
        out = subprocess.run(["git", "-C", str(repo_root), "ls-files", "-z", "--", tree],
                             capture_output=True, check=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return [p for p in out.stdout.decode("utf-8").split("\0") if p]


def _copy_tree(repo_root: Path, tree: str, dest: Path) -> None:
    src = repo_root / tree
    if not src.is_dir():
        return
    tracked = _tracked_files(repo_root, tree)
    if tracked is None:
        shutil.copytree(src, dest, ignore=_IGNORE)
        return
    for rel in tracked:
        if (repo_root / rel).is_file():  # tracked but deleted in the working tree: skip
            target = dest / Path(rel).relative_to(tree)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(repo_root / rel, target)


def _copy_code(repo_root: Path, dest: Path) -> None:
    for tree in CODE_TREES:
        _copy_tree(repo_root, tree, dest / CODE_DIR / tree)
    for name in CODE_FILES:
        if (repo_root / name).is_file():
            (dest / CODE_DIR).mkdir(parents=True, exist_ok=True)
            shutil.copy2(repo_root / name, dest / CODE_DIR / name)
    _copy_tree(repo_root, TEMPLATES_DIR, dest / TEMPLATES_DIR)
    if (dest / CODE_DIR / "metrics").is_dir():  # metrics that load without installing tw_fin_eval
        make_standalone(dest / CODE_DIR / "metrics", package_dir=repo_root / "tw_fin_eval")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists but not ours to signal
        return True
    return True


def _remove_stale_temporaries(out: Path) -> None:
    """Leftovers of a release that was killed outright (SIGKILL, power loss): their pid is gone."""
    for p in out.parent.glob(f".{out.name}.*-*"):
        kind, _, pid = p.name[len(out.name) + 2:].partition("-")
        if kind in {"tmp", "old"} and pid.isdigit() and not _pid_alive(int(pid)):
            shutil.rmtree(p, ignore_errors=True)


def _swap_in(tmp: Path, out: Path) -> None:
    old = out.parent / f".{out.name}.old-{os.getpid()}"
    if out.exists():
        out.rename(old)
    try:
        tmp.rename(out)
    except BaseException:
        if old.exists():
            old.rename(out)
        raise
    shutil.rmtree(old, ignore_errors=True)



def _release_date() -> str:
    """The card's date: $SOURCE_DATE_EPOCH when set (reproducible releases: the same data gives a byte-identical
    card), else today (UTC)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    moment = dt.datetime.fromtimestamp(int(epoch), dt.timezone.utc) if epoch and epoch.isdigit() else \
        dt.datetime.now(dt.timezone.utc)
    return moment.date().isoformat()

def write_release(data_dir: Path, out_dir: Path, *, repo_id: str = DEFAULT_REPO_ID,
                  configs: Iterable[SubsetSpec] | None = None, repo_root: Path = REPO_ROOT,
                  today: str | None = None, log=print) -> list[ConfigStats]:
    data_dir, out_dir, repo_root = Path(data_dir), Path(out_dir), Path(repo_root)
    chosen = list(configs if configs is not None else subsets.released())
    for c in chosen:
        if not c.in_release:
            raise InputError(f"config {c.name!r} is never part of the public release")
    if not (repo_root / LICENSES).is_file():
        raise InputError("LICENSES.md missing from the repository root", path=repo_root / LICENSES)

    # 1. read and validate everything first: a bad record stops the release before any write
    loaded = {c.name: load_records(data_dir, c) for c in chosen}
    manifest = _manifest(data_dir)

    datasets.disable_progress_bars()  # one plain line per config below says what happened
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_temporaries(out_dir)
    tmp = out_dir.parent / f".{out_dir.name}.tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        stats: list[ConfigStats] = []
        features: dict[str, datasets.Features] = {}
        for c in chosen:
            records = loaded[c.name]
            f = features_for(c.name)
            features[c.name] = f
            dropped = undeclared_fields(records, f)
            if dropped:
                log(f"  {c.name}: fields not in the declared features, left out: {', '.join(dropped)}")
            ds = datasets.Dataset.from_list([project(r, f) for r in records], features=f)
            path = tmp / "data" / c.name / PARQUET_NAME
            path.parent.mkdir(parents=True)
            ds.to_parquet(str(path))
            s = measure(c, records, manifest)
            s.num_bytes, s.parquet_bytes = ds.data.nbytes, path.stat().st_size
            stats.append(s)
            up = f" of {s.upstream:,}" if s.upstream is not None else ""
            log(f"{c.dataset:<16} {s.items:>6,} records{up} → data/{c.name}/{PARQUET_NAME} ({s.parquet_bytes:,} bytes)")
        generated = today or _release_date()
        render_card(stats, features, repo_id=repo_id, generated=generated).save(tmp / "README.md")
        shutil.copy2(repo_root / LICENSES, tmp / LICENSES)
        _copy_code(repo_root, tmp)
        bad = forbidden_files(tmp)
        if bad:
            raise InputError("refusing to write a release holding: " + "; ".join(bad))
        _swap_in(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return stats


def config_list(names: list[str] | None) -> list[SubsetSpec] | None:
    if not names:
        return None
    out = []
    for n in names:
        if n not in subsets.SUBSETS:
            raise InputError(f"unknown config {n!r}; release configs: {', '.join(c.name for c in subsets.released())}")
        out.append(subsets.SUBSETS[n])
    return out


__all__ = ["SPLIT", "write_release", "forbidden_files", "config_list"]

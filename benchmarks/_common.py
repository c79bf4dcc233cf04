"""What the benchmarks share: the repository on sys.path, the records of --data, bytecode as installed."""

from __future__ import annotations

import glob
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

DEFAULT_DATA = [str(REPO / "data" / "*.jsonl")]


def data_files(patterns: list[str]) -> list[str]:
    """The files the --data patterns name (quoted globs expanded), sorted, each once."""
    return sorted({f for p in patterns for f in glob.glob(p)})


def data_records(files: list[str]) -> list[dict]:
    """Every record of `files`; exits 2 with the reason when there is none (data/ not built)."""
    from tw_fin_eval.jsonl import read_jsonl

    records = [r for f in files for r in read_jsonl(f)]
    if not records:
        print("no records (build data/ first: python -m tw_fin_eval build, or pass --data)", file=sys.stderr)
        sys.exit(2)
    return records


def compile_package(env: dict[str, str]) -> None:
    """Byte-compile the package as `pip install` does (this machine sets PYTHONDONTWRITEBYTECODE=1, so fresh
    processes would otherwise recompile it from source every time: ≈ 0.12 s an installed user does not pay)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "tw_fin_eval")], env=env, check=True,
                   stdout=subprocess.DEVNULL)

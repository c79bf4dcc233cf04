"""JSONL reading and atomic writing (standard library only: the runner imports this on bare GPU boxes)."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tw_fin_eval.errors import InputError


def iter_jsonl(path: str | os.PathLike, *, skip_blank: bool = True) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line_number, object) for each line; bad UTF-8, bad JSON or a non-object raise InputError."""
    p = Path(path)
    if not p.is_file():
        raise InputError("file not found", path=p)
    with p.open("rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(f"not valid UTF-8 ({exc.reason} at byte {exc.start})", path=p, line=lineno) from None
            if lineno == 1 and text.startswith("\ufeff"):
                text = text[1:]
            if not text.strip():
                if skip_blank:
                    continue
                raise InputError("blank line", path=p, line=lineno)
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as exc:
                raise InputError(f"broken JSON line ({exc.msg} at column {exc.colno})", path=p, line=lineno) from None
            if not isinstance(obj, dict):
                raise InputError(f"expected a JSON object, got {type(obj).__name__}", path=p, line=lineno)
            yield lineno, obj


def read_jsonl(path: str | os.PathLike) -> list[dict[str, Any]]:
    return [obj for _, obj in iter_jsonl(path)]


def dumps(obj: Any) -> str:
    """The one serialisation used for every JSONL line we write (stable key order, real UTF-8)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def atomic_writer(path: str | os.PathLike, mode: str = "w", encoding: str | None = "utf-8", newline: str | None = None):
    """Write to a temporary file in the same folder, then rename: readers never see a half-written file,
    and on error the previous file is left untouched."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        kwargs = {} if "b" in mode else {"encoding": encoding, "newline": newline}
        with os.fdopen(fd, mode, **kwargs) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp creates 0600; give the file the usual permissions
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def write_jsonl(path: str | os.PathLike, records: Iterable[dict[str, Any]]) -> int:
    n = 0
    with atomic_writer(path) as fh:
        for rec in records:
            fh.write(dumps(rec) + "\n")
            n += 1
    return n

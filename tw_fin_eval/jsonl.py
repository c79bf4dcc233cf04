"""JSONL reading and atomic writing (standard library only: the runner imports this on bare GPU boxes)."""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tw_fin_eval.errors import InputError, not_a_file
from tw_fin_eval.redact import has_lone_surrogate

_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")

# Bounds on JSON from outside (a server's body, a runs file, the judge cache): every parse is total — it
# returns a value or raises `JSONLimitError` (a ValueError), never RecursionError, OverflowError or a
# value that cannot be written back as strict JSON. Real lines nest < 10 deep and hold short numbers.
MAX_JSON_DEPTH = 100
MAX_NUMBER_DIGITS = 100
_LONG_NUMBER = re.compile(rf"\d{{{MAX_NUMBER_DIGITS + 1}}}")


class JSONLimitError(ValueError):
    """JSON that parses in principle but breaks a bound (too deep, a huge number, NaN/Infinity)."""


def _no_constant(name: str) -> Any:
    raise JSONLimitError(f"{name} is not a JSON number (NaN/Infinity are not allowed)")


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise JSONLimitError(f"number {text[:20]}… is out of range (it would be Infinity)")
    return value


def _bounded_int(text: str) -> int:
    if len(text) > MAX_NUMBER_DIGITS + 1:
        raise JSONLimitError(f"a number with {len(text.lstrip('-'))} digits (more than {MAX_NUMBER_DIGITS})")
    return int(text)


_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite_float)
_DECODER_LONG = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite_float, parse_int=_bounded_int)


def _depth(value: Any) -> int:
    """Nesting depth of a parsed JSON value, without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            v = v.values()
        elif not isinstance(v, list):
            continue
        deepest = max(deepest, d)
        stack.extend((c, d + 1) for c in v if isinstance(c, (dict, list)))
    return deepest


def loads(text: str | bytes | bytearray, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """`json.loads`, bounded and total: nesting deeper than `max_depth`, a number of more than
    MAX_NUMBER_DIGITS digits, one out of float range, or NaN/Infinity raise `JSONLimitError`; bad JSON raises
    `json.JSONDecodeError`, bad UTF-8 `UnicodeDecodeError` (all ValueErrors). Fast path: a line with fewer
    brackets than `max_depth` and no long digit run costs one C-level parse."""
    if not isinstance(text, str):
        text = bytes(text).decode("utf-8")
    if text.startswith("\ufeff"):
        text = text[1:]
    long_number = _LONG_NUMBER.search(text) is not None
    try:
        value = (_DECODER_LONG if long_number else _DECODER).decode(text)
    except RecursionError:
        raise JSONLimitError(f"nested more than {max_depth} levels deep") from None
    except OverflowError:
        raise JSONLimitError("a number out of range") from None
    if text.count("[") + text.count("{") > max_depth and _depth(value) > max_depth:
        raise JSONLimitError(f"nested more than {max_depth} levels deep")
    return value


def iter_jsonl(path: str | os.PathLike, *, skip_blank: bool = True, reject_surrogates: bool = False,
               partial_last_hint: str | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line_number, object) for each line; bad UTF-8, bad JSON or a non-object raise InputError.

    `reject_surrogates`: a lone surrogate (a `\\ud800` escape that is not half of a pair) is an error
    too — it cannot be written back as UTF-8. `partial_last_hint`: said instead of "broken JSON line"
    when the broken line is the file's last and has no newline (a writer was interrupted)."""
    for lineno, _, obj in iter_jsonl_at(path, skip_blank=skip_blank, reject_surrogates=reject_surrogates,
                                        partial_last_hint=partial_last_hint):
        yield lineno, obj


def iter_jsonl_at(path: str | os.PathLike, *, skip_blank: bool = True, reject_surrogates: bool = False,
                  partial_last_hint: str | None = None) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """Like `iter_jsonl`, with each line's byte offset, so a reader can keep offsets instead of the objects
    and `read_line_at` them again (the scorer's constant-memory index of a large runs file)."""
    p = Path(path)
    if not p.is_file():
        raise not_a_file(p)
    offset = 0
    with p.open("rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            start, offset = offset, offset + len(raw)
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
                obj = loads(text)
            except JSONLimitError as exc:
                raise InputError(f"unusable JSON line: {exc}", path=p, line=lineno) from None
            except json.JSONDecodeError as exc:
                if partial_last_hint and not raw.endswith(b"\n"):  # only the last line can lack it
                    raise InputError(partial_last_hint, path=p, line=lineno) from None
                raise InputError(f"broken JSON line ({exc.msg} at column {exc.colno})", path=p, line=lineno) from None
            if not isinstance(obj, dict):
                raise InputError(f"expected a JSON object, got {type(obj).__name__}", path=p, line=lineno)
            # only an escape can make a surrogate (strict UTF-8 decoding refuses encoded ones): cheap test first
            if reject_surrogates and _SURROGATE_ESCAPE.search(raw) and has_lone_surrogate(obj):
                raise InputError("holds a lone surrogate (a \\udXXX escape that is not half of a pair): not "
                                 "valid Unicode text", path=p, line=lineno)
            yield lineno, start, obj


def read_line_at(fh: Any, offset: int) -> dict[str, Any]:
    """The JSON object of the line starting at byte `offset` of a file opened in binary mode (a line that
    `iter_jsonl_at` already validated)."""
    fh.seek(offset)
    raw = fh.readline().decode("utf-8")
    return json.loads(raw[1:] if raw.startswith("\ufeff") else raw)


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


class AtomicFiles:
    """Several files replaced together, all or nothing.

    Each file is written to a temporary in its own folder and fsynced; only when every one is complete
    are they renamed into place (then the folders are fsynced). A failure while writing — a full disk,
    a folder that cannot be created — raises and leaves every target as it was, with no temporaries.

        with AtomicFiles() as out:
            out.write_text(folder / "results.jsonl", results)
            out.write_text(folder / "report.md", report)
        # here all files are in place; on an exception none was touched

    An OSError escapes as is; CLIs turn it into a clear message and exit 2 with `output_error`."""

    def __init__(self) -> None:
        self._pending: list[tuple[Path, str]] = []  # (target, temporary)
        self._reserved: list[str] = []  # temporaries written by someone else: fsynced at commit

    def write_bytes(self, path: str | os.PathLike, data: bytes) -> Path:
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        self._pending.append((target, tmp))  # registered first, so abort() removes it whatever happens
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        return target

    def write_text(self, path: str | os.PathLike, text: str, *, encoding: str = "utf-8") -> Path:
        return self.write_bytes(path, text.encode(encoding))

    def write_lines(self, path: str | os.PathLike, lines: Iterable[str], *, encoding: str = "utf-8") -> Path:
        """Like write_text, streamed: a large output (results.jsonl of 290,000 units) never sits in memory."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        self._pending.append((target, tmp))
        with os.fdopen(fd, "w", encoding=encoding) as fh:
            for line in lines:
                fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        return target

    def reserve(self, path: str | os.PathLike) -> str:
        """A temporary path for a library that writes a file by name (pyarrow); renamed to `path` on commit.
        The caller must have finished (and closed) the file before the block ends."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        os.close(fd)
        self._pending.append((target, tmp))
        self._reserved.append(tmp)
        os.chmod(tmp, 0o666 & ~_umask())
        return tmp

    def commit(self) -> None:
        for tmp in self._reserved:
            fd = os.open(tmp, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        self._reserved.clear()
        folders = {target.parent for target, _ in self._pending}
        for target, tmp in self._pending:
            os.replace(tmp, target)  # a rename in one folder needs no space: cannot fail for a full disk
        self._pending.clear()
        for folder in folders:
            _fsync_dir(folder)

    def abort(self) -> None:
        for _, tmp in self._pending:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
        self._pending.clear()
        self._reserved.clear()

    def __enter__(self) -> AtomicFiles:
        return self

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is None:
            try:
                self.commit()
            except BaseException:
                self.abort()
                raise
        else:
            self.abort()


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # e.g. not allowed on this platform: the rename itself already happened
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def output_error(exc: OSError, what: str = "output") -> InputError:
    """A clear one-line error (exit 2 through the CLI) for an OSError while writing `what`."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    return InputError(f"cannot write the {what}: {reason}; nothing was changed", path=exc.filename)


def write_jsonl(path: str | os.PathLike, records: Iterable[dict[str, Any]]) -> int:
    n = 0
    with atomic_writer(path) as fh:
        for rec in records:
            fh.write(dumps(rec) + "\n")
            n += 1
    return n

"""JSONL reading and atomic writing (standard library only: the runner imports this on bare GPU boxes)."""

from __future__ import annotations

import contextlib
import errno
import glob
import json
import math
import os
import re
import shutil
import stat
import sys
import tempfile
import time
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
    fd, tmp, lock = locked_temp(p.parent, f".{p.name}.")  # (a killed writer's temporaries are removed first)
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
    finally:
        _close(lock)


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
        self._locks: list[int] = []  # each temporary is flock'ed until commit/abort (jsonl.sweep_stale)

    def _temp(self, target: Path) -> tuple[int, str]:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp, lock = locked_temp(target.parent, f".{target.name}.")
        if lock is not None:
            self._locks.append(lock)
        self._pending.append((target, tmp))  # registered first, so abort() removes it whatever happens
        return fd, tmp

    def _release(self) -> None:
        for fd in self._locks:
            _close(fd)
        self._locks.clear()

    def write_bytes(self, path: str | os.PathLike, data: bytes) -> Path:
        target = Path(path)
        fd, tmp = self._temp(target)
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
        fd, tmp = self._temp(target)
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
        fd, tmp = self._temp(target)
        os.close(fd)
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
        # a rename in one folder needs no space, but it can fail (permissions, a folder put in the way): keep
        # each old file under a hard link until all are in place, and put them back if one fails
        backups: list[tuple[Path, str | None]] = []
        try:
            for target, tmp in self._pending:
                backup = None
                if target.exists() and not target.is_dir():
                    backup = tmp[:-len(".tmp")] + ".old.tmp"
                    try:
                        os.link(target, backup)
                    except OSError:
                        backup = None
                backups.append((target, backup))
                os.replace(tmp, target)
        except BaseException:
            for target, backup in reversed(backups[:-1] if backups else []):
                with contextlib.suppress(OSError):
                    if backup is None:
                        os.unlink(target)
                    else:
                        os.replace(backup, target)
            _drop_backups(backups)
            raise
        _drop_backups(backups)
        self._pending.clear()
        self._release()
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
        self._release()

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


# --- temporaries a kill left behind, and output folders replaced all at once --------------------------
# Every temporary we write is flock'ed by its writer while it lives, so the next run tells a live writer's
# file (locked) from one left by SIGKILL/SIGTERM (unlocked) and removes only the latter.

def _try_lock(fd: int) -> bool:
    """Exclusive, non-blocking flock on `fd`; True if taken (POSIX; elsewhere always True)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False


def _hold_lock(path: str | os.PathLike) -> int | None:
    """A descriptor holding an flock on `path` (a file or a folder), or None when someone else holds it."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    if _try_lock(fd):
        return fd
    os.close(fd)
    return None


STALE_AFTER_S = 60.0  # a writer locks its temporary microseconds after creating it; a killed run's are older


def sweep_stale(folder: str | os.PathLike, pattern: str) -> int:
    """Remove the entries of `folder` matching the glob `pattern` that no live writer holds locked
    (temporaries and staging folders of a run that was killed). Returns how many were removed. An entry
    younger than STALE_AFTER_S is left alone: another process may have created it and not locked it yet."""
    removed = 0
    try:
        entries = list(Path(folder).glob(pattern))
    except OSError:
        return 0
    now = time.time()
    for p in entries:
        try:
            if now - p.lstat().st_mtime < STALE_AFTER_S:
                continue
            fd = _hold_lock(p)
        except OSError:
            continue
        if fd is None:
            continue  # a live writer's
        try:
            if p.is_dir() and not p.is_symlink():
                shutil.rmtree(p, ignore_errors=True)
            else:
                p.unlink()
            removed += 1
        except OSError:
            pass
        finally:
            os.close(fd)
    return removed


def locked_temp(folder: str | os.PathLike, prefix: str, suffix: str = ".tmp") -> tuple[int, str, int | None]:
    """(fd, path, lock fd) of a new temporary in `folder`, locked while its writer lives. Stale ones with the
    same prefix and suffix (left by a killed run) are removed first."""
    sweep_stale(folder, f"{glob.escape(prefix)}*{glob.escape(suffix)}")
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=folder)
    lock = os.open(tmp, os.O_RDONLY)
    if not _try_lock(lock):  # pragma: no cover - a new file nobody else knows
        os.close(lock)
        lock = None
    return fd, tmp, lock


def _drop_backups(pairs: Iterable[tuple[Any, str | os.PathLike | None]]) -> None:
    """Remove the backups of replaced outputs (after a commit, or after a rollback put them back)."""
    for _, backup in pairs:
        if backup is not None:
            with contextlib.suppress(OSError):
                os.unlink(backup)


def _close(fd: int | None) -> None:
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)


def finite_json(value: Any, path: str = "$") -> tuple[Any, list[str]]:
    """`value` with every NaN/Infinity replaced by None (strict JSON has neither), and where they were."""
    where: list[str] = []

    def walk(v: Any, at: str) -> Any:
        if isinstance(v, float) and not math.isfinite(v):
            where.append(at)
            return None
        if isinstance(v, dict):
            return {k: walk(x, f"{at}.{k}") for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [walk(x, f"{at}[{i}]") for i, x in enumerate(v)]
        return v

    return walk(value, path), where


def dumps_strict(obj: Any, *, indent: int | None = None, note_key: str | None = None) -> str:
    """JSON any strict parser reads: NaN/Infinity become null; with `note_key` (obj a dict) a note under that
    key lists where."""
    clean, where = finite_json(obj)
    if where and note_key and isinstance(clean, dict):
        clean[note_key] = [*(clean.get(note_key) or []),
                           f"{len(where)} value(s) were NaN or Infinity (not JSON) and are null: {', '.join(where[:20])}"
                           + (" …" if len(where) > 20 else "")]
    return json.dumps(clean, ensure_ascii=False, indent=indent, allow_nan=False,
                      **({} if indent else {"separators": (",", ":")}))


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (Linux renameat2 RENAME_EXCHANGE); False where the system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if fn(at_fdcwd, os.fsencode(str(a)), at_fdcwd, os.fsencode(str(b)), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP if hasattr(errno, "ENOTSUP") else errno.EINVAL):
        return False
    raise OSError(err, os.strerror(err), str(b))


class OutputFolder:
    """An output folder (`score --out`) written by one writer at a time and replaced all at once.

    `lock()` takes an exclusive flock on the folder (creating it if needed): a second writer gets an
    InputError (exit 2) at once. `replace(owned)` is a context manager giving a staging folder beside it
    (`.<name>.staging-XXXX`); when the block ends without error, the files of the old folder that are not
    `owned` outputs (the judge cache, the user's own files) are hard-linked in, and the two folders are
    swapped with one atomic rename (renameat2 RENAME_EXCHANGE; elsewhere two renames, the old folder put back
    if the second fails). Readers see the old outputs or the new ones, never a mix. On any error the staging
    folder is removed and the old outputs are untouched. Staging folders and temporaries of a killed run
    are removed by the next `lock()`."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self._lock: int | None = None
        self._created = False

    @property
    def locked(self) -> bool:
        return self._lock is not None

    def _stale_patterns(self) -> list[str]:
        name = glob.escape(self.path.name)
        return [f".{name}.staging-*", f".{name}.old-*"]

    def lock(self) -> OutputFolder:
        if self._lock is not None:
            return self
        self.path = self.path.resolve() if self.path.is_symlink() else Path(os.path.abspath(self.path))
        if self.path.exists() and not self.path.is_dir():
            raise InputError("--out must be a folder, not a file", path=self.path)
        if not self.path.exists():
            self.path.mkdir(parents=True, exist_ok=True)
            self._created = True
        fd = _hold_lock(self.path)
        if fd is None:
            raise InputError("another process is writing this output folder right now (a second `score` with "
                             "the same --out?); wait for it to finish or use another --out", path=self.path)
        self._lock = fd
        for pattern in self._stale_patterns():
            sweep_stale(self.path.parent, pattern)
        sweep_stale(self.path, ".staging-*")
        sweep_stale(self.path, ".*.????????.tmp")  # per-file temporaries (mkstemp's 8 characters) of a killed writer
        return self

    def unlock(self) -> None:
        if self._lock is None:
            return
        _close(self._lock)
        self._lock = None
        if self._created:  # a run that wrote nothing leaves no empty folder behind
            with contextlib.suppress(OSError):
                self.path.rmdir()

    def __enter__(self) -> OutputFolder:
        return self.lock()

    def __exit__(self, *exc: object) -> None:
        self.unlock()

    @contextmanager
    def replace(self, owned: Iterable[str] = ()) -> Iterator[Path]:
        own_lock = self._lock is None
        self.lock()
        owned = set(owned)
        cwd = Path(os.path.abspath(os.curdir))
        try:  # beside the folder: swapped in whole — unless it holds the working folder (--out .), which a
            if cwd == self.path or self.path in cwd.parents:  # swap would leave the shell in a deleted folder
                raise PermissionError(errno.EBUSY, "holds the working folder")
            stage, inside = Path(tempfile.mkdtemp(prefix=f".{self.path.name}.staging-", dir=self.path.parent)), False
        except OSError:  # or the parent is not writable (--out /data/reports, /data root's): stage inside it
            stage, inside = Path(tempfile.mkdtemp(prefix=".staging-", dir=self.path)), True
        stage_lock = _hold_lock(stage)
        swapped, moved_dirs = False, []
        try:
            yield stage
            if not inside:
                moved_dirs += self._link_others(stage, owned)
                os.chmod(stage, stat.S_IMODE(os.stat(self.path).st_mode))
                _fsync_dir(stage)
                try:
                    swapped = self._swap(stage)
                except OSError as exc:
                    if exc.errno not in (errno.EXDEV, errno.EBUSY):  # --out a mount point: file by file below
                        raise
            if swapped:  # the new folder is in place: our lock moves to it, the old one (now `stage`) goes
                _close(self._lock)
                self._lock, stage_lock = stage_lock, None
                self._created = False
                for name in moved_dirs:
                    with contextlib.suppress(OSError):
                        os.rename(stage / name, self.path / name)
                shutil.rmtree(stage, ignore_errors=True)
            else:
                _move_all_or_nothing(stage, self.path, owned)
                shutil.rmtree(stage, ignore_errors=True)
            _fsync_dir(self.path.parent)
        except BaseException:
            if not swapped:
                shutil.rmtree(stage, ignore_errors=True)
            raise
        finally:
            _close(stage_lock)
            if own_lock:
                self.unlock()

    def _link_others(self, stage: Path, owned: set[str]) -> list[str]:
        """Hard-link the old folder's files that are not ours into `stage`; its sub-folders are returned (moved
        after the swap: folders cannot be hard-linked)."""
        dirs = []
        with os.scandir(self.path) as it:
            for entry in it:
                if entry.name in owned or os.path.lexists(stage / entry.name):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    dirs.append(entry.name)
                    continue
                try:
                    os.link(entry.path, stage / entry.name, follow_symlinks=False)
                except OSError:
                    shutil.copy2(entry.path, stage / entry.name, follow_symlinks=False)
        return dirs

    def _swap(self, stage: Path) -> bool:
        """Put `stage` where the folder is, the old folder at `stage`: one atomic exchange, or two renames."""
        if _exchange(stage, self.path):
            return True
        old = Path(tempfile.mkdtemp(prefix=f".{self.path.name}.old-", dir=self.path.parent))
        os.rmdir(old)
        os.rename(self.path, old)
        try:
            os.rename(stage, self.path)
        except OSError:
            os.rename(old, self.path)
            raise
        os.rename(old, stage)  # (so the caller finds the old folder at `stage`, as after an exchange)
        return True


def _move_all_or_nothing(stage: Path, folder: Path, names: set[str]) -> None:
    """The files of `stage` renamed into `folder` one by one; if one rename fails, those already moved are
    put back (the old files were kept under hard links), so the folder holds the old outputs or the new."""
    done: list[tuple[Path, Path | None]] = []
    try:
        for entry in sorted(os.listdir(stage)):
            target, backup = folder / entry, None
            if target.exists():
                backup = folder / f".{entry}.{os.getpid()}.old.tmp"
                os.link(target, backup)
            done.append((target, backup))
            os.replace(stage / entry, target)
    except BaseException:
        for target, backup in reversed(done[:-1]):
            with contextlib.suppress(OSError):
                os.replace(backup, target) if backup is not None else os.unlink(target)
        _drop_backups(done)
        raise
    _drop_backups(done)
    _fsync_dir(folder)


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_csv_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet will not run: text starting with = + - @ (or a tab / CR) gets a leading
    apostrophe, so `=HYPERLINK(…)` as a model name or id stays text. Numbers, and text that is a number
    ("-0.5"), are left as they are. Used for every CSV we write."""
    if not isinstance(value, str) or not value.startswith(_FORMULA_START):
        return value
    try:
        float(value)
        return value
    except ValueError:
        return "'" + value


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

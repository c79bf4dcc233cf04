"""The runs file: append-only JSONL, one line per finished request, with the state resume needs.

Crash safety (docs/FORMATS.md §3). Each finished request becomes one complete line written with a single
`os.write` on an O_APPEND descriptor, so a SIGKILL leaves at most a partial *last* line (the kernel
keeps what was written; `fsync` every `FSYNC_EVERY_S` only guards against power loss). On start a
trailing partial line is cut off and reported; a broken line anywhere else is an input error. Resume:
a `(id, turn)` key with a successful line (error null) is skipped, every other key is asked again;
a later line for a key supersedes an earlier failed one. An exclusive `flock` stops two runs from
appending to the same file at once."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import JSONLimitError, dumps, loads
from tw_fin_eval.redact import Redactor, clean_text
from tw_fin_eval.runner.requests import Key

try:  # POSIX only; without it we simply do not guard against two concurrent runs
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

FSYNC_EVERY_S = 0.5


class Done(NamedTuple):
    """What resume keeps of a successful line: its prompt hash (to tell stale prompts) and, only for a
    self-history conversation turn, the answer later turns are built from. No prompts, no other replies:
    290,000 finished lines must fit in a few hundred MB."""
    messages_sha256: str | None
    response: str | None


@dataclass
class ExistingRun:
    done: dict[Key, Done]          # successful lines
    failed: set[Key]               # keys whose lines so far are all failures
    lines: int
    truncated_bytes: int           # a partial last line (a run killed mid-write): cut off on open
    missing_newline: bool = False  # the last line is complete but lacks its "\n": kept, completed on open


class RunsFile:
    """Append-only runs file with resume state. Use as a context manager."""

    def __init__(self, path: str | os.PathLike, *, model: str, history: str,
                 generation: dict[str, Any] | None = None, sampling: dict[str, Any] | None = None) -> None:
        self.path = Path(path)
        self.sampling = sampling  # --sample / --sample-allocation / --sample-seed / --limit of this run
        self.model = model
        self.history = history
        self.generation = generation or {}  # temperature, max_tokens, extra, seed of this run
        self._fd: int | None = None
        self._created = False
        self._last_sync = time.monotonic()
        self._dirty = False
        self._good_size = 0  # bytes up to the end of the last complete line
        self._write_error: OSError | None = None

    def read_existing(self) -> ExistingRun:
        """Parse the file (without changing it). Raises InputError for a different model/history or a
        broken line that is not the last one."""
        done: dict[Key, Done] = {}
        failed: set[Key] = set()
        if not self.path.exists():
            return ExistingRun(done, failed, 0, 0)
        _require_regular(self.path)
        try:  # O_NONBLOCK: a FIFO put there after the check cannot block the open
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
        except OSError as exc:
            raise _os_error(exc, "read", self.path) from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise _not_regular(self.path)
        fh = os.fdopen(fd, "rb")
        partial, missing_newline, lines = 0, False, 0
        with fh:  # line by line: a file of many large replies is never held whole
            for lineno, raw in enumerate(_lines(fh, self.path), 1):
                if not raw.endswith(b"\n"):  # the last line, killed while being written
                    if not _complete_record(raw, self.path, lineno):
                        partial = len(raw)
                        break
                    missing_newline = True  # killed just before the newline: the answer itself is whole
                if not raw.strip():
                    continue
                lines += 1
                self._take(_parse_line(raw, self.path, lineno), lineno, done, failed)
        return ExistingRun(done, failed, lines, partial, missing_newline)

    def _take(self, rec: dict, lineno: int, done: dict[Key, dict], failed: set[Key]) -> None:
        model = rec.get("model")
        if model != self.model:
            raise InputError(f"this runs file holds answers of model {model!r}, not {self.model!r}; "
                             "use another --out for a different model", path=self.path, line=lineno)
        turn = rec.get("turn")
        if isinstance(turn, int) and turn > 0 and rec.get("history", "gold") != self.history:
            raise InputError(f"this runs file was made with --history {rec.get('history', 'gold')}, "
                             f"not {self.history}; use another --out", path=self.path, line=lineno)
        self._check_generation(rec, lineno)
        self._check_sampling(rec, lineno)
        key = (rec.get("id"), turn)
        if rec.get("error") is None:
            # keep only what resume needs (a long run's file can be large): the answer only where a later
            # self-history turn is built from it
            sha = rec.get("messages_sha256")
            response = rec.get("response") if turn is not None and self.history == "self" else None
            done[key] = Done(sha if isinstance(sha, str) else None, response if isinstance(response, str) else None)
            failed.discard(key)
        elif key not in done:
            failed.add(key)

    def _check_generation(self, rec: dict, lineno: int) -> None:
        """A runs file holds one setting of the generation parameters, like one model: answers sampled at
        temperature 0.7 must not be mixed with greedy ones. Lines written before these were recorded
        (no such key) are accepted."""
        for name, want in self.generation.items():
            if name in rec and rec[name] != want:
                flag = "--" + name.replace("_", "-")
                raise InputError(f"this runs file was made with {flag} {dumps(rec[name])}, not {dumps(want)}; "
                                 "use the same settings to resume, or another --out", path=self.path, line=lineno)

    def _check_sampling(self, rec: dict, lineno: int) -> None:
        """One runs file holds one sample: lines of `--sample 100 --sample-seed 1` and of another sample would make
        a report of neither. A run without --sample may extend any earlier run towards the whole set (what it
        adds are records of the set); lines without a `sampling` object (older runners) pass."""
        theirs = rec.get("sampling")
        if self.sampling is None or self.sampling.get("sample") is None or not isinstance(theirs, dict):
            return
        for name, want in self.sampling.items():
            if theirs.get(name) != want:
                def said(d: dict) -> str:
                    parts = [f"--{k.replace('_', '-')} {d[k]}" for k in self.sampling if d.get(k) is not None]
                    return " ".join(parts) or "the whole data (no --sample/--limit)"
                raise InputError(f"this runs file was made with {said(theirs)}, not {said(self.sampling)}; use "
                                 "the same --sample/--sample-allocation/--sample-seed/--limit to resume, or another "
                                 "--out", path=self.path, line=lineno)

    def open(self) -> None:
        """Open for appending and take the lock. An OSError (a folder in the way, no permission, a
        read-only disk) becomes an InputError naming the file: exit 2, no traceback."""
        if self.path.exists():
            _require_regular(self.path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._created = not self.path.exists()
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o644)
        except OSError as exc:
            raise _os_error(exc, "open", self.path) from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # (replaced by a device or FIFO after the check)
            os.close(fd)
            raise _not_regular(self.path)
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise InputError("another run is writing this file right now", path=self.path) from None
        self._fd = fd
        self._good_size = os.fstat(fd).st_size

    def repair(self, existing: ExistingRun) -> None:
        """Make the file end at a complete line: cut a trailing partial line (a run killed mid-write,
        never parsed as data), or add the newline a complete last line lacks."""
        assert self._fd is not None
        try:
            if existing.truncated_bytes:
                size = os.fstat(self._fd).st_size
                os.ftruncate(self._fd, size - existing.truncated_bytes)
                os.fsync(self._fd)
            elif existing.missing_newline:
                os.write(self._fd, b"\n")
                os.fsync(self._fd)
        except OSError as exc:
            raise _os_error(exc, "repair", self.path) from None
        self._good_size = os.fstat(self._fd).st_size

    def append(self, rec: dict, *, redactor: Redactor | None = None) -> None:
        """Write one complete line. On an OSError (a full disk …) the file is cut back to its last
        complete line and every later append raises the same error: a failed write never leaves a
        broken line for a later one to follow (the disk may have room again by then)."""
        if self._write_error is not None:
            raise self._write_error
        data = _line_bytes(rec, redactor)
        assert self._fd is not None
        view = memoryview(data)
        try:
            while view:  # one write() almost always; loop only for a short write (e.g. disk full)
                written = os.write(self._fd, view)
                view = view[written:]
        except OSError as exc:
            self._write_error = exc
            try:
                os.ftruncate(self._fd, self._good_size)
            except OSError:
                pass  # the next run cuts the partial last line
            raise
        self._good_size += len(data)
        self._dirty = True
        now = time.monotonic()
        if now - self._last_sync >= FSYNC_EVERY_S:
            self.sync()

    def sync(self) -> None:
        if self._fd is not None and self._dirty:
            self._dirty = False
            os.fsync(self._fd)
            self._check_still_there()
        self._last_sync = time.monotonic()

    def _check_still_there(self) -> None:
        """Lines appended to a file that was deleted or replaced under us would vanish at exit: stop."""
        assert self._fd is not None
        try:
            here = os.stat(self.path)
        except FileNotFoundError:
            here = None
        mine = os.fstat(self._fd)
        if here is None or (here.st_dev, here.st_ino) != (mine.st_dev, mine.st_ino):
            self._write_error = OSError(f"{self.path} was deleted or replaced while the run was writing it")
            raise self._write_error

    def close(self) -> None:
        if self._fd is not None:
            try:
                self.sync()
            except OSError:
                pass  # what was written is in the kernel's hands; the loop already reported errors
            mine = os.fstat(self._fd)
            if self._created and mine.st_size == 0:  # a run that sent nothing leaves no file behind
                try:
                    here = os.stat(self.path)
                    if (here.st_dev, here.st_ino) == (mine.st_dev, mine.st_ino):  # (never another's file)
                        self.path.unlink()
                except OSError:
                    pass
            os.close(self._fd)  # releases the flock
            self._fd = None

    def __enter__(self) -> RunsFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _line_bytes(rec: dict, redactor: Redactor | None) -> bytes:
    """`dumps(rec) + "\n"` as UTF-8, built field by field: one string of the whole line would be as wide
    as its widest character, so a 16 MiB ASCII reply in a line with Chinese messages would take 32 MiB
    (and a lone surrogate that got past the client becomes U+FFFD instead of failing the write)."""
    if sum(len(v) for v in rec.values() if isinstance(v, str)) < 1 << 20:  # the usual small line: at once
        line = dumps(rec) + "\n"
        if redactor:
            line = redactor.scrub(line)
        try:
            return line.encode("utf-8")
        except UnicodeEncodeError:
            return clean_text(line).encode("utf-8")
    parts = []
    for i, (key, value) in enumerate(rec.items()):
        text = ("{" if i == 0 else ",") + dumps(key) + ":" + dumps(value)
        if redactor:
            text = redactor.scrub(text)
        try:
            parts.append(text.encode("utf-8"))
        except UnicodeEncodeError:
            parts.append(clean_text(text).encode("utf-8"))
        del text
    parts.append(b"}\n" if parts else b"{}\n")
    return b"".join(parts)


def _not_regular(path: Path) -> InputError:
    return InputError("--out must be a regular file (the runs file), not a device, FIFO or socket: resume "
                      "would read it without end or block", path=path)


def _require_regular(path: Path) -> None:
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise _os_error(exc, "read", path) from None
    if stat.S_ISDIR(mode):
        raise InputError("cannot open the runs file (--out): it is a folder", path=path)
    if not stat.S_ISREG(mode):
        raise _not_regular(path)


def _os_error(exc: OSError, action: str, path: Path) -> InputError:
    return InputError(f"cannot {action} the runs file (--out): {exc.strerror or exc}", path=path)


def _lines(fh: Any, path: Path) -> Iterator[bytes]:
    try:
        yield from fh
    except OSError as exc:
        raise _os_error(exc, "read", path) from None


def _complete_record(raw: bytes, path: Path, lineno: int) -> bool:
    try:
        rec = loads(raw)
    except JSONLimitError:  # complete, but unusable: named like any other line (never cut silently)
        return isinstance(_parse_line(raw, path, lineno), dict)
    except ValueError:  # bad UTF-8 or JSON: a line cut short
        return False
    return isinstance(rec, dict) and isinstance(rec.get("id"), str)


def _parse_line(raw: bytes, path: Path, lineno: int) -> dict:
    try:
        rec = loads(raw)
    except JSONLimitError as exc:  # nested 100 000 deep, a 5000-digit number, NaN: named, never a traceback
        raise InputError(f"unusable line in runs file: {exc}", path=path, line=lineno) from None
    except ValueError as exc:  # UnicodeDecodeError, JSONDecodeError
        raise InputError(f"broken line in runs file ({type(exc).__name__}); only a partial *last* line is "
                         "repaired automatically", path=path, line=lineno) from None
    if not isinstance(rec, dict) or not isinstance(rec.get("id"), str):
        raise InputError("runs-file line is not a runner record", path=path, line=lineno)
    return rec


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
import time
from dataclasses import dataclass
from pathlib import Path

from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import dumps
from tw_fin_eval.runner.requests import Key

try:  # POSIX only; without it we simply do not guard against two concurrent runs
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

FSYNC_EVERY_S = 0.5


@dataclass
class ExistingRun:
    done: dict[Key, dict]          # successful lines
    failed: set[Key]               # keys whose lines so far are all failures
    lines: int
    truncated_bytes: int


class RunsFile:
    """Append-only runs file with resume state. Use as a context manager."""

    def __init__(self, path: str | os.PathLike, *, model: str, history: str) -> None:
        self.path = Path(path)
        self.model = model
        self.history = history
        self._fd: int | None = None
        self._created = False
        self._last_sync = time.monotonic()
        self._dirty = False

    def read_existing(self) -> ExistingRun:
        """Parse the file (without changing it). Raises InputError for a different model/history or a
        broken line that is not the last one."""
        done: dict[Key, dict] = {}
        failed: set[Key] = set()
        if not self.path.exists():
            return ExistingRun(done, failed, 0, 0)
        data = self.path.read_bytes()
        cut = data.rfind(b"\n") + 1
        partial = len(data) - cut
        lines = 0
        for lineno, raw in enumerate(data[:cut].split(b"\n")[:-1], 1):
            if not raw.strip():
                continue
            lines += 1
            rec = _parse_line(raw, self.path, lineno)
            model = rec.get("model")
            if model != self.model:
                raise InputError(f"this runs file holds answers of model {model!r}, not {self.model!r}; "
                                 "use another --out for a different model", path=self.path, line=lineno)
            turn = rec.get("turn")
            if isinstance(turn, int) and turn > 0 and rec.get("history", "gold") != self.history:
                raise InputError(f"this runs file was made with --history {rec.get('history', 'gold')}, "
                                 f"not {self.history}; use another --out", path=self.path, line=lineno)
            key = (rec.get("id"), turn)
            if rec.get("error") is None:
                # keep only what resume needs (a long run's file can be large)
                done[key] = {"messages_sha256": rec.get("messages_sha256"),
                             "response": rec.get("response") if turn is not None else None}
                failed.discard(key)
            elif key not in done:
                failed.add(key)
        return ExistingRun(done, failed, lines, partial)

    def open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._created = not self.path.exists()
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise InputError("another run is writing this file right now", path=self.path) from None
        self._fd = fd

    def truncate_partial(self, partial: int) -> None:
        """Cut a trailing partial line (a run killed mid-write) — never parsed as data."""
        if partial and self._fd is not None:
            size = os.fstat(self._fd).st_size
            os.ftruncate(self._fd, size - partial)
            os.fsync(self._fd)

    def append(self, rec: dict, *, scrub: str | None = None) -> None:
        line = dumps(rec)
        if scrub and scrub in line:
            line = line.replace(scrub, "[REDACTED]")
        data = (line + "\n").encode("utf-8")
        assert self._fd is not None
        view = memoryview(data)
        while view:  # one write() almost always; loop only for a short write (e.g. disk full)
            written = os.write(self._fd, view)
            view = view[written:]
        self._dirty = True
        now = time.monotonic()
        if now - self._last_sync >= FSYNC_EVERY_S:
            self.sync()

    def sync(self) -> None:
        if self._fd is not None and self._dirty:
            os.fsync(self._fd)
            self._dirty = False
        self._last_sync = time.monotonic()

    def close(self) -> None:
        if self._fd is not None:
            self.sync()
            empty = self._created and os.fstat(self._fd).st_size == 0
            if empty:  # a run that sent nothing leaves no file behind
                self.path.unlink(missing_ok=True)
            os.close(self._fd)  # releases the flock
            self._fd = None

    def __enter__(self) -> RunsFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _parse_line(raw: bytes, path: Path, lineno: int) -> dict:
    import json

    try:
        rec = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"broken line in runs file ({type(exc).__name__}); only a partial *last* line is "
                         "repaired automatically", path=path, line=lineno) from None
    if not isinstance(rec, dict) or not isinstance(rec.get("id"), str):
        raise InputError("runs-file line is not a runner record", path=path, line=lineno)
    return rec


"""Progress output for long runs: a bar on a terminal, a plain line every few seconds otherwise."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """A one-line bar on a terminal (stdlib, no tqdm), a plain line every `every` s otherwise."""

    def __init__(self, total: int, *, stream: TextIO | None = None, every: float = 30.0,
                 enabled: bool = True) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.every = every
        self.enabled = enabled
        self.ok = self.failed = 0
        self.start = time.monotonic()
        self._last = 0.0 if self.tty else self.start

    def line(self) -> str:
        elapsed = max(time.monotonic() - self.start, 1e-9)
        n = self.ok + self.failed
        rate = n / elapsed
        eta = (self.total - n) / rate if rate > 0 else float("nan")
        eta_s = "--" if eta != eta else _hms(eta)
        return (f"{n}/{self.total} done ({self.ok} ok, {self.failed} failed) · {rate:.1f} req/s · "
                f"elapsed {_hms(elapsed)} · eta {eta_s}")

    def tick(self, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if self.tty:
            if force or now - self._last >= 0.1:
                width = 30
                n = self.ok + self.failed
                filled = int(width * n / self.total) if self.total else width
                bar = "#" * filled + "." * (width - filled)
                self.stream.write(f"\r[{bar}] {self.line()}\x1b[K")
                self.stream.flush()
                self._last = now
        elif force or now - self._last >= self.every:
            self.stream.write(f"progress: {self.line()}\n")
            self.stream.flush()
            self._last = now

    def finish(self) -> None:
        if self.enabled and self.tty:
            self.tick(force=True)
            self.stream.write("\n")
            self.stream.flush()


def _hms(seconds: float) -> str:
    seconds = int(seconds)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


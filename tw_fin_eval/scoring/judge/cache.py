"""The judge cache: replies kept across runs (JSONL, one line per successful call)."""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path
from typing import Any

from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import JSONLimitError, loads
from tw_fin_eval.redact import Redactor, has_lone_surrogate


class JudgeCache:
    """Judge replies kept across runs, so an interrupted or repeated `score` does not pay for them again.
    JSONL, one line per successful call, appended and flushed as each reply arrives:
    {"key", "model", "raw", "raw_content"}; key = sha256 of (model, request parameters, messages, repeat
    number). Replies are stored, verdicts are not: a better parser re-reads old replies. A line cut short
    by an interruption is skipped; a line past the JSON bounds (nested too deep, a huge number: never
    written by us) is an InputError naming file:line."""

    def __init__(self, path: str | os.PathLike, *, redactor: Redactor | None = None) -> None:
        self.path = Path(path)
        # the judge key never reaches the cache, and a key left in an older cache file is not read back
        self._redactor = redactor or Redactor()
        self._lock = threading.Lock()
        self._data: dict[str, tuple[str | None, str | None]] = {}
        self._fh: Any = None
        if self.path.is_file():
            with self.path.open("rb") as fh:
                for lineno, line in enumerate(fh, 1):
                    try:
                        row = loads(line)
                    except JSONLimitError as exc:
                        raise InputError(f"unusable judge cache line: {exc}; delete the line (or the file)",
                                         path=self.path, line=lineno) from None
                    except ValueError:  # bad UTF-8 or JSON: a line cut short by an interruption
                        continue
                    if isinstance(row, dict) and isinstance(row.get("key"), str):
                        if has_lone_surrogate([row.get("raw"), row.get("raw_content")]):
                            # it could not be written to results.jsonl: name the line instead of a traceback
                            raise InputError("judge cache line holds a lone surrogate (a \\udXXX escape that is "
                                             "not half of a pair): not valid Unicode; delete the line",
                                             path=self.path, line=lineno)
                        self._data[row["key"]] = (self._scrub(row.get("raw")), self._scrub(row.get("raw_content")))

    @staticmethod
    def key(model: str | None, params: dict[str, Any], messages: list[dict[str, str]], repeat: int) -> str:
        blob = json.dumps([model, params, messages, repeat], ensure_ascii=False, sort_keys=True)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def _scrub(self, text: Any) -> Any:
        return self._redactor.scrub(text) if isinstance(text, str) else text

    def get(self, key: str) -> tuple[str | None, str | None] | None:
        return self._data.get(key)

    def put(self, key: str, model: str | None, raw: str | None, raw_content: str | None) -> None:
        raw, raw_content = self._scrub(raw), self._scrub(raw_content)
        with self._lock:
            self._data[key] = (raw, raw_content)
            if self._fh is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._fh = self.path.open("a", encoding="utf-8")
                needs_newline = _ends_without_newline(self.path)  # after a line cut short
                if needs_newline:
                    self._fh.write("\n")
            self._fh.write(json.dumps({"key": key, "model": model, "raw": raw, "raw_content": raw_content},
                                      ensure_ascii=False) + "\n")
            self._fh.flush()

    @property
    def written(self) -> bool:
        return self._fh is not None

    def __len__(self) -> int:
        return len(self._data)

    def close(self) -> None:
        with self._lock:
            if self._fh is not None:
                self._fh.close()
                self._fh = None


def _ends_without_newline(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            if fh.seek(0, os.SEEK_END) == 0:
                return False
            fh.seek(-1, os.SEEK_END)
            return fh.read(1) != b"\n"
    except OSError:
        return False

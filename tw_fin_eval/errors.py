"""One exception type for bad input: it carries where (file, line, id, field) so every message names it."""

from __future__ import annotations


class InputError(Exception):
    """Bad input the user can fix. The CLI prints it and exits with status 2."""

    def __init__(self, message: str, *, path: object = None, line: int | None = None,
                 item_id: str | None = None, field: str | None = None) -> None:
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line
        self.item_id = item_id
        self.field = field
        super().__init__(str(self))

    def __str__(self) -> str:
        where = []
        if self.path:
            where.append(self.path + (f":{self.line}" if self.line is not None else ""))
        if self.item_id:
            where.append(f"id={self.item_id}")
        if self.field:
            where.append(f"field={self.field}")
        return (" ".join(where) + ": " if where else "") + self.message


def not_a_file(path: object, missing: str = "file not found", what: str = "file") -> InputError:
    """The error for a path that cannot be read as a file, saying which case it is: not there (`missing`),
    a folder, or something else (a socket, a device)."""
    from pathlib import Path

    p = Path(str(path))
    if p.is_dir():
        return InputError(f"is a folder, not a {what}", path=p)
    if p.exists():
        return InputError(f"is not a regular file (expected a {what})", path=p)
    return InputError(missing, path=p)


def not_a_folder(path: object, missing: str = "folder not found", what: str = "folder") -> InputError:
    """The error for a path that should be a folder: not there (`missing`) or a file."""
    from pathlib import Path

    p = Path(str(path))
    if p.exists():
        return InputError(f"is a file, not a {what}", path=p)
    return InputError(missing, path=p)

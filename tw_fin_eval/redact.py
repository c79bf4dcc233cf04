"""Text that came from outside (a server, a file): remove secrets from it and make it writable UTF-8.

Standard library only (the runner imports it on bare GPU boxes). One place for both rules, used by the
runner's HTTP client (every server text: replies, error bodies, headers), the runs file, and the judge.

- `Redactor(secrets)`: every occurrence of every secret, in any letter case and in every quoted or escaped
  form an exception text or a log can hold (JSON-escaped, a Python str or bytes repr such as
  `b'Bearer sk-…\\r'`, unicode-escaped, URL-encoded, and those forms escaped once more), becomes
  `[REDACTED]`. Short secrets are redacted too. Scrub *before* cutting text to length: a cut made first
  could leave all but the last characters of a key behind.
- `header_safe_key(value, what)`: a key as it will be sent: surrounding whitespace removed (a key read
  with `$(cat key.txt)` from a CRLF file ends in "\\r"), inner control or non-ASCII characters refused
  with a message that never shows the key.
- `register_secret` / `process_redactor`: the keys this process read, so the CLI scrubs them from any
  message or traceback it prints.
- `clean_text(s)`: lone UTF-16 surrogates (from a JSON `"\\ud800"` escape) cannot be encoded as UTF-8;
  each becomes U+FFFD so the text can be written.
- `token_preview(s)`: what may be shown of a string that might be a secret (its first 3 characters).
"""

from __future__ import annotations

import json
import os
import re
import urllib.parse
from collections.abc import Iterable, Sequence
from typing import Any

REDACTED = "[REDACTED]"
_SURROGATE = re.compile("[\ud800-\udfff]")


def _escaped_forms(text: str) -> set[str]:
    """`text` as it can stand inside a JSON string, a Python str or bytes repr, a unicode-escaped or a
    URL-encoded string."""
    forms = {text, json.dumps(text, ensure_ascii=False)[1:-1], json.dumps(text)[1:-1], repr(text)[1:-1],
             text.encode("unicode_escape").decode("ascii"), urllib.parse.quote(text, safe=""),
             urllib.parse.quote_plus(text, safe="")}
    for encoding in ("utf-8", "latin-1"):
        try:
            forms.add(repr(text.encode(encoding))[2:-1])  # b'Bearer sk-…\r' in http.client's ValueError
        except UnicodeEncodeError:
            pass
    return {f for f in forms if f}


def secret_forms(secret: str) -> set[str]:
    """Every form of `secret` a text may hold: the key itself and without surrounding whitespace, each
    escaped once (JSON, repr, bytes repr, …) and twice (an exception's repr quoting another's)."""
    forms: set[str] = set()
    for base in {secret, secret.strip()} - {""}:
        for once in _escaped_forms(base):
            forms |= _escaped_forms(once)
    return forms


_REGISTERED: set[str] = set()


def register_secret(secret: str | None) -> None:
    """Remember a key this process uses, so `process_redactor()` scrubs it from whatever the CLI prints."""
    if secret:
        _REGISTERED.add(secret)


def process_redactor() -> Redactor:
    return Redactor(_REGISTERED)


class Redactor:
    """Replaces every known secret in text. Falsy secrets are ignored; with none, `scrub` is identity."""

    def __init__(self, secrets: Iterable[str | None] = ()) -> None:
        forms: set[str] = set()
        for secret in secrets:
            if secret:
                forms |= secret_forms(secret)
        # longest first, so a secret that contains another is replaced whole
        alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
        self._pattern = re.compile(alternatives, re.IGNORECASE) if alternatives else None

    def __bool__(self) -> bool:
        return self._pattern is not None

    def scrub(self, text: str) -> str:
        if self._pattern is None or not text or self._pattern.search(text) is None:
            return text
        return self._pattern.sub(REDACTED, text)

    def scrub_bytes(self, data: bytes) -> str:
        """Bytes from the wire as text (invalid UTF-8 replaced), secrets removed."""
        return self.scrub(data.decode("utf-8", "replace"))

    def __repr__(self) -> str:  # never show the secrets
        return f"Redactor({'active' if self else 'empty'})"


def clean_text(text: str) -> str:
    """`text` with each lone surrogate replaced by U+FFFD (the text is returned as is when it has none).

    >>> clean_text("a\\ud800b")
    'a\\ufffdb'
    >>> clean_text("答案：3")
    '答案：3'
    """
    if text.isascii() or _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub("\ufffd", text)


def clean_value(value: Any) -> Any:
    """`clean_text` applied to every string inside a JSON value (dict keys too)."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list):
        return [clean_value(v) for v in value]
    if isinstance(value, dict):
        return {clean_text(k) if isinstance(k, str) else k: clean_value(v) for k, v in value.items()}
    return value


def has_lone_surrogate(value: Any) -> bool:
    """True if any string inside a JSON value holds a lone surrogate."""
    if isinstance(value, str):
        return not value.isascii() and _SURROGATE.search(value) is not None
    if isinstance(value, list):
        return any(has_lone_surrogate(v) for v in value)
    if isinstance(value, dict):
        return any(has_lone_surrogate(k) or has_lone_surrogate(v) for k, v in value.items())
    return False


def token_preview(text: str, keep: int = 3) -> str:
    """At most the first `keep` characters of something that may be a secret, then an ellipsis.

    >>> token_preview("sk-abcdef0123456789")
    'sk-…'
    """
    return text[:keep] + "…" if len(text) > keep else "…"


def looks_like_token(text: str) -> bool:
    """A heuristic for "this is a key, not a name": long, no spaces, with digits and lower-case letters
    or a usual key prefix. Environment variable names (OPENAI_API_KEY, my_key) do not look like one.

    >>> looks_like_token("sk-proj-Ab12Cd34Ef56Gh78")
    True
    >>> looks_like_token("OPENAI_API_KEY"), looks_like_token("judge_key_2")
    (False, False)
    """
    if len(text) < 12 or any(c.isspace() for c in text):
        return False
    if re.match(r"(sk|pk|rk|hf|gh[pousr]|xai|key|tok)[-_]", text, re.IGNORECASE):
        return True
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", text):
        return True  # '-', '.', '/', '+', '=' …: not a variable name
    digits = sum(c.isdigit() for c in text)
    return digits >= 3 and any(c.islower() for c in text) and any(c.isupper() for c in text) or digits >= 6


def header_safe_key(value: str | None, what: str = "the API key") -> str | None:
    """`value` with surrounding whitespace removed (CR/LF from a CRLF key file, a trailing newline, spaces);
    None for None or a key that is only whitespace. A control or non-ASCII character inside the key cannot
    go into an HTTP header: refused with InputError naming `what` and the position, never the key.

    >>> header_safe_key("sk-abc123\\r\\n")
    'sk-abc123'
    """
    if value is None:
        return None
    key = value.strip()
    for i, ch in enumerate(key):
        if not " " <= ch <= "~":
            from tw_fin_eval.errors import InputError

            kind = "a control character" if ord(ch) < 32 or ord(ch) == 127 else "a non-ASCII character"
            raise InputError(f"{what} holds {kind} at position {i + 1} of {len(key)} (surrounding whitespace is "
                             "removed, inner characters are not); the key is not shown — fix the value, e.g. "
                             "re-create the key file without stray characters")
    return key or None


def key_from_env(name: str | None, *, option: str, defaults: Sequence[str] = ()) -> str | None:
    """The API key in environment variable `name`, which the flag `option` named; with no name, the first of
    `defaults` that is set (None when none is). One rule for the runner's and the judge's keys: a key pasted
    where its variable's name belongs is refused without echoing it (3 characters at most), and a named
    variable that is not set is an error rather than an unauthenticated run. Surrounding whitespace (CR/LF)
    is removed and inner control characters are refused (`header_safe_key`); the key is registered for
    `process_redactor`."""
    from tw_fin_eval.errors import InputError

    if name is None:
        for d in defaults:
            if raw := os.environ.get(d):
                register_secret(raw)
                key = header_safe_key(raw, f"the key in environment variable {d}")
                register_secret(key)
                return key
        return None
    field = option.lstrip("-").replace("-", "_")
    if looks_like_token(name) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,99}", name):
        raise InputError(f"{option} takes the NAME of an environment variable, got {token_preview(name)} "
                         "(that looks like a key: put it in a variable, e.g. export OPENAI_API_KEY=…, and pass "
                         "the variable's name)", field=field)
    value = os.environ.get(name)
    if not value:
        raise InputError(f"environment variable {name} is not set (named by {option})", field=field)
    register_secret(value)
    key = header_safe_key(value, f"the key in environment variable {name}")
    if key is None:
        raise InputError(f"environment variable {name} holds only whitespace (named by {option})", field=field)
    register_secret(key)
    return key

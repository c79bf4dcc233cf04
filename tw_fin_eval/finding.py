"""What the zh-TW rule checker reports, as data: a `Finding` (one problem in one string) and an `Issue`
(a finding located in a file). Standard library only and imported by both the checker
(tw_fin_eval.zhcheck) and the overlay layer (tw_fin_eval.overlay), so neither imports the other's
command-line code. Callers read the structured fields (`rule`, `code`, `found`, `fix`), never the
human message."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    rule: str      # the rule family, one of zhcheck.rules.RULES (simplified, prc_term, convention, …)
    message: str   # names the problem and the fix, e.g. 中國用語「質量」→ 臺灣用「品質」
    text: str      # the offending snippet with a little context (≤ 60 characters)
    # structured parts of the message, so callers need not parse it: the offending string exactly
    # (「杠杆」, a missing numeral "334", an English run) and the suggested replacement ("" if none)
    found: str = ""
    fix: str = ""
    # the precise kind of problem within the rule family (e.g. "table_to", "month_name"); the rule
    # name itself when the family has one kind only
    code: str = ""

    def __post_init__(self) -> None:
        if not self.code:
            object.__setattr__(self, "code", self.rule)


@dataclass(frozen=True)
class Issue:
    """A rule finding located in a file: what every checker message prints."""

    path: str
    line: int | None
    item_id: str | None
    field: str
    rule: str
    message: str
    text: str
    code: str = ""
    found: str = ""
    fix: str = ""

    @classmethod
    def of(cls, finding: Finding, *, path: object, line: int | None, item_id: str | None, field: str) -> Issue:
        return cls(str(path), line, item_id, field, finding.rule, finding.message, finding.text,
                   finding.code, finding.found, finding.fix)

    def format(self) -> str:
        where = self.path + (f":{self.line}" if self.line is not None else "")
        who = f" id={self.item_id}" if self.item_id else ""
        return f"{where}{who} field={self.field} [{self.rule}] {self.message}: {self.text!r}"

"""FinQA's program language: `op(a, b), op(#0, c), …` with literal numbers, `const_N` constants, `#k`
references to earlier steps and `table_sum/average/max/min(row name, none)` over a table row."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tw_fin_eval.sources.base import numbers_in

_STEP = re.compile(r"\s*(\w+)\(([^()]*)\)\s*(?:,|$)")
_NUMBER = re.compile(r"^-?(?:\d[\d,]*(?:\.\d+)?|\.\d+)%?$")
BINARY = {"add", "subtract", "multiply", "divide", "exp", "greater"}
TABLE_OPS = {"table_sum", "table_average", "table_max", "table_min"}


class ProgramError(ValueError):
    """A program that does not parse or cannot be executed (the message says which step and why)."""


@dataclass(frozen=True)
class Step:
    op: str
    args: tuple[str, ...]

    def text(self) -> str:
        return f"{self.op}({', '.join(self.args)})"


def parse(program: str) -> list[Step]:
    """Steps of a program; a bare number ("60.94", ConvFinQA's lookup turns) is one `value` step."""
    text = (program or "").strip()
    if not text:
        raise ProgramError("empty program")
    if _NUMBER.match(text) or text.startswith("const_"):
        return [Step("value", (text,))]
    steps, pos = [], 0
    while pos < len(text):
        m = _STEP.match(text, pos)
        if not m:
            raise ProgramError(f"cannot parse the program at {text[pos:pos + 30]!r}")
        op, args = m.group(1), tuple(a.strip() for a in m.group(2).split(","))
        if op not in BINARY | TABLE_OPS:
            raise ProgramError(f"unknown operation {op!r}")
        if len(args) != 2:
            raise ProgramError(f"{op} needs 2 arguments, got {len(args)}")
        steps.append(Step(op, args))
        pos = m.end()
    return steps


def constant(arg: str) -> float | None:
    """`const_100` → 100, `const_m1` → -1; None for anything else."""
    if not arg.startswith("const_"):
        return None
    body = arg[6:]
    try:
        return -float(body[1:]) if body.startswith("m") else float(body)
    except ValueError:
        raise ProgramError(f"bad constant {arg!r}") from None


def literal(arg: str) -> float | None:
    """A literal number argument ("5,735", "4.1%" → 0.041); None for references, constants and names."""
    if not _NUMBER.match(arg):
        return None
    value = float(arg.rstrip("%").replace(",", ""))
    return value / 100 if arg.endswith("%") else value


def table_row(table: list[list[str]], name: str) -> list[str] | None:
    for row in table[1:]:
        if row and row[0].strip().lower() == name.strip().lower():
            return row
    return None


def _row_values(table: list[list[str]] | None, name: str) -> list[float]:
    row = table_row(table or [], name)
    if row is None:
        raise ProgramError(f"table row {name!r} not found")
    # FinQA reads a percent cell ("4.7% ( 4.7 % )") as its fraction
    values = [nums[0] / 100 if "%" in c else nums[0] for c, nums in ((c, numbers_in(c)) for c in row[1:]) if nums]
    if not values:
        raise ProgramError(f"table row {name!r} has no numbers")
    return values


def execute_steps(program: str, table: list[list[str]] | None = None) -> list[float | str]:
    """The value of every step (a number, or "yes"/"no" for `greater`)."""
    results: list[float | str] = []

    def arg_value(arg: str) -> float:
        if arg.startswith("#"):
            try:
                v = results[int(arg[1:])]
            except (ValueError, IndexError):
                raise ProgramError(f"reference {arg} before its step") from None
            if isinstance(v, str):
                raise ProgramError(f"reference {arg} is a yes/no result")
            return v
        for conv in (constant, literal):
            v = conv(arg)
            if v is not None:
                return v
        raise ProgramError(f"argument {arg!r} is not a number, constant or #k reference")

    for i, step in enumerate(parse(program)):
        try:
            if step.op == "value":
                results.append(arg_value(step.args[0]))
            elif step.op in TABLE_OPS:
                vals = _row_values(table, step.args[0])
                agg = {"table_sum": sum, "table_max": max, "table_min": min,
                       "table_average": lambda v: sum(v) / len(v)}[step.op]
                results.append(float(agg(vals)))
            else:
                a, b = (arg_value(x) for x in step.args)
                if step.op == "add":
                    results.append(a + b)
                elif step.op == "subtract":
                    results.append(a - b)
                elif step.op == "multiply":
                    results.append(a * b)
                elif step.op == "divide":
                    if b == 0:
                        raise ProgramError("division by zero")
                    results.append(a / b)
                elif step.op == "exp":
                    results.append(float(a ** b))
                else:  # greater
                    results.append("yes" if a > b else "no")
        except ProgramError as exc:
            raise ProgramError(f"step #{i} {step.text()}: {exc}") from None
        except OverflowError:
            raise ProgramError(f"step #{i} {step.text()}: overflow") from None
    return results


def execute(program: str, table: list[list[str]] | None = None) -> float | str:
    return execute_steps(program, table)[-1]


def same_value(a: float, b: float) -> bool:
    """FinQA's executed answers are rounded to 5 decimals: equal up to that rounding."""
    return abs(a - b) <= max(1e-5, 1e-6 * max(abs(a), abs(b)))

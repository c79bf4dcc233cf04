"""The outputs of `score`, written together and atomically: results.jsonl (streamed), details.parquet,
summary.csv, report.md, results.json and report.html."""

from __future__ import annotations

import array
import contextlib
import json
import os
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from tw_fin_eval.answers import extract
from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import AtomicFiles, OutputFolder, dumps, dumps_strict, locked_temp
from tw_fin_eval.reports import results_doc
from tw_fin_eval.reports.markdown import report_markdown
from tw_fin_eval.reports.summary import _ratio, csv_text, summary_rows
from tw_fin_eval.scoring import scorers
from tw_fin_eval.scoring.engine import Outcome


class DetailsSpool:
    """The per-item details (question, gold, response, think) written to a temporary file while scoring runs,
    so that memory does not grow with the responses; `write_outputs` merges them into results.jsonl. Also
    counts the zh-TW purity of the responses (share with Simplified characters or PRC terms) per subset,
    when the rule checker can load its s2tw table (committed; opencc only if the table is missing)."""

    def __init__(self) -> None:
        # in the system's temporary folder: --out is created only when the outputs are written
        # (locked while we live: the next run removes one a SIGKILL left behind — jsonl.locked_temp)
        fd, self.path, self._lock = locked_temp(tempfile.gettempdir(), "tw_fin_eval_details.", ".jsonl.tmp")
        self._fh = os.fdopen(fd, "w", encoding="utf-8")
        self._check: Callable[[str], list] | None = None
        try:
            from tw_fin_eval.zhcheck.rules import check_zh

            check_zh("測試")  # loads the s2tw table and the glossary now: without them purity is not measured
            self._check = check_zh
        except (ImportError, InputError, OSError):  # the scorer itself needs neither
            pass
        self.purity_counts: dict[str, Counter] = defaultdict(Counter)
        self._pending: list[tuple[str, str]] = []
        self._pending_chars = 0

    def __call__(self, item: scorers.ItemResult, details: dict[str, Any]) -> None:
        lang = details.pop("lang", None)
        self._fh.write(dumps(details) + "\n")
        text = details.get("response")
        if self._check is not None and lang in (None, "zh-TW") and isinstance(text, str) and text.strip():
            self._pending.append((results_doc.config_name(item.dataset), text))
            self._pending_chars += len(text)
            if self._pending_chars >= self.BATCH_CHARS:
                self._check_pending()

    # Responses are checked in batches joined by blank lines (no finding spans one): most batches are clean,
    # and a clean batch costs one call instead of hundreds; a batch with a finding is checked one by one.
    BATCH_CHARS = 15_000

    def _check_pending(self) -> None:
        batch, self._pending, self._pending_chars = self._pending, [], 0
        if not batch:
            return
        assert self._check is not None
        clean = not self._check("\n\n".join(text for _, text in batch))
        for name, text in batch:
            c = self.purity_counts[name]
            c["responses"] += 1
            findings = [] if clean else self._check(text)
            if findings:
                c["impure"] += 1
                rules = {f.rule for f in findings}
                c["simplified"] += "simplified" in rules
                c["prc_terms"] += "prc_term" in rules

    def purity(self) -> dict[str, Any] | None:
        if self._check is None:
            return None
        self._check_pending()
        subsets = {}
        for name, c in sorted(self.purity_counts.items()):
            subsets[name] = {"responses": c["responses"], "with_findings": c["impure"],
                             "with_simplified": c["simplified"], "with_prc_terms": c["prc_terms"],
                             "impure_share": _ratio(c["impure"], c["responses"])}
        total = sum(c["responses"] for c in self.purity_counts.values())
        impure = sum(c["impure"] for c in self.purity_counts.values())
        return {"responses": total, "with_findings": impure, "impure_share": _ratio(impure, total),
                "pure_share": None if not total else 1 - impure / total, "subsets": subsets,
                "rule": "a visible response (think removed) with a Simplified character or a PRC term "
                        "(tw-fin-eval check-zh rules) is impure"}

    def lines(self) -> Iterator[str]:
        """Read back through the open descriptor, not the path: a temporary-file cleaner that removes the
        file meanwhile (seen with parallel test runs sharing /tmp) cannot lose the details."""
        self._fh.flush()
        fd = os.dup(self._fh.fileno())
        os.lseek(fd, 0, os.SEEK_SET)
        with open(fd, encoding="utf-8") as fh:
            yield from fh

    def close(self) -> None:
        if not self._fh.closed:
            self._fh.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        if self._lock is not None:
            with contextlib.suppress(OSError):
                os.close(self._lock)
            self._lock = None


def _result_lines(outcome: Outcome, spool: DetailsSpool | None) -> Iterator[tuple[str, dict[str, Any], str | None]]:
    """(results.jsonl line, verdict fields, details JSON) per unit: the verdict fields, then (when a spool is
    given) question, gold, response, think."""
    details = spool.lines() if spool is not None else None
    for it in outcome.items:
        obj = it.to_json()
        head = dumps(obj)
        if details is None:
            yield head + "\n", obj, None
            continue
        extra = next(details)
        yield (head[:-1] + "," + extra[1:] if extra.strip() != "{}" else head + "\n"), obj, extra


PARQUET_COLUMNS = [("id", "string"), ("turn", "int64"), ("dataset", "string"), ("task_type", "string"),
                   ("category", "string"), ("subcategory", "string"), ("difficulty", "string"),
                   ("status", "string"), ("correct", "bool_"), ("upstream_correct", "bool_"),
                   ("gold_status", "string"), ("mode", "string"), ("extracted", "string"),
                   ("decided_by", "string"), ("match_path", "string"), ("score", "float64"),
                   ("step_recall", "float64"), ("finish_reason", "string"), ("reason", "string"),
                   ("question", "string"), ("gold_answer", "string"), ("gold_value", "float64"),
                   ("response", "string"), ("think", "string"), ("judge_verdict", "string"),
                   ("failure_kind", "string"), ("failure_why", "string")]


def _parquet_row(obj: dict[str, Any], extra: str | None) -> dict[str, Any]:
    d = json.loads(extra) if extra else {}
    g = d.get("gold") or {}
    answer = g.get("answer") if g.get("answer") is not None else g.get("answer_text")
    v = g.get("answer_value")
    return {**{name: obj.get(name) for name, _ in PARQUET_COLUMNS}, "question": d.get("question"),
            "response": d.get("response"), "think": d.get("think"),
            "gold_answer": None if answer is None else str(answer),
            "gold_value": float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None,
            "score": None if obj.get("score") is None else float(obj["score"]),
            "judge_verdict": None if obj.get("judge_verdict") is None else dumps(obj["judge_verdict"])}


def _bitmap(flags: Sequence[bool]) -> bytes:
    out = bytearray((len(flags) + 7) // 8)
    for i, f in enumerate(flags):
        if f:
            out[i >> 3] |= 1 << (i & 7)
    return bytes(out)


def _arrow_column(pa: Any, kind: str, values: Sequence[Any]) -> Any:
    """An Arrow array from Python values, built from its buffers: pa.array() would import pandas (0.3 s of
    a 2 s scoring run) only to check whether the values are a DataFrame."""
    n = len(values)
    present = [v is not None for v in values]
    nulls = n - sum(present)
    validity = pa.py_buffer(_bitmap(present)) if nulls else None
    if kind == "string":
        data = [b"" if v is None else str(v).encode("utf-8") for v in values]
        offsets = array.array("i", [0])
        for d in data:
            offsets.append(offsets[-1] + len(d))
        return pa.Array.from_buffers(pa.string(), n, [validity, pa.py_buffer(offsets.tobytes()),
                                                      pa.py_buffer(b"".join(data))], null_count=nulls)
    if kind == "bool_":
        return pa.Array.from_buffers(pa.bool_(), n, [validity, pa.py_buffer(_bitmap([bool(v) for v in values]))],
                                     null_count=nulls)
    code, typ = {"int64": ("q", pa.int64()), "float64": ("d", pa.float64())}[kind]
    data = array.array(code, [0 if v is None else v for v in values])
    return pa.Array.from_buffers(typ, n, [validity, pa.py_buffer(data.tobytes())], null_count=nulls)


class _ParquetSink:
    """details.parquet written in batches beside results.jsonl (memory stays flat). pyarrow writes the file by
    name: `target` is a temporary that AtomicFiles renames into place with the other outputs."""

    def __init__(self, target: str | os.PathLike, batch: int = 5000) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        self._pa, self.batch = pa, batch
        self.schema = pa.schema([(name, getattr(pa, kind)()) for name, kind in PARQUET_COLUMNS])
        self.writer = pq.ParquetWriter(str(target), self.schema, compression="zstd")
        self.cols: dict[str, list[Any]] = {name: [] for name, _ in PARQUET_COLUMNS}
        self.rows = 0

    def add(self, obj: dict[str, Any], extra: str | None) -> None:
        for name, value in _parquet_row(obj, extra).items():
            self.cols[name].append(value)
        self.rows += 1
        if self.rows >= self.batch:
            self._flush()

    def _flush(self) -> None:
        if self.rows:
            pa = self._pa
            arrays = [_arrow_column(pa, kind, self.cols[name]) for name, kind in PARQUET_COLUMNS]
            self.writer.write_table(pa.Table.from_arrays(arrays, schema=self.schema))
            self.cols = {name: [] for name, _ in PARQUET_COLUMNS}
            self.rows = 0

    def finish(self) -> None:
        try:
            self._flush()
        finally:
            self.writer.close()


ERROR_EXAMPLES_PER_SUBSET = 12
ERROR_EXAMPLES_PER_CELL = 2


class ErrorExamples:
    """Worked wrong answers for report.html, collected while results.jsonl is streamed: per subset, at most
    ERROR_EXAMPLES_PER_CELL per (failure kind, category) cell in file order, then a round-robin over the cells
    (stratified over categories and failure kinds), and the count of every wrong unit per failure kind."""

    def __init__(self) -> None:
        self.cells: dict[str, dict[tuple[str, str], list[dict[str, Any]]]] = defaultdict(dict)
        self.counts: dict[str, Counter] = defaultdict(Counter)

    def add(self, obj: dict[str, Any], extra: str | None) -> None:
        kind = obj.get("failure_kind")
        if kind is None:
            return
        name = results_doc.config_name(obj.get("dataset"))
        self.counts[name][kind] += 1
        cell = self.cells[name].setdefault((kind, str(obj.get("category") or obj.get("subcategory") or "")), [])
        if len(cell) < ERROR_EXAMPLES_PER_CELL:
            d = json.loads(extra) if extra else {}
            cell.append({**{k: obj.get(k) for k in ("id", "turn", "category", "subcategory", "difficulty",
                                                     "extracted", "reason", "failure_kind", "failure_why")},
                         "question": d.get("question"), "gold": gold_text(d.get("gold")),
                         "answer_line": answer_line(d.get("response"))})

    def doc(self) -> dict[str, Any]:
        out = {}
        for name, cells in self.cells.items():
            queues = [cells[k] for k in sorted(cells)]
            picked: list[dict[str, Any]] = []
            for k in range(ERROR_EXAMPLES_PER_CELL):
                picked += [q[k] for q in queues if k < len(q)]
            out[name] = {"wrong": sum(self.counts[name].values()),
                         "by_kind": dict(self.counts[name].most_common()),
                         "examples": picked[:ERROR_EXAMPLES_PER_SUBSET]}
        return out


def answer_line(response: str | None) -> str | None:
    """The model's answer line as shown in the error analysis: 「答案：…」's line when there is one, else the last
    non-empty line of the visible response."""
    if not response:
        return None
    seg = extract.answer_segment(response)
    if seg is not None:
        first = seg.strip().splitlines()[0] if seg.strip() else ""
        return ("答案：" + first)[:300]
    lines = [x for x in response.strip().splitlines() if x.strip()]
    return lines[-1][:300] if lines else None


def gold_text(g: dict[str, Any] | None) -> str | None:
    g = g or {}
    for k in ("answer", "answer_text", "reference_answer"):
        v = g.get(k)
        if isinstance(v, list):
            return ",".join(map(str, v))
        if v not in (None, ""):
            return str(v)
    v = g.get("answer_value")
    return None if v is None else f"{v:.12g}"


OUTPUT_NAMES = ("results.jsonl", "summary.csv", "report.md", "results.json", "report.html", "details.parquet")


def write_outputs(out_dir: str | os.PathLike | OutputFolder, outcome: Outcome, *, inputs: dict[str, Any],
                  spool: DetailsSpool | None = None) -> dict[str, Path]:
    """Every output is written into a staging folder beside `out_dir`, which then replaces the folder in one
    atomic swap (jsonl.OutputFolder: readers see the old report or the new one, never a mix; other files in
    the folder, like the judge cache, are kept). An error leaves the old report untouched. `out_dir` may be
    an OutputFolder the caller already locked (score locks --out before judging). results.jsonl is streamed
    (constant memory)."""
    folder = out_dir if isinstance(out_dir, OutputFolder) else OutputFolder(out_dir)
    with folder.replace(OUTPUT_NAMES) as stage:
        paths = _write_outputs(stage, outcome, inputs=inputs, spool=spool)
    return {k: folder.path / p.name for k, p in paths.items()}


def _write_outputs(out: Path, outcome: Outcome, *, inputs: dict[str, Any],
                   spool: DetailsSpool | None) -> dict[str, Path]:
    from tw_fin_eval.reports import html as html_report

    rows = summary_rows(outcome.items)
    model = outcome.issues.run_models[0] if len(outcome.issues.run_models) == 1 else ""
    for r in rows:
        r["model"] = model
    doc = results_doc.build(outcome, rows, inputs=inputs, purity=spool.purity() if spool is not None else None)
    summary = csv_text(rows)
    report = report_markdown(outcome, rows, inputs=inputs, doc=doc)
    examples = ErrorExamples()
    paths = {"results": out / "results.jsonl", "summary": out / "summary.csv", "report": out / "report.md",
             "results_json": out / "results.json", "html": out / "report.html"}
    parquet: _ParquetSink | None = None
    # every temporary file is complete and fsynced before any is renamed into place
    with AtomicFiles() as files:
        try:
            parquet = _ParquetSink(files.reserve(out / "details.parquet"))
            paths["parquet"] = out / "details.parquet"
        except ImportError:  # pyarrow is optional for scoring
            pass

        def lines() -> Iterator[str]:
            for line, obj, extra in _result_lines(outcome, spool):
                if parquet is not None:
                    parquet.add(obj, extra)
                examples.add(obj, extra)
                yield line

        try:
            files.write_lines(paths["results"], lines())
        finally:
            if parquet is not None:
                parquet.finish()
        page = html_report.render_report(doc, rows, errors=examples.doc(),
                                         details="details.parquet" if "parquet" in paths else "results.jsonl")
        for key, text in (("summary", summary), ("report", report), ("html", page),
                          ("results_json", dumps_strict(doc, indent=2, note_key="notes") + "\n")):
            files.write_text(paths[key], text)
    return paths


def dumps_pretty(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=2)

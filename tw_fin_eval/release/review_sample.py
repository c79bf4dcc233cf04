"""`tw-fin-eval review-sample`: the stratified human review sheet 人工抽審表_review_sample.csv.

346 rows (by default) over the translated subsets — FinQA-TW, ConvFinQA-TW, FinanceAgent-TW — with the
English and the zh-TW side by side and empty reviewer columns (審閱者, 判定, 意見). UTF-8 with BOM, so Excel
opens it cleanly. The file embeds source text: it is git-ignored.

How the rows are drawn:
- strata are (subset, subcategory): FinQA's kind of calculation, ConvFinQA's 單題拆解/雙題組合,
  FinanceAgent's question type;
- the sample size is split over subsets in proportion to their *full* size and then over strata in
  proportion to the stratum's full size (the English sources give the full population; without them
  the translated records stand in), largest remainder first;
- ConvFinQA is sampled **one row per conversation**: its turns depend on each other and share one
  table, so a reviewer judges the conversation as a whole (all turns listed in one cell);
- within a stratum, records are drawn with `random.Random(f"{seed}:{subset}:{stratum}")` from the
  id-sorted translated records: the same seed and data give the same sheet;
- a stratum with fewer translated items than its quota gives what exists; the shortfall is printed.
"""

from __future__ import annotations

import argparse
import csv
import random
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tw_fin_eval import paths, subsets
from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import atomic_writer, iter_jsonl

DEFAULT_SIZE = 346
DEFAULT_SEED = 1
OUT_NAME = "人工抽審表_review_sample.csv"
SUBSETS = tuple(s.name for s in subsets.reviewed())  # the translated subsets, in sheet order
CELL_LIMIT = 32_000  # Excel refuses cells over 32,767 characters
COLUMNS = [
    "序號 No", "子集 Subset", "id", "原始 id Source id", "類別 Category", "子類別 Subcategory",
    "英文題目 Question (EN)", "繁中題目 Question (zh-TW)",
    "英文表格 Table (EN)", "繁中表格 Table (zh-TW)",
    "英文證據 Evidence (EN)", "繁中證據 Evidence (zh-TW)",
    "英文參考答案與評分要點 Answer/rubric (EN)", "繁中參考答案與評分要點 Answer/rubric (zh-TW)",
    "標準答案 Gold", "審閱者", "判定", "意見",
]


@dataclass
class Stratum:
    subset: str
    name: str
    population: int
    quota: int = 0
    taken: int = 0

    @property
    def shortfall(self) -> int:
        return max(0, self.quota - self.taken)


def largest_remainder(total: int, weights: dict[str, int]) -> dict[str, int]:
    """Split `total` in proportion to `weights` (integers summing to `total`; ties by key order)."""
    s = sum(weights.values())
    if s == 0 or total <= 0:
        return {k: 0 for k in weights}
    exact = {k: total * w / s for k, w in weights.items()}
    out = {k: int(v) for k, v in exact.items()}
    order = sorted(weights, key=lambda k: (-(exact[k] - out[k]), list(weights).index(k)))
    for k in order[: total - sum(out.values())]:
        out[k] += 1
    return out


def source_strata(sources: Path) -> dict[str, Counter]:
    """Full population per stratum, from the English sources (ungrounded items left out as in the build)."""
    out: dict[str, Counter] = {}
    for spec in subsets.reviewed():
        items = [it for it in spec.load_source(sources) if not it.fields.get("ungrounded")]
        out[spec.name] = Counter(spec.review_stratum(it) for it in items)
    return out


def _read(data_dir: Path, subset: str) -> list[dict[str, Any]]:
    path = data_dir / subsets.get_spec(subset).data_file
    if not path.is_file():
        return []
    return [rec for _, rec in iter_jsonl(path)]


def _cell(text: str) -> str:
    return text if len(text) <= CELL_LIMIT else text[: CELL_LIMIT - 20] + "\n…（截斷 truncated）"


def _table(table: list[list[str]] | None) -> str:
    return "\n".join(" | ".join(str(c) for c in row) for row in table or [])


def _lines(items: list[str], numbered: bool = False) -> str:
    return "\n".join(f"{i}. {t}" if numbered else f"- {t}" for i, t in enumerate(items, 1))


def _rubric(rubric: list[dict[str, Any]] | None) -> str:
    return _lines([f"[{r.get('operator')}] {r.get('criteria')}" for r in rubric or []], numbered=True)


def _gold(rec: dict[str, Any]) -> str:
    def one(x: dict[str, Any]) -> str:
        if x.get("answer_text") is not None and x.get("answer_value") is None:
            return str(x["answer_text"])
        return str(x.get("answer") if x.get("answer") is not None else x.get("answer_value"))

    if rec.get("turns"):
        return _lines([one(t) for t in rec["turns"]], numbered=True)
    if rec.get("task_type") in subsets.reference_text_task_types():
        return "（見參考答案 see reference answer）"
    return one(rec)


def row_for(rec: dict[str, Any]) -> dict[str, str]:
    en = rec.get("original_en") or {}
    ctx = rec.get("context") or {}
    subset = rec.get("dataset", "")
    if rec.get("turns"):
        q_en = _lines(en.get("questions") or [t.get("question_en", "") for t in rec["turns"]], numbered=True)
        q_zh = _lines([t.get("question", "") for t in rec["turns"]], numbered=True)
    else:
        q_en, q_zh = en.get("question", ""), rec.get("question", "")
    ans_en = ans_zh = ""
    if rec.get("rubric") is not None or en.get("rubric") is not None:
        ans_en = f"Answer:\n{en.get('answer', '')}\n\nRubric:\n{_rubric(en.get('rubric'))}"
        ans_zh = f"參考答案：\n{rec.get('answer', '')}\n\n評分要點：\n{_rubric(rec.get('rubric'))}"
    elif en.get("answer") is not None:  # FinQA: the upstream human answer string, next to the gold
        ans_en = f"Answer: {en['answer']}"
    ev_en = [e.get("text", "") if isinstance(e, dict) else str(e) for e in en.get("evidence") or []]
    values = {
        "子集 Subset": subset,
        "id": rec.get("id", ""),
        "原始 id Source id": (rec.get("source") or {}).get("orig_id", ""),
        "類別 Category": rec.get("category") or "",
        "子類別 Subcategory": rec.get("subcategory") or "",
        "英文題目 Question (EN)": q_en,
        "繁中題目 Question (zh-TW)": q_zh,
        "英文表格 Table (EN)": _table(en.get("table")),
        "繁中表格 Table (zh-TW)": _table(ctx.get("table")),
        "英文證據 Evidence (EN)": _lines(ev_en),
        "繁中證據 Evidence (zh-TW)": _lines(list(ctx.get("evidence") or [])),
        "英文參考答案與評分要點 Answer/rubric (EN)": ans_en,
        "繁中參考答案與評分要點 Answer/rubric (zh-TW)": ans_zh,
        "標準答案 Gold": _gold(rec),
        "審閱者": "", "判定": "", "意見": "",
    }
    return {k: _cell(v) for k, v in values.items()}


def draw(data_dir: Path, *, size: int = DEFAULT_SIZE, seed: int = DEFAULT_SEED,
         population: dict[str, Counter] | None = None) -> tuple[list[dict[str, Any]], list[Stratum]]:
    """The sampled records (sheet order) and the strata with their quotas and what was taken."""
    records = {s: _read(data_dir, s) for s in SUBSETS}
    if not any(records.values()):
        raise InputError("no translated records to sample (run `tw-fin-eval build` first)", path=data_dir)
    by_stratum: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for s, recs in records.items():
        for r in recs:
            by_stratum[(s, r.get("subcategory") or "")].append(r)
    if population is None:  # no sources: the translated records stand in for the population
        population = {s: Counter(r.get("subcategory") or "" for r in recs) for s, recs in records.items()}
    subset_quota = largest_remainder(size, {s: sum(population.get(s, Counter()).values()) for s in SUBSETS})
    strata: list[Stratum] = []
    picked: list[dict[str, Any]] = []
    for s in SUBSETS:
        pop = population.get(s, Counter())
        names = sorted(pop)
        quotas = largest_remainder(subset_quota[s], {n: pop[n] for n in names})
        for n in names:
            st = Stratum(s, n, pop[n], quotas[n])
            pool = sorted(by_stratum.get((s, n), []), key=lambda r: r["id"])
            take = min(st.quota, len(pool))
            picked.extend(random.Random(f"{seed}:{s}:{n}").sample(pool, take))
            st.taken = take
            strata.append(st)
    order = {s: i for i, s in enumerate(SUBSETS)}
    subset_of = {subsets.get_spec(s).dataset: s for s in SUBSETS}
    picked.sort(key=lambda r: (order.get(subset_of.get(r.get("dataset"), ""), 99), r["id"]))
    return picked, strata


def write_sheet(path: Path, records: list[dict[str, Any]]) -> None:
    from tw_fin_eval.jsonl import safe_csv_cell  # a cell starting with = + - @ is not a formula

    with atomic_writer(path, encoding="utf-8-sig", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS, quoting=csv.QUOTE_ALL)
        writer.writeheader()
        for i, rec in enumerate(records, 1):
            writer.writerow({k: safe_csv_cell(v) for k, v in {"序號 No": str(i), **row_for(rec)}.items()})


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", default=str(paths.DATA_DIR), help="folder of built records (default: %(default)s)")
    parser.add_argument("--out", default=str(paths.REPO_ROOT / OUT_NAME), help="CSV to write (default: %(default)s)")
    parser.add_argument("--size", type=int, default=DEFAULT_SIZE, help="rows to draw (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="random seed (default: %(default)s)")
    parser.add_argument("--sources", help="English sources, for the full stratum sizes (default: as for build)")
    parser.add_argument("--no-sources", action="store_true",
                        help="use the translated records as the population (no English sources needed)")


def main(args: argparse.Namespace) -> int:
    if args.size <= 0:
        raise InputError(f"--size must be positive, got {args.size}")
    population = None
    if not args.no_sources:
        population = source_strata(paths.sources_dir(args.sources))
    records, strata = draw(Path(args.data), size=args.size, seed=args.seed, population=population)
    write_sheet(Path(args.out), records)
    for s in SUBSETS:
        mine = [st for st in strata if st.subset == s]
        quota, taken = sum(st.quota for st in mine), sum(st.taken for st in mine)
        line = f"{subsets.get_spec(s).dataset:<16} {taken:>4}/{quota} rows"
        short = [st for st in mine if st.shortfall]
        if short:
            line += " — short: " + ", ".join(f"{st.name} {st.shortfall}" for st in short)
        print(line)
    total_short = sum(st.shortfall for st in strata)
    print(f"wrote {args.out} ({len(records)} rows, seed {args.seed})"
          + (f"; {total_short} rows short of {args.size}: not enough translated items yet" if total_short else ""))
    return 0

"""Where records come from: a JSONL file (standard library only), a parquet file, a release folder with a
config name, or a Hugging Face Hub dataset id. The runner's `--data`, batch export and the lm-eval tasks
all read through here, so a record is the same dict whichever form it was published in.

    JSONL      data/finqa_tw_test.jsonl                     iter_jsonl (stdlib)
    parquet    hf_release/data/finqa/test-00000-of-00001.parquet   pyarrow
    release    hf_release  + config finqa                   hf_release/data/finqa/*.parquet (pyarrow)
    Hub id     APMIC/tw_fin_eval_basic + config finqa        datasets.load_dataset(id, config, split="test")

Errors name the file and line (JSONL) or row (parquet), and say what to do: a directory that is not a
release, a release without a config, a Hub id while offline or without `datasets` installed."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import iter_jsonl

RELEASE_DATA_DIR = "data"  # <release>/data/<config>/*.parquet (tw_fin_eval/release/writer.py)
RELEASE_SPLIT = "test"
DEFAULT_HUB_ID = "APMIC/tw_fin_eval_basic"
_HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$")
_OFFLINE_ENV = ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE")
JSONL, PARQUET, RELEASE, HUB = "jsonl", "parquet", "release", "hub"


@dataclass(frozen=True)
class Source:
    """One readable unit of records: a file, or one config of a release folder or Hub dataset."""
    kind: str
    location: str  # the path or Hub id as the user gave it
    config: str | None = None
    files: tuple[str, ...] = ()  # parquet files of a release config

    @property
    def label(self) -> str:
        return f"{self.location} (config {self.config})" if self.config else self.location

    @property
    def local_files(self) -> list[Path]:
        """The files on disk this source reads (empty for a Hub dataset)."""
        if self.kind in (JSONL, PARQUET):
            return [Path(self.location)]
        return [Path(f) for f in self.files]


def _offline() -> bool:
    return any(os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"} for name in _OFFLINE_ENV)


def release_configs(folder: str | os.PathLike) -> list[str]:
    """The configs of a release folder: the subfolders of <folder>/data holding parquet files."""
    data = Path(folder) / RELEASE_DATA_DIR
    if not data.is_dir():
        return []
    return sorted(p.name for p in data.iterdir() if p.is_dir() and any(p.glob("*.parquet")))


def _split_configs(configs: Sequence[str] | str | None) -> list[str]:
    if configs is None:
        return []
    items = [configs] if isinstance(configs, str) else list(configs)
    out: list[str] = []
    for item in items:
        out.extend(c.strip() for c in str(item).split(",") if c.strip() and c.strip() not in out)
    return out


def resolve(spec: str, configs: Sequence[str] | str | None = None) -> list[Source]:
    """The sources `spec` names. `configs` (names, or one comma-separated string) picks the configs of a
    release folder or Hub id; it is not used for a plain file."""
    names = _split_configs(configs)
    path = Path(spec)
    if path.is_file():
        kind = PARQUET if path.suffix.lower() == ".parquet" else JSONL
        return [Source(kind, spec)]
    if path.is_dir():
        available = release_configs(path)
        if not available:
            parquet = sorted(str(p) for p in path.glob("*.parquet"))
            if parquet:  # <release>/data/<config>/ given directly
                return [Source(RELEASE, spec, path.name, tuple(parquet))]
            raise InputError("is a directory, not a data file or a release folder (no data/<config>/*.parquet "
                             "in it); give the files, e.g. data/*.jsonl", path=spec)
        if not names:
            raise InputError(f"is a directory: a release folder needs --config (one or more of "
                             f"{', '.join(available)})", path=spec)
        out = []
        for name in names:
            if name not in available:
                raise InputError(f"release folder has no config {name!r} (it has {', '.join(available)})",
                                 path=spec)
            files = sorted(str(p) for p in (path / RELEASE_DATA_DIR / name).glob("*.parquet"))
            out.append(Source(RELEASE, spec, name, tuple(files)))
        return out
    if _HUB_ID.match(spec) and not spec.endswith((".jsonl", ".json", ".parquet")):
        if not names:
            raise InputError("a Hub dataset id needs --config (e.g. finqa, convfinqa, finchain, financeagent)",
                             path=spec)
        return [Source(HUB, spec, name) for name in names]
    raise InputError("file not found", path=spec)


def resolve_all(specs: Sequence[str], configs: Sequence[str] | str | None = None) -> list[Source]:
    out: list[Source] = []
    for spec in specs:
        for src in resolve(spec, configs):
            if src not in out:
                out.append(src)
    return out


def iter_records(source: Source) -> Iterator[tuple[str, int, dict[str, Any]]]:
    """Yield (where, number, record): `where` names the file (or Hub dataset), `number` is the JSONL line
    or the 1-based parquet row, so errors can point at it."""
    if source.kind == JSONL:
        for line, rec in iter_jsonl(source.location):
            yield source.location, line, rec
    elif source.kind in (PARQUET, RELEASE):
        for f in source.local_files:
            for row, rec in enumerate(_parquet_rows(f), 1):
                yield str(f), row, rec
    elif source.kind == HUB:
        for row, rec in enumerate(_hub_rows(source.location, source.config or ""), 1):
            yield source.label, row, rec
    else:  # pragma: no cover - Source is built by resolve()
        raise ValueError(source.kind)


def read_records(source: Source) -> list[dict[str, Any]]:
    return [rec for _, _, rec in iter_records(source)]


def _parquet_rows(path: Path) -> Iterator[dict[str, Any]]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError("reading parquet needs the `pyarrow` package (pip install pyarrow); "
                         "JSONL input needs nothing", path=path) from None
    try:
        pf = pq.ParquetFile(path)
    except Exception as exc:  # pyarrow raises several types for a file that is not parquet
        raise InputError(f"not a readable parquet file ({type(exc).__name__}: {str(exc)[:160]})", path=path) from None
    for batch in pf.iter_batches(batch_size=512):
        yield from batch.to_pylist()


def _hub_rows(repo_id: str, config: str) -> Iterator[dict[str, Any]]:
    where = f"{repo_id} (config {config})"
    try:
        import datasets
    except ImportError:
        raise InputError("is not a local file or folder; reading a Hub dataset id needs the `datasets` package "
                         "(pip install datasets), or download the release and give its folder", path=repo_id) from None
    try:
        ds = datasets.load_dataset(repo_id, config, split=RELEASE_SPLIT)
    except Exception as exc:  # datasets raises many types (connection, not found, offline)
        reason = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
        if _offline():
            raise InputError("is not a local file or folder and the Hub is offline (HF_HUB_OFFLINE / "
                             "HF_DATASETS_OFFLINE is set) with no cached copy; download the release first and give "
                             f"its folder with --config ({reason})", path=where) from None
        raise InputError(f"cannot load this Hub dataset ({reason}); check the id and config, your network, "
                         "or download the release and give its folder", path=where) from None
    yield from ds


def expand_globs(patterns: Sequence[str]) -> list[str]:
    """Shell-style globs expanded here too (quoted patterns, Windows shells); sorted, unique. A pattern
    that matches nothing is an error; a name without wildcards is kept as given (a path or a Hub id)."""
    import glob

    out: list[str] = []
    for p in patterns:
        hits = sorted(glob.glob(p)) if any(ch in p for ch in "*?[") else [p]
        if not hits:
            raise InputError("no file matches", path=p)
        out.extend(h for h in hits if h not in out)
    return out


# The fields a sample is stratified by: the subcategory (FinChain topic, FinQA calculation type, ConvFinQA
# single/double, FinanceAgent question type, FinSearchComp region), difficulty (FinChain) and category (FinSearchComp
# tier, FinChain domain). Generic record fields: no per-subset branches. A file's strata are nested coarsest first
# (the field with the fewest distinct values is the first level); fields with one value are skipped.
SAMPLE_KEYS = ("subcategory", "difficulty", "category")
PROPORTIONAL, EQUAL = "proportional", "equal"
ALLOCATIONS = (PROPORTIONAL, EQUAL)
DEFAULT_SAMPLE_SEED = 0


@dataclass
class Sampling:
    """How the records of one data file were chosen — written into every runs line (`line_fields`) and read
    back by `score` into results.json, so a report says what its accuracy estimates.

    `method`: "all" (every record), "first" (--limit alone: the first N, not a random sample), "proportional"
    (stratified, self-weighting: each stratum's share of the sample is its share of the file, largest-remainder
    rounding) or "equal" (the same count per first-level stratum; the report weights each stratum by its
    share of the file). `strata`: first-level stratum value → [records in the file, records sampled]."""
    method: str
    population: int  # records the sample was drawn from (after --limit)
    size: int  # records chosen
    request: dict[str, Any] = field(default_factory=dict)  # sample, allocation, seed, limit as asked
    key: str | None = None  # the first-level stratum field (None: one stratum)
    levels: tuple[str, ...] = ()  # every nesting level, coarsest first
    strata: dict[str, list[int]] = field(default_factory=dict)

    def line_fields(self, record: dict[str, Any]) -> dict[str, Any]:
        """The `sampling` object of a runs line for `record`: what was asked (`DESIGN_FIELDS`, the same on every
        line of a run), what it gave for this file, and this record's first-level stratum with its population,
        sample count and weight (the records of the file it stands for)."""
        out: dict[str, Any] = {**{k: self.request.get(k) for k in DESIGN_FIELDS}, "method": self.method,
                               "levels": list(self.levels), "population": self.population, "size": self.size}
        if self.key is not None:
            value = stratum_value(record, self.key)
            pop, got = self.strata[value]
            out.update(stratum_key=self.key, stratum=value, stratum_population=pop, stratum_sample=got,
                       weight=pop / got)
        elif self.size:
            out["weight"] = self.population / self.size
        return out


# what a run asked for: a resume with other values would mix two samples in one runs file
DESIGN_FIELDS = ("sample", "allocation", "sample_seed", "limit")


def stratum_value(record: dict[str, Any], key: str) -> str:
    value = record.get(key)
    return "" if value is None else str(value)


def _levels(records: Sequence[dict[str, Any]], items: Sequence[int]) -> tuple[str, ...]:
    """SAMPLE_KEYS with more than one value among `items`, coarsest (fewest values) first."""
    counts = {k: len({stratum_value(records[i], k) for i in items}) for k in SAMPLE_KEYS}
    return tuple(sorted((k for k in SAMPLE_KEYS if counts[k] > 1), key=lambda k: (counts[k], SAMPLE_KEYS.index(k))))


def allocate(quota: int, sizes: Sequence[int], *, equal: bool = False, order: Sequence[int] | None = None) -> list[int]:
    """Seats per group: proportional to `sizes` (or equal shares, `equal`), largest-remainder rounding, each group
    capped at its size, and at least one per group only when `quota` allows (quota ≥ number of groups). Ties go
    to the group that comes first in `order` (a seeded shuffle). Exact integer arithmetic.

    >>> allocate(10, [66, 17, 9, 8])
    [6, 2, 1, 1]
    >>> allocate(3, [66, 17, 9, 8])
    [2, 1, 0, 0]
    >>> allocate(6, [100, 10, 10], equal=True)
    [2, 2, 2]
    """
    k, total = len(sizes), sum(sizes)
    if quota >= total:
        return list(sizes)
    rank = {g: r for r, g in enumerate(order if order is not None else range(k))}
    seats = [1 if quota >= k and sizes[g] else 0 for g in range(k)]
    weights, wsum = ([1] * k, k) if equal else (list(sizes), total)
    for _ in range(quota - sum(seats)):
        # the largest deficit quota·w/Σw − seats, compared as integers (× Σw): the floors first, then remainders
        g = max((g for g in range(k) if seats[g] < sizes[g]),
                key=lambda g: (quota * weights[g] - seats[g] * wsum, -rank[g]))
        seats[g] += 1
    return seats


def _stratified(items: list[int], records: Sequence[dict[str, Any]], levels: Sequence[str], quota: int,
                rng: Any, *, equal: bool = False) -> list[int]:
    """`quota` of `items`: allocated over the groups of levels[0] (equal shares when `equal`, else proportional),
    then proportionally within each group over the next level, a seeded simple random sample at the bottom."""
    if quota >= len(items):
        return list(items)
    if not levels:
        return rng.sample(items, quota)
    groups: dict[str, list[int]] = {}
    for i in items:
        groups.setdefault(stratum_value(records[i], levels[0]), []).append(i)
    names = sorted(groups)
    order = list(range(len(names)))
    rng.shuffle(order)
    seats = allocate(quota, [len(groups[n]) for n in names], equal=equal, order=order)
    out: list[int] = []
    for name, q in zip(names, seats):
        out += _stratified(groups[name], records, levels[1:], q, rng)
    return out


def pick(records: Sequence[dict[str, Any]], *, limit: int | None = None, sample: int | None = None,
         seed: int | None = None, allocation: str = PROPORTIONAL) -> list[int]:
    """Which records of one data file to ask (indices, in file order); `choose` also says how."""
    return choose(records, limit=limit, sample=sample, seed=seed, allocation=allocation)[0]


def design_request(*, limit: int | None = None, sample: int | None = None, seed: int | None = None,
                   allocation: str = PROPORTIONAL) -> dict[str, Any]:
    """What was asked (DESIGN_FIELDS), the same for every data file of a run: known before any is read."""
    seed = DEFAULT_SAMPLE_SEED if seed is None else seed
    return {"sample": sample, "allocation": allocation if sample is not None else None,
            "sample_seed": seed if sample is not None else None, "limit": limit}


def choose(records: Sequence[dict[str, Any]], *, limit: int | None = None, sample: int | None = None,
           seed: int | None = None, allocation: str = PROPORTIONAL) -> tuple[list[int], Sampling]:
    """(indices in file order, the sampling design). `limit` keeps the first N; `sample` takes a stratified
    random sample of N over SAMPLE_KEYS (`allocation`: proportional — self-weighting — or equal per first-level
    stratum), the same N for the same seed (default 0) on any machine."""
    import random

    if allocation not in ALLOCATIONS:
        raise InputError(f"unknown sample allocation {allocation!r} (known: {', '.join(ALLOCATIONS)})",
                         field="sample_allocation")
    chosen = list(range(len(records) if limit is None else min(limit, len(records))))
    seed = DEFAULT_SAMPLE_SEED if seed is None else seed
    request = design_request(limit=limit, sample=sample, seed=seed, allocation=allocation)
    if sample is None or sample >= len(chosen):
        method = "all" if len(chosen) == len(records) else "first"
        return chosen, Sampling(method, len(chosen), len(chosen), request)
    rng = random.Random(f"tw_fin_eval-sample:{seed}")
    levels = _levels(records, chosen)
    picked = sorted(_stratified(chosen, records, levels, sample, rng, equal=allocation == EQUAL))
    design = Sampling(allocation, len(chosen), len(picked), request, levels[0] if levels else None, levels)
    if design.key is not None:
        for i in chosen:
            design.strata.setdefault(stratum_value(records[i], design.key), [0, 0])[0] += 1
        for i in picked:
            design.strata[stratum_value(records[i], design.key)][1] += 1
    return picked, design

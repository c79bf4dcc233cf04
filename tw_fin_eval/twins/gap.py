"""The memorisation gap: accuracy on the original FinQA-TW / ConvFinQA-TW units against their twins, paired.

A run that includes twins (`tw-fin-eval twins`) scores each twin unit (`<id>-twin-s<seed>`, turn k) next to
its original (`<id>`, turn k); FinChain-TW units at private seeds (`tw-fin-eval finchain-private`) are paired
with the release's seeds of the same template. Over the units where both were decided (scored or a failed generation; gold not
unanswerable) we report the two accuracies, their difference *original − twin* (positive = the model drops on
new numbers), a seeded paired bootstrap 95% interval (clusters resampled: conversation for ConvFinQA, item
otherwise) and McNemar's exact p-value, per subset and pooled. A reasoning model's gap is ~0 (within the
interval); a model that recalls the public answers drops on the twins.

    >>> from types import SimpleNamespace as It
    >>> items = [It(id=f"q{i}", turn=None, dataset="FinQA-TW", status="scored", correct=True, gold_status="verified",
    ...             cluster=f"q{i}") for i in range(40)]
    >>> items += [It(id=f"q{i}-twin-s7", turn=None, dataset="FinQA-TW-twins", status="scored", correct=i % 4 == 0,
    ...              gold_status="verified", cluster=f"q{i}-twin-s7") for i in range(40)]
    >>> g = compute(items)
    >>> g["subsets"]["finqa"]["n_paired"], round(g["subsets"]["finqa"]["diff"], 2), g["subsets"]["finqa"]["p_value"] < 1e-6
    (40, 0.75, True)
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tw_fin_eval.twins.ids import DATASET_SUFFIX, original_of

PRIVATE_FINCHAIN_DATASET = "FinChain-TW-private"  # twins.finchain.DATASET
DECIDED = ("scored", "error")  # a failed generation counts wrong, as in the headline accuracy
METHOD = ("paired over units where the original and its twin were both decided; diff = original − twin; "
          "percentile bootstrap of the paired differences, clusters resampled with replacement; McNemar exact")


def _counted(it: Any) -> bool:
    return it.status in DECIDED and it.gold_status != "unanswerable" and it.correct is not None


def _config(dataset: str | None) -> str:
    from tw_fin_eval.configs import CONFIGS

    names = {c.dataset: c.name for c in CONFIGS.values()}
    return names.get(dataset or "", dataset or "?")


def _entry(pairs: Sequence[tuple[str, bool, bool]], seed: str, seeds: Iterable[int]) -> dict[str, Any]:
    from tw_fin_eval.reports import stats

    n = len(pairs)
    a = sum(1 for _, x, _ in pairs if x)
    b = sum(1 for _, _, y in pairs if y)
    only_orig = sum(1 for _, x, y in pairs if x and not y)
    only_twin = sum(1 for _, x, y in pairs if y and not x)
    iv = stats.bootstrap(stats.paired_clusters(pairs), seed=seed)
    return {"n_paired": n, "clusters": iv.clusters, "original_accuracy": a / n if n else None,
            "twin_accuracy": b / n if n else None, "diff": iv.estimate, "stderr": iv.stderr,
            "ci95": None if iv.lo is None else [iv.lo, iv.hi], "p_value": stats.mcnemar_exact(only_orig, only_twin),
            "both_right": sum(1 for _, x, y in pairs if x and y), "only_original": only_orig,
            "only_twin": only_twin, "seeds": sorted(set(seeds))}


_PUBLIC_FINCHAIN = re.compile(r"^finchain_tw-\d{4}$")
_PRIVATE_FINCHAIN = re.compile(r"^finchain_tw-.+-s(\d+)$")


def _finchain_pairs(items: list[Any], pairs: dict[str, list[tuple[str, bool, bool]]],
                    seeds: dict[str, set[int]]) -> int:
    """FinChain-TW: the release's seeds against private seeds (`finchain-private`) of the same template, the
    i-th decided unit of each side paired within the template (the cluster); returns the private units seen."""
    public: dict[str, list[Any]] = defaultdict(list)
    private: dict[str, list[Any]] = defaultdict(list)
    seen = 0
    for it in items:
        if it.dataset == PRIVATE_FINCHAIN_DATASET and _PRIVATE_FINCHAIN.match(it.id):
            seen += 1
            if _counted(it):
                private[it.cluster or it.id].append(it)
        elif _PUBLIC_FINCHAIN.match(it.id) and _counted(it):
            public[it.cluster or it.id].append(it)
    for template in sorted(set(public) & set(private)):
        for a, b in zip(sorted(public[template], key=lambda x: x.id), sorted(private[template], key=lambda x: x.id)):
            config = _config(a.dataset)  # the public subset's config name
            pairs[config].append((template, bool(a.correct), bool(b.correct)))
            seeds[config].add(int(_PRIVATE_FINCHAIN.match(b.id).group(1)))
    return seen


def compute(items: Iterable[Any]) -> dict[str, Any] | None:
    """The gap per subset and pooled, or None when the run has no twin units (or none paired)."""
    items = list(items)
    by_key = {(it.id, it.turn): it for it in items}
    pairs: dict[str, list[tuple[str, bool, bool]]] = defaultdict(list)
    seeds: dict[str, set[int]] = defaultdict(set)
    twins_seen = unpaired = 0
    for it in items:
        origin = original_of(it.id)
        if origin is None or not (it.dataset or "").endswith(DATASET_SUFFIX):
            continue
        twins_seen += 1
        orig = by_key.get((origin[0], it.turn))
        if orig is None or not (_counted(orig) and _counted(it)):
            unpaired += 1
            continue
        config = _config(orig.dataset)
        pairs[config].append((orig.cluster or orig.id, bool(orig.correct), bool(it.correct)))
        seeds[config].add(origin[1])
    twins_seen += _finchain_pairs(items, pairs, seeds)
    if not twins_seen:
        return None
    from tw_fin_eval.reports import stats

    subsets = {name: _entry(p, f"{stats.DEFAULT_SEED}:gap:{name}", seeds[name]) for name, p in sorted(pairs.items())}
    pooled = [(f"{name}:{key}", x, y) for name, p in sorted(pairs.items()) for key, x, y in p]
    return {"method": METHOD, "twin_units": twins_seen, "unpaired": unpaired, "subsets": subsets,
            "overall": _entry(pooled, f"{stats.DEFAULT_SEED}:gap:overall", [s for v in seeds.values() for s in v])
            if pooled else None}


def _pct(v: float | None, signed: bool = False) -> str:
    if v is None:
        return "—"
    return f"{100 * v:+.1f}" if signed else f"{100 * v:.1f}%"


def sentence(e: dict[str, Any]) -> str:
    """「drops 6.1 points [3.2, 9.0] on twins (McNemar p = 0.001)」."""
    ci = e.get("ci95")
    band = f" [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]" if ci else ""
    d = e["diff"] or 0.0
    verb = "drops" if d > 0 else "gains" if d < 0 else "changes by"
    return f"{verb} {abs(100 * d):.1f} points{band} on twins (McNemar p = {e['p_value']:.3g}, {e['n_paired']} pairs)"


def rows(gap: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    out = list(gap["subsets"].items())
    if gap.get("overall") and len(out) > 1:
        out.append(("overall", gap["overall"]))
    return out


def markdown(doc: dict[str, Any]) -> list[str]:
    """The report.md section (empty when the run has no twins)."""
    gap = doc.get("memorisation_gap")
    if not gap:
        return []
    out = ["## Memorisation gap (originals vs their twins)", "",
           "| subset | pairs | clusters | original | twins | drop (points) | 95% CI | McNemar p | only original right | "
           "only twin right |", "|---|---|---|---|---|---|---|---|---|---|"]
    for name, e in rows(gap):
        ci = e.get("ci95")
        out.append(f"| {name} | {e['n_paired']} | {e['clusters']} | {_pct(e['original_accuracy'])} | "
                   f"{_pct(e['twin_accuracy'])} | {_pct(e['diff'], True)} | "
                   f"{'' if not ci else f'{100 * ci[0]:+.1f} – {100 * ci[1]:+.1f}'} | {e['p_value']:.3g} | "
                   f"{e['only_original']} | {e['only_twin']} |")
    head = gap.get("overall") or next(iter(gap["subsets"].values()), None)
    out += [""]
    if head:
        out.append(f"This model {sentence(head)}.")
    out += ["A twin asks the same question over the same page with the numbers changed and the gold recomputed "
            "(docs/TWINS.md). A drop whose interval excludes 0 means part of the score on the originals is recall "
            "of the public answers, not reasoning; a gap near 0 is what a reasoning model shows. "
            f"{gap['unpaired']} twin units had no decided original to pair with.", ""]
    return out


def html_parts(doc: dict[str, Any], esc: Callable[[Any], str],
               table: Callable[[Sequence[str], Sequence[Sequence[Any]]], str]) -> list[str]:
    """The report.html section (nothing when the run has no twins), drawn with the report's own `table`."""
    gap = doc.get("memorisation_gap")
    if not gap:
        return []
    trows = []
    for name, e in rows(gap):
        ci = e.get("ci95")
        trows.append([name, e["n_paired"], e["clusters"], _pct(e["original_accuracy"]), _pct(e["twin_accuracy"]),
                      _pct(e["diff"], True), "" if not ci else f"{100 * ci[0]:+.1f} – {100 * ci[1]:+.1f}",
                      f"{e['p_value']:.3g}", e["only_original"], e["only_twin"]])
    head = gap.get("overall") or next(iter(gap["subsets"].values()), None)
    out = ["<h2>記憶落差（Memorisation gap：原題 vs 孿生題 twins）</h2>"]
    if head:
        out.append(f"<p>This model {esc(sentence(head))}.</p>")
    out.append(table(["子集（subset）", "配對數（pairs）", "群集（clusters）", "原題（original）", "孿生題（twins）",
                      "落差（drop, points）", "95% 信賴區間（CI）", "McNemar p", "僅原題答對（only original）",
                      "僅孿生題答對（only twin）"], trows))
    out.append('<p class="note">孿生題（twins）：同一題目與頁面，數字經擾動、標準答案由程式重算（docs/TWINS.md）。'
               "落差的信賴區間不含 0，表示原題分數有一部分來自記憶公開答案而非推理。"
               f"（{esc(gap['unpaired'])} twin units had no decided original to pair with.）</p>")
    return out

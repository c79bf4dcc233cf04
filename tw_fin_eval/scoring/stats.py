"""Uncertainty for accuracies: a seeded cluster bootstrap and McNemar's exact test (standard library only).

Units that share a source are correlated (the turns of one ConvFinQA conversation, the seeds of one FinChain
template), so resampling them one by one would make intervals too narrow. We resample whole clusters with
replacement and recompute the ratio estimate sum(correct) / sum(units) — the cluster bootstrap of a mean. With
clusters of one unit this is the ordinary item bootstrap, whose standard error tends to the binomial
sqrt(p(1 − p) / n).

    >>> iv = bootstrap([(1, 1)] * 70 + [(0, 1)] * 30, seed=0)
    >>> round(iv.estimate, 2), 0.03 < iv.stderr < 0.06, iv.lo < 0.7 < iv.hi
    (0.7, True, True)
    >>> round(mcnemar_exact(1, 6), 4)   # 2 · P(X ≤ 1), X ~ Binomial(7, 1/2) = 2 · 8/128
    0.125
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

DEFAULT_RESAMPLES = 1000
DEFAULT_SEED = 20260101


@dataclass(frozen=True)
class Interval:
    estimate: float | None
    stderr: float | None
    lo: float | None
    hi: float | None
    n: int  # units
    clusters: int

    def to_json(self) -> dict[str, object]:
        return {"stderr": self.stderr, "ci95": None if self.lo is None else [self.lo, self.hi]}


def clusters_of(units: Iterable[tuple[object, float]]) -> list[tuple[float, int]]:
    """(cluster key, value) per unit → [(sum of values, units)] per cluster, in first-seen order."""
    sums: dict[object, list[float]] = {}
    for key, value in units:
        acc = sums.get(key)
        if acc is None:
            sums[key] = [value, 1]
        else:
            acc[0] += value
            acc[1] += 1
    return [(s, int(n)) for s, n in sums.values()]


def _numpy():
    try:
        import numpy
    except ImportError:  # the scorer runs on the standard library alone
        return None
    return numpy


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default 'linear' method)."""
    pos = q * (len(sorted_values) - 1)
    i = int(math.floor(pos))
    j = min(i + 1, len(sorted_values) - 1)
    return sorted_values[i] + (sorted_values[j] - sorted_values[i]) * (pos - i)


def bootstrap(clusters: Sequence[tuple[float, int]], *, resamples: int = DEFAULT_RESAMPLES,
              seed: int | str = DEFAULT_SEED) -> Interval:
    """Percentile 95% interval and standard error of sum(values) / sum(units) over clusters resampled with
    replacement. The same seed and clusters give the same interval on every machine: numpy's seeded generator
    when numpy is installed (it is, with `datasets`), else random.Random (reproducible for a given seed)."""
    m = len(clusters)
    n = sum(c[1] for c in clusters)
    if not m or not n:
        return Interval(None, None, None, None, n, m)
    nums = [float(c[0]) for c in clusters]
    estimate = sum(nums) / n
    if m == 1:
        return Interval(estimate, 0.0, estimate, estimate, n, m)
    dens = [c[1] for c in clusters]
    np = _numpy()
    stats: list[float] = []
    if np is not None:  # vectorised: numpy's generator, seeded from the same seed
        gen = np.random.default_rng(zlib.crc32(str(seed).encode("utf-8")))
        num_a, den_a = np.asarray(nums, dtype=float), np.asarray(dens, dtype=float)
        for start in range(0, resamples, 100):  # blocks of 100 resamples bound the index matrix's memory
            pick = gen.integers(0, m, size=(min(100, resamples - start), m))
            stats.extend((num_a[pick].sum(axis=1) / den_a[pick].sum(axis=1)).tolist())
    else:
        rng = random.Random(str(seed))
        index = range(m)
        for _ in range(resamples):
            pick = rng.choices(index, k=m)
            stats.append(sum(map(nums.__getitem__, pick)) / sum(map(dens.__getitem__, pick)))
    stats.sort()
    mean = sum(stats) / len(stats)
    var = sum((s - mean) ** 2 for s in stats) / (len(stats) - 1)
    return Interval(estimate, math.sqrt(var), quantile(stats, 0.025), quantile(stats, 0.975), n, m)


def paired_clusters(pairs: Iterable[tuple[object, bool, bool]]) -> list[tuple[float, int]]:
    """(cluster key, a correct, b correct) per paired unit → clusters of the difference a − b."""
    return clusters_of((key, float(a) - float(b)) for key, a, b in pairs)


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value: b = units only A got right, c = units only B got right. Under the null
    each discordant unit is a fair coin, so p = 2 · P(X ≤ min(b, c)) for X ~ Binomial(b + c, 1/2), capped at 1.
    No discordant units → 1.0 (identical verdicts are no evidence of a difference)."""
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    if n <= 1000:  # exact integers
        tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    else:  # log space: the binomial coefficients overflow a float
        log_half = n * math.log(0.5)
        logs = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + log_half for i in range(k + 1)]
        top = max(logs)
        tail = math.exp(top) * math.fsum(math.exp(v - top) for v in logs)
    return min(1.0, 2.0 * tail)


Z95 = 1.959963984540054


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of a proportion: honest at small n and at 0% / 100% (3 of 3 right gives
    [43.9%, 100%], not [100%, 100%]). `n` may be an effective sample size (not an integer).

    >>> [round(x, 3) for x in wilson(3, 3)]
    [0.439, 1.0]
    >>> [round(x, 3) for x in wilson(0, 10)]
    [0.0, 0.278]
    """
    if n <= 0:
        return None
    p = min(1.0, max(0.0, successes / n))
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def effective_n(p: float, stderr: float | None, n: int, clusters: int) -> float:
    """Independent units' worth of information in a clustered estimate: n / deff, deff = se² · n / p(1 − p)
    (never more than n, never fewer than the clusters). At 0% / 100% there is no spread to measure the design
    effect: the clusters count (the conservative choice)."""
    if n <= 0:
        return 0.0
    if stderr is None or p <= 0.0 or p >= 1.0 or stderr <= 0.0:
        return float(min(n, max(1, clusters)))
    return min(float(n), max(float(clusters), p * (1 - p) / (stderr * stderr)))


def honest_interval(p: float | None, stderr: float | None, n: int, clusters: int,
                    lo: float | None = None, hi: float | None = None) -> list[float] | None:
    """A 95% interval that stays honest at small n and at 0% / 100%: the Wilson interval on the effective sample
    size, widened to include the bootstrap's [lo, hi] when given (a bootstrap with a Wilson floor)."""
    if p is None or n <= 0:
        return None
    w = wilson(p * effective_n(p, stderr, n, clusters), effective_n(p, stderr, n, clusters))
    if w is None:
        return None
    if lo is None or hi is None:
        return [w[0], w[1]]
    return [min(w[0], lo), max(w[1], hi)]


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment (family-wise error): the i-th smallest p times (m − i), made monotone, capped
    at 1; returned in the input order.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        out[i] = running
    return out


def normal_p(diff: float, stderr: float | None) -> float | None:
    """Two-sided p-value of a difference under a normal approximation (None without a standard error; 1 when
    the difference and its standard error are both 0)."""
    if stderr is None:
        return None
    if stderr <= 0:
        return 1.0 if diff == 0 else 0.0
    return math.erfc(abs(diff) / stderr / math.sqrt(2))

"""Uncertainty: the bootstrap against the closed-form binomial, clustering that widens intervals, McNemar by hand."""

from __future__ import annotations

import math
import random

import pytest

from tw_fin_eval.reports import stats


@pytest.fixture(params=["numpy", "stdlib"])
def backend(request, monkeypatch):
    if request.param == "stdlib":
        monkeypatch.setattr(stats, "_numpy", lambda: None)
    return request.param


@pytest.mark.parametrize("p,n", [(0.7, 400), (0.3, 1147), (0.95, 300)])
def test_item_bootstrap_matches_the_binomial_standard_error(backend, p, n):
    k = round(p * n)
    iv = stats.bootstrap([(1.0, 1)] * k + [(0.0, 1)] * (n - k), seed=1)
    closed = math.sqrt((k / n) * (1 - k / n) / n)
    assert iv.estimate == pytest.approx(k / n)
    assert iv.stderr == pytest.approx(closed, rel=0.12)
    assert iv.lo < k / n < iv.hi
    assert (iv.hi - iv.lo) == pytest.approx(2 * 1.96 * closed, rel=0.15)


def test_bootstrap_is_reproducible_and_seed_dependent(backend):
    cl = [(1.0, 1)] * 60 + [(0.0, 1)] * 40
    assert stats.bootstrap(cl, seed=3) == stats.bootstrap(cl, seed=3)
    assert stats.bootstrap(cl, seed=3) != stats.bootstrap(cl, seed=4)


def test_clustered_interval_is_wider_than_the_naive_one_on_correlated_turns(backend):
    # ConvFinQA-like: 200 conversations of 4 turns, a conversation mostly all right or all wrong
    rng = random.Random(0)
    units = []
    for c in range(200):
        good = rng.random() < 0.6
        for _t in range(4):
            units.append((f"conv{c}", 1.0 if (rng.random() < (0.9 if good else 0.1)) else 0.0))
    clustered = stats.bootstrap(stats.clusters_of(units), seed=5)
    naive = stats.bootstrap(stats.clusters_of((f"{i}", v) for i, (_, v) in enumerate(units)), seed=5)
    assert clustered.estimate == pytest.approx(naive.estimate)
    assert clustered.clusters == 200 and naive.clusters == 800
    assert clustered.stderr > 1.5 * naive.stderr
    assert (clustered.hi - clustered.lo) > 1.5 * (naive.hi - naive.lo)


def test_empty_and_single_cluster():
    assert stats.bootstrap([]).estimate is None
    one = stats.bootstrap([(3.0, 4)])
    assert one.estimate == 0.75 and one.stderr == 0.0


def test_mcnemar_exact_against_hand_computed_values():
    # b=1, c=6: 2 * (C(7,0) + C(7,1)) / 2^7 = 2 * 8 / 128
    assert stats.mcnemar_exact(1, 6) == pytest.approx(0.125)
    assert stats.mcnemar_exact(6, 1) == pytest.approx(0.125)
    # b=0, c=5: 2 / 32
    assert stats.mcnemar_exact(0, 5) == pytest.approx(0.0625)
    # b=c: not small; capped at 1
    assert stats.mcnemar_exact(4, 4) == 1.0
    assert stats.mcnemar_exact(0, 0) == 1.0
    # large n: the log-space branch agrees with the exact integers at the boundary
    exact = 2 * sum(math.comb(1000, i) for i in range(481)) / 2 ** 1000
    assert stats.mcnemar_exact(480, 520) == pytest.approx(exact, rel=1e-9)
    assert stats.mcnemar_exact(700, 800) < 0.02


def test_paired_bootstrap_of_identical_runs_is_zero():
    pairs = [(f"c{i // 3}", i % 2 == 0, i % 2 == 0) for i in range(90)]
    iv = stats.bootstrap(stats.paired_clusters(pairs), seed=2)
    assert iv.estimate == 0 and iv.lo == 0 and iv.hi == 0

"""FinChain-TW framework: registry shape, generator records, determinism, CLI errors, helpers."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest

import finchain_tw_templates.topics as topics
from finchain_tw_templates import common, core
from finchain_tw_templates.generate import SelectionError, coverage, generate_records, main, ordered_specs
from tw_fin_eval import DATA_VERSION

REPO = Path(__file__).resolve().parent.parent
GENERATE = REPO / "finchain_tw_templates" / "generate.py"


def test_topic_package_loads_every_topic_module_in_domain_order():
    on_disk = {p.stem for p in (REPO / "finchain_tw_templates" / "topics").glob("*.py")} - {"__init__"}
    assert set(topics.LOADED) == on_disk & set(topics.TOPIC_MODULES)
    assert set(topics.LOADED) == on_disk == set(topics.TOPIC_MODULES)  # no topic module is left out
    assert list(topics.TOPIC_MODULES) == list(core.DOMAINS)


def test_registry_five_templates_per_topic_two_two_one():
    by_topic: dict[tuple[str, str], list[core.TemplateSpec]] = defaultdict(list)
    for spec in core.REGISTRY.values():
        by_topic[(spec.domain, spec.topic)].append(spec)
    assert by_topic, "no templates registered"
    for (domain, topic), specs in by_topic.items():
        diffs = Counter(s.difficulty for s in specs)
        assert diffs == {"基礎": 2, "中級": 2, "進階": 1}, (domain, topic, diffs)
        for s in specs:
            assert s.template_id.startswith(topic + "_"), s.template_id
    # a topic belongs to exactly one domain
    topic_domains = defaultdict(set)
    for spec in core.REGISTRY.values():
        topic_domains[spec.topic].add(spec.domain)
    assert all(len(d) == 1 for d in topic_domains.values())


def test_registry_rejects_duplicates_and_unknown_keys():
    some_id = next(iter(core.REGISTRY))
    with pytest.raises(ValueError, match="duplicate"):
        core.template("accounting", "x", some_id, "基礎")(lambda rng: None)
    with pytest.raises(ValueError, match="domain"):
        core.template("astrology", "x", "x1", "基礎")
    with pytest.raises(ValueError, match="difficulty"):
        core.template("accounting", "x", "x1", "超難")


def test_problem_validates_answer_kind():
    with pytest.raises(ValueError):
        core.Problem("q", "s", (), "numeric")
    with pytest.raises(ValueError):
        core.Problem("q", "s", (), "categorical", answer_value=1.0)
    with pytest.raises(ValueError):
        core.Problem("q", "s", (), "ranking", answer_value=1.0)


def test_records_follow_the_format_and_release_order():
    recs = generate_records(seeds=2)
    specs = ordered_specs()
    assert len(recs) == 2 * len(specs)
    # ids of the shipped seeds: template rank × 10 + seed + 1 (the release's 0001…2900, stable under selection)
    assert [r["id"] for r in recs] == [f"finchain_tw-{i * 10 + k + 1:04d}" for i in range(len(specs)) for k in (0, 1)]
    assert [r["template_id"] for r in recs[::2]] == [s.template_id for s in specs]
    domain_rank = {zh: i for i, zh in enumerate(core.DOMAINS.values())}
    keys = [(domain_rank[r["category"]], r["subcategory"], r["template_id"]) for r in recs]
    assert keys == sorted(keys)
    for r in recs:
        spec = core.REGISTRY[r["template_id"]]
        assert r["dataset"] == "FinChain-TW" and r["task_type"] == "numeric_cot" and r["lang"] == "zh-TW"
        assert r["category"] == core.DOMAINS[spec.domain] and r["subcategory"] == spec.topic
        assert r["difficulty"] == spec.difficulty
        assert r["source"]["orig_id"] == f"{r['template_id']}:{r['seed']}"
        assert r["source"]["url"] == "https://arxiv.org/abs/2506.02515"
        assert r["context"] == {"table": None, "evidence": [], "setting": None}
        assert r["program"] is None and r["original_en"] is None
        assert r["meta"] == {"translation": "原創在地化模板（非翻譯）", "review_status": "unreviewed",
                             "version": DATA_VERSION}
        assert r["messages"][-1] == {"role": "user", "content": r["question"]}
        assert r["messages"][0]["role"] == "system"
        assert r["solution"].startswith("步驟 1：") and r["solution"].splitlines()[-1] == f"答案：{r['answer']}"
        assert all(set(s) == {"label", "value"} and isinstance(s["value"], float) for s in r["steps"])
        if r["answer_type"] == "numeric":
            assert isinstance(r["answer_value"], float) and r["answer_text"] is None
            assert isinstance(r["answer_decimals"], int) and 0 <= r["answer_decimals"] <= 6
        else:
            assert r["answer_value"] is None and r["answer_text"] == r["answer"] and r["answer_decimals"] is None
        assert "params" not in r


def test_ids_are_stable_per_template_and_seed_and_never_collide():
    """Issue 15 point 15: the shipped seeds 0–9 keep their release ids whatever is selected; every other
    seed carries the template and the seed in the id, so batches generated with other seeds never collide
    with the release or with each other."""
    release = {(r["template_id"], r["seed"]): r["id"] for r in generate_records(seeds=10)}
    assert len(set(release.values())) == len(release) == 2900
    assert release[(ordered_specs()[0].template_id, 0)] == "finchain_tw-0001"
    assert release[(ordered_specs()[-1].template_id, 9)] == "finchain_tw-2900"
    part = generate_records(seeds=3, seed_offset=8, topics=["kyc"])  # seeds 8, 9 (shipped) and 10 (not)
    for r in part:
        if r["seed"] < 10:
            assert r["id"] == release[(r["template_id"], r["seed"])]
        else:
            assert r["id"] == f"finchain_tw-{r['template_id']}-s10"
    other = generate_records(seeds=2, seed_offset=100) + generate_records(seeds=2, seed_offset=102)
    ids = [r["id"] for r in other]
    assert len(set(ids)) == len(ids) and not set(ids) & set(release.values())
    assert all(r["id"].endswith(f"-s{r['seed']}") for r in other)


def test_template_rng_depends_only_on_template_and_seed():
    spec = ordered_specs()[0]
    a = spec.func(random.Random(f"{spec.template_id}:3"))
    random.seed(12345)  # global state must not matter
    b = spec.func(random.Random(f"{spec.template_id}:3"))
    assert a == b
    c = spec.func(random.Random(f"{spec.template_id}:4"))
    assert c.question != a.question


def test_generate_script_is_byte_identical_and_prints_coverage(tmp_path):
    import os

    outs, errs = [], []
    for hash_seed in ("1", "2"):  # two processes with different str hashing
        out = tmp_path / f"run{hash_seed}.jsonl"
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        p = subprocess.run([sys.executable, str(GENERATE), "--seeds", "3", "--out", str(out)],
                           capture_output=True, text=True, cwd=tmp_path, env=env)
        assert p.returncode == 0, p.stderr
        outs.append(out.read_bytes())
        errs.append(p.stderr)
    assert outs[0] == outs[1]
    n = sum(1 for _ in outs[0].splitlines())
    assert n % 3 == 0 and n >= 3 * 5
    assert f"{n} items" in errs[0] and "基礎" in errs[0] and "categorical" in errs[0]
    # in-process generation gives the same records as the script
    inproc = tmp_path / "inproc.jsonl"
    assert main(["--seeds", "3", "--out", str(inproc)]) == 0
    assert len(inproc.read_bytes().splitlines()) == 3 * len(core.REGISTRY)


def test_selection_flags(tmp_path):
    specs = ordered_specs()
    topic = specs[0].topic
    recs = generate_records(seeds=1, topics=[topic])
    assert {r["subcategory"] for r in recs} == {topic} and len(recs) == 5
    domain = specs[0].domain
    assert {r["category"] for r in generate_records(seeds=1, topics=[domain])} == {core.DOMAINS[domain]}
    drop = specs[0].template_id
    rest = generate_records(seeds=1, topics=[topic], exclude_templates=[drop])
    assert drop not in {r["template_id"] for r in rest} and len(rest) == 4
    off = generate_records(seeds=2, topics=[topic], seed_offset=5)
    assert sorted({r["seed"] for r in off}) == [5, 6]
    with pytest.raises(SelectionError):
        generate_records(seeds=1, topics=["no_such_topic"])
    out = tmp_path / "x.jsonl"
    assert main(["--seeds", "1", "--topics", "no_such_topic", "--out", str(out)]) == 2
    assert main(["--seeds", "1", "--exclude-templates", "nope_basic9", "--out", str(out)]) == 2
    assert main(["--seeds", "0", "--out", str(out)]) == 2
    assert not out.exists()  # nothing half-written on a bad selection


def test_unwritable_output_is_a_clear_error(tmp_path, capsys):
    blocker = tmp_path / "not_a_dir"
    blocker.write_text("x", encoding="utf-8")
    assert main(["--seeds", "1", "--topics", ordered_specs()[0].topic, "--out", str(blocker / "f.jsonl")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_failing_template_names_itself(monkeypatch):
    spec = ordered_specs()[0]

    def broken(rng):
        raise ZeroDivisionError("boom")

    monkeypatch.setitem(core.REGISTRY, spec.template_id,
                        core.TemplateSpec(spec.domain, spec.topic, spec.template_id, spec.difficulty, broken))
    with pytest.raises(RuntimeError, match=f"{spec.template_id} failed at seed 0"):
        generate_records(seeds=1, topics=[spec.topic])


def test_coverage_counts():
    recs = generate_records(seeds=1)
    text = coverage(recs)
    diff = Counter(r["difficulty"] for r in recs)
    assert f"基礎 {diff['基礎']}, 中級 {diff['中級']}, 進階 {diff['進階']}" in text
    n_cat = sum(r["answer_type"] == "categorical" for r in recs)
    assert f"numeric {len(recs) - n_cat}, categorical {n_cat}" in text


def test_output_is_valid_jsonl(tmp_path):
    out = tmp_path / "f.jsonl"
    assert main(["--seeds", "1", "--out", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert all(json.loads(line)["id"].startswith("finchain_tw-") for line in lines)


# ---------------------------------------------------------------- helpers


@pytest.mark.parametrize("x,digits,expected", [
    (1234567, None, "NT$1,234,567"), (0.08, None, "NT$0.08"), (1234.5, None, "NT$1,234.50"),
    (14639499.999999998, None, "NT$14,639,500"), (-1500, None, "-NT$1,500"), (-0.001, 2, "NT$0.00"),
    (2.675, 2, "NT$2.68"), (1e9, 0, "NT$1,000,000,000"),
])
def test_ntd(x, digits, expected):
    assert common.ntd(x, digits) == expected


@pytest.mark.parametrize("x,digits,expected", [
    (0.0525, 2, "5.25%"), (0.0525, 1, "5.3%"), (0.12, 0, "12%"), (-0.031, 2, "-3.10%"), (1.5, 2, "150.00%"),
])
def test_pct(x, digits, expected):
    assert common.pct(x, digits) == expected


def test_rounding_is_half_away_from_zero():
    assert common.r2(2.675) == 2.68 and common.r2(-2.675) == -2.68 and common.r2(1.005) == 1.01
    assert common.rnd(0.125, 2) == 0.13 and common.rnd(12.5, 0) == 13.0


def test_pickers_return_exactly_displayable_values():
    rng = random.Random(0)
    for _ in range(500):
        r = common.pick_rate(rng, 1, 12, 0.25)
        assert 0.01 <= r <= 0.12 and abs(r * 400 - round(r * 400)) < 1e-9
        assert float(common.pct(r).rstrip("%")) / 100 == r
        m = common.pick_money(rng, 1_050, 9_999, 100)
        assert m % 100 == 0 and 1_100 <= m <= 9_900
        d = common.pick_decimal(rng, 0.5, 2.5, 2)
        assert 0.5 <= d <= 2.5 and float(common.num(d, 2)) == d
    with pytest.raises(ValueError):
        common.pick_money(rng, 1, 9, 10)


def test_names_are_distinct_and_plentiful():
    assert len(set(common.COMPANIES)) == len(common.COMPANIES) >= 40
    assert len(set(common.PERSONS)) == len(common.PERSONS) >= 40
    rng = random.Random(1)
    assert len(set(common.pick_companies(rng, 5))) == 5


def test_chain_builds_numbered_solution_and_rejects_nan():
    c = common.Chain()
    a = c.add("毛利", 500 - 300, "NT$500 − NT$300", common.ntd)
    c.add("毛利率", a / 500, "NT$200 ÷ NT$500", common.pct)
    p = c.numeric("題目", a / 500, "40.00%", params={"rev": 500})
    assert p.solution.splitlines() == ["步驟 1：毛利 = NT$500 − NT$300 = NT$200",
                                       "步驟 2：毛利率 = NT$200 ÷ NT$500 = 40.00%", "答案：40.00%"]
    assert [s.value for s in p.steps] == [200.0, 0.4] and p.params == {"rev": 500}
    with pytest.raises(ValueError):
        c.add("壞", float("nan"))
    with pytest.raises(ValueError):
        common.Chain().numeric("q", float("inf"), "inf")
    cat = common.Chain()
    cat.add("合計", 600000.0)
    cat.note("與門檻比較", "達門檻")
    pc = cat.categorical("q", "是")
    assert pc.answer_text == "是" and pc.solution.endswith("答案：是") and len(pc.steps) == 1


def test_common_doctests():
    import doctest

    result = doctest.testmod(common, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 5 and result.failed == 0

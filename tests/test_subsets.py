"""The subset registry: every generic command reads the specs, so a subset added to the registry (here a toy
translated subset with its own source adapter) is built, checked, listed and offered without touching
build, overlay, todo or check-zh code."""

from __future__ import annotations

import json
import sys
import types
from dataclasses import FrozenInstanceError, replace
from pathlib import Path

import pytest

from tw_fin_eval import schema, subsets
from tw_fin_eval.overlay import OverlaySpec, Pair
from tw_fin_eval.sources.base import SourceItem
from tw_fin_eval.subsets.spec import TRANSLATED, SubsetSpec

REPO = Path(__file__).resolve().parent.parent


def test_registry_is_consistent():
    specs = list(subsets.SUBSETS.values())
    assert [s.name for s in specs] == list(subsets.SUBSETS)
    for attr in ("name", "dataset", "data_file"):
        values = [getattr(s, attr) for s in specs]
        assert len(set(values)) == len(values), f"{attr} not unique"
    assert subsets.DEFAULT_SUBSET in subsets.SUBSETS
    for s in subsets.translated():
        assert s.overlay is not None and s.make_record is not None and s.source
    for s in subsets.released():
        assert s.card is not None and s.card.upstream[1].startswith("https://")
    assert {s.name for s in subsets.built()} == {s.name for s in specs if s.kind != "converted"}
    with pytest.raises(FrozenInstanceError):
        specs[0].name = "x"  # type: ignore[misc]
    with pytest.raises(KeyError, match="unknown subset 'nope'; known: finqa"):
        subsets.get_spec("nope")
    assert subsets.by_dataset("FinQA-TW") is subsets.get_spec("finqa") and subsets.by_dataset("X") is None


def test_a_spec_missing_what_its_kind_needs_is_refused():
    with pytest.raises(ValueError, match="translated subset needs source, id_format, overlay and make_record"):
        SubsetSpec(name="t", dataset="T", data_file="t.jsonl", description="", citation="", kind=TRANSLATED,
                   task_types=("numeric",), features=dict, in_release=False)
    with pytest.raises(ValueError, match="kind 'weird'"):
        SubsetSpec(name="t", dataset="T", data_file="t.jsonl", description="", citation="", kind="weird",
                   task_types=(), features=dict, in_release=False)
    with pytest.raises(ValueError, match="released subset needs a card"):
        SubsetSpec(name="t", dataset="T", data_file="t.jsonl", description="", citation="", kind="generated",
                   task_types=(), features=dict, produce=lambda root: [])


def test_cli_choices_and_card_come_from_the_registry():
    import argparse

    from tw_fin_eval import build, todo
    from tw_fin_eval.release import cli as release_cli
    from tw_fin_eval.release.writer import FORBIDDEN_MARKERS

    def choices(module, option):
        parser = argparse.ArgumentParser()
        module.configure(parser)
        return next(a.choices for a in parser._actions if option in a.option_strings)

    names = [s.name for s in subsets.translated()]
    assert choices(build, "--subset") == names == choices(todo, "--subset")
    assert choices(release_cli, "--config") == [s.name for s in subsets.released()]
    assert {s.name for s in subsets.SUBSETS.values() if not s.in_release} <= set(FORBIDDEN_MARKERS)


def test_base_record_order_and_every_factory_uses_it():
    rec = schema.base_record(id="x-1", dataset="X", source={"name": "s"}, category="c", subcategory=None,
                             task_type="numeric", question="q", messages=[], meta={"version": "0.1"},
                             extra={"turns": []}, original_en=None, tail={"task": "T1"})
    assert list(rec) == [*schema.COMMON_FIELDS[:-2], "turns", "messages", "original_en", "meta", "task"]
    assert rec["context"] == {"table": None, "evidence": [], "setting": None} and rec["lang"] == "zh-TW"
    assert "original_en" not in schema.base_record(id="x", dataset="X", source={}, category="c", subcategory=None,
                                                   task_type="t", question="q", messages=[], meta={})
    # no producer spells the common fields by hand: each calls base_record
    producers = [REPO / "tw_fin_eval" / "subsets" / f"{s.name}.py" for s in subsets.translated()]
    producers += [REPO / "finchain_tw_templates" / "generate.py", REPO / "tw_fin_eval" / "sources" / "finsearchcomp.py",
                  REPO / "tw_fin_eval" / "sources" / "finllm450" / "converter.py"]
    for path in producers:
        text = path.read_text(encoding="utf-8")
        assert "base_record(" in text and '"task_type":' not in text, path


# ---- a toy subset, registered for one test ------------------------------------------------------------------
def _toy_spec() -> SubsetSpec:
    module = types.ModuleType("toy_adapter")

    def load(root: Path) -> list[SourceItem]:
        rows = json.loads((root / "toy" / "items.json").read_text(encoding="utf-8"))
        return [SourceItem("toy", r["id"], i, question=r["q"], fields={"answer": r["a"]}) for i, r in enumerate(rows, 1)]

    module.load = load
    sys.modules["toy_adapter"] = module

    def make_record(item, ov):
        return schema.base_record(id=f"toy-{item.index:04d}", dataset="Toy-TW", source={"orig_id": item.source_id},
                                  category="c", subcategory=None, task_type="numeric", question=ov.data["question"],
                                  answer=item.fields["answer"], messages=[{"role": "user", "content": ov.data["question"]}],
                                  original_en={"question": item.question}, meta={"version": "0"})

    return SubsetSpec(
        name="toy", dataset="Toy-TW", data_file="toy_tw.jsonl", description="toy", citation="", kind=TRANSLATED,
        task_types=("numeric",), features=dict, in_release=False, source="toy_adapter", id_format="toy-{:04d}",
        overlay=OverlaySpec(fields={"question": str}, english=lambda it: {"question": it.question},
                            pairs=lambda it, d: [Pair("question", it.question, d["question"])]),
        make_record=make_record,
        post=(lambda rec, item: {**rec, "gold_status": "verified"},),  # a record post-processing hook
        review_stratum=None,
    )


@pytest.fixture
def toy(tmp_path, monkeypatch):
    spec = _toy_spec()
    monkeypatch.setitem(subsets.SUBSETS, "toy", spec)
    src = tmp_path / "sources" / "toy"
    src.mkdir(parents=True)
    (src / "items.json").write_text(json.dumps([{"id": "t1", "q": "What was revenue in 2015?", "a": "5"},
                                                {"id": "t2", "q": "What was revenue in 2016?", "a": "6"}]))
    tr = tmp_path / "translations" / "toy"
    tr.mkdir(parents=True)
    (tr / "a.jsonl").write_text(json.dumps({"id": "t1", "question": "2015 年的營收是多少？"}, ensure_ascii=False) + "\n"
                                + json.dumps({"id": "t2", "question": "2016 年的营收是多少？"}, ensure_ascii=False) + "\n",
                                encoding="utf-8")
    yield spec, tmp_path
    sys.modules.pop("toy_adapter", None)


def test_a_registered_subset_is_built_checked_and_listed_by_the_generic_code(toy):
    from tw_fin_eval.build import run_build
    from tw_fin_eval.jsonl import read_jsonl
    from tw_fin_eval.todo import english_overlay
    from tw_fin_eval.zhcheck.cli import check_jsonl, check_paths

    spec, root = toy
    assert spec in subsets.translated()
    res = run_build(root / "sources", root / "translations", root / "data", subsets=["toy"])[0]
    assert res.dataset == "Toy-TW" and res.failing_ids == ["t2"]  # 营 is Simplified: kept out
    assert {i.rule for i in res.failing} == {"simplified"}
    recs = read_jsonl(root / "data" / "toy_tw.jsonl")
    assert [r["id"] for r in recs] == ["toy-0001"] and recs[0]["gold_status"] == "verified"  # the hook ran
    assert check_jsonl(root / "data" / "toy_tw.jsonl") == []
    item = spec.load_source(root / "sources")[0]
    assert english_overlay(item) == {"id": "t1", "question": "What was revenue in 2015?"}
    files, issues = check_paths([str(root / "translations" / "toy")], str(root / "sources"))
    assert files == 1 and [(i.item_id, i.rule) for i in issues] == [("t2", "simplified")]


def test_post_hooks_apply_in_order(toy):
    spec, _ = toy
    twice = replace(spec, post=(lambda r, i: {**r, "n": 1}, lambda r, i: {**r, "n": r["n"] + 1}))
    assert twice.finish({"id": "a"}) == {"id": "a", "n": 2}

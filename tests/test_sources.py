"""The English adapters reproduce the published counts and ground every FinQA item."""

from collections import Counter

import pytest

from tw_fin_eval.errors import InputError
from tw_fin_eval.paths import sources_dir
from tw_fin_eval.sources.base import numbers_in
from tw_fin_eval.sources.finqa import program_numbers, select_silver
from tw_fin_eval.subsets import load_subset


@pytest.fixture(scope="module")
def finqa(sources_root):
    return load_subset("finqa", sources_root)


def test_finqa_counts_and_evidence_settings(finqa):
    assert len(finqa) == 1147
    assert [it.index for it in finqa] == list(range(1, 1148))
    settings = Counter(it.setting for it in finqa)
    assert settings == {"gold_evidence": 583, "silver_evidence": 564}
    assert [it for it in finqa if it.fields["ungrounded"]] == []
    yes_no = [it for it in finqa if it.fields["answer_text"] is not None]
    assert len(yes_no) == 20
    assert all(it.fields["answer_value"] is None and it.fields["answer_text"] in ("yes", "no") for it in yes_no)
    assert all(isinstance(it.fields["answer_value"], float) for it in finqa if it.fields["answer_text"] is None)


def test_finqa_first_item_matches_source(finqa):
    first = finqa[0]
    assert first.source_id == "ETR/2016/page_23.pdf-2"
    assert first.fields["answer"] == "94" and first.fields["answer_value"] == 94.0
    assert [e.key for e in first.evidence] == ["table_1", "table_8"]


def test_silver_evidence_holds_every_program_number(finqa):
    for it in finqa:
        if it.setting != "silver_evidence":
            continue
        found_in = " ".join(" ".join(it.table[e.row]) if e.is_table else e.text for e in it.evidence)
        found_in += " " + it.question + " " + " ".join(" ".join(r) for r in it.table[:1]) + " "
        found_in += " ".join(r[0] for r in it.table)
        values = numbers_in(found_in)
        for n in program_numbers(it.fields["program"]):
            assert any(abs(abs(v) - abs(n)) < 1e-9 * max(1, abs(n)) for v in values), (it.source_id, n)


def test_silver_selection_reports_what_it_cannot_ground():
    table = [["", "2015", "2014"], ["revenue", "$ 120", "$ 100"]]
    keys, problem = select_silver("what was the change?", table, ["costs were $ 7 million ."], "subtract(120, 99)")
    assert problem is not None and "99" in problem
    keys, problem = select_silver("what was the change?", table, ["costs were $ 7 million ."], "subtract(120, 7)")
    assert problem is None and keys == ["table_1", "text_0"]


def test_numbers_in_reads_finqa_cells():
    assert numbers_in("$ 5,735") == [5735.0]
    assert numbers_in("-32 ( 32 )") == [-32.0, 32.0]
    assert numbers_in("4.1% ( 4.1 % )") == [4.1, 4.1]


def test_convfinqa_counts(sources_root):
    conv = load_subset("convfinqa", sources_root)
    assert len(conv) == 421
    assert sum(len(it.fields["turns"]) for it in conv) == 1490
    assert Counter(it.fields["conv_type"] for it in conv) == {"single": 300, "double": 121}
    yes_no = [t for it in conv for t in it.fields["turns"] if t["answer_text"] is not None]
    assert len(yes_no) == 4
    # the empty top-left header cell is restored ("-" in the PoT copy)
    assert all(it.table[0][0] != "-" for it in conv)
    # table evidence points at real, non-header rows
    assert all(0 < e.row < len(it.table) for it in conv for e in it.evidence if e.is_table)


def test_financeagent_counts(sources_root):
    fa = load_subset("financeagent", sources_root)
    assert len(fa) == 50
    assert len({it.fields["question_type"] for it in fa}) == 9
    ops = Counter(r["operator"] for it in fa for r in it.fields["rubric"])
    assert ops == {"correctness": 200, "contradiction": 50}


def test_sources_dir_override_and_errors(tmp_path, monkeypatch):
    monkeypatch.setenv("TW_FIN_EVAL_SOURCES", str(tmp_path))
    assert sources_dir() == tmp_path
    assert sources_dir(tmp_path / "x") if (tmp_path / "x").mkdir() is None else False
    with pytest.raises(InputError, match="sources folder not found"):
        sources_dir(tmp_path / "missing")
    with pytest.raises(InputError, match=r"test_core\.json"):
        load_subset("finqa", tmp_path)


def test_display_answers_never_contradict_the_scored_value(finqa, sources_root):
    """The `answer` string is what users read and what the ConvFinQA gold history shows the model: it must
    state the executed answer (FinQA's human strings disagree with the program result for 101 items).
    Oracle: the value written in the string, read independently here, against the executed value."""
    def stated(display):  # "142.4%" → 1.424, "$ 1,877" → 1877
        text = display.replace(",", "").replace("$", "").strip()
        return float(text[:-1]) / 100 if text.endswith("%") else float(text)

    def states(display, value):
        return abs(stated(display) - value) <= max(0.005, 0.01 * abs(value))

    assert all(states(it.fields["answer"], it.fields["answer_value"]) for it in finqa
               if it.fields["answer_value"] is not None)
    conv = load_subset("convfinqa", sources_root)
    turns = [t for it in conv for t in it.fields["turns"] if t["answer_value"] is not None]
    assert all(states(t["answer"], t["answer_value"]) for t in turns)
    # the human string is kept where it states the value precisely ("142.4%" for 1.42403) …
    assert conv[0].fields["turns"][4]["answer"] == "142.4%"
    # … restated with one more decimal where it is too rough for the scorer ("14%" for 0.14464) …
    assert next(it for it in finqa if it.source_id == "INTC/2015/page_41.pdf-4").fields["answer"] == "14.5%"
    # … and replaced by the executed value where it states another value ("10%" for -0.09709)
    unp = next(it for it in conv if it.source_id == "Single_UNP/2008/page_77.pdf-2")
    assert "-0.09709" in [t["answer"] for t in unp.fields["turns"]]
    from tw_fin_eval.schema import display_number

    assert display_number(16750002.0) == "16750002" and display_number(-0.097091) == "-0.09709"
    assert display_number(-0.000001) == "0"

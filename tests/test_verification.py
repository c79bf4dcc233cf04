"""Gold verification: the program executor, the operand locator, verdict-file validation (accepts and
rejects with file:line:id), the build step that writes gold_status / corrected gold, and coverage."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tw_fin_eval.build import run_build
from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import read_jsonl
from tw_fin_eval.paths import TRANSLATIONS_DIR, VERIFICATION_DIR
from tw_fin_eval.subsets import load_subset
from tw_fin_eval.verification.locate import finqa_view, operand_lines
from tw_fin_eval.verification.program import ProgramError, execute, execute_steps, same_value
from tw_fin_eval.verification.verdicts import coverage, load_verdicts, units

REPO = Path(__file__).resolve().parent.parent
# finqa_tw-test-0006: the question asks 2005 → 2006, the upstream program computes 2004 → 2005
FIX6 = {"id": "finqa_tw-test-0006", "turn": None, "status": "fixed", "reason": "wrong_operand",
        "note": "fiscal 2006 vs 2005 is 100690000 vs 92710000", "reader": "t",
        "program": "subtract(100690000, 92710000), divide(#0, 92710000)", "answer_value": 0.08607}
# finqa_tw-test-0629 asks "are the 2018 environmental reserves greater than asbestos-related claim reserves?"
# and its upstream gold is the number 471: fixed to yes/no
FIX629 = {"id": "finqa_tw-test-0629", "turn": None, "status": "fixed", "reason": "other", "note": "yes/no question",
          "reader": "t", "program": "greater(291, 180)", "answer_text": "yes"}
OK1 = {"id": "finqa_tw-test-0001", "turn": None, "status": "verified", "reason": None, "note": "", "reader": "t"}


@pytest.fixture(scope="module")
def finqa_items(sources_root):
    return load_subset("finqa", sources_root)


@pytest.fixture(scope="module")
def conv_items(sources_root):
    return load_subset("convfinqa", sources_root)


def write(folder: Path, subset: str, name: str, lines: list) -> Path:
    path = folder / subset / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines), encoding="utf-8")
    return path


# ---- program executor ---------------------------------------------------------------------------------

def test_executor_steps_constants_percent_and_table_ops():
    assert execute_steps("subtract(5829, 5735), divide(#0, 5735)") == [94, 94 / 5735]
    assert execute("multiply(const_m1, 5%)") == pytest.approx(-0.05)
    assert execute("subtract(.455, .450)") == pytest.approx(0.005)
    assert execute("greater(3, 4)") == "no"
    table = [["", "2017", "2016"], ["rate", "4.7% ( 4.7 % )", "5.3%"], ["sales", "$ 1,200", "800"]]
    assert execute("table_average(rate, none)", table) == pytest.approx(0.05)
    assert execute("table_sum(sales, none)", table) == 2000


@pytest.mark.parametrize("program, message", [
    ("", "empty program"), ("sqrt(4, 2)", "unknown operation"), ("add(#1, 2)", "reference #1 before its step"),
    ("divide(1, 0)", "division by zero"), ("add(1, x)", "not a number"), ("table_sum(nope, none)", "not found"),
    ("add(1, 2) junk", "cannot parse"),
])
def test_executor_rejects_bad_programs(program, message):
    with pytest.raises(ProgramError, match=message):
        execute(program, [["", "a"], ["row", "1"]])


def test_executor_reproduces_every_upstream_gold(finqa_items, conv_items):
    checked = 0
    for subset, items in (("finqa", finqa_items), ("convfinqa", conv_items)):
        for u in units(subset, items).values():
            got = execute(u.program, u.table)
            if u.answer_text is not None:
                assert got == u.answer_text, u.label
            else:
                assert same_value(got, u.answer_value), (u.label, got, u.answer_value)
            checked += 1
    assert checked == 1147 + 1490


# ---- locator ------------------------------------------------------------------------------------------

def test_locator_names_row_and_column_and_text(finqa_items):
    lines = "\n".join(finqa_view(finqa_items[0], "finqa_tw-test-0001", "中文問題", None))
    assert "5829 ← [2015 net revenue × amount ( in millions )]" in lines
    assert "5735 ← [2014 net revenue × amount ( in millions )]" in lines
    assert "中 中文問題" in lines and "gold 94" in lines
    six = "\n".join(finqa_view(finqa_items[5], "finqa_tw-test-0006", None, "fixed wrong_operand"))
    assert "92710000 ← text:" in six and "2006 , 2005 and 2004" in six and "verdict: fixed" in six
    assert "#1 divide(#0, 86842000) = 0.06757   (#0=5868000)" in six


def test_locator_says_when_an_operand_is_nowhere():
    lines = operand_lines("add(123.45, 7)", [["", "2017"], ["sales", "7"]], ["nothing here"], "what is it?")
    assert any("123.45 ← NOT FOUND" in x for x in lines)
    assert any("7 ← [sales × 2017]" in x for x in lines)
    assert operand_lines("add(1, #3)", [], [], "")[0].startswith("   program error")
    # upstream tables that put a data row in the header / the row-label column
    lines = operand_lines("subtract(23596, 63003)", [["2011", "2010"], ["$ 23596", "$ 63003"]], [], "")
    assert "23596 ← (row label '$ 23596')" in lines[1] and "63003 ← [$ 23596 × 2010]" in lines[2]


# ---- verdict validation -------------------------------------------------------------------------------

def test_valid_verdicts_load_and_count(tmp_path, finqa_items, conv_items):
    second = {**FIX6, "second_read": {"reader": "u", "status": "fixed", "agree": True, "note": "same"}}
    unans = {"id": "finqa_tw-test-0002", "turn": None, "status": "unanswerable", "reason": "ocr_garbage",
             "note": "x", "reader": "t"}
    write(tmp_path, "finqa", "0001-0010.jsonl", [OK1, second, unans])
    v = load_verdicts("finqa", finqa_items, tmp_path)
    assert v[("finqa_tw-test-0006", None)].answer_value == 0.08607
    cov = coverage("finqa", finqa_items, v)
    assert (cov.done, cov.total, cov.status["fixed"]) == (3, 1147, 1)
    assert cov.reasons[("unanswerable", "ocr_garbage")] == 1
    conv = {"id": "convfinqa_tw-dev-0001", "turn": 4, "status": "verified", "reason": None, "reader": "t"}
    write(tmp_path, "convfinqa", "c.jsonl", [conv])
    assert ("convfinqa_tw-dev-0001", 4) in load_verdicts("convfinqa", conv_items, tmp_path)


@pytest.mark.parametrize("line, message", [
    ({**OK1, "id": "finqa_tw-test-9999"}, "unknown id"),
    ({**OK1, "turn": 0}, "FinQA items have no turns"),
    ({**OK1, "status": "ok"}, "status must be one of"),
    ({**OK1, "reason": "wrong_operand"}, "a verified unit has reason null"),
    ({**OK1, "statu": "verified"}, "unknown field"),
    ({**OK1, "reader": ""}, "reader"),
    ({**OK1, "note": "a\nb"}, "one-line"),
    ({**FIX6, "reason": "typo"}, "needs a reason"),
    ({**FIX6, "note": ""}, "needs a note"),
    ({k: v for k, v in FIX6.items() if k != "answer_value"}, "needs exactly one of answer_value"),
    ({k: v for k, v in FIX6.items() if k != "program"}, "needs the corrected program"),
    ({**FIX6, "answer_value": 0.5}, "gives 0.08607, not answer_value 0.5"),
    ({**FIX6, "program": "subtract(92710000, 86842000), divide(#0, 86842000)", "answer_value": 0.06757},
     "equals the upstream gold"),
    ({**FIX6, "program": "divide(1, #4)"}, "does not run"),
    ({**FIX6, "answer": "50%"}, "does not state"),
    ({**FIX6, "answer_text": "yes"}, "exactly one of answer_value"),
    ({**FIX629, "answer_text": "maybe"}, "must be \"yes\" or \"no\""),
    ({**FIX629, "answer_text": "no"}, "gives yes, not answer_text 'no'"),
    ({**FIX629, "program": "add(291, 180)"}, "gives 471, not answer_text"),
    ({**OK1, "answer_value": 3}, "only a fixed unit"),
    ({**FIX6, "second_read": {"reader": "t", "status": "fixed", "agree": True}}, "another reader"),
    ({**FIX6, "second_read": {"reader": "u", "status": "fixed", "agree": "yes"}}, "agree must be"),
    ('{"id": "finqa_tw-test-0001",', "broken JSON"),
])
def test_bad_verdict_lines_are_rejected_with_file_line_and_id(tmp_path, finqa_items, line, message):
    path = write(tmp_path, "finqa", "a.jsonl", [OK1 if line is not OK1 else FIX6, line])
    with pytest.raises(InputError, match=message) as err:
        load_verdicts("finqa", finqa_items, tmp_path)
    assert f"{path}:2" in str(err.value)


# finqa_tw-test-0001 asks a "net change" (not worded as a percent); a fix to a fraction may carry a percent display
FIX1_PCT = {"id": "finqa_tw-test-0001", "turn": None, "status": "fixed", "reason": "percent_vs_amount",
            "note": "x", "reader": "t", "program": "divide(47, 50)", "answer_value": 0.94}


@pytest.mark.parametrize("answer, ok", [("94%", True), ("0.94", True), ("94", False), ("9.4%", False)])
def test_a_percent_display_states_a_fraction_gold_on_a_question_not_worded_as_percent(
        tmp_path, finqa_items, answer, ok):
    write(tmp_path, "finqa", "a.jsonl", [{**FIX1_PCT, "answer": answer}])
    if ok:
        assert load_verdicts("finqa", finqa_items, tmp_path)[("finqa_tw-test-0001", None)].answer_value == 0.94
    else:
        with pytest.raises(InputError, match="does not state"):
            load_verdicts("finqa", finqa_items, tmp_path)


def test_duplicates_unknown_turns_and_misplaced_lines(tmp_path, finqa_items, conv_items):
    write(tmp_path, "finqa", "0001-0005.jsonl", [OK1])
    dup = write(tmp_path, "finqa", "extra.jsonl", [FIX6, OK1])
    with pytest.raises(InputError, match=r"extra.jsonl:2 .*duplicate verdict for finqa_tw-test-0001 "
                                         r"\(first at .*0001-0005.jsonl:1\)"):
        load_verdicts("finqa", finqa_items, tmp_path)
    dup.unlink()
    write(tmp_path, "finqa", "0006-0010.jsonl", [FIX6, OK1])
    with pytest.raises(InputError, match="outside this file's range 6–10"):
        load_verdicts("finqa", finqa_items, tmp_path)
    base = {"id": "convfinqa_tw-dev-0001", "status": "verified", "reason": None, "reader": "t"}
    for turn, message in ((5, r"unknown turn 5 \(the conversation has turns 0–4\)"), (None, "give the 0-based turn")):
        write(tmp_path, "convfinqa", "c.jsonl", [{**base, "turn": turn}])
        with pytest.raises(InputError, match=message):
            load_verdicts("convfinqa", conv_items, tmp_path)


# ---- build integration --------------------------------------------------------------------------------

def _overlay_lines(subset: str, ids: set[str]) -> list[dict]:
    out = []
    for path in sorted((TRANSLATIONS_DIR / subset).glob("*.jsonl")):
        out += [r for r in read_jsonl(path) if r["id"] in ids]
    return out


def test_build_writes_gold_status_and_corrected_gold(tmp_path, sources_root, finqa_items, conv_items):
    tr, ver, out = tmp_path / "tr", tmp_path / "ver", tmp_path / "data"
    write(tr, "finqa", "a.jsonl", _overlay_lines("finqa", {finqa_items[i].source_id for i in (0, 5, 6, 628)}))
    write(tr, "convfinqa", "a.jsonl", _overlay_lines("convfinqa", {conv_items[0].source_id}))
    write(ver, "finqa", "0001-0010.jsonl", [OK1, FIX6])
    write(ver, "finqa", "0629.jsonl", [FIX629])
    # turn 1 "and what was it in 2005?": pretend the reader corrected it to the 2006 cell
    conv_fix = {"id": "convfinqa_tw-dev-0001", "turn": 1, "status": "fixed", "reason": "wrong_operand",
                "note": "test", "reader": "t", "program": "37.84", "answer_value": 37.84}
    write(ver, "convfinqa", "0001-0001.jsonl", [conv_fix])
    res = run_build(sources_root, tr, out, subsets=["finqa", "convfinqa"], verification=ver)
    assert res[0].extra["gold"] == "3/1,147 units read (verified 1, fixed 2)"
    recs = {r["id"]: r for r in read_jsonl(out / "finqa_tw_test.jsonl")}
    one, six, seven = recs["finqa_tw-test-0001"], recs["finqa_tw-test-0006"], recs["finqa_tw-test-0007"]
    assert one["gold_status"] == "verified" and one["gold_reason"] is None
    assert one["original_en"]["answer_value"] == one["answer_value"] == 94.0
    assert six["gold_status"] == "fixed" and six["gold_reason"] == "wrong_operand"
    assert six["answer_value"] == 0.08607 and six["answer"] == "0.08607" and six["program"] == FIX6["program"]
    assert six["original_en"]["answer_value"] == 0.06757
    assert six["original_en"]["program"] == "subtract(92710000, 86842000), divide(#0, 86842000)"
    assert seven["gold_status"] is None
    # a numeric upstream gold on a yes/no question: now yes/no, and the prompt asks it as one
    yn = recs["finqa_tw-test-0629"]
    assert (yn["answer_value"], yn["answer_text"], yn["answer"]) == (None, "yes", "yes")
    assert yn["original_en"]["answer_value"] == 471.0 and yn["original_en"]["answer_text"] is None
    assert yn["subcategory"] == "比較判斷"
    from tw_fin_eval.scoring.gold import upstream_view

    up = upstream_view(yn, None)  # the upstream gold scored as it was: a number, not yes/no
    assert (up["answer_value"], up["answer_text"]) == (471.0, None)
    from tw_fin_eval.prompts import SYSTEM_YES_NO_HINT

    assert yn["messages"][0]["content"].endswith(SYSTEM_YES_NO_HINT)
    assert not six["messages"][0]["content"].endswith(SYSTEM_YES_NO_HINT)
    conv = read_jsonl(out / "convfinqa_tw_dev.jsonl")[0]
    t0, t1 = conv["turns"][0], conv["turns"][1]
    assert t0["gold_status"] is None and t0["original_answer_value"] == t0["answer_value"] == 60.94
    assert t1["gold_status"] == "fixed" and t1["answer_value"] == 37.84 and t1["answer"] == "37.84"
    assert (t1["original_answer_value"], t1["original_program"], t1["original_answer"]) == (25.14, "25.14", "25.14")
    assert t1["original_answer_text"] is None
    # the gold history of later turns shows the corrected answer
    from tw_fin_eval.runner.requests import load_tasks

    task = [t for t in load_tasks([out / "convfinqa_tw_dev.jsonl"]) if t.turn == 2][0]
    history = [m["content"] for m in task.messages if m["role"] == "assistant"]
    assert "37.84" in history[1] and "25.14" not in history[1]
    # the declared features keep every new field
    from tw_fin_eval.features import project
    from tw_fin_eval.subsets import features_for

    shaped = project(six, features_for("finqa"))
    assert shaped["gold_status"] == "fixed" and shaped["original_en"]["answer_value"] == 0.06757
    shaped = project(conv, features_for("convfinqa"))
    assert shaped["turns"][1]["original_answer_value"] == 25.14 and shaped["turns"][1]["gold_status"] == "fixed"


def test_bad_verdict_stops_the_build_and_keeps_old_data(tmp_path, sources_root):
    out, ver = tmp_path / "data", tmp_path / "ver"
    run_build(sources_root, tmp_path / "tr", out, subsets=["finqa"], verification=ver, allow_empty=True)
    before = (out / "finqa_tw_test.jsonl").read_bytes()
    write(ver, "finqa", "a.jsonl", [{**FIX6, "answer_value": None}])
    with pytest.raises(InputError, match="a.jsonl:1 id=finqa_tw-test-0006.*answer_value"):
        run_build(sources_root, tmp_path / "tr", out, subsets=["finqa"], verification=ver, allow_empty=True)
    assert (out / "finqa_tw_test.jsonl").read_bytes() == before


# ---- CLI ----------------------------------------------------------------------------------------------

def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tw_fin_eval", *args], cwd=REPO, capture_output=True, text=True)


def test_cli_locate_and_check(tmp_path):
    p = _cli("verify-locate", "--subset", "finqa", "--range", "1-2")
    assert p.returncode == 0 and "── finqa_tw-test-0001" in p.stdout and "── finqa_tw-test-0002" in p.stdout
    assert "finqa_tw-test-0003" not in p.stdout
    p = _cli("verify-locate", "--range", "0-3")
    assert p.returncode == 2 and "outside 1–1147" in p.stderr and "Traceback" not in p.stderr
    write(tmp_path, "finqa", "a.jsonl", [OK1, {**OK1, "status": "maybe"}])
    p = _cli("verify-check", "--verification", str(tmp_path))
    assert p.returncode == 2 and "a.jsonl:2 id=finqa_tw-test-0001" in p.stderr and "Traceback" not in p.stderr
    write(tmp_path, "finqa", "a.jsonl", [OK1, FIX6])
    p = _cli("verify-check", "--verification", str(tmp_path))
    assert p.returncode == 0 and "finqa: 2/1,147 units read (verified 1, fixed 1)" in p.stdout
    assert "wrong_operand" in p.stdout


# ---- the committed verdicts ---------------------------------------------------------------------------

def test_committed_verdicts_are_valid(finqa_items, conv_items):
    load_verdicts("finqa", finqa_items, VERIFICATION_DIR)
    load_verdicts("convfinqa", conv_items, VERIFICATION_DIR)


def test_every_unit_has_a_verdict(finqa_items, conv_items):
    for subset, items in (("finqa", finqa_items), ("convfinqa", conv_items)):
        known = units(subset, items)
        verdicts = load_verdicts(subset, items, VERIFICATION_DIR)
        missing = set(known) - set(verdicts)
        assert not missing, f"{subset}: {len(missing)} units without a verdict, e.g. {sorted(missing, key=str)[:3]}"
        assert set(verdicts) == set(known)  # nothing extra either (load_verdicts rejects unknown units)


def test_docs_counts_match_the_verdict_files(finqa_items, conv_items):
    from tw_fin_eval.verification.verdicts import counts_markdown

    covs = {s: coverage(s, items, load_verdicts(s, items, VERIFICATION_DIR))
            for s, items in (("finqa", finqa_items), ("convfinqa", conv_items))}
    doc = (REPO / "docs" / "VERIFICATION.md").read_text(encoding="utf-8")
    block = doc.split("<!-- counts:begin -->\n", 1)[1].split("<!-- counts:end -->", 1)[0]
    assert block == counts_markdown(covs), (
        "docs/VERIFICATION.md counts are stale: paste `python -m tw_fin_eval verify-check --all --markdown`")


def test_card_gold_lines_count_statuses_and_reasons():
    from tw_fin_eval.subsets.spec import gold_status_lines

    units = [{"gold_status": "verified"}, {"gold_status": "verified"},
             {"gold_status": "fixed", "gold_reason": "swapped_years"},
             {"gold_status": "unanswerable", "gold_reason": "other"}, {}]
    lines = gold_status_lines(units)
    assert "verified 2、fixed 1、unanswerable 1、not read 1" in lines[0]
    assert lines[1].endswith("swapped_years 1") and lines[2].endswith("other 1") and len(lines) == 3
    assert len(gold_status_lines([{"gold_status": "verified"}])) == 1  # no reason lines without fixes


def test_card_gold_counts_equal_the_verdict_files(finqa_items, conv_items):
    """The dataset card's verification lines (measured from the built records) say what the verdict files say."""
    from tw_fin_eval import paths
    from tw_fin_eval.subsets import get_spec

    for subset, items, data_file in (("finqa", finqa_items, "finqa_tw_test.jsonl"),
                                     ("convfinqa", conv_items, "convfinqa_tw_dev.jsonl")):
        path = paths.DATA_DIR / data_file
        if not path.is_file():
            pytest.skip(f"data/{data_file} not built")
        records = [json.loads(line) for line in path.open(encoding="utf-8")]
        cov = coverage(subset, items, load_verdicts(subset, items, VERIFICATION_DIR))
        card = "\n".join(get_spec(subset).card.details(records))
        expected = "、".join(f"{s} {cov.status[s]:,}" for s in ("verified", "fixed", "unanswerable") if cov.status[s])
        assert f"gold verification（docs/VERIFICATION.md）：{expected}" in card
        for (status, reason), n in cov.reasons.items():
            assert f"{reason} {n:,}" in card.split(status + " 原因", 1)[1].split("\n", 1)[0]

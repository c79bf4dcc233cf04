"""What the translated subsets' record factories share (docs/FORMATS.md §1): record ids, the zh-TW
rendering of table evidence (written here once), provenance, the translation note, FinQA's kind of
calculation (the FinQA subcategory and a verification stratum). Each subset's own factory lives in its
spec module (tw_fin_eval/subsets/<name>.py) and builds the record with `schema.base_record`."""

from __future__ import annotations

import re
from types import ModuleType

from tw_fin_eval import DATA_VERSION, evidence_zh, prompts
from tw_fin_eval.overlay import Overlay
from tw_fin_eval.sources.base import Evidence, SourceItem, numbers_in

TRANSLATION_NOTE = "機器翻譯（Claude，依術語表），已通過規則檢查；尚未人工全面審閱"

# FinQA: the last operation of the gold program names the kind of calculation
PROGRAM_KINDS = {
    "subtract": "增減計算",
    "divide": "比率計算",
    "add": "加總計算",
    "multiply": "乘積計算",
    "greater": "比較判斷",
    "exp": "指數計算",
    "table_sum": "表格彙總",
    "table_average": "表格彙總",
    "table_max": "表格彙總",
    "table_min": "表格彙總",
}


def program_kind(program: str) -> str:
    ops = re.findall(r"(\w+)\(", program or "")
    return PROGRAM_KINDS.get(ops[-1], "其他") if ops else "其他"


def render_table_evidence(table: list[list[str]], row: int, keep: frozenset[float] = frozenset()) -> str:
    """zh-TW sentence for table row evidence, rendered from the *translated* table so it always agrees
    with it: 「2015 年淨營收為 $ 5829（單位：百萬美元）。」 (the wording lives in evidence_zh.render_row)."""
    return evidence_zh.render_row(table, row, keep)


def numeric_messages(question: str, table: list[list[str]] | None, evidence: list[str], *, yes_no: bool,
                     table_unit: str | None) -> list[dict[str, str]]:
    """A FinQA-TW prompt: the table under its own header row, or under a named one when its first row is
    data (`evidence_zh.prompt_header`) — every builder of a FinQA-style prompt (subsets, verdicts, evidence
    additions, twins) calls this, so a record's messages are always the same function of its fields."""
    return prompts.numeric_messages(question, table, evidence, yes_no=yes_no, table_unit=table_unit,
                                    header=evidence_zh.prompt_header(table, table_unit))


def conversation_parts(table: list[list[str]] | None, evidence: list[str],
                       table_unit: str | None) -> tuple[str, str]:
    """(system, first_user_prefix) of a ConvFinQA-TW record, its table printed as `numeric_messages` does."""
    return prompts.conversation_parts(table, evidence, table_unit, evidence_zh.prompt_header(table, table_unit))


_SCALE_ZH = {3: "千", 6: "百萬", 9: "十億"}
_KIND_ZH = {"dollars": "美元", "shares": "股", "": ""}


_PER_SHARE_ROW_RE = re.compile(r"per (?:common |diluted |basic )?share|per-share|\beps\b|\bper unit\b", re.I)
_SHARE_ROW_RE = re.compile(r"\bshares?\b|\bunits?\b", re.I)


def table_unit_caption(item: SourceItem) -> str | None:
    """The table's unit in zh-TW when the page states it only outside the table (the sentence before it,
    `amount_scale.unit_note`): 「單位：千美元」, 「單位：百萬，每股金額除外」, 「單位：千，股數及每股金額除外」; None otherwise."""
    note = item.fields.get("unit_note")
    if note is None:
        return None
    caption = f"單位：{_SCALE_ZH[note.scale]}{_KIND_ZH[note.kind]}"
    # the page's note covers every table on it; an exception for a kind of row this table does not have is noise
    cells = " ".join(c for row in item.table or [] for c in row[:1]) + " " + " ".join((item.table or [[]])[0])
    has = {"股數": bool(_SHARE_ROW_RE.search(_PER_SHARE_ROW_RE.sub(" ", cells))),
           "每股金額": bool(_PER_SHARE_ROW_RE.search(cells))}
    excepted = "及".join(what for what, on in (("股數", note.except_shares), ("每股金額", note.except_per_share))
                        if on and has[what])
    return caption + (f"，{excepted}除外" if excepted else "")


def gold_operands(item: SourceItem) -> frozenset[float]:
    """The literal numbers the item's programs compute with (FinQA's program, every ConvFinQA turn's)."""
    from tw_fin_eval.sources.amount_scale import program_literals

    programs = [item.fields.get("program")] + [t.get("program") for t in item.fields.get("turns") or []]
    return frozenset(v for p in programs if p for v in program_literals(p))


# a sentence FinQA's splitter cut after an abbreviation's full stop: "… under apb no ." | "25 's intrinsic …"
_ABBREVIATION_END = re.compile(r"\b(?:no|nos|u\.s|inc|corp|co|ltd|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec|"
                               r"mr|mrs|ms|dr|st|vs|approx|e\.g|i\.e)\s*\.$", re.I)


# a zh-TW sentence that ends (or that the translator marked as cut off: 「……」) is no fragment
_ZH_SENTENCE_END = re.compile(r"[。！？；」）…]\s*$")


def evidence_runs(item: SourceItem, ov: Overlay | None = None) -> list[list[Evidence]]:
    """The evidence entries as a reader gets them: consecutive text sentences that the source's splitter cut
    after an abbreviation ("… under apb no ." + "25 …", "certain u.s ." + "business units …") are one
    entry again — unless the translation of the first ends a sentence (「相關的美國……」 + 「2018 財務年度…」:
    the source lost words there); everything else is one entry each, in the English order."""
    zh = (ov.data.get("evidence") or {}) if ov is not None else {}
    runs: list[list[Evidence]] = []
    for e in item.evidence:
        prev = runs[-1][-1] if runs else None
        if prev is not None and not prev.is_table and not e.is_table and \
                e.key == f"text_{int(prev.key[5:]) + 1}" and _ABBREVIATION_END.search(prev.text.strip()) and \
                not _ZH_SENTENCE_END.search(str(zh.get(prev.key, ""))):
            runs[-1].append(e)
        else:
            runs.append([e])
    return runs


def join_fragments(parts: list[str]) -> str:
    """zh-TW fragments of one sentence joined: a space only where a digit or Latin letter meets a word
    (「APB 第」 + 「25 號意見書…」 → 「APB 第 25 號意見書…」), none between Chinese characters."""
    out = parts[0].strip() if parts else ""
    for part in parts[1:]:
        part = part.strip()
        gap = " " if re.search(r"[A-Za-z0-9]$", out) or re.match(r"[A-Za-z0-9$]", part) else ""
        out += gap + part
    return out


def zh_table(item: SourceItem, ov: Overlay) -> list[list[str]]:
    """The record's table: the overlay's table as a Taiwan table prints it (`evidence_zh.display_table`;
    a dash code a gold program computes with stays a number in the gold's evidence rows; the page's sentences
    may state a total that tells a dash code from a number; a footnote number the English glued to a label —
    「securities borrowed2」 — prints 「（註 2）」, `evidence_zh.glued_notes`)."""
    rows = frozenset(e.row for e in item.evidence if e.is_table)
    stated = frozenset(abs(v) for sentence in item.fields.get("page_text") or [] for v in numbers_in(sentence))
    table = evidence_zh.glued_notes(ov.data.get("table") or [], item.table)
    return evidence_zh.display_table(table, gold_operands(item), rows, stated)


def zh_evidence(item: SourceItem, ov: Overlay) -> list[str]:
    """The evidence in the English order (one entry per `evidence_runs` run): a table row as the overlay writes
    it (`evidence.table_N`) or else rendered from the translated table, text evidence from the overlay."""
    table = zh_table(item, ov)
    keep = gold_operands(item)
    written = ov.data.get("evidence") or {}
    out = []
    for run in evidence_runs(item, ov):
        e = run[0]
        if e.is_table:
            out.append(written[e.key].strip() if e.key in written else render_table_evidence(table, e.row, keep))
        else:
            out.append(join_fragments([written[x.key] for x in run]))
    return out


def translation_meta(ov: Overlay) -> dict[str, str]:
    return {"translation": f"{TRANSLATION_NOTE}；{ov.path.parent.name}/{ov.path.name}",
            "review_status": "unreviewed", "version": DATA_VERSION}


def source_of(name: str, module: ModuleType, orig_id: str) -> dict[str, str]:
    """Provenance from a source adapter module's PAPER / URL / LICENSE."""
    return {"name": name, "paper": module.PAPER, "orig_id": orig_id, "url": module.URL, "license": module.LICENSE}


def en_evidence(item: SourceItem, ov: Overlay | None = None) -> list[dict[str, str]]:
    """The English evidence aligned with `zh_evidence(item, ov)`: a joined run keeps its first key."""
    return [{"key": run[0].key, "text": " ".join(e.text.strip() for e in run)} for run in evidence_runs(item, ov)]

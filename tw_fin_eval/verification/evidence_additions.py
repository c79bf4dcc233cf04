"""Evidence additions (docs/VERIFICATION.md, "Residual classes", class 3): a page sentence a gold needs that
the upstream evidence leaves out, added to the unit's evidence with its zh-TW translation, so the prompt
shows the fact the program computes with.

`verification/evidence_additions.jsonl`, one line per added sentence, in the order they are appended:

    {"id": "finqa_tw-test-1028", "page": 0, "en": "on july 18 , 2013 , the board approved …", "zh": "董事會於 …",
     "reader": "h29", "note": "the $10 billion program the percentage is of"}

`page` is the 0-based index of the sentence in the item's page text (pre_text + post_text, as
`verify-locate --full` numbers it) and `en` must be that sentence exactly, so a changed source cannot
silently attach the wrong translation. The zh-TW passes the same rules as every overlay (check_translation).
The sentence is appended to `context.evidence` (and `{key: "page_N", text}` to `original_en.evidence`) and the
prompt is rendered again."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tw_fin_eval import prompts
from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import iter_jsonl
from tw_fin_eval.records import conversation_parts, numeric_messages
from tw_fin_eval.subsets import SUBSETS, get_spec

# the source items are passed in keyed by record id (verdicts.apply_verdicts); the registry is read only for
# which subsets are gold-verified and their record ids

FILE_NAME = "evidence_additions.jsonl"
FIELDS = {"id", "page", "en", "zh", "reader", "note"}

_VERIFIED = [s for s in SUBSETS.values() if s.gold_verification]  # the subsets whose verdicts these lines extend
_ID_PREFIXES = tuple(s.id_format.split("-", 1)[0] + "-" for s in _VERIFIED)  # finqa_tw-, convfinqa_tw-


@dataclass(frozen=True)
class Addition:
    id: str
    page: int
    en: str
    zh: str
    reader: str
    note: str

    @property
    def key(self) -> str:
        return f"page_{self.page}"


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


def load_additions(path: Path, items_by_id: dict[str, Any]) -> dict[str, list[Addition]]:
    """The additions of one subset's records (`items_by_id`: record id → English source item), validated
    (InputError with file:line and id); lines of the other subset are skipped."""
    from tw_fin_eval.zhcheck.rules import check_translation  # lazy: the rule tables load on first use

    if not path.is_file() or not items_by_id:
        return {}
    by_id = items_by_id
    prefix = next(iter(by_id)).rsplit("-", 1)[0] + "-"
    out: dict[str, list[Addition]] = defaultdict(list)
    seen: dict[tuple[str, int], int] = {}
    for line, obj in iter_jsonl(path):
        rid = obj.get("id")

        def fail(msg: str, field: str | None = None, line: int = line, rid: object = rid) -> InputError:
            return InputError(msg, path=path, line=line, item_id=str(rid) if rid is not None else None, field=field)

        if not isinstance(rid, str) or not rid.startswith(_ID_PREFIXES):
            raise fail(f"id must be a {' or '.join(s.dataset for s in _VERIFIED)} record id")
        if not rid.startswith(prefix):
            continue  # the other subset's line
        extra, missing = set(obj) - FIELDS, FIELDS - set(obj)
        if extra or missing:
            raise fail(f"fields must be exactly {', '.join(sorted(FIELDS))} "
                       f"(unknown: {', '.join(sorted(extra)) or '-'}; missing: {', '.join(sorted(missing)) or '-'})")
        item = by_id.get(rid)
        if item is None:
            raise fail("unknown id")
        page, en, zh = obj["page"], obj["en"], obj["zh"]
        sentences = item.fields.get("page_text") or []
        if not isinstance(page, int) or isinstance(page, bool) or not 0 <= page < len(sentences):
            raise fail(f"page must be a sentence index 0–{len(sentences) - 1} of the page text", "page")
        if not isinstance(en, str) or not _same(en, sentences[page]):
            raise fail(f"en differs from page sentence {page}: {sentences[page][:80]!r}", "en")
        if any(_same(e.text, en) for e in item.evidence):
            raise fail("this sentence is already in the evidence", "en")
        if (rid, page) in seen:
            raise fail(f"sentence {page} added twice (first at line {seen[(rid, page)]})", "page")
        seen[(rid, page)] = line
        if not isinstance(zh, str) or not zh.strip() or "\n" in zh:
            raise fail("zh must be a one-line zh-TW sentence", "zh")
        findings = check_translation(en, zh)
        if findings:
            raise fail("zh fails the zh-TW rules: " + "; ".join(f.message for f in findings[:3]), "zh")
        for name in ("reader", "note"):
            if not isinstance(obj[name], str) or not obj[name].strip():
                raise fail(f"{name} is required", name)
        out[rid].append(Addition(rid, page, en, zh, obj["reader"], obj["note"]))
    return dict(out)


def apply_additions(subset: str, items_by_id: dict[str, Any], records: list[dict[str, Any]],
                    verification_dir: Path) -> int:
    """Append each addition to its record's evidence and render the prompt again; the number added."""
    additions = load_additions(verification_dir / FILE_NAME, items_by_id)
    n = 0
    for rec in records:
        adds = additions.get(rec["id"])
        if not adds:
            continue
        ctx = rec["context"]
        ctx["evidence"] = list(ctx["evidence"]) + [a.zh for a in adds]
        rec["original_en"]["evidence"] = list(rec["original_en"]["evidence"]) + [
            {"key": a.key, "text": a.en} for a in adds]
        if not get_spec(subset).conversational:
            rec["messages"] = numeric_messages(rec["question"], ctx["table"], ctx["evidence"],
                                                       yes_no=rec["answer_text"] is not None,
                                                       table_unit=ctx.get("table_unit"))
        else:
            system, prefix = conversation_parts(ctx["table"], ctx["evidence"], ctx.get("table_unit"))
            rec["system"], rec["first_user_prefix"] = system, prefix
            rec["messages"] = prompts.conversation_messages(system, prefix, [rec["turns"][0]["question"]], [])
        n += len(adds)
    return n

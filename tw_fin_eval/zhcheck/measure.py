"""Reproduce the checker's measurements (numbers quoted in the glossary and the engineering report).

    python -m tw_fin_eval.zhcheck.measure allowlist        # Big5 characters that s2tw changes, allowed or flagged
    python -m tw_fin_eval.zhcheck.measure speed --mb 10    # check_zh on N MB of Taiwan text
    python -m tw_fin_eval.zhcheck.measure mutations        # inject defects into the committed overlays
    python -m tw_fin_eval.zhcheck.measure patterns [data/]  # issue-20 style counts over built records
    python -m tw_fin_eval.zhcheck.measure s2tw-table [--write]  # compare / regenerate the committed s2tw table

`mutations` needs the English sources (--sources or $TW_FIN_EVAL_SOURCES); `s2tw-table` and `mutations` need
opencc; the others need nothing.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from tw_fin_eval import paths
from tw_fin_eval import subsets as registry
from tw_fin_eval.glossary import load_glossary
from tw_fin_eval.zhcheck.rules import _s2tw_changes, _s2tw_char, check_translation, check_zh


def big5_characters() -> list[str]:
    """Every character of the Big5 code table (13,000-odd Traditional characters), in code order."""
    out = []
    for hi in range(0xA4, 0xFA):
        for lo in list(range(0x40, 0x7F)) + list(range(0xA1, 0xFF)):
            try:
                out.append(bytes([hi, lo]).decode("big5"))
            except UnicodeDecodeError:
                continue
    return out


def allowlist_report() -> list[tuple[str, str, bool, bool]]:
    """(char, s2tw(char), allowed by the glossary, in Big5's frequent-character block A440–C67E)."""
    allow = load_glossary().simplified_allow
    rows = []
    for ch in big5_characters():
        tw = _s2tw_char(ch)
        if tw != ch:
            rows.append((ch, tw, ch in allow, ch.encode("big5") < b"\xc6\x7f"))
    return rows


def speed(megabytes: float) -> tuple[int, float, int]:
    """Seconds for check_zh on `megabytes` million characters of Taiwan text (glossary + overlays)."""
    base = paths.GLOSSARY_PATH.read_text(encoding="utf-8")
    for path in sorted(paths.TRANSLATIONS_DIR.glob("*/*.jsonl")):
        base += path.read_text(encoding="utf-8")
    size = int(megabytes * 1_000_000)
    text = (base * (size // len(base) + 1))[:size]
    _s2tw_changes()  # build the one-time tables outside the timing
    check_zh("暖身" * 20_000)
    start = time.perf_counter()
    findings = check_zh(text)
    return len(text), time.perf_counter() - start, len(findings)


@dataclass
class Pair:
    en: str
    zh: str
    in_table: bool


def overlay_pairs(sources: str | None) -> list[Pair]:
    from tw_fin_eval.overlay import load_overlays, pairs

    root = paths.sources_dir(sources)
    out = []
    for spec in registry.translated():
        items = spec.load_source(root)
        by_id = {it.source_id: it for it in items}
        for sid, ov in load_overlays(spec, items, paths.TRANSLATIONS_DIR).items():
            out.extend(Pair(p.en, p.zh, p.in_table) for p in pairs(spec, by_id[sid], ov))
    return out


def _mutators(rng: random.Random) -> dict[str, Callable[[Pair], str | None]]:
    import opencc

    t2s = opencc.OpenCC("t2s")

    def simplified(p: Pair) -> str | None:
        zh = t2s.convert(p.zh)
        return zh if zh != p.zh else None

    def drop_numeral(p: Pair) -> str | None:
        nums = list(re.finditer(r"\d[\d,]*(?:\.\d+)?", p.zh))
        if not nums:
            return None
        m = rng.choice(nums)
        return p.zh[:m.start()] + p.zh[m.end():]

    def append_english(p: Pair) -> str | None:
        words = re.findall(r"[a-z]{3,}", p.en)
        if len(words) < 2:
            return None
        k = rng.randrange(len(words) - 1)
        return p.zh + " " + " ".join(words[k:k + 2])

    def untranslated(p: Pair) -> str | None:
        return p.en if re.search(r"[a-z]{3,} [a-z]{3,}", p.en) else None

    def million(p: Pair) -> str | None:
        return p.zh.replace("百萬", " million", 1) if "百萬" in p.zh else None

    def long_term_debt(p: Pair) -> str | None:
        return p.zh.replace("長期債務", "長期負債") if "長期債務" in p.zh else None

    def prc_term(p: Pair) -> str | None:
        for good, bad in [("籌資", "融資"), ("選擇權", "期權"), ("帳", "賬"), ("本益比", "市盈率"),
                          ("資訊", "信息"), ("權益", "股東權益")]:
            if good in p.zh:
                return p.zh.replace(good, bad, 1)
        return None

    def date_spacing(p: Pair) -> str | None:
        zh = re.sub(r"(\d+) 月 (\d+) 日", r"\1月\2日", p.zh)
        return zh if zh != p.zh else None

    return {"simplified (t2s)": simplified, "numeral dropped": drop_numeral,
            "2 English words appended": append_english, "English left untranslated": untranslated,
            "百萬 → million": million, "長期債務 → 長期負債": long_term_debt, "PRC term swapped in": prc_term,
            "date spacing removed": date_spacing}


def mutation_rates(all_pairs: Iterable[Pair], seed: int = 1) -> tuple[int, int, dict[str, tuple[int, int]]]:
    """(pairs, clean pairs, {defect: (mutated, caught)}) — each defect injected once into every clean pair
    it applies to. A dropped numeral that the English does not require (12 from "december") is not an
    error, so that rate stays below 100% by design."""
    all_pairs = list(all_pairs)
    clean = [p for p in all_pairs if not check_translation(p.en, p.zh, in_table=p.in_table)]
    rates = {}
    for name, mutate in _mutators(random.Random(seed)).items():
        mutated = caught = 0
        for p in clean:
            zh = mutate(p)
            if zh is None:
                continue
            mutated += 1
            caught += bool(check_translation(p.en, zh, in_table=p.in_table))
        rates[name] = (mutated, caught)
    return len(all_pairs), len(clean), rates


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tw_fin_eval.zhcheck.measure", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    sub.add_parser("allowlist", help="Big5 characters that s2tw changes")
    sp = sub.add_parser("speed", help="check_zh throughput")
    sp.add_argument("--mb", type=float, default=10.0, help="million characters to check (default 10)")
    mp = sub.add_parser("mutations", help="defect detection on the committed overlays")
    mp.add_argument("--sources", help="English sources folder (default $TW_FIN_EVAL_SOURCES or ../shared/sources)")
    pp = sub.add_parser("patterns", help="issue-20 register patterns over built records")
    pp.add_argument("data", nargs="?", default="data", help="folder of built records (default: data)")
    pp.add_argument("--show", metavar="PATTERN", help="list the affected strings of one pattern (name as printed)")
    pp.add_argument("--subset", choices=[s.name for s in registry.translated()], help="with --show: one subset")
    pp.add_argument("--range", help="with --show: item numbers, e.g. 1-100")
    tp = sub.add_parser("s2tw-table", help="compare the committed s2tw character table with the installed OpenCC")
    tp.add_argument("--write", action="store_true", help="regenerate tw_fin_eval/zhcheck/s2tw_chars.json")
    args = parser.parse_args(argv)

    if args.what == "allowlist":
        rows = allowlist_report()
        print(f"Big5 characters: {len(big5_characters())}; changed by s2tw: {len(rows)} "
              f"({sum(r[3] for r in rows)} in the frequent block)")
        for ch, tw, allowed, frequent in rows:
            print(f"{ch} → {tw}\t{'allowed' if allowed else 'flagged'}\t{'frequent' if frequent else 'rare'}")
    elif args.what == "speed":
        chars, seconds, found = speed(args.mb)
        print(f"check_zh: {chars:,} characters in {seconds:.2f} s ({found} findings)")
    elif args.what == "patterns":
        from tw_fin_eval.errors import InputError
        from tw_fin_eval.zhcheck.patterns import FILES, count_data, format_counts, show

        try:
            if args.show:
                m = re.fullmatch(r"(\d+)(?:-(\d+))?", args.range) if args.range else None
                if args.range and not m:
                    raise InputError(f"--range must look like 1-100, not {args.range!r}")
                first, last = (int(m.group(1)), int(m.group(2) or m.group(1))) if m else (1, None)
                subsets = (args.subset,) if args.subset else tuple(FILES)
                for line in show(Path(args.data), args.show, subsets, first, last):
                    print(line)
            else:
                print(format_counts(count_data(Path(args.data))))
        except InputError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    elif args.what == "s2tw-table":
        from tw_fin_eval.zhcheck import rules

        if args.write:
            print(f"wrote {rules.S2TW_TABLE} ({rules.write_s2tw_table():,} characters)")
            return 0
        committed, current = rules._s2tw_changes(), rules.opencc_s2tw_changes()
        differ = sorted(set(committed.items()) ^ set(current.items()))
        print(f"committed table: {len(committed):,} characters; installed OpenCC s2tw: {len(current):,}; "
              f"differing entries: {len(differ)}")
        for ch, tw in differ[:20]:
            print(f"  {ch} → {tw} ({'table only' if committed.get(ch) == tw else 'OpenCC only'})")
        return 1 if differ else 0
    else:
        total, clean, rates = mutation_rates(overlay_pairs(args.sources))
        print(f"overlay pairs: {total}; passing every rule: {clean}")
        for name, (mutated, caught) in rates.items():
            share = 100 * caught / mutated if mutated else 0.0
            print(f"{name:28s} mutated {mutated:6d}  caught {caught:6d}  ({share:.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

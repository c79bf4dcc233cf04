"""The layer table of docs/ARCHITECTURE.md as a test: every import of the package — top-level, inside functions,
under TYPE_CHECKING — read from the source (AST), then (1) no module imports a module of a later layer and
(2) the import graph has no cycle. Importing `a.b.c` also runs the packages `a.b` and `a`: those edges count.

There is no allow-list: any upward edge or cycle fails."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "tw_fin_eval"

# (layer, module prefixes) in the order of docs/ARCHITECTURE.md: a module may import its own layer and the
# ones listed before it. The longest matching prefix decides a module's layer.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("I/O and errors", ("tw_fin_eval", "errors", "jsonl", "paths", "redact", "data_input")),
    ("schema", ("schema", "prompts")),
    ("answer reading", ("answers",)),
    ("checker data", ("finding",)),
    ("zh-TW rules", ("glossary", "zhcheck", "zhcheck.rules", "evidence_zh")),
    ("sources", ("sources",)),
    ("overlays", ("overlay",)),
    ("subsets", ("subsets", "records", "features")),
    ("statistics", ("reports.stats",)),  # pure functions: the gold audit's intervals use them too
    ("commands", ("build", "todo", "cli", "configs", "zhcheck.cli", "zhcheck.measure", "zhcheck.patterns",
                  "zhcheck.records", "release", "verification", "twins")),
    # evaluation: ask servers → score answers → report; the score/selfcheck commands and integrations on top
    ("runner", ("runner", "testing")),
    ("scoring", ("scoring",)),
    ("reports", ("reports", "twins.gap")),  # twins.gap: the memorisation gap in reports
    ("evaluation commands", ("scoring.cli", "scoring.selfcheck", "integrations", "plan", "__main__")),
)

def _modules() -> dict[str, Path]:
    mods: dict[str, Path] = {}
    for path in (ROOT / PACKAGE).rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = path
    return mods


def _known(mods: dict[str, Path], name: str) -> str | None:
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, set[str]]:
    """module → the package modules it imports (with the parent packages an import runs, when their
    __init__ imports anything itself: an empty package file runs no code of a later layer)."""
    mods = _modules()
    direct = {name: _direct_imports(mods, name, path) for name, path in mods.items()}
    graph: dict[str, set[str]] = {}
    for name, targets in direct.items():
        with_parents = set(targets)
        for t in targets:  # importing a.b.c runs a.b/__init__ and a/__init__ first
            parts = t.split(".")
            with_parents.update(p for i in range(2, len(parts)) if direct.get(p := ".".join(parts[:i])))
        own = {".".join(name.split(".")[:i]) for i in range(1, len(name.split(".")) + 1)}
        graph[name] = {t for t in with_parents if t not in own}
    return graph


def _direct_imports(mods: dict[str, Path], name: str, path: Path) -> set[str]:
    """The package modules `name` imports itself (`from pkg import submodule` counts the submodule)."""
    is_package = path.name == "__init__.py"
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            targets.update(t for a in node.names if (t := _known(mods, a.name)))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name if is_package else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            for alias in node.names:  # `from pkg import submodule` imports the submodule
                full = f"{module}.{alias.name}"
                targets.update(t for t in ((full if full in mods else _known(mods, module)),) if t)
    return targets - {name}


def layer_of(module: str) -> int:
    short = module[len(PACKAGE) + 1:] if module != PACKAGE else PACKAGE
    best, rank = "", None
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if (short == p or short.startswith(p + ".")) and len(p) > len(best):
                best, rank = p, i
    if rank is None:
        raise AssertionError(f"{module} is in no layer of tests/test_layers.py (add it, and to docs/ARCHITECTURE.md)")
    return rank


def _short(module: str) -> str:
    return module[len(PACKAGE) + 1:] if module.startswith(PACKAGE + ".") else module


def upward_edges(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    return {(_short(a), _short(b)) for a, deps in graph.items() for b in deps if layer_of(b) > layer_of(a)}


def cycles(graph: dict[str, set[str]]) -> set[tuple[str, ...]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[tuple[str, ...]] = set()
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    component.append(m)
                    if m == node:
                        break
                if len(component) > 1:
                    found.add(tuple(sorted(_short(m) for m in component)))
    return found


def test_every_module_has_a_layer():
    for module in _modules():
        layer_of(module)


def test_no_module_imports_a_later_layer():
    up = sorted(upward_edges(import_graph()))
    assert not up, "imports of a later layer (docs/ARCHITECTURE.md's table): " + ", ".join(f"{a} → {b}" for a, b in up)


def test_the_import_graph_has_no_cycle():
    found = sorted(cycles(import_graph()))
    assert not found, "import cycles: " + "; ".join(" ↔ ".join(c) for c in found)


def test_the_answer_layer_and_the_runner_use_the_standard_library_only():
    graph = import_graph()
    for name, deps in graph.items():
        short = _short(name)
        if short.startswith("answers"):
            assert all(_short(d).startswith("answers") or _short(d) == "schema" for d in deps), (name, deps)
        if short.startswith("runner"):  # it runs on bare GPU boxes: no scoring, no datasets
            assert not any(_short(d).startswith(("scoring", "answers", "subsets")) for d in deps), (name, deps)


@pytest.mark.parametrize("source, expected, upward", [
    ("import tw_fin_eval.scoring.tasks\n", {"tw_fin_eval.scoring.tasks", "tw_fin_eval.scoring"}, "scoring.tasks"),
    ("def f():\n    from tw_fin_eval.answers import match\n", {"tw_fin_eval.answers.match"}, "answers.match"),
    ("import typing\nif typing.TYPE_CHECKING:\n    from .scoring.tasks import X\n",
     {"tw_fin_eval.scoring.tasks", "tw_fin_eval.scoring"}, "scoring.tasks"),
])
def test_the_walk_sees_lazy_imports_and_parent_packages(tmp_path, source, expected, upward):
    pkg = tmp_path / PACKAGE
    for sub in ("scoring", "answers"):
        (pkg / sub).mkdir(parents=True)
    (pkg / "scoring" / "__init__.py").write_text("from tw_fin_eval.scoring import tasks\n")  # runs code: an edge
    (pkg / "answers" / "__init__.py").write_text('"""An empty package: importing its modules runs nothing else."""\n')
    (pkg / "__init__.py").write_text("")
    (pkg / "scoring" / "tasks.py").write_text("")
    (pkg / "answers" / "match.py").write_text("")
    (pkg / "schema.py").write_text(source)
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        graph = import_graph()
    finally:
        ROOT = saved
    assert graph["tw_fin_eval.schema"] == expected
    assert ("schema", upward) in upward_edges(graph)
    assert ("answers.match", "schema") not in upward_edges(graph)  # a later layer may import an earlier one


def test_a_cycle_is_found_and_a_chain_is_not():
    chain = {"tw_fin_eval.a": {"tw_fin_eval.b"}, "tw_fin_eval.b": {"tw_fin_eval.c"}, "tw_fin_eval.c": set()}
    assert cycles(chain) == set()
    looped = {**chain, "tw_fin_eval.c": {"tw_fin_eval.a"}}
    assert cycles(looped) == {("a", "b", "c")}

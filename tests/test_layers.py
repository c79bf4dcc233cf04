"""The layer table of docs/ARCHITECTURE.md as a test. The table is read from the document itself; every import
of the package — top-level, inside functions, under TYPE_CHECKING — is read from the source (AST), then
(1) no module imports a module of a later layer and (2) the import graph has no cycle. Importing `a.b.c` also
runs the packages `a.b` and `a`: those edges count. Every module is in exactly one row and every path a row
names exists. There is no allow-list: any upward edge or cycle fails."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "tw_fin_eval"
DOC = ROOT / "docs" / "ARCHITECTURE.md"
OUTSIDE = "shells"  # the table's last row: files outside the package (paths relative to the repository)


def doc_rows(text: str | None = None) -> list[tuple[str, list[str]]]:
    """(layer, module paths) of every row of the "## Layers" table, in order."""
    text = DOC.read_text(encoding="utf-8") if text is None else text
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 3 or cells[0] in ("layer", "") or set(cells[0]) <= {"-"}:
            continue
        rows.append((cells[0], re.findall(r"`([^`]+)`", cells[1])))
    assert rows, f"{DOC}: no layer table under '## Layers'"
    return rows


def _entry(path: str) -> tuple[str, bool]:
    """A table path → (module name without the package prefix, exact?): `a/b.py` → ("a.b", True),
    `a/__init__.py` → ("a", True), `a/` → ("a", False: the package and what is under it), `__init__.py` → the
    package itself."""
    if path.endswith("/"):
        return path.rstrip("/").replace("/", "."), False
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return (".".join(parts) or PACKAGE), True


def layers(text: str | None = None) -> tuple[tuple[str, tuple[tuple[str, bool], ...]], ...]:
    return tuple((name, tuple(_entry(p) for p in paths)) for name, paths in doc_rows(text) if name != OUTSIDE)


LAYERS = layers()


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


def layer_of(module: str, table: tuple[tuple[str, tuple[tuple[str, bool], ...]], ...] | None = None) -> int:
    """The row of `module`: a row naming it exactly, else the row with the longest package prefix of it."""
    short = module[len(PACKAGE) + 1:] if module != PACKAGE else PACKAGE
    best, rank = -1, None
    for i, (_, entries) in enumerate(LAYERS if table is None else table):
        for name, exact in entries:
            if exact and short == name:
                score = 10_000  # a module named exactly beats any prefix
            elif not exact and (short == name or short.startswith(name + ".")):
                score = len(name)
            else:
                continue
            if score > best:
                best, rank = score, i
    if rank is None:
        raise AssertionError(f"{module} is in no row of the layer table of docs/ARCHITECTURE.md (add it there)")
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


def test_every_module_has_a_layer_and_every_path_in_the_table_exists():
    for module in _modules():
        layer_of(module)
    named = [(layer, p) for layer, paths in doc_rows() for p in paths]
    missing = [f"{layer}: {p}" for layer, p in named
               if not any((ROOT if layer == OUTSIDE else ROOT / PACKAGE).glob(p.rstrip("/")))]
    assert not missing, f"docs/ARCHITECTURE.md names paths that do not exist: {missing}"
    twice = sorted({p for _, p in named if sum(1 for _, q in named if q == p) > 1})
    assert not twice, f"docs/ARCHITECTURE.md lists these in more than one row: {twice}"
    assert [name for name, _ in doc_rows()][-1] == OUTSIDE


def test_the_table_is_read_from_the_document():
    text = ("## Layers\n\n| layer | modules | job |\n|---|---|---|\n| low | `a.py`, `pkg/__init__.py` | x |\n"
            "| high | `pkg/`, `b.py` | `c.py` is not a module cell |\n| shells | `tools/*.py` | y |\n\n## Next\n")
    table = layers(text)
    assert table == (("low", (("a", True), ("pkg", True))), ("high", (("pkg", False), ("b", True))))
    assert layer_of(f"{PACKAGE}.pkg", table) == 0          # the package module, named exactly
    assert layer_of(f"{PACKAGE}.pkg.sub", table) == 1      # under the package prefix
    assert layer_of(f"{PACKAGE}.b", table) == 1
    with pytest.raises(AssertionError, match="no row"):
        layer_of(f"{PACKAGE}.c", table)


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
    ("import tw_fin_eval.scoring.scorers\n", {"tw_fin_eval.scoring.scorers", "tw_fin_eval.scoring"}, "scoring.scorers"),
    ("def f():\n    from tw_fin_eval.answers import match\n", {"tw_fin_eval.answers.match"}, "answers.match"),
    ("import typing\nif typing.TYPE_CHECKING:\n    from .scoring.scorers import X\n",
     {"tw_fin_eval.scoring.scorers", "tw_fin_eval.scoring"}, "scoring.scorers"),
])
def test_the_walk_sees_lazy_imports_and_parent_packages(tmp_path, source, expected, upward):
    pkg = tmp_path / PACKAGE
    for sub in ("scoring", "answers"):
        (pkg / sub).mkdir(parents=True)
    (pkg / "scoring" / "__init__.py").write_text("from tw_fin_eval.scoring import scorers\n")  # runs code: an edge
    (pkg / "answers" / "__init__.py").write_text('"""An empty package: importing its modules runs nothing else."""\n')
    (pkg / "__init__.py").write_text("")
    (pkg / "scoring" / "scorers.py").write_text("")
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

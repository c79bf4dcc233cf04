"""Metrics that load from the release without this package: `evaluate.load("<release>/code/metrics/numeric_match")`
in a venv that has only `evaluate`.

`evaluate` copies a metric script and the single-file modules it imports relatively (`from .x import y`)
into its module cache; a plain `import tw_fin_eval` makes it demand `pip install tw_fin_eval`, a package
that is not on PyPI. So at release time each metric folder gets `_tw_fin_eval_core.py`, generated here
from the package's own source files — the modules `tw_fin_eval.scoring.metric_fns` needs, found by
following its imports — and the metric's one import line is pointed at it. Nothing is hand-copied: the
core is regenerated from `tw_fin_eval/` on every release.

The core runs those sources under private module names (`_tw_fin_eval_core.tw_fin_eval.…`), with an
import hook that resolves their `tw_fin_eval` imports to each other, so an installed tw_fin_eval (any
version) is neither used nor disturbed."""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

from tw_fin_eval import __version__
from tw_fin_eval.errors import InputError
from tw_fin_eval.paths import PACKAGE_DIR

PACKAGE = "tw_fin_eval"
CORE_MODULE = "_tw_fin_eval_core"
ENTRY = "tw_fin_eval.scoring.metric_fns"
REPO_IMPORT = "from tw_fin_eval.scoring import metric_fns"
RELEASE_IMPORT = f"from .{CORE_MODULE} import metric_fns"


def _module_file(name: str, package_dir: Path) -> tuple[Path, bool] | None:
    """(file, is_package) of a module of the package, or None when `name` is not one."""
    parts = name.split(".")
    if parts[0] != PACKAGE:
        return None
    base = package_dir.joinpath(*parts[1:])
    if (base / "__init__.py").is_file():
        return base / "__init__.py", True
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py"), False
    return None


def _imports(tree: ast.AST, name: str, is_package: bool) -> set[str]:
    """Every module of the package that `name` imports, at top level or inside a function."""
    out: set[str] = set()
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                mod = f"{base}.{node.module}" if node.module else base
            else:
                mod = node.module or ""
            out.add(mod)
            out.update(f"{mod}.{alias.name}" for alias in node.names)  # `from pkg import submodule`
    return {m for m in out if m == PACKAGE or m.startswith(PACKAGE + ".")}


def module_closure(entry: str = ENTRY, package_dir: Path = PACKAGE_DIR) -> dict[str, tuple[Path, bool]]:
    """The modules `entry` needs (with their parent packages), name → (file, is_package), sorted."""
    found: dict[str, tuple[Path, bool]] = {}
    todo = [entry]
    while todo:
        name = todo.pop()
        if name in found:
            continue
        where = _module_file(name, package_dir)
        if where is None:
            continue  # `from pkg import function`: the name is not a module
        found[name] = where
        parts = name.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))
        tree = ast.parse(where[0].read_text(encoding="utf-8"), filename=str(where[0]))
        todo.extend(_imports(tree, name, where[1]))
    if entry not in found:
        raise InputError(f"cannot find the module {entry} in the package", path=package_dir)
    return dict(sorted(found.items()))


_LOADER = '''
import builtins as _builtins
import sys as _sys
import types as _types

_PRIVATE = __name__ + "."
_BUILTINS = dict(vars(_builtins))
_real_import = _builtins.__import__


def _load(name):
    key = _PRIVATE + name
    if key in _sys.modules:
        return _sys.modules[key]
    parent = name.rpartition(".")[0]
    if parent:
        _load(parent)
    is_package, source = _SOURCES[name]
    module = _types.ModuleType(key)
    module.__file__ = "<" + __name__ + ">/" + name.replace(".", "/") + ("/__init__.py" if is_package else ".py")
    module.__package__ = key if is_package else key.rpartition(".")[0]
    if is_package:
        module.__path__ = []
    module.__builtins__ = _BUILTINS
    _sys.modules[key] = module
    try:
        exec(compile(source, module.__file__, "exec"), module.__dict__)
    except BaseException:
        del _sys.modules[key]
        raise
    if parent:
        setattr(_sys.modules[_PRIVATE + parent], name.rpartition(".")[2], module)
    return module


def _import(name, globals=None, locals=None, fromlist=(), level=0):
    if level == 0 and (name == "tw_fin_eval" or name.startswith("tw_fin_eval.")):
        if name not in _SOURCES:
            raise ImportError(f"{name} is not part of this metric's scoring core", name=name)
        module = _load(name)
        for item in fromlist or ():
            if name + "." + item in _SOURCES:
                _load(name + "." + item)
        return module if fromlist else _load("tw_fin_eval")
    return _real_import(name, globals, locals, fromlist, level)


_BUILTINS["__import__"] = _import
metric_fns = _load(ENTRY)
'''


def render_core(modules: dict[str, tuple[Path, bool]], *, entry: str = ENTRY) -> str:
    """The text of `_tw_fin_eval_core.py`: each module's source as a string literal, plus the loader."""
    digest = hashlib.sha256()
    lines = []
    for name, (path, is_package) in modules.items():
        source = path.read_text(encoding="utf-8")
        digest.update(name.encode() + b"\0" + source.encode("utf-8") + b"\0")
        lines.append(f"    {name!r}: ({is_package!r}, {source!r}),")
    header = (
        f'"""Scoring core of tw_fin_eval {__version__} for this metric, GENERATED by `tw-fin-eval release` from\n'
        f"the package's sources (sha256 {digest.hexdigest()[:16]}): {', '.join(modules)}.\n"
        "Do not edit: change tw_fin_eval/ and release again. Lets `evaluate.load` run the metric without\n"
        'installing tw_fin_eval; an installed tw_fin_eval is not used."""\n\n'
    )
    return header + f"ENTRY = {entry!r}\n_SOURCES = {{\n" + "\n".join(lines) + "\n}\n" + _LOADER


def make_standalone(metrics_dir: Path, *, package_dir: Path = PACKAGE_DIR) -> list[str]:
    """Point every metric under `metrics_dir` (<name>/<name>.py) at a generated core beside it. Returns the
    metric names. A metric script without exactly one `REPO_IMPORT` line is an error (nothing guessed)."""
    core = render_core(module_closure(ENTRY, package_dir))
    done = []
    for script in sorted(metrics_dir.glob("*/*.py")):
        if script.stem != script.parent.name:
            continue
        text = script.read_text(encoding="utf-8")
        lines = text.splitlines(keepends=True)
        hits = [i for i, line in enumerate(lines) if line.rstrip() == REPO_IMPORT]
        if len(hits) != 1:
            raise InputError(f"a metric script must import its core with exactly one line {REPO_IMPORT!r} "
                             f"(found {len(hits)})", path=script)
        # no comment on the import line itself: evaluate would read it as a download location
        lines[hits[0]] = "# the scoring core beside this file, generated by `tw-fin-eval release`\n" + RELEASE_IMPORT + "\n"
        script.write_text("".join(lines), encoding="utf-8")
        (script.parent / f"{CORE_MODULE}.py").write_text(core, encoding="utf-8")
        done.append(script.stem)
    return done

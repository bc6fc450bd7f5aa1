"""The project's Python is two installed packages, imported by name (issue 47 item 6).

- every module of `cbparams` (sage/) and `analysis` (analysis/) imports in a fresh
  interpreter started outside the checkout, from this checkout (the editable installs of
  `make venv`), with no PYTHONPATH;
- the import graph of the two packages (every import statement, function-level ones
  included, read with ast) has no cycle;
- no file outside the tests (tests/, test_*.py, conftest.py) edits sys.path: what a
  module needs is installed, not put on the path by hand.
"""

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"cbparams": ROOT / "sage" / "cbparams", "analysis": ROOT / "analysis"}
# What is not the project's own source: the venv, dependencies, build trees, outputs.
SKIP_DIRS = {".venv", ".deps", ".git", ".snakemake", ".cache", ".pytest_cache", "third_party", "results",
             "target", "node_modules", "__pycache__"}

# sys.path changed in place or rebound, or a site dir added: what the check refuses.
PATH_EDIT = re.compile(r"\bsys\.path\s*(?:\.\s*(?:insert|append|extend|remove|pop|clear)\s*\(|\+=|=(?!=)|\[[^\]]*\]\s*=(?!=))"
                       r"|\bsite\.addsitedir\s*\(")


def modules(package):
    """The package's module names (its tests excluded), e.g. ['cbparams', 'cbparams.batch', ...]."""
    folder = PACKAGES[package]
    names = [package]
    for path in sorted(folder.glob("*.py")):
        if path.name != "__init__.py" and not path.name.startswith("test_") and path.name != "conftest.py":
            names.append(f"{package}.{path.stem}")
    return names


ALL_MODULES = modules("cbparams") + modules("analysis")


def module_file(name):
    package, _, rest = name.partition(".")
    return PACKAGES[package] / (f"{rest}.py" if rest else "__init__.py")


def imports_of(name):
    """The project modules `name` imports (every import statement in its source)."""
    tree = ast.parse(module_file(name).read_text(), filename=str(module_file(name)))
    package = name.split(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package (all modules here sit at its top)
                base = package + (f".{base}" if base else "")
            # `from pkg import mod` imports the module pkg.mod when there is one
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        found.update(t for t in targets if t in ALL_MODULES and t != name)
    # a submodule's import runs its package's __init__ first: not an edge of its own here
    return found - {package}


def cycles(graph):
    """Every import cycle of graph {module: set of modules}, each as a list closing on itself."""
    found, state, stack = [], {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                found.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


def is_test_file(path):
    rel = path.relative_to(ROOT)
    return rel.parts[0] == "tests" or path.name.startswith("test_") or path.name == "conftest.py"


def source_files():
    """The project's Python sources: .py, Snakemake files and the notebooks' code."""
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith("build")]
        for f in files:
            if f.endswith((".py", ".smk", ".ipynb")) or f == "Snakefile":
                yield Path(folder) / f


def code_of(path):
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text()).get("cells", [])
        return "\n".join("".join(c.get("source", [])) for c in cells if c.get("cell_type") == "code")
    return path.read_text(errors="replace")


def path_edits(text):
    """The lines of `text` that edit sys.path (comments aside)."""
    return [line.strip() for line in text.splitlines() if PATH_EDIT.search(line.split("#", 1)[0])]


def test_every_module_imports_by_name_in_a_fresh_interpreter():
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    code = ("import importlib, json, sys\n"
            "out = {}\n"
            "for name in sys.argv[1:]:\n"
            "    try:\n"
            "        out[name] = importlib.import_module(name).__file__\n"
            "    except Exception as e:\n"
            "        out[name] = 'FAILED: %r' % (e,)\n"
            "print(json.dumps(out))\n")
    # started in /: nothing of the checkout is on the path but what is installed
    run = subprocess.run([sys.executable, "-c", code, *ALL_MODULES], cwd="/", env=env, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    where = json.loads(run.stdout.strip().splitlines()[-1])
    failed = {k: v for k, v in where.items() if v.startswith("FAILED")}
    assert not failed, f"modules that do not import by name (run `make venv`): {failed}"
    for name, path in where.items():
        assert Path(path).resolve() == module_file(name).resolve(), \
            f"{name} is imported from {path}, not from this checkout: run `make venv` here"


def test_the_packages_have_no_import_cycle():
    graph = {name: imports_of(name) for name in ALL_MODULES}
    assert graph["cbparams.config"] >= {"cbparams.catalog"}  # the graph sees `from .x import y`
    found = cycles(graph)
    assert not found, "import cycles: " + "; ".join(" -> ".join(c) for c in found)


def test_cycle_finder_finds_a_cycle_closed_inside_a_function():
    # the shape issue 47 found: catalog -> runner -> config -> catalog (the last in a function)
    assert cycles({"c": {"r"}, "r": {"k"}, "k": {"c"}, "x": {"c"}}) == [["c", "r", "k", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("line", [
    'sys.path.insert(0, os.path.join(HERE, "..", "analysis"))',
    "sys.path.append(str(ROOT / 'sage'))",
    "sys.path[:0] = [SAGE]",
    "sys.path = [x] + sys.path",
    "sys.path += extra",
    "site.addsitedir(folder)",
])
def test_path_edit_is_recognised(line):
    assert path_edits(f"import sys\n{line}\n") == [line]


@pytest.mark.parametrize("line", ["if SAGE not in sys.path:", "print(sys.path == old)", "# sys.path.insert(0, x)"])
def test_reading_sys_path_is_no_edit(line):
    assert path_edits(line) == []


def test_no_file_outside_the_tests_edits_sys_path():
    offenders = []
    for path in source_files():
        if is_test_file(path):
            continue
        for line in path_edits(code_of(path)):
            offenders.append(f"{path.relative_to(ROOT)}: {line}")
    assert not offenders, ("sys.path edited outside the tests (install the package instead: "
                           "make venv):\n" + "\n".join(offenders))

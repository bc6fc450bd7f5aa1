"""The catalog is the one place that names ciphers: the generic layers' code (the
executables, backends, explorer, pipeline and analysis) asks it (run_cipher --list-ciphers)
and may name a cipher only in a handful of places, each listed here with its reason. Issue
20 counted 41 such string literals before the catalog.

Also: the catalog the engine writes and the explorer's view of it agree."""
import ast
import json
import re
import subprocess
from pathlib import Path

import pytest

from cbparams import catalog, runner

ROOT = Path(__file__).resolve().parents[1]
GENERIC = ["runners/apps", "runners/backend", "analysis", "workflow", "sage/cbparams", "Snakefile"]
# (file, literal): why it may name a cipher.
ALLOWED = {
    ("analysis/figure_schemes.py", "aes128"): "the figure 'AES-128 across schemes' is about AES by nature",
    ("analysis/peers.py", "aes128"): "the TFHE peer (tfhe_aes) evaluates AES-128 only",
    ("sage/cbparams/runner.py", "aes128"): "run_cipher()'s default argument, a convenience for notebooks",
    ("sage/cbparams/sagecheck.py", "vision"): "the Sage re-derivation of Vision's constants (a Vision check)",
}


def _names():
    p = runner.find_executable("run_cipher")
    names = set()
    for c in catalog.catalog()["ciphers"]:
        names.add(c["name"])
        names.update(i["id"] for i in c["instances"])
    return names


def _sources():
    for g in GENERIC:
        path = ROOT / g
        files = [path] if path.is_file() else sorted(path.rglob("*"))
        for f in files:
            if f.suffix not in (".py", ".smk", ".cpp", ".h", "") or not f.is_file():
                continue
            if f.name.startswith("test_") or f.stem.endswith("_test") or "__pycache__" in f.parts:
                continue
            yield f


needs_engine = pytest.mark.skipif(not (runner.build_dir() / "bin" / "run_cipher").exists(),
                                  reason="engine not built (make build)")


def _literals(f):
    """(line, string) of the code's string literals: Python's through its syntax tree
    (docstrings, and the doctests in them, are documentation), the others' by a regular
    expression on lines that are not comments."""
    text = f.read_text(errors="replace")
    if f.suffix == ".py":
        tree = ast.parse(text)
        docs = set()
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                    and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                docs.add(id(body[0].value))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                yield node.lineno, node.value
        return
    pattern = re.compile(r"""["']([a-z][a-z0-9]*)["']""")
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip().startswith(("#", "//")):
            for lit in pattern.findall(line):
                yield lineno, lit


@needs_engine
def test_generic_layers_name_no_cipher():
    names = _names()
    found = []
    for f in _sources():
        rel = str(f.relative_to(ROOT))
        for lineno, lit in _literals(f):
            if lit in names and (rel, lit) not in ALLOWED:
                found.append(f"{rel}:{lineno}: {lit!r}")
    assert not found, "cipher names outside the catalog:\n" + "\n".join(found)
    assert len(ALLOWED) <= 5


@needs_engine
def test_catalog_json_and_the_explorers_view_agree(tmp_path):
    out = tmp_path / "c.json"
    subprocess.run([str(runner.find_executable("run_cipher")), "--list-ciphers", "--json", str(out)], check=True)
    doc = json.loads(out.read_text())
    insts = catalog.instances(prime=True)
    seen = []
    for c in doc["ciphers"]:
        if c["kind"] == "keystream":  # run by run_cipher alone: not in the explorer's view (yet)
            assert c["name"] not in catalog.ciphers() and c["packings"] == ["sliced"]
            assert not set(i["id"] for i in c["instances"]) & set(insts)
            continue
        assert c["kind"] == "block"
        assert c["description"] and c["citation"] and c["packings"][0] == "packed"
        for i in c["instances"]:
            e = insts[i["id"]]
            seen.append(i["id"])
            assert (e.cipher, e.n, e.s, e.rounds, e.packings, e.p) == (c["name"], i["n"], i["s"], i["rounds"],
                                                                      tuple(c["packings"]), i["p"])
            assert e.steps == i["steps"] and e.display == i["display"]
            assert i["steps"]["separate"] and i["steps"]["fused"]
            assert catalog.instance(i["id"]) == i["id"]
            if i["p"] != 2:  # F_p: picked by its p (the catalog's), as the pipeline's experiments do
                assert i["id"] not in catalog.instances(prime=False)
                assert catalog.instance_of({"cipher": c["name"], "p": i["p"]}) == i["id"]
                assert catalog.instance_of({"cipher": c["name"], "p": i["p"], "state_size": i["s"]}) == i["id"]
                assert catalog.flags(i["id"]) == ["--cipher", c["name"], "--p", i["p"], "--state-size", i["s"]]
                continue
            assert catalog.instance_of({"cipher": c["name"], "field_bits": i["n"], "state_size": i["s"]}) == i["id"]
    assert seen == list(insts) == list(catalog.instances())
    assert list(catalog.instances(prime=False)) == [k for k in seen if insts[k].p == 2]


@needs_engine
def test_unknown_cipher_and_instance_are_named():
    with pytest.raises(catalog.CatalogError, match=r"cipher='des' is not in the catalog: use one of aes128"):
        catalog.instance_of({"cipher": "des"})
    with pytest.raises(catalog.CatalogError, match=r"cipher=vision has no instance with field_bits=12: it has GF\(2\^8\)\^16"):
        catalog.instance_of({"cipher": "vision", "field_bits": 12})
    # a cipher added to the catalog (not named by any Python file) is refused the same way
    single = next(c for c in catalog.catalog()["ciphers"] if len(c["instances"]) == 1 and c["instances"][0]["n"] != 8)
    with pytest.raises(catalog.CatalogError, match=rf"cipher={single['name']} has no instance with field_bits=8: "
                                                   rf"it has {re.escape(single['instances'][0]['label'])}$"):
        catalog.instance_of({"cipher": single["name"], "field_bits": 8})


@needs_engine
def test_the_papers_instances_as_the_catalog_names_them():
    """The concrete answers the explorer and the pipeline rely on for the papers' ciphers."""
    assert catalog.instance_of({"cipher": "aes128"}) == "aes"
    assert (catalog.instances()["vision16"].n, catalog.instances()["vision16"].s) == (16, 8)
    assert catalog.instance_of({"cipher": "vision", "field_bits": 64}) == "vision64"
    assert catalog.display({"cipher": "vision", "field_bits": 64}) == "Vision GF(2^64)^2"
    assert catalog.flags("vision8") == ["--cipher", "vision", "--field-bits", 8, "--state-size", 16]
    assert catalog.flags("aes") == ["--cipher", "aes128"]
    from cbparams import config, planner
    assert config.paper_configs()[0] == ("aes", 53261, 820, 10, 136.256)
    assert planner.plan_args("vision8", 4369, hwt=120, target=128) == [
        "--cipher", "vision", "--field-bits", 8, "--state-size", 16, "--m", 4369, "--hwt", 120, "--seed", 1,
        "--c", 3, "--security-target", 128]

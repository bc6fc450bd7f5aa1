"""Adding a cipher by the guide alone: the worked example of docs/adding-a-cipher.md (Toy31,
two elements of GF(2^31), a cube S-box, an affine map, a linear layer, key additions) is
extracted from the page, built as an extra entry, and the suite's catalog-wide tests are run
on it: they must pick it up with no test code of its own and pass, and so must the tests
that once listed the catalog by hand.

The mechanism: a build of its own in a temporary directory, configured with
`-DCB_EXTRA_CIPHERS=<the toy's folder>` (runners/ciphers/CMakeLists.txt appends such folders
to that build's registry and nowhere else). Chosen over a test-only registration compiled
into a test binary because the entry then goes through exactly what a real entry goes
through (its own CMakeLists.txt, the generated registry, catalog.cpp, every executable), so
the Python side's catalog-wide tests (which ask `run_cipher --list-ciphers`) see it too;
and the tree's sources, build/ and the real catalog are untouched. The build directory is
build-adding-a-cipher/ (git-ignored, kept between runs): beside build/, at the same depth,
so that ccache (base_dir=/work rewrites paths relative to the build directory) reuses the
engine's objects and only the toy and the registry compile; elsewhere, or without ccache,
it is a full build.

Needs cmake (skipped otherwise). CB_SKIP_ADDING_A_CIPHER=1 skips it.
"""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
GUIDE = REPO / "docs" / "adding-a-cipher.md"
NAME = "toy31"

pytestmark = [
    pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed"),
    pytest.mark.skipif(os.environ.get("CB_SKIP_ADDING_A_CIPHER") == "1", reason="CB_SKIP_ADDING_A_CIPHER=1"),
]


def guide_files(text):
    """{relative path: content} of the guide's code blocks whose first line is
    `// file: PATH` or `# file: PATH`."""
    out = {}
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, flags=re.S | re.M):
        first, _, _ = block.partition("\n")
        m = re.fullmatch(r"(?://|#) file: (\S+)", first.strip())
        if m:
            out[m.group(1)] = block
    return out


def test_the_guide_has_the_whole_entry():
    files = guide_files(GUIDE.read_text())
    assert sorted(files) == [f"{NAME}/CMakeLists.txt", f"{NAME}/entry.cpp", f"{NAME}/test_{NAME}.py", f"{NAME}/{NAME}.h"]
    entry = files[f"{NAME}/entry.cpp"]
    # The worked example covers the step kinds an element cipher has, a linear layer included.
    for op in ("Op::power(", "Op::affine(", "Op::linear(", "Op::add_key("):
        assert op in entry, op
    assert f"const CipherEntry& {NAME}_entry()" in entry


def _run(cmd, **kw):
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    assert p.returncode == 0, f"{' '.join(map(str, cmd))}\n{p.stdout[-4000:]}\n{p.stderr[-4000:]}"
    return p


@pytest.fixture(scope="module")
def toy_build(tmp_path_factory):
    """The guide's entry in a folder of its own and a build whose registry has it."""
    root = tmp_path_factory.mktemp("adding_a_cipher")
    for rel, content in guide_files(GUIDE.read_text()).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(content)
    build = REPO / "build-adding-a-cipher"
    launcher = ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"] if shutil.which("ccache") else []
    _run(["cmake", "-S", REPO / "runners", "-B", build, "-DCMAKE_BUILD_TYPE=Release", *launcher,
          f"-DCB_EXTRA_CIPHERS={root / NAME}"], timeout=600)
    _run(["cmake", "--build", build, "-j2", "--target", "catalog_test", "catalog_bgv_test", "run_cipher",
          "cipher_ref"], timeout=3000)
    return root, build


def _gtest(binary, tmp, gfilter="*"):
    """{test name: "passed", "skipped" or "failed"} of a gtest run (its JSON report)."""
    report = tmp / (binary.name + ".json")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    _run([binary, f"--gtest_filter={gfilter}", f"--gtest_output=json:{report}"], timeout=1200, env=env)
    out = {}
    for suite in json.loads(report.read_text())["testsuites"]:
        for t in suite["testsuite"]:
            out[f"{suite['name']}.{t['name']}"] = ("failed" if t.get("failures") else
                                                  {"COMPLETED": "passed", "SKIPPED": "skipped"}.get(t.get("result"), "failed"))
    return out


def test_registry_of_the_build_lists_it_and_nowhere_else(toy_build):
    root, build = toy_build
    _run([build / "bin" / "run_cipher", "--list-ciphers", "--json", root / "c.json"])
    names = [c["name"] for c in json.loads((root / "c.json").read_text())["ciphers"]]
    assert names[-1] == NAME
    real = REPO / "build" / "bin" / "run_cipher"
    if real.exists():  # the real build's catalog is the same less the toy
        _run([real, "--list-ciphers", "--json", root / "real.json"])
        assert [c["name"] for c in json.loads((root / "real.json").read_text())["ciphers"]] == names[:-1]


def test_catalog_wide_cpp_tests_pick_it_up(toy_build, tmp_path):
    """catalog_test in full (the toy must not break another entry's test) and
    catalog_bgv_test on the toy: every parameterized test another GF(2^n) block cipher gets,
    the toy gets, and it passes."""
    _, build = toy_build
    clear = _gtest(build / "tests" / "catalog_test", tmp_path)
    assert "failed" not in clear.values(), [k for k, r in clear.items() if r == "failed"]
    mine = {k.rsplit("/", 1)[0]: r for k, r in clear.items() if k.endswith(f"/{NAME}")}
    theirs = {k.rsplit("/", 1)[0] for k in clear if k.endswith("/chaghri")}
    assert mine and set(mine) == theirs, (mine, theirs)
    assert set(mine.values()) == {"passed"}, mine
    bgv = {k.rsplit("/", 1)[0]: r for k, r in _gtest(build / "tests" / "catalog_bgv_test", tmp_path, f"*/{NAME}").items()}
    assert bgv == {"Catalog/CatalogBgv.PlannedChainDecryptsToReference": "passed",
                   "Catalog/CatalogBgv.LanesFindThePlanOfOneChainAtATime": "passed",
                   # a power map has no bit form and the toy's bit_round gives no circuit
                   "Catalog/CatalogBgv.BitSlicedPlannedChainDecryptsToReference": "skipped"}, bgv


def test_python_catalog_wide_tests_pick_it_up(toy_build):
    """The explorer's view of the catalog, the generic layers' names, and the tests that once
    listed the catalog by hand, against the toy's build; then the toy's own test."""
    root, build = toy_build
    env = dict(os.environ, CB_BUILD_DIR=str(build), CB_BUILD=str(build))
    tests = ["tests/test_catalog_names.py", "sage/cbparams/catalog.py",
             "runners/apps/run_cipher_test.py::test_errors", "runners/apps/cipher_ref_test.py::test_errors"]
    _run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests], cwd=REPO, env=env, timeout=1200)
    _run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", root, root / NAME],
         cwd=REPO, env=env, timeout=600)


def test_it_runs_on_bgv_at_the_guides_ring(toy_build, tmp_path):
    """The guide's run: two rounds on BGV at m = 3421 (a ring the guide found for GF(2^31)),
    every block decrypted and checked against the reference."""
    _, build = toy_build
    out = tmp_path / "run.json"
    _run([build / "bin" / "run_cipher", "--cipher", NAME, "--m", 3421, "--rounds", 2, "--json", out],
         env=dict(os.environ, OMP_NUM_THREADS="2"), timeout=1200)
    d = json.loads(out.read_text())
    assert d["cipher"] == NAME and d["correct"] is True, {k: d.get(k) for k in ("cipher", "correct", "blocks")}

"""scripts/get-estimator.sh (`make estimator`): puts a pinned commit of a checkout (or a
bare mirror, or a folder holding one) into a directory, does nothing when it is there, and
refuses what it cannot do, naming why. `make estimator` runs it with the Makefile's pin."""
import re
import subprocess

import pytest

from cbparams.config import ROOT

SCRIPT = ROOT / "scripts" / "get-estimator.sh"


def git(cwd, *args):
    return subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture
def checkout(tmp_path):
    """A git repository with two commits (a stand-in for a lattice-estimator checkout)."""
    src = tmp_path / "src"
    (src / "estimator").mkdir(parents=True)
    git(tmp_path, "init", "-q", str(src))
    (src / "estimator" / "__init__.py").write_text("VERSION = 1\n")
    git(src, "add", ".")
    git(src, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one")
    first = git(src, "rev-parse", "HEAD")
    (src / "estimator" / "__init__.py").write_text("VERSION = 2\n")
    git(src, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-am", "two")
    return src, first


def run(*args):
    return subprocess.run(["bash", str(SCRIPT), *map(str, args)], capture_output=True, text=True, timeout=120)


def test_pins_the_commit(checkout, tmp_path):
    src, first = checkout
    dest = tmp_path / "third_party" / "lattice-estimator"
    r = run(dest, first, src)
    assert r.returncode == 0, r.stderr
    assert git(dest, "rev-parse", "HEAD") == first
    assert (dest / "estimator" / "__init__.py").read_text() == "VERSION = 1\n"
    again = run(dest, first, src)
    assert again.returncode == 0 and "is at the pinned commit" in again.stdout


def test_refuses(checkout, tmp_path):
    src, first = checkout
    missing = "0" * 40
    r = run(tmp_path / "a", missing, src)
    assert r.returncode == 1 and f"does not have the pinned commit {missing}" in r.stderr
    assert not (tmp_path / "a").exists()
    r = run(tmp_path / "b", first, tmp_path / "nowhere")
    assert r.returncode == 1 and "is not a directory" in r.stderr
    other = tmp_path / "c"
    other.mkdir()
    r = run(other, first, src)
    assert r.returncode == 1 and "exists but is not at the pinned commit" in r.stderr


def test_bare_mirror_and_folder_holding_one(checkout, tmp_path):
    """A bare mirror (git clone --mirror) works as the source, and so does a folder whose one
    git repository sits one level down (a mirror laid out as <folder>/repo)."""
    src, first = checkout
    holder = tmp_path / "holder"
    holder.mkdir()
    subprocess.run(["git", "clone", "-q", "--mirror", str(src), str(holder / "repo")], check=True)
    (holder / "notes").mkdir()   # a plain folder beside it is ignored
    for i, source in enumerate((holder / "repo", holder)):
        dest = tmp_path / f"out{i}"
        r = run(dest, first, source)
        assert r.returncode == 0, r.stderr
        assert git(dest, "rev-parse", "HEAD") == first
    plain = tmp_path / "plain"
    (plain / "a").mkdir(parents=True)
    r = run(tmp_path / "out9", first, plain)
    assert r.returncode == 1 and "holds 0 git repositories one level down" in r.stderr


def test_make_estimator(checkout, tmp_path):
    """`make estimator` passes the Makefile's pinned commit and ESTIMATOR_SRC to the script
    (dry run), and with the directory, commit and source overridden installs from a checkout."""
    dry = subprocess.run(["make", "-n", "-C", str(ROOT), "estimator", "ESTIMATOR_SRC=/some/mirror"],
                         capture_output=True, text=True, check=True).stdout
    pin = re.search(r"^ESTIMATOR_COMMIT\s*:=\s*([0-9a-f]{40})\s*$", (ROOT / "Makefile").read_text(), re.M)
    assert pin, "the Makefile pins the estimator to a full commit hash"
    assert f"scripts/get-estimator.sh third_party/lattice-estimator {pin.group(1)} /some/mirror" in dry
    src, first = checkout
    dest = tmp_path / "tp" / "lattice-estimator"
    r = subprocess.run(["make", "-s", "-C", str(ROOT), "estimator", f"ESTIMATOR_DIR={dest}",
                        f"ESTIMATOR_COMMIT={first}", f"ESTIMATOR_SRC={src}"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert git(dest, "rev-parse", "HEAD") == first

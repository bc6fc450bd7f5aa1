"""pytest setup for the parameter explorer (sage/cbparams).

Makes `cbparams` importable and collects the doctests of its modules, whichever
pytest.ini is in charge (`.venv/bin/pytest sage` from the repo root runs everything).
"""
import doctest
import sys
from pathlib import Path

import pytest
from _pytest.doctest import DoctestModule

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def pytest_collect_file(file_path, parent):
    if (file_path.suffix == ".py" and file_path.parent == HERE / "cbparams"
            and not file_path.name.startswith("test_")
            and not parent.config.getoption("doctestmodules", False)):
        return DoctestModule.from_parent(parent, path=file_path)
    return None


@pytest.fixture(autouse=True)
def _doctest_flags(request):
    """ELLIPSIS for doctests even when the top-level ini does not set it."""
    item = request.node
    if hasattr(item, "dtest"):
        item.dtest.globs.setdefault("__name__", item.dtest.name)
        for ex in item.dtest.examples:
            ex.options.setdefault(doctest.ELLIPSIS, True)
    yield

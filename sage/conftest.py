"""pytest setup for the parameter explorer (sage/cbparams).

`cbparams` is installed into .venv (editable, by `make venv`); this checks that the
installed package is this checkout's, and collects the doctests of its modules, whichever
pytest.ini is in charge (`.venv/bin/pytest sage` from the repo root runs everything).
"""
import doctest
from pathlib import Path

import pytest
from _pytest.doctest import DoctestModule

HERE = Path(__file__).resolve().parent

try:
    import cbparams
except ImportError:  # pragma: no cover - a setup error, said plainly
    raise pytest.UsageError("cbparams is not installed in this Python: run `make venv` "
                            "(it runs `pip install -e sage`)") from None
if Path(cbparams.__file__).resolve().parent != HERE / "cbparams":
    raise pytest.UsageError(f"cbparams is imported from {Path(cbparams.__file__).parent}, not from "
                            f"this checkout's {HERE / 'cbparams'}: run `make venv` here")


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

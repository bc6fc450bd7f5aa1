"""`sage.all` from whichever passagemath distributions are installed.

passagemath-standard ships `sage/all.py`. The smaller set of passagemath distributions
this project installs (requirements.txt: repl, pari, ntl, flint, modules, m4ri-m4rie,
symbolics, plot, gsl; see docs/explorer.md, "The Sage install") does not: each
distribution has its own `sage.all__sagemath_<name>`. `sage_all()` returns `sage.all`
when it exists, else a module assembled from those pieces and registered as `sage.all`,
so that `from sage.all import ...` (the lattice estimator's idiom) works either way.
"""
from __future__ import annotations

import importlib
import sys
import types

#: The pieces, in import order (later ones may rely on earlier ones).
PIECES = ("objects", "categories", "repl", "flint", "pari", "ntl", "modules", "m4ri_m4rie",
          "gsl", "symbolics", "plot")


def sage_all():
    """The module `sage.all` (see the module doc). ImportError when no Sage is there."""
    if "sage.all" in sys.modules:
        return sys.modules["sage.all"]
    try:
        return importlib.import_module("sage.all")
    except ModuleNotFoundError as e:
        if e.name != "sage.all":
            raise
    mod = types.ModuleType("sage.all", "sage.all assembled by cbparams.sageall from the installed "
                                       "passagemath distributions")
    found = []
    for piece in PIECES:
        try:
            part = importlib.import_module(f"sage.all__sagemath_{piece}")
        except ModuleNotFoundError:
            continue
        mod.__dict__.update({k: v for k, v in vars(part).items() if not k.startswith("__")})
        found.append(piece)
    if not found:
        raise ImportError("no passagemath distribution is installed (neither sage.all nor "
                          "sage.all__sagemath_*): run `make venv`")
    mod.__sagemath_pieces__ = found
    sys.modules["sage.all"] = mod
    return mod

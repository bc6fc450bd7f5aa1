"""Where the explorer finds the checkout and the engine's executables: one place.

The repository root is the checkout this (editable) package lives in: config/ (schemas,
depth profiles) is read from it. The C++ executables are under <build>/bin, where <build>
is build/ of the checkout or the environment variable CB_BUILD_DIR (the pipeline sets it
to the config's build_dir). Every module that launches an executable asks build_dir()
here, at call time, so the variable is honoured wherever it is set.

>>> (ROOT / "sage" / "cbparams" / "paths.py").exists()
True
>>> import os; os.environ["CB_BUILD_DIR"] = "/tmp/elsewhere"; str(executable("chain_info"))
'/tmp/elsewhere/bin/chain_info'
>>> del os.environ["CB_BUILD_DIR"]; executable("chain_info") == ROOT / "build" / "bin" / "chain_info"
True
"""
from __future__ import annotations

import os
from pathlib import Path

#: Repository root (sage/cbparams/paths.py -> ../../).
ROOT = Path(__file__).resolve().parents[2]


def build_dir() -> Path:
    """build/ of this checkout, or $CB_BUILD_DIR."""
    return Path(os.environ.get("CB_BUILD_DIR") or ROOT / "build")


def executable(name: str) -> Path:
    """<build_dir()>/bin/<name> (whether or not it is built)."""
    return build_dir() / "bin" / name

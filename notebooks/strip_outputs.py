"""Strips outputs and execution counts from notebooks (they are not committed).

    .venv/bin/python notebooks/strip_outputs.py notebooks/explore.ipynb

notebooks/test_explore.py fails when a committed notebook has outputs.
"""
import sys

import nbformat


def strip(nb):
    """The notebook without outputs, execution counts or per-cell execution metadata."""
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        cell.metadata.pop("execution", None)
    nb.metadata.pop("widgets", None)
    return nb


def main(paths) -> int:
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        nbformat.write(strip(nb), path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""cipherbench's analysis: run records to tidy CSV, tables, figures, the published numbers.

Installed editable into .venv like the explorer (`make venv` runs `pip install -e analysis`),
so every module is imported by name (`from analysis import tables`) from the pipeline's
rules and scripts, the tests and a notebook alike. Each module is also a script: the
pipeline runs it by path (Snakemake's `script:` or `python analysis/<module>.py`).
"""

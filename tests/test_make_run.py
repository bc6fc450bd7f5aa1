"""`make run`'s own recipe, as a dry run: its one Snakemake invocation parses its arguments
and plans the default pipeline, the explorer's selection (a checkpoint) and the config's
runs (a recipe that passed the target where --configfile reads files once made `make run`
fail at once, and no test ran the recipe itself)."""

import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_make_run_recipe_dry_runs(tmp_path):
    flags = f"--dry-run --config results_dir={tmp_path}"
    result = subprocess.run(["make", "run", f"SNAKEMAKE_FLAGS={flags}"], cwd=ROOT, capture_output=True, text=True,
                            timeout=600)
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    # The explorer's selection and the config's runs (the selection's join once it is made).
    assert len(re.findall(r"^\S*snakemake ", out, re.M)) == 1, out   # one invocation
    assert re.search(r"^params_select\s+1$", out, re.M), out
    assert re.search(r"^run_experiment\s+\d+$", out, re.M), out
    assert not os.listdir(tmp_path)  # a dry run writes no result

"""The tiny config end to end through the SLURM profile, on a real SLURM (opt-in: about
2 minutes). Set CB_TEST_SLURM=1 on a machine where `sinfo` answers, e.g. the single-node
SLURM of docs/slurm.md. `--slurm-status-command squeue`: such a test SLURM has no
accounting database for sacct (a cluster has one: the profile does not set it).
The dry run of the profile is tested in test_config.py everywhere.
"""

import glob
import json
import os
import shutil
import subprocess

import pytest
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SNAKEMAKE = os.path.join(ROOT, ".venv", "bin", "snakemake")


def expected_runs(config):
    """The runs a config makes: per experiment, its rings x chains x backends x repetitions
    (a ring without bits is one run, at the engine's plan)."""
    with open(os.path.join(ROOT, config)) as f:
        cfg = yaml.safe_load(f)
    per_ring = len(cfg.get("backends", ["engine"])) * cfg["repetitions"]
    return sum(len(r["bits"]) if isinstance(r.get("bits"), list) else 1
               for e in cfg["experiments"] for r in e["rings"]) * per_ring


def slurm_answers():
    if not shutil.which("sinfo"):
        return False
    return subprocess.run(["sinfo", "-h"], capture_output=True, timeout=30).returncode == 0


@pytest.mark.skipif(os.environ.get("CB_TEST_SLURM") != "1",
                    reason="opt-in (about 2 minutes): set CB_TEST_SLURM=1 with a running SLURM (docs/slurm.md)")
def test_tiny_config_through_slurm_profile(tmp_path):
    assert slurm_answers(), "CB_TEST_SLURM=1 but `sinfo` does not answer: is slurmctld running?"
    results = str(tmp_path / "results")
    result = subprocess.run(
        [SNAKEMAKE, "--profile", "workflow/profiles/slurm", "--configfile", "config/test.yaml",
         "--config", f"results_dir={results}", "--slurm-status-command", "squeue"],
        cwd=ROOT, capture_output=True, text=True, timeout=1200,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    assert "has been submitted with SLURM jobid" in result.stderr
    recs = [json.load(open(p)) for p in glob.glob(os.path.join(results, "runs", "*", "*", "*.json"))]
    n = expected_runs("config/test.yaml")
    assert len(recs) == n and all(r["correct"] is True for r in recs)
    assert f"cipher runs: {n} of {n} done" in result.stderr
    assert os.path.exists(os.path.join(results, "tables", "table2_totals.html"))

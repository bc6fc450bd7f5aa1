"""workflow/scripts/measure.py: provenance and exact peak memory of the run jobs."""

import json
import os
import socket
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MEASURE = os.path.join(ROOT, "workflow", "scripts", "measure.py")


def measure(tmp_path, *command):
    record = tmp_path / "env.json"
    status = subprocess.call([sys.executable, MEASURE, "--record", str(record), "--threads", "3",
                              "--repo", ROOT, "--", *command])
    return status, json.loads(record.read_text())


def test_records_peak_memory_of_a_short_command(tmp_path):
    # 80 MB touched for a fraction of a second: too short for Snakemake's benchmark sampling
    status, rec = measure(tmp_path, sys.executable, "-c", "b = bytearray(80_000_000)")
    assert status == 0 and rec["exit_status"] == 0
    assert 80 <= rec["max_rss_mb"] < 200
    assert rec["host"] == socket.gethostname() and rec["threads"] == 3
    assert rec["git_revision"] != "" and rec["date"].endswith("Z")


def test_passes_the_exit_status_on(tmp_path):
    status, rec = measure(tmp_path, sys.executable, "-c", "import sys; sys.exit(2)")
    assert status == 2 and rec["exit_status"] == 2

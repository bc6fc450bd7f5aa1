"""Fault tests of the pipeline, with the real runner on toy rings: Ctrl-C and kill -9 of
Snakemake, kill -9 of one job, deleted and damaged run records, a refused run. After each
fault the next `make run` (unlock_stale.py, then snakemake, as the Makefile does) finishes
the work: every run has exactly one valid record, the table counts each run once, and no
run_cipher is left running.

No other Snakemake may run in this checkout meanwhile (unlock_stale.py would rightly keep
the lock). One results folder is shared by the tests of this module, in order: about 2
minutes in all on 2 cores shared with other jobs (load average about 12), the longest
tests this project's Python suite has. The run to interrupt is Vision GF(2^64)^2, 4 rounds at m=641 (several
seconds); the others take under a second each.
"""

import glob
import json
import os
import signal
import subprocess
import time

import pandas as pd
import pytest
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SNAKEMAKE = os.path.join(ROOT, ".venv", "bin", "snakemake")
PYTHON = os.path.join(ROOT, ".venv", "bin", "python")
RUN_CIPHER = os.path.join(ROOT, "build", "bin", "run_cipher")
from analysis import records  # noqa: E402

SLOW = "vision64/engine/m641_bits2400_rep0"
RUN_IDS = ["aes-packed/engine/m257_bits400_rep0", "vision8/engine/m257_bits800_rep0", SLOW]

pytestmark = pytest.mark.skipif(
    not os.path.exists(RUN_CIPHER) and os.environ.get("CB_ALLOW_NO_RUNNER") == "1",
    reason="build/bin/run_cipher is missing and CB_ALLOW_NO_RUNNER=1",
)


def make_config(tmp_path, name, experiments):
    with open(os.path.join(ROOT, "config", "test.yaml")) as f:
        cfg = yaml.safe_load(f)
    by_name = {e["name"]: e for e in cfg["experiments"]}
    cfg["experiments"] = [dict(by_name[n], **changes) for n, changes in experiments]
    cfg["results_dir"] = str(tmp_path / "results")
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(cfg))
    return str(path), cfg["results_dir"]


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("faults")
    return make_config(tmp, "faults", [
        ("aes-packed", {}),
        ("vision8", {}),
        ("vision64", {"rounds": 4, "rings": [{"m": 641, "bits": 2400, "blocks": 1}]}),
    ])


def start(config):
    """Snakemake in its own session (so that its process group is its own, as a terminal's
    foreground job is), one core: the runs go one after another."""
    return subprocess.Popen([SNAKEMAKE, "--cores", "1", "--configfile", config], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)


def make_run(config):
    """What `make run CONFIG=config` does after building."""
    unlock = subprocess.run([PYTHON, "workflow/scripts/unlock_stale.py", SNAKEMAKE, "--configfile", config],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert unlock.returncode == 0, unlock.stderr
    result = subprocess.run([SNAKEMAKE, "--cores", "2", "--configfile", config], cwd=ROOT,
                            capture_output=True, text=True, timeout=600)
    return unlock, result


def processes(results, name):
    """Pids of live processes of the program `name` (not the shell or measure.py that
    started it) whose command line names this results folder."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().decode(errors="replace").split("\0")
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if os.path.basename(argv[0]) == name and results in " ".join(argv) and state != "Z":
            found.append(int(pid))
    return found


def wait_for(predicate, timeout):
    end = time.time() + timeout
    while time.time() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    return None


def slow_run_started(results):
    """Wait until run_cipher runs the slow run (the one to interrupt)."""
    pids = wait_for(lambda: processes(os.path.join(results, "raw", *SLOW.split("/")), "run_cipher"), 240)
    assert pids, "the slow run never started"
    time.sleep(1)  # inside its rounds
    return pids


def assert_complete(results):
    """Every run has one valid record and the table counts each once."""
    for key in RUN_IDS:
        records.load_record(os.path.join(results, "runs", key + ".json"))
    t2 = pd.read_csv(os.path.join(results, "tables", "table2_totals.csv"))
    runs = pd.read_csv(os.path.join(results, "tidy", "runs.csv"))
    assert len(runs) == len(RUN_IDS) and len(t2) == len(RUN_IDS)
    assert not runs.duplicated(["name", "m", "bits", "rep"]).any()
    assert not processes(results, "run_cipher")


def remove_run(results, key):
    for path in (f"raw/{key}.json", f"raw/{key}.env.json", f"runs/{key}.json"):
        if os.path.exists(os.path.join(results, path)):
            os.remove(os.path.join(results, path))


def test_ctrl_c_then_make_run(setup):
    config, results = setup
    sm = start(config)
    runner = slow_run_started(results)
    os.killpg(sm.pid, signal.SIGINT)  # Ctrl-C: the terminal signals the whole foreground group
    sm.communicate(timeout=120)
    assert sm.returncode != 0
    assert wait_for(lambda: not any(os.path.exists(f"/proc/{p}") for p in runner), 15), "run_cipher outlived Ctrl-C"
    assert not processes(results, "run_cipher")
    _, result = make_run(config)
    assert result.returncode == 0, result.stderr[-3000:]
    assert_complete(results)
    assert "cipher runs: 3 of 3 done" in result.stderr


def test_kill_9_of_snakemake_then_make_run(setup):
    config, results = setup
    remove_run(results, SLOW)
    # A damaged record and a deleted one: rebuilt, never counted.
    damaged = os.path.join(results, "runs", "vision8", "engine", "m257_bits800_rep0.json")
    with open(damaged) as f:
        text = f.read()
    with open(damaged, "w") as f:
        f.write(text[: len(text) // 2])
    os.remove(os.path.join(results, "runs", "aes-packed", "engine", "m257_bits400_rep0.json"))
    sm = start(config)
    slow_run_started(results)
    sm.send_signal(signal.SIGKILL)  # Snakemake only: its job's shell, measure.py and run_cipher live on
    sm.communicate(timeout=60)
    assert wait_for(lambda: not processes(results, "run_cipher"), 20), "run_cipher outlived kill -9 of Snakemake"
    assert os.listdir(os.path.join(ROOT, ".snakemake", "locks")), "expected the lock a killed Snakemake leaves"
    unlock, result = make_run(config)
    assert "removing the lock a killed Snakemake left" in unlock.stderr
    assert result.returncode == 0, result.stderr[-3000:]
    assert_complete(results)
    assert glob.glob(os.path.join(results, "rejected", "runs", "vision8", "engine", "m257_bits800_rep0.json.*"))
    with open(damaged) as f:
        assert json.load(f)["correct"] is True


def test_kill_9_of_one_job_then_make_run(setup):
    config, results = setup
    remove_run(results, SLOW)
    sm = start(config)
    for pid in slow_run_started(results):
        os.kill(pid, signal.SIGKILL)
    out, _ = sm.communicate(timeout=120)
    assert sm.returncode != 0  # the job failed; Snakemake ended on its own
    assert "refused/failed" in out and SLOW in out, out[-3000:]
    line = next(s for s in out.splitlines() if s.strip().startswith(SLOW) and "refused/failed" in s)
    assert "measure.py: run_cipher ended by SIGKILL" in line  # the summary says why
    assert not os.path.exists(os.path.join(results, "raw", SLOW + ".json"))
    _, result = make_run(config)
    assert result.returncode == 0, result.stderr[-3000:]
    assert_complete(results)


def test_refused_run_does_not_stop_the_others(tmp_path):
    config, results = make_config(tmp_path, "refused", [
        ("vision8", {"rings": [{"m": 257, "bits": 30, "blocks": 1}]}),  # far too short: refused
        ("aes-packed", {}),
    ])
    _, result = make_run(config)
    assert result.returncode != 0
    records.load_record(os.path.join(results, "runs", "aes-packed", "engine", "m257_bits400_rep0.json"))
    assert not os.path.exists(os.path.join(results, "runs", "vision8", "engine", "m257_bits30_rep0.json"))
    summary = open(os.path.join(results, "logs", "summary.txt")).read()
    assert "cipher runs: 1 of 2 done" in summary
    line = next(s for s in summary.splitlines() if "vision8/engine/m257_bits30_rep0" in s)
    assert "refused/failed" in line and "run_cipher:" in line and "bits" in line

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


# --- the command dies with the pipeline -------------------------------------------------

import signal
import textwrap
import time

# A command that writes its pid and sleeps: the stand-in for a long run_cipher.
SLEEPER = "import os, sys, time; open(sys.argv[1], 'w').write(str(os.getpid())); time.sleep(120)"


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_for(predicate, timeout=15):
    end = time.time() + timeout
    while time.time() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def start_pipeline(tmp_path):
    """A stand-in for Snakemake: sets CB_PIPELINE_PID to itself and runs measure.py through
    a shell, as Snakemake runs a job's shell command. Returns (pipeline, sleeper pid)."""
    pidfile = tmp_path / "sleeper.pid"
    fake = textwrap.dedent(f"""
        import os, subprocess, sys, time
        os.environ["CB_PIPELINE_PID"] = str(os.getpid())
        cmd = ({sys.executable!r} + " " + {MEASURE!r} + " --record " + {str(tmp_path / 'env.json')!r}
               + " --threads 1 --repo " + {ROOT!r} + " -- " + {sys.executable!r} + " -c " + repr({SLEEPER!r})
               + " " + {str(pidfile)!r} + "; true")
        subprocess.call(["bash", "-c", cmd])
    """)
    pipeline = subprocess.Popen([sys.executable, "-c", fake])
    assert wait_for(lambda: pidfile.exists() and pidfile.read_text()), "the command did not start"
    return pipeline, int(pidfile.read_text())


def test_command_dies_when_the_pipeline_is_killed(tmp_path):
    pipeline, sleeper = start_pipeline(tmp_path)
    pipeline.send_signal(signal.SIGKILL)  # kill -9 of Snakemake: its shell lives on
    pipeline.wait()
    assert wait_for(lambda: not alive(sleeper)), "the run outlived the pipeline"
    assert not (tmp_path / "env.json").exists()  # an interrupted run leaves no record


def test_command_dies_when_measure_is_killed(tmp_path):
    pidfile = tmp_path / "sleeper.pid"
    m = subprocess.Popen([sys.executable, MEASURE, "--record", str(tmp_path / "env.json"), "--threads", "1",
                          "--repo", ROOT, "--", sys.executable, "-c", SLEEPER, str(pidfile)])
    assert wait_for(lambda: pidfile.exists() and pidfile.read_text())
    m.send_signal(signal.SIGKILL)
    m.wait()
    assert wait_for(lambda: not alive(int(pidfile.read_text()))), "the run outlived measure.py"


def test_sigterm_is_passed_on_and_leaves_no_record(tmp_path):
    pidfile = tmp_path / "sleeper.pid"
    m = subprocess.Popen([sys.executable, MEASURE, "--record", str(tmp_path / "env.json"), "--threads", "1",
                          "--repo", ROOT, "--", sys.executable, "-c", SLEEPER, str(pidfile)])
    assert wait_for(lambda: pidfile.exists() and pidfile.read_text())
    m.send_signal(signal.SIGTERM)
    assert m.wait(30) == 128 + signal.SIGTERM
    assert not alive(int(pidfile.read_text()))
    assert not (tmp_path / "env.json").exists()


def test_command_killed_from_outside_is_named(tmp_path):
    """A run killed by SIGKILL (the kernel's out-of-memory killer does that) says so in the
    job log, with its peak memory, and leaves no record."""
    record = tmp_path / "env.json"
    kill_self = "import os, signal; b = bytearray(50_000_000); os.kill(os.getpid(), signal.SIGKILL)"
    proc = subprocess.run([sys.executable, MEASURE, "--record", str(record), "--threads", "1", "--repo", ROOT, "--",
                           sys.executable, "-c", kill_self], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 128 + signal.SIGKILL
    assert "ended by SIGKILL: the kernel's out-of-memory killer, or kill -9 (peak resident memory" in proc.stderr
    assert not record.exists()

"""workflow/scripts/unlock_stale.py: the lock a killed Snakemake left is removed, the lock of
a running Snakemake is kept (stand-ins for Snakemake; the real case is in test_faults.py)."""

import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UNLOCK = os.path.join(ROOT, "workflow", "scripts", "unlock_stale.py")


def setup_dir(tmp_path):
    (tmp_path / ".snakemake" / "locks").mkdir(parents=True)
    (tmp_path / ".snakemake" / "locks" / "0.output.lock").write_text("/some/output\n")
    fake = tmp_path / "fake-snakemake"  # records how it was called
    fake.write_text(f"#!/bin/sh\necho \"$@\" > {tmp_path / 'called'}\n")
    fake.chmod(0o755)
    return str(fake)


def test_no_lock_nothing_to_do(tmp_path):
    fake = setup_dir(tmp_path)
    os.remove(tmp_path / ".snakemake" / "locks" / "0.output.lock")
    result = subprocess.run([sys.executable, UNLOCK, fake, "--configfile", "c.yaml"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stderr == "" and not (tmp_path / "called").exists()


def test_stale_lock_is_removed(tmp_path):
    fake = setup_dir(tmp_path)
    result = subprocess.run([sys.executable, UNLOCK, fake, "--configfile", "c.yaml"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert "removing the lock a killed Snakemake left" in result.stderr
    assert (tmp_path / "called").read_text().split() == ["--configfile", "c.yaml", "--unlock"]


def test_lock_of_a_running_snakemake_is_kept(tmp_path):
    fake = setup_dir(tmp_path)
    # a process named snakemake working in this directory
    running = subprocess.Popen(["bash", "-c", "exec -a snakemake sleep 60"], cwd=tmp_path)
    try:
        time.sleep(0.3)
        result = subprocess.run([sys.executable, UNLOCK, fake], cwd=tmp_path, capture_output=True, text=True,
                                timeout=60)
    finally:
        running.kill()
        running.wait()
    assert result.returncode == 0
    assert f"Snakemake is running in this directory (pid {running.pid}): its lock is kept" in result.stderr
    assert not (tmp_path / "called").exists()

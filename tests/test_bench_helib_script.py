"""scripts/bench-helib.sh (issue 12's sitting) with stand-ins for the two executables: it
runs bench_ops at both rings and AES at both rings, engine and HElib alternating, the engine
at its planned chain (no --bits) and HElib at the chains its own AES ran on, and refuses to
start without the executables. The real comparison needs `make helib` (BENCHMARKS.md)."""

import os
import stat
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "bench-helib.sh")


def _stand_in(path, log):
    path.write_text(f"#!/bin/sh\necho \"$(basename $0) $*\" >> {log}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def test_sitting_runs_both_backends_at_their_chains(tmp_path):
    bin_dir, out, log = tmp_path / "bin", tmp_path / "out", tmp_path / "calls.log"
    bin_dir.mkdir()
    for name in ("bench_ops", "run_cipher"):
        _stand_in(bin_dir / name, log)
    env = dict(os.environ, BIN=str(bin_dir), OUT=str(out), NICE="0")
    res = subprocess.run(["bash", SCRIPT], env=env, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    calls = log.read_text().splitlines()
    assert len(calls) == 8, calls
    ops = [c for c in calls if c.startswith("bench_ops")]
    aes = [c for c in calls if c.startswith("run_cipher")]
    assert [("--backend bgv" in c, "--m 4369" in c) for c in ops] == [(True, True), (False, True), (True, False),
                                                                      (False, False)]
    assert all("--bits 820 --hwt 0" in c and "--seed 1" in c for c in ops)
    assert "--reps 9" in ops[0] and "--reps 3" in ops[2]
    engine_aes = [c for c in aes if "--backend bgv" in c]
    helib_aes = [c for c in aes if "--backend helib" in c]
    assert len(engine_aes) == len(helib_aes) == 2
    assert all("--bits" not in c for c in engine_aes)  # the engine's planner chooses its chain
    assert "--m 4369" in helib_aes[0] and "--bits 700" in helib_aes[0]
    assert "--m 53261" in helib_aes[1] and "--bits 820" in helib_aes[1]
    assert (out / "aes_helib_m53261.time.json").exists()


def test_sitting_refuses_without_the_executables(tmp_path):
    env = dict(os.environ, BIN=str(tmp_path / "nothing"), OUT=str(tmp_path / "out"))
    res = subprocess.run(["bash", SCRIPT], env=env, capture_output=True, text=True, timeout=60)
    assert res.returncode == 1
    assert "bench_ops missing: run make helib" in res.stderr
    assert not (tmp_path / "out").exists()

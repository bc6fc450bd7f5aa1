"""The `cbparams` command: its answers are the pipeline's (the CSVs that
workflow/rules/params.smk writes, for a small range of m), and bad input is refused."""
import csv
import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from cbparams import cli
from cbparams.config import ROOT

SNAKEMAKE = ROOT / ".venv" / "bin" / "snakemake"
PARAMS = {"m_max": 2500, "workers": 1, "ciphers": ["aes", "vision16"], "security_target": [10, 20],
          "target_models": ["helib"], "plan_candidates": 1, "estimator": {"mode": "off"},
          "cost_calibration": [{"m": 257, "bits": 300, "c": 2}, {"m": 257, "bits": 600, "c": 3}], "cost_reps": 1,
          "cost_processes": 1}
SEED = 7   # config/test.yaml's: the pipeline plans with the config's seed


def raw(path):
    """The file's text exactly (the csv module writes \\r\\n line ends)."""
    return Path(path).read_bytes().decode()


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory):
    """The params stage of the pipeline on a small range (m <= 2500)."""
    if not SNAKEMAKE.exists():
        pytest.fail(f"{SNAKEMAKE} missing: run `make venv`")
    tmp = tmp_path_factory.mktemp("params")
    results = tmp / "results"
    cfg = tmp / "params.yaml"
    cfg.write_text(yaml.safe_dump({"results_dir": str(results), "stages": {"params": True}, "params": PARAMS}))
    res = subprocess.run([str(SNAKEMAKE), "params_all", "--cores", "1", "--configfile", "config/test.yaml",
                          str(cfg)], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, res.stderr[-3000:]
    return results / "params"


def test_sweep_is_cyclotomics_csv(pipeline, capsys):
    code, out, _ = run(capsys, "sweep", "--csv", "--params-json", json.dumps(PARAMS))
    assert code == 0
    assert out == raw(pipeline / "cyclotomics.csv")


def test_select_and_security_are_the_pipelines(pipeline, capsys):
    """The CLI's ranking and security table are the pipeline's files (plans reused from its cache)."""
    args = ["--csv", "--params-json", json.dumps(dict(PARAMS, seed=SEED)),
            "--cost-model", pipeline.parent / "cost" / "model.json", "--plans-dir", pipeline / "plans"]
    code, out, _ = run(capsys, "select", *args)
    assert code == 0
    assert out == raw(pipeline / "ranked.csv")
    code, out, _ = run(capsys, "security", *args)
    assert code == 0
    assert out == raw(pipeline / "security.csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["source"] for r in rows} >= {"paper", "selected"}
    assert all(r["estimator_source"].startswith("none:") for r in rows)   # mode off


def test_json_and_table(pipeline, capsys):
    code, out, _ = run(capsys, "sweep", "--json", "--params-json", json.dumps(PARAMS))
    rows = json.loads(out)
    want = list(csv.DictReader(open(pipeline / "cyclotomics.csv")))
    assert [{k: str(v) for k, v in r.items()} for r in rows] == want
    code, out, _ = run(capsys, "sweep", "--params-json", json.dumps(PARAMS), "--degrees", "16")
    lines = out.splitlines()
    assert code == 0 and lines[0].split()[:3] == ["m", "factors", "phi"]
    assert len(lines) - 2 == sum(1 for r in want if r["n"] == "16")


def test_ring(capsys):
    code, out, _ = run(capsys, "ring", "53261", "--json")
    r = json.loads(out)[0]
    assert code == 0 and (r["phi"], r["d"], r["slots"], r["gens"], r["twists"]) == (46080, 24, 1920, [3, 11], [0, 20])


def test_ring_at_p(capsys):
    """`cbparams ring M --p P`: d, slots and the hypercube at P, with a p column; HElib's and
    IAIK's Pasta-3 ring m = 2^16 at p = 65537 has 32768 slots of F_p."""
    code, out, _ = run(capsys, "ring", "65536", "64", "--p", "65537", "--json")
    a, b = json.loads(out)
    assert code == 0
    assert (a["p"], a["phi"], a["d"], a["slots"], a["gens"], a["ords"], a["twists"]) == \
        (65537, 32768, 1, 32768, [3, 32767], [16384, 2], [0, 0])
    assert (b["m"], b["d"], b["slots"], b["fields"]) == (64, 1, 32, [1])
    code, out, _ = run(capsys, "ring", "64", "--p", "17")
    lines = out.splitlines()
    assert code == 0 and lines[0].split()[:3] == ["m", "p", "factors"] and lines[2].split()[:6] == \
        ["64", "17", "2^6", "32", "4", "8"]
    code, out, _ = run(capsys, "ring", "53261")        # p = 2: no p column, as before
    assert code == 0 and out.splitlines()[0].split()[:2] == ["m", "factors"]


def test_sweep_at_p(capsys):
    """`cbparams sweep --p P`: odd m coprime to P and m = 2^k, each with n | ord_m(P)."""
    code, out, _ = run(capsys, "sweep", "--m-max", "300", "--p", "17", "--degrees", "1,4", "--json")
    rows = json.loads(out)
    assert code == 0 and rows and all(r["p"] == 17 for r in rows)
    ms = {r["m"] for r in rows}
    assert {4, 8, 16, 32, 64, 128, 256} <= ms and not any(m % 17 == 0 for m in ms)
    assert all(m % 2 or m & (m - 1) == 0 for m in ms)
    assert all(r["d"] % r["n"] == 0 for r in rows)
    assert {r["m"] for r in rows if r["n"] == 4} >= {5, 64}   # 17 = 2 mod 5 has order 4; 17^4 = 1 mod 64
    assert next(r for r in rows if r["m"] == 256 and r["n"] == 1)["slots"] == 8   # d = ord_256(1 + 2^4) = 2^4
    code, out, _ = run(capsys, "sweep", "--m-max", "300", "--p", "17", "--degrees", "1", "--csv")
    assert code == 0 and out.splitlines()[0].startswith("m,p,factors,phi,d,slots,n,state")


def test_check_at_p(capsys):
    code, out, _ = run(capsys, "check", "64", "--p", "17")
    assert code == 0 and out.startswith("m=64 p=17: ok") and "[ok] cover:" in out


def test_security_of_one_chain(capsys):
    code, out, _ = run(capsys, "security", "--m", "53261", "--bits", "820", "--json",
                       "--params-json", json.dumps({"estimator": {"mode": "off"}}))
    r = json.loads(out)[0]
    assert code == 0 and r["m"] == 53261 and r["bits"] == 820 and float(r["helib_bits"]) > 100


def test_security_of_one_chain_at_p(capsys):
    """A power-of-two ring at an odd prime p (issue 45): phi = m/2, sigma 3.2 (HElib's rule)."""
    code, out, _ = run(capsys, "security", "--m", "65536", "--p", "65537", "--bits", "400", "--json",
                       "--params-json", json.dumps({"estimator": {"mode": "off"}}))
    r = json.loads(out)[0]
    assert code == 0 and r["m"] == 65536 and r["phi"] == 32768 and float(r["helib_bits"]) > 100


def test_plan_is_the_engines(capsys):
    code, out, _ = run(capsys, "plan", "--cipher", "vision16", "--m", "257", "--rounds", "2", "--json")
    d = json.loads(out)
    assert code == 0 and d["instance"].startswith("GF(2^16)") and d["rounds"] == 2 and d["plan"]["bits"] > 0
    assert d["plan"]["op_counts"]           # what the cost model prices
    code, out, _ = run(capsys, "plan", "--cipher", "aes", "--m", "257")
    assert code == 0 and "planned by the engine" in out and "run_cipher --cipher aes128 --m 257" in out


@pytest.mark.parametrize("argv, text", [
    (["ring", "53262"], "m=53262 is even: the ring needs odd m"),
    (["plan", "--cipher", "vision32", "--m", "4369"], "m=4369 has d=16 (slots GF(2^16)): GF(2^32) needs 32 | d"),
    (["plan", "--cipher", "des", "--m", "4369"], "cipher='des' is not in the catalog"),
    (["sweep", "--m-min", "500", "--m-max", "100"], "m_min=500 exceeds m_max=100"),
    (["security", "--m", "4369"], "security --m needs --bits"),
    (["security", "--m", "65536", "--bits", "400"], "m=65536 is a power of two and p=2: no slots"),
    (["security", "--m", "65536", "--p", "2", "--bits", "400"], "m=65536 is a power of two and p=2: no slots"),
    (["security", "--m", "65536", "--p", "65535", "--bits", "400"], "p=65535 is not prime"),
    (["security", "--p", "65537"], "security --p 65537 needs --m"),
    (["ring", "9", "--p", "3"], "p=3 divides m=9: the plaintext modulus must be coprime to m"),
    (["ring", "257", "--p", "65535"], "p=65535 is not prime: the plaintext modulus must be a prime"),
    (["ring", "65536"], "m=65536 is a power of two and p=2: no slots"),
    (["ring", "12", "--p", "5"], "m=12 is even but not a power of two: the ring at p=5 needs odd m or m = 2^k"),
    (["sweep", "--m-max", "100", "--p", "91"], "p=91 is not prime"),
    (["sweep", "--m-max", "100", "--p", "two"], "p='two' is not an integer"),
    (["check", "9", "--p", "3"], "p=3 divides m=9"),
])
def test_bad_input(capsys, argv, text):
    code, _, err = run(capsys, *argv)
    assert code == 2 and text in err


def test_console_script_installed():
    exe = shutil.which("cbparams", path=str(ROOT / ".venv" / "bin"))
    assert exe, "the cbparams command is not in .venv/bin: run `make venv`"
    out = subprocess.run([exe, "ring", "257"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "257" in out.stdout


def test_pipeline_sage_checks(pipeline):
    """The params_sagechecks rule checked every selected ring with Sage, with its time."""
    doc = json.loads((pipeline / "sagechecks.json").read_text())
    selected = {int(r["m"]) for r in csv.DictReader(open(pipeline / "selected.csv")) if r["status"] == "ok"}
    assert doc["ok"] and {r["m"] for r in doc["rings"]} == selected and selected
    assert all(r["seconds"] > 0 and r["hypercube_source"].startswith("engine") for r in doc["rings"])
    assert len(doc["vision"]) == 4 and all(c["ok"] for c in doc["vision"])

"""The pipeline's configs: the shipped ones dry-run, bad ones fail with a message that names
the key, the workflow lints clean and the SLURM profile dry-runs."""

import copy
import math
import os
import re
import subprocess

import pytest
import yaml

from cbparams import catalog

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SNAKEMAKE = os.path.join(ROOT, ".venv", "bin", "snakemake")
SHIPPED = ["config.yaml", "paper.yaml", "selected.yaml", "test.yaml", "test_select.yaml", "test_select_prime.yaml",
           "helib.yaml", "new_ciphers.yaml"]


def snakemake(*args, results_dir):
    """Dry-run the pipeline from the repository root; results go to a temporary folder."""
    cmd = [SNAKEMAKE, "-n", "--cores", "2", *args, "--config", f"results_dir={results_dir}"]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)


def load_test_config():
    with open(os.path.join(ROOT, "config", "test.yaml")) as f:
        return yaml.safe_load(f)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_config_dry_runs(name, tmp_path):
    result = snakemake("--configfile", f"config/{name}", results_dir=tmp_path)
    assert result.returncode == 0, result.stderr + result.stdout
    with open(os.path.join(ROOT, "config", name)) as f:
        cfg = yaml.safe_load(f)
    jobs = sum(
        len(ring["bits"]) if isinstance(ring.get("bits"), list) else 1
        for e in cfg["experiments"] for ring in e["rings"]
    ) * cfg["repetitions"] * len(cfg.get("backends", ["engine"]))
    if jobs:
        assert re.search(rf"^run_experiment\s+{jobs}$", result.stdout, re.M), result.stdout
    else:   # run_selected only: the selected experiments join once the selection is made
        assert cfg.get("run_selected") and not re.search(r"^run_experiment\s", result.stdout, re.M)
    if cfg.get("run_selected"):   # the selection is a checkpoint: its runs are planned once it is made
        assert "(and the selection's, once it is made)" in result.stderr + result.stdout


def test_default_config_is_used_without_configfile(tmp_path):
    result = snakemake(results_dir=tmp_path)
    assert result.returncode == 0, result.stderr + result.stdout
    with open(os.path.join(ROOT, "config", "config.yaml")) as f:
        cfg = yaml.safe_load(f)
    for e in cfg["experiments"]:
        ring = e["rings"][0]
        assert f"{e['name']}/engine/m{ring['m']}_bits{ring.get('bits', 'plan')}_rep0" in result.stdout


def test_helib_backend_builds_helib_first_and_keys_runs_by_backend(tmp_path):
    result = snakemake("--configfile", "config/helib.yaml", results_dir=tmp_path)
    assert result.returncode == 0, result.stderr + result.stdout
    assert re.search(r"^build_helib_runners\s+1$", result.stdout, re.M), result.stdout
    for backend in ("engine", "helib"):
        assert f"aes-packed/{backend}/m4369_bits930_rep0" in result.stdout
    out = subprocess.run([SNAKEMAKE, "-n", "-p", "--cores", "2", "--configfile", "config/helib.yaml", "--config",
                          f"results_dir={tmp_path}"], cwd=ROOT, capture_output=True, text=True, timeout=300).stdout
    assert "build-helib-debian/bin/run_cipher" in out and "--backend helib" in out and "--backend bgv" in out
    assert "make -C" in out and "helib NTL_ROUTE=debian" in out


def _set(cfg, path, value):
    node = cfg
    for key in path[:-1]:
        node = node[key]
    if value is DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value


DELETE = object()
BAD = [
    # (where, new value, what the error must say)
    (["threadz"], 2, "invalid config: (top level): Additional properties are not allowed ('threadz' was unexpected)"),
    (["threads"], 0, "invalid config: threads: 0 is less than the minimum of 1"),
    (["experiments", 1, "packing"], "sliced", "experiments[1] (name='aes-byte-sliced'): packing='sliced': AES-128 has packed, byte-sliced or bit-sliced"),
    (["experiments", 2, "packing"], "byte-sliced", "experiments[2] (name='vision8'): packing='byte-sliced': Vision GF(2^8)^16 has packed or sliced"),
    (["experiments", 3, "field_bits"], 32, "experiments[3] (name='vision64'): cipher=vision has no instance with field_bits=32 and state_size=2: it has GF(2^8)^16, GF(2^16)^8, GF(2^32)^4, GF(2^64)^2"),
    (["experiments", 2, "state_size"], 5, "experiments[2] (name='vision8'): cipher=vision has no instance with field_bits=8 and state_size=5"),
    (["experiments", 0, "cipher"], "des", "experiments[0] (name='aes-packed'): cipher='des' is not in the catalog: use one of {ciphers} "
     "(build/bin/run_cipher --list-ciphers)"),
    (["experiments", 0, "rounds"], 11, "experiments[0] (name='aes-packed'): rounds=11: AES-128 has 1..10"),
    (["experiments", 0, "rings", 0, "bits"], [], "invalid config: experiments[0].rings[0].bits"),
    (["experiments", 0, "name"], "AES", "invalid config: experiments[0].name: 'AES' does not match"),
    (["experiments", 1, "name"], "aes-packed", "invalid config: experiments[1] (name='aes-packed'): duplicate experiment name"),
    (["experiments", 3, "rings", 0, "m"], 640, "experiments[3] (name='vision64').rings[0]: m=640 is even: the ring needs odd m"),
    (["experiments", 3, "rings", 0, "m"], 257,
     "m=257 has slots GF(2^16) (d = ord_m(2) = 16), which do not contain GF(2^64): the field degree 64 must divide d"),
    (["run_selected"], True, "invalid config: run_selected: true needs stages.params: true"),
    (["experiments"], [], "invalid config: experiments is empty: give at least one experiment (or run_selected: true)"),
    (["params", "depth_model"], "engine", "invalid config: params: Additional properties are not allowed ('depth_model' was unexpected)"),
    (["params", "m_maxx"], 5, "invalid config: params: Additional properties are not allowed ('m_maxx' was unexpected)"),
    (["backends"], ["tfhe"], "invalid config: backends[0]: 'tfhe' is not one of ['engine', 'helib']"),
    (["helib_ntl_route"], "conda", "invalid config: helib_ntl_route: 'conda' is not one of ['debian', 'native']"),
    (["stages"], DELETE, "invalid config: (top level): 'stages' is a required property"),
    (["experiments", 0, "rings", 0, "security_target"], 128, "experiments[0] (name='aes-packed').rings[0]: m=257 gives "
     "bits=400 and security_target=128: a security target chooses the digits and key weight and plans the chain"),
    (["experiments", 0, "hwt"], 50, "invalid config: experiments[0].hwt: 50 is not allowed (Hamming weight of the "
     "secret key (run_cipher --hwt), 0 (a dense key) or at least 120"),
    (["experiments", 0, "p"], 65537, "experiments[0] (name='aes-packed'): cipher=aes128 has no instance with p=65537: "
     "it has GF(2^8)^16 (p=2)"),
    (["experiments", 0, "p"], 2, "invalid config: experiments[0].p: 2 is less than the minimum of 3"),
]

#: An experiment over F_p: MiMC over F_65537, picked by the catalog's p.
PRIME = {"name": "mimcp17", "cipher": "mimc", "p": 65537, "packing": "packed", "rounds": 2,
         "rings": [{"m": 256, "bits": 300, "blocks": 1}]}


@pytest.mark.parametrize("path, value, message", BAD, ids=[".".join(map(str, b[0])) for b in BAD])
def test_bad_config_fails_with_clear_message(path, value, message, tmp_path):
    cfg = copy.deepcopy(load_test_config())
    _set(cfg, path, value)
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(cfg))
    result = snakemake("--configfile", str(bad), results_dir=tmp_path)
    assert result.returncode != 0
    if "{ciphers}" in message:  # the catalog's block ciphers, asked of it (a new entry leaves this green)
        message = message.format(ciphers=", ".join(catalog.ciphers()))
    assert message in result.stderr + result.stdout, result.stderr


def test_prime_field_experiment_runs_at_its_p(tmp_path):
    """An F_p experiment: a power-of-two ring accepted, run_cipher given --p (the dry run's
    command), and the rings the ring at p cannot be refused by name."""
    cfg = copy.deepcopy(load_test_config())
    cfg["experiments"] = [PRIME]
    good = tmp_path / "prime.yaml"
    good.write_text(yaml.safe_dump(cfg))
    result = snakemake("-p", "--configfile", str(good), results_dir=tmp_path)
    assert result.returncode == 0, result.stderr + result.stdout
    assert re.search(r"run_cipher --backend bgv --cipher mimc --p 65537 .*--m 256 --bits 300", result.stdout), \
        result.stdout[-3000:]
    for m, message in ((96, "m=96 is even but not a power of two: the ring at p=65537 needs odd m or m = 2^k"),
                       (65537, "p=65537 divides m=65537: the plaintext modulus must be coprime to m")):
        cfg["experiments"] = [dict(PRIME, rings=[{"m": m, "bits": 300}])]
        good.write_text(yaml.safe_dump(cfg))
        result = snakemake("--configfile", str(good), results_dir=tmp_path)
        out = result.stderr + result.stdout
        assert result.returncode != 0 and f"experiments[0] (name='mimcp17').rings[0]: {message}" in out, out[-2000:]


def test_lint_is_clean():
    result = subprocess.run([SNAKEMAKE, "--lint"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Congratulations, your workflow is in a good condition!" in result.stdout + result.stderr


def test_slurm_profile_dry_run(tmp_path):
    result = snakemake(
        "--profile", "workflow/profiles/slurm", "--configfile", "config/paper.yaml", "-p", results_dir=tmp_path
    )
    assert result.returncode == 0, result.stderr + result.stdout
    # Resources follow the ring: mem_mb = phi(m) x bits x mem_bytes_per_phi_bit / 10^6.
    with open(os.path.join(ROOT, "config", "paper.yaml")) as f:
        cfg = yaml.safe_load(f)
    per_bit = cfg["resources"]["mem_bytes_per_phi_bit"]
    aes = next(e for e in cfg["experiments"] if e["name"] == "aes-packed")["rings"][0]
    v64 = next(e for e in cfg["experiments"] if e["name"] == "vision64")["rings"][0]
    assert (aes["m"], v64["m"]) == (53261, 164737)
    # the rings give security targets, not chains: the engine plans each (one guess of a
    # planned chain's bits sizes every request, so memory goes as phi)
    assert "bits" not in aes and "bits" not in v64
    mem = {m: int(x) for m, x in re.findall(r"run_cipher aes-packed m=(\d+) bits=plan .*?mem_mb=(\d+)", result.stdout)}
    mem.update({m: int(x) for m, x in re.findall(r"run_cipher vision64 m=(\d+) bits=plan .*?mem_mb=(\d+)", result.stdout)})
    assert mem["164737"] / mem["53261"] == pytest.approx(163840 / 46080, rel=1e-3) and per_bit > 0
    # each asks run_cipher for the paper's security, and leaves it the key weight to choose
    assert f"--security-target {aes['security_target']}" in result.stdout
    assert not re.search(r"--security-target[^\n]*--hwt|--hwt[^\n]*--security-target", result.stdout)
    assert re.search(r"runtime=\d+", result.stdout)
    # The dry run shows the threads the config asks for (paper.yaml: 2), not the 1 core a
    # dry run counts without --cores.
    assert cfg["threads"] == 2
    assert "OMP_NUM_THREADS=2 " in result.stdout and "--threads 2 " in result.stdout
    assert "OMP_NUM_THREADS=1 " not in result.stdout
    # on a cluster a run holds its own threads (its allocation)
    assert re.search(r"run_cipher aes-packed .*\(threads=2, 2 cores held,", result.stdout)


def test_a_run_is_timed_alone_on_one_machine(tmp_path):
    """Locally a run job holds every core Snakemake was given, whatever its threads, so no
    other job shares the machine while it is timed; OpenMP gets the run's own threads."""
    cmd = [SNAKEMAKE, "-n", "-p", "--cores", "4", "--configfile", "config/test.yaml", "--config",
           f"results_dir={tmp_path}"]
    result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    held = re.findall(r"run_cipher \S+ m=\d+ .*\(threads=(\d+), (\d+) cores held,", result.stdout)
    assert held and all(cores == "4" for _, cores in held), held
    assert "OMP_NUM_THREADS=1 " in result.stdout and "--threads 1 " in result.stdout


def test_default_profile_is_loaded(tmp_path):
    """Snakemake reads profiles/default by itself (rerun-incomplete, keep-going), also
    under the SLURM profile."""
    for extra in ((), ("--profile", "workflow/profiles/slurm")):
        cmd = [SNAKEMAKE, "-n", *extra, "--configfile", "config/test.yaml", "--config", f"results_dir={tmp_path}"]
        result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        assert "workflow specific profile profiles/default for setting default command line arguments" in result.stderr
    with open(os.path.join(ROOT, "profiles", "default", "config.yaml")) as f:
        profile = yaml.safe_load(f)
    assert profile["rerun-incomplete"] is True and profile["keep-going"] is True


def test_report_and_dry_run_need_no_cores(tmp_path):
    """`snakemake -n` and `snakemake --report` work without --cores (no rule asks for
    workflow.cores)."""
    cmd = [SNAKEMAKE, "-n", "--configfile", "config/test.yaml", "--config", f"results_dir={tmp_path}"]
    result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    cmd = [SNAKEMAKE, "--report", str(tmp_path / "r.html"), "--configfile", "config/test.yaml",
           "--config", f"results_dir={tmp_path}"]
    result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    # Nothing has run in this folder: the report stops at the first missing result, not at cores.
    assert "total number of cores" not in result.stderr
    assert "marked for report but does not exist" in result.stderr, result.stderr


def test_missing_config_file_is_named_before_any_work():
    """`make run CONFIG=...` names a missing config (Snakemake would print a traceback)
    before installing or building anything."""
    result = subprocess.run(["make", "run-config", "CONFIG=config/nope.yaml"], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode != 0
    assert "make run: CONFIG=config/nope.yaml: no such file (the configs: config/config.yaml" in result.stderr
    assert "Traceback" not in result.stderr

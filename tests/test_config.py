"""The pipeline's configs: the shipped ones dry-run, bad ones fail with a message that names
the key, the workflow lints clean and the SLURM profile dry-runs."""

import copy
import math
import os
import re
import subprocess

import pytest
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SNAKEMAKE = os.path.join(ROOT, ".venv", "bin", "snakemake")
SHIPPED = ["config.yaml", "paper.yaml", "selected.yaml", "test.yaml", "helib.yaml"]


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
        len(ring["bits"]) if isinstance(ring["bits"], list) else 1
        for e in cfg["experiments"] for ring in e["rings"]
    ) * cfg["repetitions"] * len(cfg.get("backends", ["engine"]))
    assert re.search(rf"^run_experiment\s+{jobs}$", result.stdout, re.M), result.stdout


def test_default_config_is_used_without_configfile(tmp_path):
    result = snakemake(results_dir=tmp_path)
    assert result.returncode == 0, result.stderr + result.stdout
    with open(os.path.join(ROOT, "config", "config.yaml")) as f:
        cfg = yaml.safe_load(f)
    for e in cfg["experiments"]:
        ring = e["rings"][0]
        assert f"{e['name']}/engine/m{ring['m']}_bits{ring['bits']}_rep0" in result.stdout


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
    (["experiments", 1, "packing"], "sliced", "invalid config: experiments[1].packing: 'sliced' is not one of ['packed', 'byte-sliced']"),
    (["experiments", 2, "packing"], "byte-sliced", "invalid config: experiments[2].packing: 'byte-sliced' is not one of ['packed', 'sliced']"),
    (["experiments", 3, "field_bits"], 32, "invalid config: experiments[3]: not an allowed combination (Vision needs field_bits and state_size"),
    (["experiments", 2, "field_bits"], DELETE, "invalid config: experiments[2]: 'field_bits' is a required property"),
    (["experiments", 0, "rings", 0, "bits"], [], "invalid config: experiments[0].rings[0].bits"),
    (["experiments", 0, "name"], "AES", "invalid config: experiments[0].name: 'AES' does not match"),
    (["experiments", 1, "name"], "aes-packed", "invalid config: experiments[1] (name='aes-packed'): duplicate experiment name"),
    (["experiments", 3, "rings", 0, "m"], 640, "experiments[3] (name='vision64').rings[0]: m=640 is even: the ring needs odd m"),
    (["experiments", 3, "rings", 0, "m"], 257,
     "m=257 has slots GF(2^16) (d = ord_m(2) = 16), which do not contain GF(2^64): the field degree 64 must divide d"),
    (["params", "m_maxx"], 5, "invalid config: params: Additional properties are not allowed ('m_maxx' was unexpected)"),
    (["backends"], ["tfhe"], "invalid config: backends[0]: 'tfhe' is not one of ['engine', 'helib']"),
    (["helib_ntl_route"], "conda", "invalid config: helib_ntl_route: 'conda' is not one of ['debian', 'native']"),
    (["stages"], DELETE, "invalid config: (top level): 'stages' is a required property"),
]


@pytest.mark.parametrize("path, value, message", BAD, ids=[".".join(map(str, b[0])) for b in BAD])
def test_bad_config_fails_with_clear_message(path, value, message, tmp_path):
    cfg = copy.deepcopy(load_test_config())
    _set(cfg, path, value)
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(cfg))
    result = snakemake("--configfile", str(bad), results_dir=tmp_path)
    assert result.returncode != 0
    assert message in result.stderr + result.stdout, result.stderr


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
    for phi, bits in ((46080, aes["bits"]), (163840, v64["bits"])):
        assert f"mem_mb={math.ceil(phi * bits * per_bit / 1e6)}," in result.stdout
    assert re.search(r"runtime=\d+", result.stdout)

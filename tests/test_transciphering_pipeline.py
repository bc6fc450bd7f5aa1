"""The transciphering leaderboard end to end (config/test_transciphering.yaml: toy rings, no
security target, a few blocks) into a temporary results folder, and its refusals of bad
config input. Unit tests of the selection and the table are doctests of
sage/cbparams/transcipher.py and analysis/transciphering.py, and below."""

import json
import os
import subprocess

import pandas as pd
import pytest
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SNAKEMAKE = os.path.join(ROOT, ".venv", "bin", "snakemake")
RUN_CIPHER = os.path.join(ROOT, "build", "bin", "run_cipher")
CONFIG = os.path.join(ROOT, "config", "test_transciphering.yaml")


def snakemake(*args, timeout=600):
    cmd = [SNAKEMAKE, "--cores", "2", *args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def leaderboard(tmp_path_factory):
    if not os.path.exists(RUN_CIPHER) and os.environ.get("CB_ALLOW_NO_RUNNER") == "1":
        pytest.skip("build/bin/run_cipher is missing and CB_ALLOW_NO_RUNNER=1")
    results = str(tmp_path_factory.mktemp("tc") / "results")
    res = snakemake("--configfile", CONFIG, "--config", f"results_dir={results}")
    logs = ""
    for root, _, files in os.walk(os.path.join(results, "transciphering", "logs")):
        logs += "".join(f"--- {f}\n" + open(os.path.join(root, f)).read()[-1500:] for f in files)
    assert res.returncode == 0, res.stderr[-3000:] + logs
    return os.path.join(results, "transciphering")


def test_every_row_ran_on_its_selected_ring_and_the_table_says_so(leaderboard):
    with open(CONFIG) as f:
        rows = yaml.safe_load(f)["transciphering"]["rows"]
    table = pd.read_csv(os.path.join(leaderboard, "leaderboard.csv"))
    measured = table[table["kind"].str.startswith("BGV")].set_index("entry")
    assert sorted(measured.index) == sorted(r["name"] for r in rows)
    for r in rows:
        with open(os.path.join(leaderboard, "selection", f"{r['name']}.json")) as f:
            sel = json.load(f)
        with open(os.path.join(leaderboard, "runs", f"{r['name']}.json")) as f:
            rec = json.load(f)
        assert [c["m"] for c in sel["candidates"]] == r["rings"]
        assert rec["correct"] is True and rec["params"]["m"] == sel["selected"]["m"]
        # least cost among the kept: phi x log2 Q of each plan (objective latency)
        kept = [c for c in sel["candidates"] if c["kept"]]
        assert sel["selected"]["cost"] == min(c["cost"] for c in kept)
        row = measured.loc[r["name"]]
        assert row["m"] == rec["params"]["m"] and row["blocks"] == r["blocks"] == rec["blocks"]
        assert row["latency_s"] == pytest.approx(rec["throughput"]["server_s"])
        assert row["depth_after"] == r.get("depth_after", 1) == rec["depth_after"]
        assert row["capacity_left_bits"] == pytest.approx(rec["capacity"]["after_subtract_bits"])
        assert row["capacity_left_bits"] > 0
    # the per-row L: aes128-ctr asks 2 products after, hera5 the section's 1
    assert measured.loc["aes128-ctr", "mode"] == "ctr" and measured.loc["hera5", "mode"] == "keystream"
    published = table[table["kind"] == "published"]
    assert len(published) >= 1 and published["correct"].isna().all()
    md = open(os.path.join(leaderboard, "leaderboard.md")).read()
    assert "capped at 4" in md and "not measured here" in md
    for ext in ("png", "svg"):
        assert os.path.getsize(os.path.join(leaderboard, f"leaderboard_throughput_capacity.{ext}")) > 1000


def bad_config(tmp_path, change):
    with open(CONFIG) as f:
        cfg = yaml.safe_load(f)
    change(cfg["transciphering"])
    cfg["results_dir"] = str(tmp_path / "results")
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(cfg))
    return snakemake("-n", "--configfile", str(path), timeout=120)


@pytest.mark.parametrize("change, words", [
    (lambda t: t["rows"][0].update(rings=[]), ["rings"]),
    (lambda t: t["rows"][0].update(blocks=0), ["blocks", "0"]),
    (lambda t: t["rows"][1].update(name="hera5"), ["hera5", "more than once"]),
    (lambda t: t["rows"][0].update(rings={"from": 512, "to": 256}), ["from=512", "to=256"]),
    (lambda t: t.update(objective="fastest"), ["objective", "fastest"]),
])
def test_bad_config_is_refused_naming_the_value(tmp_path, change, words):
    res = bad_config(tmp_path, change)
    assert res.returncode != 0
    out = res.stdout + res.stderr
    for w in words:
        assert w in out, out[-2000:]


def test_a_row_no_ring_can_hold_is_refused_with_each_rings_reason():
    from cbparams.transcipher import LeaderboardError, Row, choose

    plan = {"params": {"m": 256, "phi": 128, "log2_q": 780.0, "bits": 560, "hwt": 120, "c": 3, "security": 19.4,
                       "slots": 128}, "blocks": 4, "capacity": {"depth_left": 1}}
    row = Row("hera5", "hera5p17", [256, 512], security_target=128)
    with pytest.raises(LeaderboardError, match=r"m=256: HElib 19.4 < 128 bits; core-SVP .* m=512: refused"):
        choose(row, {"kind": "keystream"}, {256: plan, 512: {"error": "no chain"}})


def test_the_throughput_objective_prefers_the_ring_with_more_blocks():
    from cbparams.transcipher import Row, choose

    def plan(m, phi, log2_q, blocks):
        return {"params": {"m": m, "phi": phi, "log2_q": log2_q, "bits": 500, "hwt": 120, "c": 3, "security": 200,
                           "slots": phi}, "blocks": blocks, "capacity": {"depth_left": 1}}

    # the smaller ring holds fewer blocks (a cap): cheaper per session, dearer per block
    plans = {32768: plan(32768, 16384, 700.0, 4096), 65536: plan(65536, 32768, 760.0, 32768)}
    row = dict(name="p", instance="pasta3p17", rings=[32768, 65536], security_target=128)
    svp = lambda phi, q, h: 200.0  # noqa: E731
    assert choose(Row(**row), {}, plans, coresvp=svp)["selected"]["m"] == 32768
    assert choose(Row(**row, objective="throughput"), {}, plans, coresvp=svp)["selected"]["m"] == 65536


def test_a_wrong_record_gives_no_row():
    from analysis.transciphering import LeaderboardRejected, bgv_row

    with pytest.raises(LeaderboardRejected, match="correct=None"):
        bgv_row({"params": {}}, "r.json")


def test_tfhe_rows_take_their_cipher_and_block_bits_from_the_catalog(tmp_path):
    """A TFHE peer's row: its cipher (analysis/peers.py) as the catalog names it, the
    throughput from the catalog's block bits, never a constant of this module."""
    from analysis import transciphering
    from cbparams import catalog
    from analysis.peers import PEER_CIPHER
    csv = tmp_path / "peers.csv"
    csv.write_text("peer,method,blocks,latency_s,per_block_s,params,threads,security\n"
                   "tfhe,transciphering,2,40.0,20.0,default,2,128\n")
    inst = catalog.instances()[catalog.instance_of({"cipher": PEER_CIPHER})]
    (row,) = transciphering.tfhe_rows(str(csv))
    assert row["instance"] == inst.id and row["bits_per_second"] == inst.block_bits / 20.0
    assert row["kind"].startswith("TFHE") and row["blocks"] == 2

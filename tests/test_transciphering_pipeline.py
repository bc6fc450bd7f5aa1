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
BUILD_DIR = os.environ.get("CB_BUILD_DIR", "build")  # the build cbparams.runner uses too
RUN_CIPHER = os.path.join(ROOT, BUILD_DIR, "bin", "run_cipher")
CONFIG = os.path.join(ROOT, "config", "test_transciphering.yaml")


def snakemake(*args, timeout=600):
    cmd = [SNAKEMAKE, "--cores", "2", *args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def leaderboard(tmp_path_factory):
    if not os.path.exists(RUN_CIPHER) and os.environ.get("CB_ALLOW_NO_RUNNER") == "1":
        pytest.skip("build/bin/run_cipher is missing and CB_ALLOW_NO_RUNNER=1")
    results = str(tmp_path_factory.mktemp("tc") / "results")
    res = snakemake("--configfile", CONFIG, "--config", f"results_dir={results}", f"build_dir={BUILD_DIR}")
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
        # every (ring, packing): a keystream row both packings (unless pinned), a block cipher its default
        packs = ["state", "blocks"] if sel["catalog"]["kind"] == "keystream" else [None]
        assert [(c["m"], c["packing"]) for c in sel["candidates"]] == [(m, p) for m in r["rings"] for p in packs]
        assert rec["correct"] is True and rec["params"]["m"] == sel["selected"]["m"]
        assert rec["packing"] == (sel["selected"]["packing"] or rec["packing"])
        # least cost among the kept: phi x log2 Q of each plan (objective latency)
        kept = [c for c in sel["candidates"] if c["kept"]]
        assert sel["selected"]["cost"] == min(c["cost"] for c in kept)
        row = measured.loc[r["name"]]
        assert row["m"] == rec["params"]["m"] and row["blocks"] == r["blocks"] == rec["blocks"]
        if sel["runner_up"] is not None:  # the other packing's planned figures beside the winner's
            assert row["runner_up"].startswith(sel["runner_up"]["packing"])
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


def _plan(m, phi, bits, blocks, ops, slots=None, security=200.0, depth_left=0):
    return {"params": {"m": m, "phi": phi, "log2_q": float(bits), "bits": bits, "hwt": 120, "c": 2,
                       "security": security, "slots": slots or phi}, "blocks": blocks,
            "capacity": {"depth_after": 1, "depth_left": depth_left},
            "plan": {"op_counts": [{"op": op, "primes": pr, "dropped": 0, "count": n} for op, pr, n in ops]}}


def _select(monkeypatch, row, plans, counts):
    """select() over fake plans (m, packing) -> record and a fake clear count; returns the
    selection and the (m, packing) the planner was asked for, in order."""
    from cbparams import transcipher

    monkeypatch.setattr(transcipher, "catalog_kind", lambda inst: {"kind": "keystream", "p": 2})
    asked = []

    def planner(r, kind, m, pk):
        asked.append((m, pk))
        return plans[(m, pk)]

    sel = transcipher.select(row, planner=planner, counter=lambda r, info: {"m": 3, "counts": counts})
    return sel, asked


def test_the_packings_are_compared_latency_picks_state_throughput_blocks(monkeypatch):
    """A toy keystream row at two rings: the state packing does fewer limb operations (a few
    key switches on one ciphertext), the blocks packing more in all but far more blocks."""
    from cbparams import security
    from cbparams.transcipher import Row

    monkeypatch.setattr(security, "coresvp_of_chain", lambda *a: 200.0)
    plans = {}
    for m, phi in ((256, 128), (512, 256)):
        plans[(m, "state")] = _plan(m, phi, 600, 4, [("automorph", 10, 30), ("mul", 10, 10)])
        plans[(m, "blocks")] = _plan(m, phi, 500, phi, [("mul", 8, 160), ("mul_plain", 8, 400)])
    counts = {"add": 40, "mul_plain": 200, "mul": 60}  # 300 operations: below the best state's work / 128 (700)
    sel, asked = _select(monkeypatch, Row("t", "toy", [256, 512], security_target=128), plans, counts)
    assert asked == [(256, "state"), (512, "state"), (256, "blocks"), (512, "blocks")]  # state first
    assert (sel["selected"]["m"], sel["selected"]["packing"]) == (256, "state")
    assert sel["selected"]["work"] == 128 * (30 * 10 * 2 + 10 * 10)  # key switches at c=2 digits
    assert (sel["runner_up"]["m"], sel["runner_up"]["packing"]) == (256, "blocks")
    assert sel["runner_up"]["work"] == 128 * (160 * 8 + 400 * 8) > sel["selected"]["work"]
    sel, _ = _select(monkeypatch, Row("t", "toy", [256, 512], security_target=128, objective="throughput"),
                     plans, counts)
    assert sel["selected"]["packing"] == "blocks" and sel["runner_up"]["packing"] == "state"
    assert sel["selected"]["cost"] == sel["selected"]["work"] / sel["selected"]["blocks"]
    # a pinned packing plans only that one
    sel, asked = _select(monkeypatch, Row("t", "toy", [256], security_target=128, packing="blocks"), plans, counts)
    assert asked == [(256, "blocks")] and sel["runner_up"] is None


def test_a_packing_that_cannot_win_is_not_planned(monkeypatch):
    """The blocks packing's lower bound (phi x its counted operations) at or above the best
    kept state candidate's cost: not planned, and its verdict says why with the bound; a
    state candidate short of the target does not count as the one to beat."""
    from cbparams import security
    from cbparams.transcipher import Row

    monkeypatch.setattr(security, "coresvp_of_chain", lambda *a: 200.0)
    plans = {(256, "state"): _plan(256, 128, 600, 4, [("automorph", 10, 30)], security=100.0),  # short of 128
             (512, "state"): _plan(512, 256, 600, 4, [("automorph", 10, 30)]),
             (256, "blocks"): _plan(256, 128, 500, 128, [("mul_plain", 8, 10 ** 6)])}
    counts = {"mul_plain": 601}  # 256 x 601 > the state's 256 x 600 at m=512; 128 x 601 below it
    sel, asked = _select(monkeypatch, Row("t", "toy", [256, 512], security_target=128), plans, counts)
    assert asked == [(256, "state"), (512, "state"), (256, "blocks")]  # m=512's blocks not planned
    skipped = [c for c in sel["candidates"] if c.get("skipped")]
    assert [(c["m"], c["packing"], c["lower_bound"]) for c in skipped] == [(512, "blocks", 256 * 601.0)]
    assert "not planned" in skipped[0]["reason"] and "601 operations" in skipped[0]["reason"]
    assert (sel["selected"]["m"], sel["selected"]["packing"]) == (512, "state")
    assert sel["candidates"][0]["kept"] is False and "HElib 100.0 < 128" in sel["candidates"][0]["reason"]


def test_the_toy_keystream_row_compares_both_packings_on_the_engine():
    """HERA-5 at m=256 (no target): both packings planned by run_cipher; the state packing
    does less work a session and more a block, as measured at m=65536 (docs/transciphering.md)."""
    from cbparams import transcipher
    from cbparams.transcipher import Row

    row = Row("hera5", "hera5p17", [256], security_target=0, blocks=4)
    sel = transcipher.select(row)
    by = {c["packing"]: c for c in sel["candidates"]}
    assert sorted(by) == ["blocks", "state"] and all(c["kept"] for c in by.values())
    assert by["state"]["work"] < by["blocks"]["work"]
    assert sel["selected"]["packing"] == "state" and sel["runner_up"]["packing"] == "blocks"
    # the lower bound holds against the blocks packing's planned work (the clear count is sound)
    counted = transcipher.blocks_counts(row, transcipher.catalog_kind("hera5p17"))
    assert transcipher.blocks_lower_bound(counted["counts"], by["blocks"]["phi"]) <= by["blocks"]["work"]


def test_the_estimator_joins_the_one_search_when_the_config_names_it(monkeypatch, tmp_path):
    """target_models with the estimator: the row's run_cipher search is given all three models
    and the table, the table is filled for the ring at every key weight the engine's search
    tries (asked of the engine), and the verdict judges the table's figure at the plan's chain
    (missing or under the target: not kept). A fake estimator fill; the real one is opt-in
    (sage/cbparams/test_estimator_table.py)."""
    from cbparams import estimator_table, security, security_models, transcipher
    from cbparams.errors import ParamError
    from cbparams.transcipher import Row

    est = {"mode": "fast", "path": "", "timeout_s": 60, "cache_dir": str(tmp_path / "cache")}
    with pytest.raises(ParamError, match="names the estimator but no estimator settings"):
        Row.from_config({"name": "h", "instance": "hera5p17", "rings": [256]},
                        {"target_models": ["helib", "coresvp", "estimator"]})
    row = Row.from_config({"name": "h", "instance": "hera5p17", "rings": [256]},
                          {"target_models": ["helib", "coresvp", "estimator"], "estimator": est})
    args = transcipher.run_args(row, "keystream", 256)
    table = str(estimator_table.table_path(est).resolve())
    assert args[args.index("--security-models") + 1] == "helib,coresvp,estimator"
    assert args[args.index("--estimator-table") + 1] == table
    filled = []
    monkeypatch.setattr(estimator_table, "search_models",
                        lambda names, m, hwt, target, cfg, log=print: filled.append((m, hwt)) or (names, table))
    transcipher.fill_estimator(row, 256)
    assert filled == [(256, w) for w in security_models.search_weights()] and len(filled) > 1
    filled.clear()
    transcipher.fill_estimator(Row("h", "hera5p17", [256], hwt=300, target_models=row.target_models,
                                   estimator=est), 256)
    assert filled == [(256, 300)]
    # the verdict reads the table at the plan's chain, soundly rounded up to a tabulated log2 Q
    monkeypatch.setattr(security, "coresvp_of_chain", lambda *a: 200.0)
    estimator_table.write(estimator_table.table_path(est), [
        {"phi": 128, "hwt": 120, "sigma": 3.2, "log2_q": 610.0, "bits": 140.0, "attack": "usvp",
         "attacks": "usvp,dual", "commit": "test"},
        {"phi": 128, "hwt": 120, "sigma": 3.2, "log2_q": 700.0, "bits": 120.0, "attack": "usvp",
         "attacks": "usvp,dual", "commit": "test"}])
    v = transcipher.judge(row, 256, _plan(256, 128, 600, 128, [("mul", 4, 1)]))
    assert v["kept"] and v["security_estimator"] == 140.0
    v = transcipher.judge(row, 256, _plan(256, 128, 650, 128, [("mul", 4, 1)]))
    assert not v["kept"] and "the estimator 120.0 < 128 bits" in v["reason"]
    v = transcipher.judge(row, 256, _plan(256, 128, 800, 128, [("mul", 4, 1)]))
    assert not v["kept"] and "the estimator has no figure" in v["reason"]

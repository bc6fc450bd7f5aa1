"""The optional peer stage: analysis/peers.py (annotate, tidy), analysis/figure_schemes.py,
the `peers`/`tfhe` config keys, and (when a usable cargo exists) the stage end to end with
tfhe-rs on the insecure test parameter set."""

import copy
import glob
import json
import os
import re
import subprocess

import pandas as pd
import pytest
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(HERE, "data")
SNAKEMAKE = os.path.join(ROOT, ".venv", "bin", "snakemake")

from analysis import aggregate  # noqa: E402
from analysis import figure_schemes  # noqa: E402
from analysis import peers  # noqa: E402
from analysis import published  # noqa: E402

RAW = os.path.join(DATA, "peers", "tfhe_insecure_t1_b2")
ASKED = {"params": "insecure-test", "threads": 1, "blocks": 2, "rep": 0}


def load_raw():
    with open(RAW + ".json") as f:
        return json.load(f)


LEVELED = os.path.join(DATA, "peers", "tfhe-leveled_insecure_t1_b2")
ASKED_LEVELED = dict(ASKED, peer="tfhe-leveled")


def annotate_to(tmp_path, raw=None, asked=ASKED, fixture=RAW, name="peer.json"):
    raw_path = fixture + ".json"
    if raw is not None:
        raw_path = tmp_path / "raw.json"
        raw_path.write_text(json.dumps(raw))
    out = tmp_path / name
    peers.annotate(str(raw_path), fixture + ".env.json", fixture + ".benchmark.tsv", asked, str(out))
    return out


def test_annotate_keeps_a_correct_run_with_provenance(tmp_path):
    out = annotate_to(tmp_path)
    rec = json.loads(out.read_text())
    assert rec["peer"] == "tfhe" and rec["correct"] is True
    assert rec["provenance"]["host"] == "fixture-host"
    assert rec["benchmark"]["max_rss_mb"] == 14.0  # measure.py's exact peak wins
    assert rec["benchmark"]["sampled_max_rss_mb"] == 30.0


@pytest.mark.parametrize("change, message", [
    ({"correct": False}, "correct=False: a block disagrees with the reference AES"),
    ({"threads": 2}, "result has threads=2, expected 1"),
    ({"blocks": 1}, "result has blocks=1, expected 2"),
    ({"scheme": "bgv"}, "scheme='bgv'"),
])
def test_annotate_refuses_what_was_not_asked_or_is_wrong(tmp_path, change, message):
    raw = load_raw()
    raw.update(change)
    with pytest.raises(peers.PeerRejected, match=re.escape(message)):
        annotate_to(tmp_path, raw)
    assert not (tmp_path / "peer.json").exists()


def test_annotate_keeps_the_leveled_peer_and_refuses_a_method_mixup(tmp_path):
    rec = json.loads(annotate_to(tmp_path, asked=ASKED_LEVELED, fixture=LEVELED).read_text())
    assert rec["peer"] == "tfhe-leveled" and rec["method"] == "leveled" and rec["correct"] is True
    with pytest.raises(peers.PeerRejected, match=re.escape("method='leveled', expected 'transciphering'")):
        annotate_to(tmp_path, asked=ASKED, fixture=LEVELED, name="mixup.json")
    with pytest.raises(peers.PeerRejected, match=re.escape("method='transciphering', expected 'leveled'")):
        annotate_to(tmp_path, asked=ASKED_LEVELED, name="mixup2.json")


def test_annotate_refuses_invalid_timings(tmp_path):
    raw = load_raw()
    raw["invalid_timings"] = {"timings": raw.pop("timings")}
    with pytest.raises(peers.PeerRejected, match="no valid timings"):
        annotate_to(tmp_path, raw)


def test_tidy_row_holds_the_runs_numbers(tmp_path):
    out = annotate_to(tmp_path)
    df = peers.tidy([str(out)])
    assert list(df.columns) == peers.COLUMNS
    row = df.iloc[0]
    raw = load_raw()
    assert row["latency_s"] == raw["timings"]["latency_s"]
    assert row["per_block_s"] == pytest.approx(raw["timings"]["total_s"] / 2)
    assert row["security"] == 0 and row["params"] == "insecure-test" and row["threads"] == 1
    assert row["pbs_per_block"] == raw["pbs"]["per_block"] > 1000


def test_tidy_and_figure_show_both_tfhe_methods(tmp_path):
    both = [str(annotate_to(tmp_path)), str(annotate_to(tmp_path, asked=ASKED_LEVELED, fixture=LEVELED,
                                                        name="leveled.json"))]
    df = peers.tidy(both)
    assert sorted(df["method"]) == ["leveled", "transciphering"]
    assert sorted(df["peer"]) == ["tfhe", "tfhe-leveled"]
    rows = figure_schemes.rows(pd.DataFrame(columns=["cipher", "packing"]), df)
    labels = list(rows[rows["origin"] == "peer"]["label"])
    assert len(labels) == 2
    assert any(lab.startswith("leveled TFHE on tfhe-rs 1.8.2, insecure-test") for lab in labels), labels
    assert any(lab.startswith("tfhe-rs 1.8.2 AES, insecure-test") for lab in labels), labels


def test_tidy_refuses_an_incorrect_record(tmp_path):
    rec = load_raw()
    rec["correct"] = False
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(rec))
    with pytest.raises(peers.PeerRejected, match="never aggregated"):
        peers.tidy([str(p)])


def test_published_rows_name_their_source():
    df = published.aes_across_schemes()
    assert df["source"].notna().all()
    assert (df["per_block_s"].dropna() > 0).all()
    assert {"TFHE", "BGV"} <= set(df["scheme"])


def test_figure_rows_and_files(tmp_path):
    runs, _, _ = aggregate.tidy(sorted(glob.glob(os.path.join(DATA, "runs", "*", "*", "*.json"))))
    peer = peers.tidy([str(annotate_to(tmp_path))])
    df = figure_schemes.rows(runs, peer)
    engine = df[df["origin"] == "engine"]
    assert len(engine) == 1  # the fixtures' one packed AES run
    aes = runs[(runs["cipher"] == "aes128") & (runs["packing"] == "packed")].iloc[0]
    assert engine.iloc[0]["per_block_s"] == pytest.approx(aes["total_s"] / aes["blocks"])
    assert f"{int(aes['rounds'])} of 10 rounds" in engine.iloc[0]["label"]  # the fixture runs 2 rounds
    tf = df[df["origin"] == "peer"].iloc[0]
    assert "fixture-host, 1 thr, INSECURE test set" in tf["label"]
    assert (df["origin"] == "published").sum() == len(published.aes_across_schemes())
    # the toy-ring engine run and tfhe-rs's insecure test set are marked; published rows are not
    assert engine.iloc[0]["below_80_bits"] and "below 80 bits" in engine.iloc[0]["label"]
    assert tf["below_80_bits"] and "below 80 bits" in tf["label"]
    assert not df[df["origin"] == "published"]["below_80_bits"].any()
    png, pdf = tmp_path / "f.png", tmp_path / "f.pdf"
    figure_schemes.plot(df, str(png), str(pdf))
    assert png.stat().st_size > 5000 and pdf.stat().st_size > 5000
    data = pd.read_csv(tmp_path / "f.csv")   # the figure's data, with its security column and mark
    assert {"security", "below_80_bits"} <= set(data.columns) and len(data) == len(df)


def test_figure_labels_helib_runs_as_helib(tmp_path):
    runs, _, _ = aggregate.tidy(sorted(glob.glob(os.path.join(DATA, "runs", "*", "*", "*.json"))))
    aes = runs[(runs["cipher"] == "aes128") & (runs["packing"] == "packed")]
    both = pd.concat([aes, aes.assign(backend="helib")])
    df = figure_schemes.rows(both, pd.DataFrame(columns=peers.COLUMNS))
    assert set(df["origin"]) == {"engine", "helib", "published"}
    assert df[df["origin"] == "helib"].iloc[0]["label"].startswith("HElib 2.3.0 BGV packed")
    assert df[df["origin"] == "engine"].iloc[0]["label"].startswith("engine BGV packed")


def test_figure_without_engine_runs_or_peers(tmp_path):
    png, pdf = tmp_path / "f.png", tmp_path / "f.pdf"
    figure_schemes.figure(str(tmp_path / "none.csv"), str(tmp_path / "none2.csv"), str(png), str(pdf))
    assert png.stat().st_size > 5000


def config_with_peers(tmp_path, only_aes_packed=False, peer_list=("tfhe",), leveled=None, **tfhe):
    with open(os.path.join(ROOT, "config", "test.yaml")) as f:
        cfg = yaml.safe_load(f)
    if only_aes_packed:  # the figure's engine row, at the least cost
        cfg["experiments"] = [e for e in cfg["experiments"] if e["name"] == "aes-packed"]
    cfg["results_dir"] = str(tmp_path / "results")
    cfg["peers"] = list(peer_list)
    if tfhe:
        cfg["tfhe"] = tfhe
    if leveled:
        cfg["tfhe_leveled"] = leveled
    path = tmp_path / "peers.yaml"
    path.write_text(yaml.safe_dump(cfg))
    return str(path)


def snakemake(*args, timeout=300):
    return subprocess.run([SNAKEMAKE, "--cores", "2", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


def test_default_config_has_no_peer_jobs(tmp_path):
    result = snakemake("-n", "--config", f"results_dir={tmp_path}")
    assert result.returncode == 0, result.stderr
    assert "run_tfhe" not in result.stdout and "build_tfhe" not in result.stdout


def test_peers_config_plans_one_job_per_thread_count(tmp_path):
    result = snakemake("-n", "--configfile", config_with_peers(tmp_path))
    assert result.returncode == 0, result.stderr
    assert re.search(r"^run_tfhe\s+2$", result.stdout, re.M), result.stdout  # threads default [1, 2]
    assert "tfhe_aes128_ks-pbs-tuniform-2m128_t2_b1_rep0.json" in result.stdout
    assert re.search(r"^figure_schemes\s+1$", result.stdout, re.M)


def test_both_tfhe_peers_plan_their_runs(tmp_path):
    result = snakemake("-n", "--configfile", config_with_peers(tmp_path, peer_list=("tfhe", "tfhe-leveled")))
    assert result.returncode == 0, result.stderr
    assert re.search(r"^run_tfhe\s+4$", result.stdout, re.M), result.stdout  # [1, 2] threads each
    assert "tfhe_aes128_ks-pbs-tuniform-2m128_t1_b1_rep0.json" in result.stdout
    assert "tfhe-leveled_aes128_leveled-128_t2_b1_rep0.json" in result.stdout


def test_unknown_peer_is_named(tmp_path):
    result = snakemake("-n", "--configfile", config_with_peers(tmp_path, peer_list=("tfhe-fast",)))
    assert result.returncode != 0
    assert "tfhe-fast" in result.stderr + result.stdout, result.stderr


@pytest.mark.parametrize("tfhe, message", [
    ({"threads": []}, "invalid config: tfhe.threads: [] should be non-empty"),
    ({"blocks": 0}, "invalid config: tfhe.blocks: 0 is less than the minimum of 1"),
    ({"param": "x"}, "invalid config: tfhe: Additional properties are not allowed ('param' was unexpected)"),
])
def test_bad_peer_settings_fail_with_the_key(tmp_path, tfhe, message):
    result = snakemake("-n", "--configfile", config_with_peers(tmp_path, **tfhe))
    assert result.returncode != 0
    assert message in result.stderr + result.stdout, result.stderr


def usable_cargo():
    found = subprocess.run([os.path.join(ROOT, "scripts", "find-cargo.sh")], capture_output=True, text=True)
    return found.returncode == 0, found.stderr.strip()


def test_peer_stage_end_to_end_on_the_insecure_test_set(tmp_path):
    """build_tfhe, run_tfhe (2 blocks, 1 thread), annotate, aggregate and the figure; the
    engine's packed AES run of config/test.yaml comes along (the figure shows it)."""
    ok, why = usable_cargo()
    if not ok:
        pytest.skip(f"no usable cargo for runners/tfhe: {why}")
    cfg = config_with_peers(tmp_path, only_aes_packed=True, params="insecure-test", threads=[1], blocks=2)
    result = snakemake("--configfile", cfg, timeout=3600)
    results = tmp_path / "results"
    assert result.returncode == 0, result.stderr[-4000:]
    (rec_path,) = glob.glob(str(results / "peers" / "tfhe_aes128_insecure-test_t1_b2_rep0.json"))
    with open(rec_path) as f:
        rec = json.load(f)
    assert rec["correct"] is True and rec["blocks"] == 2 and rec["threads"] == 1
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", rec["provenance"]["date"])
    df = pd.read_csv(results / "tidy" / "peers.csv")
    assert len(df) == 1 and df.iloc[0]["params"] == "insecure-test"
    assert (results / "figures" / "aes128_across_schemes.png").stat().st_size > 5000
    assert glob.glob(str(results / "runs" / "aes-packed" / "*" / "*.json"))


def test_leveled_peer_end_to_end_on_the_insecure_test_set(tmp_path):
    """The same stage with peers: [tfhe-leveled] (tfhe_aes --method leveled, 1 block)."""
    ok, why = usable_cargo()
    if not ok:
        pytest.skip(f"no usable cargo for runners/tfhe: {why}")
    cfg = config_with_peers(tmp_path, only_aes_packed=True, peer_list=("tfhe-leveled",),
                            leveled={"params": "insecure-test", "threads": [1], "blocks": 1})
    result = snakemake("--configfile", cfg, timeout=3600)
    results = tmp_path / "results"
    assert result.returncode == 0, result.stderr[-4000:]
    (rec_path,) = glob.glob(str(results / "peers" / "tfhe-leveled_aes128_insecure-test_t1_b1_rep0.json"))
    with open(rec_path) as f:
        rec = json.load(f)
    assert rec["correct"] is True and rec["method"] == "leveled" and rec["peer"] == "tfhe-leveled"
    df = pd.read_csv(results / "tidy" / "peers.csv")
    assert list(df["method"]) == ["leveled"]
    assert (results / "figures" / "aes128_across_schemes.png").stat().st_size > 5000

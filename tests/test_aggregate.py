"""Unit tests of analysis/annotate.py and analysis/aggregate.py on hand-made fixtures."""

import glob
import json
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")

from analysis import aggregate  # noqa: E402
from analysis import annotate  # noqa: E402

RUNS = sorted(glob.glob(os.path.join(DATA, "runs", "*", "*", "*.json")))
RAW = os.path.join(DATA, "raw", "aes-packed")


def load(path):
    with open(path) as f:
        return json.load(f)


def test_tidy_shapes():
    runs, rounds, ops = aggregate.tidy(RUNS)
    assert len(runs) == 4
    assert len(rounds) == 4 * 2
    assert len(ops) == 3 * 2 * 5 + 2 * 3  # three Vision runs x 2 rounds x 5 ops, AES 2 x 3
    assert set(runs["instance"]) == {"AES-128", "Vision GF(2^8)^16", "Vision GF(2^64)^2"}


def test_tidy_values():
    runs, rounds, ops = aggregate.tidy(RUNS)
    v8 = runs[runs["name"] == "vision8"].iloc[0]
    assert v8["rounds_s"] == pytest.approx(10.0)
    assert v8["final_capacity_bits"] == 300.0
    assert v8["max_rss_mb"] == 50.0 and v8["wall_s"] == 12.0
    assert v8["git_revision"] == "abc123" and v8["host"] == "fixture-host" and v8["threads"] == 1
    assert v8["slots"] == 16 and v8["log2_q"] == pytest.approx(561.5)
    inv = ops[(ops["name"] == "vision8") & (ops["op"] == "inversion")].sort_values("round")
    assert list(inv["seconds"]) == [1.0, 3.0]


def test_incorrect_record_is_refused(tmp_path):
    record = load(RUNS[0])
    record["correct"] = False
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    with pytest.raises(aggregate.BadRecord, match="correct=False: incorrect runs are never aggregated"):
        aggregate.tidy(RUNS + [str(path)])


def test_raw_output_is_not_a_record():
    with pytest.raises(aggregate.BadRecord, match="no 'experiment' key"):
        aggregate.tidy([RAW + ".json"])


def test_no_records():
    with pytest.raises(aggregate.BadRecord, match="no run records"):
        aggregate.tidy([])


def test_aggregate_writes_csv(tmp_path):
    out = [tmp_path / f for f in ("runs.csv", "rounds.csv", "ops.csv")]
    aggregate.aggregate(RUNS, *out)
    assert all(p.stat().st_size > 0 for p in out)
    assert out[1].read_text().splitlines()[0] == "name,backend,cipher,instance,field_bits,state_size,p,packing,linear,m,bits,rep,round,seconds,capacity_bits"


def test_annotate_adds_provenance_and_benchmark(tmp_path):
    out = tmp_path / "run.json"
    experiment = load(RAW + ".experiment.json")
    annotate.annotate(RAW + ".json", RAW + ".env.json", RAW + ".benchmark.tsv", experiment, out)
    record = load(out)
    assert record["provenance"]["threads"] == 2 and record["provenance"]["git_revision"] == "abc123"
    # the exact peak from measure.py wins over the benchmark's sampled one
    assert record["benchmark"] == {"wall_s": 6.0, "max_rss_mb": 31.5, "sampled_max_rss_mb": 30.0}
    assert set(record["provenance"]) == {"host", "date", "threads", "git_revision"}
    assert record["experiment"] == experiment
    assert record["per_round"] == load(RAW + ".json")["per_round"]


@pytest.mark.parametrize(
    "change, message",
    [
        ({"correct": False}, "correct=False: decryption disagrees"),
        ({"rounds": 3}, "rounds=3, expected 2"),
        ({"cipher": "vision"}, "cipher='vision', expected 'aes128'"),
        ({"backend": "clear"}, "backend='clear', expected 'bgv'"),
        ({"backend": "helib"}, "backend='helib', expected 'bgv'"),
    ],
)
def test_annotate_refuses(tmp_path, change, message):
    raw = load(RAW + ".json")
    raw.update(change)
    path = tmp_path / "raw.json"
    path.write_text(json.dumps(raw))
    with pytest.raises(annotate.RunRejected, match=message):
        annotate.annotate(path, RAW + ".env.json", RAW + ".benchmark.tsv", load(RAW + ".experiment.json"), tmp_path / "o.json")
    assert not (tmp_path / "o.json").exists()


def test_annotate_refuses_other_ring(tmp_path):
    experiment = dict(load(RAW + ".experiment.json"), m=771)
    with pytest.raises(annotate.RunRejected, match="params.m=257, expected 771"):
        annotate.annotate(RAW + ".json", RAW + ".env.json", RAW + ".benchmark.tsv", experiment, tmp_path / "o.json")


# --- damaged, copied and incomplete records are never counted ---------------------------

from analysis import records  # noqa: E402


def copy_to(tmp_path, src, run_id):
    path = tmp_path / "runs" / f"{run_id}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(open(src).read())
    return str(path)


def test_truncated_record_is_refused(tmp_path):
    path = tmp_path / "runs" / "vision8" / "engine" / "m257_bits500_rep0.json"
    path.parent.mkdir(parents=True)
    path.write_text(open(RUNS[-1]).read()[:200])
    with pytest.raises(records.BadRecord, match="unreadable"):
        aggregate.tidy([str(path)])


def test_record_copied_under_another_run_is_refused(tmp_path):
    src = next(p for p in RUNS if "vision8" in p)
    path = copy_to(tmp_path, src, "vision8/engine/m257_bits500_rep1")
    with pytest.raises(records.BadRecord, match="the record is of run vision8/engine/m257_bits500_rep0, not of the run"):
        aggregate.tidy([path])


def test_run_counted_twice_is_refused(tmp_path):
    src = next(p for p in RUNS if "vision8" in p)
    other = tmp_path / "elsewhere" / "vision8" / "engine" / "m257_bits500_rep0.json"
    other.parent.mkdir(parents=True)
    other.write_text(open(src).read())
    with pytest.raises(records.BadRecord, match="already counted"):
        aggregate.tidy([src, str(other)])


def test_missing_round_is_refused(tmp_path):
    record = load(RUNS[0])
    record["per_round"] = record["per_round"][:-1]
    path = tmp_path / "runs" / "aes-packed" / "engine" / "m257_bits300_rep0.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(record))
    with pytest.raises(records.BadRecord, match="1 per_round entries"):
        aggregate.tidy([str(path)])


def test_record_of_another_experiment_is_refused():
    record = load(RUNS[0])
    expected = dict(record["experiment"], hwt=120)
    with pytest.raises(records.BadRecord, match="experiment.hwt=0, the config asks for 120"):
        records.check_record(record, RUNS[0], expected)

"""scripts/compare_results.py (two results directories, file by file): on two tiny synthetic
trees, what it leaves out (times, provenance, paths of each tree, the planning order) and
what it reports (a plan's bits, a ciphertext, a table's security, a figure's data, a file on
one side only), and its refusal of a missing directory."""

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "compare_results.py")
spec = importlib.util.spec_from_file_location("compare_results", SCRIPT)
compare_results = importlib.util.module_from_spec(spec)
sys.modules["compare_results"] = compare_results  # its dataclasses look their module up
spec.loader.exec_module(compare_results)

RECORD = {
    "params": {"m": 257, "bits": 400, "p": 2},
    "plan": {"bits": 400, "round_capacity_bits": [300.5, 250.1], "seconds": 0.4,
             "cache": {"dir": "/x/.cache/plans", "hits": 0, "misses": 1}},
    "per_round": [{"round": 1, "capacity_bits": 300.5, "seconds": 0.2, "ops": {"subbytes": 0.1}}],
    "timings": {"total_s": 1.7},
    "ciphertext_hex": "7efd28d8",
    "provenance": {"host": "vm", "cpu": "EPYC", "date": "2026-11-29T10:00:00Z", "threads": 2,
                   "git_revision": "abc123"},
    "benchmark": {"wall_s": 3.1, "max_rss_mb": 96.0},
}
RANKED_HEADER = "cipher,packing,security_target,m,bits,predicted_latency_s,rank_latency,measured_file\n"
RINGS = {3589: 601, 4369: 614, 53261: 820}  # m: chain bits
TABLE2_MD = ("# Table 2\n\n| instance | ring | security (lowest) | latency_s |\n|---|---|---|---|\n"
             "| AES-128 packed | m=257 | {sec} | {t} |\n")
TABLE2_HTML = ("<html><body><h3>Table 2</h3><ul><li><b>rings</b>: m=257</li></ul>"
               "<table><tr><th>instance</th><th>security (lowest)</th><th>latency_s</th><th>machine</th></tr>"
               "<tr><td>AES-128</td><td>{sec}</td><td>{t}</td><td>{host}; git {rev}</td></tr></table></body></html>")


def tree(root, *, t=1.0, host="vm", rev="abc123", sec="11.7", bits=400, order=(3589, 4369), png=b"\x89PNG1"):
    """A results directory as the pipeline writes one, in miniature."""
    def put(rel, text):
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(text) if isinstance(text, bytes) else p.write_text(text)

    rec = json.loads(json.dumps(RECORD))
    rec["plan"]["seconds"] = rec["timings"]["total_s"] = t
    rec["plan"]["cache"]["dir"] = f"{root}/.cache/plans"
    rec["provenance"].update(host=host, git_revision=rev)
    rec["plan"]["bits"] = bits
    put("runs/aes/engine/m257_bits400_rep0.json", json.dumps(rec))
    put("raw/aes/engine/m257_bits400_rep0.env.json",
        json.dumps({"host": host, "cpu": "EPYC", "date": f"2026-11-29T1{int(t)}:00:00Z", "threads": 2,
                    "git_revision": rev, "max_rss_mb": 90 + t, "exit_status": 0}))
    put("params/ranked.csv", RANKED_HEADER + "".join(
        f"aes,packed,128,{m},{RINGS[m]},{t * RINGS[m] / 600},{rank},{root}/params/measured/m{m}.json\n"
        for rank, m in enumerate(order, 1)))
    put("tables/table2_totals.md", TABLE2_MD.format(sec=sec, t=t))
    put("tables/table2_totals.html", TABLE2_HTML.format(sec=sec, t=t, host=host, rev=rev))
    put("tidy/ops.csv", f"name,m,round,op,seconds\naes,257,1,subbytes,{t}\naes,257,1,mixcolumns,{t / 2}\n")
    put("tables/table1_vision_ops.csv", f"instance,m,subbytes,mixcolumns,one_round,runs\nAES-128,257,{t},{t / 2},{2 * t},1\n")
    put("figures/round_time_capacity.csv", f"m,round,seconds,capacity_bits\n257,1,{t},300.5\n")
    put("figures/round_time_capacity.png", png)
    put("benchmarks/aes/engine/m257_bits400_rep0.tsv", f"s\tmax_rss\n{t}\t90\n")
    put("logs/summary.txt", f"aes done {t} s\n")
    put("params/selected.yaml", f"# predicted {t} s\nexperiments:\n- name: aes\n  rings:\n  - {{m: 257, bits: {bits}}}\n")
    put("build/runners.done", f"built 2026-11-29 at {rev}\n")
    return root


def run(a, b):
    return subprocess.run([sys.executable, SCRIPT, "--quiet", str(a), str(b)], capture_output=True, text=True)


def test_two_runs_of_one_revision_agree(tmp_path):
    a = tree(tmp_path / "before" / "results")
    b = tree(tmp_path / "after" / "results", t=2.5, host="other", rev="def456", order=(4369, 3589), png=b"\x89PNG2")
    res = run(a, b)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "0 differ; 0 only in" in res.stdout


def test_every_differing_file_and_field_is_named(tmp_path):
    a = tree(tmp_path / "before" / "results")
    b = tree(tmp_path / "after" / "results", bits=401, sec="12.0")
    (b / "runs/aes/engine/m257_bits400_rep0.json").write_text(
        (b / "runs/aes/engine/m257_bits400_rep0.json").read_text().replace("7efd28d8", "7efd28d9"))
    (b / "figures/round_time_capacity.csv").write_text("m,round,seconds,capacity_bits\n257,1,1.0,300.4\n")
    (b / "tables/extra.csv").write_text("a\n1\n")
    res = run(a, b)
    assert res.returncode == 1
    out = res.stdout
    assert "DIFFERS runs/aes/engine/m257_bits400_rep0.json (json)" in out
    assert "plan.bits: 400 -> 401" in out and "ciphertext_hex: '7efd28d8' -> '7efd28d9'" in out
    assert "DIFFERS tables/table2_totals.md (md)" in out and "security (lowest): '11.7' -> '12.0'" in out
    assert "DIFFERS tables/table2_totals.html (html)" in out
    assert "DIFFERS params/selected.yaml (yaml)" in out and "experiments[0].rings[0].bits: 400 -> 401" in out
    assert "DIFFERS figures/round_time_capacity.csv (csv)" in out and "capacity_bits: '300.5' -> '300.4'" in out
    assert f"ONLY IN {b}: tables/extra.csv" in out
    assert "5 differ; 0 only in" in out


def test_a_ring_ranked_on_one_side_only_is_reported(tmp_path):
    a = tree(tmp_path / "a")
    b = tree(tmp_path / "b", order=(3589, 53261))
    res = run(a, b)
    assert res.returncode == 1
    assert "row {'cipher': 'aes', 'packing': 'packed', 'security_target': '128', 'm': '4369'} only before" in res.stdout
    assert "'m': '53261'} only after" in res.stdout


def test_a_file_matched_by_no_rule_is_compared_by_bytes():
    assert compare_results.rule_for("params/new_output.bin").kind == "bytes"
    assert compare_results.rule_for("logs/run/aes/engine/m257.log").kind == "skip"
    assert compare_results.rule_for("figures/pareto_aes.png").data == "params/ranked.csv"


def test_ignored_fields_are_named_not_matched():
    names = ("timings", "per_round[].seconds")
    assert compare_results.ignored("timings.total_s", names)
    assert compare_results.ignored("per_round[3].seconds", names)
    assert not compare_results.ignored("per_round[3].capacity_bits", names)
    assert not compare_results.ignored("plan.seconds_estimate", ("plan.seconds",))


def test_refuses_a_missing_directory(tmp_path):
    res = run(tmp_path / "nowhere", tmp_path)
    assert res.returncode == 2
    assert f"{tmp_path}/nowhere: no such directory" in res.stderr


def test_operation_counts_are_matched_by_what_they_count():
    """A new kind of count shifts the list: the items that stay are still the same."""
    rule = compare_results.rule_for("params/plans/aes/m257.json")
    trees = compare_results.Trees(Path("/a"), Path("/b"))
    counts = [{"op": "mul", "primes": 3, "dropped": 0, "lanes": 1, "count": 4},
              {"op": "relin", "primes": 3, "dropped": 0, "lanes": 1, "count": 4}]
    new = [{"op": "encode", "primes": 1, "dropped": 0, "lanes": 1, "count": 7}] + counts
    diffs = compare_results.compare_data({"plan": {"op_counts": counts}}, {"plan": {"op_counts": new}}, rule, trees)
    assert diffs and all("op=encode" in d for d in diffs), diffs
    more = [dict(counts[0], count=5), counts[1]]
    diffs = compare_results.compare_data({"plan": {"op_counts": counts}}, {"plan": {"op_counts": more}}, rule, trees)
    assert diffs == ["plan.op_counts[op=mul,primes=3,dropped=0,lanes=1].count: 4 -> 5"]


def test_a_new_column_is_named_and_the_others_still_compared(tmp_path):
    """A column added on one side (as p was) hides no change in the columns both have."""
    a = tree(tmp_path / "a")
    b = tree(tmp_path / "b")
    (a / "tidy/rounds.csv").write_text("cipher,m,bits,seconds\naes,257,400,1.0\naes,4369,600,2.0\n")
    (b / "tidy/rounds.csv").write_text("cipher,p,m,bits,seconds\naes,2,257,400,1.5\naes,2,4369,601,2.5\n")
    res = run(a, b)
    assert res.returncode == 1
    assert "columns: only after ['p']" in res.stdout
    assert "bits: '600' -> '601'" in res.stdout and "'400'" not in res.stdout
    (b / "tidy/rounds.csv").write_text("cipher,p,m,bits,seconds\naes,2,257,400,1.5\naes,2,4369,600,2.5\n")
    assert "bits:" not in run(a, b).stdout


def test_security_rows_are_matched_by_chain(tmp_path):
    """Rows in another order, keyed by source, cipher, m and bits."""
    a = tree(tmp_path / "a")
    b = tree(tmp_path / "b")
    head = "source,cipher,m,bits,helib_bits\n"
    (a / "params/security.csv").write_text(head + "ranked,aes,4369,600,80.1\nselected,aes,53261,716,132.3\n")
    (b / "params/security.csv").write_text(head + "selected,aes,53261,716,132.3\nranked,aes,4369,600,80.1\n")
    assert run(a, b).returncode == 0
    (b / "params/security.csv").write_text(head + "selected,aes,53261,716,132.4\n")
    out = run(a, b).stdout
    assert "'m': '4369', 'bits': '600'} only before" in out and "helib_bits: '132.3' -> '132.4'" in out

"""BENCHMARKS.md names, for every table, the command and the machine that made it, and the
declared benchmarks (benchmarks/registry.yaml, `make benchmarks`) regenerate what they claim.

The convention, checked here: directly above each Markdown table (blank lines allowed
between) stand its stamp lines, each starting a line:

    Benchmark: <name>[, <name>]   optional: the registry's benchmarks that rerun it
    Command: `<the command>` ...  or  Command: none, published figures (<source>)
    Machine: <CPU, cores, memory or the named machine>, <date>

(a line may end in a backslash, Markdown's line break, so the stamp renders as three lines)

and the index at the top links every section.

Every table before the record part (the last section, whose heading starts "Record") names, on
its `Benchmark:` line, benchmarks the registry declares for its section, so `make benchmarks`
reruns every current claim; the record part holds what cannot be rerun here or was superseded,
each with its date and the reason it stands as record.
"""
from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS_MD = ROOT / "BENCHMARKS.md"
STAMP = re.compile(r"^(Benchmark|Command|Machine): (.*?\S)(?:\s*\\)?\s*$")  # a trailing \ is a line break
RECORD = "Record"  # the heading of the record part starts with this word

# Tables before the record part that no benchmark reruns, with why: each must match exactly one
# table (section, header start), so a fixed table or a stale entry fails here.
NOT_DECLARED = {
    ("Transciphering: keystream entries and the server's session (issue 46)", "| entry | m | p | packing |"):
        "the leaderboard, the lead's section: made by the transciphering pipeline (make run "
        "CONFIG=config/transciphering.yaml), whose tables are not run_cipher records",
}


def _regenerate():
    spec = importlib.util.spec_from_file_location("cb_regenerate", ROOT / "benchmarks" / "regenerate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


regen = _regenerate()


def _slug():
    """GitHub's anchor of a heading, as the docs' link test computes it (one definition)."""
    spec = importlib.util.spec_from_file_location("cb_docs_links", ROOT / "tests" / "test_docs_links.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.slug


slug = _slug()


def tables(text: str) -> list[dict]:
    """Each table of `text`: its line number, section heading and stamp lines."""
    lines = text.splitlines()
    found, section, fence, record = [], None, False, False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            fence = not fence
        if fence:
            continue
        if line.startswith("## "):
            section = line[3:].strip()
            record = record or section.startswith(RECORD)
        is_header = (line.startswith("|") and i + 1 < len(lines) and re.match(r"^\|\s*:?-{3,}", lines[i + 1])
                     and (i == 0 or not lines[i - 1].startswith("|")))
        if not is_header:
            continue
        j = i - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        stamp = {}
        while j >= 0 and STAMP.match(lines[j]):
            key, value = STAMP.match(lines[j]).groups()
            stamp.setdefault(key, value)
            j -= 1
        found.append({"line": i + 1, "section": section, "header": line[:70], "stamp": stamp, "record": record})
    return found


TABLES = tables(BENCHMARKS_MD.read_text())


def test_benchmarks_md_has_tables():
    assert len(TABLES) >= 15, f"found {len(TABLES)} tables in BENCHMARKS.md: did the table detection break?"


@pytest.mark.parametrize("t", TABLES, ids=[f"line{t['line']}" for t in TABLES])
def test_every_table_names_its_command_and_machine(t):
    where = f"BENCHMARKS.md line {t['line']} ({t['section']}: {t['header']})"
    assert "Command" in t["stamp"], f"{where}: no 'Command: ...' line directly above the table"
    assert "Machine" in t["stamp"], f"{where}: no 'Machine: ...' line directly above the table"
    command = t["stamp"]["Command"]
    assert re.search(r"`[^`]+`", command) or command.startswith("none, published figures"), (
        f"{where}: 'Command: {command}' quotes no command in backticks and does not say 'none, published figures'")
    machine = t["stamp"]["Machine"]
    assert re.search(r"\b20\d\d-\d\d-\d\d\b", machine) or "published" in command, (
        f"{where}: 'Machine: {machine}' gives no date (YYYY-MM-DD)")


def test_stamp_convention_is_enforced_by_the_parser():
    bad = "## S\ntext\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    good = ("## S\nCommand: `x --y`\nMachine: a 2-core box, 2026-11-29\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    assert tables(bad)[0]["stamp"] == {}
    assert set(tables(good)[0]["stamp"]) == {"Command", "Machine"}


def _named(t: dict) -> list[str]:
    return [n.strip().strip("`") for n in t["stamp"].get("Benchmark", "").split(",") if n.strip()]


def test_the_record_part_is_last():
    headings = re.findall(r"^## (.+)$", BENCHMARKS_MD.read_text(), flags=re.M)
    records = [i for i, h in enumerate(headings) if h.startswith(RECORD)]
    assert records == [len(headings) - 1], (
        f"BENCHMARKS.md: one record part, the last section (a heading starting {RECORD!r}); headings: {headings}")
    assert any(t["record"] for t in TABLES) and not TABLES[0]["record"]


def test_every_current_table_names_a_declared_benchmark():
    """Outside the record part, a table names a benchmark (make benchmarks reruns it) or is listed in
    NOT_DECLARED with its reason; every NOT_DECLARED entry matches exactly one table."""
    unnamed = [t for t in TABLES if not t["record"] and not _named(t)]
    for (section, header), why in NOT_DECLARED.items():
        hits = [t for t in unnamed if t["section"] == section and t["header"].startswith(header)]
        assert len(hits) == 1, f"NOT_DECLARED ({section!r}, {header!r}: {why}) matches {len(hits)} unnamed tables"
    unnamed = [t for t in unnamed
               if not any(t["section"] == s and t["header"].startswith(h) for s, h in NOT_DECLARED)]
    assert not unnamed, "tables outside the record part with no 'Benchmark:' line (declare one in " \
        "benchmarks/registry.yaml, or move the table to the record part with its reason): " + "; ".join(
            f"line {t['line']} ({t['section']}: {t['header']})" for t in unnamed)


def test_every_registered_section_is_a_current_section():
    text = BENCHMARKS_MD.read_text()
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    current = [h for h in headings if not h.startswith(RECORD)]
    for b in regen.load_registry():
        assert b["section"] in current, (f"benchmark {b['name']}: its section {b['section']!r} is no heading of "
                                         f"BENCHMARKS.md outside the record part ({current})")


def test_benchmark_lines_name_registered_benchmarks_of_their_section():
    registry = {b["name"]: b for b in regen.load_registry()}
    named = set()
    for t in TABLES:
        if t["record"]:
            continue
        for name in filter(None, (s.strip() for s in t["stamp"].get("Benchmark", "").split(","))):
            name = name.strip("`")
            assert name in registry, (f"BENCHMARKS.md line {t['line']}: 'Benchmark: {name}' is not in "
                                      f"benchmarks/registry.yaml ({', '.join(registry)})")
            assert registry[name]["section"] == t["section"], (
                f"benchmark {name}: the registry's section {registry[name]['section']!r} but its table "
                f"(line {t['line']}) is under {t['section']!r}")
            named.add(name)
    assert set(registry) - named == set(), (
        f"registered benchmarks no BENCHMARKS.md table outside the record part names (a 'Benchmark:' line): "
        f"{sorted(set(registry) - named)}")


def test_index_links_every_section():
    text = BENCHMARKS_MD.read_text()
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    first = text.index("\n## ")
    index = text[:first]
    for h in headings:
        anchor = slug(h)
        assert f"(#{anchor})" in index, f"BENCHMARKS.md's index (before the first section) has no link to #{anchor} ({h})"


# --- the registry and regenerate.py ---------------------------------------------------------------

def test_registry_loads_and_has_a_quick_set():
    benchmarks = regen.load_registry()
    quick = regen.select(benchmarks, "quick")
    assert quick and all(b.get("quick") for b in quick)
    assert regen.select(benchmarks, "all") == benchmarks


def test_unknown_benchmark_is_refused_by_name():
    with pytest.raises(regen.BenchmarkError, match=r"no benchmark named nosuch \(quick, all, or: .*chaghri-mimc-128"):
        regen.select(regen.load_registry(), "chaghri-mimc-128,nosuch")


def test_expressions_allow_fields_and_arithmetic_only():
    record = {"blocks": 4, "timings": {"total_s": 2.0}, "correct": True}
    assert regen.evaluate("1000 * timings.total_s / blocks", record) == 500.0
    with pytest.raises(regen.BenchmarkError, match="no field timings.cpu_s"):
        regen.evaluate("timings.cpu_s", record)
    with pytest.raises(regen.BenchmarkError, match="Call"):
        regen.evaluate("len(blocks)", record)
    with pytest.raises(regen.BenchmarkError, match="field correct is True, not a number"):
        regen.evaluate("correct", record)


def test_table_groups_rows_and_aggregates():
    bench = {"name": "t", "columns": [
        {"header": "n", "value": "x", "agg": "count"}, {"header": "range", "value": "x", "agg": "range", "format": ".1f"},
        {"header": "max/min", "value": "x", "agg": "maxmin", "format": ".2f"}, {"header": "all", "value": "x", "format": ".0f"}]}
    text = regen.table(bench, [("a", {"x": 1.0}), ("b", {"x": 5.0}), ("a", {"x": 3.0})])
    assert text.splitlines() == ["| run | n | range | max/min | all |", "|---|---|---|---|---|",
                                 "| a | 2 | 1.0-3.0 | 3.00 | 1, 3 |", "| b | 1 | 5.0-5.0 | 1.00 | 5 |"]


@pytest.mark.parametrize("record, why", [({"correct": False, "wrong_blocks": 3}, "correct=False"),
                                         ({"blocks": 1}, "correct=None")])
def test_a_failed_or_missing_decryption_check_is_refused(tmp_path, record, why):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    with pytest.raises(regen.BenchmarkError, match=f"DECRYPTION CHECK FAILED: .*{why}"):
        regen.check_record(path, "some command")


def _registry(tmp_path, command):
    reg = tmp_path / "registry.yaml"
    reg.write_text("benchmarks:\n  - name: tiny\n    section: S\n    about: a test\n    quick: true\n"
                   f"    runs:\n      - {{row: one, command: {json.dumps(command)}}}\n"
                   "    columns:\n      - {header: blocks, value: blocks, format: '.0f'}\n")
    return reg


def test_a_sitting_stops_on_a_failed_check_and_writes_no_table(tmp_path):
    fake = f"{sys.executable} -c \"import json,sys; json.dump({{'correct': False, 'blocks': 1}}, open(sys.argv[1], 'w'))\" {{out}}"
    out = tmp_path / "out"
    status = regen.main(["--registry", str(_registry(tmp_path, fake)), "--bench", "tiny", "--out", str(out),
                         "--bin", str(tmp_path)])
    assert status == 1
    assert not (out / "tiny.md").exists() and not (out / "BENCHMARKS.md").exists()


def test_a_run_that_exits_with_a_wrong_result_is_named_as_one(tmp_path, capsys):
    fake = (f"{sys.executable} -c \"import json,sys; json.dump({{'correct': False, 'wrong_blocks': 2}}, "
            f"open(sys.argv[1], 'w')); sys.exit(2)\" {{out}}")
    status = regen.main(["--registry", str(_registry(tmp_path, fake)), "--bench", "tiny", "--out", str(tmp_path / "o"),
                         "--bin", str(tmp_path)])
    assert status == 1
    err = capsys.readouterr().err
    assert "DECRYPTION CHECK FAILED" in err and "wrong_blocks: 2" in err


def test_missing_executables_are_named_before_any_work(tmp_path, capsys):
    status = regen.main(["--registry", str(_registry(tmp_path, "{bin}/run_cipher --json {out}")), "--bench", "quick",
                         "--out", str(tmp_path / "out"), "--bin", str(tmp_path / "nobuild")])
    assert status == 1
    assert f"tiny needs {tmp_path / 'nobuild'}/run_cipher (make build)" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_real_sitting_writes_its_stamped_table(tmp_path):
    bin_dir = ROOT / "build" / "bin"
    if not (bin_dir / "run_cipher").exists():
        pytest.skip("build/bin/run_cipher is absent (make build)")
    command = "{bin}/run_cipher --cipher aes128 --m 257 --blocks 1 --threads 1 --plan-cache '' --json {out}"
    out = tmp_path / "out"
    assert regen.main(["--registry", str(_registry(tmp_path, command)), "--bench", "tiny", "--out", str(out),
                       "--bin", str(bin_dir)]) == 0
    text = (out / "tiny.md").read_text()
    assert "| one | 1 |" in text
    [t] = tables(text)  # the regenerated table carries the stamp BENCHMARKS.md's tables must have
    assert t["stamp"]["Benchmark"] == "tiny" and "make benchmarks BENCH=tiny" in t["stamp"]["Command"]
    assert re.search(r"\d+ cores, [\d.]+ GiB, .*\b20\d\d-\d\d-\d\d \d\d:\d\d UTC", t["stamp"]["Machine"]), t["stamp"]
    assert "Every record's decryption check passed." in text
    combined = (out / "BENCHMARKS.md").read_text()
    assert "Machine: " in combined and text in combined
    assert json.loads((out / "records" / "tiny" / "r01.json").read_text())["correct"] is True


def test_make_benchmarks_passes_the_selection():
    dry = subprocess.run(["make", "-n", "benchmarks", "BENCH=chaghri-mimc-128,run-spread"], cwd=ROOT,
                         capture_output=True, text=True)
    assert dry.returncode == 0, dry.stderr
    assert "benchmarks/regenerate.py --bench chaghri-mimc-128,run-spread --bin build/bin" in dry.stdout


def test_registry_commands_use_options_their_executables_have():
    """Each registered command's options are listed by its executable's --help (the build's, when present)."""
    bin_dir = ROOT / "build" / "bin"
    helps, checked = {}, 0
    for b in regen.load_registry():
        for run_id, _, cmd in regen.commands(b, str(bin_dir)):
            argv = [a for a in cmd.split() if "=" not in a or a.startswith("--")]
            exe = argv[0] if argv[0].startswith("/") else str(ROOT / argv[0])
            if not Path(exe).exists():
                continue
            if exe not in helps:
                helps[exe] = subprocess.run([exe, "--help"], capture_output=True, text=True, timeout=60).stdout
            missing = [a for a in argv[1:] if a.startswith("--") and a.split("=")[0] not in helps[exe]]
            assert not missing, f"benchmark {b['name']} {run_id}: {exe} --help lists no {missing}: {cmd}"
            checked += 1
    if not checked:
        pytest.skip("build/bin is absent (make build): no registered command could be checked")


def _peer_registry(tmp_path):
    reg = tmp_path / "registry.yaml"
    ok = f"{sys.executable} -c \"import json,sys; json.dump({{'correct': True, 'blocks': 3}}, open(sys.argv[1], 'w'))\" {{out}}"
    reg.write_text("benchmarks:\n"
                   "  - name: plain\n    section: S\n    about: a test\n    quick: true\n"
                   f"    runs:\n      - {{row: one, command: {json.dumps(ok)}}}\n"
                   "    columns:\n      - {header: blocks, value: blocks, format: '.0f'}\n"
                   "  - name: peer\n    section: S\n    about: a peer's\n    quick: true\n"
                   f"    needs: {{{tmp_path}/nopeer/bench_ops: make nopeer}}\n"
                   f"    runs:\n      - {{row: one, command: '{tmp_path}/nopeer/bench_ops --json {{out}}'}}\n"
                   "    columns:\n      - {header: blocks, value: blocks, format: '.0f'}\n")
    return reg


def test_all_skips_a_benchmark_whose_optional_peer_is_not_built(tmp_path, capsys):
    out = tmp_path / "out"
    assert regen.main(["--registry", str(_peer_registry(tmp_path)), "--bench", "all", "--out", str(out),
                       "--bin", str(tmp_path)]) == 0
    combined = (out / "BENCHMARKS.md").read_text()
    assert f"Skipped (an optional peer not built here): peer (needs {tmp_path}/nopeer/bench_ops (make nopeer))" \
        in combined
    assert "| one | 3 |" in combined and not (out / "peer.md").exists()
    assert "skipping peer" in capsys.readouterr().err


def test_a_named_benchmark_whose_peer_is_not_built_is_refused(tmp_path, capsys):
    out = tmp_path / "out"
    assert regen.main(["--registry", str(_peer_registry(tmp_path)), "--bench", "plain,peer", "--out", str(out),
                       "--bin", str(tmp_path)]) == 1
    assert f"peer needs {tmp_path}/nopeer/bench_ops (make nopeer)" in capsys.readouterr().err
    assert not out.exists()


def _ntt_record():
    spec = importlib.util.spec_from_file_location("cb_ntt_record", ROOT / "benchmarks" / "ntt_record.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ntt_record_reads_bench_ntts_lines():
    text = ("       m      phi  bits  fast algorithm        forward_ms   inverse_ms   fwd_min_ms   inv_min_ms   setup_ms         cost\n"
            "    3205     2560    60    no bluestein*            0.044        0.045        0.044        0.045        1.4       115466\n"
            "    3205     2560    50   yes prime_factor*         0.017        0.018        0.016        0.017        0.5        82539\n")
    record = _ntt_record().parse(text, 3205)
    assert record["phi"] == 2560 and record["p60"]["bluestein"]["chosen"] == 1
    assert record["fast"]["prime_factor"] == {"forward_ms": 0.017, "inverse_ms": 0.018, "fwd_min_ms": 0.016,
                                              "inv_min_ms": 0.017, "setup_ms": 0.5, "cost": 82539.0, "chosen": 1}
    with pytest.raises(ValueError, match="unexpected bench_ntt line for m=4369"):
        _ntt_record().parse(text, 4369)


def test_ntt_record_writes_no_record_when_bench_ntt_fails(tmp_path):
    failing = tmp_path / "bench_ntt"
    failing.write_text("#!/bin/sh\necho 'm phi bits fast algorithm'\nexit 1\n")
    failing.chmod(0o755)
    out = tmp_path / "r.json"
    assert _ntt_record().main([str(failing), "3", "3205", "--json", str(out)]) == 1
    assert not out.exists()

"""Rerun BENCHMARKS.md's declared benchmarks in one sitting and write their tables.

`make benchmarks [BENCH=quick|all|name1,name2]` calls this script. Each benchmark of
benchmarks/registry.yaml (that file says what a benchmark declares) runs its commands one
after the other, each writing one JSON record; a record whose "correct" is not true (a
decrypted block or result that differed from the clear computation, or a record without
the check) stops the sitting, with the command and the record named. The tables go to
OUT/<name>.md and together, under the sitting's machine and date, to OUT/BENCHMARKS.md;
the records and each run's log to OUT/records/<name>/. BENCH=quick or all skips, naming it and
what builds it, a benchmark whose optional peer (its `needs`: HElib, OpenFHE, tfhe-rs) is not
built; a benchmark named in BENCH is refused instead, before any work.

    python benchmarks/regenerate.py --bench quick --bin build/bin --out results/benchmarks
    python benchmarks/regenerate.py --list
    python benchmarks/regenerate.py --bench chaghri-mimc-128 --dry-run
"""
from __future__ import annotations

import argparse
import ast
import datetime as dt
import json
import operator
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

import yaml

REGISTRY = Path(__file__).resolve().parent / "registry.yaml"
BENCHMARK_KEYS = {"name", "section", "about", "quick", "needs", "runs", "columns"}
RUN_KEYS = {"row", "command", "repeat"}
COLUMN_KEYS = {"header", "value", "agg", "format"}
AGGREGATES = ("list", "min", "max", "median", "range", "maxmin", "count")


class BenchmarkError(Exception):
    """A registry, a selection, a run or a record that cannot give a table (the message says why)."""


# --- the registry ---------------------------------------------------------------------------------

def load_registry(path: Path = REGISTRY) -> list[dict]:
    """The benchmarks of `path`, each checked for its keys, runs and columns."""
    data = yaml.safe_load(Path(path).read_text())
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise BenchmarkError(f"{path}: expected a mapping with a list 'benchmarks'")
    seen = set()
    for i, b in enumerate(data["benchmarks"]):
        where = f"{path}: benchmarks[{i}]"
        if not isinstance(b, dict):
            raise BenchmarkError(f"{where}: expected a mapping, got {b!r}")
        unknown = set(b) - BENCHMARK_KEYS
        if unknown:
            raise BenchmarkError(f"{where}: unknown key(s) {sorted(unknown)} (known: {sorted(BENCHMARK_KEYS)})")
        for key in ("name", "section", "about", "runs", "columns"):
            if not b.get(key):
                raise BenchmarkError(f"{where}: '{key}' is missing or empty")
        where = f"{path}: benchmark {b['name']}"
        if b["name"] in seen or b["name"] in ("quick", "all"):
            raise BenchmarkError(f"{where}: the name is taken ({'a duplicate' if b['name'] in seen else 'a selection word'})")
        seen.add(b["name"])
        for j, r in enumerate(b["runs"]):
            unknown = set(r) - RUN_KEYS
            if unknown:
                raise BenchmarkError(f"{where}: runs[{j}]: unknown key(s) {sorted(unknown)} (known: {sorted(RUN_KEYS)})")
            if "{out}" not in r.get("command", ""):
                raise BenchmarkError(f"{where}: runs[{j}]: the command {r.get('command')!r} must write its record to {{out}}")
            if not r.get("row"):
                raise BenchmarkError(f"{where}: runs[{j}]: 'row' is missing")
            if not isinstance(r.get("repeat", 1), int) or r.get("repeat", 1) < 1:
                raise BenchmarkError(f"{where}: runs[{j}]: repeat={r.get('repeat')!r} must be a positive integer")
        for j, c in enumerate(b["columns"]):
            unknown = set(c) - COLUMN_KEYS
            if unknown:
                raise BenchmarkError(f"{where}: columns[{j}]: unknown key(s) {sorted(unknown)} (known: {sorted(COLUMN_KEYS)})")
            if c.get("agg", "list") not in AGGREGATES:
                raise BenchmarkError(f"{where}: columns[{j}]: agg={c['agg']!r} is not one of {', '.join(AGGREGATES)}")
            parse_expression(str(c.get("value", "")), f"{where}: columns[{j}]")
    return data["benchmarks"]


def select(benchmarks: list[dict], spec: str) -> list[dict]:
    """The benchmarks BENCH=spec names: 'quick', 'all', or names separated by commas (registry order)."""
    names = [s.strip() for s in spec.split(",") if s.strip()]
    if not names:
        raise BenchmarkError(f"BENCH={spec!r} names no benchmark (quick, all, or names: "
                             f"{', '.join(b['name'] for b in benchmarks)})")
    if names == ["all"]:
        return list(benchmarks)
    if names == ["quick"]:
        return [b for b in benchmarks if b.get("quick")]
    known = {b["name"] for b in benchmarks}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise BenchmarkError(f"BENCH={spec}: no benchmark named {', '.join(unknown)} "
                             f"(quick, all, or: {', '.join(b['name'] for b in benchmarks)})")
    return [b for b in benchmarks if b["name"] in names]


def commands(benchmark: dict, bin_dir: str) -> list[tuple[str, str, str]]:
    """(run id, row, command with {bin} filled and {out} left for the record) of each run, in order."""
    out = []
    for j, r in enumerate(benchmark["runs"]):
        for k in range(r.get("repeat", 1)):
            run_id = f"r{j + 1:02d}" + (f"-{k + 1:02d}" if r.get("repeat", 1) > 1 else "")
            out.append((run_id, r["row"], r["command"].replace("{bin}", bin_dir)))
    return out


def missing_needs(benchmark: dict, bin_dir: str, optional_only: bool = False) -> list[str] | None:
    """The executables the benchmark's commands start and this checkout lacks, each with what builds it
    (`needs`, else `make build`); with optional_only, only those `needs` declares (the optional peers:
    HElib, OpenFHE, tfhe-rs), None when a missing one is not declared there (the build's own)."""
    needs = benchmark.get("needs") or {}
    missing = []
    for _, _, cmd in commands(benchmark, bin_dir):
        exe = next(t for t in cmd.split() if "=" not in t)
        if not os.access(exe, os.X_OK):
            if optional_only and exe not in needs:
                return None
            missing.append(f"{exe} ({needs.get(exe, 'make build')})")
    return list(dict.fromkeys(missing))


def skipped_peers(chosen: list[dict], spec: str, bin_dir: str) -> dict[str, list[str]]:
    """BENCH=quick or all: the benchmarks skipped because an optional peer `needs` declares is not built
    (name -> what is missing and what builds it). Benchmarks named one by one are never skipped: a
    missing executable refuses the sitting before any work."""
    if spec.strip() not in ("quick", "all"):
        return {}
    skipped = {}
    for b in chosen:
        missing = missing_needs(b, bin_dir, optional_only=True)
        if missing:
            skipped[b["name"]] = missing
    return skipped


# --- a column's value: a small expression over a record's fields ------------------------------------

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def parse_expression(text: str, where: str) -> ast.AST:
    """`text` parsed, refused unless it is numbers, dotted field paths and + - * / (no calls, no names of Python's)."""
    try:
        tree = ast.parse(text, mode="eval").body
    except SyntaxError as e:
        raise BenchmarkError(f"{where}: value {text!r} is not an expression ({e.msg})") from None
    for node in ast.walk(tree):
        if not isinstance(node, (ast.BinOp, ast.Name, ast.Attribute, ast.Constant, ast.Load, ast.UnaryOp, ast.USub,
                                 *_OPS)):
            raise BenchmarkError(f"{where}: value {text!r} has {type(node).__name__}: only numbers, field paths "
                                 f"and + - * / are allowed")
        if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float)):
            raise BenchmarkError(f"{where}: value {text!r} has the constant {node.value!r}: only numbers are allowed")
    return tree


def evaluate(text: str, record: dict, where: str = "record") -> float:
    """The value of `text` (parse_expression's language) on `record`; a missing field is named."""
    def field(node) -> list[str]:
        if isinstance(node, ast.Name):
            return [node.id]
        return field(node.value) + [node.attr]

    def ev(node):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.UnaryOp):
            return -ev(node.operand)
        if isinstance(node, ast.BinOp):
            return _OPS[type(node.op)](ev(node.left), ev(node.right))
        path = field(node)
        value = record
        for i, key in enumerate(path):
            if not isinstance(value, dict) or key not in value:
                raise BenchmarkError(f"{where}: no field {'.'.join(path[:i + 1])} (asked by {text!r})")
            value = value[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise BenchmarkError(f"{where}: field {'.'.join(path)} is {value!r}, not a number (asked by {text!r})")
        return value

    return ev(parse_expression(text, where))


def aggregate(values: list[float], agg: str, fmt: str) -> str:
    """One cell from a row's values."""
    f = lambda x: format(x, fmt)  # noqa: E731
    if agg == "count":
        return str(len(values))
    if agg == "min":
        return f(min(values))
    if agg == "max":
        return f(max(values))
    if agg == "median":
        return f(statistics.median(values))
    if agg == "range":
        return f"{f(min(values))}-{f(max(values))}"
    if agg == "maxmin":
        return f(max(values) / min(values))
    return ", ".join(f(v) for v in values)


def table(benchmark: dict, records: list[tuple[str, dict]]) -> str:
    """The Markdown table of (row, record) pairs: one line per row (in order of first appearance)."""
    rows: dict[str, list[dict]] = {}
    for row, record in records:
        rows.setdefault(row, []).append(record)
    cols = benchmark["columns"]
    lines = ["| run | " + " | ".join(c["header"] for c in cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for row, recs in rows.items():
        cells = []
        for c in cols:
            values = [evaluate(str(c["value"]), r, f"{benchmark['name']}: row {row!r}") for r in recs]
            cells.append(aggregate(values, c.get("agg", "list"), c.get("format", "")))
        lines.append(f"| {row} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def check_record(record_path: Path, command: str) -> dict:
    """The record at `record_path`, refused unless it says its decryption check passed."""
    try:
        record = json.loads(record_path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise BenchmarkError(f"{command}: no readable record at {record_path} ({e})") from None
    if record.get("correct") is not True:
        wrong = record.get("wrong_blocks", "not recorded")
        raise BenchmarkError(f"DECRYPTION CHECK FAILED: {record_path} says correct={record.get('correct')!r} "
                             f"(wrong_blocks: {wrong}); command: {command}. No table is written from it.")
    return record


# --- the sitting --------------------------------------------------------------------------------

def machine() -> dict:
    """The machine the sitting ran on: CPU model, cores, memory, vector extensions, kernel."""
    cpuinfo = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    def field(name: str) -> str:
        return next((line.split(":", 1)[1].strip() for line in cpuinfo.splitlines()
                     if line.split(":", 1)[0].strip() == name), "")
    model = field("model name") or platform.processor() or "unknown CPU"
    if field("cpu family"):  # "AMD EPYC" alone does not say which
        model += f" (family {field('cpu family')} model {field('model')}, cache size {field('cache size') or 'not stated'})"
    flags = next((line.split(":", 1)[1].split() for line in cpuinfo.splitlines() if line.startswith("flags")), [])
    meminfo = Path("/proc/meminfo").read_text() if Path("/proc/meminfo").exists() else ""
    mem_kb = next((int(line.split()[1]) for line in meminfo.splitlines() if line.startswith("MemTotal:")), 0)
    return {"cpu": model, "cores": os.cpu_count(), "memory_gib": round(mem_kb / 2**20, 1),
            "avx512ifma": "avx512ifma" in flags, "kernel": platform.release()}


def machine_line(m: dict) -> str:
    return (f"{m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, "
            f"{'AVX-512 IFMA' if m['avx512ifma'] else 'no AVX-512 IFMA'}")


def git_commit() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True).stdout.strip()
        return head + (" (uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "not a git checkout"


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def run_benchmark(benchmark: dict, bin_dir: str, out_dir: Path) -> tuple[list[tuple[str, dict]], str, str, list[float]]:
    """Run every command of `benchmark`, check each record; (row, record) pairs, start, end, load averages."""
    rec_dir = out_dir / "records" / benchmark["name"]
    rec_dir.mkdir(parents=True, exist_ok=True)
    start, loads, records = now(), [os.getloadavg()[0]], []
    for run_id, row, cmd in commands(benchmark, bin_dir):
        rec, log = rec_dir / f"{run_id}.json", rec_dir / f"{run_id}.log"
        rec.unlink(missing_ok=True)
        full = cmd.replace("{out}", str(rec))
        print(f"[{benchmark['name']} {run_id}] {full}", flush=True)
        with open(log, "w") as fh:
            status = subprocess.run(full, shell=True, stdout=fh, stderr=subprocess.STDOUT).returncode
        if status != 0:
            if rec.exists():
                check_record(rec, full)  # a wrong result (run_cipher exits 2) is named as one
            tail = "".join(log.read_text().splitlines(keepends=True)[-5:])
            raise BenchmarkError(f"{benchmark['name']} {run_id}: exit status {status}: {full}\n(log {log}):\n{tail}")
        records.append((row, check_record(rec, full)))
        loads.append(os.getloadavg()[0])
    return records, start, now(), loads


def document(benchmark: dict, bin_dir: str, m: dict, commit: str, start: str, end: str, loads: list[float],
             body: str) -> str:
    cmds = list(dict.fromkeys(cmd.replace("{out}", "out.json") for _, _, cmd in commands(benchmark, bin_dir)))
    return "\n".join([
        f"## {benchmark['name']}: {benchmark['about']}", "",
        f"For BENCHMARKS.md, \"{benchmark['section']}\". Every record's decryption check passed. The runs:", "",
        "```sh", *cmds, "```", "",
        # the stamp BENCHMARKS.md's convention asks for (tests/test_benchmarks_md.py), directly above the table
        f"Benchmark: {benchmark['name']} \\",  # a Markdown line break: the stamp renders as three lines
        f"Command: `make benchmarks BENCH={benchmark['name']}` (commit {commit}) \\",
        f"Machine: {machine_line(m)}, load average {min(loads):.1f}-{max(loads):.1f}, {start} to {end}", "",
        body, ""])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench", default="quick", help="quick (default), all, or names separated by commas")
    ap.add_argument("--bin", default="build/bin", help="the build's bin directory (default build/bin)")
    ap.add_argument("--out", default="results/benchmarks", help="output directory (default results/benchmarks)")
    ap.add_argument("--registry", default=str(REGISTRY))
    ap.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    ap.add_argument("--dry-run", action="store_true", help="print the commands and exit")
    args = ap.parse_args(argv)
    try:
        benchmarks = load_registry(Path(args.registry))
        if args.list:
            for b in benchmarks:
                print(f"{b['name']:22s} {'quick' if b.get('quick') else '     '}  {b['about']}")
            return 0
        chosen = select(benchmarks, args.bench)
        if args.dry_run:
            for b in chosen:
                for run_id, _, cmd in commands(b, args.bin):
                    print(f"[{b['name']} {run_id}] {cmd}")
            return 0
        skipped = skipped_peers(chosen, args.bench, args.bin)
        for name, why in skipped.items():
            print(f"make benchmarks: skipping {name}: needs {', '.join(why)}", file=sys.stderr)
        chosen = [b for b in chosen if b["name"] not in skipped]
        lacking = {b["name"]: missing_needs(b, args.bin) for b in chosen}
        lacking = {k: v for k, v in lacking.items() if v}
        if lacking:
            raise BenchmarkError("cannot run, before any work: " + "; ".join(
                f"{name} needs {', '.join(v)}" for name, v in lacking.items()))
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        m, commit, sitting_start, parts = machine(), git_commit(), now(), []
        (out / "machine.json").write_text(json.dumps({**m, "date": sitting_start, "commit": commit}, indent=2) + "\n")
        for b in chosen:
            records, start, end, loads = run_benchmark(b, args.bin, out)
            text = document(b, args.bin, m, commit, start, end, loads, table(b, records))
            (out / f"{b['name']}.md").write_text(text)
            parts.append(text)
            print(f"wrote {out / (b['name'] + '.md')}", flush=True)
        header = ["# Benchmarks regenerated", "",
                  f"One sitting, {sitting_start} to {now()}, commit {commit}: "
                  f"`make benchmarks BENCH={args.bench}` ({', '.join(b['name'] for b in chosen)}).", "",
                  f"Machine: {machine_line(m)}, kernel {m['kernel']}", ""]
        if skipped:
            header += ["Skipped (an optional peer not built here): " + "; ".join(
                f"{name} (needs {', '.join(why)})" for name, why in skipped.items()), ""]
        (out / "BENCHMARKS.md").write_text("\n".join(header) + "\n" + "\n".join(parts))
        print(f"wrote {out / 'BENCHMARKS.md'}")
        return 0
    except BenchmarkError as e:
        print(f"make benchmarks: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())

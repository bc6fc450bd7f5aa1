"""Two results directories of the pipeline against each other, file by file, timings aside.

    python3 scripts/compare_results.py BEFORE_RESULTS AFTER_RESULTS

Compares every file the two `make run`s wrote (the config's `results_dir`): JSON and YAML
by their data, CSV by column, Markdown and HTML tables by column (the text around them
line by line), figures by the data the pipeline keeps beside them (`<figure>.csv`), and
any other file by its bytes. What a second run cannot repeat is left out by name, per
file pattern, in RULES below (each with the reason): times, memory figures, dates, hosts,
CPU names, git revisions, plan-cache statistics, and the files that are times throughout
(Snakemake benchmarks, the cost model's calibration, job logs). Fields that hold a path
are compared with each tree's own location taken out. A file matched by no rule is
compared byte for byte, so a new output is compared strictly until a rule says otherwise.

Prints every differing file and field and every file present on one side only; exit
status 1 when there is any, 0 when the trees agree, 2 on bad input.
"""
from __future__ import annotations

import argparse
import csv
import fnmatch
import io
import json
import re
import sys
import tempfile
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

# Column and field names, each as the pipeline writes it (analysis/aggregate.py,
# workflow/scripts/measure.py, run_cipher's JSON, sage/cbparams/select.py).
PROVENANCE = ("host", "cpu", "date", "git_revision")
RUN_TIMES = ("setup_s", "keygen_s", "encrypt_input_s", "total_s", "plan_s", "process_s",
             "rounds_s", "wall_s", "max_rss_mb")
# run_cipher's record (runs/, raw/, params/measured/, params/plans/): its timings and
# memory measurements; plan.cache is where the plan cache lives and whether it was hit;
# subkeys.why quotes the memory available when the run started.
RECORD_FIELDS = ("timings", "per_round[].seconds", "per_round[].ops", "op_profile[].seconds",
                 "plan.seconds", "plan.cache", "memory.peak_rss_bytes",
                 "memory.peak_rss_setup_bytes", "subkeys.why", "threads")
# The explorer's ranking: times predicted by the cost model fitted on this machine's
# timings, the measuring runs' times, and how long planning took.
RANKED_COLUMNS = ("predicted_latency_s", "predicted_block_s", "measured_latency_s",
                  "measured_block_s", "measured_rounds_s", "plan_seconds")
RANKED_PATHS = ("measured_file", "plan_file", "note")
# The rankings and which rings are planned follow the times the cost model predicts
# (select.py: candidates' `plan` marks the plan_candidates best by est_latency_s).
RANKED_ORDER = ("rank_latency", "rank_block", "rank_balanced", "dominated_by")
RING_KEY = ("cipher", "packing", "security_target", "m")
# The security tables (cbparams.select security, run-security): a row per chain.
SECURITY_KEY = ("source", "cipher", "m", "bits")
# A plan's and a run's operation counts: one item per operation and level, in an order a
# new kind of operation shifts; matched by what they count.
OP_LISTS = (("plan.op_counts", ("op", "primes", "dropped", "lanes")),
            ("op_profile", ("op", "primes", "dropped")))
# The context line of each HTML table (analysis/report_tables.py): host, CPU, threads,
# git revision, dates.
HTML_CONTEXT = ("machine",)
# Table 1 and its figure have a column of seconds per cipher step, named after the step:
# the names are the `op` values of the tree's own tidy/ops.csv (the catalog's step names).
STEPS = "<the op names of tidy/ops.csv>"


TEMP_DIR = re.compile(re.escape(tempfile.gettempdir()) + r"/tmp[a-z0-9_]{8}\b")


@dataclass(frozen=True)
class Rule:
    pattern: str          # fnmatch pattern on the path under the results directory ('*' crosses '/')
    kind: str             # json, yaml, csv, md, html, figure, skip, bytes
    ignore: tuple = ()    # fields (json/yaml: a.b, list items as a[].b), columns (csv, md, html)
    paths: tuple = ()     # fields or columns whose values are paths
    key: tuple = ()       # csv: rows matched by these columns (their order is run-dependent), not by position
    lists: tuple = ()     # json: (list, item fields) pairs: the list's items matched by those fields, not by position
    data: str = ""        # figure: the file holding its data ('{stem}' the figure's path less its suffix)
    why: str = ""


RULES = (
    Rule("README.md", "skip", why="the results folder's README, versioned in git, not written by the pipeline"),
    Rule("benchmarks/*", "skip", why="Snakemake's benchmark of each job: times and memory throughout"),
    Rule("logs/*", "skip", why="job logs: messages with times; outcomes are compared in runs/ and params/"),
    Rule("cost/bench/*", "skip", why="the cost model's calibration: operation times on this machine"),
    Rule("cost/model.json", "skip", why="the cost model: per-step times fitted to cost/bench"),
    Rule("cost/prediction_error.*", "skip", why="measured beside predicted seconds, both machine times"),
    Rule("build/runners.done", "skip", why="the build's date and git revision"),
    Rule("params/cache/*", "skip", why="the explorer's cache of ring structures (a pickle), an input to params/cyclotomics.csv"),
    Rule("raw/*.env.json", "json", ignore=PROVENANCE + ("max_rss_mb",),
         why="a job's provenance: host, CPU, date, git revision, peak memory"),
    Rule("runs/*.json", "json", lists=OP_LISTS, ignore=RECORD_FIELDS + tuple("provenance." + f for f in PROVENANCE)
         + ("provenance.threads", "benchmark"), why="run record: provenance and the job's benchmark"),
    Rule("raw/*.json", "json", lists=OP_LISTS, ignore=RECORD_FIELDS, why="run_cipher's output"),
    Rule("params/measured/*.json", "json", lists=OP_LISTS, ignore=RECORD_FIELDS, why="the explorer's measuring runs"),
    Rule("params/plans/*.json", "json", lists=OP_LISTS, ignore=RECORD_FIELDS, paths=("message",),
         why="the engine's plans (a refusal's message names run_cipher's temporary output)"),
    Rule("params/cyclotomics.meta.json", "json",
         ignore=("seconds", "workers", "structures_computed", "structures_cached"),
         why="the sweep's time, its worker count and how much came from the cache"),
    Rule("params/sagechecks.json", "json",
         ignore=("seconds", "sage_import_seconds", "rings[].seconds", "rings[].checks[].detail"),
         why="Sage's times (a check's detail quotes factor()'s seconds; its name and verdict are compared)"),
    Rule("params/selected.yaml", "yaml", why="parsed: its comments quote predicted and measured seconds"),
    Rule("params/ranked.csv", "csv", ignore=RANKED_COLUMNS + RANKED_ORDER, paths=RANKED_PATHS, key=RING_KEY),
    Rule("params/selected.csv", "csv", ignore=RANKED_COLUMNS + RANKED_ORDER, paths=RANKED_PATHS, key=RING_KEY),
    Rule("params/candidates.csv", "csv", ignore=("est_latency_s", "est_block_s", "plan"), key=RING_KEY,
         why="latencies estimated from the cost model, and the rings planned by them"),
    Rule("params/security.csv", "csv", key=SECURITY_KEY,
         why="one row per chain; which rings are ranked follows the cost model"),
    Rule("tidy/run_security.csv", "csv", key=SECURITY_KEY, why="one row per run's chain"),
    Rule("tidy/runs.csv", "csv", ignore=RUN_TIMES + PROVENANCE + ("threads",)),
    Rule("tidy/rounds.csv", "csv", ignore=("seconds",)),
    Rule("tidy/ops.csv", "csv", ignore=("seconds",)),
    Rule("tables/table1_vision_ops.*", "table",
         ignore=(STEPS, "one_round") + HTML_CONTEXT),
    Rule("tables/table2_totals.*", "table",
         ignore=("total_min", "amortized_s_per_block", "wall_min", "peak_mem_mb", "threads",
                 "git_revision", "latency_s", "per_block_s", "memory_gb") + HTML_CONTEXT),
    Rule("tables/table3_paper_vs_ours.*", "table", ignore=("total_min", "time_note") + HTML_CONTEXT),
    Rule("figures/fig3_aes_vs_vision_round.csv", "csv", ignore=("seconds", "seconds_per_block")),
    Rule("figures/round_time_capacity.csv", "csv", ignore=("seconds",)),
    Rule("figures/vision_ops_vs_state.csv", "csv", ignore=(STEPS, "one_round")),
    Rule("figures/engine_vs_helib.csv", "csv", ignore=("total_min",)),
    Rule("figures/ours_vs_published.csv", "csv", ignore=("value[origin=ours]",),
         why="the published values are compared; ours are seconds"),
    Rule("figures/pareto_*", "figure", data="params/ranked.csv",
         why="predicted times against security, from params/ranked.csv"),
    Rule("figures/*.png", "figure", data="{stem}.csv"),
    Rule("figures/*.pdf", "figure", data="{stem}.csv"),
)


def rule_for(rel: str) -> Rule:
    for rule in RULES:
        if fnmatch.fnmatchcase(rel, rule.pattern):
            return rule
    return Rule(rel, "bytes")


class Trees:
    """The two roots, each path's location taken out of path-valued fields."""

    def __init__(self, a: Path, b: Path):
        self.roots = (a.resolve(), b.resolve())

    def steps(self) -> tuple:
        names = set()
        for root in self.roots:
            ops = root / "tidy" / "ops.csv"
            if ops.is_file():
                with open(ops, newline="") as f:
                    names |= {row["op"] for row in csv.DictReader(f)}
        return tuple(sorted(names))

    def unroot(self, side: int, value):
        if not isinstance(value, str):
            return value
        # a directory of tempfile.mkdtemp() (the explorer's run_cipher --json outputs)
        value = TEMP_DIR.sub("<tmp>", value)
        root = self.roots[side]
        value = value.replace(str(root), "<results>")
        if (root.parent / ".git").exists():  # the checkout that made it (results_dir: results)
            value = value.replace(str(root.parent), "<repo>")
        return value


# ---- JSON and YAML ----------------------------------------------------------------------

def flatten(x, path="", out=None, lists=()):
    """{'a.b[2].c': leaf} for every leaf of a JSON value; the items of a list named in
    `lists` ((generic path, item fields) pairs) indexed by those fields: a.b[op=mul,primes=3].c."""
    out = {} if out is None else out
    if isinstance(x, dict):
        for k, v in x.items():
            flatten(v, f"{path}.{k}" if path else str(k), out, lists)
        if not x:
            out[path] = {}
    elif isinstance(x, list):
        fields = dict(lists).get(generic(path))
        for i, v in enumerate(x):
            at = ",".join(f"{f}={v.get(f)}" for f in fields) if fields and isinstance(v, dict) else i
            flatten(v, f"{path}[{at}]", out, lists)
        if not x:
            out[path] = []
    else:
        out[path] = x
    return out


def generic(path: str) -> str:
    """a[3].b -> a[].b, the form RULES name fields in."""
    out, skip = [], False
    for ch in path:
        if ch == "[":
            out.append("[]")
            skip = True
        elif ch == "]":
            skip = False
        elif not skip:
            out.append(ch)
    return "".join(out)


def ignored(path: str, names) -> bool:
    g = generic(path)
    return any(g == n or g.startswith(n + ".") or g.startswith(n + "[") for n in names)


def compare_data(x, y, rule: Rule, trees: Trees) -> list[str]:
    fx, fy = flatten(x, lists=rule.lists), flatten(y, lists=rule.lists)
    diffs = []
    for key in sorted(set(fx) | set(fy)):
        if ignored(key, rule.ignore):
            continue
        a = trees.unroot(0, fx.get(key, "<absent>")) if generic(key) in rule.paths else fx.get(key, "<absent>")
        b = trees.unroot(1, fy.get(key, "<absent>")) if generic(key) in rule.paths else fy.get(key, "<absent>")
        if a != b:
            diffs.append(f"{key}: {a!r} -> {b!r}")
    return diffs


def load_json(p: Path):
    return json.loads(p.read_text())


def load_yaml(p: Path):
    import yaml
    return yaml.safe_load(p.read_text())


# ---- tables: CSV, Markdown, HTML ----------------------------------------------------------

@dataclass
class Table:
    header: list
    rows: list            # lists of cells, as written


def csv_tables(text: str) -> tuple[list[Table], list[str]]:
    rows = list(csv.reader(io.StringIO(text)))
    return ([Table(rows[0], rows[1:])] if rows else []), []


def md_tables(text: str) -> tuple[list[Table], list[str]]:
    """Pipe tables (a header row, then |---|) and the other lines as they are."""
    tables, prose = [], []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if line.startswith("|") and nxt.startswith("|") and set(nxt.replace("|", "").strip()) <= set("-: "):
            cells = lambda l: [c.strip() for c in l.strip().strip("|").split("|")]
            table = Table(cells(line), [])
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                table.rows.append(cells(lines[i]))
                i += 1
            tables.append(table)
            continue
        prose.append(line)
        i += 1
    return tables, prose


class _HtmlTables(HTMLParser):
    """<table>s as header and rows; each <li> as 'label: text' (its <b> is the label)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables, self.items, self.text = [], [], []
        self.cell = self.row = self.item = None
        self.header_row = False

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append(Table([], []))
        elif tag == "tr":
            self.row, self.header_row = [], False
        elif tag in ("td", "th"):
            self.cell = []
            self.header_row |= tag == "th"
        elif tag == "li":
            self.item = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.row.append("".join(self.cell).strip())
            self.cell = None
        elif tag == "tr" and self.row is not None and self.tables:
            t = self.tables[-1]
            if self.header_row and not t.header:
                t.header = self.row
            else:
                t.rows.append(self.row)
            self.row = None
        elif tag == "li" and self.item is not None:
            self.items.append("".join(self.item).strip())
            self.item = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)
        elif self.item is not None:
            self.item.append(data)
        elif data.strip():
            self.text.append(data.strip())


def html_tables(text: str) -> tuple[list[Table], list[str]]:
    p = _HtmlTables()
    p.feed(text)
    # <li><b>label</b>: text</li>, compared as a column named by its label
    items = Table([i.split(":", 1)[0] for i in p.items], [[i.split(":", 1)[-1].strip() for i in p.items]])
    return p.tables + ([items] if p.items else []), p.text


def _conditional(entry: str, header: list) -> tuple[int, int, str]:
    """'value[origin=ours]': the column 'value' left out in rows whose 'origin' is 'ours'."""
    col, cond = entry[:-1].split("[", 1)
    key, val = cond.split("=", 1)
    if col not in header or key not in header:
        return (-1, -1, val)
    return (header.index(col), header.index(key), val)


def compare_tables(ta, tb, rule: Rule, trees: Trees) -> list[str]:
    (tables_a, prose_a), (tables_b, prose_b) = ta, tb
    diffs = []
    if len(tables_a) != len(tables_b):
        diffs.append(f"{len(tables_a)} tables -> {len(tables_b)}")
    for n, (a, b) in enumerate(zip(tables_a, tables_b)):
        where = f"table {n + 1}: " if len(tables_a) > 1 else ""
        # A column on one side only is named; the columns both have are compared by name,
        # so a new column does not hide a change in the others.
        if a.header != b.header:
            gone = [c for c in a.header if c not in b.header]
            new = [c for c in b.header if c not in a.header]
            said = ([f"only before {gone}"] if gone else []) + ([f"only after {new}"] if new else [])
            diffs.append(f"{where}columns: " + ("; ".join(said) or f"reordered {a.header} -> {b.header}"))
        col_b = {c: j for j, c in enumerate(b.header)}
        keep = [i for i, c in enumerate(a.header) if c not in rule.ignore and c in col_b]
        when = [_conditional(e, a.header) for e in rule.ignore if "[" in e]
        pairs = list(enumerate(zip(a.rows, b.rows)))
        if rule.key and all(k in a.header and k in col_b for k in rule.key):
            at = [a.header.index(k) for k in rule.key]
            at_b = [col_b[k] for k in rule.key]
            ka = {tuple(r[i] for i in at): r for r in a.rows}
            kb = {tuple(r[i] for i in at_b): r for r in b.rows}
            for k in sorted(set(ka) - set(kb)):
                diffs.append(f"{where}row {dict(zip(rule.key, k))} only before")
            for k in sorted(set(kb) - set(ka)):
                diffs.append(f"{where}row {dict(zip(rule.key, k))} only after")
            pairs = [(k, (ka[k], kb[k])) for k in sorted(set(ka) & set(kb))]
        elif len(a.rows) != len(b.rows):
            diffs.append(f"{where}{len(a.rows)} rows -> {len(b.rows)}")
        for r, (ra, rb) in pairs:
            for i in keep:
                col = a.header[i]
                va = ra[i] if i < len(ra) else "<absent>"
                vb = rb[col_b[col]] if col_b[col] < len(rb) else "<absent>"
                if any(i == c and ra[j] == v and a.header[j] in col_b and rb[col_b[a.header[j]]] == v
                       for c, j, v in when):
                    continue
                if col in rule.paths:
                    va, vb = trees.unroot(0, va), trees.unroot(1, vb)
                if va != vb:
                    label = dict(zip(rule.key, r)) if rule.key else f"{r + 1} ({', '.join(ra[j] for j in keep[:2])})"
                    diffs.append(f"{where}row {label} {col}: {va!r} -> {vb!r}")
    if prose_a != prose_b:
        for la, lb in zip(prose_a, prose_b):
            if la != lb:
                diffs.append(f"text: {la!r} -> {lb!r}")
        if len(prose_a) != len(prose_b):
            diffs.append(f"text: {len(prose_a)} lines -> {len(prose_b)}")
    return diffs


TABLE_READERS = {".csv": csv_tables, ".md": md_tables, ".html": html_tables}


# ---- the comparison ---------------------------------------------------------------------

@dataclass
class Outcome:
    rel: str
    how: str              # compared by ...; or 'not compared: why'
    diffs: list


def compare_file(rel: str, trees: Trees) -> Outcome:
    rule = rule_for(rel)
    pa, pb = (root / rel for root in trees.roots)
    kind = rule.kind
    if kind == "table":
        kind = {".csv": "csv", ".md": "md", ".html": "html"}.get(pa.suffix, "bytes")
        rule = Rule(rule.pattern, kind, rule.ignore, rule.paths, rule.key, why=rule.why)
    if STEPS in rule.ignore:
        rule = Rule(rule.pattern, kind, rule.ignore + trees.steps(), rule.paths, rule.key, why=rule.why)
    if kind == "skip":
        return Outcome(rel, f"not compared: {rule.why}", [])
    if kind == "figure":
        data = rule.data.replace("{stem}", str(Path(rel).with_suffix("")))
        if not all((root / data).is_file() for root in trees.roots):
            return Outcome(rel, "bytes (no data file beside it)", [] if pa.read_bytes() == pb.read_bytes()
                           else ["bytes differ (and no data file to compare)"])
        return Outcome(rel, f"by its data, {data}", [])
    if kind in ("json", "yaml"):
        load = load_json if kind == "json" else load_yaml
        return Outcome(rel, kind, compare_data(load(pa), load(pb), rule, trees))
    if kind in ("csv", "md", "html"):
        read = TABLE_READERS["." + kind]
        return Outcome(rel, kind, compare_tables(read(pa.read_text()), read(pb.read_text()), rule, trees))
    return Outcome(rel, "bytes", [] if pa.read_bytes() == pb.read_bytes() else ["bytes differ"])


def files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def compare(a: Path, b: Path) -> tuple[list[Outcome], list[str], list[str]]:
    """Every file's outcome, and the files only under a, only under b."""
    trees = Trees(a, b)
    fa, fb = files(trees.roots[0]), files(trees.roots[1])
    outcomes = [compare_file(rel, trees) for rel in sorted(fa & fb)]
    return outcomes, sorted(fa - fb), sorted(fb - fa)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before", type=Path, help="a results directory (the config's results_dir)")
    ap.add_argument("after", type=Path, help="the other results directory")
    ap.add_argument("--quiet", action="store_true", help="print the differences and the counts only")
    args = ap.parse_args(argv)
    for d in (args.before, args.after):
        if not d.is_dir():
            print(f"compare_results: {d}: no such directory (give two results directories)", file=sys.stderr)
            return 2
    outcomes, only_a, only_b = compare(args.before, args.after)
    differing = [o for o in outcomes if o.diffs]
    for o in outcomes:
        if o.diffs:
            print(f"DIFFERS {o.rel} ({o.how})")
            for d in o.diffs:
                print(f"    {d}")
        elif not args.quiet:
            print(f"same    {o.rel} ({o.how})")
    for rel in only_a:
        print(f"ONLY IN {args.before}: {rel}")
    for rel in only_b:
        print(f"ONLY IN {args.after}: {rel}")
    skipped = sum(o.how.startswith("not compared") for o in outcomes)
    print(f"{len(outcomes)} files in both: {len(outcomes) - skipped} compared, {skipped} not compared "
          f"(run-dependent throughout), {len(differing)} differ; {len(only_a)} only in {args.before}, "
          f"{len(only_b)} only in {args.after}")
    return 1 if differing or only_a or only_b else 0


if __name__ == "__main__":
    sys.exit(main())

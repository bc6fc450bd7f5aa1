"""Thread scaling of run_cipher records, and where the serial time is (issue 23 item 2).

Input: run_cipher JSON records of one circuit at several thread counts (`threads`), e.g.
from scripts/thread-scaling.sh. Only checked runs count: a record whose `correct` is not
true, or whose `wrong_blocks` is not 0, is refused by name.

Model: Amdahl's law per engine step. A step that takes t(1) seconds on one thread is split
into a serial part a and a parallel part b, t(T) = a + b / T, fitted by least squares over
the thread counts measured (linear in 1/T; a and b clipped at 0). The serial fraction of
the step is a / (a + b); a step's share of the serial time at T threads is its a over the
sum of all a's. The rounds' wall time gets the same fit, and the unexplained remainder
(rounds' wall time less the sum of the steps' times) is fitted as one more row, "other".

Steps are the engine's `op_profile` entries (engine/bgv/op_profile.h: each step's own wall
time, nested steps excluded) summed over their prime counts. Where the state's ciphertexts
run side by side (lanes, runners/backend/lanes.h: the plan's op_counts have "lanes" > 1),
the profile adds each lane's own time: the step rows are then thread-seconds, flat when
the lanes scale, and the Amdahl fit is given for the rounds' wall time alone.

Usage: python analysis/thread_scaling.py RECORD.json... [--markdown OUT.md] [--json OUT.json]
Stdlib only, so it runs wherever the engine does.
"""

import argparse
import collections
import json
import re
import statistics
import sys


class BadRun(ValueError):
    """A record that cannot be used: the message names the file and the fault."""


def load(path):
    with open(path) as f:
        rec = json.load(f)
    for key in ("threads", "timings", "correct"):
        if key not in rec:
            raise BadRun(f"{path}: no '{key}' key: not a run_cipher record")
    if rec["correct"] is not True or rec.get("wrong_blocks", 0) != 0:
        raise BadRun(f"{path}: correct={rec['correct']!r}, wrong_blocks={rec.get('wrong_blocks')!r}: "
                     "only runs whose decryption was checked are timed")
    return rec


def circuit_of(rec):
    """What must be equal across the records of one scaling series."""
    p = rec.get("params", {})
    return (rec.get("cipher"), rec.get("instance"), rec.get("packing"), rec.get("linear"),
            p.get("m"), p.get("bits"), p.get("c"), p.get("hwt"), rec.get("blocks"), rec.get("rounds"))


def steps_of(rec):
    """{step: seconds} from the record's op_profile, summed over prime counts."""
    out = collections.Counter()
    for e in rec.get("op_profile", []):
        out[e["op"]] += e["seconds"]
    return dict(out)


def amdahl(points):
    """Least-squares (a, b) of t = a + b / T over [(T, t)], both clipped at 0."""
    xs = [1.0 / T for T, _ in points]
    ys = [t for _, t in points]
    if len(set(xs)) < 2:
        return (0.0, ys[0]) if ys else (0.0, 0.0)
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    a = my - b * mx
    if a < 0:  # all parallel: refit through the origin
        a, b = 0.0, sum(x * y for x, y in zip(xs, ys)) / sum(x * x for x in xs)
    elif b < 0:  # slower with threads: all serial
        a, b = my, 0.0
    return a, b


def plan_seconds(path):
    """(threads, seconds) of a run_cipher --plan record named plan_t<threads>.json."""
    m = re.search(r"plan_t(\d+)\.json$", path)
    if not m:
        raise BadRun(f"{path}: a planning record is named plan_t<threads>.json")
    with open(path) as f:
        rec = json.load(f)
    try:
        return int(m.group(1)), rec["plan"]["seconds"]
    except (KeyError, TypeError):
        raise BadRun(f"{path}: no plan.seconds: not a run_cipher --plan record")


def summarize(records):
    """Per thread count the medians, and per step the Amdahl fit."""
    circuits = {circuit_of(r) for r in records}
    if len(circuits) != 1:
        raise BadRun(f"records of {len(circuits)} different circuits: {sorted(map(str, circuits))}")
    by_t = collections.defaultdict(list)
    for r in records:
        by_t[r["threads"]].append(r)
    threads = sorted(by_t)
    rows = []
    for T in threads:
        rs = by_t[T]
        tm = lambda k: statistics.median(r["timings"].get(k, float("nan")) for r in rs)
        steps = collections.defaultdict(list)
        for r in rs:
            for k, v in steps_of(r).items():
                steps[k].append(v)
        rows.append({
            "threads": T, "runs": len(rs),
            "rounds_s": tm("total_s"), "rounds_cpu_s": tm("total_cpu_s"),
            "setup_s": tm("setup_s"), "keygen_s": tm("keygen_s"), "plan_s": tm("plan_s"),
            "process_s": tm("process_s"),
            "rounds_all_s": sorted(r["timings"]["total_s"] for r in rs),
            "steps": {k: statistics.median(v) for k, v in steps.items()},
        })
    base = rows[0]
    for row in rows:
        row["speedup"] = base["rounds_s"] / row["rounds_s"]  # over the fewest threads measured
        row["efficiency"] = row["speedup"] * base["threads"] / row["threads"]
        row["setup_share"] = (row["process_s"] - row["rounds_s"]) / row["process_s"] if row["process_s"] else float("nan")
    step_names = sorted({k for row in rows for k in row["steps"]})
    fits = []
    for name in step_names:
        pts = [(row["threads"], row["steps"].get(name, 0.0)) for row in rows]
        fits.append((name, pts))
    other = [(row["threads"], max(0.0, row["rounds_s"] - sum(row["steps"].values()))) for row in rows]
    fits.append(("other (rounds less steps)", other))
    fitted = []
    for name, pts in fits:
        a, b = amdahl(pts)
        fitted.append({"step": name, "a_s": a, "b_s": b, "points": pts,
                       "serial_fraction": a / (a + b) if a + b > 0 else 0.0})
    total_a = sum(f["a_s"] for f in fitted) or 1.0
    for f in fitted:
        f["serial_share"] = f["a_s"] / total_a
    fitted.sort(key=lambda f: -(f["a_s"] + f["b_s"]))
    a, b = amdahl([(row["threads"], row["rounds_s"]) for row in rows])
    lanes = max((o.get("lanes", 1) for r in records for o in (r.get("plan") or {}).get("op_counts", [])), default=1)
    return {"circuit": records[0].get("cipher"), "params": records[0].get("params", {}), "lanes": lanes,
            "packing": records[0].get("packing"), "blocks": records[0].get("blocks"),
            "rows": rows, "steps": fitted,
            "rounds_fit": {"a_s": a, "b_s": b, "serial_fraction": a / (a + b) if a + b else 0.0}}


def markdown(s):
    p = s["params"]
    out = [f"{s['circuit']} {s['packing']}, m={p.get('m')}, {p.get('bits')} bits, c={p.get('c')}, "
           f"key weight {p.get('hwt')}, {s['blocks']} blocks (medians over the runs at each count)", ""]
    out.append(f"| threads | runs | rounds' s (all) | speed-up over {s['rows'][0]['threads']} | efficiency | rounds' CPU s | setup s | planning s | process s | setup + planning share |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    for r in s["rows"]:
        alls = ", ".join(f"{x:.2f}" for x in r["rounds_all_s"])
        out.append(f"| {r['threads']} | {r['runs']} | {r['rounds_s']:.2f} ({alls}) | {r['speedup']:.2f}x | "
                   f"{100 * r['efficiency']:.0f}% | {r['rounds_cpu_s']:.1f} | {r['setup_s']:.2f} | {r['plan_s']:.2f} | "
                   f"{r['process_s']:.2f} | {100 * r['setup_share']:.1f}% |")
    f = s["rounds_fit"]
    out += ["", f"Rounds, fitted t(T) = {f['a_s']:.2f} + {f['b_s']:.2f} / T s: serial fraction "
            f"{100 * f['serial_fraction']:.1f}% (Amdahl's limit {1 / f['serial_fraction']:.1f}x)"
            if f["serial_fraction"] > 0 else "", ""]
    ts = [r["threads"] for r in s["rows"]]
    if s.get("lanes", 1) > 1:
        out += [f"Steps in lanes of {s['lanes']} ciphertexts side by side: each row adds the lanes' own times "
                "(thread-seconds; flat where the lanes scale).", ""]
        out.append("| step | " + " | ".join(f"{T} thr thread-s" for T in ts) + " |")
        out.append("|---|" + "---|" * len(ts))
        for st in s["steps"]:
            if not st["step"].startswith("other"):
                out.append(f"| {st['step']} | " + " | ".join(f"{t:.2f}" for _, t in st["points"]) + " |")
        return "\n".join(out) + "\n"
    out.append("| step | " + " | ".join(f"{T} thr s" for T in ts) + " | serial a s | parallel b s | serial fraction | share of serial time |")
    out.append("|---|" + "---|" * len(ts) + "---|---|---|---|")
    for st in s["steps"]:
        vals = " | ".join(f"{t:.2f}" for _, t in st["points"])
        out.append(f"| {st['step']} | {vals} | {st['a_s']:.2f} | {st['b_s']:.2f} | "
                   f"{100 * st['serial_fraction']:.0f}% | {100 * st['serial_share']:.0f}% |")
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="+")
    ap.add_argument("--plans", nargs="*", default=[],
                    help="run_cipher --plan records (no cache), timed per thread count")
    ap.add_argument("--markdown")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    try:
        s = summarize([load(p) for p in args.records])
        plans = sorted(plan_seconds(p) for p in args.plans)
    except BadRun as e:
        print(f"thread_scaling: {e}", file=sys.stderr)
        return 2
    text = markdown(s)
    if plans:
        text += "\nPlanning alone (run_cipher --plan, no cache): " + ", ".join(
            f"{T} thr {sec:.2f} s" for T, sec in plans) + "\n"
        s["plans"] = plans
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(s, f, indent=1)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

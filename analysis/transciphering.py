"""The transciphering leaderboard's table and figure (workflow/rules/transcipher.smk).

table   the rows' run_cipher records (cbparams.transcipher run: one per row on its selected
        ring, each with "correct": true, else refused) -> leaderboard.csv and .md: entry,
        instance, ring m, p, blocks (and the row's cap), latency (the record's server
        seconds: material + keystream + subtraction), throughput (plaintext bits per second,
        seconds per block), keys MB (public + evaluation), expansion, capacity left after
        the subtraction (bits) and depth_left, security (HElib's formula as the record
        states it; core-SVP from cbparams.security.coresvp_of_chain of the record's phi,
        log2 Q and key weight), correct, the packing that won the selection and its
        runner-up (the best candidate of the other packing: its planned figures, and its cost
        over the winner's in the selection's objective; "not planned" with the lower bound
        when the selection showed it cannot win). Beside them: the TFHE peers' rows from
        tidy/peers.csv when the config runs them (kind "TFHE", AES-128: 128 plaintext bits
        a block), and the published figures of docs/references.md §10's table "Published
        transciphering figures" (kind "published", never measured here).
figure  throughput against capacity left, the measured BGV rows (PNG and SVG).
"""

import argparse
import json
import math
import os

import pandas as pd

COLUMNS = ["kind", "entry", "instance", "mode", "m", "p", "blocks", "blocks_cap", "depth_after", "latency_s",
           "bits_per_second", "seconds_per_block", "keys_mb", "expansion", "capacity_left_bits", "depth_left",
           "security_helib", "security_coresvp", "security_estimator", "c", "hwt", "packing", "runner_up", "runner_up_cost_ratio", "correct",
           "source"]

#: The heading of docs/references.md's published table this script reads.
PUBLISHED_HEADING = "Published transciphering figures"


def runner_up(leaderboard):
    """The runner-up packing's text and its cost over the winner's (the selection's objective),
    from a record's leaderboard section (cbparams.transcipher: selected, runner_up).

    >>> sel = {"packing": "state", "m": 65536, "cost": 2.0e9}
    >>> runner_up({"selected": sel, "runner_up": {"packing": "blocks", "m": 65536, "blocks": 32768, "bits": 474,
    ...            "security_helib": 158.8, "security_coresvp": 160.1, "cost": 5.0e9, "kept": True}})
    ('blocks m=65536: 32768 blocks, 474 bits, 158.8/160.1 bits; cost 2.5x the winner', 2.5)
    >>> runner_up({"selected": sel, "runner_up": {"packing": "blocks", "m": 53261, "skipped": True,
    ...            "lower_bound": 9.0e10, "kept": False}})
    ('blocks m=53261: not planned, cost at least 45x the winner (a lower bound)', 45.0)
    >>> runner_up({"selected": sel, "runner_up": {"packing": "state", "m": 65536, "kept": False,
    ...            "reason": "refused by run_cipher: no chain reaches 128 bits"}})
    ('state: no ring kept (m=65536: refused by run_cipher)', None)
    >>> runner_up({"selected": sel, "runner_up": None})
    ('', None)
    """
    ru, sel = leaderboard.get("runner_up"), leaderboard.get("selected") or {}
    if not ru:
        return "", None
    if not ru["kept"] and not ru.get("skipped"):
        return f"{ru['packing']}: no ring kept (m={ru['m']}: {ru['reason'].split(':')[0]})", None
    if ru.get("skipped"):
        ratio = ru["lower_bound"] / sel["cost"]
        return f"{ru['packing']} m={ru['m']}: not planned, cost at least {ratio:.3g}x the winner (a lower bound)", ratio
    ratio = ru["cost"] / sel["cost"]
    return (f"{ru['packing']} m={ru['m']}: {ru['blocks']} blocks, {ru['bits']} bits, "
            f"{ru['security_helib']:.1f}/{ru['security_coresvp']:.1f} bits; cost {ratio:.3g}x the winner", ratio)


class LeaderboardRejected(ValueError):
    """A record that must not be in the table; the message says why."""


def coresvp(phi, log2_q, hwt):
    """The project's core-SVP figure of a chain (cbparams.security; imported, not copied)."""
    from cbparams.security import coresvp_of_chain

    return coresvp_of_chain(phi, log2_q, hwt)


def bgv_row(record, path="", svp=coresvp):
    """One measured row from a leaderboard record.

    >>> rec = {"correct": True, "cipher": "hera", "instance_id": "hera5p17", "mode": "keystream", "blocks": 4,
    ...   "depth_after": 1, "leaderboard": {"row": {"name": "hera5", "blocks": None}},
    ...   "params": {"m": 256, "p": 65537, "phi": 128, "log2_q": 780.0, "hwt": 120, "c": 3, "security": 19.4},
    ...   "throughput": {"server_s": 0.2, "bits_per_second": 5000.0, "seconds_per_block": 0.05},
    ...   "sizes": {"public_key_bytes": 24576, "eval_key_bytes": 104448, "expansion": 1024.0},
    ...   "capacity": {"after_subtract_bits": 53.6, "depth_left": 1}}
    >>> r = bgv_row(rec, svp=lambda *a: 10.0)
    >>> r["entry"], r["keys_mb"], r["security_coresvp"], r["kind"]
    ('hera5', 0.129024, 10.0, 'BGV (this engine)')
    >>> bgv_row(dict(rec, correct=False), "x.json")
    Traceback (most recent call last):
    ...
    transciphering.LeaderboardRejected: x.json: correct=False: a record whose blocks are not all right gives no timing
    """
    if record.get("correct") is not True:
        raise LeaderboardRejected(f"{path}: correct={record.get('correct')!r}: a record whose blocks are not all "
                                  "right gives no timing")
    p, t, s, cap = record["params"], record["throughput"], record["sizes"], record["capacity"]
    row = record.get("leaderboard", {}).get("row", {})
    second, ratio = runner_up(record.get("leaderboard", {}))
    return dict(
        kind="BGV (this engine)", entry=row.get("name", record["instance_id"]), instance=record["instance_id"],
        mode=record["mode"], m=p["m"], p=p["p"], blocks=record["blocks"], blocks_cap=row.get("blocks"),
        depth_after=record["depth_after"], latency_s=t["server_s"], bits_per_second=t["bits_per_second"],
        seconds_per_block=t["seconds_per_block"],
        keys_mb=(s["public_key_bytes"] + s["eval_key_bytes"]) / 1e6, expansion=s["expansion"],
        capacity_left_bits=cap["after_subtract_bits"], depth_left=cap["depth_left"],
        security_helib=round(float(p["security"]), 1),
        security_coresvp=svp(int(p["phi"]), float(p["log2_q"]), int(p["hwt"])),
        # the estimator's table figure the selection judged, where the config named the estimator
        security_estimator=record.get("leaderboard", {}).get("selected", {}).get("security_estimator"),
        c=p["c"], hwt=p["hwt"], packing=record.get("packing"), runner_up=second, runner_up_cost_ratio=ratio,
        correct=True, source=os.path.basename(path) or "measured")


def tfhe_rows(peers_csv):
    """The TFHE peers' rows (tidy/peers.csv, every run already checked by analysis/peers.py):
    their cipher (peers.PEER_CIPHER) as the catalog has it, its block's bits from there."""
    from cbparams import catalog
    from analysis.peers import PEER_CIPHER
    inst = catalog.instances()[catalog.instance_of({"cipher": PEER_CIPHER})]
    df = pd.read_csv(peers_csv)
    rows = []
    for _, r in df.iterrows():
        rows.append(dict(kind="TFHE (tfhe-rs, this machine)", entry=f"{r['peer']} {inst.display}", instance=inst.id,
                         mode=r["method"], blocks=int(r["blocks"]), latency_s=float(r["latency_s"]),
                         bits_per_second=inst.block_bits / float(r["per_block_s"]),
                         seconds_per_block=float(r["per_block_s"]), security_helib=None,
                         correct=True, source=f"tidy/peers.csv ({r['params']}, {r['threads']} threads, "
                                              f"stated security {r['security']})"))
    return rows


def published_rows(references_md):
    """The table under the heading PUBLISHED_HEADING of docs/references.md: one row each,
    kind "published" (no figure there is measured here).

    >>> text = '''### Published transciphering figures
    ... Quoted figures.
    ...
    ... | entry | source | latency_s | plaintext_bits | keys_mb | note |
    ... |---|---|---|---|---|---|
    ... | AES-128 (TFHE) | FHE.org | 37.05 | 1024 | 115.6 | small size |
    ... '''
    >>> import tempfile; f = tempfile.NamedTemporaryFile("w", suffix=".md", delete=False); _ = f.write(text); f.close()
    >>> r = published_rows(f.name)[0]
    >>> r["kind"], r["latency_s"], round(r["bits_per_second"], 2), r["source"]
    ('published', 37.05, 27.64, 'FHE.org: small size')
    """
    with open(references_md) as f:
        text = f.read()
    at = text.find("### " + PUBLISHED_HEADING)
    if at < 0:
        raise LeaderboardRejected(f"{references_md}: no heading {PUBLISHED_HEADING!r} (the published figures' table)")
    lines = text[at:].splitlines()[1:]
    while lines and not lines[0].startswith("|"):  # the section's prose, then its table
        lines.pop(0)
    table = []
    for ln in lines:
        if not ln.startswith("|"):
            break
        table.append([c.strip() for c in ln.strip().strip("|").split("|")])
    if len(table) < 3:
        raise LeaderboardRejected(f"{references_md}: {PUBLISHED_HEADING!r} has no table with a header and rows")
    header, body = table[0], [r for r in table[2:]]
    rows = []
    for cells in body:
        r = dict(zip(header, cells))
        num = lambda k: float(r[k]) if r.get(k) not in (None, "", "-") else None  # noqa: E731
        latency, bits = num("latency_s"), num("plaintext_bits")
        rows.append(dict(kind="published", entry=r["entry"], latency_s=latency,
                         bits_per_second=bits / latency if latency and bits else None,
                         keys_mb=num("keys_mb"), correct=None, source=f"{r['source']}: {r['note']}"))
    return rows


def table(records, peers, references, published, csv_path, md_path):
    rows = []
    for path in records:
        with open(path) as f:
            rows.append(bgv_row(json.load(f), path))
    for p in peers:
        rows += tfhe_rows(p)
    if published:
        rows += published_rows(references)
    df = pd.DataFrame(rows, columns=COLUMNS)
    df.to_csv(csv_path, index=False)
    with open(md_path, "w") as f:
        f.write(markdown(df))


def _fmt(v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def markdown(df):
    """The table as Markdown: measured rows first; a capped row says so in blocks."""
    cols = ["kind", "entry", "instance", "m", "p", "blocks", "latency_s", "bits_per_second", "seconds_per_block",
            "keys_mb", "expansion", "capacity_left_bits", "depth_left", "security_helib", "security_coresvp",
            "packing", "runner_up", "correct", "source"]
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for _, r in df.iterrows():
        cells = []
        for c in cols:
            v = r[c]
            if c == "blocks" and not pd.isna(r["blocks_cap"]) and r["blocks_cap"] is not None:
                cells.append(f"{int(v)} (capped at {int(r['blocks_cap'])})")
            elif c in ("m", "p", "blocks", "depth_left") and not pd.isna(v):
                cells.append(str(int(v)))
            else:
                cells.append(_fmt(None if pd.isna(v) else v))
        out.append("| " + " | ".join(cells) + " |")
    note = ("\nlatency: the server's seconds (material + keystream + subtraction); keys: public + evaluation; "
            "capacity left: bits after the subtraction at the planned chain (depth_after products planned "
            "after it; depth_left further ones). Rows of kind 'published' are quoted from "
            "docs/references.md §10, not measured here. packing: the one the selection chose (keystream entries "
            "compare blocks across slots and one block's state in slots); runner_up: the other packing's best "
            "candidate as planned (not run), its cost over the winner's in the selection's objective (work in "
            "limb operations, per block under throughput).\n")
    return "\n".join(out) + "\n" + note


def figure(csv_path, png, svg):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    df = pd.read_csv(csv_path)
    bgv = df[df["kind"].str.startswith("BGV")]
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for _, r in bgv.iterrows():
        marker = "o" if r["mode"] == "keystream" else "s"
        ax.scatter(r["capacity_left_bits"], r["bits_per_second"], marker=marker)
        ax.annotate(f"{r['entry']} (m={int(r['m'])})", (r["capacity_left_bits"], r["bits_per_second"]),
                    textcoords="offset points", xytext=(4, 4), fontsize=8)
    ax.set_yscale("log")
    ax.set_xlabel("capacity left after the subtraction (bits)")
    ax.set_ylabel("throughput (plaintext bits / s, server)")
    ax.set_title("Transciphering on BGV: o keystream entries, s block ciphers in CTR mode", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(png, dpi=150)
    fig.savefig(svg)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("table")
    t.add_argument("--records", nargs="*", default=[])
    t.add_argument("--peers", nargs="*", default=[])
    t.add_argument("--references", required=True)
    t.add_argument("--published", action="store_true")
    t.add_argument("--csv", required=True)
    t.add_argument("--md", required=True)
    g = sub.add_parser("figure")
    g.add_argument("--csv", required=True)
    g.add_argument("--png", required=True)
    g.add_argument("--svg", required=True)
    a = ap.parse_args(argv)
    if a.cmd == "table":
        table(a.records, a.peers, a.references, a.published, a.csv, a.md)
    else:
        figure(a.csv, a.png, a.svg)


if __name__ == "__main__":
    main()

"""The security every table row and figure bar carries, and the mark of the insecure ones.

A run's security is what the project computes once for its chain: HElib's formula as the
engine reports it (run_cipher's params.security, the column security_helib) and the core-SVP
cost of primal uSVP with the same Q (the explorer's cbparams.security.coresvp_of_chain, or
security.csv's figure for the same chain: security_coresvp), and the lattice estimator's best
attack when the explorer's stage ran (security_est_best). A run is *below 80 bits* when the
lowest of the figures it has is: such runs exercise the circuits on toy rings and show
relative costs, nothing more. Tables give them the column below_80_bits; figures hatch their
bars ("xx", dark edge) and label them "below 80 bits" in red, so they are never drawn beside
published figures without that mark.

>>> lowest_security({"security_helib": 20.1, "security_coresvp": 11.7})
11.7
>>> is_below({"security_helib": 20.1, "security_coresvp": 11.7}), is_below({"security_helib": 118.7})
(True, False)
>>> security_text({"security_helib": 20.1, "security_coresvp": 11.7})
'20 bits (HElib), 12 (core-SVP): below 80 bits'
"""

import math

#: Runs whose lowest security figure is under this are marked (bits).
THRESHOLD = 80
#: The mark, in every table and figure.
MARK = f"below {THRESHOLD} bits"
#: How the figures draw a bar below THRESHOLD (hatch, its colour) and the colour of its label.
HATCH, EDGE, TEXT = "xx", "#222222", "#d62728"

#: Security columns, in the order they are named in labels.
FIGURES = [("security_helib", "HElib"), ("security_coresvp", "core-SVP"), ("security_est_best", "estimator")]


def _num(v):
    try:
        v = float(v)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) else v


def lowest_security(row):
    """The lowest of the security figures the row has (None when it has none)."""
    vals = [_num(row.get(c)) for c, _ in FIGURES if c in row]
    vals = [v for v in vals if v is not None]
    return min(vals) if vals else None


def is_below(row):
    """Is the row's lowest security figure under THRESHOLD? (A row with none is not known
    to be secure: it is marked too.)"""
    low = lowest_security(row)
    return low is None or low < THRESHOLD


def security_text(row, short=False):
    """'20 bits (HElib), 12 (core-SVP): below 80 bits', or '137 bits (HElib), 120 (core-SVP)'."""
    parts = []
    for col, name in FIGURES:
        v = _num(row.get(col)) if col in row else None
        if v is not None:
            parts.append(f"{v:.0f}" + (" bits" if not parts else "") + f" ({name})")
    text = ", ".join(parts[:1] if short else parts) or "security unknown"
    return text + (f": {MARK}" if is_below(row) else "")


def mark_columns(df):
    """df with security_lowest and below_80_bits (the table column of the mark)."""
    rows = df.to_dict("records")
    return df.assign(security_lowest=[lowest_security(r) for r in rows],
                     below_80_bits=[is_below(r) for r in rows])


def bar_style(row, color):
    """matplotlib bar keywords for a measured bar: hatched when below THRESHOLD."""
    if is_below(row):
        return {"color": color, "hatch": HATCH, "edgecolor": EDGE}
    return {"color": color}

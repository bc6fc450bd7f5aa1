"""The cipher catalog as the analysis sees it: labels and step names of a run's instance.

Every fact comes from the engine's catalog (cbparams.catalog, which asks
build/bin/run_cipher --list-ciphers; CB_BUILD_DIR selects another build): the analysis
names no cipher. A run or a tidy row names its instance by `cipher` plus, for ciphers with
several instances, `field_bits` and `state_size`, and `p` for a prime-field instance (the
config's keys; NaN in tidy CSV when absent).
"""

import math

from cbparams import catalog


def _key(row):
    def clean(v):
        return None if v is None or (isinstance(v, float) and math.isnan(v)) else int(v)

    return {"cipher": row["cipher"], "field_bits": clean(row.get("field_bits")), "state_size": clean(row.get("state_size")),
            "p": clean(row.get("p")) or 2}


def instance(row):
    """The catalog's Instance of a run (experiment dict or tidy row)."""
    return catalog.instances()[catalog.instance_of(_key(row))]


def display(row):
    """'AES-128', 'Vision GF(2^16)^8', 'MiMC GF(2^63)': as the tables name the instance."""
    return instance(row).display


def label(row):
    """'GF(2^8)^16': the instance's field and state."""
    return instance(row).label


def step_names():
    """Every step name of the catalog, apart and fused, in catalog order."""
    return catalog.all_step_names()

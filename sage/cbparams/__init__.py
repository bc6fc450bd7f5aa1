"""cipherbench's parameter explorer: cyclotomic rings, security, modulus chains, selection.

The public API (what notebooks/explore.ipynb and the `cbparams` command use):

    ring_facts(m)                      phi, d, slots, the hypercube of Z_m^*/<2>
    sweep(m_min, m_max, degrees)       every odd m with n | ord_m(2), as rows
    build_chain(m, bits, c)            the engine's chain for a capacity
    helib_security, coresvp_bits       HElib's formula, core-SVP uSVP
    security_curve(m, bits_list)       both (and the lattice estimator's) against chain length
    plan(cipher, m)                    the chain a cipher needs, from run_cipher --plan or the explorer
    run_cipher(...), ring_info(m)      the C++ executables, their JSON read back
    check_ring(m), check_vision_constants()   Sage's cross-checks (needs passagemath)
    locate_estimator()                 where the lattice estimator is (make estimator)
    load_params(section)               the pipeline's params: settings with defaults
"""
from .chains import Chain, build_chain
from .config import ROOT, load_params
from .curves import security_curve
from .cyclotomic import RingFacts, check_m, ring_facts
from .enumerate import sweep
from .errors import ChainError, EstimatorMissing, ParamError, RingError, SecurityError
from .estimator import locate as locate_estimator
from .plan import Plan, engine_has_planner, plan
from .runner import RunError, ring_info, run_cipher
from .security import coresvp_bits, helib_security

__all__ = ["Chain", "build_chain", "ROOT", "load_params", "security_curve", "RingFacts", "check_m",
           "ring_facts", "sweep", "ChainError", "EstimatorMissing", "ParamError", "RingError",
           "SecurityError", "locate_estimator", "Plan", "engine_has_planner", "plan", "RunError",
           "ring_info", "run_cipher", "check_ring", "check_vision_constants", "coresvp_bits",
           "helib_security"]


def __getattr__(name):
    """check_ring and check_vision_constants load cbparams.sagecheck on first use (so that
    `python -m cbparams.sagecheck` does not find it imported already)."""
    if name in ("check_ring", "check_vision_constants"):
        from . import sagecheck

        return getattr(sagecheck, name)
    raise AttributeError(f"module 'cbparams' has no attribute {name!r}")

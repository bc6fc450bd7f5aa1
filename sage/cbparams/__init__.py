"""cipherbench's parameter explorer: cyclotomic rings, security, modulus chains, selection.

The public API (what notebooks/explore.ipynb and the `cbparams` command use):

    ring_facts(m, p=2)                 phi, d, slots, the hypercube of Z_m^*/<p>
    sweep(m_min, m_max, degrees, p=2)  every odd m (and 2^k at odd p) with n | ord_m(p), as rows
    build_chain(m, bits, c)            the engine's chain for a capacity
    helib_security, coresvp_bits       HElib's formula, core-SVP uSVP (the engine's)
    security_model(name)               a security model of the registry: citation, key assumptions
    security_curve(m, bits_list)       both (and the lattice estimator's) against chain length
    plan(cipher, m)                    the engine's plan (run_cipher --plan's JSON): chain, c, op counts
    predict_plan(model, plan)          the cost model's predicted seconds (load_cost_model(path))
    run_cipher(...), ring_info(m)      the C++ executables, their JSON read back
    check_ring(m), check_vision_constants()   Sage's cross-checks (needs passagemath)
    locate_estimator()                 where the lattice estimator is (make estimator)
    load_params(section)               the pipeline's params: settings with defaults
"""
import importlib

#: Public name -> the module that defines it. Loaded on first use, so that importing one
#: module (e.g. cbparams.security, which needs neither numpy nor Sage) loads only that one.
_API = {
    "Chain": "chains", "build_chain": "chains",
    "ROOT": "config", "load_params": "config",
    "security_curve": "curves",
    "RingFacts": "cyclotomic", "check_m": "cyclotomic", "ring_facts": "cyclotomic",
    "sweep": "enumerate",
    "ChainError": "errors", "EstimatorMissing": "errors", "ParamError": "errors",
    "RingError": "errors", "SecurityError": "errors",
    "locate_estimator": "estimator",
    "instances": "catalog", "plan": "planner",
    "load_cost_model": "cost_model", "predict_plan": "cost_model",
    "RunError": "runner", "ring_info": "runner", "run_cipher": "runner",
    "check_ring": "sagecheck", "check_vision_constants": "sagecheck",
    "coresvp_bits": "security", "helib_security": "security",
    "security_model": "security_models",
}
_RENAMED = {"locate_estimator": "locate", "load_cost_model": "load_model", "security_model": "model"}

__all__ = sorted(_API)


def __getattr__(name):
    if name not in _API:
        raise AttributeError(f"module 'cbparams' has no attribute {name!r}")
    mod = importlib.import_module(f".{_API[name]}", __name__)
    value = getattr(mod, _RENAMED.get(name, name))
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_API))

"""Exceptions of the parameter explorer.

One root, :class:`ParamError` (a ``ValueError``), and narrow subclasses. Every message
names the offending value and the constraint it breaks, and says what to change.
"""


class ParamError(ValueError):
    """Root of the explorer's errors: a value the explorer cannot work with."""


class RingError(ParamError):
    """A cyclotomic index m (or a field degree n) that the explorer cannot use."""


class SecurityError(ParamError):
    """A security target, key weight or modulus that no candidate can satisfy."""


class ChainError(ParamError):
    """A modulus-chain request that cannot be built (bad depth profile, bits, c)."""


class EstimatorMissing(ParamError):
    """The lattice estimator was asked for but cannot be imported."""

"""A dollar budget shared by concurrent requests: estimates are reserved before sending."""

from __future__ import annotations

EPSILON = 1e-12  # float slack, so that an exact fit is not refused


class Budget:
    """What a run may spend (0: no limit), what it spent and what is reserved in flight."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.spent = 0.0
        self.reserved = 0.0

    @property
    def limited(self) -> bool:
        return self.limit > 0

    def fits(self, estimate: float) -> bool:
        """Whether `estimate` could be reserved now."""
        return not self.limited or self.spent + self.reserved + estimate <= self.limit + EPSILON

    def reserve(self, estimate: float) -> bool:
        """Hold `estimate` for a request about to be sent; False when it does not fit."""
        if not self.limited:
            return True
        if not self.fits(estimate):
            return False
        self.reserved += estimate
        return True

    def settle(self, estimate: float, spent: float | None = None) -> None:
        """A request came back: release its reservation and count what it cost
        (`spent`; None: it was not answered and cost nothing)."""
        self.reserved -= estimate
        if spent is not None:
            self.spent += spent

"""The LED power limiter (docs/leds.md "Power budget").

Estimated current of a scene: every channel value v (0..255) of a WS2812 draws
v * 20 / 255 mA, so a full-white pixel draws 60 mA.  When the estimate exceeds the
budget, every channel is scaled down by the same integer ratio limit / total, where
limit = budget_ma * 255 // 20 is the largest channel sum within the budget.  Integer
arithmetic only (the RP2040 has no FPU); every intermediate stays below 2**30.
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

_MA_PER_CHANNEL_NUM = const(20)     # mA of a full channel ...
_MA_PER_CHANNEL_DEN = const(255)    # ... per unit of channel value


def estimate_ma(scene):
    """Estimated current of a scene (bytearray of R, G, B values) in whole mA,
    rounded up."""
    total = 0
    for v in scene:
        total += v
    return (total * _MA_PER_CHANNEL_NUM + _MA_PER_CHANNEL_DEN - 1) // _MA_PER_CHANNEL_DEN


class PowerLimiter:
    """Scale scenes into a current budget of `budget_ma` mA.

    limit(src, dst): write src scaled into dst (same length), return the channel sum
    before scaling.  Allocates nothing.
    """

    def __init__(self, budget_ma):
        self.set_budget(budget_ma)

    def set_budget(self, budget_ma):
        """Change the budget (mA, >= 0)."""
        if budget_ma < 0:
            raise ValueError("budget must be >= 0 mA")
        self.budget_ma = budget_ma
        self.max_sum = budget_ma * _MA_PER_CHANNEL_DEN // _MA_PER_CHANNEL_NUM

    def limit(self, src, dst, total=-1):
        """dst[i] = src[i] scaled so that sum(dst) <= max_sum (estimate <= budget).
        total: sum(src) when the caller keeps it up to date, else -1 (summed here)."""
        n = len(src)
        if total < 0:
            total = sum(src)
        cap = self.max_sum
        i = 0
        if total <= cap:
            dst[:] = src
        else:
            while i < n:
                dst[i] = src[i] * cap // total
                i += 1
        return total

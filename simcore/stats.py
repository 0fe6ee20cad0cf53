"""Small statistics the simulation core itself needs (closing summary of a run).

The analysis package has the full set; these are the shared primitives it builds on:
:func:`wilson_interval` (the plain score interval), :func:`wilson_counts` (the interval every table
and terminal line of a share prints: the score interval with the exact Poisson end at 1-3
successes or failures, :func:`analysis.stats.wilson` at one share) and :func:`gamma_quantile` (those
ends). May import only the standard library.
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson_interval(p_hat: float, n: int | float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``p_hat`` observed over ``n`` trials.

    Win shares with ties are fractional (1/k); treating the mean share as a proportion is the
    usual approximation and is what every table of the toolkit reports.

    >>> lo, hi = wilson_interval(0.5, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    """
    if n <= 0:
        return (float("nan"), float("nan"))
    denom = 1.0 + z * z / n
    centre = (p_hat + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p_hat * (1 - p_hat) / n + z * z / (4 * n * n), 0.0)) / denom
    # at no success (every success) the end is exactly 0 (1): centre − half rounds to about one ulp
    # of the centre (2**-64 at n = 4,000), an interval that excluded the true 0 (Fief review 45 #2)
    return (0.0 if p_hat <= 0 else max(0.0, centre - half),
            1.0 if p_hat >= 1 else min(1.0, centre + half))


def wilson_counts(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The interval ``balance report`` and ``balance export`` print for ``successes`` of ``n``
    (successes may be fractional): :func:`wilson_interval`, then Brown, Cai & DasGupta's (2001,
    §4.1.1) ends: for 0 < x ≤ x* successes (x* = 2 for n ≤ 50, else 3) the lower end is the exact
    (Garwood) Poisson bound ½ χ²(2x; α/2) / n, and for 0 < n − x ≤ x* failures the upper end is
    1 − ½ χ²(2(n − x); α/2) / n; a fractional count as the whole count nearest it, x < x* + ½
    (an effective count of 3.009 is 3 wins: session 64). The scalar form of
    :func:`analysis.stats.wilson` for a game's own closing rows below the analysis layer (a Fief
    combat's "P(defender holds)": review 225 #2, the terminal's 0.0006 beside the page's 0.0001
    for 1 hold in 300); tests hold the two equal."""
    if n <= 0:
        return (float("nan"), float("nan"))
    x = min(max(float(successes), 0.0), float(n))
    lo, hi = wilson_interval(x / n, n, z)
    ends = 2.0 if n <= 50 else 3.0
    q = 0.5 * math.erfc(z / math.sqrt(2.0))          # the lower tail at -z: (1 - level) / 2
    if 0.0 < x < ends + 0.5:
        lo = gamma_quantile(x, q) / n
    if 0.0 < n - x < ends + 0.5:
        hi = 1.0 - gamma_quantile(n - x, q) / n
    return lo, hi


def gamma_quantile(a: float, q: float) -> float:
    """The ``q``-quantile of the Gamma(``a``, 1) law (0 < a ≤ a few, 0 < q < 1): y with
    P(a, y) = q, P the regularised lower incomplete gamma function, by bisection on its power
    series P(a, y) = yᵃ e⁻ʸ / Γ(a + 1) · Σₖ yᵏ / ((a + 1)…(a + k)) (exact to ~1e-14 here;
    tests compare it with scipy's ``gammaincinv``). ½ χ²(2x; q) = Gamma(x)'s q-quantile."""
    def lower(y: float) -> float:
        if y <= 0.0:
            return 0.0
        term = total = 1.0
        k = 0
        while term > 1e-17 * total:
            k += 1
            term *= y / (a + k)
            total += term
        return math.exp(a * math.log(y) - y - math.lgamma(a + 1.0)) * total

    lo, hi = 0.0, max(1.0, 2.0 * a)
    while lower(hi) < q:
        hi *= 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if lower(mid) < q:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * hi:
            break
    return 0.5 * (lo + hi)

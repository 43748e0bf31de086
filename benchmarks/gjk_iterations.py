"""GJK iterations, vanilla against Nesterov-accelerated (Montaut et al., RSS 2022), on strictly convex pairs
(ellipsoids) and polytopes (convex hulls of 300 random points), separated by a given gap.

    python benchmarks/gjk_iterations.py [npairs]
"""

from __future__ import annotations

import sys

import numpy as np

from rbda.collision import Convex, DistanceRequest, Ellipsoid, distance
from rbda.spatial import SE3


def pairs(kind, gap, n, rng):
    """``n`` pairs of shapes of ``kind`` with shape 2 moved so that their distance is ``gap``."""
    for _ in range(n):
        if kind == "ellipsoids":
            s1, s2 = (Ellipsoid(tuple(rng.uniform(0.05, 0.5, 3))) for _ in range(2))
        else:
            s1, s2 = (Convex(rng.normal(size=(300, 3)) * rng.uniform(0.05, 0.5, 3)) for _ in range(2))
        M1, M2 = SE3.Random(rng), SE3.Random(rng)
        r = distance(s1, M1, s2, M2)
        M2 = SE3(M2.rotation, M2.translation + (gap - r.min_distance) * r.normal)
        yield s1, M1, s2, M2


def measure(kind, gap, n=400, seed=0, tolerance=1e-8):
    """Mean GJK iterations ``(vanilla, nesterov)`` and the largest distance difference between the two."""
    its, diff = {"default": [], "nesterov": []}, 0.0
    for s1, M1, s2, M2 in pairs(kind, gap, n, np.random.default_rng(seed)):
        d = {}
        for variant in its:
            r = distance(s1, M1, s2, M2, DistanceRequest(variant, tolerance))
            its[variant].append(r.gjk_iterations)
            d[variant] = r.min_distance
        diff = max(diff, abs(d["default"] - d["nesterov"]))
    return np.mean(its["default"]), np.mean(its["nesterov"]), diff


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    print(f"{'pairs':<12}{'gap':>8}{'vanilla':>10}{'nesterov':>10}{'max |d_v - d_n|':>18}")
    for kind in ("ellipsoids", "polytopes"):
        for gap in (1.0, 0.1, 1e-3):
            v, a, diff = measure(kind, gap, n)
            print(f"{kind:<12}{gap:>8g}{v:>10.1f}{a:>10.1f}{diff:>18.1e}")

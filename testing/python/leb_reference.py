"""A double-precision CPU implementation of GPUMesh's longest-edge bisection, written from the
specification (seed 002 and the filter's documentation), for triangle-by-triangle comparison.

Ranking of edges replicates the device: squared lengths in the run's precision (`dtype`:
float64 for double points, float32 for float points or Precision Single) of the difference of
the edge's end points (dx*dx + dy*dy + dz*dz, in that order, no fused multiply-add); double
points ranked in float32 are first rounded relative to the centre of their bounds, as the
filter does. Ties go to the smaller (min id, max id) pair. New points are numbered in (min id, max id) order of
their edges; each refined triangle's first child takes its index and the other children
are appended in their parents' order, so the output is identical index for index. Coordinates of new points are exact midpoints in double.
"""
import numpy as np


def _key(a, b):
    return (a, b) if a < b else (b, a)


def refine(points, triangles, marks, passes=1, dtype=np.float64, shift=False):
    """points: (n, 3) float64; triangles: list of (a, b, c); marks: list of bools; dtype: the
    precision edges are ranked in; shift: rank relative to the centre of the bounds (double
    points in a float32 run). Returns (points64, triangles, parent) after `passes` passes."""
    points = np.asarray(points, dtype=np.float64)
    origin = 0.5 * (points.min(axis=0) + points.max(axis=0)) if shift else np.zeros(3)
    p32 = [v for v in (points - origin).astype(dtype)]  # the ranking precision
    p64 = [p for p in points]
    triangles = [tuple(int(v) for v in t) for t in triangles]
    parent = list(range(len(triangles)))
    marks = [bool(m) for m in marks]
    half = dtype(0.5)
    for _ in range(passes):
        length2 = {}
        for t in triangles:
            for j in range(3):
                a, b = _key(t[j], t[(j + 1) % 3])
                if (a, b) not in length2:
                    d = p32[b] - p32[a]
                    length2[(a, b)] = dtype(dtype(dtype(d[0] * d[0]) + dtype(d[1] * d[1])) + dtype(d[2] * d[2]))

        def longer(e, f):
            if length2[e] != length2[f]:
                return length2[e] > length2[f]
            return e < f

        longest = []
        for t in triangles:
            best = 0
            for j in (1, 2):
                if longer(_key(t[j], t[(j + 1) % 3]), _key(t[best], t[(best + 1) % 3])):
                    best = j
            longest.append(best)
        divide = {_key(t[r], t[(r + 1) % 3]) for t, r, m in zip(triangles, longest, marks) if m}
        changed = True
        while changed:  # conformity: a divided edge forces the triangle's longest edge
            changed = False
            for t, r in zip(triangles, longest):
                le = _key(t[r], t[(r + 1) % 3])
                if le not in divide and any(_key(t[j], t[(j + 1) % 3]) in divide for j in range(3)):
                    divide.add(le)
                    changed = True
        midpoint = {}
        for e in sorted(divide):
            midpoint[e] = len(p64)
            p64.append(0.5 * (p64[e[0]] + p64[e[1]]))
            p32.append(half * (p32[e[0]] + p32[e[1]]))
        new_triangles, new_parent, new_marks = [], [], []
        extra_triangles, extra_parent, extra_marks = [], [], []
        for t, r, par, m in zip(triangles, longest, parent, marks):
            a, b, c = t[r], t[(r + 1) % 3], t[(r + 2) % 3]
            ab, bc, ca = _key(a, b), _key(b, c), _key(c, a)
            if ab not in divide:
                children = [t]
            else:
                mid = midpoint[ab]
                children = [(mid, b, midpoint[bc]), (mid, midpoint[bc], c)] if bc in divide else [(mid, b, c)]
                children += [(a, mid, midpoint[ca]), (mid, c, midpoint[ca])] if ca in divide else [(a, mid, c)]
            new_triangles.append(children[0])
            new_parent.append(par)
            new_marks.append(m)
            extra_triangles += children[1:]
            extra_parent += [par] * (len(children) - 1)
            extra_marks += [m] * (len(children) - 1)
        triangles = new_triangles + extra_triangles
        parent = new_parent + extra_parent
        marks = new_marks + extra_marks
    return np.array(p64), triangles, parent

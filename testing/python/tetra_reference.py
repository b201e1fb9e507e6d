"""A double-precision CPU implementation of GPUMesh's longest-edge bisection of tetrahedra,
written from the specification (docs/filters.md, kernels/algorithms/refinement/tetra_refinement.cl's header), for cell-by-cell
comparison with the filter.

Edges are ranked as for triangles (leb_reference): squared lengths in `dtype` of the difference
of the end points (dx*dx + dy*dy + dz*dz in that order), ties to the smaller (min id, max id)
pair. Closure: a marked tetrahedron marks its longest edge; a tetrahedron with a marked edge
marks its longest edge; a face with a marked edge marks the face's longest edge; until nothing
changes. Templates: a (sub)tetrahedron is bisected by the longest marked edge of its original
tetrahedron that it contains; bisecting the edge at positions (i, j) by m gives the child with
position j replaced by m, then the one with position i replaced by m, depth first. New points are
numbered in (min id, max id) order of their edges; the first child takes its parent's index, the
others are appended in their parents' order.
"""
import numpy as np

EDGES = [(0, 1), (1, 2), (2, 0), (0, 3), (1, 3), (2, 3)]
FACES = [(0, 1, 3), (1, 2, 3), (2, 0, 3), (0, 2, 1)]


def _key(a, b):
    return (a, b) if a < b else (b, a)


def _bisect(tet, divided, longer, midpoint):
    """The children of `tet` (a tuple of 4 ids) whose divided edges are `divided`."""
    original = [_key(tet[a], tet[b]) for a, b in EDGES]
    children, stack = [], [tuple(tet)]
    while stack:
        sub = stack.pop()
        best = None
        for e in original:
            if e in divided and e[0] in sub and e[1] in sub and (best is None or longer(e, best)):
                best = e
        if best is None:
            children.append(sub)
            continue
        i, j = sub.index(best[0]), sub.index(best[1])
        first, second = list(sub), list(sub)
        first[j] = midpoint[best]
        second[i] = midpoint[best]
        stack += [tuple(second), tuple(first)]
    return children


def refine(points, tetrahedra, marks, passes=1, dtype=np.float64, shift=False):
    """points: (n, 3) float64; tetrahedra: list of 4-tuples; marks: list of bools; dtype: the
    ranking precision; shift: rank relative to the centre of the bounds (double points in a
    float32 run). Returns (points64, tetrahedra, parent) after `passes` passes."""
    points = np.asarray(points, dtype=np.float64)
    origin = 0.5 * (points.min(axis=0) + points.max(axis=0)) if shift else np.zeros(3)
    pr = [v for v in (points - origin).astype(dtype)]
    p64 = [p for p in points]
    tets = [tuple(int(v) for v in t) for t in tetrahedra]
    parent = list(range(len(tets)))
    marks = [bool(m) for m in marks]
    half = dtype(0.5)
    for _ in range(passes):
        length2 = {}
        for t in tets:
            for a, b in EDGES:
                e = _key(t[a], t[b])
                if e not in length2:
                    d = pr[e[1]] - pr[e[0]]
                    length2[e] = dtype(dtype(dtype(d[0] * d[0]) + dtype(d[1] * d[1])) + dtype(d[2] * d[2]))

        def longer(e, f):
            if length2[e] != length2[f]:
                return length2[e] > length2[f]
            return e < f

        def longest(edges):
            best = edges[0]
            for e in edges[1:]:
                if longer(e, best):
                    best = e
            return best

        tet_edges = [[_key(t[a], t[b]) for a, b in EDGES] for t in tets]
        face_edges = [[[_key(t[f[0]], t[f[1]]), _key(t[f[1]], t[f[2]]), _key(t[f[2]], t[f[0]])] for f in FACES]
                      for t in tets]
        divided = {longest(edges) for edges, m in zip(tet_edges, marks) if m}
        changed = True
        while changed:
            changed = False
            for edges, faces in zip(tet_edges, face_edges):
                rules = [edges] if any(e in divided for e in edges) else []
                rules += [face for face in faces if any(e in divided for e in face)]
                for group in rules:
                    e = longest(group)
                    if e not in divided:
                        divided.add(e)
                        changed = True
        midpoint = {}
        for e in sorted(divided):
            midpoint[e] = len(p64)
            p64.append(0.5 * (p64[e[0]] + p64[e[1]]))
            pr.append(half * (pr[e[0]] + pr[e[1]]))
        kept, kept_parent, kept_marks = [], [], []
        extra, extra_parent, extra_marks = [], [], []
        for t, par, m in zip(tets, parent, marks):
            children = _bisect(t, divided, longer, midpoint)
            kept.append(children[0])
            kept_parent.append(par)
            kept_marks.append(m)
            extra += children[1:]
            extra_parent += [par] * (len(children) - 1)
            extra_marks += [m] * (len(children) - 1)
        tets, parent, marks = kept + extra, kept_parent + extra_parent, kept_marks + extra_marks
    return np.array(p64), tets, parent

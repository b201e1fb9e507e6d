# Hand-written GMF solution for every_kind.mesh: at each vertex a scalar, a vector and a
# symmetric matrix (3 types: 1 2 3, 1 + 3 + 6 reals per line); on the tetrahedron and the
# hexahedron a scalar each.
MeshVersionFormatted 2

Dimension 3

SolAtVertices
12
3 1 2 3
1 1 0 0 11 12 13 14 15 16
2 2 0 0 21 22 23 24 25 26
3 3 0 0 31 32 33 34 35 36
4 4 0 0 41 42 43 44 45 46
5 5 0 0 51 52 53 54 55 56
6 6 0 0 61 62 63 64 65 66
7 7 0 0 71 72 73 74 75 76
8 8 0 0 81 82 83 84 85 86
9 9 0 0 91 92 93 94 95 96
10 10 0 0 101 102 103 104 105 106
11 11 0 0 111 112 113 114 115 116
12 12 0 -0.5 121 122 123 124 125 126

SolAtTetrahedra
1
1 1
-3.25

SolAtHexahedra
1
1 1
1e-300

End

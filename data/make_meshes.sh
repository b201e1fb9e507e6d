#!/usr/bin/env bash
# Regenerate the sample meshes: gmsh (.geo -> legacy .vtk) then gmsh_to_vtu.py (-> clean .vtu).
# Usage: cd data && bash make_meshes.sh      (needs gmsh and pvpython on PATH)
set -euo pipefail
cd "$(dirname "$0")"

GMSH=${GMSH:-gmsh}
PVPYTHON=${PVPYTHON:-pvpython}
GMSH_OPTS=(-format vtk -bin -nt 1 -v 2)    # single-threaded for reproducibility
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mesh() {  # name dim celltype [converter options]
    local name=$1 dim=$2 kind=$3
    shift 3
    "$GMSH" "$name.geo" "-$dim" "${GMSH_OPTS[@]}" -o "$tmp/$name.vtk"
    "$PVPYTHON" gmsh_to_vtu.py "$tmp/$name.vtk" "$name.vtu" "$kind" "$@"
}

mesh plate_with_holes 2 triangle
mesh sphere_surface   2 triangle --outward
mesh ball_tets        3 tetra
mesh hex_block        3 hexahedron
# A jittered, graded tetrahedral shell around a cylindrical hole (no gmsh): plain Laplacian
# smoothing inverts its cells (the inversion guard's tests).
"$PVPYTHON" ../testing/python/gpumesh_shell.py shell_tets.vtu
# gmsh's own Medit text, gmsh's numbering kept (testing/core/TestVertexOrder.cxx).
"$GMSH" plate_with_holes.geo -2 -clscale 2 -format mesh -nt 1 -v 2 -o plate_with_holes_coarse.mesh

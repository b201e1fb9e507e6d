#!/usr/bin/env bash
# Regenerate the GMF sample plate_with_holes.meshb: gmsh writes the mesh of ../plate_with_holes.geo
# as a text GMF file (vertex references: gmsh's entity tags; triangle references: the surface's
# tag), which GPUMesh's reader reads and its writer writes as binary GMF (version 2).
# Usage: cd data/gmf && bash make_gmf.sh   (needs gmsh, pvpython and a built GPUMesh plugin;
# set GPUMESH_PLUGIN if it is not in ../../build)
# every_kind.mesh and every_kind.sol are written by hand.
set -euo pipefail
cd "$(dirname "$0")"
GMSH=${GMSH:-gmsh}
PVPYTHON=${PVPYTHON:-pvpython}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$GMSH" ../plate_with_holes.geo -2 -format mesh -nt 1 -v 2 -o "$tmp/plate_with_holes.mesh"
PYTHONPATH=../../examples "$PVPYTHON" - "$tmp/plate_with_holes.mesh" plate_with_holes.meshb <<'PY'
import sys
from paraview import simple
import gpumesh_plugin
gpumesh_plugin.load(vars(simple))
simple.SaveData(sys.argv[2], proxy=simple.GMFMeshReader(FileName=sys.argv[1]), Version=2)
PY

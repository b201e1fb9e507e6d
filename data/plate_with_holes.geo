// Planar 4 x 2 rectangle in the z=0 plane with 3 circular holes; triangles only.
SetFactory("OpenCASCADE");
Rectangle(1) = {0, 0, 0, 4, 2};
Disk(2) = {0.8, 1.0, 0, 0.35};
Disk(3) = {2.0, 0.7, 0, 0.30};
Disk(4) = {3.1, 1.2, 0, 0.40};
BooleanDifference{ Surface{1}; Delete; }{ Surface{2, 3, 4}; Delete; }
Mesh.MeshSizeMin = 0.07;
Mesh.MeshSizeMax = 0.07;
Mesh.Algorithm = 6;          // Frontal-Delaunay
Mesh.RandomSeed = 1;
Physical Surface("plate") = Surface{:};

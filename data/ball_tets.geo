// Solid ball of radius 1 centred at the origin; tetrahedra only.
SetFactory("OpenCASCADE");
Sphere(1) = {0, 0, 0, 1};
Mesh.MeshSizeMin = 0.15;
Mesh.MeshSizeMax = 0.15;
Mesh.Algorithm = 6;
Mesh.Algorithm3D = 1;        // Delaunay
Physical Volume("ball") = Volume{:};

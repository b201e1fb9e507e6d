// Closed triangulated sphere surface of radius 1 centred at the origin; triangles only.
SetFactory("OpenCASCADE");
Sphere(1) = {0, 0, 0, 1};
Mesh.MeshSizeMin = 0.09;
Mesh.MeshSizeMax = 0.09;
Mesh.Algorithm = 6;
Physical Surface("sphere") = Surface{:};   // only the surface is meshed (Mesh -2)

// Structured hexahedral block 2 x 1.5 x 1 with 10 x 8 x 6 cells (transfinite + Recombine); hexahedra only.
Lx = 2.0; Ly = 1.5; Lz = 1.0;
Nx = 10; Ny = 8; Nz = 6;
Point(1) = {0, 0, 0, 1};
Point(2) = {Lx, 0, 0, 1};
Point(3) = {Lx, Ly, 0, 1};
Point(4) = {0, Ly, 0, 1};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Transfinite Curve{1, 3} = Nx + 1;
Transfinite Curve{2, 4} = Ny + 1;
Transfinite Surface{1};
Recombine Surface{1};
out[] = Extrude {0, 0, Lz} { Surface{1}; Layers{Nz}; Recombine; };
Physical Volume("block") = {out[1]};

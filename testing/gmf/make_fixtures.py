#!/usr/bin/env python3
"""Writes the hostile GMF fixtures of testing/gmf/fixtures (committed; rerun after a change here).

Each file is the smallest that shows one problem; TestGMFHostile.py says what the
reader must do with it, and gmf_replay (the sanitizer build) reads each of them and thousands
of mutations of them. Plain Python 3, no dependencies: python3 make_fixtures.py
"""
import os
import struct

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")

# libMeshb keyword codes
DIMENSION, VERTICES, EDGES, TRIANGLES, CORNERS, END = 3, 4, 5, 6, 13, 54


def write(name, data):
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(os.path.join(HERE, name), mode) as f:
        f.write(data)


def text(*lines):
    return "\n".join(lines) + "\n"


class Binary:
    """A little-endian binary GMF file: 32-bit integers up to version 3, 64-bit reals from 2,
    64-bit positions from 3. Each keyword's next position is right after its data."""

    def __init__(self, version):
        self.version = version
        self.position = "<q" if version >= 3 else "<i"
        self.integer = "<q" if version >= 4 else "<i"
        self.real = "<f" if version == 1 else "<d"
        self.data = bytearray(struct.pack("<ii", 1, version))

    def keyword(self, code, payload, last=False):
        header = 4 + struct.calcsize(self.position)
        after = 0 if last else len(self.data) + header + len(payload)
        self.data += struct.pack("<i", code) + struct.pack(self.position, after) + payload

    def dimension(self, value):
        self.keyword(DIMENSION, struct.pack("<i", value))

    def section(self, code, count, rows):
        """rows: tuples of reals then integers; `reals` of them reals (per row: len - integers)."""
        payload = struct.pack(self.integer, count)
        for reals, integers in rows:
            payload += b"".join(struct.pack(self.real, r) for r in reals)
            payload += b"".join(struct.pack(self.integer, i) for i in integers)
        self.keyword(code, payload)

    def end(self):
        self.keyword(END, b"", last=True)
        return bytes(self.data)


def main():
    os.makedirs(os.path.join(HERE, "memory"), exist_ok=True)

    # -- A repeated Dimension: lines indexed with one dimension, decoded with the other.
    # 3 then 2: the vertices are decoded as 2D points, 1.5x past the coordinate buffer.
    write("dimension_3_then_2.mesh", text(
        "MeshVersionFormatted 2", "Dimension 3", "Vertices", "4",
        "0 0 0 1", "1 0 0 1", "0 1 0 1", "0 0 1 1", "Dimension 2", "End"))
    # 2 then 3: the third coordinate is never written (garbage points, no error).
    write("dimension_2_then_3.mesh", text(
        "MeshVersionFormatted 2", "Dimension 2", "Vertices", "3",
        "0 0 1", "1 0 1", "0 1 1", "Dimension 3", "Triangles", "1", "1 2 3 0", "End"))
    b = Binary(2)
    b.dimension(3)
    b.section(VERTICES, 4, [((0, 0, 0), (1,)), ((1, 0, 0), (1,)), ((0, 1, 0), (1,)), ((0, 0, 1), (1,))])
    b.dimension(2)
    write("dimension_3_then_2.meshb", b.end())
    # The same through a solution: a 2D mesh, and a .sol whose vectors are indexed in 3D.
    write("dimension_3_then_2_solution.mesh", text(
        "MeshVersionFormatted 2", "Dimension 2", "Vertices", "3",
        "0 0 1", "1 0 1", "0 1 1", "Triangles", "1", "1 2 3 0", "End"))
    write("dimension_3_then_2_solution.sol", text(
        "MeshVersionFormatted 2", "Dimension 3", "SolAtVertices", "3", "1 2",
        "1 2 3", "4 5 6", "7 8 9", "Dimension 2", "End"))

    # A repeated MeshVersionFormatted (the layout of integers and reals depends on it).
    write("version_twice.mesh", text(
        "MeshVersionFormatted 4", "Dimension 3", "Vertices", "3", "0 0 0 8589934592", "1 0 0 0",
        "0 1 0 0", "MeshVersionFormatted 1", "End"))

    # -- Solution fields padded over every cell: 500 matrix fields at the one edge of a mesh of
    # 5,001 cells (5,000 corners) ask for 180 MB from 20 KB of files; 170 fields (61 MB) are
    # within the reader's bound (the allocation-failure test reads those under a memory limit;
    # in memory/, which the sanitizer replay leaves out: reading it thousands of times would
    # take most of its time).
    corners = 5000
    mesh = ["MeshVersionFormatted 2", "Dimension 3", "Vertices", "2", "0 0 0 0", "1 0 0 0",
            "Edges", "1", "1 2 0", "Corners", str(corners)]
    mesh += [str(1 + c % 2) for c in range(corners)]
    write("solution_fields_at_one_edge.mesh", text(*mesh, "End"))
    for name, fields in (("solution_fields_at_one_edge.sol", 500),
                         (os.path.join("memory", "solution_fields_within_bounds.sol"), 170)):
        write(name, text("MeshVersionFormatted 2", "Dimension 3", "SolAtEdges", "1",
                         str(fields) + " " + " ".join(["4"] * fields), " ".join(["0"] * (9 * fields)), "End"))

    # -- A section claiming more lines than lie before the next keyword: 4 vertices, 3 given,
    # then a Triangles keyword whose header and data would be decoded as the fourth vertex.
    b = Binary(2)
    b.dimension(3)
    vertices = [((0, 0, 0), (1,)), ((1, 0, 0), (1,)), ((0, 1, 0), (1,))]
    b.section(VERTICES, 4, vertices)
    b.section(TRIANGLES, 1, [((), (1, 2, 3, 0))])
    write("section_longer_than_keyword.meshb", b.end())
    # In text: 3 corners claimed, 2 given, then a keyword the reader does not index.
    write("section_longer_than_keyword.mesh", text(
        "MeshVersionFormatted 2", "Dimension 3", "Vertices", "3", "0 0 0 0", "1 0 0 0", "0 1 0 0",
        "Corners", "3", "1", "2", "RequiredVertices", "1", "1", "End"))

    # -- References beyond 32 bits in versions 1 to 3 (version 4 holds them).
    for version in (2, 4):
        write("reference_beyond_32_bits_vertex_v%d.mesh" % version, text(
            "MeshVersionFormatted %d" % version, "Dimension 3", "Vertices", "3",
            "0 0 0 0", "1 0 0 4294967297", "0 1 0 0", "Triangles", "1", "1 2 3 0", "End"))
    write("reference_beyond_32_bits_triangle_v2.mesh", text(
        "MeshVersionFormatted 2", "Dimension 3", "Vertices", "3",
        "0 0 0 0", "1 0 0 0", "0 1 0 0", "Triangles", "1", "1 2 3 -4294967296", "End"))

    # -- A UTF-8 byte order mark before the first keyword (Windows editors write one).
    write("byte_order_mark.mesh", b"\xef\xbb\xbf" + text(
        "MeshVersionFormatted 2", "Dimension 3", "Vertices", "3",
        "0 0 0 1", "1 0 0 2", "0 1 0 3", "Triangles", "1", "1 2 3 7", "End").encode())

    # -- A binary file of a version that does not exist (5): claimed by the reader, which
    # names the version.
    b = Binary(4)
    b.data[4:8] = struct.pack("<i", 5)
    b.dimension(3)
    write("version_5.meshb", b.end())


if __name__ == "__main__":
    main()

#!/usr/bin/env bash
# Installs the Debian 12 packages GPUMesh needs, then configures and builds it in ./build.
# Used by README command 1 and by CI. Run as root (or with sudo available).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  # ParaView and the libraries its CMake package looks for (see ../shared/SETUP.md)
  paraview paraview-dev python3-paraview
  qtbase5-dev qttools5-dev qttools5-dev-tools qtxmlpatterns5-dev-tools
  libqt5svg5-dev libqt5x11extras5-dev libutfcpp-dev
  libopenmpi-dev python3-dev python3-mpi4py libhdf5-openmpi-dev
  libdouble-conversion-dev liblz4-dev libgdal-dev libgl2ps-dev libglew-dev
  libnetcdf-dev libtheora-dev libtiff-dev
  libavformat-dev libavcodec-dev libavutil-dev libswscale-dev
  # OpenCL: headers, loader, and PoCL as the CPU device of machines without a GPU
  pocl-opencl-icd ocl-icd-opencl-dev opencl-clhpp-headers opencl-headers clinfo
  # build and test tools
  cmake ninja-build g++ libgtest-dev openmpi-bin python3-numpy gmsh xvfb xauth
  # the GMF tests compare with meshio's reading and writing of the same files
  python3-meshio
  # GUI tests: screenshots of the whole window (import) and their downscaled copies in docs/
  imagemagick
)

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing ${#missing[@]} Debian packages..."
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build

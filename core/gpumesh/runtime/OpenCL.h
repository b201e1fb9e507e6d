// The one place that includes OpenCL-CLHPP, so every file agrees on its configuration.
#pragma once
#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#endif
// Errors are return codes checked by gpumesh::check, which adds what was being done.
#include <CL/opencl.hpp>

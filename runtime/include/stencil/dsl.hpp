// stencil/dsl.hpp - the stencilc DSL: write the update of one grid point.
//
// A program that includes only this header builds with any C++17 compiler and
// runs its stencils serially (HostLoopEngine*): that run is the reference.
// Built through stencilc (CMake: stencilc_add_sources), the same program runs
// generated OpenMP or CUDA code for the engine it names.
#ifndef STENCIL_DSL_HPP
#define STENCIL_DSL_HPP

// STENCIL_KERNEL marks a stencil (a free function or a functor struct) for
// stencilc; a stencil that a file passes to a loop's run() is one without it.
// stencilc defines __STENCILC__ while it parses; other compilers see
// nothing, so the program stays plain C++.
#if defined(__STENCILC__)
#define STENCIL_KERNEL __attribute__((annotate("stencilc.stencil")))
#else
#define STENCIL_KERNEL
#endif

// STENCIL_HD lets seed-style functors compile for host and device with nvcc.
#if defined(__CUDACC__)
#define STENCIL_HD __host__ __device__
#else
#define STENCIL_HD
#endif

#include <stencil/auto_engine.hpp>
#include <stencil/device.hpp>
#include <stencil/generated_engine.hpp>
#include <stencil/host_engine.hpp>
#include <stencil/index.hpp>
#include <stencil/loop.hpp>
#include <stencil/step.hpp>

#endif // STENCIL_DSL_HPP

// stencil/seed_compat.hpp - the seed framework's names, for porting its code.
//
// Code written for the seed framework (seed 000/001: unqualified Loop3D,
// HostLoopEngine3D, DeviceLoopEngine3D, DeviceAutoTuningLoopEngine3D,
// DeviceAutoTuningInfo, ArrayIndex3D, functors under `__host__ __device__`,
// helpers under `__forceinline__`; seed 001's Domain, BoundaryExchange and
// CompCommBinder with <stencil/mpi.hpp>)
// builds with this header in place of the seed's own, with g++ alone or
// through stencilc_add_sources. See docs/porting.md.
#ifndef STENCIL_SEED_COMPAT_HPP
#define STENCIL_SEED_COMPAT_HPP

// Outside nvcc (g++, clang, stencilc) the CUDA function qualifiers of the
// seed's functors mean nothing: every stencil runs on the host there, and
// stencilc generates the device code itself.
#if !defined(__CUDACC__)
#if !defined(__host__)
#define __host__
#endif
#if !defined(__device__)
#define __device__
#endif
#if !defined(__forceinline__)
#define __forceinline__ inline
#endif
#endif

#include <stencil/autotuning_engine.hpp>
#include <stencil/dsl.hpp>

// At global scope, as the seed's code writes them. Loop2D/3D/4D are the
// class templates themselves, so `Loop3D loop(...)` picks AutoLoopEngine.
using stencil::AutoLoopEngine2D;
using stencil::AutoLoopEngine3D;
using stencil::AutoLoopEngine4D;
using stencil::DeviceAutoTuningInfo;
using stencil::DeviceAutoTuningLoopEngine2D;
using stencil::DeviceAutoTuningLoopEngine3D;
using stencil::DeviceLoopEngine2D;
using stencil::DeviceLoopEngine3D;
using stencil::DeviceLoopEngine4D;
using stencil::HostLoopEngine2D;
using stencil::HostLoopEngine3D;
using stencil::HostLoopEngine4D;
using stencil::Loop2D;
using stencil::Loop3D;
using stencil::Loop4D;
using stencil::LoopRange;
using stencil::OpenMPLoopEngine2D;
using stencil::OpenMPLoopEngine3D;
using stencil::OpenMPLoopEngine4D;

// Seed 001's Domain, BoundaryExchange and CompCommBinder where the
// distributed runtime is included (<stencil/mpi.hpp> adds them when it comes
// after this header).
#ifdef STENCIL_MPI_HPP
#include <stencil/seed_compat_mpi.hpp>
#endif

#endif // STENCIL_SEED_COMPAT_HPP

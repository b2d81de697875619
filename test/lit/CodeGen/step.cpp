// A step's plan and code: a flux and its divergence fused by recomputation
// (the divergence recomputes the flux where it reads it, and reads the array
// where an offset leaves the region), and a stencil after it through its own
// launcher. --step-strategy=multi-kernel runs each stencil's own launcher.
// RUN: %stencilc %s --emit=plan -o - -- -I %mock_include | FileCheck %s --check-prefix=PLAN
// RUN: %stencilc %s --emit=cpu --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=CPU
// RUN: %stencilc %s --emit=cuda --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=CUDA
// RUN: %stencilc %s --emit=plan --step-strategy=multi-kernel -o - -- -I %mock_include | FileCheck %s --check-prefix=MULTI
// RUN: not %stencilc %s --step-strategy=fastest -- -I %mock_include 2>&1 | FileCheck %s --check-prefix=BAD
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL Flux {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *fx) const {
    fx[idx.ix()] = 0.5f * (u[idx.ix<1, 0, 0>()] + u[idx.ix()]);
  }
};
struct STENCIL_KERNEL Divergence {
  STENCIL_HD void operator()(const stencil::Index3D &idx, float dt, const float *fx,
                             const float *u, float *un) const {
    un[idx.ix()] = u[idx.ix()] + dt * (fx[idx.ix()] + fx[idx.ix<-1, 0, 0>()]);
  }
};
STENCIL_KERNEL
void copy(const stencil::Index3D &idx, const float *a, float *b) { b[idx.ix()] = a[idx.ix()]; }

STENCIL_STEP
void advance(stencil::Step3D &s, double dt, const float *u, float *fx, float *un, float *out) {
  s.run(Flux(), u, fx);
  s.run(Divergence(), dt, fx, u, un);
  s.run(copy, un, out);
}

// PLAN:      step advance ({{.*}}step.cpp:27), 3-D, 3 stencils
// PLAN-NEXT:   recompute: 0 Flux 1 Divergence (cost 5.33e+03, staged 5.33e+03, multi-kernel 6.67e+03); recomputes fx; also compiled staged (CUDA), for the runtime to measure
// PLAN-NEXT:   multi-kernel: 2 copy (cost 2.67e+03)
// Over ranks the fused group reads u one point further left (Divergence reads
// fx at i-1, where Flux reads u at i-1 and i); un is read only at the centre.
// PLAN-NEXT:   over ranks, before group 0: u exchanged (x -1..+1)
// PLAN-NOT:    over ranks

// MULTI:      step advance
// MULTI-NEXT:   multi-kernel: 0 Flux (cost 2.67e+03)
// MULTI-NEXT:   multi-kernel: 1 Divergence (cost 4e+03)
// MULTI-NEXT:   multi-kernel: 2 copy (cost 2.67e+03)

// BAD: stencilc: error: unknown --step-strategy 'fastest' (expected auto, multi-kernel, recompute or staged)

// CPU:      void advance(stencil::Step<3> &, double, const float *, float *, float *, float *);
// CPU:      // What 'Flux' stores to 'fx' at point (i, j, k).
// CPU-NEXT: static inline float stencilc_step_advance_g0_recompute3(const stencil::Grid &g, const long long i, const long long j, const long long k, const float * u) {
// CPU:        float stencilc_r{};
// CPU-NEXT:   stencilc_r = 0.5f * (u[c + 1] + u[c]);
// CPU-NEXT:   return stencilc_r;
// CPU:      static const char *stencilc_step_advance_openmp(
// CPU-NEXT:   {{\[\[maybe_unused\]\]}} const double stencilc_s1 = *static_cast<const double *>(args[0]);
// CPU:        const stencil::Region &v = r; // one domain: recomputed within it
// CPU:        { // fused by recomputation
// CPU:            { // 'Flux' at this point
// CPU:              fx[c] = 0.5f * (u[c + 1] + u[c]);
// CPU:            { // 'Divergence' at this point, recomputing what 'Flux' stores where it reads it
// CPU-NEXT:         const float dt = static_cast<float>(stencilc_s1);
// At the point itself the consumer loads what the producer just stored.
// CPU:              un[c] = u[c] + (dt * (fx[c] + (i - 1 >= v.lo[0] ? stencilc_step_advance_g0_recompute3(g, i - 1, j, k, stencilc_s2) : fx[c - 1])));
// CPU:        { // 'copy'
// CPU-NEXT:     const float * stencilc_v1 = stencilc_s4;
// CPU-NEXT:     float * stencilc_v2 = stencilc_s5;
// CPU-NEXT:     void *stencilc_a[] = {&stencilc_v1, &stencilc_v2};
// CPU-NEXT:     if (const char *stencilc_e = stencilc_copy_openmp(g, r, cfg, stencilc_a))
// The distributed runtime's launcher of the fused group, and its rounds:
// the fused group after exchanging u, then the copy alone.
// CPU:      static const char *stencilc_step_advance_openmp_group(int group, const stencil::Grid &g, const stencil::Region &r, {{\[\[}}maybe_unused]] const stencil::Region &v, const stencil::LaunchConfig &cfg, void *const *args) {
// CPU:          case 0:
// CPU:            { // fused by recomputation
// CPU:          default:
// CPU-NEXT:       return "no such group of the step";
// CPU:      static const stencil::GeneratedStepHalo stencilc_step_advance_round0[] = {
// CPU-NEXT:     {1, {{[{][{]}}1, 1}, {0, 0}, {0, 0}, {0, 0}}, false, true, {{[{][{]}}1, 1}, {0, 0}, {0, 0}, {0, 0}}, false},
// CPU-NEXT: };
// CPU-NEXT: static const char *const stencilc_step_advance_call_names[] = {
// CPU-NEXT:     "Flux",
// CPU-NEXT:     "Divergence",
// CPU-NEXT:     "copy",
// CPU-NEXT: };
// CPU-NEXT: static const int stencilc_step_advance_round0_calls[] = {0, 1};
// CPU-NEXT: static const int stencilc_step_advance_round0_recomputed[] = {2};
// CPU-NEXT: static const stencil::GeneratedStepRound stencilc_step_advance_rounds[] = {
// CPU-NEXT:     {-1, 0, {{[{][{]}}1, 1}, {0, 0}, {0, 0}, {0, 0}}, stencilc_step_advance_round0, 1, "recompute(Flux, Divergence)", stencilc_step_advance_round0_calls, 2, stencilc_step_advance_round0_recomputed, 1, 0u, -1, nullptr, 1},
// CPU-NEXT:     {2, -1, {{[{][{]}}0, 0}, {0, 0}, {0, 0}, {0, 0}}, nullptr, 0, "copy", nullptr, 0, nullptr, 0, 0u, -1, nullptr, 0},
// CPU-NEXT: };
// Each parameter's dimensions: dt is a scalar, the arrays span x, y and z.
// CPU-NEXT: static const unsigned stencilc_step_advance_array_axes[] = {0u, 7u, 7u, 7u, 7u};
// Which the calls write: fx, un and out, not dt or u.
// CPU-NEXT: static const bool stencilc_step_advance_writes[] = {false, false, true, true, true};
// CPU:        /*plan=*/"recompute(Flux, Divergence), multi-kernel(copy)",
// CPU:        /*launchGroup=*/&stencilc_step_advance_openmp_group,
// CPU-NEXT:   /*rounds=*/stencilc_step_advance_rounds,
// CPU-NEXT:   /*roundCount=*/2,
// CPU-NEXT:   /*callNames=*/stencilc_step_advance_call_names,
// CPU-NEXT:   /*irHash=*/"{{[0-9a-f]+}}",
// CPU-NEXT:   /*arrayAxes=*/stencilc_step_advance_array_axes,
// CPU-NEXT:   /*writes=*/stencilc_step_advance_writes});

// CUDA:      __device__ __forceinline__ float stencilc_step_advance_g0_recompute3(const stencil::Grid &g, const long long i, const long long j, const long long k, const float *__restrict__ u) {
// CUDA:      __global__ void __launch_bounds__(256, 5) stencilc_step_advance_g0(const stencil::Grid g, const stencil::Region r, const stencil::Region v, const bool stencilc_zfirst, double stencilc_s1, const float *__restrict__ stencilc_s2, float *__restrict__ stencilc_s3, float *__restrict__ stencilc_s4, float *__restrict__ stencilc_s5) {
// CUDA:      static const char *stencilc_step_advance_cuda_launch(
// The fused group reads nothing above or below a point: plane by plane.
// CUDA:        const bool stencilc_zfirst = false;
// CUDA:        stencilc_step_advance_g0<<<grid, block, 0, static_cast<cudaStream_t>(cfg.stream)>>>(g, r, v, stencilc_zfirst, stencilc_s1, stencilc_s2, stencilc_s3, stencilc_s4, stencilc_s5);
// The copy through its default variant's launcher and block.
// CUDA:        stencil::LaunchConfig stencilc_cfg2 = cfg;
// CUDA-NEXT:   stencilc_cfg2.block[0] = 128;
// CUDA:        if (const char *stencilc_e = stencilc_copy_zmarch2_cuda_launch(g, r, stencilc_cfg2, stencilc_a))
// CUDA:      stencil::registerGeneratedStep(

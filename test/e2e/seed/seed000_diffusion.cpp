// seed000_diffusion.cpp - the seed paper's listings, ported by changing the
// include only (issue 10, item 12).
//
// The functor and the three Loop3D listings below are seed 000's (the seed
// framework paper, sections 2.1, 2.2, 3.1 and 3.2), copied as printed except
// for two repairs of the paper's transcription: the closing brackets of the
// f[...] accesses, lost in the extracted text (`f[idx.ix<1,0,0>()+cw*...`),
// are restored, and the stray `+` before the final `;` is dropped. Nothing
// else is changed: no STENCIL_KERNEL, a non-const operator() under
// `__host__ __device__`, unqualified names. main() is ours: it declares the
// listings' variables and checks every engine against HostLoopEngine3D.
//
//   seed000_diffusion            host memory: Loop3D without an engine runs
//                                the generated OpenMP code; equal to the host
//   seed000_diffusion --device   GPU memory: Loop3D without an engine,
//                                DeviceLoopEngine3D and
//                                DeviceAutoTuningLoopEngine3D (exit 77 without a GPU)
//   seed000_diffusion --host-only  g++ alone: Loop3D without an engine runs
//                                the host engine
#include <stencil/seed_compat.hpp> // the seed framework's header, replaced

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

// ---- seed 000, section 2.1 (listing as printed, brackets restored) ----
struct Diffusion3d {
  __host__ __device__
  void operator()(const ArrayIndex3D &idx,
    float ce, float cw, float cn, float cs,
    float ct, float cb, float cc,
    const float *f, float *fn) {
    fn[idx.ix()] = cc*f[idx.ix()]
    +ce*f[idx.ix<1,0,0>()]+cw*f[idx.ix<-1,0,0>()]
    +cn*f[idx.ix<0,1,0>()]+cs*f[idx.ix<0,-1,0>()]
    +ct*f[idx.ix<0,0,1>()]+cb*f[idx.ix<0,0,-1>()];
  }
};
// ---- end of the listing ----

namespace {
const int nx = 37, ny = 19, nz = 11, mgnx = 1, mgny = 1, mgnz = 1;
const float ce = 0.11f, cw = 0.12f, cn = 0.13f, cs = 0.14f, ct = 0.15f, cb = 0.16f,
            cc = 1.0f - (ce + cw + cn + cs + ct + cb);
const std::size_t count = std::size_t(nx + 2 * mgnx) * (ny + 2 * mgny) * (nz + 2 * mgnz);

std::vector<float> input() {
  std::vector<float> In(count);
  for (std::size_t I = 0; I < count; ++I)
    In[I] = float((I * 7919) % 1000) / 1000.0f;
  return In;
}

/// Seed 000, section 3.1: the host engine, the reference.
std::vector<float> reference() {
  std::vector<float> In = input(), Out(count, -1.0f);
  const float *f = In.data();
  float *fn = Out.data();
  Loop3D<HostLoopEngine3D>
      loop3d(nx+2*mgnx, mgnx, mgnx,
            ny+2*mgny, mgny, mgny,
            nz+2*mgnz, mgnz, mgnz);
  loop3d.run(Diffusion3d(), ce, cw, cn, cs,
            ct, cb, cc, f, fn);
  return Out;
}

/// Seed 000, section 2.2: Loop3D without an engine, on \p f and \p fn.
void runAutomatic(const float *f, float *fn) {
  Loop3D loop3d(nx+2*mgnx, mgnx, mgnx,
    ny+2*mgny, mgny, mgny,
    nz+2*mgnz, mgnz, mgnz);
  loop3d.run(Diffusion3d(), ce, cw, cn, cs,
    ct, cb, cc, f, fn);
}

int compare(const char *What, const std::vector<float> &Got, const std::vector<float> &Want,
            float Tolerance) {
  for (std::size_t I = 0; I < count; ++I)
    if (!(std::fabs(Got[I] - Want[I]) <= Tolerance)) {
      std::printf("%s: point %zu is %.9g, the host engine gives %.9g\n", What, I, Got[I], Want[I]);
      return 1;
    }
  std::printf("%s: equal to the host engine\n", What);
  return 0;
}

int onHost(bool Generated) {
  if (Generated != (stencil::generatedFor(stencil::Backend::OpenMP, Diffusion3d()) != nullptr)) {
    std::printf(Generated ? "no generated OpenMP code for Diffusion3d: stencilc did not take "
                            "the unannotated functor passed to run()\n"
                          : "unexpected generated code in a g++-alone build\n");
    return 1;
  }
  std::vector<float> In = input(), Out(count, -1.0f);
  runAutomatic(In.data(), Out.data());
  // Generated OpenMP code is bit-exact with the host engine.
  return compare(Generated ? "Loop3D (auto, host memory: openmp)" : "Loop3D (auto, host engine)",
                 Out, reference(), 0.0f);
}

int onDevice() {
  if (!stencil::deviceAvailable()) {
    std::printf("no GPU: the device listings are not run\n");
    return 77;
  }
  const std::vector<float> Want = reference(), In = input();
  // CUDA may contract a*b+c into an FMA: a few ulps.
  const float Tolerance = 1e-5f;
  int Failed = 0;
  auto check = [&](const char *What, auto &&Run) {
    stencil::DeviceArray<float> F(count), FN(count);
    F.upload(In.data());
    std::vector<float> Init(count, -1.0f), Out(count);
    FN.upload(Init.data());
    const float *f = F.data();
    float *fn = FN.data();
    Run(f, fn);
    stencil::deviceSynchronize();
    FN.download(Out.data());
    Failed |= compare(What, Out, Want, Tolerance);
  };
  check("Loop3D (auto, device memory: cuda)", [](const float *f, float *fn) { runAutomatic(f, fn); });
  check("Loop3D<DeviceLoopEngine3D>", [](const float *f, float *fn) {
    Loop3D<DeviceLoopEngine3D> loop3d(nx+2*mgnx, mgnx, mgnx,
                                      ny+2*mgny, mgny, mgny,
                                      nz+2*mgnz, mgnz, mgnz);
    loop3d.run(Diffusion3d(), ce, cw, cn, cs,
              ct, cb, cc, f, fn);
  });
  check("Loop3D<DeviceAutoTuningLoopEngine3D>", [](const float *f, float *fn) {
    // Seed 000, section 3.2; called until the tuner has timed its candidates.
    DeviceAutoTuningInfo info;
    Loop3D<DeviceAutoTuningLoopEngine3D>
        loop3d(nx+2*mgnx, mgnx, mgnx,
              ny+2*mgny, mgny, mgny,
              nz+2*mgnz, mgnz, mgnz);
    for (int step = 0; step < 40; ++step)
      loop3d.run(Diffusion3d(), &info, ce, cw, cn, cs,
                ct, cb, cc, f, fn);
  });
  return Failed;
}
} // namespace

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "";
  if (std::strcmp(Mode, "--device") == 0)
    return onDevice();
  return onHost(std::strcmp(Mode, "--host-only") != 0);
}

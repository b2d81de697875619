// stencil/default_launch.hpp - what the fixed CUDA engine launches.
//
// stencilc's plan marks one variant per stencil with the block its cost
// model predicts best (GeneratedStencil::defaultBlock). DeviceLoopEngine
// launches that variant without tuning, its block narrowed to the region:
// a thread block wider than the region's x extent idles its extra threads,
// so x shrinks to the extent (a power of two, at least 8) and y grows to
// keep the block's thread count; a chunk longer than the marching extent
// shrinks to it. A 3-D region narrower than NarrowX in x takes the grid
// variant instead, at (8,32,1) widened like the others: on an H100 no
// marching kernel came within 10% of it on an 8-wide slab with padded rows
// (docs/performance.md), and it stays within 10% of them with tight rows.
#ifndef STENCIL_DEFAULT_LAUNCH_HPP
#define STENCIL_DEFAULT_LAUNCH_HPP

#include <stencil/generated.hpp>
#include <string>
#include <vector>

namespace stencil {

namespace detail {
/// The smallest power of two >= \p N (N >= 1), capped at \p Cap.
inline int powerOfTwoAtLeast(long long N, int Cap) {
  int P = 1;
  while (P < N && P < Cap)
    P *= 2;
  return P;
}
} // namespace detail

/// Regions narrower than this in x (3-D) launch the grid variant.
constexpr long long NarrowX = 16;
/// Points of a plane that fill the GPU without further chunks (a quarter of
/// the threads an H100 keeps resident, at two points per thread).
constexpr long long MinPlanePoints = 131072;

/// The entry and launch configuration the fixed engine uses for a region.
struct DefaultLaunchChoice {
  const GeneratedStencil *entry = nullptr;
  int block[3] = {64, 4, 1};
};

/// \p Default's block (its defaultBlock) adapted to \p R; see above.
inline DefaultLaunchChoice adaptDefaultLaunch(const GeneratedStencil &Default,
                                              const Region &R) {
  DefaultLaunchChoice C;
  C.entry = &Default;
  for (int D = 0; D < 3; ++D)
    C.block[D] = Default.defaultBlock[D];
  const long long Nx = R.hi[0] - R.lo[0];
  const long long Ny = Default.dims >= 2 ? R.hi[1] - R.lo[1] : 1;
  const int Threads = C.block[0] * C.block[1];
  if (Nx > 0 && Nx < C.block[0]) {
    C.block[0] = detail::powerOfTwoAtLeast(Nx < 8 ? 8 : Nx, C.block[0]);
    // zmarch2 and zsum put two points per thread along y (3-D), zsum4 four.
    const std::string Variant = Default.variant;
    const bool Marching = Default.marchDim >= 0 && Default.dims == 3;
    const int PerThread = !Marching                                   ? 1
                          : Variant == "zsum4"                        ? 4
                          : Variant == "zmarch2" || Variant == "zsum" ? 2
                                                                      : 1;
    const int WantY = Threads / C.block[0];
    const int Rows =
        detail::powerOfTwoAtLeast((Ny + PerThread - 1) / PerThread, WantY);
    C.block[1] = Default.dims >= 2 && Rows > C.block[1] ? Rows : C.block[1];
  }
  if (Default.marchDim >= 0) {
    const long long March = R.hi[Default.marchDim] - R.lo[Default.marchDim];
    if (March > 0 && March < C.block[2])
      C.block[2] = static_cast<int>(March);
    // A short chunk pays over many layers of chunks: its warm-up loads were
    // made by the layer before and are still in the L2 cache. A marching
    // extent of a few chunks, over a plane that alone has threads enough,
    // is marched in one chunk instead (512x512x8 f32 on an H100: 0.0086 ms
    // with chunk 2, 0.0067-0.0080 ms with 8).
    const long long Plane = Nx * (Default.dims == 3 ? Ny : 1);
    if (March > C.block[2] && March <= 4LL * C.block[2] &&
        Plane >= MinPlanePoints)
      C.block[2] = static_cast<int>(March);
  }
  return C;
}

/// The variant of \p Variants (one stencil's entries, the grid first) that
/// the plan marked, with its block adapted to \p R; the first entry with
/// \p Fallback's block when none is marked (code from an older stencilc).
inline DefaultLaunchChoice
chooseDefaultLaunch(const std::vector<const GeneratedStencil *> &Variants,
                    const Region &R, const LaunchConfig &Fallback) {
  for (const GeneratedStencil *E : Variants)
    if (E->defaultBlock[0] > 0 && E->defaultBlock[1] > 0 &&
        E->defaultBlock[2] > 0) {
      const long long Nx = R.hi[0] - R.lo[0];
      const GeneratedStencil *Grid = Variants.front();
      if (E->dims == 3 && E->marchDim >= 0 && Nx > 0 && Nx < NarrowX &&
          Grid->marchDim < 0) {
        GeneratedStencil Narrow = *Grid;
        Narrow.defaultBlock[0] = 8;
        Narrow.defaultBlock[1] = 32;
        Narrow.defaultBlock[2] = 1;
        DefaultLaunchChoice C = adaptDefaultLaunch(Narrow, R);
        C.entry = Grid;
        return C;
      }
      return adaptDefaultLaunch(*E, R);
    }
  DefaultLaunchChoice C;
  C.entry = Variants.empty() ? nullptr : Variants.front();
  for (int D = 0; D < 3; ++D)
    C.block[D] = Fallback.block[D];
  return C;
}

} // namespace stencil

#endif // STENCIL_DEFAULT_LAUNCH_HPP

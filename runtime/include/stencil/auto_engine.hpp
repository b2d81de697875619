// stencil/auto_engine.hpp - AutoLoopEngine*: host or GPU by where the data is.
#ifndef STENCIL_AUTO_ENGINE_HPP
#define STENCIL_AUTO_ENGINE_HPP

#include <stencil/device.hpp>
#include <stencil/generated_engine.hpp>
#include <stencil/host_engine.hpp>
#include <stencil/loop.hpp>
#include <stencil/loop_range.hpp>
#include <type_traits>
#include <utility>

namespace stencil {

namespace detail {
/// The first argument that is a pointer, or null.
inline const void *firstPointer() { return nullptr; }
template <typename A, typename... Rest>
const void *firstPointer(const A &Arg, const Rest &...R) {
  if constexpr (std::is_pointer_v<A>)
    return static_cast<const void *>(Arg);
  else
    return firstPointer(R...);
}
} // namespace detail

/// The engine of a Loop2D/3D/4D without one (seed 000): the first pointer
/// among the stencil's arguments decides. GPU memory runs stencilc's CUDA
/// code (DeviceLoopEngine); host memory runs the generated OpenMP code when
/// it is linked in, else the serial host engine.
template <int Dims> class AutoLoopEngine {
public:
  explicit AutoLoopEngine(LoopRanges<Dims> Ranges) : r_(Ranges) {}

  template <typename StencilT, typename... Args>
  void operator()(const StencilT &S, Args &&...A) {
    if (isDevicePointer(detail::firstPointer(A...)))
      GeneratedLoopEngine<Dims, Backend::Cuda>{r_}(S, std::forward<Args>(A)...);
    else if (generatedFor(Backend::OpenMP, S))
      GeneratedLoopEngine<Dims, Backend::OpenMP>{r_}(S,
                                                     std::forward<Args>(A)...);
    else
      HostLoopEngine<Dims>{r_}(S, std::forward<Args>(A)...);
  }

  /// Loop::repeat, on the engine the first array's memory picks.
  template <typename StencilT, typename... Args>
  void repeat(long long Steps, const StencilT &S, Args &&...A) {
    if (isDevicePointer(detail::firstPointer(detail::levelValue(A)...)))
      GeneratedLoopEngine<Dims, Backend::Cuda>{r_}.repeat(Steps, S, A...);
    else {
      detail::checkLevelMarks<Args...>(
          detail::lookupGenerated(Backend::OpenMP, S),
          detail::signatureOf(
              typename detail::StencilTraits<StencilT>::Params()));
      detail::repeatOneByOne(
          Steps,
          [&](auto &&...V) { (*this)(S, std::forward<decltype(V)>(V)...); },
          A...);
    }
  }
  static constexpr bool repeatTag = true;

private:
  const LoopRange *r_;
};

using AutoLoopEngine2D = AutoLoopEngine<2>;
using AutoLoopEngine3D = AutoLoopEngine<3>;
using AutoLoopEngine4D = AutoLoopEngine<4>;

} // namespace stencil

#endif // STENCIL_AUTO_ENGINE_HPP

// stencil/host_engine.hpp - HostLoopEngine*: the serial reference.
#ifndef STENCIL_HOST_ENGINE_HPP
#define STENCIL_HOST_ENGINE_HPP

#include <stdexcept>
#include <stencil/index.hpp>
#include <stencil/loop_range.hpp>
#include <stencil/stencil_traits.hpp>
#include <stencil/type_name.hpp>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>

namespace stencil {

namespace detail {
/// How the host engine holds an argument \p A for a parameter \p P: a
/// scalar by a copy whose value the optimiser cannot see (runTimeValue),
/// anything else, and a scalar the stencil takes by non-const reference, by
/// reference.
template <typename P, typename A>
using HostArgument =
    std::conditional_t<std::is_arithmetic_v<std::remove_reference_t<A>> &&
                           !(std::is_lvalue_reference_v<P> &&
                             !std::is_const_v<std::remove_reference_t<P>>),
                       std::remove_cv_t<std::remove_reference_t<A>>, A &>;

/// \p V, read through a volatile: a literal passed to run() is a value known
/// at run time to the inlined stencil, as the generated code gets it from its
/// argument array. Seen as a constant, GCC evaluates tanh(0.7f) with MPFR or
/// turns pow(x, 2) into x * x, and glibc's results differ in the last bit.
template <typename P, typename A> HostArgument<P, A> runTimeValue(A &V) {
  if constexpr (std::is_reference_v<HostArgument<P, A>>) {
    return V;
  } else {
    const volatile HostArgument<P, A> Hidden = V;
    return Hidden;
  }
}

/// The arguments \p A as the host engine passes them to a stencil of
/// parameters \p P (by reference all, where they do not match: the call
/// then says why).
template <typename... P, typename... Args>
auto hostArguments(ParamList<P...>, Args &...A) {
  if constexpr (sizeof...(P) == sizeof...(Args))
    return std::tuple<HostArgument<P, Args>...>(runTimeValue<P, Args>(A)...);
  else
    return std::tuple<Args &...>(A...);
}
template <typename StencilT, typename... Args> auto hostArguments(Args &...A) {
  if constexpr (std::is_function_v<std::remove_pointer_t<StencilT>> ||
                HasCallOperator<StencilT>::value)
    return hostArguments(typename StencilTraits<StencilT>::Params(), A...);
  else // (a generic lambda, say: no one signature)
    return std::tuple<Args &...>(A...);
}

/// Refuses a null array: argument \p Position after the index.
template <typename StencilT, typename A>
void checkHostArgument(const StencilT &S, const A &Arg, int Position) {
  bool Null = false;
  if constexpr (std::is_null_pointer_v<A>)
    Null = true;
  else if constexpr (std::is_pointer_v<A>)
    Null = Arg == nullptr;
  if (Null)
    throw std::invalid_argument("stencil: " + stencilDisplayName(S) +
                                ": argument " + std::to_string(Position) +
                                " (after the index; an array) is null");
}

/// Refuses one array (the same pointer) for two parameters \p P of which
/// either is writable, a pointer to non-const: the serial loop would read
/// what it has already written at other points. The generated engines
/// refuse it where the stencil writes either (they know which it writes);
/// the reference takes every writable parameter as written.
template <typename StencilT, typename... P, typename... Args>
void checkHostAliasing(const StencilT &S, ParamList<P...>, const Args &...A) {
  if constexpr (sizeof...(P) == sizeof...(Args) && sizeof...(P) > 1) {
    const void *Arrays[] = {arrayAddress(A)...};
    constexpr bool Writable[] = {
        std::is_pointer_v<std::remove_reference_t<P>> &&
        !std::is_const_v<std::remove_pointer_t<std::remove_reference_t<P>>>...};
    for (std::size_t I = 0; I < sizeof...(P); ++I)
      for (std::size_t J = I + 1; J < sizeof...(P); ++J)
        if (Arrays[I] && Arrays[I] == Arrays[J] && (Writable[I] || Writable[J]))
          throw std::invalid_argument(
              "stencil: " + stencilDisplayName(S) + ": arguments " +
              std::to_string(I + 1) + " and " + std::to_string(J + 1) +
              " (after the index) are one array, and argument " +
              std::to_string(Writable[J] ? J + 1 : I + 1) +
              " is writable (a pointer to non-const): the loop would read "
              "what it writes (pass the array once to update it in "
              "place)");
  }
}
template <typename StencilT, typename... Args>
void checkHostAliasing(const StencilT &S, const Args &...A) {
  if constexpr (std::is_function_v<std::remove_pointer_t<StencilT>> ||
                HasCallOperator<StencilT>::value)
    checkHostAliasing(S, typename StencilTraits<StencilT>::Params(), A...);
}
} // namespace detail

/// Calls the user's own function at every point, x fastest. This is what
/// every generated variant is checked against: it refuses null arrays and
/// throws AccessError naming the stencil and the access (never reading it)
/// where an access falls outside the arrays' extents.
template <int Dims> class HostLoopEngine {
public:
  explicit HostLoopEngine(LoopRanges<Dims> Ranges) : r_(Ranges) {}

  /// A functor is called on a copy, as the seed framework's engines take it
  /// by value: its operator() need not be const.
  template <typename StencilT, typename... Args>
  void operator()(const StencilT &Stencil, Args &&...A) const {
    if constexpr (std::is_pointer_v<StencilT>)
      if (!Stencil) // run(nullptr, ...) or an unset function pointer
        throw std::invalid_argument(
            "stencil: the stencil is a null function pointer");
    int Position = 0;
    (detail::checkHostArgument(Stencil, A, ++Position), ...);
    (void)Position;
    detail::checkHostAliasing(Stencil, A...);
    auto Values = detail::hostArguments<StencilT, Args...>(A...);
    try {
      std::apply(
          [&](auto &...V) {
            if constexpr (std::is_class_v<StencilT>) {
              StencilT Copy(Stencil);
              each(Copy, V...);
            } else {
              each(Stencil, V...);
            }
          },
          Values);
    } catch (const AccessError &E) {
      throw AccessError("stencil: " + detail::stencilDisplayName(Stencil) +
                        ": " + E.what());
    }
  }

private:
  template <typename F, typename... Args>
  void each(F &Stencil, Args &...A) const {
    Index<Dims> Idx = makeIndex(std::make_integer_sequence<int, Dims>());
    int P[4] = {r_[0].begin, r_[1].begin, Dims > 2 ? r_[2].begin : 0,
                Dims > 3 ? r_[3].begin : 0};
    if (empty())
      return;
    for (;;) {
      setPos(Idx, P, std::make_integer_sequence<int, Dims>());
      Stencil(Idx, A...);
      int D = 0;
      while (D < Dims && ++P[D] == r_[D].end) {
        P[D] = r_[D].begin;
        ++D;
      }
      if (D == Dims)
        return;
    }
  }

  bool empty() const {
    for (int D = 0; D < Dims; ++D)
      if (r_[D].begin >= r_[D].end)
        return true;
    return false;
  }
  template <int... D>
  Index<Dims> makeIndex(std::integer_sequence<int, D...>) const {
    return Index<Dims>(r_[D].n...);
  }
  template <int... D>
  static void setPos(Index<Dims> &Idx, const int *P,
                     std::integer_sequence<int, D...>) {
    Idx.set_pos(P[D]...);
  }

  const LoopRange *r_;
};

using HostLoopEngine2D = HostLoopEngine<2>;
using HostLoopEngine3D = HostLoopEngine<3>;
using HostLoopEngine4D = HostLoopEngine<4>;

} // namespace stencil

#endif // STENCIL_HOST_ENGINE_HPP

// stencil/stencil_traits.hpp - the parameter types of a stencil, after the
// index.
#ifndef STENCIL_STENCIL_TRAITS_HPP
#define STENCIL_STENCIL_TRAITS_HPP

#include <type_traits>
#include <typeinfo>

namespace stencil {
template <int Dims> class Step;
template <int Dims> class Index;
} // namespace stencil

namespace stencil::detail {

template <typename... P> struct ParamList {};

/// An argument's array (its address), or null for a scalar.
template <typename V> const void *arrayAddress(const V &Value) {
  if constexpr (std::is_pointer_v<V>) // (also a pointer to volatile)
    return const_cast<const void *>(static_cast<const volatile void *>(Value));
  else
    return nullptr;
}

/// True for a step function (or a pointer to one): its first parameter is
/// a stencil::Step, where a stencil has its index.
template <typename F> struct IsStepFunction : std::false_type {};
template <typename R, int Dims, typename... P>
struct IsStepFunction<R(Step<Dims> &, P...)> : std::true_type {};
template <typename R, int Dims, typename... P>
struct IsStepFunction<R (*)(Step<Dims> &, P...)> : std::true_type {};
template <typename R, int Dims, typename... P>
struct IsStepFunction<R(Step<Dims> &, P...) noexcept> : std::true_type {};
template <typename R, int Dims, typename... P>
struct IsStepFunction<R (*)(Step<Dims> &, P...) noexcept> : std::true_type {};
/// The message where a step is passed for a stencil.
#define STENCIL_NOT_A_STEP_MESSAGE                                             \
  "this is a step (its first parameter is a stencil::Step), not a stencil: "   \
  "run it with runStep, one step at a time"

/// typeid(void(P...)): what a generated entry's signature is compared with.
template <typename... P> const std::type_info &signatureOf(ParamList<P...>) {
  return typeid(void(P...));
}

/// The dimensions of an index type: N for stencil::Index<N>, else 0
/// (unknown: left to the call to accept or refuse).
template <typename T> struct IndexDims : std::integral_constant<int, 0> {};
template <int N> struct IndexDims<Index<N>> : std::integral_constant<int, N> {};

template <typename Sig> struct SignatureOf;
template <typename R, typename Idx, typename... P>
struct SignatureOf<R(Idx, P...)> {
  using Params = ParamList<P...>;
  static constexpr bool isFunction = true;
  /// The dimensions of the stencil's index (IndexDims).
  static constexpr int indexDims =
      IndexDims<std::remove_cv_t<std::remove_reference_t<Idx>>>::value;
};
template <typename R, typename Idx, typename... P>
struct SignatureOf<R (*)(Idx, P...)> : SignatureOf<R(Idx, P...)> {};
template <typename R, typename C, typename Idx, typename... P>
struct SignatureOf<R (C::*)(Idx, P...) const> : SignatureOf<R(Idx, P...)> {
  static constexpr bool isFunction = false;
};
template <typename R, typename C, typename Idx, typename... P>
struct SignatureOf<R (C::*)(Idx, P...)> : SignatureOf<R(Idx, P...)> {
  static constexpr bool isFunction = false;
};
// noexcept is part of the type since C++17: the same stencils.
template <typename R, typename Idx, typename... P>
struct SignatureOf<R(Idx, P...) noexcept> : SignatureOf<R(Idx, P...)> {};
template <typename R, typename Idx, typename... P>
struct SignatureOf<R (*)(Idx, P...) noexcept> : SignatureOf<R(Idx, P...)> {};
template <typename R, typename C, typename Idx, typename... P>
struct SignatureOf<R (C::*)(Idx, P...) const noexcept>
    : SignatureOf<R (C::*)(Idx, P...) const> {};
template <typename R, typename C, typename Idx, typename... P>
struct SignatureOf<R (C::*)(Idx, P...) noexcept>
    : SignatureOf<R (C::*)(Idx, P...)> {};

template <typename T, typename = void>
struct HasCallOperator : std::false_type {};
template <typename T>
struct HasCallOperator<T, std::void_t<decltype(&T::operator())>>
    : std::true_type {};

/// StencilTraits<F>::Params: the parameter types after the index, for a
/// function, a function pointer, or a functor with one operator().
template <typename F, typename = void> struct StencilTraits {
  static_assert(std::is_function_v<std::remove_pointer_t<F>> ||
                    HasCallOperator<F>::value,
                "a stencil is a function or a functor with exactly one "
                "non-template operator()");
};
template <typename F>
struct StencilTraits<
    F, std::enable_if_t<std::is_function_v<std::remove_pointer_t<F>>>>
    : SignatureOf<std::remove_pointer_t<F>> {};
template <typename F>
struct StencilTraits<F, std::enable_if_t<HasCallOperator<F>::value>>
    : SignatureOf<decltype(&F::operator())> {};

/// True unless stencil \p F's index has other dimensions than \p Dims.
template <typename F, int Dims>
inline constexpr bool indexFits =
    StencilTraits<F>::indexDims == 0 || StencilTraits<F>::indexDims == Dims;
/// The message where it has.
#define STENCIL_INDEX_DIMS_MESSAGE                                             \
  "the stencil's index has other dimensions than the loop: a stencil of "      \
  "stencil::Index2D runs in a Loop2D, of Index3D in a Loop3D, of Index4D in "  \
  "a Loop4D"

} // namespace stencil::detail

#endif // STENCIL_STENCIL_TRAITS_HPP

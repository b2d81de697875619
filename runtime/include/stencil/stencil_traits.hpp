// stencil/stencil_traits.hpp - the parameter types of a stencil, after the
// index.
#ifndef STENCIL_STENCIL_TRAITS_HPP
#define STENCIL_STENCIL_TRAITS_HPP

#include <type_traits>
#include <typeinfo>

namespace stencil {
template <int Dims> class Step;
} // namespace stencil

namespace stencil::detail {

template <typename... P> struct ParamList {};

/// True for a step function (or a pointer to one): its first parameter is
/// a stencil::Step, where a stencil has its index.
template <typename F> struct IsStepFunction : std::false_type {};
template <typename R, int Dims, typename... P>
struct IsStepFunction<R(Step<Dims> &, P...)> : std::true_type {};
template <typename R, int Dims, typename... P>
struct IsStepFunction<R (*)(Step<Dims> &, P...)> : std::true_type {};
/// The message where a step is passed for a stencil.
#define STENCIL_NOT_A_STEP_MESSAGE                                             \
  "this is a step (its first parameter is a stencil::Step), not a stencil: "   \
  "run it with runStep, one step at a time"

/// typeid(void(P...)): what a generated entry's signature is compared with.
template <typename... P> const std::type_info &signatureOf(ParamList<P...>) {
  return typeid(void(P...));
}

template <typename Sig> struct SignatureOf;
template <typename R, typename Idx, typename... P>
struct SignatureOf<R(Idx, P...)> {
  using Params = ParamList<P...>;
  static constexpr bool isFunction = true;
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

} // namespace stencil::detail

#endif // STENCIL_STENCIL_TRAITS_HPP

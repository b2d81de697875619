// stencil/type_name.hpp - readable names of types and stencils for the
// runtime's messages.
#ifndef STENCIL_TYPE_NAME_HPP
#define STENCIL_TYPE_NAME_HPP

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#if defined(__GNUG__)
#include <cxxabi.h>
#endif

namespace stencil::detail {

/// "ns::Diffusion3d", not "N2ns11Diffusion3dE" (GCC marks internal types
/// with a leading '*', which is not part of the mangled name).
inline std::string readableTypeName(const char *Mangled) {
  Mangled += Mangled[0] == '*';
#if defined(__GNUG__)
  int Status = 0;
  std::unique_ptr<char, void (*)(void *)> Name(
      abi::__cxa_demangle(Mangled, nullptr, nullptr, &Status), std::free);
  if (Status == 0 && Name)
    return Name.get();
#endif
  return Mangled;
}

/// The address of a free-function stencil, as text ("0x4011a0").
inline std::string functionAddress(const void *Address) {
  char Buf[2 * sizeof(void *) + 3];
  std::snprintf(Buf, sizeof(Buf), "%p", Address);
  return Buf;
}

/// "stencil 'ns::Diffusion3d'" for a functor of type \p Functor; a function
/// has no name at run time, so "the free-function stencil at 0x4011a0" for
/// the one at \p Function (look the address up with
/// `nm -C <program> | grep -i 4011a0` or `addr2line -f -e <program>`).
inline std::string stencilDisplayName(const void *Function,
                                      const std::type_info &Functor) {
  if (Function)
    return "the free-function stencil at " + functionAddress(Function);
  return "stencil '" + readableTypeName(Functor.name()) + "'";
}

template <typename StencilT> std::string stencilDisplayName(const StencilT &S) {
  if constexpr (std::is_function_v<StencilT>)
    return stencilDisplayName(reinterpret_cast<const void *>(&S), typeid(S));
  else if constexpr (std::is_function_v<std::remove_pointer_t<StencilT>>)
    return stencilDisplayName(reinterpret_cast<const void *>(S), typeid(S));
  else
    return stencilDisplayName(nullptr, typeid(StencilT));
}

} // namespace stencil::detail

#endif // STENCIL_TYPE_NAME_HPP

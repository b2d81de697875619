// stencil/type_name.hpp - readable type names for the runtime's messages.
#ifndef STENCIL_TYPE_NAME_HPP
#define STENCIL_TYPE_NAME_HPP

#include <cstdlib>
#include <memory>
#include <string>
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

} // namespace stencil::detail

#endif // STENCIL_TYPE_NAME_HPP

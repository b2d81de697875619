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
// dladdr is in the C library itself from glibc 2.34 (no -ldl to link).
#if defined(__GLIBC__) && defined(__GLIBC_PREREQ)
#if __GLIBC_PREREQ(2, 34)
#include <dlfcn.h>
#define STENCIL_HAS_DLADDR 1
#endif
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

/// A function by its address, for a message: "'relax(double*)' at
/// 0x55d1377f9610" where the program exports its name, else "at
/// 0x55d1377f9610 (0xe610 in /path/prog)", the second the address that
/// `nm -C /path/prog` lists (a position-independent program loads at
/// another address each run).
inline std::string functionAt(const void *Address) {
  char Buf[2 * sizeof(void *) + 3];
  std::snprintf(Buf, sizeof(Buf), "%p", Address);
  std::string Text = std::string("at ") + Buf;
#if defined(STENCIL_HAS_DLADDR)
  Dl_info Info{};
  if (dladdr(Address, &Info) && Info.dli_fname && Info.dli_fbase) {
    if (Info.dli_sname && Info.dli_saddr == Address)
      return "'" + readableTypeName(Info.dli_sname) + "' " + Text;
    const auto Offset = static_cast<unsigned long long>(
        static_cast<const char *>(Address) -
        static_cast<const char *>(Info.dli_fbase));
    std::snprintf(Buf, sizeof(Buf), "%#llx", Offset);
    Text += std::string(" (") + Buf + " in " + Info.dli_fname + ")";
  }
#endif
  return Text;
}

/// "stencil 'ns::Diffusion3d'" for a functor of type \p Functor; a function
/// has no name at run time unless exported, so "the free-function stencil
/// at 0x55d1377f9610 (0xe610 in /path/prog)" for the one at \p Function
/// (functionAt).
inline std::string stencilDisplayName(const void *Function,
                                      const std::type_info &Functor) {
  if (Function)
    return "the free-function stencil " + functionAt(Function);
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

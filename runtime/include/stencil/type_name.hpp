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
#include <cstdint>
#include <dlfcn.h>
#include <link.h>
#include <unistd.h>
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
  struct link_map *Map = nullptr;
  if (dladdr1(Address, &Info, reinterpret_cast<void **>(&Map),
              RTLD_DL_LINKMAP) &&
      Map) {
    if (Info.dli_sname && Info.dli_saddr == Address) {
      // (An extern "C" name is no mangled type: "f" is not "float".)
      const std::string Name = Info.dli_sname;
      return "'" +
             (Name.rfind("_Z", 0) == 0 ? readableTypeName(Name.c_str())
                                       : Name) +
             "' " + Text;
    }
    // Where the object was loaded (0 for a program not position-
    // independent): the difference is the address nm lists.
    const auto Listed = reinterpret_cast<std::uintptr_t>(Address) - Map->l_addr;
    std::snprintf(Buf, sizeof(Buf), "%#llx",
                  static_cast<unsigned long long>(Listed));
    // The program itself has no name in its map (dladdr gives argv[0]).
    std::string File = Map->l_name ? Map->l_name : "";
    if (File.empty()) {
      char Path[4096];
      const ssize_t N = readlink("/proc/self/exe", Path, sizeof(Path) - 1);
      File = N > 0 ? std::string(Path, static_cast<std::size_t>(N))
                   : std::string(Info.dli_fname ? Info.dli_fname : "?");
    }
    Text += std::string(" (") + Buf + " in " + File + ")";
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

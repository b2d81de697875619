// stencil/domain_choice_key.hpp - the parts of a measured choice's cache key
// (choice_cache.hpp) that a domain gives: its extents, decomposition and
// periodic dimensions, and the device: the GPU's name, or "cpu" for the
// OpenMP backend.
#ifndef STENCIL_DOMAIN_CHOICE_KEY_HPP
#define STENCIL_DOMAIN_CHOICE_KEY_HPP

#include <stencil/device.hpp>
#include <stencil/domain.hpp>

#include <string>

namespace stencil::detail {

/// The domain's part of a cache key: "512x512x64 on 2x2x1 periodic x ...".
inline std::string domainKeyText(const Domain &D) {
  std::string S;
  for (int X = 0; X < D.dims(); ++X)
    S += (X ? "x" : "") + std::to_string(D.globalExtent(X));
  S += " on " + D.procsText();
  for (int X = 0; X < D.dims(); ++X)
    if (D.periodic(X))
      S += std::string(" periodic ") + "xyz"[X];
  return S;
}

/// The device part of a cache key for domain \p D.
inline std::string deviceKeyText(const Domain &D) {
  return D.backend() == Backend::Cuda ? deviceName() : "cpu";
}

} // namespace stencil::detail

#endif // STENCIL_DOMAIN_CHOICE_KEY_HPP

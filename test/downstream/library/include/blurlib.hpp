// blurlib.hpp - the library's interface; its users include the runtime
// through it.
#pragma once
#include <stencil/dsl.hpp>

#include <vector>

namespace blurlib {

/// Steps steps of a 5-point blur on an Nx x Ny grid with a one-point margin,
/// from a fixed start; on the host engine or on the generated code of \p B.
std::vector<float> blurHost(int Nx, int Ny, int Steps);
std::vector<float> blurGenerated(stencil::Backend B, int Nx, int Ny, int Steps);

} // namespace blurlib

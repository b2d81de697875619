// other_weight.cpp - shared_blur.hpp under another macro: a different
// stencil with first.cpp's name. Engines must refuse it and name both files.
#define BLUR_WEIGHT 0.25f
#include "shared_blur.hpp"

std::vector<float> shared::blurSecond(const std::vector<float> &In, bool OpenMP) {
  SHARED_BLUR_RUN(In, OpenMP)
}

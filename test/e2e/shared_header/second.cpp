// second.cpp - includes shared_blur.hpp; so does first.cpp.
#include "shared_blur.hpp"

std::vector<float> shared::blurSecond(const std::vector<float> &In, bool OpenMP) {
  SHARED_BLUR_RUN(In, OpenMP)
}

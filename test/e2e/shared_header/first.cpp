// first.cpp - includes shared_blur.hpp; so does second.cpp.
#include "shared_blur.hpp"

std::vector<float> shared::blurFirst(const std::vector<float> &In, bool OpenMP) {
  SHARED_BLUR_RUN(In, OpenMP)
}

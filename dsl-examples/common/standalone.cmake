# standalone.cmake - included first by each example's CMakeLists.txt.
#
# In-tree (add_subdirectory from the top level) Stencilc::stencilc exists and
# this does nothing. Built on its own (cmake -S dsl-examples/<example>
# -DStencilc_DIR=<stencilc build> or -DCMAKE_PREFIX_PATH=<install prefix>), it
# enables CUDA when nvcc is found (unless STENCILC_ENABLE_CUDA=OFF) and finds
# the package. Included, not called: enable_language needs file scope.
if(NOT TARGET Stencilc::stencilc)
  set(STENCILC_ENABLE_CUDA AUTO CACHE STRING "Build the cuda backend: AUTO, ON or OFF")
  if(NOT STENCILC_ENABLE_CUDA STREQUAL "OFF")
    include(CheckLanguage)
    # "native" fails on machines without a GPU; Hopper is the target machine.
    set(CMAKE_CUDA_ARCHITECTURES 90 CACHE STRING "CUDA architectures")
    check_language(CUDA)
    if(CMAKE_CUDA_COMPILER)
      enable_language(CUDA)
    elseif(STENCILC_ENABLE_CUDA STREQUAL "ON")
      message(FATAL_ERROR "STENCILC_ENABLE_CUDA=ON but no CUDA compiler was found (set CUDACXX)")
    endif()
  endif()
  find_package(Stencilc REQUIRED)
endif()

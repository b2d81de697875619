# build_sanitized.cmake - configures and builds stencilc alone with
# -DSTENCILC_SANITIZE=address,undefined in BINARY_DIR (cmake -P; run by the
# fuzz.build-sanitized test). Variables: SOURCE_DIR, BINARY_DIR, GENERATOR,
# LAUNCHERS (compiler launcher definitions, e.g. ccache).
# At -O0, for the build's time: the front end's largest file compiled with
# the sanitizers in 26.8 s against 44.3 s at -O1 (222 s at -O3); the inputs'
# time goes mostly to Clang's parsing, a library built optimised apart.
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${BINARY_DIR}" -G "${GENERATOR}"
          -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG"
          -DSTENCILC_SANITIZE=address,undefined
          -DSTENCILC_BUILD_TESTS=OFF -DSTENCILC_BUILD_EXAMPLES=OFF -DSTENCILC_ENABLE_CUDA=OFF
          ${LAUNCHERS}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the sanitized stencilc failed (${rc})")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BINARY_DIR}" --target stencilc
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the sanitized stencilc failed (${rc})")
endif()

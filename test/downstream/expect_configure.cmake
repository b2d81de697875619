# expect_configure.cmake - configures a downstream project and checks that it
# configures (or fails to) with output matching a regex; shared by the
# check_*.cmake scripts, which set SOURCE_DIR, STENCILC_DIR and optionally
# GENERATOR and CXX_COMPILER.

# expect_configure(<what> <build dir> <should configure: YES|NO> <regex> [cmake args...])
function(expect_configure what build_dir ok regex)
  set(args -S "${SOURCE_DIR}" -B "${build_dir}" "-DStencilc_DIR=${STENCILC_DIR}" ${ARGN})
  if(GENERATOR)
    list(APPEND args -G "${GENERATOR}")
  endif()
  if(CXX_COMPILER)
    list(APPEND args "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" ${args} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(ok AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed to configure:\n${out}")
  elseif(NOT ok AND rc EQUAL 0)
    message(FATAL_ERROR "${what} configured but should have failed:\n${out}")
  endif()
  string(REGEX REPLACE "\n *" " " flat "${out}")
  if(NOT flat MATCHES "${regex}")
    message(FATAL_ERROR "${what}: output does not match '${regex}':\n${out}")
  endif()
  message(STATUS "${what}: ok")
endfunction()

# check_refused.cmake - configures test/downstream/refused once per case and
# checks that the calls stencilc_add_sources must refuse stop the configure
# with the helper's message (and that the valid call configures).
#
#   cmake -DSOURCE_DIR=<refused> -DWORK_DIR=<scratch> -DSTENCILC_DIR=<build tree>
#         [-DGENERATOR=...] [-DCXX_COMPILER=...] -P check_refused.cmake
cmake_minimum_required(VERSION 3.20)

file(REMOVE_RECURSE "${WORK_DIR}")

# expect(<case> <should configure: YES|NO> <regex the output must match>)
function(expect case ok regex)
  # One build directory per case: a failed configure leaves no state behind
  # that the next case could pick up.
  set(args -S "${SOURCE_DIR}" -B "${WORK_DIR}/${case}" "-DStencilc_DIR=${STENCILC_DIR}"
           "-DCASE=${case}")
  if(GENERATOR)
    list(APPEND args -G "${GENERATOR}")
  endif()
  if(CXX_COMPILER)
    list(APPEND args "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" ${args} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(ok AND NOT rc EQUAL 0)
    message(FATAL_ERROR "refused: case ${case} failed to configure:\n${out}")
  elseif(NOT ok AND rc EQUAL 0)
    message(FATAL_ERROR "refused: case ${case} configured but should have failed:\n${out}")
  endif()
  string(REGEX REPLACE "\n *" " " flat "${out}")
  if(NOT flat MATCHES "${regex}")
    message(FATAL_ERROR "refused: case ${case}: output does not match '${regex}':\n${out}")
  endif()
  message(STATUS "refused: ok: ${case}")
endfunction()

expect(ok YES "Generating done")
expect(emit NO "stencilc_add_sources\\(app\\): OPTIONS may not contain '--emit=ir'")
expect(stem NO "stencilc_add_sources\\(app\\): two FILES named 'app' \\(here or in an earlier call")
expect(other-directory NO "stencilc_add_sources\\(app\\): called in [^ ]*/sub, but 'app' was created in")
expect(alias NO "stencilc_add_sources\\(app::alias\\): 'app::alias' is an ALIAS of 'app'")
expect(source-definition NO "COMPILE_DEFINITIONS 'APP_SCALE=2' of the source file app.cpp")

# check_refused.cmake - configures test/downstream/refused once per case and
# checks that the calls stencilc_add_sources must refuse stop the configure
# with the helper's message (and that the valid call configures).
#
#   cmake -DSOURCE_DIR=<refused> -DWORK_DIR=<scratch> -DSTENCILC_DIR=<build tree>
#         [-DGENERATOR=...] [-DCXX_COMPILER=...] -P check_refused.cmake
cmake_minimum_required(VERSION 3.20)

file(REMOVE_RECURSE "${WORK_DIR}")

include("${CMAKE_CURRENT_LIST_DIR}/expect_configure.cmake")

# expect(<case> <should configure: YES|NO> <regex the output must match>)
# One build directory per case: a failed configure leaves no state behind
# that the next case could pick up.
function(expect case ok regex)
  expect_configure("refused: case ${case}" "${WORK_DIR}/${case}" ${ok} "${regex}"
                   "-DCASE=${case}")
endfunction()

expect(ok YES "Generating done")
expect(emit NO "stencilc_add_sources\\(app\\): OPTIONS may not contain '--emit=ir'")
expect(stem NO "stencilc_add_sources\\(app\\): two FILES named 'app' \\(here or in an earlier call")
expect(other-directory NO "stencilc_add_sources\\(app\\): called in [^ ]*/sub, but 'app' was created in")
expect(alias NO "stencilc_add_sources\\(app::alias\\): 'app::alias' is an ALIAS of 'app'")
expect(source-definition YES "Generating done")
expect(other-target-compiles NO
       "stencilc_add_sources\\(app\\): stencils.cpp is compiled by lib, not by app")
expect(split-option NO
       "COMPILE_OPTIONS '-include' of app, an option split from its value")
expect(linked-path NO
       "FILES entry [^ ]*/linked/app.cpp is [^ ]*app.cpp, which app compiles, by another path")
expect(includer-definition YES
       "stencilc reads stencils.cpp with the flags of app, not with a source's own.*COMPILE_DEFINITIONS 'APP_SCALE=2' of app.cpp.*Generating done")
expect(uncompiled-source-definition NO
       "COMPILE_DEFINITIONS 'APP_SCALE=2' of the source file stencils.cpp")

# expect_output.cmake - runs COMMAND (its arguments separated by "|") and
# checks both its exit status and what it prints, which ctest's
# PASS_REGULAR_EXPRESSION cannot do together (it ignores the exit status).
#
#   cmake -DCOMMAND="<program>|<arg>|..." -DSTATUS=<exit status>
#         -DEXPECT=<regex> [-DEXPECT2=<regex>] -P expect_output.cmake
#
# EXPECT (and EXPECT2) must match stdout and stderr together, without the
# whitespace at either end (so ^...$ is the whole output).
foreach(var COMMAND STATUS EXPECT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "expect_output.cmake: -D${var}=... is required")
  endif()
endforeach()
include("${CMAKE_CURRENT_LIST_DIR}/../run_command.cmake")
string(STRIP "${out}${err}" all)
foreach(regex IN ITEMS "${EXPECT}" "${EXPECT2}")
  if(NOT regex STREQUAL "" AND NOT all MATCHES "${regex}")
    message(FATAL_ERROR "expected output matching '${regex}'")
  endif()
endforeach()

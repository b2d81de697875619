# expect_one_error.cmake - compiles a file that must not compile (COMMAND, its
# arguments separated by "|") and checks that it fails with exactly one
# error, matching EXPECT: the runtime's own message, not a cascade of
# template errors that buries it.
#
#   cmake -DCOMMAND="<compiler>|<arg>|..." -DEXPECT=<regex> -P expect_one_error.cmake
set(STATUS 1)
include("${CMAKE_CURRENT_LIST_DIR}/run_command.cmake")
string(REGEX MATCHALL "error:" errors "${out}${err}")
list(LENGTH errors count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "expected one error, got ${count}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "expected an error matching '${EXPECT}'")
endif()

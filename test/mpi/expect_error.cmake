# expect_error.cmake - runs `COMMAND PROGRAM --error ERROR` (an mpirun of
# RANKS ranks; its arguments separated by "|") and checks that it exits non-zero, within the test's timeout,
# with "rank R: error: stencil: ..." from every rank.
string(REPLACE "|" ";" COMMAND "${COMMAND}")
string(REPLACE ";" " " shown "${COMMAND} ${PROGRAM} --error ${ERROR}")
execute_process(COMMAND ${COMMAND} "${PROGRAM}" --error "${ERROR}"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 50)
message("${shown}\nexit status: ${status}\n${out}${err}")
if(status EQUAL 0)
  message(FATAL_ERROR "expected a non-zero exit for bad input '${ERROR}'")
endif()
if(status MATCHES "timeout")
  message(FATAL_ERROR "bad input '${ERROR}' hung")
endif()
math(EXPR last "${RANKS} - 1")
foreach(rank RANGE ${last})
  if(NOT err MATCHES "rank ${rank}: error: stencil: ")
    message(FATAL_ERROR "rank ${rank} did not report the error for bad input '${ERROR}'")
  endif()
endforeach()

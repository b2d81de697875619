# run_command.cmake - included by the -P scripts that check a program's run
# (e2e/expect_output.cmake, docs/doc_output.cmake): runs COMMAND (its
# arguments separated by "|"), prints it and what it printed, and fails
# unless it exited with status STATUS. Leaves its stdout in `out` and its
# stderr in `err`.
string(REPLACE "|" ";" COMMAND "${COMMAND}")
string(REPLACE ";" " " shown "${COMMAND}")
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE status OUTPUT_VARIABLE out
                ERROR_VARIABLE err TIMEOUT 100)
message("${shown}\nexit status: ${status}\n${out}${err}")
if(NOT status STREQUAL "${STATUS}")
  message(FATAL_ERROR "expected exit status ${STATUS}, got ${status}")
endif()

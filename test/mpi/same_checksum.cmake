# same_checksum.cmake - runs PROGRAM (diffusion3d_mpi --mode=check) with ARGS
# under COMMAND1 (1 rank) and COMMANDN (several ranks; arguments separated
# by "|", EXTRA added) and checks that both print the same checksum.
foreach(which 1 N)
  string(REPLACE "|" ";" cmd "${COMMAND${which}}")
  string(REPLACE "|" ";" args "${ARGS}")
  if(which STREQUAL "N")
    string(REPLACE "|" ";" extra "${EXTRA}")
    list(APPEND args ${extra})
  endif()
  execute_process(COMMAND ${cmd} "${PROGRAM}" ${args} RESULT_VARIABLE status
                  OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  message("${out}${err}")
  if(NOT status EQUAL 0 OR NOT out MATCHES "checksum: ([0-9a-f]+)")
    message(FATAL_ERROR "run ${which} failed (status ${status})")
  endif()
  set(sum${which} "${CMAKE_MATCH_1}")
endforeach()
if(NOT sum1 STREQUAL sumN)
  message(FATAL_ERROR "checksums differ: 1 rank ${sum1}, several ${sumN}")
endif()

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
# What each rank must say after "rank R: error: stencil: " (a regex), where
# the test checks more than that it reported.
set(disagree "ranks disagree on")
set(expect_extents-disagree "${disagree} the domain: rank 0 has extents 16x16x16, .*rank 1 has extents 16x16x17")
set(expect_procs-disagree "${disagree} the domain: rank 0 has extents 16x16x16, procs 0x0x2, .*rank 1 has extents 16x16x16, procs 0x0x0")
set(expect_periodic-disagree "${disagree} the domain: .*periodic no,yes,no.*periodic no,no,no")
set(expect_variant-one-rank "${disagree} what a DomainLoop launches: rank 0 has stencil 'Diffusion7', variant 'zmarch'.*rank 1 has stencil 'Diffusion7', variant 'grid'")
set(expect_exchange-disagree "${disagree} the fields a HaloExchange exchanges: rank 0 has f \\(4-byte values, halo x:1/1 y:1/1 z:1/1\\); rank 1 has g \\(4-byte values, halo x:2/1")
set(expect_corners "stencil 'Box27' reads halo x:1/1 y:1/1 z:1/1 with corners but field 'f' has x:1/1 y:1/1 z:1/1 without corners")
set(expect_lower-rank-field "stencil 'Profile7': argument 1 after the index is field 'f0', but the stencil reads it as an array of lower rank spanning only z")
set(expect_step-pointer "step 'advectStep': argument 4 is read off the centre by call 2 and its halo must be exchanged: pass it as a stencil::Field")
set(expect_region-margin "Diffusion7 \\(openmp\\): its halo is 1 point at the start of x but the margin there is 0")
# One rank fails alone: it says why, the other is stopped and says so.
set(expect_exception-one-rank_0 "stopped: another rank failed")
set(expect_exception-one-rank_1 "a failure on rank 1 only")
math(EXPR last "${RANKS} - 1")
foreach(rank RANGE ${last})
  set(expect "")
  if(DEFINED expect_${ERROR}_${rank})
    set(expect "${expect_${ERROR}_${rank}}")
  elseif(DEFINED expect_${ERROR})
    set(expect "${expect_${ERROR}}")
  endif()
  if(NOT err MATCHES "rank ${rank}: error: stencil: ${expect}")
    message(FATAL_ERROR "rank ${rank} did not report the error for bad input '${ERROR}'"
                        " (expected 'rank ${rank}: error: stencil: ${expect}')")
  endif()
endforeach()

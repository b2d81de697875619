# check_rebuild.cmake - builds test/downstream/rebuild against Stencilc and
# checks what each rebuild runs. One ctest test = one `cmake -P` of this script.
#
#   cmake -DSOURCE_DIR=<rebuild project> -DWORK_DIR=<scratch dir>
#         -DSTENCILC_DIR=<stencilc build tree> -DGENERATOR=<generator>
#         [-DBACKENDS=openmp,cuda] [-DCXX_COMPILER=...] -P check_rebuild.cmake
#
#   1. build, then build again: the second build does nothing;
#   2. edit a comment in the DSL source (no line moves): stencilc runs, but no
#      generated file is recompiled; the build after that does nothing;
#   3. change a coefficient: the generated files are recompiled (so step 2
#      could have seen a recompilation).
cmake_minimum_required(VERSION 3.20)

foreach(var SOURCE_DIR WORK_DIR STENCILC_DIR GENERATOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_rebuild.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT BACKENDS)
  set(BACKENDS openmp)
endif()
string(REPLACE "," ";" backend_list "${BACKENDS}")

set(source_dir "${WORK_DIR}/src")
set(build_dir "${WORK_DIR}/build")
file(REMOVE_RECURSE "${WORK_DIR}")
file(COPY "${SOURCE_DIR}/" DESTINATION "${source_dir}")

# Objects of the generated files, as the build tools name them in their logs.
set(generated_objects "blur\\.stencil\\.(cpp|cu)\\.o")

function(build what)
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build_dir}"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  message(STATUS "rebuild: ${what}:\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "rebuild: ${what}: the build failed (${rc})")
  endif()
  set(log "${out}${err}" PARENT_SCOPE)
endfunction()

# Ninja says so; make prints only "Built target" lines.
function(expect_no_work what log)
  if(GENERATOR MATCHES "Ninja")
    if(NOT log MATCHES "no work to do")
      message(FATAL_ERROR "rebuild: ${what}: expected no work, the log is above")
    endif()
  elseif(log MATCHES "stencilc: generating|Building|Linking")
    message(FATAL_ERROR "rebuild: ${what}: expected no work, the log is above")
  endif()
endfunction()

# File times must tell the edit from the previous build.
function(edit_source from to)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1.1)
  file(READ "${source_dir}/blur.cpp" text)
  string(REPLACE "${from}" "${to}" edited "${text}")
  if(edited STREQUAL text)
    message(FATAL_ERROR "rebuild: '${from}' not found in blur.cpp")
  endif()
  file(WRITE "${source_dir}/blur.cpp" "${edited}")
endfunction()

set(configure_args -S "${source_dir}" -B "${build_dir}" -G "${GENERATOR}"
    "-DStencilc_DIR=${STENCILC_DIR}" "-DREBUILD_BACKENDS=${BACKENDS}")
if(CXX_COMPILER)
  list(APPEND configure_args "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" ${configure_args} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "rebuild: configure failed (${rc})")
endif()

# Colour: under Ninja (which captures the output) stencilc is asked for
# colours, as CMake asks compilers; under make, whose output is the
# terminal's, it decides for itself.
if(GENERATOR MATCHES "Ninja")
  file(READ "${build_dir}/build.ninja" rules)
  set(want_colour TRUE)
else()
  file(READ "${build_dir}/CMakeFiles/rebuild.dir/build.make" rules)
  set(want_colour FALSE)
endif()
string(REGEX MATCH "[^\n]*--stamp=[^\n]*" stencilc_command "${rules}")
if(NOT stencilc_command)
  message(FATAL_ERROR "rebuild: no stencilc command found in the build files")
endif()
string(FIND "${stencilc_command}" "-fcolor-diagnostics" colour_at)
if(want_colour AND colour_at EQUAL -1)
  message(FATAL_ERROR "rebuild: under ${GENERATOR} stencilc gets no -fcolor-diagnostics: "
                      "${stencilc_command}")
elseif(NOT want_colour AND NOT colour_at EQUAL -1)
  message(FATAL_ERROR "rebuild: under ${GENERATOR} stencilc is forced to colour: "
                      "${stencilc_command}")
endif()

build("first build")
build("second build")
expect_no_work("second build" "${log}")

edit_source("REBUILD-COMMENT: version 1" "REBUILD-COMMENT: version 2")
build("build after a comment edit")
if(NOT log MATCHES "stencilc: generating")
  message(FATAL_ERROR "rebuild: a comment edit did not run stencilc (the log is above)")
endif()
if(log MATCHES "${generated_objects}")
  message(FATAL_ERROR "rebuild: a comment edit recompiled generated code: ${CMAKE_MATCH_0}")
endif()
build("build after that")
expect_no_work("build after the comment edit's build" "${log}")

edit_source("0.5f * u" "0.25f * u")
build("build after a coefficient change")
foreach(suffix IN ITEMS cpp cu)
  if((suffix STREQUAL "cpp" AND "openmp" IN_LIST backend_list) OR
     (suffix STREQUAL "cu" AND "cuda" IN_LIST backend_list))
    if(NOT log MATCHES "blur\\.stencil\\.${suffix}\\.o")
      message(FATAL_ERROR "rebuild: a coefficient change did not recompile blur.stencil.${suffix}")
    endif()
  endif()
endforeach()
build("build after that")
expect_no_work("build after the coefficient change's build" "${log}")
message(STATUS "rebuild: ${GENERATOR}, BACKENDS ${BACKENDS}: all rebuilds as expected")

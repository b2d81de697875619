# run_downstream.cmake - builds a project against Stencilc the way a user
# would, then runs it. One ctest test = one `cmake -P` of this script.
#
#   cmake -DSOURCE_DIR=<project> -DWORK_DIR=<scratch dir> -DEXECUTABLE=<name>
#         (-DSTENCILC_DIR=<stencilc build tree> | -DINSTALL_FROM=<stencilc build tree>)
#         [-DGENERATOR=...] [-DCXX_COMPILER=...] [-DBUILD_TYPE=...]
#         [-DENABLE_CUDA=ON|OFF] [-DRUN_ARGS="<arg> <arg>..."]
#         [-DCONFIGURE_ARGS="<arg> <arg>..."]  more arguments for the project's configure
#         -P run_downstream.cmake
#
# With INSTALL_FROM, the build tree is first installed into WORK_DIR/prefix and
# found through CMAKE_PREFIX_PATH; with STENCILC_DIR, through Stencilc_DIR.
cmake_minimum_required(VERSION 3.20)

foreach(var SOURCE_DIR WORK_DIR EXECUTABLE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_downstream.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT DEFINED STENCILC_DIR AND NOT DEFINED INSTALL_FROM)
  message(FATAL_ERROR "run_downstream.cmake: give -DSTENCILC_DIR=... or -DINSTALL_FROM=...")
endif()

function(step what)
  string(REPLACE ";" " " shown "${ARGN}")
  message(STATUS "downstream: ${what}: ${shown}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "downstream: ${what} failed (${rc})")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(build_dir "${WORK_DIR}/build")

set(configure_args -S "${SOURCE_DIR}" -B "${build_dir}")
if(GENERATOR)
  list(APPEND configure_args -G "${GENERATOR}")
endif()
if(CXX_COMPILER)
  list(APPEND configure_args "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
endif()
if(BUILD_TYPE)
  list(APPEND configure_args "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}")
endif()
if(DEFINED ENABLE_CUDA)
  list(APPEND configure_args "-DSTENCILC_ENABLE_CUDA=${ENABLE_CUDA}")
endif()

if(DEFINED CONFIGURE_ARGS)
  separate_arguments(extra_args UNIX_COMMAND "${CONFIGURE_ARGS}")
  list(APPEND configure_args ${extra_args})
endif()

if(DEFINED INSTALL_FROM)
  set(prefix "${WORK_DIR}/prefix")
  step("install" "${CMAKE_COMMAND}" --install "${INSTALL_FROM}" --prefix "${prefix}")
  list(APPEND configure_args "-DCMAKE_PREFIX_PATH=${prefix}")
else()
  list(APPEND configure_args "-DStencilc_DIR=${STENCILC_DIR}")
endif()

step("configure" "${CMAKE_COMMAND}" ${configure_args})
step("build" "${CMAKE_COMMAND}" --build "${build_dir}")
separate_arguments(run_args UNIX_COMMAND "${RUN_ARGS}")
step("run" "${build_dir}/${EXECUTABLE}" ${run_args})

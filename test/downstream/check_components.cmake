# check_components.cmake - configures test/downstream/components with several
# find_package(Stencilc ...) calls and checks the outcome and the message.
#
#   cmake -DSOURCE_DIR=<components> -DWORK_DIR=<scratch> -DSTENCILC_DIR=<build tree>
#         [-DGENERATOR=...] [-DCXX_COMPILER=...] [-DHAVE_MPI=ON|OFF] [-DHAVE_CUDA=ON|OFF] -P check_components.cmake
cmake_minimum_required(VERSION 3.20)

# One build directory for every case (the compiler is detected once); each
# case says whether MPI and CUDA are hidden, so none inherits the last one's.
set(hide_mpi_cuda -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON)
set(show_mpi_cuda -DCMAKE_DISABLE_FIND_PACKAGE_MPI=OFF -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=OFF)
file(REMOVE_RECURSE "${WORK_DIR}")

include("${CMAKE_CURRENT_LIST_DIR}/expect_configure.cmake")

# expect(<should configure: YES|NO> <regex the output must match> <find args> [cmake args...])
function(expect ok regex find_args)
  expect_configure("components: find_package(Stencilc ${find_args}) with '${ARGN}'"
                   "${WORK_DIR}/build" ${ok} "${regex}" "-DFIND_ARGS=${find_args}" ${ARGN})
endfunction()

# The OpenMP-only user: no MPI, no CUDA toolkit, no components.
expect(YES "Stencilc_FOUND=(1|TRUE) mpi=(0|FALSE) cuda=(0|FALSE)" "REQUIRED" ${hide_mpi_cuda})
# Optional components that cannot be found leave the package found.
expect(YES "Stencilc_FOUND=(1|TRUE) mpi=(0|FALSE) cuda=(0|FALSE)"
       "REQUIRED OPTIONAL_COMPONENTS mpi cuda" ${hide_mpi_cuda})
# Required ones fail, naming the component and why.
expect(NO "component mpi not found" "REQUIRED COMPONENTS mpi" ${hide_mpi_cuda})
expect(NO "component cuda not found: the CUDA toolkit" "REQUIRED COMPONENTS cuda"
       ${hide_mpi_cuda})
# Not REQUIRED: configures, with Stencilc_FOUND false.
expect(YES "Stencilc_FOUND=(0|FALSE) mpi=(0|FALSE)" "COMPONENTS mpi" ${hide_mpi_cuda})
# Unknown components are rejected by name.
expect(NO "unknown component 'mpu'" "REQUIRED COMPONENTS mpu" ${show_mpi_cuda})
expect(NO "unknown component 'cudaa'" "REQUIRED OPTIONAL_COMPONENTS cudaa" ${show_mpi_cuda})
if(HAVE_MPI)
  # Asked for and there: found, with its target.
  expect(YES "Stencilc_FOUND=(1|TRUE) mpi=(1|TRUE)" "REQUIRED COMPONENTS mpi" ${show_mpi_cuda})
endif()
if(HAVE_CUDA)
  expect(YES "Stencilc_FOUND=(1|TRUE) mpi=(0|FALSE) cuda=(1|TRUE)" "REQUIRED COMPONENTS cuda"
         ${show_mpi_cuda})
endif()

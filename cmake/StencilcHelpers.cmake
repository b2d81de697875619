# StencilcHelpers.cmake - the CMake function that runs stencilc in a build.
#
# Included by the top-level CMakeLists.txt (in-tree use) and by
# StencilcConfig.cmake (after find_package(Stencilc)).
#
# stencilc_add_sources
# --------------------
#
#   stencilc_add_sources(<target>
#                        FILES <file>...
#                        [BACKENDS <backend>...]
#                        [OPTIONS <stencilc option>...])
#
# Runs stencilc on each DSL source <file> at build time and adds the generated
# code to <target>; the sources themselves are not added (add them to the
# target as usual: they hold main() and the host reference).
#
#   FILES     DSL sources, relative to the current source directory or absolute.
#   BACKENDS  Which generated code to build: `openmp` (OpenMP C++, <stem>.stencil.cpp)
#             and/or `cuda` (<stem>.stencil.cu). Default: openmp, plus cuda when
#             the calling project has enabled the CUDA language. Asking for cuda
#             without CUDA enabled is an error: call enable_language(CUDA) first.
#   OPTIONS   Further stencilc options, e.g. --step-strategy=multi-kernel
#             (see docs/cli.md).
#
# stencilc sees the target's include directories and compile definitions
# (evaluated at generation time, usage requirements of linked targets included),
# the runtime's include directory and -std=c++17. The generated files go to
#   ${CMAKE_CURRENT_BINARY_DIR}/stencilc/<target>/<stem>.stencil.{cpp,cu,d,stamp}
# stencilc runs again when a DSL source, any header it includes (through a
# depfile), or stencilc itself changes; a generated file whose text did not
# change keeps its time, so its object is not recompiled. <target> gets
# Stencilc::runtime and OpenMP::OpenMP_CXX, and CUDA::cudart for the cuda
# backend (found then: find_package(Stencilc) does not need CUDA), as link
# dependencies: PRIVATE for an executable, PUBLIC for a library.
#
# <target> may be an executable or a STATIC, SHARED or OBJECT library; the
# library's users get the generated code registered. For a STATIC library the
# generated code is built in an OBJECT library <target>.stencilc whose objects
# the library's users link (an archive member that nothing refers to would be
# dropped by the linker); this needs CMake 3.21. Those objects reach users in
# the same build only: a STATIC library installed with install(EXPORT) lacks its
# stencils' generated code (its users get "no generated openmp code" at run
# time); install a SHARED library instead.
#
# Colour: stencilc's diagnostics are coloured (-fcolor-diagnostics) when
# CMAKE_COLOR_DIAGNOSTICS is ON, and under Ninja when it is not set (Ninja
# captures the output and strips the colour codes when it does not go to a
# terminal); CMAKE_COLOR_DIAGNOSTICS OFF gives -fno-color-diagnostics.
#
# Under GCC, the target's C++ files (and the generated ones) are compiled with
# -frounding-math: GCC then folds no math call whose result is inexact, so a
# call that sees a constant in the host reference (a literal passed to
# loop.run, inlined) computes what the generated code computes at run time
# (docs/correctness.md); without it the two may differ in the last bit.
#
# Example:
#
#   find_package(Stencilc REQUIRED)
#   add_executable(diffusion3d diffusion3d.cpp)
#   stencilc_add_sources(diffusion3d FILES diffusion3d.cpp BACKENDS openmp cuda)
#
# Call it in the directory that defines <target> (the outputs of a custom
# command are attached to the targets of its own directory).

# Functions record the policies in effect where they are defined; this file's
# own settings keep the helper's behaviour independent of the caller's
# cmake_minimum_required (include() gives it its own policy scope).
cmake_policy(VERSION 3.20...3.28)

function(stencilc_add_sources target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "FILES;BACKENDS;OPTIONS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "stencilc_add_sources(${target}): unknown arguments: "
                        "${ARG_UNPARSED_ARGUMENTS} (expected FILES <file>... [BACKENDS <backend>...] "
                        "[OPTIONS <option>...])")
  endif()
  if(ARG_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "stencilc_add_sources(${target}): ${ARG_KEYWORDS_MISSING_VALUES} "
                        "needs at least one value")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "stencilc_add_sources: '${target}' is not a target "
                        "(create it with add_executable or add_library first)")
  endif()
  if(NOT ARG_FILES)
    message(FATAL_ERROR "stencilc_add_sources(${target}): no FILES given")
  endif()
  if(NOT TARGET Stencilc::stencilc)
    message(FATAL_ERROR "stencilc_add_sources(${target}): the stencilc compiler is not known "
                        "to this project: call find_package(Stencilc REQUIRED) first")
  endif()

  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT DEFINED ARG_BACKENDS)
    set(ARG_BACKENDS openmp)
    if(CUDA IN_LIST languages)
      list(APPEND ARG_BACKENDS cuda)
    endif()
  endif()
  list(REMOVE_DUPLICATES ARG_BACKENDS)
  set(emit "")
  set(suffixes "")
  foreach(backend IN LISTS ARG_BACKENDS)
    if(backend STREQUAL "openmp")
      list(APPEND emit cpu)
      list(APPEND suffixes .stencil.cpp)
    elseif(backend STREQUAL "cuda")
      if(NOT CUDA IN_LIST languages)
        message(FATAL_ERROR "stencilc_add_sources(${target}): BACKENDS cuda needs the CUDA "
                            "language: call enable_language(CUDA) (or list CUDA in project()) first")
      endif()
      list(APPEND emit cuda)
      list(APPEND suffixes .stencil.cu)
    else()
      message(FATAL_ERROR "stencilc_add_sources(${target}): unknown backend '${backend}' "
                          "(known backends: openmp, cuda)")
    endif()
  endforeach()
  list(JOIN emit "," emit)

  # What stencilc's parser needs to see the sources as the target's compiler does.
  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(definitions "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(runtime_includes "$<TARGET_PROPERTY:Stencilc::runtime,INTERFACE_INCLUDE_DIRECTORIES>")
  # $<SEMICOLON> keeps each expression one list element here; COMMAND_EXPAND_LISTS
  # splits the evaluated "-Ia;-Ib" into arguments. Empty lists give no argument.
  set(colour "")
  if(DEFINED CMAKE_COLOR_DIAGNOSTICS)
    if(CMAKE_COLOR_DIAGNOSTICS)
      set(colour -fcolor-diagnostics)
    else()
      set(colour -fno-color-diagnostics)
    endif()
  elseif(CMAKE_GENERATOR MATCHES "Ninja")
    set(colour -fcolor-diagnostics)
  endif()
  set(clang_args
      -std=c++17 ${colour}
      "$<$<BOOL:${includes}>:-I$<JOIN:${includes},$<SEMICOLON>-I>>"
      "$<$<BOOL:${definitions}>:-D$<JOIN:${definitions},$<SEMICOLON>-D>>"
      "$<$<BOOL:${runtime_includes}>:-I$<JOIN:${runtime_includes},$<SEMICOLON>-I>>")

  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/stencilc/${target}")
  file(MAKE_DIRECTORY "${out_dir}")
  set(stems "")
  set(generated "")
  set(stamps "")
  foreach(file IN LISTS ARG_FILES)
    get_filename_component(source "${file}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_source_file_property(is_generated "${source}" GENERATED)
    if(NOT EXISTS "${source}" AND NOT is_generated)
      message(FATAL_ERROR "stencilc_add_sources(${target}): FILES entry '${file}' does not exist "
                          "(a misspelled keyword? the keywords are FILES and BACKENDS)")
    endif()
    get_filename_component(stem "${source}" NAME_WLE)
    if(stem IN_LIST stems)
      message(FATAL_ERROR "stencilc_add_sources(${target}): two FILES named '${stem}': their "
                          "generated files would collide; rename one or use another target")
    endif()
    list(APPEND stems "${stem}")
    set(outputs "")
    foreach(suffix IN LISTS suffixes)
      list(APPEND outputs "${out_dir}/${stem}${suffix}")
    endforeach()
    set(depfile "${out_dir}/${stem}.stencil.d")
    set(stamp "${out_dir}/${stem}.stencil.stamp")
    file(RELATIVE_PATH shown "${CMAKE_BINARY_DIR}" "${out_dir}/${stem}")
    # stencilc rewrites a generated file only when its text changes (editing
    # a comment without moving a stencil's line changes none), so the generated files are
    # BYPRODUCTS: Ninja restats them and recompiles only what changed. The
    # rule's OUTPUT is a stamp stencilc writes on every run, named first in
    # the depfile: the rule is up to date after it ran, for Ninja and Make
    # alike, whichever backends and in whatever order.
    add_custom_command(
      OUTPUT "${stamp}"
      BYPRODUCTS ${outputs}
      COMMAND Stencilc::stencilc "${source}" -o "${out_dir}" "--emit=${emit}"
              "--depfile=${depfile}" "--stamp=${stamp}" ${ARG_OPTIONS} -- ${clang_args}
      DEPENDS "${source}" Stencilc::stencilc
      DEPFILE "${depfile}"
      COMMENT "stencilc: generating ${shown}.stencil.* (${ARG_BACKENDS})"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    list(APPEND generated ${outputs})
    list(APPEND stamps "${stamp}")
  endforeach()

  # Where the generated code goes, and how far the runtime's usage
  # requirements reach, follow the target's type:
  #   EXECUTABLE, MODULE_LIBRARY  the generated sources are the target's own;
  #                               runtime PRIVATE.
  #   SHARED_LIBRARY              the same, runtime PUBLIC (the library's headers
  #                               and its users include stencil/dsl.hpp).
  #   OBJECT_LIBRARY              the same: its users link all of its objects.
  #   STATIC_LIBRARY              an archive's linker drops an object nothing refers
  #                               to, and the generated objects only register
  #                               themselves: they go into an OBJECT library,
  #                               <target>.stencilc, whose objects the target's users
  #                               link directly ($<TARGET_OBJECTS> in the target's
  #                               link interface, CMake >= 3.21).
  get_target_property(type ${target} TYPE)
  set(scope PUBLIC)
  set(code_target ${target})
  if(type STREQUAL "EXECUTABLE" OR type STREQUAL "MODULE_LIBRARY")
    set(scope PRIVATE)
  elseif(type STREQUAL "STATIC_LIBRARY")
    if(CMAKE_VERSION VERSION_LESS 3.21)
      message(FATAL_ERROR "stencilc_add_sources(${target}): a STATIC library needs CMake 3.21 "
                          "or newer (this is ${CMAKE_VERSION}); use a SHARED or OBJECT library")
    endif()
    set(code_target ${target}.stencilc)
    if(NOT TARGET ${code_target})
      add_library(${code_target} OBJECT)
      # Compiled as the library's own sources are (these usage requirements
      # include those of the targets it links).
      set_target_properties(${code_target} PROPERTIES
                            INCLUDE_DIRECTORIES "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>"
                            COMPILE_DEFINITIONS "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>"
                            COMPILE_OPTIONS "$<TARGET_PROPERTY:${target},COMPILE_OPTIONS>")
      get_target_property(pic ${target} POSITION_INDEPENDENT_CODE)
      if(NOT pic STREQUAL "pic-NOTFOUND")
        set_target_properties(${code_target} PROPERTIES POSITION_INDEPENDENT_CODE "${pic}")
      endif()
      # Build tree only: an installed export cannot name these objects (to
      # install such a library, prefer SHARED; see the header of this file).
      target_link_libraries(${target} INTERFACE "$<BUILD_INTERFACE:$<TARGET_OBJECTS:${code_target}>>")
    endif()
  elseif(NOT type STREQUAL "SHARED_LIBRARY" AND NOT type STREQUAL "OBJECT_LIBRARY")
    message(FATAL_ERROR "stencilc_add_sources(${target}): a ${type} target has no code of its "
                        "own; use an executable or a STATIC, SHARED or OBJECT library")
  endif()

  # The stamps attach the custom commands to the target.
  target_sources(${code_target} PRIVATE ${generated} ${stamps})
  source_group("stencilc generated" FILES ${generated})

  # Targets found here are seen from every directory (CMake >= 3.24): a
  # library's users elsewhere link them too.
  set(global "")
  if(NOT CMAKE_VERSION VERSION_LESS 3.24)
    set(global GLOBAL)
  endif()
  if(NOT TARGET OpenMP::OpenMP_CXX)
    find_package(OpenMP REQUIRED COMPONENTS CXX ${global})
  endif()
  target_link_libraries(${target} ${scope} Stencilc::runtime OpenMP::OpenMP_CXX)
  if(NOT code_target STREQUAL target)
    target_link_libraries(${code_target} PRIVATE Stencilc::runtime OpenMP::OpenMP_CXX)
  endif()
  set(compiled_targets ${target} ${code_target})
  list(REMOVE_DUPLICATES compiled_targets)
  foreach(compiled IN LISTS compiled_targets)
    target_compile_options(${compiled} PRIVATE
                           "$<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-frounding-math>")
  endforeach()
  if("cuda" IN_LIST ARG_BACKENDS)
    # Looked up here, not by find_package(Stencilc): OpenMP-only projects need
    # no CUDA toolkit.
    if(NOT TARGET CUDA::cudart)
      find_package(CUDAToolkit QUIET ${global})
    endif()
    if(NOT TARGET CUDA::cudart)
      message(FATAL_ERROR "stencilc_add_sources(${target}): BACKENDS cuda needs the CUDA toolkit "
                          "(CUDA::cudart), which was not found: set CUDAToolkit_ROOT, or call "
                          "find_package(Stencilc COMPONENTS cuda) to require it, or drop cuda "
                          "from BACKENDS")
    endif()
    target_link_libraries(${target} ${scope} CUDA::cudart)
    target_compile_features(${code_target} PRIVATE cuda_std_17)
    if(NOT code_target STREQUAL target)
      target_link_libraries(${code_target} PRIVATE CUDA::cudart)
    endif()
    # Line tables for the generated kernels, so that Nsight and cuda-gdb
    # show the DSL lines their #line directives name (no effect on speed).
    list(FILTER generated INCLUDE REGEX "\\.cu$")
    set_property(SOURCE ${generated} APPEND PROPERTY COMPILE_OPTIONS
                 "$<$<CONFIG:Release,RelWithDebInfo>:-lineinfo>")
  endif()
endfunction()

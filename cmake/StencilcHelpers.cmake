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
#             (see docs/cli.md). --emit, -o, --depfile, --stamp, -p and `--`
#             (any spelling) are the helper's and an error here; a compiler
#             flag goes in as --extra-arg=<flag>.
#
# The generated code has the DSL source's macros expanded as stencilc saw
# them, so stencilc must see the source as the target's compiler does. With a
# Makefile or Ninja generator of one configuration and a DSL source the target
# compiles as C++, stencilc reads the source's own compile command from the
# build's compilation database (the target's EXPORT_COMPILE_COMMANDS is turned
# on; the source is kept out of unity builds): every flag, exactly. Otherwise
# the helper gathers the preprocessor flags the compiler gets, in its order
# (usage requirements of linked targets included):
#   - the target's COMPILE_DEFINITIONS and INCLUDE_DIRECTORIES, the runtime's
#     include directory and -fopenmp;
#   - of CMAKE_CXX_FLAGS, CMAKE_CXX_FLAGS_<CONFIG> (the directory's values at its
#     end) and the target's COMPILE_OPTIONS, the -D, -U, -I, -isystem, -iquote,
#     -idirafter, -include, -imacros and -std= flags;
#   - the -std the compiler uses: the larger of CXX_STANDARD and the cxx_std_NN
#     compile features, else the compiler's default; gnu++ unless CXX_EXTENSIONS
#     is OFF.
# What it cannot gather stops the configure with a message: a DSL source's
# own COMPILE_DEFINITIONS, COMPILE_OPTIONS, COMPILE_FLAGS or INCLUDE_DIRECTORIES
# (unless each is in its OPTIONS as --extra-arg=<flag>), the target's
# COMPILE_FLAGS and precompiled headers, and definitions, include directories
# or preprocessor options under $<COMPILE_LANGUAGE:CXX> (false in stencilc's
# rule), and options split from their value (`-include x.h`, `SHELL:-D X`).
#
# The generated files go to
#   ${CMAKE_CURRENT_BINARY_DIR}/stencilc/<target>/<stem>.stencil.{cpp,cu,d,stamp}
# and, with a multi-configuration generator, to .../stencilc/<target>/<config>/
# (CMAKE_CROSS_CONFIGS is refused: CMake 3.25 crashes on such a rule). Headers
# that the target's own custom commands generate and that are among its sources
# are made before stencilc runs.
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
# command are attached to the targets of its own directory), with a target
# the project builds (not an ALIAS or IMPORTED one), each file once per target
# and no two files with one stem per target (their outputs would collide).

# Functions record the policies in effect where they are defined; this file's
# own settings keep the helper's behaviour independent of the caller's
# cmake_minimum_required (include() gives it its own policy scope).
cmake_policy(VERSION 3.20...3.28)

# Set in the calling function (functions see their caller's variables, not
# this file's): pp_flags, the preprocessor flags, which take their value
# joined (-DX, -I/dir) or as the next argument; pp_flag_regex, a flag with its
# value joined, or -std=.
macro(_stencilc_flag_regexes)
  set(pp_flags "-D|-U|-I|-isystem|-iquote|-idirafter|-include|-imacros")
  set(pp_flag_regex "^(${pp_flags}).|^-std=")
endmacro()

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
  get_target_property(aliased ${target} ALIASED_TARGET)
  if(aliased)
    message(FATAL_ERROR "stencilc_add_sources(${target}): '${target}' is an ALIAS of "
                        "'${aliased}': give the real target, stencilc_add_sources(${aliased} ...)")
  endif()
  get_target_property(imported ${target} IMPORTED)
  if(imported)
    message(FATAL_ERROR "stencilc_add_sources(${target}): '${target}' is an IMPORTED target: "
                        "give a target this project builds (add_executable or add_library)")
  endif()
  # The generated files are outputs of this directory's rules, which only
  # this directory's targets can build.
  get_target_property(target_dir ${target} SOURCE_DIR)
  if(NOT target_dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    message(FATAL_ERROR "stencilc_add_sources(${target}): called in ${CMAKE_CURRENT_SOURCE_DIR}, "
                        "but '${target}' was created in ${target_dir}: call it in the "
                        "CMakeLists.txt that creates the target")
  endif()
  if(NOT ARG_FILES)
    message(FATAL_ERROR "stencilc_add_sources(${target}): no FILES given")
  endif()
  if(NOT TARGET Stencilc::stencilc)
    message(FATAL_ERROR "stencilc_add_sources(${target}): the stencilc compiler is not known "
                        "to this project: call find_package(Stencilc REQUIRED) first")
  endif()
  foreach(option IN LISTS ARG_OPTIONS)
    if(option MATCHES "^--?(emit|o|depfile|stamp|p)(=.*)?$|^--$")
      message(FATAL_ERROR "stencilc_add_sources(${target}): OPTIONS may not contain '${option}': "
                          "the helper gives stencilc --emit (from BACKENDS), -o, --depfile, "
                          "--stamp and the compiler flags after '--' itself; pass a compiler "
                          "flag as --extra-arg=<flag>")
    endif()
  endforeach()

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

  # What stencilc's parser needs to see the sources as the target's compiler
  # does, in the compiler's order (later flags win): its -std (see below),
  # the target's definitions and include directories, the preprocessor flags
  # of CMAKE_CXX_FLAGS and CMAKE_CXX_FLAGS_<CONFIG> (set on the target at the
  # end of the directory, whose values the compiler gets) and of its compile
  # options, then the -std that CMake adds after all of them.
  _stencilc_flag_regexes()
  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(definitions "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(options "$<FILTER:$<TARGET_PROPERTY:${target},COMPILE_OPTIONS>,INCLUDE,${pp_flag_regex}>")
  set(variable_flags "$<TARGET_GENEX_EVAL:${target},$<TARGET_PROPERTY:${target},STENCILC_CXX_FLAGS>>")
  set(runtime_includes "$<TARGET_PROPERTY:Stencilc::runtime,INTERFACE_INCLUDE_DIRECTORIES>")
  _stencilc_std_flag(std std_is_set ${target})
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
  # stencilc puts -std=c++17 first; the compiler's default comes next, so
  # that a -std in the flags wins as it does for the compiler.
  # Lists tested as empty, not false: a definition NO is one. -fopenmp: the
  # target links OpenMP (below), so its compiler defines _OPENMP.
  set(clang_args
      "$<$<NOT:${std_is_set}>:${std}>" ${colour} -fopenmp
      "$<$<NOT:$<STREQUAL:${definitions},>>:-D$<JOIN:${definitions},$<SEMICOLON>-D>>"
      "$<$<NOT:$<STREQUAL:${includes},>>:-I$<JOIN:${includes},$<SEMICOLON>-I>>"
      "$<$<NOT:$<STREQUAL:${runtime_includes},>>:-I$<JOIN:${runtime_includes},$<SEMICOLON>-I>>"
      "${variable_flags}" "${options}"
      "$<${std_is_set}:${std}>")

  # Multi-configuration generators build each configuration from its own
  # generated code (definitions may differ by $<CONFIG>).
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/stencilc/${target}")
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(multi_config)
    if(CMAKE_CROSS_CONFIGS)
      message(FATAL_ERROR "stencilc_add_sources(${target}): Ninja Multi-Config with "
                          "CMAKE_CROSS_CONFIGS is not supported: CMake (3.25 at least) crashes "
                          "on a rule with per-configuration outputs and a depfile, which the "
                          "helper needs; unset CMAKE_CROSS_CONFIGS and build one configuration "
                          "per call (cmake --build <dir> --config <config>)")
    endif()
    foreach(config IN LISTS CMAKE_CONFIGURATION_TYPES)
      file(MAKE_DIRECTORY "${out_dir}/${config}")
    endforeach()
    string(APPEND out_dir "/$<CONFIG>")
  else()
    file(MAKE_DIRECTORY "${out_dir}")
  endif()
  # Stems and sources of earlier calls for this target: their outputs are taken.
  get_property(stems TARGET ${target} PROPERTY STENCILC_STEMS)
  get_property(sources TARGET ${target} PROPERTY STENCILC_SOURCES)
  set(generated "")
  set(stamps "")
  foreach(file IN LISTS ARG_FILES)
    get_filename_component(source "${file}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_source_file_property(is_generated "${source}" GENERATED)
    if(NOT EXISTS "${source}" AND NOT is_generated)
      message(FATAL_ERROR "stencilc_add_sources(${target}): FILES entry '${file}' does not exist "
                          "(a misspelled keyword? the keywords are FILES, BACKENDS and OPTIONS)")
    endif()
    get_filename_component(stem "${source}" NAME_WLE)
    if(source IN_LIST sources)
      message(FATAL_ERROR "stencilc_add_sources(${target}): '${file}' is given twice for this "
                          "target: stencilc runs once per file and target; give it once, with "
                          "all of its OPTIONS")
    elseif(stem IN_LIST stems)
      message(FATAL_ERROR "stencilc_add_sources(${target}): two FILES named '${stem}' (here or in "
                          "an earlier call for this target): their generated files would "
                          "collide; rename one or use another target")
    endif()
    list(APPEND stems "${stem}")
    list(APPEND sources "${source}")
    # For the end-of-directory checks (_stencilc_finish).
    set_property(TARGET ${target} PROPERTY "STENCILC_OPTIONS_${stem}" "${ARG_OPTIONS}")
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
    # alike, whichever backends and in whatever order. Headers that the
    # target's own rules generate are made first (set by _stencilc_finish).
    # Where the build has a compilation database and the target compiles the
    # source (_stencilc_finish decides), stencilc reads the source's own
    # compile command from it: every flag the compiler gets, in its order
    # (precompiled headers, add_definitions, COMPILE_FLAGS, the predefined
    # macros of -O or -fopenmp ...). Else the flags gathered above.
    # (The target's EXPORT_COMPILE_COMMANDS as generated: a parent directory
    # may turn it off after this directory ended.)
    set(database "$<AND:$<BOOL:$<TARGET_PROPERTY:${target},STENCILC_DATABASE_${stem}>>,$<BOOL:$<TARGET_PROPERTY:${target},EXPORT_COMPILE_COMMANDS>>>")
    set(flag_args "$<$<NOT:${database}>:-->")
    foreach(arg IN LISTS clang_args)
      list(APPEND flag_args "$<$<NOT:${database}>:${arg}>")
    endforeach()
    set(database_args
        "$<${database}:-p$<SEMICOLON>${CMAKE_BINARY_DIR}$<SEMICOLON>--database-output=CMakeFiles/${target}.dir/>")
    if(colour)
      list(APPEND database_args "$<${database}:--extra-arg=${colour}>")
    endif()
    add_custom_command(
      OUTPUT "${stamp}"
      BYPRODUCTS ${outputs}
      COMMAND Stencilc::stencilc "${source}" -o "${out_dir}" "--emit=${emit}"
              "--depfile=${depfile}" "--stamp=${stamp}" ${ARG_OPTIONS} ${database_args}
              ${flag_args}
      DEPENDS "${source}" Stencilc::stencilc
              "$<TARGET_PROPERTY:${target},STENCILC_GENERATED_HEADERS>"
              "$<${database}:${CMAKE_BINARY_DIR}/compile_commands.json>"
      DEPFILE "${depfile}"
      COMMENT "stencilc: generating ${shown}.stencil.* (${ARG_BACKENDS})"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    list(APPEND generated ${outputs})
    list(APPEND stamps "${stamp}")
    # Its OpenMP file, one per configuration (_stencilc_finish gives it the
    # source's own compile options).
    set(generated_cpp "")
    foreach(config IN LISTS CMAKE_CONFIGURATION_TYPES ITEMS "")
      if(NOT multi_config AND config STREQUAL "" OR multi_config AND NOT config STREQUAL "")
        string(REPLACE "$<CONFIG>" "${config}" file_cpp "${out_dir}/${stem}.stencil.cpp")
        list(APPEND generated_cpp "${file_cpp}")
      endif()
    endforeach()
    if(".stencil.cpp" IN_LIST suffixes)
      set_property(TARGET ${target} PROPERTY "STENCILC_GENERATED_CPP_${stem}" "${generated_cpp}")
    endif()
  endforeach()
  set_property(TARGET ${target} PROPERTY STENCILC_STEMS "${stems}")
  set_property(TARGET ${target} PROPERTY STENCILC_SOURCES "${sources}")

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
  # Source properties name files, one per configuration.
  set(generated_files "")
  if(multi_config)
    foreach(config IN LISTS CMAKE_CONFIGURATION_TYPES)
      string(REPLACE "$<CONFIG>" "${config}" config_files "${generated}")
      list(APPEND generated_files ${config_files})
    endforeach()
  else()
    set(generated_files ${generated})
  endif()
  source_group("stencilc generated" FILES ${generated_files})
  # A unity build would compile the generated code inside another file, after
  # that file's own definitions.
  set_property(SOURCE ${generated_files} PROPERTY SKIP_UNITY_BUILD_INCLUSION ON)
  # What can only be known once the directory has set everything up.
  get_property(finish_deferred TARGET ${target} PROPERTY STENCILC_FINISH_DEFERRED)
  if(NOT finish_deferred)
    set_property(TARGET ${target} PROPERTY STENCILC_FINISH_DEFERRED TRUE)
    cmake_language(EVAL CODE "cmake_language(DEFER CALL _stencilc_finish [[${target}]] [[${code_target}]])")
  endif()

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
    list(FILTER generated_files INCLUDE REGEX "\\.cu$")
    set_property(SOURCE ${generated_files} APPEND PROPERTY COMPILE_OPTIONS
                 "$<$<CONFIG:Release,RelWithDebInfo>:-lineinfo>")
  endif()
endfunction()

# _stencilc_std_flag(<std var> <is set var> <target>)
#
# The -std the target's compiler uses, as generator expressions: <std var>
# the flag, <is set var> a condition, true where CMake adds the flag itself
# (the target's CXX_STANDARD is set, or a cxx_std_NN compile feature of it or
# of what it links asks for more than the compiler's default), false where
# the compiler's default stands. The standard is the largest of CXX_STANDARD
# and the cxx_std_NN features (or the default), with GNU extensions unless
# CXX_EXTENSIONS is OFF. Spelt as stencilc's Clang 16 accepts (c++2b for 23).
function(_stencilc_std_flag std_var is_set_var target)
  set(standard "$<TARGET_PROPERTY:${target},CXX_STANDARD>")
  set(features "$<TARGET_PROPERTY:${target},COMPILE_FEATURES>")
  set(default "${CMAKE_CXX_STANDARD_DEFAULT}")
  if(NOT default)
    set(default 17)
  endif()
  set(levels 98 11 14 17 20 23 26)
  set(names 98 11 14 17 20 2b 2c)
  list(FIND levels "${default}" default_rank)
  math(EXPR above_default_rank "${default_rank} + 1")
  # at_least_<level>: the standard is <level> or newer.
  list(LENGTH levels count)
  math(EXPR last "${count} - 1")
  set(above_default "0")
  foreach(rank RANGE ${last} 0 -1)
    list(GET levels ${rank} level)
    set(asks "$<STREQUAL:${standard},${level}>,$<IN_LIST:cxx_std_${level},${features}>")
    if(rank EQUAL last)
      set(at_least_${level} "$<OR:${asks}>")
    else()
      set(at_least_${level} "$<OR:${asks},${at_least_${previous}}>")
    endif()
    if(rank EQUAL above_default_rank)
      set(above_default "${at_least_${level}}")
    endif()
    set(previous ${level})
  endforeach()
  set(level_name "${default}")
  list(GET names ${default_rank} level_name)
  foreach(rank RANGE 0 ${last})
    list(GET levels ${rank} level)
    list(GET names ${rank} name)
    if(rank LESS_EQUAL default_rank)
      # Below the default, only CXX_STANDARD can ask for it.
      set(level_name "$<IF:$<AND:$<BOOL:${standard}>,${at_least_${level}}>,${name},${level_name}>")
    else()
      set(level_name "$<IF:${at_least_${level}},${name},${level_name}>")
    endif()
  endforeach()
  set(extensions "$<TARGET_PROPERTY:${target},CXX_EXTENSIONS>")
  set(${std_var}
      "-std=$<IF:$<OR:$<STREQUAL:${extensions},>,$<BOOL:${extensions}>>,gnu,c>++${level_name}"
      PARENT_SCOPE)
  set(${is_set_var} "$<OR:$<BOOL:${standard}>,${above_default}>" PARENT_SCOPE)
endfunction()

# _stencilc_usage_targets(<var> <target>)
#
# <target> and the targets whose usage requirements it gets (through
# LINK_LIBRARIES, then INTERFACE_LINK_LIBRARIES), as far as they can be read
# before generation: $<BUILD_INTERFACE:t> is followed, other expressions not.
function(_stencilc_usage_targets var target)
  set(found "")
  set(queue ${target})
  set(property LINK_LIBRARIES)
  while(queue)
    list(POP_FRONT queue current)
    get_target_property(real ${current} ALIASED_TARGET)
    if(real)
      set(current ${real})
    endif()
    if(current IN_LIST found)
      continue()
    endif()
    list(APPEND found ${current})
    get_target_property(libraries ${current} ${property})
    get_target_property(interface_libraries ${current} INTERFACE_LINK_LIBRARIES)
    set(property INTERFACE_LINK_LIBRARIES)
    foreach(library IN LISTS libraries interface_libraries)
      if(library MATCHES "^\\$<BUILD_INTERFACE:([^<>]*)>$")
        set(library "${CMAKE_MATCH_1}")
      endif()
      if(TARGET "${library}")
        list(APPEND queue "${library}")
      endif()
    endforeach()
  endwhile()
  set(${var} ${found} PARENT_SCOPE)
endfunction()

# The sources target compiles (its SOURCES, absolute; generator
# expressions such as $<TARGET_OBJECTS:...> left out) into out.
function(_stencilc_compiled_sources out target)
  set(result "")
  get_target_property(dir ${target} SOURCE_DIR)
  get_target_property(target_sources ${target} SOURCES)
  foreach(source IN LISTS target_sources)
    if(source AND NOT source MATCHES "\\$<")
      get_filename_component(source "${source}" ABSOLUTE BASE_DIR "${dir}")
      list(APPEND result "${source}")
    endif()
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# _stencilc_finish(<target> <code target>)
#
# Deferred to the end of the directory that called stencilc_add_sources, where
# the variables have the values the target's compiler gets: sets
# STENCILC_CXX_FLAGS (the preprocessor flags of CMAKE_CXX_FLAGS and
# CMAKE_CXX_FLAGS_<CONFIG>) and STENCILC_GENERATED_HEADERS (the target's
# headers made by its own rules, which stencilc must wait for), and stops on
# what the compiler would see but stencilc cannot.
function(_stencilc_finish target code_target)
  _stencilc_flag_regexes()
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(multi_config)
    set(configs ${CMAKE_CONFIGURATION_TYPES})
  else()
    set(configs ${CMAKE_BUILD_TYPE})
  endif()
  set(flags "")
  # "-": the flags of every configuration.
  foreach(config IN ITEMS - ${configs})
    if(config STREQUAL "-")
      set(variable CMAKE_CXX_FLAGS)
    else()
      string(TOUPPER "CMAKE_CXX_FLAGS_${config}" variable)
    endif()
    separate_arguments(arguments NATIVE_COMMAND "${${variable}}")
    set(value_next FALSE)
    foreach(argument IN LISTS arguments)
      if(value_next OR argument MATCHES "${pp_flag_regex}|^(${pp_flags})$")
        set(value_next FALSE)
        if(argument MATCHES "^(${pp_flags})$")
          set(value_next TRUE)
        endif()
        # Kept as text through $<TARGET_GENEX_EVAL> and $<CONFIG:...>.
        string(REPLACE ">" "$<ANGLE-R>" argument "${argument}")
        string(REPLACE "," "$<COMMA>" argument "${argument}")
        string(REPLACE ";" "$<SEMICOLON>" argument "${argument}")
        if(config STREQUAL "-")
          list(APPEND flags "${argument}")
        else()
          list(APPEND flags "$<$<CONFIG:${config}>:${argument}>")
        endif()
      endif()
    endforeach()
  endforeach()
  set_property(TARGET ${target} PROPERTY STENCILC_CXX_FLAGS "${flags}")

  # Only where the stencilc rules are the target's own (not a STATIC library's
  # <target>.stencilc): a Makefile builds a rule's output in its own target.
  set(generated_headers "")
  if(code_target STREQUAL target)
    get_target_property(target_sources ${target} SOURCES)
    foreach(source IN LISTS target_sources)
      if(NOT source MATCHES "\\$<" AND source MATCHES "\\.(h|hh|hpp|hxx|h\\+\\+|inc|inl|ipp|tpp|cuh)$")
        get_source_file_property(is_generated "${source}" GENERATED)
        if(is_generated)
          get_source_file_property(location "${source}" LOCATION)
          list(APPEND generated_headers "${location}")
        endif()
      endif()
    endforeach()
  endif()
  set_property(TARGET ${target} PROPERTY STENCILC_GENERATED_HEADERS "${generated_headers}")

  # The compilation database: CMake writes one for Makefile and Ninja
  # generators of one configuration (the target's EXPORT_COMPILE_COMMANDS),
  # with a command for each source a target compiles. A DSL source there is
  # read with its own command (and kept out of unity builds, which compile
  # it inside another file); the others with the flags gathered here.
  get_property(sources TARGET ${target} PROPERTY STENCILC_SOURCES)
  set(flag_sources "")
  set(uncompiled "")
  get_target_property(target_dir ${target} SOURCE_DIR)
  _stencilc_compiled_sources(compiled ${target})
  foreach(source IN LISTS sources)
    get_filename_component(stem "${source}" NAME_WLE)
    # The file the target compiles, named by another path (a symbolic link):
    # its properties and compile command are the other path's.
    if(NOT source IN_LIST compiled)
      file(REAL_PATH "${source}" real)
      foreach(other IN LISTS compiled)
        file(REAL_PATH "${other}" other_real)
        if(real STREQUAL other_real)
          file(RELATIVE_PATH shown "${CMAKE_CURRENT_SOURCE_DIR}" "${source}")
          file(RELATIVE_PATH other_shown "${CMAKE_CURRENT_SOURCE_DIR}" "${other}")
          message(FATAL_ERROR "stencilc_add_sources(${target}): FILES entry ${shown} is "
                              "${other_shown}, which ${target} compiles, by another path: give "
                              "it as ${other_shown} (the compiler's flags for it are known by "
                              "that path)")
        endif()
      endforeach()
      list(APPEND uncompiled "${source}")
    endif()
    # Compiled as C++ (a .cu's command is nvcc's, which stencilc cannot use;
    # a HEADER_FILE_ONLY source, #included by another, has none).
    get_source_file_property(language "${source}" LANGUAGE)
    get_source_file_property(header_only "${source}" HEADER_FILE_ONLY)
    set(is_cxx OFF)
    if(NOT header_only AND (language STREQUAL "CXX" OR
       (NOT language AND source MATCHES "\\.(cpp|cc|cxx|c\\+\\+|C)$")))
      set(is_cxx ON)
    endif()
    # A C++ source another target compiles and this one does not: its code
    # is built with that target's flags, which stencilc would not see.
    if(is_cxx AND NOT source IN_LIST compiled)
      get_directory_property(neighbours DIRECTORY "${target_dir}" BUILDSYSTEM_TARGETS)
      foreach(neighbour IN LISTS neighbours)
        if(NOT neighbour STREQUAL target AND NOT neighbour STREQUAL "${target}.stencilc")
          _stencilc_compiled_sources(neighbour_compiled ${neighbour})
          if(source IN_LIST neighbour_compiled)
            file(RELATIVE_PATH shown "${CMAKE_CURRENT_SOURCE_DIR}" "${source}")
            message(FATAL_ERROR "stencilc_add_sources(${target}): ${shown} is compiled by "
                                "${neighbour}, not by ${target}, so stencilc would read it with "
                                "other flags than the compiler's: call "
                                "stencilc_add_sources(${neighbour} FILES ${shown}) instead")
          endif()
        endif()
      endforeach()
    endif()
    if(is_cxx AND source IN_LIST compiled AND NOT multi_config
       AND CMAKE_GENERATOR MATCHES "Ninja|Makefiles")
      set_property(TARGET ${target} PROPERTY EXPORT_COMPILE_COMMANDS ON)
      set_property(TARGET ${target} PROPERTY "STENCILC_DATABASE_${stem}" ON)
      set_property(SOURCE "${source}" PROPERTY SKIP_UNITY_BUILD_INCLUSION ON)
    else()
      list(APPEND flag_sources "${source}")
    endif()
    # The source's own code generation flags (-mfma, -ffp-contract=off ...)
    # shape the host reference: its generated OpenMP code gets them too.
    get_property(generated TARGET ${target} PROPERTY "STENCILC_GENERATED_CPP_${stem}")
    get_source_file_property(options "${source}" COMPILE_OPTIONS)
    get_source_file_property(flags "${source}" COMPILE_FLAGS)
    if(generated AND options)
      set_property(SOURCE ${generated} APPEND PROPERTY COMPILE_OPTIONS ${options})
    endif()
    if(generated AND flags)
      set_property(SOURCE ${generated} APPEND_STRING PROPERTY COMPILE_FLAGS " ${flags}")
    endif()
  endforeach()

  # A DSL source the target does not compile (a header) is read with the
  # target's flags; a source that includes it compiles its code with its own
  # too, which stencilc cannot know of.
  if(uncompiled)
    set(own "")
    foreach(other IN LISTS compiled)
      foreach(property COMPILE_DEFINITIONS INCLUDE_DIRECTORIES COMPILE_OPTIONS COMPILE_FLAGS)
        get_source_file_property(values "${other}" ${property})
        if(values)
          file(RELATIVE_PATH other_shown "${CMAKE_CURRENT_SOURCE_DIR}" "${other}")
          string(APPEND own "\n  ${property} '${values}' of ${other_shown}")
        endif()
      endforeach()
    endforeach()
    if(own)
      set(shown "")
      foreach(source IN LISTS uncompiled)
        file(RELATIVE_PATH source_shown "${CMAKE_CURRENT_SOURCE_DIR}" "${source}")
        list(APPEND shown "${source_shown}")
      endforeach()
      list(JOIN shown ", " shown)
      message(WARNING "stencilc_add_sources(${target}): stencilc reads ${shown} with the "
                      "flags of ${target}, not with a source's own; where one of these sources "
                      "includes it, its code there sees flags that the generated code does "
                      "not (put them on the target, or repeat them in OPTIONS as "
                      "--extra-arg=...):${own}")
    endif()
  endif()

  # What stencilc cannot see where it has no command of the source: the DSL
  # sources' own properties (unless each flag is also in the file's OPTIONS
  # as --extra-arg), and C++-only entries of the target's usage requirements
  # ($<COMPILE_LANGUAGE:CXX> is false in stencilc's rule, which compiles no
  # language).
  set(unseen "")
  if(NOT flag_sources)
    return()
  endif()
  foreach(source IN LISTS flag_sources)
    get_filename_component(stem "${source}" NAME_WLE)
    get_property(options TARGET ${target} PROPERTY "STENCILC_OPTIONS_${stem}")
    file(RELATIVE_PATH shown "${CMAKE_CURRENT_SOURCE_DIR}" "${source}")
    foreach(property COMPILE_DEFINITIONS COMPILE_OPTIONS COMPILE_FLAGS INCLUDE_DIRECTORIES)
      get_source_file_property(values "${source}" ${property})
      if(NOT values)
        continue()
      endif()
      if(property STREQUAL "COMPILE_FLAGS")
        separate_arguments(values NATIVE_COMMAND "${values}")
      endif()
      set(prefix "")
      if(property STREQUAL "COMPILE_DEFINITIONS")
        set(prefix -D)
      elseif(property STREQUAL "INCLUDE_DIRECTORIES")
        set(prefix -I)
      endif()
      foreach(value IN LISTS values)
        if(property MATCHES "^COMPILE_(OPTIONS|FLAGS)$" AND NOT value MATCHES "${pp_flag_regex}")
          continue()
        endif()
        if(NOT "--extra-arg=${prefix}${value}" IN_LIST options
           AND NOT "-extra-arg=${prefix}${value}" IN_LIST options)
          string(APPEND unseen "\n  ${property} '${value}' of the source file ${shown} "
                               "(put it on the target, or add OPTIONS --extra-arg=${prefix}${value})")
        endif()
      endforeach()
    endforeach()
  endforeach()
  # The target's own COMPILE_FLAGS and precompiled headers.
  get_target_property(values ${target} COMPILE_FLAGS)
  separate_arguments(values NATIVE_COMMAND "${values}")
  foreach(value IN LISTS values)
    if(value MATCHES "${pp_flag_regex}")
      string(APPEND unseen "\n  COMPILE_FLAGS '${value}' of ${target} (use "
                           "target_compile_options or target_compile_definitions)")
    endif()
  endforeach()
  get_target_property(headers ${target} PRECOMPILE_HEADERS)
  get_target_property(reused ${target} PRECOMPILE_HEADERS_REUSE_FROM)
  if(headers OR reused)
    string(APPEND unseen "\n  the precompiled headers of ${target} (seen only where the build "
                         "has a compilation database: a Makefile or Ninja generator of one "
                         "configuration, with the DSL source compiled by ${target})")
  endif()
  set(language_regex "\\$<COMPILE_LANG[A-Z_]*:[^>]*CXX|\\$<COMPILE_LANGUAGE>")
  _stencilc_usage_targets(usage_targets ${target})
  foreach(usage_target IN LISTS usage_targets)
    set(prefix INTERFACE_)
    if(usage_target STREQUAL target)
      set(prefix "")
    endif()
    foreach(property COMPILE_DEFINITIONS COMPILE_OPTIONS INCLUDE_DIRECTORIES)
      get_target_property(values ${usage_target} ${prefix}${property})
      if(NOT values)
        continue()
      endif()
      foreach(value IN LISTS values)
        if(property STREQUAL "COMPILE_OPTIONS")
          if(value MATCHES "^SHELL:.*(${pp_flags})|^(${pp_flags})$")
            string(APPEND unseen "\n  ${prefix}COMPILE_OPTIONS '${value}' of ${usage_target}, "
                                 "an option split from its value (join them: -DX=1, -I/dir, "
                                 "-include/dir/file.h)")
          endif()
          if(NOT value MATCHES "(^|[:>])(${pp_flags}|-std=)")
            continue()
          endif()
        endif()
        if(value MATCHES "${language_regex}")
          string(APPEND unseen "\n  ${prefix}${property} '${value}' of ${usage_target} (make it "
                               "unconditional, or exclude other languages instead: "
                               "$<$<NOT:$<COMPILE_LANGUAGE:CUDA>>:...>)")
        endif()
      endforeach()
    endforeach()
  endforeach()
  if(unseen)
    message(FATAL_ERROR "stencilc_add_sources(${target}): the compiler sees flags that stencilc "
                        "would not, so the generated code would differ from the host code:"
                        "${unseen}")
  endif()
endfunction()

# StencilcPackage.cmake - makes find_package(Stencilc) work from this build
# tree (-DStencilc_DIR=<build dir>) and from an install
# (-DCMAKE_PREFIX_PATH=<prefix>). Both give the same imported targets,
# Stencilc::stencilc (the compiler) and Stencilc::runtime (the header-only
# runtime), and the stencilc_add_sources() helper.
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(STENCILC_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/Stencilc" CACHE STRING
    "Where the Stencilc CMake package is installed, relative to the prefix")
mark_as_advanced(STENCILC_INSTALL_CMAKEDIR)

# The helper is loaded from next to the config file in both trees.
configure_file("${CMAKE_CURRENT_LIST_DIR}/StencilcHelpers.cmake"
               "${CMAKE_CURRENT_BINARY_DIR}/StencilcHelpers.cmake" COPYONLY)

write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/StencilcConfigVersion.cmake"
                                 VERSION ${PROJECT_VERSION}
                                 COMPATIBILITY SameMinorVersion)

# Build tree: the config sits at the top of the build directory.
export(EXPORT StencilcTargets NAMESPACE Stencilc::
       FILE "${CMAKE_CURRENT_BINARY_DIR}/StencilcTargets.cmake")
if(STENCILC_HAVE_MPI)
  export(EXPORT StencilcMpiTargets NAMESPACE Stencilc::
         FILE "${CMAKE_CURRENT_BINARY_DIR}/StencilcMpiTargets.cmake")
endif()
configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/StencilcConfig.cmake.in"
                              "${CMAKE_CURRENT_BINARY_DIR}/StencilcConfig.cmake"
                              INSTALL_DESTINATION "${CMAKE_CURRENT_BINARY_DIR}"
                              INSTALL_PREFIX "${CMAKE_CURRENT_BINARY_DIR}")

# Install tree.
install(EXPORT StencilcTargets NAMESPACE Stencilc::
        FILE StencilcTargets.cmake
        DESTINATION "${STENCILC_INSTALL_CMAKEDIR}")
if(STENCILC_HAVE_MPI)
  install(EXPORT StencilcMpiTargets NAMESPACE Stencilc::
          FILE StencilcMpiTargets.cmake
          DESTINATION "${STENCILC_INSTALL_CMAKEDIR}")
endif()
configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/StencilcConfig.cmake.in"
                              "${CMAKE_CURRENT_BINARY_DIR}/install-config/StencilcConfig.cmake"
                              INSTALL_DESTINATION "${STENCILC_INSTALL_CMAKEDIR}")
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/install-config/StencilcConfig.cmake"
              "${CMAKE_CURRENT_BINARY_DIR}/StencilcConfigVersion.cmake"
              "${CMAKE_CURRENT_LIST_DIR}/StencilcHelpers.cmake"
        DESTINATION "${STENCILC_INSTALL_CMAKEDIR}")

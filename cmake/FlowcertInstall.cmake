# `cmake --install` and CPack (issue 18): the libraries as targets flowcert::interval ... flowcert::cert
# (flowcertConfig.cmake), a pkg-config file, the command and the verifiers, the shipped cases, and the
# Python module where Debian's python3 finds it. Layout under the prefix:
#   include/flowcert/...                     headers
#   lib/<multiarch>/libflowcert_*.a          static libraries (position independent)
#   lib/<multiarch>/cmake/flowcert/          flowcertConfig.cmake, flowcertTargets.cmake, version file
#   lib/<multiarch>/pkgconfig/flowcert.pc
#   libexec/flowcert/tools/flowcert          the command; bin/flowcert links to it, and `flowcert certify`
#   libexec/flowcert/verifiers/<paper>/<x>   finds the verifiers at ../verifiers, as in the build tree
#   share/flowcert/cases/                    the shipped case files
#   <python dir>/flowcert/                   the Python package (FLOWCERT_PYTHON_INSTALL_DIR)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(FLOWCERT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/flowcert)
set(FLOWCERT_INSTALL_LIBEXECDIR ${CMAKE_INSTALL_LIBEXECDIR}/flowcert)

set(_flowcert_layers interval linalg taylor ode nets cert)
set(_flowcert_targets flowcert_mpfi)
foreach(layer ${_flowcert_layers})
  set_target_properties(flowcert_${layer} PROPERTIES EXPORT_NAME ${layer})
  list(APPEND _flowcert_targets flowcert_${layer})
endforeach()
set_target_properties(flowcert_mpfi PROPERTIES EXPORT_NAME mpfi)

install(TARGETS ${_flowcert_targets} EXPORT flowcertTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/flowcert DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.hpp")
install(EXPORT flowcertTargets NAMESPACE flowcert:: DESTINATION ${FLOWCERT_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/flowcertConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/flowcertConfig.cmake INSTALL_DESTINATION ${FLOWCERT_INSTALL_CMAKEDIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/flowcertConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/flowcertConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/flowcertConfigVersion.cmake
  DESTINATION ${FLOWCERT_INSTALL_CMAKEDIR})

# pkg-config: every layer in one file (link order top layer first); the Debian packages' own .pc names.
file(RELATIVE_PATH FLOWCERT_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)  # relocatable (cpack)
configure_file(${CMAKE_CURRENT_LIST_DIR}/flowcert.pc.in ${CMAKE_CURRENT_BINARY_DIR}/flowcert.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/flowcert.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The command and the verifiers, in the build tree's relative layout.
install(TARGETS flowcert RUNTIME DESTINATION ${FLOWCERT_INSTALL_LIBEXECDIR}/tools)
get_property(_verifiers GLOBAL PROPERTY FLOWCERT_VERIFIER_TARGETS)
foreach(v ${_verifiers})
  get_target_property(_dir ${v} RUNTIME_OUTPUT_DIRECTORY)
  get_filename_component(_paper ${_dir} NAME)
  install(TARGETS ${v} RUNTIME DESTINATION ${FLOWCERT_INSTALL_LIBEXECDIR}/verifiers/${_paper})
endforeach()
file(RELATIVE_PATH _bin_to_tool ${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}
     ${CMAKE_INSTALL_PREFIX}/${FLOWCERT_INSTALL_LIBEXECDIR}/tools/flowcert)
install(CODE "file(MAKE_DIRECTORY \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\")
  file(CREATE_LINK \"${_bin_to_tool}\" \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/flowcert\" SYMBOLIC)")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/cases/ DESTINATION ${CMAKE_INSTALL_DATADIR}/flowcert/cases
  FILES_MATCHING PATTERN "*.toml" PATTERN "*.npy")
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CITATION.cff ${PROJECT_SOURCE_DIR}/CHANGELOG.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The Debian package: `cpack -G DEB` in the build directory (prefix /usr).
set(CPACK_PACKAGE_NAME flowcert)
set(CPACK_PACKAGE_VENDOR "the flowcert authors")
set(CPACK_PACKAGE_CONTACT "flowcert maintainers <flowcert@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "certificates for the numeric claims of gradient-flow theorems (interval arithmetic)")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)  # every installed path is relative to the prefix (relocatable)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)   # runtime libraries (libmpfi0, libmpfr6, libssl3, ...) from dpkg-shlibdeps
# What the installed headers, flowcertConfig.cmake and the Python module need besides the shared libraries.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libboost-dev, libeigen3-dev, libgmp-dev, libmpfr-dev, libmpfi-dev, nlohmann-json3-dev, libtomlplusplus-dev, libcli11-dev, libssl-dev, pkg-config, python3, python3-numpy")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-matplotlib, cmake, g++")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-torch, python3-pandas, python3-nbclient")
set(CPACK_GENERATOR DEB)
include(CPack)

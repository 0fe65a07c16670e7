# `make install` (cmake --install, honouring --prefix and DESTDIR) and `make deb` (CPack DEB).
# Installed: bin/boreas, the man page and shell completions generated from the binary's CLI at
# install time (cmake/InstallGenerated.cmake), the systemd unit and its single-account drop-in.
# The GPU catalog (data/gpus.yaml) is compiled into the binary, so no data file is installed.
include(GNUInstallDirs)
if(NOT TARGET boreas)
  return()  # a tree without src/cli has nothing to install
endif()

install(TARGETS boreas RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(CODE "set(BOREAS_BINARY \"$<TARGET_FILE:boreas>\")
set(BOREAS_UNIT \"${PROJECT_SOURCE_DIR}/deploy/systemd/boreas.service\")
set(BOREAS_GENERATED \"${PROJECT_BINARY_DIR}/install-generated\")")
install(SCRIPT ${PROJECT_SOURCE_DIR}/cmake/InstallGenerated.cmake)
install(FILES ${PROJECT_SOURCE_DIR}/deploy/systemd/single-account.conf
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)

# The Debian package: `make deb` or `cpack -G DEB` in the build directory.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME boreas)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "Boreas maintainers <boreas@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "workload manager and digital twin for AI clusters")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
# adduser: the postinst creates the `boreas` system account.
set(CPACK_DEBIAN_PACKAGE_DEPENDS adduser)
find_program(BOREAS_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(BOREAS_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # Depends from the libraries the binary links
else()
  message(STATUS "packaging: no dpkg-shlibdeps (package dpkg-dev); the .deb will not list its library dependencies")
endif()
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/deploy/debian/postinst)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_STRIP_FILES ON)
include(CPack)

# Builds the package, unpacks it into a scratch root (dpkg -x, nothing installed on the system),
# runs its boreas, checks the unit and renders the man page.
add_test(NAME packaging_deb
         COMMAND ${PROJECT_SOURCE_DIR}/tests/packaging/deb_test.sh ${PROJECT_BINARY_DIR}
                 ${PROJECT_BINARY_DIR}/test-output/packaging)
set_tests_properties(packaging_deb PROPERTIES LABELS integration TIMEOUT 120 SKIP_RETURN_CODE 77)

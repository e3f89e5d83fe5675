# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package: `cpack -G DEB` in a build folder (ci/package.sh) packs what Install.cmake
# installs, with Depends: computed by dpkg-shlibdeps from the binary's libraries.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ioregress)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "kernel-version block-I/O regression test harness")
set(CPACK_PACKAGE_DESCRIPTION
    "ioregress answers one question for kernel testers: did this kernel change block I/O\n"
    "performance, or is it noise? It runs a test matrix of devices, I/O schedulers and\n"
    "benchmark engines (hdparm-style reads, libaio and io_uring jobs, dd, loop stacks,\n"
    "fio), stores every sample in SQLite, and judges variance, regressions between\n"
    "kernels and scheduler changes, with exit statuses for git bisect run.")
string(REPLACE ";" "" CPACK_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_PACKAGE_CONTACT "The ioregress authors <ioregress@users.noreply.example>" CACHE STRING
    "Maintainer: of the Debian package")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)           # ioregress_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)            # Depends: from the ELF's NEEDED libraries
# The fio engine runs fio; the loop engine formats ext4 levels with mke2fs; `vm run` boots kernels
# with qemu and a static busybox as the guest's userland.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fio, e2fsprogs")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "qemu-system-x86, busybox-static, hdparm")
set(CPACK_STRIP_FILES ON)

# Debian's place for the licence: /usr/share/doc/ioregress/copyright.
install(FILES ${CMAKE_SOURCE_DIR}/cmake/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})

include(CPack)

# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package: `cpack -G DEB` in a build folder (ci/package.sh) packs what Install.cmake
# installs, with Depends: computed by dpkg-shlibdeps from the binary's libraries.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ioregress)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "kernel-version block-I/O regression test harness")
set(CPACK_PACKAGE_DESCRIPTION
    "ioregress answers one question for kernel testers: did this kernel change\n"
    "block I/O performance, or is it noise? It runs a test matrix of devices, I/O\n"
    "schedulers and benchmark engines (hdparm-style reads, libaio and io_uring\n"
    "jobs, dd, loop stacks, fio) on this machine or in qemu guests of other\n"
    "kernels, stores every sample in SQLite, and judges variance, regressions\n"
    "between kernels and scheduler changes, with exit statuses for git bisect run.")
string(REPLACE ";" "" CPACK_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
# Maintainer: the person who builds the package, as Debian's tools name them: DEBFULLNAME and
# DEBEMAIL, else the source tree's git user.name and user.email; IOR_DEB_MAINTAINER overrides.
find_program(IOR_GIT git)
set(ior_maintainer "")
if(DEFINED ENV{DEBFULLNAME} AND DEFINED ENV{DEBEMAIL})
  set(ior_maintainer "$ENV{DEBFULLNAME} <$ENV{DEBEMAIL}>")
else()
  if(IOR_GIT)
    execute_process(COMMAND ${IOR_GIT} -C ${CMAKE_SOURCE_DIR} config user.name OUTPUT_VARIABLE ior_git_name
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    execute_process(COMMAND ${IOR_GIT} -C ${CMAKE_SOURCE_DIR} config user.email OUTPUT_VARIABLE ior_git_email
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(ior_git_name AND ior_git_email)
      set(ior_maintainer "${ior_git_name} <${ior_git_email}>")
    endif()
  endif()
endif()
if(NOT ior_maintainer)
  message(WARNING "no maintainer for the Debian package: set DEBFULLNAME and DEBEMAIL, or -DIOR_DEB_MAINTAINER")
  set(ior_maintainer "ioregress packager <root@localhost>")
endif()
set(IOR_DEB_MAINTAINER "${ior_maintainer}" CACHE STRING "Maintainer: of the Debian package (Name <email>)")
set(CPACK_PACKAGE_CONTACT "${IOR_DEB_MAINTAINER}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)           # ioregress_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)            # Depends: from the ELF's NEEDED libraries
# The fio engine runs fio; the loop engine formats ext4 levels with mke2fs; `vm run` boots kernels
# with qemu and a static busybox as the guest's userland: recommended, so a package-only install
# (apt installs Recommends by default) runs the whole journey, vm run included.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fio, e2fsprogs, qemu-system-x86, busybox-static")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "hdparm")
set(CPACK_STRIP_FILES ON)

# Debian's place for the licence: /usr/share/doc/ioregress/copyright.
install(FILES ${CMAKE_SOURCE_DIR}/cmake/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})

# A native package's changelog.gz (policy 12.7), in the Debian changelog format, signed by the
# maintainer; dated by the source's last commit, so rebuilding one commit gives the same file.
# The target is deb_changelog, not changelog: Ninja refuses a target named as a file it builds
# (build/changelog).
set(ior_changelog_date "")
if(IOR_GIT)
  execute_process(COMMAND ${IOR_GIT} -C ${CMAKE_SOURCE_DIR} log -1 --format=%aD OUTPUT_VARIABLE ior_changelog_date
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
if(NOT ior_changelog_date)
  string(TIMESTAMP ior_changelog_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
endif()
file(WRITE ${CMAKE_BINARY_DIR}/changelog
     "ioregress (${PROJECT_VERSION}) unstable; urgency=medium\n\n"
     "  * Release ${PROJECT_VERSION}: see /usr/share/doc/ioregress/README.md.\n\n"
     " -- ${IOR_DEB_MAINTAINER}  ${ior_changelog_date}\n")
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/changelog.gz
  COMMAND sh -c "gzip -9n -c \"$0\" > \"$1\"" ${CMAKE_BINARY_DIR}/changelog ${CMAKE_BINARY_DIR}/changelog.gz
  DEPENDS ${CMAKE_BINARY_DIR}/changelog VERBATIM)
add_custom_target(deb_changelog ALL DEPENDS ${CMAKE_BINARY_DIR}/changelog.gz)
install(FILES ${CMAKE_BINARY_DIR}/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})

include(CPack)

# SPDX-License-Identifier: GPL-2.0-or-later
# What `cmake --install` puts under CMAKE_INSTALL_PREFIX (GNUInstallDirs; DESTDIR is honoured):
# the binary and its guest binary, the man pages (built by scdoc when it is present), the bash completion, the
# example matrices and the documents a package carries.

install(TARGETS ioregress RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The guest binary vm run puts into each guest (harness/CMakeLists.txt); ioregress finds it there.
install(TARGETS ioregress-guest RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/ioregress)

# Man pages: the scdoc sources live beside what they describe (harness/man for ioregress(1) and
# one page per command, matrix/man for ioregress-matrix(5)); each builds into man/ of the build
# tree, where tests/test_docs.c and `man -l` find them.
find_program(IOR_SCDOC scdoc)
set(ior_man_pages "")
if(IOR_SCDOC)
  file(GLOB ior_man_sources CONFIGURE_DEPENDS
       ${CMAKE_SOURCE_DIR}/harness/man/*.scd ${CMAKE_SOURCE_DIR}/matrix/man/*.scd)
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/man)
  foreach(src ${ior_man_sources})
    get_filename_component(page ${src} NAME_WLE)             # ioregress-run.1
    string(REGEX REPLACE "^.*\\.([0-9])$" "\\1" section ${page})
    set(out ${CMAKE_BINARY_DIR}/man/${page})
    add_custom_command(OUTPUT ${out}
      COMMAND sh -c "\"$0\" < \"$1\" > \"$2\"" ${IOR_SCDOC} ${src} ${out}
      DEPENDS ${src} COMMENT "scdoc ${page}" VERBATIM)
    # Installed gzipped, as Debian policy (12.1) wants; -n keeps the name and time out, so the
    # package is reproducible. The plain page stays in man/ for tests/test_docs.c.
    add_custom_command(OUTPUT ${out}.gz
      COMMAND sh -c "gzip -9n -c \"$0\" > \"$1\"" ${out} ${out}.gz
      DEPENDS ${out} COMMENT "gzip ${page}" VERBATIM)
    list(APPEND ior_man_pages ${out} ${out}.gz)
    install(FILES ${out}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section})
  endforeach()
  add_custom_target(man ALL DEPENDS ${ior_man_pages})
else()
  message(STATUS "scdoc not found: the man pages are not built (apt-get install scdoc)")
endif()

install(DIRECTORY ${CMAKE_SOURCE_DIR}/matrix/examples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples
        FILES_MATCHING PATTERN "*.ini" PATTERN "*.md")
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/COPYING DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The guide by task, and the measured figures it links to.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs FILES_MATCHING PATTERN "*.md")
install(FILES ${CMAKE_SOURCE_DIR}/bench/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR}/bench)

# The bash completion (harness/CMakeLists.txt writes it from the command descriptors), where
# bash-completion looks for it on demand.
install(FILES ${IOR_COMPLETION_FILE} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)

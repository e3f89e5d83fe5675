# SPDX-License-Identifier: GPL-2.0-or-later
# Finds libaio, which Debian ships without a pkg-config file; defines LibAIO::LibAIO.
find_path(LibAIO_INCLUDE_DIR libaio.h)
find_library(LibAIO_LIBRARY aio)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LibAIO DEFAULT_MSG LibAIO_LIBRARY LibAIO_INCLUDE_DIR)
if(LibAIO_FOUND AND NOT TARGET LibAIO::LibAIO)
  add_library(LibAIO::LibAIO UNKNOWN IMPORTED)
  set_target_properties(LibAIO::LibAIO PROPERTIES
    IMPORTED_LOCATION "${LibAIO_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${LibAIO_INCLUDE_DIR}")
endif()

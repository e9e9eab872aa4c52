# Finds ISA-L (Intel's Intelligent Storage Acceleration Library: the gzip inflate and deflate
# attnprof uses). Debian's libisal-dev ships neither a CMake config nor a pkg-config file.
# Defines ISAL_FOUND and the imported target isal::isal.

find_path(ISAL_INCLUDE_DIR isa-l/igzip_lib.h)
find_library(ISAL_LIBRARY NAMES isal)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(ISAL REQUIRED_VARS ISAL_LIBRARY ISAL_INCLUDE_DIR)

if(ISAL_FOUND AND NOT TARGET isal::isal)
  add_library(isal::isal UNKNOWN IMPORTED)
  set_target_properties(isal::isal PROPERTIES IMPORTED_LOCATION "${ISAL_LIBRARY}"
                                              INTERFACE_INCLUDE_DIRECTORIES "${ISAL_INCLUDE_DIR}")
endif()
mark_as_advanced(ISAL_INCLUDE_DIR ISAL_LIBRARY)

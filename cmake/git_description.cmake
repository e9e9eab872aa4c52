# Writes OUT, a header defining ATTNPROF_GIT_DESCRIPTION (`git describe --always --dirty` of
# SOURCE_DIR, "unknown" outside a git checkout). Run at every build; the file is rewritten only
# when the description changed, so nothing rebuilds otherwise.
execute_process(
  COMMAND git describe --always --dirty --tags
  WORKING_DIRECTORY "${SOURCE_DIR}"
  OUTPUT_VARIABLE description
  OUTPUT_STRIP_TRAILING_WHITESPACE
  ERROR_QUIET
  RESULT_VARIABLE failed)
if(failed OR description STREQUAL "")
  set(description "unknown")
endif()
set(text "#pragma once\n#define ATTNPROF_GIT_DESCRIPTION \"${description}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()

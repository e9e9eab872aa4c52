# Run after each link of attnprof (CMakeLists.txt): the man page and the shell completion scripts,
# written by the binary from its own command-line definition, into OUT (installed from there).
# -DCLI=path/to/attnprof -DOUT=folder
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${CLI} manpage OUTPUT_FILE ${OUT}/attnprof.1 RESULT_VARIABLE failed)
foreach(shell IN ITEMS bash zsh fish)
  if(NOT failed)
    execute_process(COMMAND ${CLI} completion ${shell} OUTPUT_FILE ${OUT}/attnprof.${shell}
                    RESULT_VARIABLE failed)
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "attnprof could not write its man page and completion scripts: ${failed}")
endif()

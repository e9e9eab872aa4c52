# The consumer test: `cmake --install` of this build into a fresh prefix, then a tiny project
# (tests/consumer/) that find_package()s attnprof there, links attnprof::core, and counts the
# kernels of a fixture. Run by CTest with -P; the variables come from tests/CMakeLists.txt:
# BUILD_DIR, WORK_DIR, CONSUMER_DIR, GENERATOR, CXX, CXX_FLAGS, LINKER_FLAGS, BUILD_TYPE, TRACE,
# KERNELS.

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "${what}: ok\n${out}")
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
run("cmake --install" ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")
foreach(installed include/attnprof/analysis.h lib/cmake/attnprof/attnprofConfig.cmake
                  lib/cmake/attnprof/attnprofConfigVersion.cmake)
  if(NOT EXISTS "${prefix}/${installed}")
    file(GLOB_RECURSE listing RELATIVE "${prefix}" "${prefix}/*")
    message(FATAL_ERROR "${installed} was not installed; the prefix holds: ${listing}")
  endif()
endforeach()
run("configure the consumer" ${CMAKE_COMMAND} -S "${CONSUMER_DIR}" -B "${WORK_DIR}/build"
    -G "${GENERATOR}" -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX}
    "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}"
    -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
run("build the consumer" ${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run("count the kernels" "${WORK_DIR}/build/count_kernels" "${TRACE}" "${KERNELS}")

# libFuzzer targets and their CI runs (included by test/CMakeLists.txt).
#
# coz_add_fuzzer(NAME SOURCES file... [INCLUDES dir...] [LIBS flag...])
#   bin/NAME, built in one clang (COZ_CLANG) command whatever the project's
#   C compiler: libFuzzer needs clang, and ASan + UBSan (every UB report
#   fatal) turn a silent bad read into a finding. Rebuilt when a source or
#   a header of an INCLUDES folder changes. Also NAME-cov (built on
#   request: bench/fuzz/coverage.sh), the same sources with clang's
#   source-based coverage instead of the sanitizers, to measure which
#   lines a corpus reaches.
# coz_add_fuzz_test(TEST NAME [SEEDS dir...])
#   ctest TEST (label "fuzz"): bench/fuzz/run.sh fuzzes bin/NAME for 60 s
#   from the SEEDS corpora; new inputs go to the build folder.

# A sanitized tree (COZ_SANITIZE) has no fuzz targets: they carry their own
# sanitizers, and that tree only runs the unit and runtime tests. Without
# clang's sanitizer runtimes (libclang-rt-N-dev, which setup.sh installs)
# the targets are skipped, saying so, rather than failing the build.
set(coz_fuzz_probe ${CMAKE_BINARY_DIR}/fuzz_probe.c)
file(WRITE ${coz_fuzz_probe} "#include <stddef.h>\n#include <stdint.h>\n"
  "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) "
  "{ (void)d; (void)n; return 0; }\n")
execute_process(
  COMMAND ${COZ_CLANG} -fsanitize=fuzzer,address,undefined ${coz_fuzz_probe}
          -o ${CMAKE_BINARY_DIR}/fuzz_probe
  RESULT_VARIABLE coz_fuzz_probe_status OUTPUT_QUIET ERROR_QUIET)
set(COZ_FUZZ_OK TRUE)
if(NOT coz_fuzz_probe_status EQUAL 0)
  set(COZ_FUZZ_OK FALSE)
  message(STATUS "fuzz targets skipped: ${COZ_CLANG} cannot link "
    "-fsanitize=fuzzer; install libclang-rt-${COZ_LLVM_VERSION}-dev")
endif()

function(coz_add_fuzzer name)
  if(COZ_SANITIZE OR NOT COZ_FUZZ_OK)
    return()
  endif()
  cmake_parse_arguments(F "" "" "SOURCES;INCLUDES;LIBS" ${ARGN})
  set(out ${CMAKE_BINARY_DIR}/bin/${name})
  set(include_flags "")
  set(headers "")
  foreach(dir ${F_INCLUDES})
    list(APPEND include_flags -I${dir})
    file(GLOB dir_headers ${dir}/*.h)
    list(APPEND headers ${dir_headers})
  endforeach()
  set(common -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer
    -Wall -Wextra -Werror ${include_flags} ${F_SOURCES} ${F_LIBS})
  add_custom_command(OUTPUT ${out}
    COMMAND ${COZ_CLANG} -fsanitize=fuzzer,address,undefined
            -fno-sanitize-recover=undefined ${common} -o ${out}
    DEPENDS ${F_SOURCES} ${headers}
    COMMENT "Building the libFuzzer target ${name} with ${COZ_CLANG}"
    VERBATIM COMMAND_EXPAND_LISTS)
  add_custom_target(${name} ALL DEPENDS ${out})
  add_custom_command(OUTPUT ${out}-cov
    COMMAND ${COZ_CLANG} -fsanitize=fuzzer -fprofile-instr-generate
            -fcoverage-mapping ${common} -o ${out}-cov
    DEPENDS ${F_SOURCES} ${headers}
    COMMENT "Building ${name}-cov (coverage) with ${COZ_CLANG}"
    VERBATIM COMMAND_EXPAND_LISTS)
  add_custom_target(${name}-cov DEPENDS ${out}-cov)
endfunction()

function(coz_add_fuzz_test test name)
  if(COZ_SANITIZE OR NOT COZ_FUZZ_OK)
    return()
  endif()
  cmake_parse_arguments(F "" "" "SEEDS" ${ARGN})
  add_test(NAME ${test}
    COMMAND bash ${PROJECT_SOURCE_DIR}/bench/fuzz/run.sh 60
            ${CMAKE_BINARY_DIR}/bin/${name} ${F_SEEDS})
  # 60 s of fuzzing, the seeds' first pass and ASan's exit; each fuzzer
  # is its own test so that ctest -j runs them side by side.
  set_tests_properties(${test} PROPERTIES LABELS "fuzz" TIMEOUT 200
    ENVIRONMENT "FUZZ_WORK=${CMAKE_CURRENT_BINARY_DIR}/fuzz-work/${name}")
endfunction()

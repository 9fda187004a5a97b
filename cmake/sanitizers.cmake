# Sanitizer and fuzzing builds. Both need clang; scripts/test.sh configures a
# second build directory (build-san) with both on and runs the unit, CLI and fuzz tests there.
#
#   HCUBE_SANITIZE  every target built with AddressSanitizer and UndefinedBehaviorSanitizer; any
#                   report aborts the process (no recovery), so a test that triggers one fails.
#   HCUBE_FUZZ      coverage instrumentation for libFuzzer on every target, and the harnesses of
#                   tests/fuzz (label fuzz: each runs a bounded number of executions).
option(HCUBE_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer (clang)" OFF)
option(HCUBE_FUZZ "Build the libFuzzer harnesses of tests/fuzz (clang)" OFF)

if(HCUBE_SANITIZE OR HCUBE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "HCUBE_SANITIZE and HCUBE_FUZZ need clang (Debian's clang and "
                        "libclang-rt-14-dev): configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
endif()
if(HCUBE_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=all)
endif()
if(HCUBE_FUZZ)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

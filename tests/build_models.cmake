# Builds the RTL models the CI tests use (n = 1..6), one after the
# other, into the test cache. Run by CTest as the setup of the rtl_models fixture.
foreach(n RANGE 1 6)
  # K = 4 * 2^n: one model per n serves every CI case with K <= 4 * 2^n.
  math(EXPR k "4 << ${n}")
  execute_process(COMMAND ${TOOL} build-model --algo edelman --n ${n} --k ${k} --cache ${CACHE}
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "building the RTL model for n=${n} failed")
  endif()
endforeach()

# Builds the RTL models the CI tests use (n = 1..6, and one with three lanes), one after the
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
# Wide channels (b = 3) at n = 3: memory 64, table depth 32 serve every 3-lane case of
# rtl_test.cpp (jh4 with K = 48 and explicit alignment is the largest).
execute_process(COMMAND ${TOOL} build-model --algo jh4 --n 3 --k 48 --width 3 --alignment explicit
                        --cache ${CACHE}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the 3-lane RTL model for n=3 failed")
endif()

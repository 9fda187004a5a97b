# Builds the RTL models the CI tests use (n = 1..6, and one with three lanes), one after the
# other, into the test cache. Run by CTest as the setup of the rtl_models fixture.
foreach(n RANGE 1 6)
  # K = 4 * 2^n: one model per n serves every CI case with K <= 4 * 2^n. The table depth is
  # raised to what the longest per-node tables of the catalogue need at that n (hcube tables
  # reports the depth: up to 64 at n = 3, 100 at n = 4, 167 at n = 5, 651 at n = 6, for transpose-gray-separate and
  # k-shuffle), so the catalogue tests reuse these models instead of building their own.
  math(EXPR k "4 << ${n}")
  set(depth 0)
  if(n EQUAL 3)
    set(depth 64)  # one-port SDP A2 and the extended-cube SDPs at n = 3
  elseif(n EQUAL 4)
    set(depth 128)
  elseif(n EQUAL 5)
    set(depth 256)
  elseif(n EQUAL 6)
    set(depth 1024)
  endif()
  execute_process(COMMAND ${TOOL} build-model --algo edelman --n ${n} --k ${k} --depth ${depth}
                          --cache ${CACHE}
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
# Routed runs (tests/router_rtl_test.cpp): the same sizes at n = 2, 3, 4 with routers
# (HasRouter = 1, docs/hardware/router.md §11), a model apart so that the table-mode models above pay
# nothing for the router. They run table mode too, which the same test checks.
foreach(n RANGE 2 4)
  math(EXPR k "4 << ${n}")
  set(depth 0)
  if(n EQUAL 4)
    set(depth 128)
  endif()
  execute_process(COMMAND ${TOOL} build-model --algo edelman --n ${n} --k ${k} --depth ${depth}
                          --router --cache ${CACHE}
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "building the RTL model with routers for n=${n} failed")
  endif()
endforeach()
# The flat models (hc_cube verilated whole, docs/hardware/testbench.md §2.1; the models above are node-array
# models): n = 2 and 3 in table mode and n = 3 with routers, the sizes above, for the tests that
# hold the flat model to the executor (RtlFlatModel.*, RouterRtl.CatalogueN3OnTheFlatModel).
foreach(spec "2;16;0" "3;64;0" "3;32;1")
  list(GET spec 0 n)
  list(GET spec 1 depth)
  list(GET spec 2 router)
  math(EXPR k "4 << ${n}")
  set(router_arg "")
  if(router)
    set(router_arg --router)
  endif()
  execute_process(COMMAND ${TOOL} build-model --algo edelman --n ${n} --k ${k} --depth ${depth}
                          ${router_arg} --rtl-model flat --cache ${CACHE}
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "building the flat RTL model for n=${n} (routers: ${router}) failed")
  endif()
endforeach()

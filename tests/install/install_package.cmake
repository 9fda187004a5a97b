# Installs the build tree into PREFIX, then configures and builds EXAMPLE_SOURCE in EXAMPLE_BUILD
# against it with find_package(hcube CONFIG), and compiles the same example once more with the
# flags pkg-config gives for hcube.pc: both must link the installed libraries alone.
#   cmake -DBUILD=... -DPREFIX=... -DEXAMPLE_SOURCE=... -DEXAMPLE_BUILD=... -P install_package.cmake
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}")
  endif()
  message(STATUS "${what}: ok")
  set(output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${PREFIX} ${EXAMPLE_BUILD})
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX})
foreach(f include/hcube/hcube.h bin/hcube share/hcube/tb/model/CMakeLists.txt
          share/hcube/rtl/hc_node.sv share/hcube/sw/exec/traffic_monitor.h)
  if(NOT EXISTS ${PREFIX}/${f})
    message(FATAL_ERROR "the installed package has no ${f}")
  endif()
endforeach()
file(GLOB config ${PREFIX}/lib*/cmake/hcube/hcube-config.cmake ${PREFIX}/lib/*/cmake/hcube/hcube-config.cmake)
file(GLOB version ${PREFIX}/lib*/cmake/hcube/hcube-config-version.cmake
                  ${PREFIX}/lib/*/cmake/hcube/hcube-config-version.cmake)
file(GLOB pc ${PREFIX}/lib*/pkgconfig/hcube.pc ${PREFIX}/lib/*/pkgconfig/hcube.pc)
if(NOT config OR NOT version OR NOT pc)
  message(FATAL_ERROR "the installed package lacks its CMake config, version file or hcube.pc")
endif()
# A project of its own: nothing of the source or build tree on its paths.
run("configure the example" ${CMAKE_COMMAND} -S ${EXAMPLE_SOURCE} -B ${EXAMPLE_BUILD}
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${PREFIX})
run("build the example" ${CMAKE_COMMAND} --build ${EXAMPLE_BUILD})
# pkg-config: the same program from hcube.pc's flags.
find_program(PKG_CONFIG pkg-config)
find_program(CXX NAMES c++ g++)
if(PKG_CONFIG AND CXX)
  get_filename_component(pcdir ${pc} DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} ${pcdir})
  run("pkg-config hcube" ${PKG_CONFIG} --cflags --libs hcube)
  string(STRIP "${output}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run("build the example with pkg-config" ${CXX} -std=c++17 -O1
      ${EXAMPLE_SOURCE}/own_schedule.cpp -o ${EXAMPLE_BUILD}/own_schedule_pc ${flags})
  run("run the pkg-config build" ${EXAMPLE_BUILD}/own_schedule_pc table)
  if(NOT output MATCHES "table: 4 cycles")
    message(FATAL_ERROR "the pkg-config build printed:\n${output}")
  endif()
endif()

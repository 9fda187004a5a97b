# The table executor partitioned over MPI ranks (docs/mpi.md), when MPI is installed (Debian
# libopenmpi-dev): hcube started by mpirun runs table mode with each rank stepping its subcube.
# Without MPI, hcube builds as before and refuses a start by mpirun.
find_package(MPI COMPONENTS CXX QUIET)
if(MPI_CXX_FOUND)
  add_library(hcube_mpi STATIC sw/exec/exec_partitioned.cpp)
  target_link_libraries(hcube_mpi PUBLIC hcube_sw MPI::MPI_CXX)
  target_link_libraries(hcube PRIVATE hcube_mpi)
  target_compile_definitions(hcube PRIVATE HCUBE_MPI=1)
  find_program(HCUBE_MPIEXEC NAMES mpirun mpiexec)
  message(STATUS "hcube: MPI found, hcube runs table mode over mpirun's ranks")
else()
  message(STATUS "hcube: MPI not found, no run over MPI ranks (docs/mpi.md)")
endif()

# Tests (label mpi): a catalogue sample under mpirun -np 2 and -np 4 equals the single process.
if(MPI_CXX_FOUND AND HCUBE_MPIEXEC AND (NOT DEFINED HCUBE_TESTS OR HCUBE_TESTS))
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_FOUND)
    enable_testing()
    add_test(NAME mpi.run_equals_single_process
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/mpi/mpi_run_test.py
              $<TARGET_FILE:hcube> ${HCUBE_MPIEXEC} ${CMAKE_BINARY_DIR})
    set_tests_properties(mpi.run_equals_single_process PROPERTIES LABELS mpi TIMEOUT 600)
  endif()
endif()

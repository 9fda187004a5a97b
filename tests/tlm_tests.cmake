# The SystemC-TLM cube (sim/tlm) against the table executor. Included by tests/CMakeLists.txt;
# the model is built by sim/tlm/CMakeLists.txt, which stops the configuration with a clear
# message when SystemC is missing. Every simulation runs in a forked child process.
if(TARGET hcube_tlm)
  add_executable(hcube_tlm_tests ${CMAKE_CURRENT_LIST_DIR}/tlm_test.cpp)
  target_link_libraries(hcube_tlm_tests PRIVATE hcube_tlm GTest::gtest_main)
  gtest_discover_tests(hcube_tlm_tests
    TEST_FILTER "-*Long*"
    PROPERTIES LABELS tlm TIMEOUT 600
    DISCOVERY_TIMEOUT 60)
  gtest_discover_tests(hcube_tlm_tests
    TEST_FILTER "*Long*"
    TEST_PREFIX "long."
    TEST_LIST hcube_tlm_long_tests
    PROPERTIES TIMEOUT 3600
    DISCOVERY_TIMEOUT 60)
  hcube_label_tests(hcube_tlm_long_tests "tlm;long")

  # Routed mode: the TLM routers against the golden model.
  add_executable(hcube_router_tlm_tests ${CMAKE_CURRENT_LIST_DIR}/router_tlm_test.cpp)
  target_link_libraries(hcube_router_tlm_tests PRIVATE hcube_tlm GTest::gtest_main)
  # libsystemc needs an sc_main; hcube_tlm's (in tlm_backend.cpp) is linked only when asked for.
  target_link_options(hcube_router_tlm_tests PRIVATE -Wl,--undefined=sc_main)
  gtest_discover_tests(hcube_router_tlm_tests PROPERTIES LABELS tlm TIMEOUT 600
    DISCOVERY_TIMEOUT 60)
endif()

# The co-simulated cube (sim/cosim: Verilated RTL nodes among TLM nodes) against the table
# executor, label "cosim"; built when Verilator is installed.
if(TARGET hcube_cosim)
  add_executable(hcube_cosim_tests ${CMAKE_CURRENT_LIST_DIR}/cosim_test.cpp)
  target_link_libraries(hcube_cosim_tests PRIVATE hcube_cosim GTest::gtest_main)
  gtest_discover_tests(hcube_cosim_tests
    PROPERTIES LABELS cosim TIMEOUT 600
    DISCOVERY_TIMEOUT 60)
endif()

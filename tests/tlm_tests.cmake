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
  # gtest_discover_tests cannot pass a list-valued property: PROPERTIES LABELS "tlm;long"
  # reaches set_tests_properties as "LABELS tlm long ...", so the tests would lose the label
  # "long" (and -LE long would run them). CTest includes this script after the discovered tests
  # and labels them itself.
  set(labels_script ${CMAKE_CURRENT_BINARY_DIR}/hcube_tlm_long_labels.cmake)
  file(WRITE ${labels_script}
    "foreach(test IN LISTS hcube_tlm_long_tests)\n"
    "  set_tests_properties(\${test} PROPERTIES LABELS \"tlm;long\")\n"
    "endforeach()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${labels_script})
endif()

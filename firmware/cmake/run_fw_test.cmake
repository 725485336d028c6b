# Runs one firmware test (cmake -P) and checks both the exit code and the agreed pass line.
#   -DCMD=<command;args>  -DPASS_LINE=<text>  -DTIMEOUT=<seconds>
if(NOT DEFINED CMD OR NOT DEFINED PASS_LINE)
  message(FATAL_ERROR "run_fw_test.cmake needs CMD and PASS_LINE")
endif()
if(NOT DEFINED TIMEOUT)
  set(TIMEOUT 60)
endif()
execute_process(COMMAND ${CMD}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT ${TIMEOUT})
message("${out}")
if(err)
  message("${err}")
endif()
string(FIND "${out}" "${PASS_LINE}\n" pos)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "firmware test failed: exit status '${rc}'")
elseif(pos EQUAL -1)
  message(FATAL_ERROR "firmware test exited 0 but did not print '${PASS_LINE}'")
endif()

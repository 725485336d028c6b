# Checks of ctnn-soc-sim itself (cmake -P): the VCD trace and the refusal of bad input.
#   -DSIM=<ctnn-soc-sim> -DELF=<a passing test ELF> -DWORK=<scratch dir>
foreach(var SIM ELF WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "soc_sim_check.cmake needs ${var}")
  endif()
endforeach()
file(MAKE_DIRECTORY ${WORK})

# 1. --vcd writes a trace with the SoC's ports in it; the run still passes.
set(vcd ${WORK}/trace.vcd)
file(REMOVE ${vcd})
execute_process(COMMAND ${SIM} --max-cycles 100000 --vcd ${vcd} ${ELF}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "--vcd run failed (${rc}): ${out} ${err}")
endif()
file(READ ${vcd} trace LIMIT 200000)
foreach(needle "$enddefinitions" " clk_i " " uart_tx_valid_o " " exit_valid_o ")
  string(FIND "${trace}" "${needle}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "the VCD trace lacks '${needle}'")
  endif()
endforeach()
if(NOT err MATCHES "ctnn-soc-sim: cycles=[1-9][0-9]* instret=[1-9][0-9]*\n")
  message(FATAL_ERROR "no 'cycles=... instret=...' line on stderr: ${err}")
endif()

# 2. A file that is not an ELF is refused with status 3 before simulating.
file(WRITE ${WORK}/not_an_elf.bin "not an ELF file\n")
execute_process(COMMAND ${SIM} ${WORK}/not_an_elf.bin RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 30)
if(NOT rc STREQUAL "3" OR NOT err MATCHES "not an ELF")
  message(FATAL_ERROR "non-ELF input: status ${rc}, stderr '${err}' (expected 3, 'not an ELF')")
endif()

# 3. Usage errors give status 2.
foreach(args "" "--max-cycles;0;${ELF}" "--bogus;${ELF}")
  execute_process(COMMAND ${SIM} ${args} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET TIMEOUT 30)
  if(NOT rc STREQUAL "2")
    message(FATAL_ERROR "arguments '${args}': status ${rc}, expected 2")
  endif()
endforeach()

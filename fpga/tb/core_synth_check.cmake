# Synthesizes ctnn_core with Yosys (cmake -P) and fails on latches or on problems reported by
# `check -assert`; prints the cell count.   -DYOSYS=<yosys> -DSOURCES=<v files> -DWORK=<dir>
file(MAKE_DIRECTORY ${WORK})
string(REPLACE ";" " " files "${SOURCES}")
set(script "read_verilog -defer ${files}; synth -top ctnn_core -flatten; check -assert; select -assert-none t:$dlatch t:$_DLATCH_*; stat")
execute_process(COMMAND ${YOSYS} -q -l ${WORK}/yosys.log -p "${script}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 280)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "yosys failed (${rc}):\n${out}\n${err}\nsee ${WORK}/yosys.log")
endif()
file(READ ${WORK}/yosys.log log)
string(REGEX MATCH "Number of cells: +[0-9]+" cells "${log}")
message("ctnn_core: ${cells}")

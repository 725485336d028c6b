# The RV32IM softcore SoC: Verilator lint of the core and the SoC, and the ctnn-soc-sim simulator
# that runs firmware ELFs (the firmware tests in firmware/CMakeLists.txt use it).
set(CTNN_CORE_RTL              # ctnn_core.v (control) first, then its units
  ${CTNN_FPGA_RTL}/ctnn_core.v
  ${CTNN_FPGA_RTL}/ctnn_core_decoder.v
  ${CTNN_FPGA_RTL}/ctnn_core_alu.v
  ${CTNN_FPGA_RTL}/ctnn_core_div.v
  ${CTNN_FPGA_RTL}/ctnn_core_lsu.v
  ${CTNN_FPGA_RTL}/ctnn_core_csr.v)
set(CTNN_SOC_RTL
  ${CTNN_FPGA_RTL}/ctnn_soc.v
  ${CTNN_CORE_RTL}
  ${CTNN_FPGA_RTL}/ctnn_bus_xbar.v
  ${CTNN_FPGA_RTL}/ctnn_ram.v
  ${CTNN_FPGA_RTL}/ctnn_uart.v
  ${CTNN_FPGA_RTL}/ctnn_exit.v
  ${CTNN_ACCEL_RTL})          # from ctnn_accel.cmake, included before this file
set(CTNN_SOC_WAIVERS ${CMAKE_CURRENT_SOURCE_DIR}/lint/soc.vlt ${CMAKE_CURRENT_SOURCE_DIR}/lint/accel.vlt)

if(NOT CTNN_VERILATOR)
  message(WARNING "verilator not found: ctnn-soc-sim and the soc.* tests are skipped")
  return()
endif()

# Lint: verilator -Wall must stay clean. The core needs no waiver; the SoC's are in fpga/lint/soc.vlt.
add_test(NAME soc.lint_core
  COMMAND ${CTNN_VERILATOR} --lint-only -Wall -I${CTNN_FPGA_RTL} --top-module ctnn_core
          ${CTNN_CORE_RTL})
add_test(NAME soc.lint_core_registered
  COMMAND ${CTNN_VERILATOR} --lint-only -Wall -I${CTNN_FPGA_RTL} --top-module ctnn_core -GExecInFetch=0
          ${CTNN_CORE_RTL})
add_test(NAME soc.lint_soc
  COMMAND ${CTNN_VERILATOR} --lint-only -Wall -I${CTNN_FPGA_RTL} --top-module ctnn_soc
          ${CTNN_SOC_WAIVERS} ${CTNN_SOC_RTL})
set_tests_properties(soc.lint_core soc.lint_core_registered soc.lint_soc
                     PROPERTIES LABELS "soc;lint")
if(CTNN_IVERILOG)
  # Icarus must accept the same sources as Verilog-2005.
  add_test(NAME soc.iverilog_elaborates
    COMMAND ${CTNN_IVERILOG} -g2005 -Wall -I${CTNN_FPGA_RTL} -s ctnn_soc
            -o ${CMAKE_CURRENT_BINARY_DIR}/ctnn_soc.vvp ${CTNN_SOC_RTL})
  set_tests_properties(soc.iverilog_elaborates PROPERTIES LABELS "soc;lint")
endif()

if(CTNN_IVERILOG AND CTNN_VVP)
  # The Icarus testbench (fpga/tb/soc_tb.v) runs firmware hex images: the soc.icarus.* tests.
  # It builds the core with ExecInFetch = 0 and the SoC without the accelerator, the variants the
  # Verilator models do not cover (and Icarus would spend most of its time in the PE array).
  add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/soc_tb.vvp
    COMMAND ${CTNN_IVERILOG} -g2005 -Wall -I${CTNN_FPGA_RTL} -s soc_tb -Psoc_tb.CoreExecInFetch=0
            -Psoc_tb.WithAccel=0
            -o ${CMAKE_CURRENT_BINARY_DIR}/soc_tb.vvp ${CMAKE_CURRENT_SOURCE_DIR}/tb/soc_tb.v ${CTNN_SOC_RTL}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tb/soc_tb.v ${CTNN_SOC_RTL}
    VERBATIM)
  add_custom_target(ctnn_soc_tb ALL DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/soc_tb.vvp)
  set(CTNN_SOC_TB_VVP ${CMAKE_CURRENT_BINARY_DIR}/soc_tb.vvp CACHE INTERNAL "Icarus SoC testbench")
endif()

find_package(verilator HINTS $ENV{VERILATOR_ROOT} ${CTNN_VERILATOR}/../..)
if(NOT verilator_FOUND)
  message(WARNING "verilator CMake package not found: ctnn-soc-sim is skipped")
  return()
endif()

# The Verilated model is its own library so that only generated code gets relaxed warnings.
add_library(ctnn_soc_model STATIC)
verilate(ctnn_soc_model
  SOURCES ${CTNN_SOC_WAIVERS} ${CMAKE_CURRENT_SOURCE_DIR}/tb/soc_sim.vlt ${CTNN_SOC_RTL}
  TOP_MODULE ctnn_soc
  PREFIX Vctnn_soc
  DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/ctnn_soc_model
  INCLUDE_DIRS ${CTNN_FPGA_RTL}
  TRACE
  ${CTNN_VERILATED_OPT}
  VERILATOR_ARGS -O3 --x-assign fast --x-initial fast)
target_compile_options(ctnn_soc_model PRIVATE -w)

add_executable(ctnn-soc-sim ${CMAKE_CURRENT_SOURCE_DIR}/tb/soc_sim.cpp)
target_link_libraries(ctnn-soc-sim PRIVATE ctnn_soc_model ctnn::ctnn)
target_compile_features(ctnn-soc-sim PRIVATE cxx_std_20)
# Verilator's headers are not -Wconversion/-Wshadow clean: include them as system headers.
target_include_directories(ctnn-soc-sim SYSTEM PRIVATE
  ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd
  ${CMAKE_CURRENT_BINARY_DIR}/ctnn_soc_model)

# ctnn-core-sim: the core alone against a C++ bus model with random back-pressure (fpga/tb/core_sim.cpp).
add_library(ctnn_core_model STATIC)
verilate(ctnn_core_model
  SOURCES ${CTNN_CORE_RTL}
  TOP_MODULE ctnn_core
  PREFIX Vctnn_core
  DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/ctnn_core_model
  INCLUDE_DIRS ${CTNN_FPGA_RTL}
  ${CTNN_VERILATED_OPT}
  VERILATOR_ARGS -O3 --x-assign fast --x-initial fast)
target_compile_options(ctnn_core_model PRIVATE -w)

add_executable(ctnn-core-sim ${CMAKE_CURRENT_SOURCE_DIR}/tb/core_sim.cpp)
target_link_libraries(ctnn-core-sim PRIVATE ctnn_core_model ctnn::ctnn)
target_compile_features(ctnn-core-sim PRIVATE cxx_std_20)
target_include_directories(ctnn-core-sim SYSTEM PRIVATE
  ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd
  ${CMAKE_CURRENT_BINARY_DIR}/ctnn_core_model)

if(CTNN_YOSYS)
  # The core must synthesize: generic Yosys synthesis, no latches, no problems found by check.
  add_test(NAME soc.synth_core
    COMMAND ${CMAKE_COMMAND} -DYOSYS=${CTNN_YOSYS} -DWORK=${CMAKE_CURRENT_BINARY_DIR}/synth_core
            "-DSOURCES=${CTNN_CORE_RTL}"
            -P ${CMAKE_CURRENT_SOURCE_DIR}/tb/core_synth_check.cmake)
  set_tests_properties(soc.synth_core PROPERTIES LABELS "soc;synth" TIMEOUT 300)
endif()

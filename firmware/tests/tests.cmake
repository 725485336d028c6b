# The firmware tests, shared by the cross build (ELF targets) and the host build (CTest entries).
# ctnn_fw_test(<name> SOURCES <files> PLATFORMS <qemu and/or soc>
#              [OWN_MAIN] [EXPECT_RC <status>] [EXPECT_LINE <line>] [EXTRA_LINE <line>] [MAX_CYCLES <n>])
#   PLATFORMS:   qemu (firmware.<name>), soc (soc.<name>, ctnn-soc-sim), core (soc.core_stall.<name>,
#                ctnn-core-sim: the core on a randomly stalling bus model), icarus (soc.icarus.<name>,
#                the Icarus testbench fpga/tb/soc_tb.v on the hex image; for short tests)
#   OWN_MAIN:    the sources define main(); otherwise test_main.c runs ctnn_test_run() and prints
#                the agreed pass line "ctnn-test: PASS <name>".
#   EXPECT_RC:   the exit status the runner requires (default 0).
#   EXPECT_LINE: the line the runner requires on stdout (default the pass line).
#   EXTRA_LINE:  a second required line.
#   EXPECT_REGEX: a regular expression stdout must match.
#   SOC_EXPECT_REGEX: on the SoC (soc.<name>) this regular expression instead of EXPECT_REGEX.
#   HOST_TWIN:   a host source (in firmware/host/); every line it prints must be printed by the target.
#   GOLDEN:      the sources include golden_<net>.hpp, written at build time by the host program
#                ctnn-fw-golden into CTNN_FW_GOLDEN_DIR (the host build passes it to the cross build).
set(CTNN_FW_TESTS "")
macro(ctnn_fw_test name)
  cmake_parse_arguments(fwt "OWN_MAIN;GOLDEN" "EXPECT_RC;EXPECT_LINE;EXTRA_LINE;EXPECT_REGEX;SOC_EXPECT_REGEX;MAX_CYCLES;HOST_TWIN" "SOURCES;PLATFORMS" ${ARGN})
  list(APPEND CTNN_FW_TESTS ${name})
  set(CTNN_FW_TEST_${name}_SOURCES ${fwt_SOURCES})
  set(CTNN_FW_TEST_${name}_PLATFORMS ${fwt_PLATFORMS})
  set(CTNN_FW_TEST_${name}_OWN_MAIN ${fwt_OWN_MAIN})
  set(CTNN_FW_TEST_${name}_EXPECT_RC 0)
  if(DEFINED fwt_EXPECT_RC)
    set(CTNN_FW_TEST_${name}_EXPECT_RC ${fwt_EXPECT_RC})
  endif()
  set(CTNN_FW_TEST_${name}_EXPECT_LINE "ctnn-test: PASS ${name}")
  if(DEFINED fwt_EXPECT_LINE)
    set(CTNN_FW_TEST_${name}_EXPECT_LINE "${fwt_EXPECT_LINE}")
  endif()
  set(CTNN_FW_TEST_${name}_EXTRA_LINE "${fwt_EXTRA_LINE}")
  set(CTNN_FW_TEST_${name}_HOST_TWIN "${fwt_HOST_TWIN}")
  set(CTNN_FW_TEST_${name}_EXPECT_REGEX "${fwt_EXPECT_REGEX}")
  set(CTNN_FW_TEST_${name}_SOC_EXPECT_REGEX "${fwt_EXPECT_REGEX}")
  if(DEFINED fwt_SOC_EXPECT_REGEX)
    set(CTNN_FW_TEST_${name}_SOC_EXPECT_REGEX "${fwt_SOC_EXPECT_REGEX}")
  endif()
  set(CTNN_FW_TEST_${name}_GOLDEN ${fwt_GOLDEN})
  set(CTNN_FW_TEST_${name}_MAX_CYCLES 20000000)
  if(DEFINED fwt_MAX_CYCLES)
    set(CTNN_FW_TEST_${name}_MAX_CYCLES ${fwt_MAX_CYCLES})
  endif()
endmacro()

ctnn_fw_test(isa_rv32i_alu    SOURCES isa_rv32i_alu.S    PLATFORMS qemu soc core icarus)
ctnn_fw_test(isa_rv32i_branch SOURCES isa_rv32i_branch.S PLATFORMS qemu soc core icarus)
ctnn_fw_test(isa_rv32i_mem    SOURCES isa_rv32i_mem.S    PLATFORMS qemu soc core icarus)
ctnn_fw_test(isa_rv32m        SOURCES isa_rv32m.S        PLATFORMS qemu soc core icarus)
ctnn_fw_test(isa_csr_trap     SOURCES isa_csr_trap.S     PLATFORMS qemu soc core icarus)
# QEMU performs misaligned loads/stores instead of trapping (the spec allows both) and does not
# carry minstret into minstreth after a write: these cases run on the SoC only.
ctnn_fw_test(isa_misaligned   SOURCES isa_misaligned.S   PLATFORMS soc core icarus)
# Writes to the 64-bit counters (each half replaces its 32 bits, suppresses that cycle's increment
# of the whole counter, carries nothing into the other half). QEMU 7.2 does not: SoC only.
ctnn_fw_test(isa_counters     SOURCES isa_counters.S     PLATFORMS soc core icarus)
ctnn_fw_test(runtime          SOURCES runtime.cpp        PLATFORMS qemu soc core
             EXTRA_LINE "runtime: 0 4294967295 0xdeadbeef")
ctnn_fw_test(exit_code        SOURCES exit_code.c        PLATFORMS qemu soc core OWN_MAIN
             EXPECT_RC 42 EXPECT_LINE "ctnn-test: exit 42")
ctnn_fw_test(hang             SOURCES hang.c             PLATFORMS soc OWN_MAIN
             EXPECT_RC 125 EXPECT_LINE "ctnn-test: hang" MAX_CYCLES 20000)
ctnn_fw_test(trap_report      SOURCES trap_report.c      PLATFORMS qemu soc core OWN_MAIN
             EXPECT_RC 255 EXPECT_LINE "ctnn-test: trapping"
             EXPECT_REGEX "ctnn: unexpected trap mcause=0x0000000b mepc=0x80[0-9a-f]+ mtval=0x00000000")
ctnn_fw_test(c_workload       SOURCES c_workload.c       PLATFORMS qemu soc core
             HOST_TWIN c_workload_host.cpp)
# The accelerator exists only on the SoC (QEMU has no device at its address).
ctnn_fw_test(accel_gemm       SOURCES accel_gemm.cpp     PLATFORMS soc
             EXTRA_LINE "accel: refused jobs ok" MAX_CYCLES 60000000)
# The accelerated executor's failure paths on the real accelerator (ERROR cause and poll timeout).
ctnn_fw_test(accel_faults     SOURCES accel_faults.cpp   PLATFORMS soc
             EXTRA_LINE "accel_faults: ok" MAX_CYCLES 40000000)
# The network demos (demo_runner.hpp): CPU only on QEMU and ctnn-core-sim, CPU then accelerated on
# the SoC, where the summary line must carry both cycle counts and the speedup.
ctnn_fw_test(demo_lenet5       SOURCES demo_lenet5.cpp       PLATFORMS qemu soc core GOLDEN
             EXPECT_REGEX "lenet5: match=yes cycles_cpu=[0-9]+ accelerator=absent"
             SOC_EXPECT_REGEX "lenet5: match=yes cycles_cpu=[0-9]+ cycles_accel=[0-9]+ speedup=[0-9]+[.][0-9][0-9]? accel_busy=[0-9]+ accel_share=[0-9]+[.][0-9][0-9]%\n"
             MAX_CYCLES 60000000)
# The image a product would flash: weights as constant data, conv2d/linear on the accelerator only
# (no CPU kernel of those kinds in the image); its .text is held to 32 KiB (firmware.size.*).
ctnn_fw_test(lenet5_deploy     SOURCES lenet5_deploy.cpp     PLATFORMS soc GOLDEN
             EXPECT_REGEX "lenet5_deploy: match=yes cycles=[0-9]+ jobs=5\n"
             MAX_CYCLES 2000000)
ctnn_fw_test(demo_cifar_resnet SOURCES demo_cifar_resnet.cpp PLATFORMS qemu soc GOLDEN
             EXPECT_REGEX "cifar_resnet: match=yes cycles_cpu=[0-9]+ accelerator=absent"
             SOC_EXPECT_REGEX "cifar_resnet: match=yes cycles_cpu=[0-9]+ cycles_accel=[0-9]+ speedup=[0-9]+[.][0-9][0-9]? accel_busy=[0-9]+ accel_share=[0-9]+[.][0-9][0-9]%\n"
             MAX_CYCLES 60000000)
# The int8 kernels of issue 14 on their benchmark layers (conv 3x3 through im2col and without
# scratch, depthwise, fully connected, add, softmax): every optimized output must equal the
# reference kernel's bytes. The instruction counts it prints are tabulated by bench/rv32_kernels.py
# (at -O2 and -Os); this test holds no count to a bound.
ctnn_fw_test(bench_kernels     SOURCES bench_kernels.cpp     PLATFORMS qemu
             EXPECT_REGEX "bench: conv3x3_16_32_im2col instret=[0-9]+ work=1179648 per=[0-9.]+ match=yes")

# Zero overhead of ctnn::mmio: typed register writes compile to the same rv32im instruction
# count as hand-written volatile accesses (tests/static/mmio_codegen.cpp, riscv objdump).
if(CTNN_RISCV_CXX AND CTNN_RISCV_OBJDUMP)
  add_test(NAME mmio.zero_overhead_rv32im
           COMMAND ${CMAKE_COMMAND} -DCXX=${CTNN_RISCV_CXX} -DOBJDUMP=${CTNN_RISCV_OBJDUMP}
                   -DSRC=${PROJECT_SOURCE_DIR}/tests/static/mmio_codegen.cpp
                   -DINC=${PROJECT_SOURCE_DIR}/include
                   -DOUT=${CMAKE_CURRENT_BINARY_DIR}/mmio_codegen.rv32im.o
                   -P ${PROJECT_SOURCE_DIR}/tests/static/mmio_codegen_check.cmake)
  set_tests_properties(mmio.zero_overhead_rv32im PROPERTIES LABELS "compile;mmio")
else()
  message(WARNING "riscv64-unknown-elf-g++/objdump not found: mmio.zero_overhead_rv32im skipped")
endif()

# The GEMM accelerator: Verilator lint, the Verilated model with its C++ testbench (golden
# model = ctnn::ref), ctnn-accel-bench, and an Icarus smoke test of the same RTL.
set(CTNN_ACCEL_RTL
    ${CTNN_FPGA_RTL}/ctnn_accel.v ${CTNN_FPGA_RTL}/ctnn_accel_ctrl.v ${CTNN_FPGA_RTL}/ctnn_accel_regs.v
    ${CTNN_FPGA_RTL}/ctnn_accel_load.v ${CTNN_FPGA_RTL}/ctnn_accel_feed.v
    ${CTNN_FPGA_RTL}/ctnn_accel_store.v ${CTNN_FPGA_RTL}/ctnn_accel_requant.v
    ${CTNN_FPGA_RTL}/ctnn_accel_mbqm.v ${CTNN_FPGA_RTL}/ctnn_accel_mbqm_in.v ${CTNN_FPGA_RTL}/ctnn_accel_resadd.v
    ${CTNN_FPGA_RTL}/ctnn_accel_pool.v ${CTNN_FPGA_RTL}/ctnn_accel_dw.v ${CTNN_FPGA_RTL}/ctnn_accel_mv.v
    ${CTNN_FPGA_RTL}/ctnn_accel_spad.v ${CTNN_FPGA_RTL}/ctnn_dma.v
    ${CTNN_FPGA_RTL}/ctnn_mesh.v ${CTNN_FPGA_RTL}/ctnn_tile.v ${CTNN_FPGA_RTL}/ctnn_pe.v)
set(CTNN_ACCEL_DIM 8)
set(CTNN_ACCEL_LOG2_KMAX 13)   # K up to 8192: every ResNet-50 convolution fits
set(CTNN_ACCEL_RAM_BYTES 16777216)  # the testbench RAM (16 MiB: ResNet-50's im2col buffers)

if(CTNN_VERILATOR)
  add_test(NAME accel.lint
           COMMAND ${CTNN_VERILATOR} --lint-only -Wall -I${CTNN_FPGA_RTL}
                   ${CMAKE_CURRENT_SOURCE_DIR}/lint/accel.vlt ${CTNN_ACCEL_RTL}
                   --top-module ctnn_accel)
  add_test(NAME accel.lint_dim16_tile2
           COMMAND ${CTNN_VERILATOR} --lint-only -Wall -I${CTNN_FPGA_RTL}
                   ${CMAKE_CURRENT_SOURCE_DIR}/lint/accel.vlt ${CTNN_ACCEL_RTL}
                   --top-module ctnn_accel -GDim=16 -GTileDim=2)
  set_tests_properties(accel.lint accel.lint_dim16_tile2 PROPERTIES LABELS "accel;lint")
  # Every array size of the supported range elaborates lint-clean (DIM 8 and 16 are above).
  foreach(dim 4 5 6 7 9 10 11 12 13 14 15)
    add_test(NAME accel.lint_dim${dim}
             COMMAND ${CTNN_VERILATOR} --lint-only -Wall -I${CTNN_FPGA_RTL}
                     ${CMAKE_CURRENT_SOURCE_DIR}/lint/accel.vlt ${CTNN_ACCEL_RTL}
                     --top-module ctnn_accel -GDim=${dim})
    set_tests_properties(accel.lint_dim${dim} PROPERTIES LABELS "accel;lint")
  endforeach()
endif()

find_package(verilator HINTS $ENV{VERILATOR_ROOT} /usr/share/verilator)
if(verilator_FOUND)
  # ctnn_accel_verilated(<suffix> <dim> <tile_dim>): the Verilated model ctnn_accel_model<suffix>
  # and the testbench ctnn-accel-tb<suffix> for one array size.
  function(ctnn_accel_verilated suffix dim tile_dim)
    set(model ctnn_accel_model${suffix})
    add_library(${model} STATIC)
    verilate(${model}
             SOURCES ${CTNN_ACCEL_RTL}
             TOP_MODULE ctnn_accel
             PREFIX Vctnn_accel
             DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/accel_model${suffix}
             INCLUDE_DIRS ${CTNN_FPGA_RTL}
             ${CTNN_VERILATED_OPT}
             VERILATOR_ARGS -O3 --x-assign fast --x-initial fast -Wno-fatal
                            -GDim=${dim} -GTileDim=${tile_dim} -GLog2KMax=${CTNN_ACCEL_LOG2_KMAX}
                            -GRamSize=${CTNN_ACCEL_RAM_BYTES})
    # Generated code: warnings off for this target only (the preset's -Werror stays elsewhere).
    target_compile_options(${model} PRIVATE -w -O2)
    set_property(GLOBAL APPEND PROPERTY ctnn_accel_models ${model})
  endfunction()

  # ctnn_accel_tb_target(<exe> <source> <suffix> <dim>)
  function(ctnn_accel_tb_target name src suffix dim)
    add_executable(${name} ${src})
    target_link_libraries(${name} PRIVATE ctnn_accel_model${suffix} ctnn::ctnn)
    # Verilator's headers are system headers here, so the preset's warnings apply to our code only.
    target_include_directories(${name} SYSTEM PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/accel_model${suffix}
                               ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd)
    target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/tb)
    target_compile_definitions(${name} PRIVATE CTNN_TB_DIM=${dim}
                               CTNN_TB_LOG2_KMAX=${CTNN_ACCEL_LOG2_KMAX}
                               CTNN_TB_RAM_BYTES=${CTNN_ACCEL_RAM_BYTES}u)
  endfunction()

  # DIM = 8: the 10,000-GEMM test and the bench.
  ctnn_accel_verilated("" ${CTNN_ACCEL_DIM} 1)
  ctnn_accel_tb_target(ctnn-accel-tb ${CMAKE_CURRENT_SOURCE_DIR}/tb/accel_tb.cpp "" ${CTNN_ACCEL_DIM})
  add_test(NAME accel.verilator_10k_gemms COMMAND ctnn-accel-tb 10000 1)
  set_tests_properties(accel.verilator_10k_gemms PROPERTIES LABELS "accel" TIMEOUT 900 COST 45)
  if(COMMAND ctnn_tool_test)  # its two numbers: decimal, in range, or one line and status 2
    ctnn_tool_test(accel_tb_count_not_a_number ctnn-accel-tb 2
                   "^ctnn-accel-tb: random_gemms needs a decimal integer from 0 to 10000000, got '12abc'" ONE_LINE ARGS 12abc)
    ctnn_tool_test(accel_tb_seed_negative ctnn-accel-tb 2
                   "^ctnn-accel-tb: seed needs a decimal integer from 0 to 4294967295, got '-1'" ONE_LINE ARGS 5 -1)
  endif()
  ctnn_accel_tb_target(ctnn-accel-bench ${CMAKE_CURRENT_SOURCE_DIR}/tb/accel_bench.cpp "" ${CTNN_ACCEL_DIM})
  add_test(NAME accel.bench_smoke COMMAND ctnn-accel-bench --quick)
  set_tests_properties(accel.bench_smoke PROPERTIES LABELS "accel")

  # The array sizes at both ends of the supported range, with fewer random GEMMs.
  option(CTNN_ACCEL_ALL_DIMS "Also verify DIM = 4, 5, 12 (TileDim = 3) and 16 (TileDim = 2) models" ON)
  if(CTNN_ACCEL_ALL_DIMS)
    # <dim> <tile_dim> <test suffix>: both ends of the range, and sizes that are not powers of two:
    # 5 (B rows and int8 C by bytes), 12 with 3x3-PE tiles
    foreach(cfg "4;1;" "16;2;_tile2" "5;1;" "12;3;_tile3")
      list(GET cfg 0 dim)
      list(GET cfg 1 tile)
      list(GET cfg 2 suffix)
      ctnn_accel_verilated(_dim${dim} ${dim} ${tile})
      ctnn_accel_tb_target(ctnn-accel-tb-dim${dim} ${CMAKE_CURRENT_SOURCE_DIR}/tb/accel_tb.cpp _dim${dim} ${dim})
      add_test(NAME accel.verilator_dim${dim}${suffix} COMMAND ctnn-accel-tb-dim${dim} 1000 ${dim})
      set_tests_properties(accel.verilator_dim${dim}${suffix} PROPERTIES LABELS "accel" TIMEOUT 900)
    endforeach()
  endif()
else()
  message(WARNING "Verilator's CMake package not found: the accelerator model and tests are skipped")
endif()

if(CTNN_IVERILOG AND CTNN_VVP AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/tb/accel_smoke_tb.v)
  add_test(NAME accel.icarus_build
           COMMAND ${CTNN_IVERILOG} -g2005 -Wall -I${CTNN_FPGA_RTL} -o ${CMAKE_CURRENT_BINARY_DIR}/accel_smoke.vvp
                   -s accel_smoke_tb ${CMAKE_CURRENT_SOURCE_DIR}/tb/accel_smoke_tb.v ${CTNN_ACCEL_RTL})
  add_test(NAME accel.icarus_smoke COMMAND ${CTNN_VVP} -n ${CMAKE_CURRENT_BINARY_DIR}/accel_smoke.vvp)
  set_tests_properties(accel.icarus_build PROPERTIES FIXTURES_SETUP accel_vvp LABELS "accel")
  set_tests_properties(accel.icarus_smoke PROPERTIES FIXTURES_REQUIRED accel_vvp
                       PASS_REGULAR_EXPRESSION "accel smoke: PASS" LABELS "accel")
endif()

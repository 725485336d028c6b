# The firmware consumer (this directory): export the tiny model, configure with the rv32im toolchain
# against the installed package, build, and check that the ELF holds the parameters as a read-only
# object of the blob's size (the .incbin assembled by the cross assembler, linked through the
# INTERFACE target).
# cmake -DPREFIX=<install prefix> -DSOURCE=<ctnn source> -DPYTHON=<python3> -DWORK=<dir>
#       -DGENERATOR=<generator> -DNM=<riscv nm> -P this
file(REMOVE_RECURSE ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/../step.cmake)
step(${PYTHON} ${SOURCE}/tests/onnx/tiny_model.py --out ${WORK}/model --batch 1)
step(${CMAKE_COMMAND} -S ${SOURCE}/tests/cmake/model_firmware -B ${WORK}/build -G ${GENERATOR}
     -DCMAKE_TOOLCHAIN_FILE=${SOURCE}/firmware/cmake/rv32im-toolchain.cmake -DCMAKE_BUILD_TYPE=MinSizeRel
     -DCMAKE_PREFIX_PATH=${PREFIX} -DCTNN_SOURCE_DIR=${SOURCE} -DMODEL_ONNX=${WORK}/model/tiny.onnx)
step(${CMAKE_COMMAND} --build ${WORK}/build)
file(SIZE ${WORK}/build/tiny.ctnn/tiny.f32.bin blob_bytes)
step(${NM} -S ${WORK}/build/tiny_fw.elf)
if(NOT step_output MATCHES "[0-9a-f]+ ([0-9a-f]+) R ctnn_models_tiny_params\n")
  message(FATAL_ERROR "tiny_fw.elf has no read-only object ctnn_models_tiny_params:\n${step_output}")
endif()
math(EXPR size "0x${CMAKE_MATCH_1}")
if(NOT size EQUAL blob_bytes)
  message(FATAL_ERROR "ctnn_models_tiny_params has ${size} bytes in the ELF, tiny.f32.bin ${blob_bytes}")
endif()
message(STATUS "tiny_fw.elf (rv32im): ctnn_models_tiny_params, ${size} bytes of .rodata")

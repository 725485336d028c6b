# An imported model on rv32im, freestanding: tests/freestanding/onnx_model.cpp (the header, the
# planner and the executor; no C++ standard library) compiles with -Wconversion -Werror, NAME.S
# assembles, both link into a bare-metal ELF (-nostdlib), and the ELF holds the parameters as a
# read-only object of exactly the blob's size whose bytes are NAME.f32.bin (NAME.i8.bin for an int8
# import: -DBLOB=i8).
# cmake -DRISCV_CXX=<riscv64-unknown-elf-g++> -DNM=<nm> -DOBJCOPY=<objcopy> -DSOURCE=<ctnn source>
#       -DGEN=<ctnn-import output dir> -DNAME=<model name> -DWORK=<dir> [-DBLOB=f32|i8] -P this
if(NOT BLOB)
  set(BLOB f32)
endif()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/step.cmake)
set(arch -march=rv32im -mabi=ilp32)
step(${RISCV_CXX} ${arch} -std=c++20 -O2 -ffreestanding -fno-exceptions -fno-rtti -fno-threadsafe-statics
     -fno-tree-loop-distribute-patterns -Wall -Wextra -Wconversion -Wshadow -Werror -I${SOURCE}/include -I${GEN}
     "-DCTNN_MODEL_HEADER=\"${NAME}.hpp\"" -DCTNN_MODEL=ctnn_models::${NAME}_model
     -c ${SOURCE}/tests/freestanding/onnx_model.cpp -o ${WORK}/model.o)
step(${RISCV_CXX} ${arch} -I${GEN} -c ${GEN}/${NAME}.S -o ${WORK}/params.o)
step(${RISCV_CXX} ${arch} -nostdlib -nostartfiles -Wl,-e,ctnn_model_entry -Wl,--gc-sections
     -Wl,--no-warn-rwx-segments ${WORK}/model.o ${WORK}/params.o -lgcc -o ${WORK}/model.elf)

file(SIZE ${GEN}/${NAME}.${BLOB}.bin blob_bytes)
step(${NM} -S ${WORK}/model.elf)
set(symbol ctnn_models_${NAME}_params)
if(NOT step_output MATCHES "[0-9a-f]+ ([0-9a-f]+) R ${symbol}\n")
  message(FATAL_ERROR "the ELF has no read-only object ${symbol}:\n${step_output}")
endif()
math(EXPR size "0x${CMAKE_MATCH_1}")
if(NOT size EQUAL blob_bytes)
  message(FATAL_ERROR "${symbol} has ${size} bytes, ${NAME}.${BLOB}.bin ${blob_bytes}")
endif()
step(${OBJCOPY} -O binary --only-section=.rodata.${symbol} ${WORK}/params.o ${WORK}/params.bin)
step(${CMAKE_COMMAND} -E compare_files ${WORK}/params.bin ${GEN}/${NAME}.${BLOB}.bin)

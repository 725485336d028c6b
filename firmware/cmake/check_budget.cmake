# ctnn_add_firmware's ARENA_BUDGET: the image's source (firmware/apps/model_app.cpp) with the model
# and data headers of a built image compiles (rv32im, -fsyntax-only) with a budget at or above the
# plan's arena and fails with one error naming the required bytes and the peak layer below it.
# cmake -DCXX=<riscv64-unknown-elf-g++> -DSOURCE=<ctnn source> -DMODEL_DIR=<dir> -DMODEL_HEADER=<x.hpp>
#       -DMODEL=<ns::x_model> -DDATA_HEADER=<full path> -DEXPECT=<regex of the peak layer's part> -P check_budget.cmake
# The arena comes from the data header (ctnn-fw-model-data writes plan_of's bytes there).
file(STRINGS ${DATA_HEADER} arena_line REGEX "arena_bytes = [0-9]+")
if(NOT arena_line MATCHES "arena_bytes = ([0-9]+)")
  message(FATAL_ERROR "${DATA_HEADER} holds no arena_bytes")
endif()
set(ARENA ${CMAKE_MATCH_1})
set(EXPECT "memory_budget_exceeded_required_bytes_at_peak_layer.*required_bytes<${ARENA}>.*${EXPECT}")
get_filename_component(data_dir ${DATA_HEADER} DIRECTORY)
get_filename_component(data_name ${DATA_HEADER} NAME)
set(flags -march=rv32im -mabi=ilp32 -misa-spec=2.2 -std=c++20 -ffreestanding -fno-exceptions -fno-rtti
    -fno-threadsafe-statics -fsyntax-only -fmessage-length=0 -I${SOURCE}/include -I${SOURCE}/firmware/platform
    -I${SOURCE}/firmware/runtime -I${SOURCE}/firmware/apps -I${MODEL_DIR} -I${data_dir}
    "-DCTNN_MODEL_HEADER=\"${MODEL_HEADER}\"" -DCTNN_MODEL=${MODEL} "-DCTNN_FW_DATA_HEADER=\"${data_name}\""
    ${SOURCE}/firmware/apps/model_app.cpp)
math(EXPR below "${ARENA} - 1")
foreach(budget ${ARENA} ${below})
  execute_process(COMMAND ${CXX} ${flags} -DCTNN_FW_ARENA_BUDGET=${budget} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(budget EQUAL ARENA AND NOT rc EQUAL 0)
    message(FATAL_ERROR "a budget of exactly the arena (${budget} bytes) was refused:\n${err}")
  endif()
  if(budget EQUAL below)
    if(rc EQUAL 0)
      message(FATAL_ERROR "a budget of ${budget} bytes, one below the arena, compiled")
    endif()
    if(NOT err MATCHES "${EXPECT}")
      message(FATAL_ERROR "the error does not match '${EXPECT}':\n${err}")
    endif()
    string(REGEX MATCHALL "[0-9]: error: " errors "${err}")
    list(LENGTH errors n)
    if(NOT n EQUAL 1)
      message(FATAL_ERROR "${n} errors, expected one:\n${err}")
    endif()
  endif()
endforeach()
message(STATUS "budget ${ARENA} compiles, ${below} is refused naming the peak layer")

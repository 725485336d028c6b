# ctnn_add_firmware: the bare-metal image of an imported int8 model (README, "Firmware for any model").
# Included by ctnn's top-level CMakeLists.txt (host builds).
include_guard(GLOBAL)
include(ExternalProject)

#[=======================================================================[
ctnn_add_firmware(<target> MODEL <model target> INPUTS <file.npy> [IMAGES <n>] [LABELS <file.npy>]
                  [CLASS_NAMES <name>...] [ARENA_BUDGET <bytes>] [ACCEL_IMAGES <n>] [CPU_IMAGES <n>]
                  [SHOW_IMAGES <n>])

Builds <binary dir>/<target>.elf (and .hex, .map): an RV32IM image, linked for the SoC map (QEMU
virt alike), that runs the model of <model target> (ctnn_add_model(... DTYPE int8 ...)) on the
first IMAGES samples (default 200) of INPUTS, float32 [N, C, H, W], and checks every image's output
bytes and every leaf's CRC-32 against the host. At build time the host program <target>-data
(firmware/host/ctnn_fw_model_data.cpp, compiled with the model's own header) quantizes the samples
with the header's quantize_input, runs them with the reference kernels and writes
<target>.fw/<target>_data.hpp: the int8 inputs, the LABELS (integer .npy, optional) and
CLASS_NAMES, the host's outputs and the per-leaf CRC table. The image holds the weights in .rodata
(the model's .incbin), a static arena of exactly plan_of<Net, int8>.arena_bytes and, with
ARENA_BUDGET, a static_assert(ctnn::fits<Net, int8_t>(<bytes>)) that names the peak layer when the
plan exceeds it. On the SoC the accelerator runs the first ACCEL_IMAGES (default: all IMAGES; an
RTL simulation runs a few hundred thousand cycles a second) and the CPU alone the first CPU_IMAGES
(default 2; 0: none, no speedup is printed, and the first image runs fused alone) for the cycle
comparison; without an accelerator (QEMU) the CPU runs them all. The
first SHOW_IMAGES (default 5) print their true and predicted label. Output and exit codes:
firmware/apps/model_app.cpp. Needs riscv64-unknown-elf-gcc (Debian gcc-riscv64-unknown-elf).
The image's path is the target property CTNN_FIRMWARE_ELF (CPU_IMAGES: CTNN_FIRMWARE_CPU_IMAGES); the global property
CTNN_FIRMWARE_IMAGES lists every <target> (ctnn's firmware/CMakeLists.txt runs them on QEMU and
ctnn-soc-sim as tests).
#]=======================================================================]
function(ctnn_add_firmware target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "MODEL;INPUTS;LABELS;IMAGES;ARENA_BUDGET;ACCEL_IMAGES;CPU_IMAGES;SHOW_IMAGES"
                        "CLASS_NAMES")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ctnn_add_firmware(${target}): unexpected arguments '${arg_UNPARSED_ARGUMENTS}'")
  endif()
  if(CMAKE_CROSSCOMPILING)
    message(FATAL_ERROR "ctnn_add_firmware(${target}): call it from a host build (it runs the model on the "
                        "host for the golden data and cross-builds the image itself)")
  endif()
  if(NOT arg_MODEL OR NOT TARGET ${arg_MODEL})
    message(FATAL_ERROR "ctnn_add_firmware(${target}): MODEL <target of ctnn_add_model> is required")
  endif()
  get_target_property(header ${arg_MODEL} CTNN_MODEL_HEADER)
  get_target_property(name ${arg_MODEL} CTNN_MODEL_NAME)
  get_target_property(ns ${arg_MODEL} CTNN_MODEL_NAMESPACE)
  get_target_property(model_dir ${arg_MODEL} CTNN_MODEL_DIR)
  get_target_property(dtype ${arg_MODEL} CTNN_MODEL_DTYPE)
  if(NOT header)
    message(FATAL_ERROR "ctnn_add_firmware(${target}): '${arg_MODEL}' is not a target of ctnn_add_model")
  endif()
  if(NOT dtype STREQUAL "int8")
    message(FATAL_ERROR "ctnn_add_firmware(${target}): the model '${arg_MODEL}' is ${dtype}; the firmware runs "
                        "int8 models (ctnn_add_model(... DTYPE int8 CALIBRATION <file.npy>))")
  endif()
  if(NOT arg_INPUTS)
    message(FATAL_ERROR "ctnn_add_firmware(${target}): INPUTS <file.npy> (float32 samples) is required")
  endif()
  if(NOT DEFINED arg_IMAGES)
    set(arg_IMAGES 200)
  endif()
  foreach(opt IMAGES ARENA_BUDGET ACCEL_IMAGES SHOW_IMAGES)
    if(DEFINED arg_${opt} AND NOT arg_${opt} MATCHES "^[1-9][0-9]*$")
      message(FATAL_ERROR "ctnn_add_firmware(${target}): ${opt} '${arg_${opt}}' is not a positive integer")
    endif()
  endforeach()
  if(DEFINED arg_CPU_IMAGES AND NOT arg_CPU_IMAGES MATCHES "^(0|[1-9][0-9]*)$")
    message(FATAL_ERROR "ctnn_add_firmware(${target}): CPU_IMAGES '${arg_CPU_IMAGES}' is not a non-negative integer")
  endif()
  if(NOT DEFINED arg_CPU_IMAGES)
    set(arg_CPU_IMAGES 2)
  endif()
  if(NOT DEFINED arg_ACCEL_IMAGES)
    set(arg_ACCEL_IMAGES ${arg_IMAGES})
  elseif(arg_ACCEL_IMAGES GREATER arg_IMAGES)
    message(FATAL_ERROR "ctnn_add_firmware(${target}): ACCEL_IMAGES ${arg_ACCEL_IMAGES} is more than IMAGES ${arg_IMAGES}")
  endif()
  find_program(CTNN_RISCV_ELF_GCC riscv64-unknown-elf-gcc)
  if(NOT CTNN_RISCV_ELF_GCC)
    message(FATAL_ERROR "ctnn_add_firmware(${target}): riscv64-unknown-elf-gcc not found "
                        "(Debian: gcc-riscv64-unknown-elf)")
  endif()
  set(ctnn_source ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../..)
  get_filename_component(ctnn_source ${ctnn_source} ABSOLUTE)
  get_filename_component(inputs "${arg_INPUTS}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${target}.fw)
  set(data_header ${dir}/${target}_data.hpp)

  # the host side: the data header, from the model's own header
  add_executable(${target}-data ${ctnn_source}/firmware/host/ctnn_fw_model_data.cpp)
  target_compile_definitions(${target}-data PRIVATE CTNN_MODEL_HEADER="${header}" CTNN_MODEL=${ns}::${name}_model)
  target_link_libraries(${target}-data PRIVATE ${arg_MODEL})
  set(data_args --inputs ${inputs} --images ${arg_IMAGES} --accel-images ${arg_ACCEL_IMAGES} --out ${data_header})
  set(data_depends ${inputs})
  if(arg_LABELS)
    get_filename_component(labels "${arg_LABELS}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND data_args --labels ${labels})
    list(APPEND data_depends ${labels})
  endif()
  if(arg_CLASS_NAMES)
    list(JOIN arg_CLASS_NAMES "," names)
    list(APPEND data_args --class-names "${names}")
  endif()
  add_custom_command(OUTPUT ${data_header}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${target}-data ${data_args}
    DEPENDS ${target}-data ${data_depends}
    COMMENT "ctnn-fw-model-data: ${arg_IMAGES} samples of ${arg_INPUTS} through ${name} (host int8, reference kernels)"
    VERBATIM)
  add_custom_target(${target}_data DEPENDS ${data_header})
  add_dependencies(${target}_data ${arg_MODEL}_generate)

  # the image: firmware/apps as a cross project
  set(args -DCMAKE_TOOLCHAIN_FILE=${ctnn_source}/firmware/cmake/rv32im-toolchain.cmake
           -DCMAKE_BUILD_TYPE=MinSizeRel -DCTNN_SOURCE_DIR=${ctnn_source} -DCTNN_FW_NAME=${target}
           -DCTNN_FW_MODEL_DIR=${model_dir} -DCTNN_FW_MODEL_HEADER=${header} -DCTNN_FW_MODEL=${ns}::${name}_model
           -DCTNN_FW_DATA_HEADER=${data_header} -DCTNN_FW_OUTPUT_DIR=${CMAKE_CURRENT_BINARY_DIR})
  foreach(opt ARENA_BUDGET CPU_IMAGES SHOW_IMAGES)
    if(DEFINED arg_${opt})
      list(APPEND args -DCTNN_FW_${opt}=${arg_${opt}})
    endif()
  endforeach()
  ExternalProject_Add(${target}
    SOURCE_DIR ${ctnn_source}/firmware/apps
    BINARY_DIR ${dir}/build
    CMAKE_ARGS ${args}
    DEPENDS ${target}_data
    BUILD_ALWAYS ON
    INSTALL_COMMAND ""
    USES_TERMINAL_BUILD ON)
  set_target_properties(${target} PROPERTIES CTNN_FIRMWARE_ELF ${CMAKE_CURRENT_BINARY_DIR}/${target}.elf
                        CTNN_FIRMWARE_DATA_TOOL ${target}-data CTNN_FIRMWARE_DATA_HEADER ${data_header}
                        CTNN_FIRMWARE_MODEL_DIR ${model_dir} CTNN_FIRMWARE_MODEL_HEADER ${header}
                        CTNN_FIRMWARE_MODEL ${ns}::${name}_model CTNN_FIRMWARE_CPU_IMAGES ${arg_CPU_IMAGES})
  set_property(GLOBAL APPEND PROPERTY CTNN_FIRMWARE_IMAGES ${target})
endfunction()

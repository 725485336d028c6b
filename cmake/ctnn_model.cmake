# ctnn_add_model / ctnn_add_model_runner: an ONNX file as a CMake target (README, "ctnn-import").
# Included by ctnn's own CMakeLists.txt (add_subdirectory) and by the installed ctnnConfig.cmake
# (find_package); the same file in both, so paths are found relative to it:
#   build tree:   <ctnn source>/cmake/ctnn_model.cmake, <ctnn source>/examples/onnx/...
#   install tree: <prefix>/share/ctnn/cmake/ctnn_model.cmake, <prefix>/share/ctnn/examples/onnx/...
include_guard(GLOBAL)

set(CTNN_IMPORT_EXECUTABLE "" CACHE FILEPATH
    "A host ctnn-import for ctnn_add_model (cross builds: the firmware toolchain cannot build it)")

# _ctnn_model_importer(<command var> <depends var>): how to run ctnn-import at build time.
# CTNN_IMPORT_EXECUTABLE if set; else the target ctnn::ctnn-import (ctnn's own build, or the
# imported executable of an installed package); else, in a ctnn source tree on the host, the
# importer is built here from examples/onnx/ctnn_import.cpp (needs libonnx-dev, libprotobuf-dev).
function(_ctnn_model_importer command_var depends_var)
  if(CTNN_IMPORT_EXECUTABLE)
    set(${command_var} ${CTNN_IMPORT_EXECUTABLE} PARENT_SCOPE)
    set(${depends_var} ${CTNN_IMPORT_EXECUTABLE} PARENT_SCOPE)
    return()
  endif()
  set(source ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../examples/onnx/ctnn_import.cpp)
  if(NOT TARGET ctnn::ctnn-import AND NOT CMAKE_CROSSCOMPILING AND EXISTS ${source})
    find_package(ONNX CONFIG QUIET)
    find_package(Protobuf QUIET)
    if(NOT ONNX_FOUND OR NOT Protobuf_FOUND)
      message(FATAL_ERROR "ctnn_add_model: building ctnn-import needs ONNX and Protobuf "
                          "(Debian: libonnx-dev libprotobuf-dev)")
    endif()
    add_executable(ctnn-import ${source})
    target_link_libraries(ctnn-import PRIVATE ctnn::ctnn onnx protobuf::libprotobuf)
    # a tool built with the consumer's flags: their -Werror must not stop it (GCC 12 at -O3 warns
    # -Wrestrict inside std::string's operator+, a known false positive)
    target_compile_options(ctnn-import PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-Wno-error>)
    add_executable(ctnn::ctnn-import ALIAS ctnn-import)
  endif()
  if(NOT TARGET ctnn::ctnn-import)
    message(FATAL_ERROR "ctnn_add_model: no ctnn-import: pass -DCTNN_IMPORT_EXECUTABLE=<host ctnn-import> "
                        "(cross builds), or use a ctnn package installed with the importer")
  endif()
  set(${command_var} $<TARGET_FILE:ctnn::ctnn-import> PARENT_SCOPE)
  set(${depends_var} ctnn::ctnn-import $<TARGET_FILE:ctnn::ctnn-import> PARENT_SCOPE)
endfunction()

#[=======================================================================[
ctnn_add_model(<target> ONNX <file> [DTYPE float32|int8] [FUSE] [CALIBRATION <file.npy>]
               [CALIBRATION_RULE minmax|percentile|mse] [NAME <name>] [NAMESPACE <ns>])

At build time, ctnn-import turns <file> into <name>.hpp, the parameter blob <name>.f32.bin
(float32) or <name>.i8.bin (int8) and <name>.S in <binary dir>/<target>.ctnn (rerun when <file>,
the calibration data or the importer changes). DTYPE int8 needs CALIBRATION, float32 samples of
the model's input [N, C, H, W]: ctnn-import runs its float32 executor over them and writes the
int8 model in TFLite's scheme (BatchNorm folded, activations fused, every tensor's scale and zero
point in the header; README, "int8"). FUSE (float32): ctnn-import --fuse, the same folding and
fusing in float32. <target> is an INTERFACE library: the directory of the
header, ctnn::ctnn, and <target>_params, a static library holding the assembled .incbin of the
parameters (in .rodata), so host programs and firmware alike link the blob by linking <target>.
The calling project must enable ASM (project(... ASM)). NAME defaults to <target> as a C
identifier, NAMESPACE to ctnn_models; the header declares <ns>::<name> (the network type) and
<ns>::<name>_model. Target properties CTNN_MODEL_HEADER, CTNN_MODEL_NAME, CTNN_MODEL_NAMESPACE,
CTNN_MODEL_DIR, CTNN_MODEL_DTYPE describe the result.
#]=======================================================================]
function(ctnn_add_model target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "FUSE" "ONNX;DTYPE;NAME;NAMESPACE;CALIBRATION;CALIBRATION_RULE" "")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ctnn_add_model(${target}): unexpected arguments '${arg_UNPARSED_ARGUMENTS}'")
  endif()
  if(NOT arg_ONNX)
    message(FATAL_ERROR "ctnn_add_model(${target}): ONNX <file> is required")
  endif()
  if(NOT DEFINED arg_DTYPE)
    set(arg_DTYPE float32)
  endif()
  set(quantize "")
  set(calibration "")
  if(arg_DTYPE STREQUAL "float32")
    if(arg_CALIBRATION OR arg_CALIBRATION_RULE)
      message(FATAL_ERROR "ctnn_add_model(${target}): CALIBRATION and CALIBRATION_RULE go with DTYPE int8")
    endif()
    set(blob_suffix f32)
    if(arg_FUSE)
      set(quantize --fuse)
    endif()
  elseif(arg_DTYPE STREQUAL "int8")
    if(NOT arg_CALIBRATION)
      message(FATAL_ERROR "ctnn_add_model(${target}): DTYPE int8 needs CALIBRATION <file.npy> (float32 samples "
                          "of the model's input)")
    endif()
    get_filename_component(calibration "${arg_CALIBRATION}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    if(arg_FUSE)
      message(FATAL_ERROR "ctnn_add_model(${target}): FUSE goes with DTYPE float32 (int8 always folds and fuses)")
    endif()
    set(quantize --dtype int8 --calibration ${calibration})
    if(arg_CALIBRATION_RULE)
      if(NOT arg_CALIBRATION_RULE MATCHES "^(minmax|percentile|mse)$")
        message(FATAL_ERROR "ctnn_add_model(${target}): CALIBRATION_RULE '${arg_CALIBRATION_RULE}': "
                            "minmax, percentile or mse")
      endif()
      list(APPEND quantize --calibration-rule ${arg_CALIBRATION_RULE})
    endif()
    set(blob_suffix i8)
  else()
    message(FATAL_ERROR "ctnn_add_model(${target}): DTYPE '${arg_DTYPE}': float32 or int8")
  endif()
  set(name ${arg_NAME})
  if(NOT name)
    string(MAKE_C_IDENTIFIER "${target}" name)
  endif()
  set(ns ${arg_NAMESPACE})
  if(NOT ns)
    set(ns ctnn_models)
  endif()
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "ASM" IN_LIST languages)
    message(FATAL_ERROR "ctnn_add_model(${target}): the parameters are assembled (.incbin): "
                        "enable ASM in the project, e.g. project(app LANGUAGES CXX ASM)")
  endif()
  get_filename_component(onnx "${arg_ONNX}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  _ctnn_model_importer(importer importer_depends)

  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${target}.ctnn)
  set(blob ${dir}/${name}.${blob_suffix}.bin)
  set(outputs ${dir}/${name}.hpp ${blob} ${dir}/${name}.S)
  # ctnn-import leaves a file that already holds its new content untouched (time stamp too), so
  # the rule's output is a stamp and the three files are byproducts: new weights in the same
  # graph (float32) rewrite only the blob, and the build reassembles it and relinks, compiling
  # nothing that includes the header.
  set(stamp ${dir}/${name}.stamp)
  add_custom_command(OUTPUT ${stamp}
    BYPRODUCTS ${outputs}
    COMMAND ${importer} ${onnx} -o ${dir} --name ${name} --namespace ${ns} ${quantize}
    COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
    DEPENDS ${onnx} ${calibration} ${importer_depends}
    COMMENT "ctnn-import ${arg_ONNX} -> ${name}.hpp (${arg_DTYPE})"
    VERBATIM)
  add_custom_target(${target}_generate DEPENDS ${stamp})

  add_library(${target}_params STATIC ${dir}/${name}.S)
  # the .incbin reads the blob: rebuild when it changes, find it through -I
  set_source_files_properties(${dir}/${name}.S PROPERTIES OBJECT_DEPENDS ${blob})
  target_include_directories(${target}_params PRIVATE ${dir})
  add_dependencies(${target}_params ${target}_generate)

  add_library(${target} INTERFACE)
  target_include_directories(${target} INTERFACE ${dir})
  target_link_libraries(${target} INTERFACE ctnn::ctnn ${target}_params)
  add_dependencies(${target} ${target}_generate)
  set_target_properties(${target} PROPERTIES
    CTNN_MODEL_HEADER ${name}.hpp CTNN_MODEL_NAME ${name} CTNN_MODEL_NAMESPACE ${ns} CTNN_MODEL_DIR ${dir}
    CTNN_MODEL_DTYPE ${arg_DTYPE})
endfunction()

#[=======================================================================[
ctnn_add_model_runner(<target>)

The host executable <target>-run (examples/onnx/model_runner.cpp) for a ctnn_add_model target:
  <target>-run --input IN.npy --output OUT.npy [--dump-layers DIR] [--backend reference|optimized] [--raw]
IN is float32 [1, C, H, W] or a batch [N, C, H, W] (run sample by sample), OUT [N, ...];
--dump-layers writes every leaf's output as DIR/<leaf>_<node>.npy and DIR/layers.tsv. An int8
model quantizes IN itself and writes OUT (and the dumps) dequantized to float32; --raw writes
the int8 values ('|i1' .npy) instead.
#]=======================================================================]
function(ctnn_add_model_runner target)
  if(ARGN)
    message(FATAL_ERROR "ctnn_add_model_runner(${target}): unexpected arguments '${ARGN}'")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "ctnn_add_model_runner(${target}): no such target (call ctnn_add_model first)")
  endif()
  get_target_property(header ${target} CTNN_MODEL_HEADER)
  get_target_property(name ${target} CTNN_MODEL_NAME)
  get_target_property(ns ${target} CTNN_MODEL_NAMESPACE)
  if(NOT header)
    message(FATAL_ERROR "ctnn_add_model_runner(${target}): not a target of ctnn_add_model")
  endif()
  if(CMAKE_CROSSCOMPILING)
    message(FATAL_ERROR "ctnn_add_model_runner(${target}): the runner is a host program (files, .npy)")
  endif()
  add_executable(${target}-run ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../examples/onnx/model_runner.cpp)
  target_compile_definitions(${target}-run PRIVATE CTNN_MODEL_HEADER="${header}" CTNN_MODEL=${ns}::${name}_model)
  target_link_libraries(${target}-run PRIVATE ${target})
endfunction()

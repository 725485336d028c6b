# A consumer of ctnn_add_model / ctnn_add_model_runner (this directory's CMakeLists.txt), end to end:
# export the tiny PyTorch model (tests/onnx/tiny_model.py: a batch of 3 inputs and PyTorch's
# outputs), configure and build the consumer, then
#   1. tiny-run on the batch matches PyTorch (max |error| <= 1e-5 x max |output|, same top-1), and
#      --dump-layers writes one .npy per leaf (layers.tsv), the last one equal to the output;
#   2. use_model (a plain program linking the INTERFACE target, other NAME and NAMESPACE) prints
#      exactly what tiny-run writes for the same input;
#   3. the ONNX file is a dependency: re-exported with other weights, a rebuild reruns ctnn-import,
#      which rewrites the float32 blobs but not their headers (the same graph): the rebuild
#      reassembles the blobs and relinks, and compiles neither tiny-run's nor use_model's source;
#      tiny-run matches the new PyTorch outputs;
#   4. the int8 model (DTYPE int8 CALIBRATION: 64 seeded normal samples, rule percentile): tiny8-run
#      takes the float input, matches PyTorch within 5 % of the largest output with the same top-1,
#      and --raw writes int8 values that dequantize to its float output.
# cmake -DMODE=find_package|add_subdirectory [-DPREFIX=<install prefix>] -DSOURCE=<ctnn source>
#       -DPYTHON=<python3> -DWORK=<dir> -DGENERATOR=<generator> -DCXX=<compiler> -DFLAGS=<CXX flags> -P this
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/../step.cmake)

set(model ${WORK}/model)
set(build ${WORK}/build)
step(${PYTHON} ${SOURCE}/tests/onnx/tiny_model.py --out ${model} --seed 1)
if(MODE STREQUAL "find_package")
  set(where -DCMAKE_PREFIX_PATH=${PREFIX})
else()
  set(where -DCTNN_SOURCE_DIR=${SOURCE})
endif()
step(${PYTHON} -c "import numpy as np\nnp.save('${model}/calibration.npy', np.random.default_rng(5).normal(size=(64, 3, 16, 16)).astype(np.float32))")
# find_package builds Release (-O3: the runners warning-free with -Werror where optimization
# finds more), add_subdirectory Debug (-O0 -g, also a user's build: its ctnn-import and three
# runners compile far faster than at -O3; the test 104 -> 61 s in a default-preset ctest -j2)
if(MODE STREQUAL "find_package")
  set(build_type Release)
else()
  set(build_type Debug)
endif()
step(${CMAKE_COMMAND} -S ${SOURCE}/tests/cmake/model -B ${build} -G ${GENERATOR} -DCTNN_CONSUME=${MODE} ${where}
     -DCMAKE_BUILD_TYPE=${build_type} -DCMAKE_CXX_COMPILER=${CXX} "-DCMAKE_CXX_FLAGS=${FLAGS}" -DMODEL_ONNX=${model}/tiny.onnx
     -DMODEL_CALIBRATION=${model}/calibration.npy)
step(${CMAKE_COMMAND} --build ${build})

# 1. the runner against PyTorch, and its per-layer dump
step(${build}/tiny-run --input ${model}/tiny.input.npy --output ${WORK}/out.npy --dump-layers ${WORK}/layers)
step(${PYTHON} ${SOURCE}/tests/onnx/compare_npy.py ${WORK}/out.npy ${model}/tiny.torch.npy --tolerance 1e-5)
message(STATUS "tiny-run, seed 1: ${step_output}")
file(STRINGS ${WORK}/layers/layers.tsv layers)
list(LENGTH layers count)
if(NOT count EQUAL 16)
  message(FATAL_ERROR "layers.tsv has ${count} lines, the model 16 leaves")
endif()
foreach(line IN LISTS layers)
  string(REPLACE "\t" ";" fields "${line}")
  list(GET fields 1 file)
  if(NOT EXISTS ${WORK}/layers/${file})
    message(FATAL_ERROR "layers.tsv names ${file}, which --dump-layers did not write")
  endif()
endforeach()
step(${CMAKE_COMMAND} -E compare_files ${WORK}/layers/${file} ${WORK}/out.npy)

# 2. a plain program linking the INTERFACE target computes what the runner computes
# (python -c code: lines, not ';', which CMake would split into arguments)
step(${PYTHON} -c "import numpy as np\nnp.save('${WORK}/ramp.npy', (np.arange(768) % 7 * 0.25 - 0.75).astype(np.float32).reshape(1, 3, 16, 16))")
step(${build}/tiny-run --input ${WORK}/ramp.npy --output ${WORK}/ramp.out.npy)
step(${build}/use_model)
string(STRIP "${step_output}" printed)
step(${PYTHON} -c "import numpy as np, sys\ny = np.load('${WORK}/ramp.out.npy').ravel()\np = np.array('${printed}'.split(), dtype=np.float32)
sys.exit(0 if p.shape == y.shape and (p == y).all() else 'use_model printed %s, tiny-run wrote %s' % (p, y))")

# 3. new weights in the same file: the build regenerates the model
step(${PYTHON} ${SOURCE}/tests/onnx/tiny_model.py --out ${model} --seed 2)
file(TIMESTAMP ${build}/tiny.ctnn/tiny.hpp header_before "%s")
step(${CMAKE_COMMAND} --build ${build})
if(NOT step_output MATCHES "ctnn-import")
  message(FATAL_ERROR "the rebuild after the ONNX file changed did not run ctnn-import:\n${step_output}")
endif()
file(TIMESTAMP ${build}/tiny.ctnn/tiny.hpp header_after "%s")
if(NOT header_after STREQUAL header_before)
  message(FATAL_ERROR "ctnn-import rewrote the float32 header, whose text does not depend on the weights")
endif()
# Makefile and Ninja generators name the object they build (the consumer uses the caller's)
foreach(object tiny_params.dir/tiny.ctnn/tiny.S tiny_named_params.dir/tiny_named.ctnn/small_cnn.S)
  if(NOT step_output MATCHES "${object}")
    message(FATAL_ERROR "the rebuild did not reassemble ${object} (its blob changed):\n${step_output}")
  endif()
endforeach()
foreach(object tiny-run.dir use_model.dir)
  if(step_output MATCHES "${object}/[^ ]*\\.cpp\\.o")
    message(FATAL_ERROR "the rebuild compiled ${object}'s source, whose header did not change:\n${step_output}")
  endif()
endforeach()
step(${build}/tiny-run --input ${model}/tiny.input.npy --output ${WORK}/out2.npy)
step(${PYTHON} ${SOURCE}/tests/onnx/compare_npy.py ${WORK}/out2.npy ${model}/tiny.torch.npy --tolerance 1e-5)
message(STATUS "tiny-run, seed 2 after the rebuild: ${step_output}")

# 4. the int8 model: float in, quantized by the runner, dequantized out
step(${build}/tiny8-run --input ${model}/tiny.input.npy --output ${WORK}/out8.npy)
step(${PYTHON} ${SOURCE}/tests/onnx/compare_npy.py ${WORK}/out8.npy ${model}/tiny.torch.npy --tolerance 0.05)
message(STATUS "tiny8-run (int8) after the rebuild: ${step_output}")
step(${build}/tiny8-run --input ${model}/tiny.input.npy --output ${WORK}/out8.raw.npy --raw)
file(READ ${build}/tiny8.ctnn/tiny8.hpp header)
string(REGEX MATCH "tiny8_output_quant\\{([-+0-9a-fA-Fx.p]+)f, (-?[0-9]+)\\}" found "${header}")
if(NOT found)
  message(FATAL_ERROR "no tiny8_output_quant in the generated header")
endif()
step(${PYTHON} -c "import numpy as np, sys\nq = np.load('${WORK}/out8.raw.npy')\ny = np.load('${WORK}/out8.npy')
d = (q.astype(np.float32) - np.float32(${CMAKE_MATCH_2})) * np.float32(float.fromhex('${CMAKE_MATCH_1}'))
sys.exit(0 if q.dtype == np.int8 and q.shape == y.shape and (d == y).all() else 'raw %s %s does not dequantize to the output' % (q.dtype, q.shape))")

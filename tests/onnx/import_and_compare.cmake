# One model from PyTorch to ctnn, checked layer by layer: export it to ONNX with seeded weights
# (export_models.py, batch 1, opset OPSET), import it with ctnn-import, build the runner of the
# generated header (CXXFLAGS), and run golden_compare.py on SAMPLES seeded inputs (seed 0; the
# first is the export's): every leaf's output against the PyTorch module (or ONNX tensor) it
# computes on the first LAYER_SAMPLES inputs, max |error| <= 1e-4 x max |activation| of the layer,
# and the output on all SAMPLES inputs within the same bound and with PyTorch's top-1 class on
# each. The verdict and every layer's errors are also in WORK/golden.json.
# IMPORT_ARGS: further ctnn-import options (--fuse: every leaf, folded and fused, against the
# ONNX tensor it computes, the last one it absorbed).
# cmake -DMODEL=... -DRESOLUTION=... -DOPSET=... -DSAMPLES=... -DLAYER_SAMPLES=... [-DMODULE=file.py:factory] [-DIMPORT_ARGS=...]
#       -DCXXFLAGS=... -DPYTHON=... -DIMPORT=... -DCXX=... -DSOURCE=... -DWORK=... -P this
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
function(step what)
  string(TIMESTAMP t0 "%s")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(TIMESTAMP t1 "%s")
  math(EXPR dt "${t1} - ${t0}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${dt} s): ${ARGN}\n-> ${rc}\n${out}\n${err}")
  endif()
  message(STATUS "${what} (${dt} s)\n${out}")
endfunction()
separate_arguments(flags UNIX_COMMAND "${CXXFLAGS}")
if(MODULE)
  set(which --module ${MODULE})
else()
  set(which --model ${MODEL})
endif()
step(export ${PYTHON} ${SOURCE}/tests/onnx/export_models.py --out ${WORK} --models ${MODEL} --resolution ${RESOLUTION}
     --opset ${OPSET})
separate_arguments(import_args UNIX_COMMAND "${IMPORT_ARGS}")
step(import ${IMPORT} ${WORK}/${MODEL}.onnx -o ${WORK}/gen ${import_args})
step(compile ${CXX} -std=c++20 ${flags} -I${SOURCE}/include -I${WORK}/gen "-DCTNN_MODEL_HEADER=\"${MODEL}.hpp\""
     -DCTNN_MODEL=ctnn_models::${MODEL}_model ${SOURCE}/examples/onnx/model_runner.cpp ${WORK}/gen/${MODEL}.S
     -o ${WORK}/${MODEL}-run)
step(golden ${PYTHON} ${SOURCE}/examples/onnx/golden_compare.py ${which} --onnx ${WORK}/${MODEL}.onnx
     --seed 0 --samples ${SAMPLES} --runner ${WORK}/${MODEL}-run --work ${WORK}/golden --json ${WORK}/golden.json
     --layer-samples ${LAYER_SAMPLES} --tolerance 1e-4)

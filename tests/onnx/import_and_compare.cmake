# One model from PyTorch to ctnn: export it to ONNX with seeded weights (export_models.py, which
# also saves its input and PyTorch's output), import it with ctnn-import, build the runner of
# the generated header, run it on the same input, and compare with PyTorch (compare_npy.py):
# max |error| <= 1e-4 x max |PyTorch output| and the same top-1 class.
# cmake -DMODEL=... -DRESOLUTION=... -DPYTHON=... -DIMPORT=... -DCXX=... -DSOURCE=... -DWORK=... -P this
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${ARGN}\n-> ${rc}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()
step(${PYTHON} ${SOURCE}/tests/onnx/export_models.py --out ${WORK} --models ${MODEL} --resolution ${RESOLUTION})
step(${IMPORT} ${WORK}/${MODEL}.onnx -o ${WORK}/gen)
step(${CXX} -std=c++20 -O2 -I${SOURCE}/include -I${WORK}/gen "-DCTNN_MODEL_HEADER=\"${MODEL}.hpp\""
     -DCTNN_MODEL=ctnn_models::${MODEL}_model ${SOURCE}/examples/onnx/model_runner.cpp ${WORK}/gen/${MODEL}.S
     -o ${WORK}/${MODEL}-run)
step(${WORK}/${MODEL}-run --input ${WORK}/${MODEL}.input.npy --output ${WORK}/${MODEL}.ctnn.npy)
step(${PYTHON} ${SOURCE}/tests/onnx/compare_npy.py ${WORK}/${MODEL}.ctnn.npy ${WORK}/${MODEL}.torch.npy --tolerance 1e-4)

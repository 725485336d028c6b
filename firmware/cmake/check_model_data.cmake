# ctnn-fw-model-data refuses bad input with one line on stderr, a non-zero exit and nothing written:
# samples of another size, fewer samples than --images, NaN in a sample, labels of a float dtype or
# out of the model's classes, a wrong number of class names, a bad --images or --accel-images, an unwritable output.
# cmake -DTOOL=<fmnist_lenet5-data> -DPYTHON=<python3 with numpy> -DINPUTS=<lenet5.test.npy>
#       -DOTHER=<dscnn.test.npy> -DLABELS=<test.labels.npy> -DWORK=<dir> -P check_model_data.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${PYTHON} -c "
import numpy as np, sys
x = np.load(sys.argv[1], mmap_mode='r')[:4].copy()
np.save(sys.argv[2] + '/nan.npy', np.where(np.arange(x.size).reshape(x.shape) == 7, np.float32('nan'), x).astype(np.float32))
np.save(sys.argv[2] + '/float_labels.npy', np.zeros(4, np.float32))
np.save(sys.argv[2] + '/bad_labels.npy', np.array([1, 10, 2, 3], np.int64))
np.save(sys.argv[2] + '/four.npy', x)
" ${INPUTS} ${WORK} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "writing the bad inputs failed: ${err}")
endif()

set(out ${WORK}/data.hpp)
# refused(<exit> <regex> <args...>): exit status, one line matching ^ctnn-fw-model-data: <regex>, no file
function(refused exit expect)
  file(REMOVE ${out})
  execute_process(COMMAND ${TOOL} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc STREQUAL "${exit}")
    message(FATAL_ERROR "${ARGN}: exit ${rc}, expected ${exit}\n${o}${e}")
  endif()
  if(NOT e MATCHES "^ctnn-fw-model-data: ${expect}\n$" OR NOT o STREQUAL "")
    message(FATAL_ERROR "${ARGN}: expected one line 'ctnn-fw-model-data: ${expect}', got\nstdout: ${o}\nstderr: ${e}")
  endif()
  if(EXISTS ${out})
    message(FATAL_ERROR "${ARGN}: refused, but ${out} was written")
  endif()
  message(STATUS "refused as expected: ${e}")
endfunction()

refused(2 "[^\n]*dscnn.test.npy: a sample has 784 values, fmnist_lenet5's input 1024"
        --inputs ${OTHER} --images 2 --out ${out})
refused(2 "[^\n]*four.npy: 4 samples, --images asks for 5" --inputs ${WORK}/four.npy --images 5 --out ${out})
refused(2 "[^\n]*nan.npy: sample 0 holds NaN or Inf" --inputs ${WORK}/nan.npy --images 4 --out ${out})
refused(2 "[^\n]*float_labels.npy: dtype '<f4' \\(expected an integer type: [^\n]*\\)"
        --inputs ${WORK}/four.npy --images 4 --labels ${WORK}/float_labels.npy --out ${out})
refused(2 "[^\n]*bad_labels.npy: label 10 of sample 1 is not a class of fmnist_lenet5's 10 outputs"
        --inputs ${WORK}/four.npy --images 4 --labels ${WORK}/bad_labels.npy --out ${out})
refused(2 "--class-names: 3 names, fmnist_lenet5 has 10 outputs"
        --inputs ${WORK}/four.npy --images 4 --class-names a,b,c --out ${out})
refused(2 "--images needs a decimal integer from 1 to 1000000, got '0'" --inputs ${WORK}/four.npy --images 0 --out ${out})
refused(2 "--inputs, --images and --out are required \\([^\n]*\\)" --inputs ${WORK}/four.npy --out ${out})
refused(2 "[^\n]*missing.npy: cannot open the file" --inputs ${WORK}/missing.npy --images 1 --out ${out})
refused(2 "--accel-images 5 is more than --images 4" --inputs ${WORK}/four.npy --images 4 --accel-images 5 --out ${out})
refused(2 "--accel-images needs a decimal integer from 1 to 1000000, got 'x'"
        --inputs ${WORK}/four.npy --images 4 --accel-images x --out ${out})
refused(1 "cannot write /nonexistent-dir/data.hpp" --inputs ${WORK}/four.npy --images 4 --out /nonexistent-dir/data.hpp)

# the control: the same files, valid, give a header with the four images and their labels, the
# accelerator's CRC table over the first three
execute_process(COMMAND ${TOOL} --inputs ${WORK}/four.npy --images 4 --accel-images 3 --labels ${LABELS} --out ${out}
                RESULT_VARIABLE rc ERROR_VARIABLE e)
if(NOT rc EQUAL 0 OR NOT EXISTS ${out})
  message(FATAL_ERROR "the valid control failed (exit ${rc}): ${e}")
endif()
file(READ ${out} text)
if(NOT text MATCHES "inline constexpr int32_t images = 4;" OR NOT text MATCHES "accel_images = 3;"
   OR NOT text MATCHES "has_labels = true")
  message(FATAL_ERROR "the control's header lacks its facts:\n${text}")
endif()
# leaf 0's CRC over the four images and over the accelerator's three differ
string(REGEX MATCH "leaf_crc\\[[0-9]+\\] = {\n    (0x[0-9a-f]+u)" m "${text}")
set(crc_all "${CMAKE_MATCH_1}")
string(REGEX MATCH "leaf_crc_accel\\[[0-9]+\\] = {\n    (0x[0-9a-f]+u)" m "${text}")
if(crc_all STREQUAL "" OR CMAKE_MATCH_1 STREQUAL "" OR crc_all STREQUAL CMAKE_MATCH_1)
  message(FATAL_ERROR "leaf 0's CRC over 4 images ('${crc_all}') and over the first 3 ('${CMAKE_MATCH_1}') "
                      "should be two different values")
endif()

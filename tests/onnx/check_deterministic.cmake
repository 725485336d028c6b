# The same input gives byte-identical output: MODEL is copied to two directories and imported from
# each into a different output directory (from different working directories); NAME.hpp,
# NAME.f32.bin and NAME.S must be equal byte for byte (no path, time or address leaks in).
# cmake "-DIMPORT=<wrapper...;ctnn-import>" -DMODEL=<file.onnx> -DWORK=<dir> -P this
file(REMOVE_RECURSE ${WORK})
get_filename_component(file ${MODEL} NAME)
get_filename_component(name ${MODEL} NAME_WE)
foreach(run a b)
  file(MAKE_DIRECTORY ${WORK}/${run}/in)
  file(COPY ${MODEL} DESTINATION ${WORK}/${run}/in)
  execute_process(COMMAND ${IMPORT} in/${file} -o ${WORK}/${run}/out-${run}
                  WORKING_DIRECTORY ${WORK}/${run} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ctnn-import ${file} -> ${rc}\n${out}\n${err}")
  endif()
endforeach()
foreach(ext hpp f32.bin S)
  set(a ${WORK}/a/out-a/${name}.${ext})
  set(b ${WORK}/b/out-b/${name}.${ext})
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${a} ${b} RESULT_VARIABLE differ)
  if(NOT differ EQUAL 0)
    message(FATAL_ERROR "two imports of ${file} differ: ${a} ${b}")
  endif()
  file(SIZE ${a} bytes)
  message(STATUS "${name}.${ext}: ${bytes} bytes, identical")
endforeach()

# ctnn-import on a bad model: exit status EXIT (default 1), exactly one line on stderr matching
# EXPECT, nothing on stdout, and nothing left in the output directory (no file, no temporary).
# BLOCK names a path in the output directory made a non-empty directory first, so that writing
# or renaming onto it fails after other outputs were written (it is the only thing left after).
# STDOUT names the file stdout goes to (/dev/full: a device that refuses every write).
# ARGS: more arguments for ctnn-import, separated by '|' (e.g. --dtype|int8|--calibration|c.npy).
# cmake "-DIMPORT=<wrapper...;ctnn-import>" -DMODEL=<file.onnx> -DOUT=<dir> -DEXPECT=<regex>
#       [-DEXIT=1] [-DBLOCK=<name>] [-DSTDOUT=<file>] [-DARGS=<a|b|...>] -P expect_refusal.cmake
if(NOT DEFINED EXIT)
  set(EXIT 1)
endif()
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
if(BLOCK)
  file(WRITE ${OUT}/${BLOCK}/keep "a directory where ctnn-import wants a file\n")
endif()
string(REPLACE "|" ";" args "${ARGS}")
set(out "")
if(STDOUT)
  execute_process(COMMAND ${IMPORT} ${MODEL} -o ${OUT} --name model ${args}
                  RESULT_VARIABLE rc OUTPUT_FILE ${STDOUT} ERROR_VARIABLE err)
else()
  execute_process(COMMAND ${IMPORT} ${MODEL} -o ${OUT} --name model ${args}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
endif()
set(said "stdout:\n${out}\nstderr:\n${err}")
if(NOT rc STREQUAL "${EXIT}")
  message(FATAL_ERROR "exit status ${rc}, expected ${EXIT}\n${said}")
endif()
string(REGEX MATCHALL "\n" newlines "${err}")
list(LENGTH newlines lines)
if(NOT out STREQUAL "" OR NOT lines EQUAL 1 OR NOT err MATCHES "\n$")
  message(FATAL_ERROR "expected one line on stderr and nothing on stdout\n${said}")
endif()
if(NOT err MATCHES "${EXPECT}")
  message(FATAL_ERROR "stderr does not match '${EXPECT}'\n${said}")
endif()
file(GLOB_RECURSE left RELATIVE ${OUT} ${OUT}/*)
list(REMOVE_ITEM left ${BLOCK}/keep)
if(left)
  message(FATAL_ERROR "ctnn-import left files behind: ${left}\n${said}")
endif()

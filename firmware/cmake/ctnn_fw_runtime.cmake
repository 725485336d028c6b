# The bare-metal runtime in a cross build (rv32im-toolchain.cmake): included by firmware/CMakeLists.txt
# (the firmware tests) and by firmware/apps/CMakeLists.txt (the image of an imported model,
# ctnn_add_firmware). Defines
#   ctnn_fw_runtime                     crt0, string functions, console, counters, exit (OBJECT library)
#   ctnn_fw_executable(<target> <src>)  an ELF linked with the runtime at CTNN_RAM_BASE, plus its map
#                                       and a word hex image for $readmemh (<target>.hex)
# and needs ctnn::ctnn (the headers).
include_guard(GLOBAL)
enable_language(ASM)
set(CTNN_FW_DIR ${CMAKE_CURRENT_LIST_DIR}/..)
set(CTNN_FW_LINKER_SCRIPT ${CTNN_FW_DIR}/link/ctnn_virt.ld)
# RAM base and size of the SoC map (generated from fpga/regs/ctnn.toml, as is link/ctnn_memory.ld)
include(${CMAKE_CURRENT_LIST_DIR}/ctnn_soc_map.cmake)

add_library(ctnn_fw_runtime OBJECT
  ${CTNN_FW_DIR}/runtime/crt0.S
  ${CTNN_FW_DIR}/runtime/probe.S
  ${CTNN_FW_DIR}/runtime/string.c
  ${CTNN_FW_DIR}/platform/console.cpp
  ${CTNN_FW_DIR}/platform/counter.c
  ${CTNN_FW_DIR}/platform/exit.cpp)
target_include_directories(ctnn_fw_runtime PUBLIC ${CTNN_FW_DIR}/platform ${CTNN_FW_DIR}/runtime
                                                  ${CTNN_FW_DIR}/apps)
# The device addresses come from the generated map (include/ctnn/regs/soc_map.hpp).
target_link_libraries(ctnn_fw_runtime PRIVATE ctnn::ctnn)
target_compile_options(ctnn_fw_runtime PRIVATE -Wall -Wextra -Wconversion -Wshadow -Werror)
# The loops of memset/memcpy must not be turned back into calls to themselves.
set_source_files_properties(${CTNN_FW_DIR}/runtime/string.c PROPERTIES
  COMPILE_OPTIONS "-fno-tree-loop-distribute-patterns")

function(ctnn_fw_executable target)
  add_executable(${target} ${ARGN})
  set_target_properties(${target} PROPERTIES SUFFIX ".elf")
  target_link_libraries(${target} PRIVATE ctnn_fw_runtime ctnn::ctnn gcc)
  target_link_options(${target} PRIVATE -T ${CTNN_FW_LINKER_SCRIPT} -Wl,--no-warn-rwx-segments
                      -Wl,-Map=$<TARGET_FILE_DIR:${target}>/${target}.map)
  # where the script's INCLUDE finds the generated MEMORY block
  target_link_directories(${target} PRIVATE ${CTNN_FW_DIR}/link)
  set_target_properties(${target} PROPERTIES
    LINK_DEPENDS "${CTNN_FW_LINKER_SCRIPT};${CTNN_FW_DIR}/link/ctnn_memory.ld")
  # A word hex image for $readmemh (RAM offset 0 = CTNN_RAM_BASE).
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_OBJCOPY} -O verilog --verilog-data-width=4
            --change-addresses=-${CTNN_RAM_BASE} $<TARGET_FILE:${target}>
            $<TARGET_FILE_DIR:${target}>/${target}.hex
    VERBATIM)
endfunction()

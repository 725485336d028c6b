# cmake -DSIZE=<riscv64-unknown-elf-size> -DELF=<elf> -DMAX_TEXT=<bytes> -P check_text_size.cmake
# Fails when the ELF's "text" (Berkeley format: .text + .rodata + other read-only sections) exceeds
# MAX_TEXT; prints text, data and bss either way.
execute_process(COMMAND ${SIZE} -B ${ELF} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${SIZE} ${ELF} failed (${rc})")
endif()
string(REGEX MATCH "\n[ \t]*([0-9]+)[ \t]+([0-9]+)[ \t]+([0-9]+)" row "${out}")
if(NOT row)
  message(FATAL_ERROR "cannot parse the size output:\n${out}")
endif()
set(text ${CMAKE_MATCH_1})
set(data ${CMAKE_MATCH_2})
set(bss ${CMAKE_MATCH_3})
message("${ELF}: text ${text} data ${data} bss ${bss} (text budget ${MAX_TEXT})")
if(text GREATER MAX_TEXT)
  message(FATAL_ERROR "text ${text} bytes exceeds the budget of ${MAX_TEXT} bytes")
endif()

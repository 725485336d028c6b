# Extracts the first ```cpp block of README.md into a file, so the README's example is compiled
# (tests/CMakeLists.txt builds it as static_readme): a stale README fails the build.
file(READ ${README} text)
string(FIND "${text}" "```cpp\n" start)
if(start LESS 0)
  message(FATAL_ERROR "README.md has no ```cpp block")
endif()
math(EXPR start "${start} + 7")
string(SUBSTRING "${text}" ${start} -1 rest)
string(FIND "${rest}" "```" end)
string(SUBSTRING "${rest}" 0 ${end} code)
file(WRITE ${OUTPUT}.tmp "// Generated from README.md by tests/readme_example.cmake\n${code}")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)

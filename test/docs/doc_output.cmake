# doc_output.cmake - runs COMMAND (its arguments separated by "|") and checks
# that it exits 0 and that every line it prints on stdout is a line of DOC, so
# what a guide shows as a program's output is that program's output.
#
#   cmake -DCOMMAND="<program>|<arg>|..." -DDOC=<file.md> [-DLINES=<regex>]
#         -P doc_output.cmake
#
# LINES: check only the lines that match it (at least one must).
foreach(var COMMAND DOC)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "doc_output.cmake: -D${var}=... is required")
  endif()
endforeach()
set(STATUS 0)
include("${CMAKE_CURRENT_LIST_DIR}/../run_command.cmake")
file(READ "${DOC}" doc)

# Line by line with string(FIND), not as a CMake list: a line may hold a ';'.
set(checked 0)
while(NOT out STREQUAL "")
  string(FIND "${out}" "\n" eol)
  if(eol EQUAL -1)
    set(line "${out}")
    set(out "")
  else()
    string(SUBSTRING "${out}" 0 ${eol} line)
    math(EXPR next "${eol} + 1")
    string(SUBSTRING "${out}" ${next} -1 out)
  endif()
  if(DEFINED LINES AND NOT line MATCHES "${LINES}")
    continue()
  endif()
  string(FIND "${doc}" "\n${line}\n" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${DOC} does not show the line\n${line}\n(update the guide)")
  endif()
  math(EXPR checked "${checked} + 1")
endwhile()
if(checked EQUAL 0)
  message(FATAL_ERROR "no line to check in the output")
endif()
message("${checked} lines, each shown in ${DOC}")

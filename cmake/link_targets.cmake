# Post-build step of every target made by linfuzz_add_fuzz_target (linfuzz_fuzz_target.cmake), linfuzz-fuzz among
# them: one hard link fuzz_<adapter> next to the harness binary for every adapter it carries (except the
# binary's own name), as the binary itself lists them (`<binary> adapters --names`).
#
# <binary>.links remembers each link made, with its inode: a link is this binary's to replace or remove only
# while the path still has that inode. So a relink replaces its own links (they kept the old binary's inode),
# the links of adapters that are gone are removed, and a file that another target put there (a correct and a
# buggy build of the same adapter in one directory, each its own target) is never touched: a warning says so.
# Run with -DHARNESS=<path of the binary>.
cmake_minimum_required(VERSION 3.20)
get_filename_component(dir "${HARNESS}" DIRECTORY)
get_filename_component(self "${HARNESS}" NAME)

function(inode_of path out)
  set(${out} "" PARENT_SCOPE)
  if(EXISTS "${path}")
    execute_process(COMMAND stat -c %i "${path}" OUTPUT_VARIABLE inode OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE status)
    if(status EQUAL 0)
      set(${out} "${inode}" PARENT_SCOPE)
    endif()
  endif()
endfunction()

execute_process(COMMAND "${HARNESS}" adapters --names
  OUTPUT_VARIABLE names RESULT_VARIABLE status ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${HARNESS} adapters --names failed (${status}): ${errors}")
endif()
string(STRIP "${names}" names)
if(names STREQUAL "")
  message(FATAL_ERROR "${HARNESS} carries no adapter: the adapters must be linked as objects (an OBJECT library)")
endif()
string(REPLACE "\n" ";" names "${names}")

# The links made last time, "adapter inode" per line; those whose path still has that inode are ours.
set(manifest "${HARNESS}.links")
set(ours "")
if(EXISTS "${manifest}")
  file(STRINGS "${manifest}" lines)
  foreach(line ${lines})
    if(line MATCHES "^[^ ]+$") # written by an older linfuzz: the names alone, taken as ours
      set(adapter "${line}")
      set(recorded "")
    elseif(line MATCHES "^([^ ]+) ([0-9]+)$")
      set(adapter "${CMAKE_MATCH_1}")
      set(recorded "${CMAKE_MATCH_2}")
    else()
      continue()
    endif()
    inode_of("${dir}/fuzz_${adapter}" now)
    if(now AND (recorded STREQUAL "" OR now STREQUAL recorded))
      list(APPEND ours ${adapter})
      if(NOT adapter IN_LIST names)
        file(REMOVE "${dir}/fuzz_${adapter}") # its adapter is gone
      endif()
    endif()
  endforeach()
endif()

set(made "")
foreach(adapter ${names})
  set(link "${dir}/fuzz_${adapter}")
  if("fuzz_${adapter}" STREQUAL "${self}")
    continue() # the binary already has the adapter's name
  endif()
  if(EXISTS "${link}" AND NOT adapter IN_LIST ours)
    message(WARNING "${self}: not making fuzz_${adapter}: ${link} is another target's (run ${self} with "
                    "LINFUZZ_ADAPTER=${adapter} to fuzz that adapter with this binary)")
    continue()
  endif()
  file(REMOVE "${link}")
  file(CREATE_LINK "${HARNESS}" "${link}" COPY_ON_ERROR)
  inode_of("${link}" inode)
  string(APPEND made "${adapter} ${inode}\n")
endforeach()
file(WRITE "${manifest}" "${made}")

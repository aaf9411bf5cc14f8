# Post-build step of every target made by linfuzz_add_fuzz_target (linfuzz_fuzz_target.cmake), linfuzz-fuzz among
# them: one hard link fuzz_<adapter> next to the harness binary for every adapter it carries (except the
# binary's own name), as the binary itself lists them (`<binary> adapters --names`). The names are remembered in
# <binary>.links, so that the links of adapters that are gone are removed next time (and nothing else is).
# Run with -DHARNESS=<path of the binary>.
cmake_minimum_required(VERSION 3.20)
get_filename_component(dir "${HARNESS}" DIRECTORY)
get_filename_component(self "${HARNESS}" NAME)
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
set(manifest "${HARNESS}.links")
if(EXISTS "${manifest}")
  file(STRINGS "${manifest}" old_names)
  foreach(adapter ${old_names})
    if(NOT adapter IN_LIST names AND NOT "fuzz_${adapter}" STREQUAL "${self}")
      file(REMOVE "${dir}/fuzz_${adapter}")
    endif()
  endforeach()
endif()
foreach(adapter ${names})
  if("fuzz_${adapter}" STREQUAL "${self}")
    continue() # the binary already has the adapter's name
  endif()
  file(REMOVE "${dir}/fuzz_${adapter}")
  file(CREATE_LINK "${HARNESS}" "${dir}/fuzz_${adapter}" COPY_ON_ERROR)
endforeach()
string(REPLACE ";" "\n" lines "${names}")
file(WRITE "${manifest}" "${lines}\n")

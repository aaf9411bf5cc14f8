# linfuzz_add_fuzz_target: the one way a libFuzzer target is made, in this tree (fuzz/CMakeLists.txt) and
# in a project that uses linfuzz (find_package(linfuzz CONFIG), or add_subdirectory(linfuzz)); this file is
# installed into the CMake package and included by it. docs/writing-an-adapter.md and docs/fuzzing.md.
#
#   linfuzz_add_fuzz_target(<name>
#     [SOURCES <file>...]              the data structure under test: adapter files (each with its
#                                      LF_REGISTER_ADAPTER line) and the code they drive
#     [FROM <target>]                  or an existing OBJECT or STATIC library of them
#     [LIBRARIES <lib>...]             what those sources need (their own dependencies; a shared library given
#                                      as a file is wrapped: its calls are scheduling points)
#     [INCLUDE_DIRECTORIES <dir>...]   for those sources
#     [COMPILE_DEFINITIONS <def>...]   for those sources (e.g. the switch of a known bug)
#     [COMPILE_OPTIONS <opt>...]       for those sources
#     [HARNESS <file>...]              your own LLVMFuzzerTestOneInput instead of linfuzz's adapter harness
#     [HARNESS_DEFINITIONS <def>...])  for the harness sources
#
# makes the executable <name>: the code under test compiled with linfuzz's instrumentation (the same flags as
# the bundled adapters: ${LINFUZZ_FUZZ_INSTRUMENT}, libFuzzer's coverage; the controlled scheduler's access points
# and lock redirection, docs/scheduling.md; and LINFUZZ_HARNESS so that LF_YIELD() points are live), as an OBJECT library <name>_under_test so that no registration is dropped; linked with the
# fuzzing engine (${LINFUZZ_FUZZING_ENGINE}) and, unless HARNESS is given, with linfuzz's adapter harness
# (linfuzz::fuzz: fuzz cases, recording, checking, minimisation, corpus entries, the STUCK watchdog, and the
# linfuzz subcommands: `<name> repro|show|triage ...`). After each link, next to <name>, a hard link
# fuzz_<adapter> is made for every adapter the binary carries (so a binary with several adapters fuzzes each
# under its own name). The harness itself is not instrumented: its coverage says nothing about the structure.
#
# Flags (cache variables): LINFUZZ_FUZZING_ENGINE (link; default -fsanitize=fuzzer, or $LIB_FUZZING_ENGINE when
# set at the first configure, as under OSS-Fuzz and ClusterFuzzLite) and LINFUZZ_FUZZ_INSTRUMENT (compile;
# default -fsanitize-coverage=inline-8bit-counters,pc-table: libFuzzer's edge coverage without the comparison
# tracing of -fsanitize=fuzzer-no-link, which slows the races of free runs, docs/fuzzing.md; empty when the
# environment's CFLAGS instrument everything already).
# Libraries the adapters use: linfuzz_add_library_under_test(<name> SOURCES ...) builds a library's sources with
# the same instrumentation (every access inside it a scheduling point); a shared library given in LIBRARIES as a
# file (libcritnib.so) is seen at its calls: linfuzz_wrap_library_calls makes each call and return a point.
# linfuzz_instrumented_library(<name> <from> [NO_SCHEDULING]) is the building block: an instrumented copy of a
# library target (NO_SCHEDULING: coverage only, not the controlled scheduler's access points and lock redirection).
include_guard(GLOBAL)

if(DEFINED ENV{LIB_FUZZING_ENGINE})
  set(_linfuzz_default_engine "$ENV{LIB_FUZZING_ENGINE}")
else()
  set(_linfuzz_default_engine "-fsanitize=fuzzer")
endif()
set(LINFUZZ_FUZZING_ENGINE "${_linfuzz_default_engine}" CACHE STRING
    "Link flags of the fuzzing engine for the fuzz targets ($LIB_FUZZING_ENGINE under OSS-Fuzz)")
set(LINFUZZ_FUZZ_INSTRUMENT "-fsanitize-coverage=inline-8bit-counters,pc-table" CACHE STRING
    "Compile flags that instrument code under test for the fuzzing engine (empty: none)")

# An instrumented copy of library target FROM (OBJECT or STATIC, as FROM is): its sources, include directories,
# definitions, per-source options and link libraries, compiled with LINFUZZ_FUZZ_INSTRUMENT (FROM itself when
# that is empty).
# The controlled scheduler's instrumentation of code under test (docs/scheduling.md): every shared-memory access
# a scheduling point (the ThreadSanitizer instrumentation ABI, implemented by linfuzz::runtime), and locks, waits
# and sleeps through linfuzz/sync.h (lf_sync_redirect.h, force-included). linfuzz records both as global
# properties: its top-level CMakeLists.txt in this tree, linfuzzConfig.cmake when installed.
function(_linfuzz_sched_options OUT)
  get_property(access_flags GLOBAL PROPERTY LINFUZZ_ACCESS_FLAGS)
  get_property(redirect GLOBAL PROPERTY LINFUZZ_SYNC_REDIRECT)
  set(options ${access_flags})
  if(redirect)
    list(APPEND options "SHELL:-include ${redirect}")
  endif()
  set(${OUT} ${options} PARENT_SCOPE)
endfunction()

function(linfuzz_instrumented_library NAME FROM)
  cmake_parse_arguments(ARG "NO_SCHEDULING" "" "" ${ARGN})
  get_target_property(already ${FROM} LINFUZZ_INSTRUMENTED)
  if(already)
    # FROM carries the instrumentation itself (linfuzz's adapters: adapters/CMakeLists.txt, so that a controlled
    # run is the same in every binary): FROM itself.
    add_library(${NAME} ALIAS ${FROM})
    return()
  endif()
  set(sched_options "")
  if(NOT ARG_NO_SCHEDULING)
    _linfuzz_sched_options(sched_options)
  endif()
  if(NOT LINFUZZ_FUZZ_INSTRUMENT AND NOT sched_options)
    # Nothing to add (under OSS-Fuzz the CFLAGS instrument everything already): FROM itself, compiled once.
    # An alias, not an INTERFACE wrapper: an OBJECT library's objects reach only what links it directly.
    add_library(${NAME} ALIAS ${FROM})
    return()
  endif()
  get_target_property(sources ${FROM} SOURCES)
  get_target_property(from_dir ${FROM} SOURCE_DIR)
  set(abs_sources "")
  foreach(src ${sources})
    get_filename_component(abs ${src} ABSOLUTE BASE_DIR ${from_dir})
    list(APPEND abs_sources ${abs})
    # Per-source options (e.g. a sanitizer exception) live in FROM's directory scope: copy them here.
    get_source_file_property(opts ${abs} DIRECTORY ${from_dir} COMPILE_OPTIONS)
    if(opts)
      set_source_files_properties(${abs} PROPERTIES COMPILE_OPTIONS "${opts}")
    endif()
  endforeach()
  get_target_property(from_type ${FROM} TYPE)
  if(from_type STREQUAL "OBJECT_LIBRARY")
    add_library(${NAME} OBJECT ${abs_sources}) # e.g. self-registering adapters: every object is kept
  else()
    add_library(${NAME} STATIC ${abs_sources})
  endif()
  foreach(prop INCLUDE_DIRECTORIES COMPILE_DEFINITIONS COMPILE_OPTIONS INTERFACE_INCLUDE_DIRECTORIES
               INTERFACE_COMPILE_DEFINITIONS)
    get_target_property(value ${FROM} ${prop})
    if(value)
      set_property(TARGET ${NAME} PROPERTY ${prop} ${value})
    endif()
  endforeach()
  get_target_property(libs ${FROM} LINK_LIBRARIES)
  if(libs)
    target_link_libraries(${NAME} PUBLIC ${libs})
  endif()
  separate_arguments(instrument_flags UNIX_COMMAND "${LINFUZZ_FUZZ_INSTRUMENT}")
  target_compile_options(${NAME} PRIVATE ${instrument_flags} ${sched_options})
endfunction()

# linfuzz_add_library_under_test(<name> SOURCES <file>... [INCLUDE_DIRECTORIES <dir>...]
#                                [COMPILE_DEFINITIONS <def>...] [COMPILE_OPTIONS <opt>...] [LIBRARIES <lib>...])
# makes the static library <name> of a third-party library's sources compiled as the code under test is: with
# linfuzz's instrumentation (libFuzzer's coverage, the controlled scheduler's access points and lock redirection)
# and -g, so that every load, store, atomic and lock inside the library is a scheduling point and root causes
# name its lines (docs/scheduling.md, "Seeing library code"). Its include directories are public: an adapter
# that links it (linfuzz_add_fuzz_target(... LIBRARIES <name>)) finds the library's headers. The library's own
# dependencies go in LIBRARIES. Without it, a library linked as a distribution ships it is seen only at its calls
# (linfuzz_wrap_library_calls).
function(linfuzz_add_library_under_test NAME)
  cmake_parse_arguments(ARG "" "" "SOURCES;INCLUDE_DIRECTORIES;COMPILE_DEFINITIONS;COMPILE_OPTIONS;LIBRARIES" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS OR NOT ARG_SOURCES)
    message(FATAL_ERROR "linfuzz_add_library_under_test(${NAME}): SOURCES <the library's files> is required "
                        "(unknown arguments: ${ARG_UNPARSED_ARGUMENTS})")
  endif()
  add_library(${NAME} STATIC ${ARG_SOURCES})
  separate_arguments(instrument_flags UNIX_COMMAND "${LINFUZZ_FUZZ_INSTRUMENT}")
  _linfuzz_sched_options(sched_options)
  target_compile_options(${NAME} PRIVATE -g ${instrument_flags} ${sched_options} ${ARG_COMPILE_OPTIONS})
  target_compile_definitions(${NAME} PRIVATE ${ARG_COMPILE_DEFINITIONS})
  target_include_directories(${NAME} PUBLIC ${ARG_INCLUDE_DIRECTORIES})
  # the TSan callbacks and the lf_sync.h primitives the instrumented code calls
  target_link_libraries(${NAME} PUBLIC linfuzz::runtime ${ARG_LIBRARIES})
endfunction()

# linfuzz_wrap_library_calls(<target> <shared library file>...): a scheduling point at every call into and return
# from the functions the libraries export (docs/scheduling.md, "Calls into uninstrumented libraries"). Code that is
# not compiled with the instrumentation (a distribution's libcritnib.so) has no scheduling point inside, so two of
# its calls in one operation would be one step of a controlled run. For every function a library exports
# (`nm -D`, read at configure time) this generates a wrapper __wrap_F (into <target>'s sources) and links every
# executable that uses <target> with --wrap=F: the wrapper passes through linfuzz::runtime's trampoline, which
# makes the call and its return scheduling points (runtime/sched/call_out.c). x86-64 ELF with a GNU-compatible
# linker only; elsewhere it says so and changes nothing. linfuzz_add_fuzz_target does it for the shared libraries
# given in LIBRARIES.
function(linfuzz_wrap_library_calls TARGET)
  if(NOT CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64" OR NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
    message(STATUS "linfuzz: calls into ${ARGN} are no scheduling points (wrappers need x86-64 Linux)")
    return()
  endif()
  if(NOT CMAKE_NM)
    message(STATUS "linfuzz: no nm: calls into ${ARGN} are no scheduling points")
    return()
  endif()
  set(functions "")
  foreach(lib ${ARGN})
    execute_process(COMMAND ${CMAKE_NM} -D --defined-only ${lib} OUTPUT_VARIABLE listing RESULT_VARIABLE rc
                    ERROR_QUIET)
    if(NOT rc EQUAL 0)
      message(STATUS "linfuzz: cannot list the functions of ${lib}: its calls are no scheduling points")
      continue()
    endif()
    string(REPLACE "\n" ";" lines "${listing}")
    foreach(line ${lines})
      # "ADDRESS T name[@[@]VERSION]": functions (T, W weak, i indirect); not the ELF's own _init and _fini
      if(line MATCHES "^[0-9a-fA-F]+ [TWi] ([A-Za-z_][A-Za-z0-9_]*)")
        set(fn ${CMAKE_MATCH_1})
        if(NOT fn MATCHES "^_(init|fini)$")
          list(APPEND functions ${fn})
        endif()
      endif()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES functions)
  if(NOT functions)
    return()
  endif()
  list(SORT functions)
  string(JOIN " " libs ${ARGN})
  string(CONCAT code "/* Generated by linfuzz_wrap_library_calls (cmake/linfuzz_fuzz_target.cmake) for ${TARGET}: a wrapper per\n"
         " * function of ${libs}, through linfuzz's trampoline (runtime/sched/call_out.c). */\n"
         "#if defined(__x86_64__) && defined(__ELF__)\n__asm__(\".text\\n\"\n")
  set(options "")
  foreach(fn ${functions})
    string(APPEND code "        \".globl __wrap_${fn}\\n.hidden __wrap_${fn}\\n.type __wrap_${fn},@function\\n\"\n"
                       "        \"__wrap_${fn}:\\n movq __real_${fn}@GOTPCREL(%rip), %r11\\n jmp lf_call_out_trampoline\\n\"\n")
    list(APPEND options "LINKER:--wrap=${fn}")
  endforeach()
  string(APPEND code ");\n#endif\n")
  set(file ${CMAKE_CURRENT_BINARY_DIR}/${TARGET}_library_calls.c)
  file(WRITE ${file}.new "${code}")
  configure_file(${file}.new ${file} COPYONLY) # (rewritten only when it changed: no rebuild at each configure)
  target_sources(${TARGET} PRIVATE ${file})
  # (PUBLIC: an OBJECT library's consumers link its objects, and with them the references to wrap)
  target_link_options(${TARGET} PUBLIC ${options})
  list(LENGTH functions n)
  message(STATUS "linfuzz: ${n} functions of ${libs} wrapped for ${TARGET}: their calls are scheduling points")
endfunction()

# The shared library files among ITEMS (absolute paths ending in .so or .so.N...).
function(_linfuzz_shared_library_files OUT)
  set(files "")
  foreach(item ${ARGN})
    if(IS_ABSOLUTE "${item}" AND item MATCHES "\\.so(\\.[0-9]+)*$" AND EXISTS "${item}")
      list(APPEND files ${item})
    endif()
  endforeach()
  set(${OUT} ${files} PARENT_SCOPE)
endfunction()

function(linfuzz_add_fuzz_target NAME)
  cmake_parse_arguments(ARG "" "FROM"
    "SOURCES;LIBRARIES;INCLUDE_DIRECTORIES;COMPILE_DEFINITIONS;COMPILE_OPTIONS;HARNESS;HARNESS_DEFINITIONS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "linfuzz_add_fuzz_target(${NAME}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "linfuzz_add_fuzz_target(${NAME}): libFuzzer targets need clang, not ${CMAKE_C_COMPILER_ID} "
                        "(configure with -DCMAKE_C_COMPILER=clang)")
  endif()
  if(NOT ARG_SOURCES AND NOT ARG_FROM)
    message(FATAL_ERROR "linfuzz_add_fuzz_target(${NAME}): SOURCES (your adapter files) or FROM (a library of them) "
                        "is required")
  endif()
  if(ARG_SOURCES AND ARG_FROM)
    message(FATAL_ERROR "linfuzz_add_fuzz_target(${NAME}): give SOURCES or FROM, not both")
  endif()

  # The code under test, instrumented.
  if(ARG_FROM)
    # One instrumented copy per library, shared by every target made from it.
    # With a harness of your own (not the adapter harness) nothing is run under the controlled scheduler, and
    # the code is not compiled for it.
    if(ARG_HARNESS)
      set(under_test ${ARG_FROM}_instrumented_unscheduled)
      set(scheduling NO_SCHEDULING)
    else()
      set(under_test ${ARG_FROM}_instrumented)
      set(scheduling "")
    endif()
    if(NOT TARGET ${under_test})
      linfuzz_instrumented_library(${under_test} ${ARG_FROM} ${scheduling})
    endif()
  else()
    set(under_test ${NAME}_under_test)
    # The flags of the code under test are decided here and in linfuzz_instrumented_library only: the
    # controlled scheduler's instrumentation (access points, the forced lf_sync redirection) goes into both, so
    # that users' adapters are scheduled exactly as linfuzz's own.
    add_library(${under_test} OBJECT ${ARG_SOURCES})
    separate_arguments(instrument_flags UNIX_COMMAND "${LINFUZZ_FUZZ_INSTRUMENT}")
    _linfuzz_sched_options(sched_options)
    # -g: `linfuzz rootcause` names the code that must be atomic by file and line (debug information changes
    # no generated code, so no scheduling point either)
    target_compile_options(${under_test} PRIVATE -g ${instrument_flags} ${sched_options} ${ARG_COMPILE_OPTIONS})
    target_compile_definitions(${under_test} PRIVATE LINFUZZ_HARNESS ${ARG_COMPILE_DEFINITIONS})
    target_include_directories(${under_test} PRIVATE ${ARG_INCLUDE_DIRECTORIES})
    # linfuzz/adapter.h, and lf_yield_point for LF_YIELD()
    target_link_libraries(${under_test} PUBLIC linfuzz::runtime ${ARG_LIBRARIES})
    # calls into the shared libraries the sources use are scheduling points (their code is not instrumented)
    _linfuzz_shared_library_files(shared ${ARG_LIBRARIES})
    if(shared)
      linfuzz_wrap_library_calls(${under_test} ${shared})
    endif()
  endif()

  if(ARG_HARNESS)
    add_executable(${NAME} ${ARG_HARNESS})
  else()
    # The harness object (not linked as a library: that would add its object a second time) and what it uses.
    add_executable(${NAME} $<TARGET_OBJECTS:linfuzz::fuzz>)
    target_link_libraries(${NAME} PRIVATE linfuzz::cli)
  endif()
  if(ARG_HARNESS_DEFINITIONS)
    target_compile_definitions(${NAME} PRIVATE ${ARG_HARNESS_DEFINITIONS})
  endif()
  target_link_libraries(${NAME} PRIVATE ${under_test})
  separate_arguments(engine_flags UNIX_COMMAND "${LINFUZZ_FUZZING_ENGINE}")
  target_link_options(${NAME} PRIVATE ${engine_flags})

  if(NOT ARG_HARNESS)
    # fuzz_<adapter> next to the binary, for every adapter it carries (the harness picks its adapter by name).
    add_custom_command(TARGET ${NAME} POST_BUILD
      COMMAND ${CMAKE_COMMAND} -DHARNESS=$<TARGET_FILE:${NAME}>
              -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/link_targets.cmake
      VERBATIM)
  endif()
endfunction()

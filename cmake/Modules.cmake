# One static library per module under src/. A module names the modules it may use; the
# layering check below fails the build when a source includes a header of any other module.
# A module's folder is where it is declared: src/policy holds `policy`, src/server/store holds
# `server_store` (a folder split by concern names its modules <folder>_<concern>).
set_property(GLOBAL PROPERTY BOREAS_MODULES "")

# boreas_module(NAME SOURCES a.cpp b.cpp DEPS core ... [LIBS extra link libraries])
function(boreas_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;LIBS" ${ARGN})
  add_library(boreas_${name} STATIC ${ARG_SOURCES})
  target_include_directories(boreas_${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(boreas_${name} PUBLIC boreas_options)
  foreach(dep ${ARG_DEPS})
    target_link_libraries(boreas_${name} PUBLIC boreas_${dep})
  endforeach()
  if(ARG_LIBS)
    target_link_libraries(boreas_${name} PUBLIC ${ARG_LIBS})
  endif()
  file(RELATIVE_PATH dir ${PROJECT_SOURCE_DIR}/src ${CMAKE_CURRENT_SOURCE_DIR})
  set_property(GLOBAL APPEND PROPERTY BOREAS_MODULES ${name})
  set_property(GLOBAL PROPERTY BOREAS_DEPS_${name} ${ARG_DEPS})
  set_property(GLOBAL PROPERTY BOREAS_DIR_${name} ${dir})
endfunction()

# boreas_test(NAME SOURCES ... DEPS modules...) — a GoogleTest executable registered with ctest.
# LOCK NAME: the test binary's tests never run beside other tests holding the same lock (ctest's
# RESOURCE_LOCK), e.g. tests that start and signal real processes.
# LABELS defaults to `unit` (the tests `make sanitize` runs); `integration` keeps a binary's tests
# out of the sanitizer pass.
function(boreas_test name)
  cmake_parse_arguments(ARG "" "LOCK" "SOURCES;DEPS;LIBS;LABELS" ${ARGN})
  if(NOT ARG_LABELS)
    set(ARG_LABELS unit)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  foreach(dep ${ARG_DEPS})
    target_link_libraries(${name} PRIVATE boreas_${dep})
  endforeach()
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main GTest::gmock)
  target_compile_definitions(${name} PRIVATE BOREAS_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                                             BOREAS_BINARY_DIR="${PROJECT_BINARY_DIR}")
  set(lock "")
  if(ARG_LOCK)
    set(lock RESOURCE_LOCK ${ARG_LOCK})
  endif()
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS ${ARG_LABELS} ${lock})
endfunction()

# Runs cmake/CheckLayering.cmake over every module's sources at build time.
function(boreas_check_layering)
  get_property(modules GLOBAL PROPERTY BOREAS_MODULES)
  set(rules "")
  set(all_sources "")
  foreach(m ${modules})
    get_property(deps GLOBAL PROPERTY BOREAS_DEPS_${m})
    get_property(dir GLOBAL PROPERTY BOREAS_DIR_${m})
    string(REPLACE ";" "," deps_csv "${deps}")
    list(APPEND rules "${m}@${dir}=${deps_csv}")
    file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${dir}/*.h
         ${PROJECT_SOURCE_DIR}/src/${dir}/*.cpp)
    list(APPEND all_sources ${srcs})
  endforeach()
  string(REPLACE ";" "|" rules_arg "${rules}")
  set(stamp ${PROJECT_BINARY_DIR}/layering.stamp)
  add_custom_command(
    OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -DSRC=${PROJECT_SOURCE_DIR}/src "-DRULES=${rules_arg}" -DOWNED=sqlite3.h=server_store
            -DSTAMP=${stamp}
            -P ${PROJECT_SOURCE_DIR}/cmake/CheckLayering.cmake
    DEPENDS ${all_sources} ${PROJECT_SOURCE_DIR}/cmake/CheckLayering.cmake
    COMMENT "Checking module layering"
    VERBATIM)
  add_custom_target(check_layering ALL DEPENDS ${stamp})
endfunction()

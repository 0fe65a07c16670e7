# Run by `cmake --install` (see cmake/Packaging.cmake, which sets BOREAS_BINARY, BOREAS_UNIT and
# BOREAS_GENERATED): writes what the built binary generates, then installs it under the prefix.
# file(INSTALL) adds DESTDIR and records each file in install_manifest.txt.
file(MAKE_DIRECTORY ${BOREAS_GENERATED})

# The man page: `boreas man` must work; a failure stops the install.
execute_process(COMMAND ${BOREAS_BINARY} man OUTPUT_FILE ${BOREAS_GENERATED}/boreas.1
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "install: `${BOREAS_BINARY} man` failed (exit ${rc}): ${err}")
endif()
file(INSTALL ${BOREAS_GENERATED}/boreas.1 DESTINATION ${CMAKE_INSTALL_PREFIX}/share/man/man1)

# Shell completions, when the binary has `boreas completion bash|zsh`; skipped with a message if not.
execute_process(COMMAND ${BOREAS_BINARY} completion bash OUTPUT_FILE ${BOREAS_GENERATED}/boreas.bash
                RESULT_VARIABLE rc ERROR_QUIET)
if(rc EQUAL 0)
  file(INSTALL ${BOREAS_GENERATED}/boreas.bash DESTINATION ${CMAKE_INSTALL_PREFIX}/share/bash-completion/completions
       RENAME boreas)
  execute_process(COMMAND ${BOREAS_BINARY} completion zsh OUTPUT_VARIABLE zsh RESULT_VARIABLE rc ERROR_QUIET)
  if(rc EQUAL 0 AND zsh MATCHES "^#compdef")
    file(WRITE ${BOREAS_GENERATED}/_boreas "${zsh}")
    file(INSTALL ${BOREAS_GENERATED}/_boreas DESTINATION ${CMAKE_INSTALL_PREFIX}/share/zsh/vendor-completions)
  else()
    message(STATUS "install: `boreas completion zsh` is not an autoloadable #compdef file; zsh completion not installed")
  endif()
else()
  message(STATUS "install: this boreas has no `completion` command; shell completions not installed")
endif()

# The systemd unit, with ExecStart pointing at this prefix's binary.
file(READ ${BOREAS_UNIT} unit)
string(REPLACE "/usr/bin/boreas" "${CMAKE_INSTALL_PREFIX}/bin/boreas" unit "${unit}")
file(WRITE ${BOREAS_GENERATED}/boreas.service "${unit}")
file(INSTALL ${BOREAS_GENERATED}/boreas.service DESTINATION ${CMAKE_INSTALL_PREFIX}/lib/systemd/system)

# Compiler flags shared by every Boreas target.
add_library(boreas_options INTERFACE)
target_compile_options(boreas_options INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                                -Wold-style-cast -Wcast-align -Woverloaded-virtual
 -Wimplicit-fallthrough)
if(BOREAS_WERROR)
  target_compile_options(boreas_options INTERFACE -Werror)
endif()
if(BOREAS_SANITIZE)
  target_compile_options(boreas_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
                                                  -fno-sanitize-recover=undefined)
  target_link_options(boreas_options INTERFACE -fsanitize=address,undefined)
endif()

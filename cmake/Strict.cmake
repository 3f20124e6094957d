# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# Warnings are errors everywhere; sanitizers on request.
add_compile_options(-Wall -Wextra -Werror -Wshadow -Wnon-virtual-dtor -Wpedantic)
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    # The sanitizer and fuzzer flags also reach compile lines that do not use them (clang 14
    # warns "argument unused during compilation", which -Werror would make an error).
    add_compile_options(-Wno-unused-command-line-argument)
endif()
if(CORESTEER_SANITIZE)
    add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
    add_link_options(-fsanitize=address,undefined)
endif()
if(CORESTEER_FUZZ)
    if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
        message(FATAL_ERROR "CORESTEER_FUZZ needs clang (libFuzzer)")
    endif()
    # Coverage for libFuzzer: in core's libraries (what the fuzz targets link) only; see
    # coresteer_library() in cmake/Layers.cmake.
endif()

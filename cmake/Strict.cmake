# Warnings are errors everywhere; sanitizers on request.
add_compile_options(-Wall -Wextra -Werror -Wshadow -Wnon-virtual-dtor -Wpedantic)
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    # clang 14 flags some valid C++20 designated/aggregate patterns in libstdc++ headers
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
    # Coverage for libFuzzer: in core (what the fuzz targets link) only; see core/CMakeLists.txt.
endif()

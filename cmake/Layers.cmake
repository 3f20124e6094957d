# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# The libraries of core/ (and cli/) are layers: each may include only its own headers and those
# of the libraries it names, and CMake makes that so.
#
#   coresteer_library(<name> SOURCES <file>... [DEPENDS <coresteer library>...]
#                     [LIBS <other target>...] [OWN_FILES] [NO_UNITY])
#
# makes the static library coresteer_<name> (alias coresteer::<name>) of the current folder.
# OWN_FILES, for a folder whose subfolders are libraries of their own (ui/): its root holds
# only the headers among SOURCES, not the folder with its subfolders.
# Headers are included by their path from the top of the tree ("core/base/text.h"), but the top
# of the tree is on no include path: each library gets an include root of its own in the build
# tree that holds only its folder (a link to it), and hands it on to what links it. A header of a
# library that is not among a file's DEPENDS (directly or below them) is simply not found: an
# include that goes up a layer, or sideways, does not build. The ctest
# layers_refuse_an_upward_include (tests/layers/) proves that with try_compile.

function(coresteer_library name)
    cmake_parse_arguments(L "OWN_FILES;NO_UNITY" "" "SOURCES;DEPENDS;LIBS" ${ARGN})
    set(target coresteer_${name})
    add_library(${target} STATIC ${L_SOURCES})
    add_library(coresteer::${name} ALIAS ${target})
    # In unity batches (CORESTEER_UNITY, the top CMakeLists.txt), but for NO_UNITY: the
    # libraries of the parsers' hot path, whose speed the benchmarks hold to targets. A large
    # translation unit changes the compiler's inlining: built in batches, /proc/interrupts parsed
    # at 4.0 x awk's speed where file by file it parsed at 4.8 x, and 80 000 rows took 160 ms to
    # model where they took 104.
    if(NOT L_NO_UNITY)
        set_target_properties(${target} PROPERTIES UNITY_BUILD ${CORESTEER_UNITY}
            UNITY_BUILD_BATCH_SIZE ${CORESTEER_UNITY_BATCH})
    endif()
    file(RELATIVE_PATH folder ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
    set(root ${CMAKE_BINARY_DIR}/include-roots/${name})
    get_filename_component(parent ${root}/${folder} DIRECTORY)
    file(MAKE_DIRECTORY ${parent})
    if(L_OWN_FILES)
        if(IS_SYMLINK ${root}/${folder})
            file(REMOVE ${root}/${folder})
        endif()
        file(MAKE_DIRECTORY ${root}/${folder})
        foreach(f IN LISTS L_SOURCES)
            if(f MATCHES "\\.h$" AND NOT EXISTS ${root}/${folder}/${f})
                file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR}/${f} ${root}/${folder}/${f} SYMBOLIC)
            endif()
        endforeach()
    elseif(NOT EXISTS ${root}/${folder})
        file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR} ${root}/${folder} SYMBOLIC)
    endif()
    target_include_directories(${target} PUBLIC ${root})
    foreach(dep IN LISTS L_DEPENDS)
        target_link_libraries(${target} PUBLIC coresteer::${dep})
    endforeach()
    if(L_LIBS)
        target_link_libraries(${target} PUBLIC ${L_LIBS})
    endif()
    target_compile_definitions(${target} PRIVATE CORESTEER_VERSION="${PROJECT_VERSION}")
    if(CORESTEER_FUZZ AND folder MATCHES "^core/")
        # Coverage for libFuzzer in the code the fuzz targets exercise.
        target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
    endif()
    set_property(GLOBAL PROPERTY CORESTEER_ROOT_${name} ${root})
    set_property(GLOBAL PROPERTY CORESTEER_DEPENDS_${name} ${L_DEPENDS})
endfunction()

# The include roots a file of library <name> sees: its own and those of everything below it.
function(coresteer_include_roots name out)
    set(seen "")
    set(todo ${name})
    while(todo)
        list(POP_FRONT todo n)
        if(n IN_LIST seen)
            continue()
        endif()
        list(APPEND seen ${n})
        get_property(deps GLOBAL PROPERTY CORESTEER_DEPENDS_${n})
        list(APPEND todo ${deps})
    endwhile()
    set(roots "")
    foreach(n IN LISTS seen)
        get_property(r GLOBAL PROPERTY CORESTEER_ROOT_${n})
        list(APPEND roots ${r})
    endforeach()
    set(${out} ${roots} PARENT_SCOPE)
endfunction()

# An include root that holds only <folder> (a path from the top of the tree), for the targets
# outside the layers: the tests include "tests/..." so.
function(coresteer_folder_root folder out)
    string(REPLACE "/" "_" name ${folder})
    set(root ${CMAKE_BINARY_DIR}/include-roots/folder_${name})
    get_filename_component(parent ${root}/${folder} DIRECTORY)
    file(MAKE_DIRECTORY ${parent})
    if(NOT EXISTS ${root}/${folder})
        file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${folder} ${root}/${folder} SYMBOLIC)
    endif()
    set(${out} ${root} PARENT_SCOPE)
endfunction()

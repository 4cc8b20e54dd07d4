# conform_unity_build(TARGET): TARGET's sources compiled in batches.
# Included by the top-level CMakeLists.txt and by tests/fuzz (a project of
# its own), each setting CONFORM_SOURCE_ROOT to the repository's root first.
# Unity builds: a target's sources compiled a batch at a time, each batch one
# compiler run, so the standard library, fmt, nlohmann-json, CLI11 and
# tomlplusplus are parsed and their templates instantiated once a batch
# instead of once a file. Small batches keep an edit's rebuild short (one
# batch, not the target). The batches are written here rather than by CMake's
# UNITY_BUILD, whose batch files #include each source by its absolute path:
# ccache's base_dir cannot rewrite a path inside a file, so no other checkout
# would ever hit them. Ours name each source relative to the source root.
# A source with COMPILE_DEFINITIONS of its own (call this after setting
# them), outside the source tree, generated in the build folder, or marked
# SKIP_UNITY_BUILD_INCLUSION (names of its own that clash with another
# file's) is compiled on its own. Sources with the same CONFORM_UNITY_GROUP
# are batched with each other only. -DCONFORM_UNITY_BUILD=OFF compiles
# file by file, to check that each source includes what it uses.
option(CONFORM_UNITY_BUILD "Compile the large targets in batches (unity build)" ON)
set(CONFORM_UNITY_BATCH_SIZE 8 CACHE STRING "Sources per unity batch")
# Writes the batch in `content` as ${dir}/${name}_${index}.cpp, only when
# its content changes (so a re-run of CMake recompiles nothing), and starts
# the next one. A macro: it works on conform_unity_build's variables.
macro(_conform_unity_write)
  file(CONFIGURE OUTPUT ${dir}/${name}_${index}.cpp CONTENT "${content}" @ONLY)
  list(APPEND written ${dir}/${name}_${index}.cpp)
  set(content "")
  set(count 0)
  math(EXPR index "${index} + 1")
endmacro()

# The batch key of source `rel`: its folder, and its CONFORM_UNITY_GROUP if
# it has one (sources that share names among themselves but not with the
# rest of their folder batch apart from it).
macro(_conform_unity_key rel out)
  get_filename_component(${out} ${rel} DIRECTORY)
  if(DEFINED group_of_${rel})
    set(${out} "${${out}}/${group_of_${rel}}")
  endif()
endmacro()

function(conform_unity_build target)
  if(NOT CONFORM_UNITY_BUILD)
    return()
  endif()
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(kept)
  set(batched)
  foreach(src ${sources})
    get_filename_component(path ${src} ABSOLUTE BASE_DIR ${source_dir})
    file(RELATIVE_PATH rel ${CONFORM_SOURCE_ROOT} ${path})
    get_source_file_property(defs ${path} COMPILE_DEFINITIONS)
    get_source_file_property(skip ${path} SKIP_UNITY_BUILD_INCLUSION)
    string(FIND ${path} ${CMAKE_BINARY_DIR}/ in_build)
    get_source_file_property(group ${path} CONFORM_UNITY_GROUP)
    if(NOT path MATCHES "\\.cpp$" OR rel MATCHES "^\\.\\./" OR in_build EQUAL 0 OR defs OR skip)
      list(APPEND kept ${src})
    elseif(group)
      list(APPEND batched ${rel})
      set(group_of_${rel} ${group})
    else()
      list(APPEND batched ${rel})
    endif()
  endforeach()
  # Batches never span two folders, so a file added to one folder reshuffles
  # only that folder's batches: the others stay as they were, compiled or
  # in the cache.
  list(SORT batched)
  set(dir ${CMAKE_BINARY_DIR}/unity/${target})
  set(folders)
  foreach(rel ${batched})
    _conform_unity_key(${rel} folder)
    list(APPEND folders ${folder})
  endforeach()
  list(REMOVE_DUPLICATES folders)
  set(written)
  foreach(folder ${folders})
    string(REPLACE "/" "_" name ${folder})
    set(content "")
    set(count 0)
    set(index 0)
    foreach(rel ${batched})
      _conform_unity_key(${rel} rel_folder)
      if(rel_folder STREQUAL folder)
        string(APPEND content "#include \"${rel}\"\n")
        math(EXPR count "${count} + 1")
        if(count EQUAL CONFORM_UNITY_BATCH_SIZE)
          _conform_unity_write()
        endif()
      endif()
    endforeach()
    if(count GREATER 0)
      _conform_unity_write()
    endif()
  endforeach()
  # A batch of an earlier configuration that is no longer written goes, so
  # the folder holds what is compiled and nothing else.
  file(GLOB old ${dir}/*.cpp)
  foreach(file ${old})
    if(NOT file IN_LIST written)
      file(REMOVE ${file})
    endif()
  endforeach()
  list(APPEND kept ${written})
  set_property(TARGET ${target} PROPERTY SOURCES ${kept})
  target_include_directories(${target} PRIVATE ${CONFORM_SOURCE_ROOT})
endfunction()

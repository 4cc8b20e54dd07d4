// The build's paths, from the definitions tests/CMakeLists.txt puts on this
// file alone (BUILD_*).
#include "support/build_paths.hpp"

namespace conform::test::build_paths {

const char* const test_plugin_dir = BUILD_TEST_PLUGIN_DIR;
const char* const plugin_dir = BUILD_PLUGIN_DIR;
const char* const test_bad_plugin_dir = BUILD_TEST_BAD_PLUGIN_DIR;
const char* const test_data_dir = BUILD_TEST_DATA_DIR;
const char* const source_dir = BUILD_SOURCE_DIR;
const char* const conform_binary = BUILD_CONFORM_BINARY;
const char* const quic_binary = BUILD_QUIC_BINARY;
const char* const test_tmp = BUILD_TEST_TMP;

}  // namespace conform::test::build_paths

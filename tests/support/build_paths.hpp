// The build's folders and programs the tests use, as absolute paths.
// Defined in build_paths.cpp, the only test source compiled with them: as
// compile definitions on every test source they would make each object
// differ per checkout, and ccache (base_dir) miss across worktrees and
// clones. The macros keep the names the tests use.
#pragma once

namespace conform::test::build_paths {

extern const char* const test_plugin_dir;      ///< the fixture plugin's folder
extern const char* const plugin_dir;           ///< the build's plugins (quic, tcp_relay, external)
extern const char* const test_bad_plugin_dir;  ///< broken plugin files for the loader's tests
extern const char* const test_data_dir;        ///< tests/data
extern const char* const source_dir;           ///< the checkout's root
extern const char* const conform_binary;       ///< the `conform` executable
extern const char* const quic_binary;          ///< the `conform-quic` executable
extern const char* const test_tmp;             ///< scratch space: build/tests/tmp

}  // namespace conform::test::build_paths

#define CONFORM_TEST_PLUGIN_DIR ::conform::test::build_paths::test_plugin_dir
#define CONFORM_PLUGIN_DIR ::conform::test::build_paths::plugin_dir
#define CONFORM_TEST_BAD_PLUGIN_DIR ::conform::test::build_paths::test_bad_plugin_dir
#define CONFORM_TEST_DATA_DIR ::conform::test::build_paths::test_data_dir
#define CONFORM_SOURCE_DIR ::conform::test::build_paths::source_dir
#define CONFORM_BINARY ::conform::test::build_paths::conform_binary
#define CONFORM_QUIC_BINARY ::conform::test::build_paths::quic_binary
#define CONFORM_TEST_TMP ::conform::test::build_paths::test_tmp

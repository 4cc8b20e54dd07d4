// Placeholder values, program lookup, profile folders and command lines of
// the roles of an external run.
#include "role_launch.hpp"

#include "child_process.hpp"
#include "command_template.hpp"
#include "workload.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace external {
namespace fs = std::filesystem;
using conform::value_or;

namespace {

std::int64_t whole_seconds(std::int64_t ms) { return std::max<std::int64_t>(1, (ms + 999) / 1000); }

}  // namespace

std::map<std::string, std::string> values_for(const conform::CaseSettings& s, const std::string& role,
                                              const RunFacts& facts) {
  const conform::ValueMap& knobs = s.knobs.at(role);
  auto knob = [&](const char* name) { return std::to_string(value_or<std::int64_t>(knobs, name, 0)); };
  const std::string authority = "127.0.0.1:" + std::to_string(facts.port);
  const std::string& dir = facts.dir;
  const std::int64_t idle_ms = value_or<std::int64_t>(knobs, "max_idle_timeout_ms", 5000);
  // The server starts first and is stopped after the client: its own limit
  // must not end it while the client, started late on a loaded machine,
  // still works.
  const std::int64_t limit_ms = value_or<std::int64_t>(s.params, "time_limit_ms", 20000) +
                                (role == "server" ? kServerStartLimit.count() : 0);
  std::map<std::string, std::string> values = stream_work(s, role, facts.workload);
  values.insert({{"workload", to_string(facts.workload)},
                 {"address", "127.0.0.1"},
                 {"port", std::to_string(facts.port)},
                 {"authority", authority},
                 {"url", "https://" + authority + "/response.bin"},
                 {"page_url", "https://" + authority + "/page.html"},
                 {"path", "/response.bin"},
                 {"htdocs", dir + "/htdocs"},
                 {"download_dir", dir + "/download"},
                 {"cert", dir + "/cert.pem"},
                 {"key", dir + "/key.pem"},
                 {"ca_cert", dir + "/ca.pem"},
                 {"spki_sha256", facts.spki_sha256},
                 {"keylog", dir + "/" + role + ".keys"},
                 {"profile_dir", dir + "/" + role + "-profile"},
                 {"requests", std::to_string(value_or<std::int64_t>(s.params, "requests", 1))},
                 {"response_bytes", std::to_string(value_or<std::int64_t>(s.params, "response_bytes", 0))},
                 {"reserved_uni", std::to_string(value_or<std::int64_t>(s.params, "reserved_uni", 0))},
                 {"max_streams_bidi", knob("initial_max_streams_bidi")},
                 {"max_streams_uni", knob("initial_max_streams_uni")},
                 {"max_data", knob("initial_max_data")},
                 {"max_stream_data", knob("initial_max_stream_data")},
                 {"idle_timeout_ms", std::to_string(idle_ms)},
                 {"idle_timeout_s", std::to_string(whole_seconds(idle_ms))},
                 {"time_limit_s", std::to_string(whole_seconds(limit_ms))},
                 {"time_limit_ms", std::to_string(limit_ms)},
                 {"peers", facts.tools + "/peers"}});
  return values;
}

bool uses_placeholder(const RoleCommand& c, const std::string& name) {
  const std::string token = "{" + name + "}";
  auto in = [&](const Command& k) {
    for (const auto& a : k.args)
      if (a.find(token) != std::string::npos) return true;
    for (const auto& [var, v] : k.env)
      if (v.find(token) != std::string::npos) return true;
    return false;
  };
  if (in(c)) return true;
  for (const auto& step : c.prepare)
    if (in(step)) return true;
  for (const auto& [file, text] : c.files)
    if (text.find(token) != std::string::npos) return true;
  return false;
}

std::string find_command(const Command& c, const std::string& tools, const std::string& what, std::string& problem) {
  const std::string prefix = what.empty() ? "" : what + ": ";
  const std::string install = c.package.empty() ? "" : ": install " + c.package + " (scripts/setup.sh does)";
  if (c.program.find('/') != std::string::npos) {
    // A relative path names a file of the build (an npm package's binary).
    const bool of_the_build = fs::path(c.program).is_relative();
    const std::string path = of_the_build ? (fs::path(tools) / c.program).string() : c.program;
    if (executable_file(path)) return path;
    if (of_the_build)
      problem = prefix + path + " is missing (scripts/setup.sh installs it)";
    else if (std::error_code ec; fs::exists(path, ec))
      problem = prefix + "program '" + path + "' is not an executable file";
    else
      problem = prefix + "program '" + path + "' is missing" + install;
    return {};
  }
  std::string path = program_path(c.program, {tools});
  if (path.empty())
    problem = prefix + "program '" + c.program + "' not found in " + (tools.empty() ? "" : tools + ", ") +
              "$PATH, /usr/local/sbin, /usr/sbin or /sbin" + install;
  return path;
}

std::string shell_line(const Launch& l) {
  std::string line;
  for (const auto& [k, v] : l.env) line += k + "=" + v + " ";
  for (std::size_t i = 0; i < l.argv.size(); ++i) line += (i ? " " : "") + l.argv[i];
  return line;
}

Launch launch_of(const RoleCommand& c, const std::string& program, const std::string& unshare,
                 const std::map<std::string, std::string>& values) {
  Launch l;
  if (c.forks) {
    l.argv = {unshare};
    // Without root, a user namespace gives the PID namespace its privilege.
    if (geteuid() != 0) l.argv.insert(l.argv.end(), {"--user", "--map-root-user"});
    l.argv.insert(l.argv.end(), {"--pid", "--fork", "--kill-child"});
  }
  l.argv.push_back(program);
  for (const auto& a : c.args) l.argv.push_back(expand(a, values));
  for (const auto& [k, v] : c.env) l.env[k] = expand(v, values);
  return l;
}

std::string make_profile_template(const RoleCommand& c, const std::string& program, const std::string& unshare,
                                  std::map<std::string, std::string> values, const std::string& folder,
                                  const std::string& log_prefix, const std::function<bool()>& stop) {
  values["profile_dir"] = folder;
  values["keylog"] = folder + "/template.keys";
  RoleCommand maker = c;
  maker.args = *c.template_args;
  const Launch launch = launch_of(maker, program, unshare, values);
  ChildProcess p(launch.argv, launch.env, log_prefix);
  if (!p.error().empty()) return p.error();
  const auto status = p.wait_for(kTemplateLimit, stop);
  const std::string what = "making the profile template (" + shell_line(launch) + ")";
  if (status != 0) {
    p.stop(std::chrono::milliseconds(0));
    return what + " " +
           (status ? "failed with status " + std::to_string(*status) + ": " + p.stderr_tail()
                   : stop() ? std::string("was stopped")
                            : "did not end within " + std::to_string(kTemplateLimit.count()) + " s");
  }
  std::error_code ec;
  for (const auto& name : c.template_leave_out) fs::remove_all(folder + "/" + name, ec);
  if (!fs::is_directory(fs::symlink_status(folder, ec)))
    return what + " removed or replaced {profile_dir}, the folder it was to fill";
  // A copy takes folders, files and symbolic links (as links); what else a
  // program leaves there (a FIFO, a socket) cannot be copied.
  for (auto it = fs::recursive_directory_iterator(folder, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const auto type = it->symlink_status(ec).type();
    if (type != fs::file_type::regular && type != fs::file_type::directory && type != fs::file_type::symlink)
      return what + " left " + fs::relative(it->path(), folder).string() +
             ", neither a file, a folder nor a symbolic link, which a copy cannot hold: name it in leave_out";
  }
  return ec ? what + ": cannot read what it made: " + ec.message() : std::string{};
}

Prepared prepare_role(const RoleCommand& c, const std::string& tools, const std::map<std::string, std::string>& values,
                      const std::string& log_prefix, const std::function<bool()>& stop,
                      const std::string& template_dir) {
  const std::string dir = values.at("profile_dir");
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (template_dir.empty())
    fs::create_directories(dir, ec);
  else
    fs::copy(template_dir, dir, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
  if (ec) return {"cannot make " + dir + (template_dir.empty() ? "" : " from " + template_dir) + ": " + ec.message(),
                  false};
  for (const auto& [name, text] : c.files) {
    // What a template left under that name goes first: a symbolic link
    // would have the file written wherever it points.
    fs::remove_all(dir + "/" + name, ec);
    std::ofstream out(dir + "/" + name);
    out << expand(text, values);
    if (!out) return {"cannot write " + dir + "/" + name, false};
  }
  int step = 0;
  for (const auto& command : c.prepare) {
    std::string problem;
    const std::string program = find_command(command, tools, "prepare step " + std::to_string(++step), problem);
    if (program.empty()) return {problem, true};
    std::vector<std::string> argv{program};
    std::map<std::string, std::string> env;
    for (const auto& a : command.args) argv.push_back(expand(a, values));
    for (const auto& [k, v] : command.env) env[k] = expand(v, values);
    ChildProcess p(argv, env, log_prefix + "-prepare" + std::to_string(step));
    if (!p.error().empty()) return {p.error(), false};
    const auto status = p.wait_for(std::chrono::seconds(20), stop);
    if (!status && stop()) {
      p.stop(std::chrono::milliseconds(0));
      return {"in prepare step " + std::to_string(step), false, true};
    }
    if (status != 0) {
      p.stop(std::chrono::milliseconds(0));
      return {"prepare step " + std::to_string(step) + " (" + command.program + ") failed" +
                  (status ? " with status " + std::to_string(*status) : std::string(" to end within 20 s")) + ": " +
                  p.stderr_tail(),
              false};
    }
  }
  return {};
}

}  // namespace external

// `conform check`.
#include "cli/check_command.hpp"

#include "cli/check_inputs.hpp"
#include "cli/commands.hpp"
#include "cli/gate_options.hpp"
#include "cli/select.hpp"
#include "capture/pcap_open.hpp"
#include "capture/pcapng_secrets.hpp"
#include "offline/failing_pcaps.hpp"
#include "offline/offline_check.hpp"
#include "gate/report_set.hpp"
#include "suite/matrix.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <thread>

namespace conform {
namespace fs = std::filesystem;

namespace {

// What the console calls each capture, and its folder's name: its file
// name, "handshake.pcap~2" for the second capture of that name, or ~3 and
// on where a capture given is itself named "handshake.pcap~2": no two
// captures share a label, and so a folder.
std::vector<std::string> capture_labels(const std::vector<std::string>& captures) {
  std::set<std::string> own_names, taken;
  for (const auto& capture : captures) own_names.insert(fs::path(capture).filename().string());
  std::vector<std::string> labels;
  for (const auto& capture : captures) {
    const std::string name = fs::path(capture).filename().string();
    std::string label = name;
    for (int n = 2; taken.contains(label); ++n) {
      label = fmt::format("{}~{}", name, n);
      if (own_names.contains(label)) label = name;  // another capture's own name: try the next
    }
    taken.insert(label);
    labels.push_back(label);
  }
  return labels;
}

// A folder per capture under `<out>/@check/` (a case folder never starts
// with '@'), distinct when two captures share a file name, for the
// captures this job reads. A capture split over jobs shares its folder
// with them: each job clears only its connections' folders.
// `labels`: capture_labels() of the captures.
std::vector<std::string> capture_roots(const std::string& out_dir, const std::vector<std::string>& labels,
                                       const std::vector<CaptureShare>& shares) {
  std::vector<std::string> roots;
  for (std::size_t k = 0; k < labels.size(); ++k) {
    fs::path root = fs::path(out_dir) / "@check" / labels[k];
    roots.push_back(fs::absolute(root).string());
    if (!shares[k].read) continue;
    std::error_code ec;
    if (!shares[k].split) fs::remove_all(root, ec);
    fs::create_directories(root, ec);
    if (ec) throw InputError({out_dir}, "--out: cannot create " + root.string() + ": " + ec.message());
  }
  return roots;
}

std::optional<ShardSpec> shard_of(const std::string& text) {
  if (text.empty()) return std::nullopt;
  ShardSpec spec;
  if (std::string problem = parse_shard(text, spec); !problem.empty()) throw InputError({"--shard"}, problem);
  return spec;
}

void print_shard(ShardSpec spec, const std::vector<CaptureShare>& shares) {
  const auto whole = std::count_if(shares.begin(), shares.end(), [](auto& s) { return s.read && !s.split; });
  const auto split = std::count_if(shares.begin(), shares.end(), [](auto& s) { return s.split; });
  fmt::print("shard {}/{}: {} of {} capture{} whole{}\n", spec.index, spec.count, whole, shares.size(),
             shares.size() == 1 ? "" : "s",
             split ? fmt::format(", and its share of the connections of {} split over the {} jobs", split, spec.count)
                   : "");
}

std::string case_ids_digest(const std::vector<Case>& cases) {
  std::vector<std::string> ids;
  for (const auto& c : cases) ids.push_back(c.id());
  return cases_digest(ids);
}

// The captures `file` names: the one at that path, else the one the
// console labels so ("handshake.pcap~2"), else those of that file name (all
// of them, so a name two captures share is refused).
std::vector<std::size_t> named_captures(const std::string& file, const std::vector<std::string>& captures,
                                        const std::vector<std::string>& labels) {
  std::error_code ec;
  const fs::path path = fs::weakly_canonical(file, ec);
  std::vector<std::size_t> by_path, by_label, by_name;
  for (std::size_t k = 0; k < captures.size(); ++k) {
    if (fs::weakly_canonical(captures[k], ec) == path) by_path.push_back(k);
    if (labels[k] == file && labels[k] != fs::path(captures[k]).filename()) by_label.push_back(k);
    if (fs::path(captures[k]).filename() == file) by_name.push_back(k);
  }
  return !by_path.empty() ? by_path : !by_label.empty() ? by_label : by_name;
}

// The vantage --vantage gives each capture (nullopt: infer it). A value
// for one capture outranks one for all; two values for the same capture
// (or for all), or a file name two captures share, are refused. Every
// option that is wrong is named, not only the first.
std::vector<std::optional<Vantage>> given_vantages(const std::vector<std::string>& options,
                                                   const std::vector<std::string>& captures,
                                                   const std::vector<std::string>& labels) {
  std::vector<std::optional<Vantage>> for_one(captures.size());
  std::optional<Vantage> for_all;
  std::vector<Diagnostic> problems;
  auto problem = [&problems](std::string message) { problems.push_back({{"--vantage"}, std::move(message)}); };
  for (const auto& option : options) {
    const auto eq = option.rfind('=');
    const std::string name = eq == std::string::npos ? option : option.substr(eq + 1);
    const auto v = parse_vantage(name);
    if (!v) {
      problem(fmt::format("'{}' is not a vantage: one of {}, for all captures, or CAPTURE=VANTAGE for one", name,
                          kVantageNames));
      continue;
    }
    if (eq == std::string::npos) {
      if (for_all && *for_all != *v)
        problem(fmt::format("given twice for all captures: {} and {}", to_string(*for_all), to_string(*v)));
      else
        for_all = v;
      continue;
    }
    const std::string file = option.substr(0, eq);
    const auto named = file.empty() ? std::vector<std::size_t>{} : named_captures(file, captures, labels);
    if (file.empty()) {
      problem(fmt::format("'{}' names no capture before '='", option));
    } else if (named.empty()) {
      problem(fmt::format("'{}' names no capture given", file));
    } else if (named.size() > 1) {
      // What names each alone: its console label, or its path where the
      // label is the very name refused.
      std::vector<std::string> which;
      for (std::size_t k : named) which.push_back(labels[k] != file ? labels[k] : captures[k]);
      problem(fmt::format("'{}' names {} captures given: name one by its path or as the console labels it ({})",
                          file, named.size(), fmt::join(which, ", ")));
    } else if (auto& slot = for_one[named.front()]; slot && *slot != *v) {
      problem(fmt::format("{} given two vantages: {} and {}", captures[named.front()], to_string(*slot),
                          to_string(*v)));
    } else {
      slot = v;
    }
  }
  if (!problems.empty()) throw InputError(std::move(problems));
  for (auto& v : for_one)
    if (!v) v = for_all;
  return for_one;
}

// What opening `capture` says is wrong with its header, if anything: told
// before any capture is read and judged for nothing.
std::vector<Diagnostic> header_problems(const std::string& capture) {
  try {
    PcapFile{capture};
    return {};
  } catch (const InputError& unreadable) {
    // libpcap reads a pcapng's blocks up to its first interface: a damaged
    // Decryption Secrets Block among them is better named by block and
    // byte, as when the keys are read.
    try {
      read_pcapng_secrets(capture);
    } catch (const InputError& damaged) {
      return damaged.diagnostics();
    }
    return unreadable.diagnostics();
  }
}

void print_units(const std::vector<SplitCapture>& captures, std::size_t with_mutants) {
  std::size_t units = 0;
  for (const auto& c : captures) units += c.units.size();
  fmt::print("offline check of {} capture{} ({} connection{}): no plugin runs; scenario parameters are "
             "unknown, so checks use what each capture shows, and expects that need them are NOT APPLICABLE\n",
             captures.size(), captures.size() == 1 ? "" : "s", units, units == 1 ? "" : "s");
  for (const auto& c : captures) {
    for (const auto& u : c.units)
      fmt::print("  {}  {}  client {} → server {} (from {}), {} frames  in {}\n", u.label, u.transport,
                 u.client, u.server, u.roles_from, u.records, u.source.empty() ? u.folder : u.source);
    fmt::print("  vantage of {}: {} ({})\n", c.path, to_string(c.vantage), c.vantage_from);
    for (const auto& note : c.notes) fmt::print("  note: {}\n", note);
  }
  if (with_mutants)
    fmt::print("  mutants are not applied offline ({} case{} some): they need a plugin run\n",
               with_mutants, with_mutants == 1 ? " declares" : "s declare");
}

// The suite of the behaviours a capture of a stack's traffic can show
// (suites/capture), for a `conform check` that names none.
std::string default_suite(Verbosity verbosity) {
  const std::string path = CONFORM_DEFAULT_SUITE_DIR;
  if (std::error_code ec; !fs::is_directory(path, ec))
    throw InputError({path}, "no suite given, and the default suite is not here: name a *.toml file or a folder "
                             "of them");
  if (verbosity != Verbosity::quiet) fmt::print("no suite given: judging with the default suite {}\n", path);
  return path;
}

}  // namespace

CLI::App* add_check_command(CLI::App& app, CheckCommandOptions& options) {
  auto* cmd = app.add_subcommand(
      "check", "judge captures made elsewhere with the expect blocks of suites' cases (no plugin runs)");
  cmd->add_option("inputs", options.inputs,
                  "captures (pcap, pcapng; folders of them, glob patterns, or @LIST naming one per line), then "
                  "suite files or folders (*.toml); without a suite, the default suite suites/capture")
      ->required()
      ->type_name("CAPTURE... [SUITE_OR_DIR...]");
  // One value per occurrence: `--keylog K SUITE` must leave SUITE to the inputs.
  cmd->add_option("--keylog", options.keylogs, "NSS key log (SSLKEYLOGFILE) for the captures; repeatable")
      ->allow_extra_args(false)
      ->type_name("FILE");
  cmd->add_option("--filter", options.filters, "judge only cases whose id matches this glob; repeatable")
      ->allow_extra_args(false)
      ->type_name("GLOB");
  cmd->add_option("--section", options.sections, "judge only cases citing this RFC section or below it")
      ->allow_extra_args(false)
      ->type_name("SECTION");
  cmd->add_option("--vantage", options.vantages,
                  fmt::format("where the captures were taken, instead of inferring it from their ACKs: {} (all "
                              "captures), or CAPTURE=VANTAGE for one; repeatable",
                              kVantageNames))
      ->allow_extra_args(false)
      ->type_name("[CAPTURE=]VANTAGE");
  cmd->add_option("--out", options.out_dir, "folder for each connection's files, under @check/")
      ->capture_default_str()
      ->check(names_a_path())
      ->type_name("DIR");
  cmd->add_option("-j,--jobs", options.jobs,
                  "connections judged in parallel while the captures are read (default: one per CPU); the "
                  "results are the same, in the same order, whatever N")
      ->check(whole_number(1, 256))
      ->type_name("N");
  cmd->add_flag("--write-failing-pcaps", options.write_failing_pcaps,
                fmt::format("copy the records of each QUIC connection a case failed on into its folder, as {} "
                            "with its key log lines as {}, to open in Wireshark (the folders refer to the "
                            "captures by path and frame numbers otherwise)",
                            kFailingPcapFile, kFailingKeysFile));
  auto* shard = add_shard_option(*cmd, options.shard,
                                 "judge only job K's share of the captures of N jobs (captures dealt whole by "
                                 "size, large ones split by connection); `conform merge` joins the jobs' JSON "
                                 "reports");
  cmd->add_option("--split-bytes", options.split_bytes,
                  fmt::format("with --shard: a capture of at least this many bytes is split by connection over "
                              "every job (default {})",
                              kDefaultSplitBytes))
      ->check(CLI::Validator(
          [](const std::string& s) -> std::string {
            if (s.empty() || s.size() > 18 || s.find_first_not_of("0123456789") != std::string::npos ||
                std::stoull(s) == 0)
              return "takes a whole number of bytes from 1 to 10^18, not '" + s + "'";
            return "";
          },
          "", "bytes"))
      ->needs(shard)
      ->type_name("BYTES");
  add_report_options(*cmd, options.report);
  return cmd;
}

// `--vantage --out DIR` gives --vantage the value "--out" and leaves DIR a
// capture: say the value is missing, not that DIR is no capture.
void refuse_options_as_values(const std::string& option, const std::vector<std::string>& values) {
  for (const auto& v : values)
    if (v.starts_with("--"))
      throw InputError({option}, fmt::format("'{}' is an option, not a value: {} needs its value first", v, option));
}

int command_check(const CheckCommandOptions& options) {
  refuse_options_as_values("--vantage", options.vantages);
  refuse_options_as_values("--keylog", options.keylogs);
  auto [captures, suites_paths, capture_inputs] = sort_check_inputs(options.inputs);
  if (captures.empty()) throw InputError({options.inputs.front()}, "no capture given: name a pcap or pcapng file");
  if (suites_paths.empty()) suites_paths.push_back(default_suite(options.report.verbosity));
  const auto labels = capture_labels(captures);
  // What the command line alone shows wrong, all of it at once.
  std::vector<Diagnostic> problems;
  for (const auto& c : captures) {
    if (const auto problem = not_a_capture_file(c)) {
      problems.push_back({{c}, *problem});
      continue;
    }
    const auto header = header_problems(c);
    problems.insert(problems.end(), header.begin(), header.end());
  }
  std::vector<std::optional<Vantage>> given;
  try {
    given = given_vantages(options.vantages, captures, labels);
  } catch (const InputError& e) {
    problems.insert(problems.end(), e.diagnostics().begin(), e.diagnostics().end());
  }
  for (const auto& k : options.keylogs)
    if (k.empty()) problems.push_back({{"--keylog"}, "an empty path names no key log"});
  if (!problems.empty()) throw InputError(std::move(problems));

  PluginSet plugins = load_plugins(options.plugins);
  Catalogue catalogue = catalogue_of(plugins);
  catalogue.offline = true;
  auto suites = read_suites(suites_paths, catalogue);
  std::vector<Case> cases =
      select_cases(offline_cases(expand_cases(suites, catalogue)), options.filters, options.sections);
  if (cases.empty()) {
    std::string why;
    for (const auto& f : options.filters) why += " --filter " + f;
    for (const auto& s : options.sections) why += " --section " + s;
    throw InputError({suites_paths.front()}, "no case matches" + why);
  }
  std::vector<std::string> read = options.inputs;
  read.insert(read.end(), captures.begin(), captures.end());
  read.insert(read.end(), options.keylogs.begin(), options.keylogs.end());
  ReportSet reports(options.report, read);
  refuse_overwriting({{"--out", options.out_dir}}, read);
  const auto shard = shard_of(options.shard);
  const auto shares = shares_of(captures, shard, options.split_bytes);
  // Every input is read before --out is touched: a bad one leaves the
  // earlier results there as they were. The key logs first, before any
  // signal is caught: one may be a pipe whose writer never comes, and a
  // signal must end the wait (nothing is written yet).
  std::vector<KeyLogFile> keylogs;
  for (const auto& path : options.keylogs) keylogs.push_back({path, dissect::read_key_log_text(path)});
  // Caught from the first reading of a capture on: a signal while the
  // captures are read and split must not end the process between writing
  // connection folders and writing the reports; the reports then hold the
  // connections judged before it, and mark every other case INTERRUPTED.
  Interruption interruption;
  // What a job of a sharded check says of them (its report's inputs digest).
  std::string keylog_digests;
  if (shard)
    for (const auto& k : keylogs) keylog_digests += "\t" + cases_digest({k.text});
  CheckProgress progress(options.report.verbosity != Verbosity::quiet);
  {
    std::uint64_t total = 0;
    for (std::size_t k = 0; k < captures.size(); ++k)
      if (shares[k].read) total += file_bytes(captures[k]);
    progress.set_total(total);
  }
  const unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  // Each QUIC connection judged as it ends in this first reading, its
  // records kept on disk until the reports begin, which is once every
  // capture is read. Not where a capture is split over the jobs of a
  // shard: which of its connections this job judges is known only then.
  // Without a temporary file, each capture is read twice, as it was before.
  std::optional<RecordSpill> spill;
  try {
    spill.emplace();
  } catch (const InputError& e) {
    fmt::print(stderr, "warning: {}: each capture is read twice instead\n", e.diagnostics().front().str());
  }
  std::optional<EarlyJudge> early;
  if (spill) early.emplace(cases, CheckRegistry::builtin(), *spill, interruption, jobs, &progress);
  std::vector<ReadCapture> read_captures;
  std::vector<std::size_t> taken;  // the list index of each capture read
  std::vector<CaptureKeyText> key_texts;
  std::vector<std::string> key_sources;
  for (std::size_t k = 0; k < captures.size(); ++k) {
    if (!shares[k].read) continue;
    taken.push_back(k);
    key_texts.emplace_back();
    key_sources.emplace_back();
    auto keys = std::make_shared<const dissect::KeyLog>(
        capture_keys(captures[k], keylogs, key_texts.back(), key_sources.back()));
    const EndedConnection judge = early && !shares[k].split ? early->judge(read_captures.size(), given[k]) : nullptr;
    read_captures.push_back(read_for_check(captures[k], std::move(keys), &progress, judge, jobs > 1));
    if (early) early->wait();
  }
  early.reset();
  // A full disk says so now, before --out is touched.
  if (spill) spill->flush();
  const auto roots = capture_roots(options.out_dir, labels, shares);
  const auto vantages = named_vantages(cases);
  std::vector<SplitCapture> split;
  for (std::size_t i = 0; i < taken.size(); ++i) {
    const std::size_t k = taken[i];
    UnitFilter keep = [](std::size_t) { return true; };
    if (shares[k].split) keep = [k, spec = *shard](std::size_t n) { return judges_connection(k, n, spec); };
    const std::string sources = shares[k].split ? unit_sources_file(shard->index, shard->count) : unit_sources_file();
    split.push_back(
        split_capture(captures[k], read_captures[i], key_texts[i], roots[k], vantages, given[k], keep, sources));
    split.back().key_sources = key_sources[i];
  }
  // What the first reading kept (connection sketches, key log texts) has
  // gone into the folders: judging reads the captures again.
  read_captures = {};
  key_texts = {};
  keylogs = {};
  const auto with_mutants = std::count_if(cases.begin(), cases.end(),
                                          [](const Case& c) { return !c.decl->mutants.empty(); });
  progress.done();  // the lines below, then the line again while judging
  if (options.report.verbosity != Verbosity::quiet) {
    if (shard) print_shard(*shard, shares);
    print_units(split, with_mutants);
  }
  for (const auto& c : split)
    for (const auto& w : c.warnings) fmt::print(stderr, "warning: {}\n", w);

  const auto judged = plan_offline(cases, split, CheckRegistry::builtin(), shard.has_value());
  RunPlan plan{&judged.cases, 1, false, fs::absolute(options.out_dir).string(), {}, {}};
  plan.seeded = false;
  std::string inputs;
  for (const auto& c : capture_inputs) inputs += " " + shell_quote(c);
  for (const auto& k : options.keylogs) inputs += " --keylog " + shell_quote(k);
  for (const auto& d : options.plugins.dirs) inputs += " --plugin-dir " + shell_quote(d);
  for (const auto& f : options.plugins.files) inputs += " --plugin " + shell_quote(f);
  for (const auto& v : options.vantages) inputs += " --vantage " + shell_quote(v);
  plan.replay = check_replay(inputs);

  reports.add_section("offline", [&] { return offline_json(split, options.keylogs, cases); });
  reports.add_section("interrupted", [&interruption] { return interrupted_json(interruption); });
  if (shard)
    reports.add_section("check_shard", [&] {
      CheckShardReport s{*shard, options.split_bytes, case_ids_digest(cases), cases.size(), "", inputs, {}, {}};
      std::string options_read = inputs;
      options_read += keylog_digests;
      s.inputs_digest = check_inputs_digest(captures, shares, options.split_bytes, options_read);
      for (std::size_t k = 0, i = 0; k < captures.size(); ++k) {
        CheckShardReport::Capture c{captures[k], shares[k].bytes, shares[k].read, shares[k].split, 0};
        if (shares[k].read) c.connections = split[i++].units_total;
        s.captures.push_back(std::move(c));
      }
      for (const auto& place : judged.places)
        s.judged.push_back({place.case_index, taken[place.capture], place.connection});
      return to_json(s);
    });
  // Each result goes to the reports as soon as its turn comes, and is not kept.
  reports.begin(plan);
  FailingUnits failing(split.size());
  const auto totals = judge_offline(
      judged, split, CheckRegistry::builtin(), interruption,
      [&](const CaseResult& result, std::size_t k) {
        if (result.status == Status::fail) failing[judged.places[k].capture].insert(judged.places[k].connection);
        progress.done();
        reports.case_done(result);
      },
      jobs, &progress, spill ? &*spill : nullptr);
  progress.done();
  if (options.write_failing_pcaps) {
    const std::size_t written = write_failing_pcaps(failing, split);
    if (options.report.verbosity != Verbosity::quiet)
      fmt::print("wrote {} and {} for {} failing connection{} (--write-failing-pcaps)\n", kFailingPcapFile,
                 kFailingKeysFile, written, written == 1 ? "" : "s");
  }
  const int code = reports.end(totals);
  // A corrupt record: what came before it is judged and reported; the
  // capture is still bad input.
  std::vector<Diagnostic> corrupt;
  for (const auto& c : split)
    if (c.corrupt) corrupt.push_back({{c.path}, *c.corrupt});
  if (!corrupt.empty()) throw InputError(std::move(corrupt));
  return interrupted_exit(interruption, totals, code);
}

}  // namespace conform

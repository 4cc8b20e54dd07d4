// `conform dissect`: a capture and its key logs in, the timeline out.
#include "capture/pcap_open.hpp"
#include "capture/pcap_reader.hpp"
#include "capture/pcapng_secrets.hpp"
#include "cli/commands.hpp"
#include "common/input_error.hpp"
#include "common/output_files.hpp"
#include "dissect/dissector.hpp"
#include "dissect/timeline_format.hpp"
#include "offline/vantage_inference.hpp"
#include "report/file_reporter.hpp"
#include "report/qlog.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <iostream>
#include <sstream>

namespace conform {
namespace {

// qlog's vantage point (client, server, or network for a capture that is
// neither's own view) from --vantage, or inferred as `conform check` does;
// `said` is then the line that says so, for after the qlog is written.
QlogVantage qlog_vantage(const std::string& given, const dissect::Timeline& timeline, const std::string& capture,
                         std::string& said) {
  Vantage v = Vantage::path;
  if (given.empty()) {
    const auto inferred = infer_vantage(timeline);
    v = inferred.vantage;
    said = fmt::format("vantage of {}: {} (inferred: {})\n", capture, to_string(v), inferred.reason);
  } else if (const auto parsed = parse_vantage(given)) {
    v = *parsed;
  }
  return v == Vantage::client ? QlogVantage::client : v == Vantage::server ? QlogVantage::server : QlogVantage::network;
}

}  // namespace

int command_dissect(const DissectCommandOptions& options) {
  std::vector<std::string> inputs = options.keylogs;
  inputs.push_back(options.capture);
  if (options.qlog != "-") refuse_overwriting({{"--qlog", options.qlog}}, inputs);
  // Read every input before printing anything, so an unreadable file ends
  // the command with its one line and nothing else.
  if (const auto problem = not_a_capture_file(options.capture)) throw InputError({options.capture}, *problem);
  dissect::KeyLog keys;
  // Secrets embedded in a pcapng come first; --keylog files add to them.
  for (const auto& block : read_pcapng_secrets(options.capture))
    dissect::merge_key_log(keys, dissect::parse_key_log(block.key_log, block.source(options.capture)));
  for (const auto& path : options.keylogs) dissect::merge_key_log(keys, dissect::read_key_log(path));
  dissect::require_well_formed(keys);
  // Datagrams stream into the dissector: memory holds the timeline, not
  // the capture.
  dissect::Dissector dissector(keys);
  const CaptureSummary summary =
      for_each_datagram(options.capture, [&](const CapturedDatagram& d) { dissector.add(d); });

  // As `conform check`: a corrupt record is exit 2, a capture cut short
  // still shows what came before the cut.
  const std::string warning = damage_warning(options.capture, summary, "shown");
  if (!warning.empty()) std::fprintf(stderr, "warning: %s\n", warning.c_str());

  const auto timeline = dissector.finish();
  // A QUIC dissector given no QUIC was given the wrong file, as `check` is.
  if (timeline.connections.empty()) {
    const std::size_t n = timeline.unattributed.size();
    throw InputError({options.capture}, "no QUIC connection found (" + std::to_string(n) + " UDP datagram" +
                                            (n == 1 ? "" : "s") + ", none a QUIC v1 client Initial)");
  }
  for (const auto& c : timeline.connections)
    if (c.client_random && !c.secrets_found && !keys.connections.empty())
      std::fprintf(stderr, "%s: the key log has no secrets for connection %zu (client random %s): "
                           "only its Initial packets are decrypted\n",
                   options.capture.c_str(), c.index, dissect::to_hex(*c.client_random).c_str());
  if (!options.qlog.empty()) {
    std::ostringstream qlog;
    std::string said;
    write_qlog(qlog, timeline, {qlog_vantage(options.vantage, timeline, options.capture, said), options.capture});
    if (options.qlog == "-")
      std::cout << qlog.str();
    else
      write_file_atomically(options.qlog, qlog.str());
    std::fputs(said.c_str(), stderr);
  } else if (options.json)
    dissect::print_timeline_json(std::cout, timeline, &summary);
  else
    dissect::print_timeline(std::cout, timeline, &summary);
  std::cout.flush();
  return 0;
}

}  // namespace conform

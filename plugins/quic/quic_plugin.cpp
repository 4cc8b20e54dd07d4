// The in-house QUIC plugin's declaration: the name, roles and scenarios that
// suites/rfc9000 is written against. The sans-IO connection on BoringSSL
// that plays them is not built yet, so every run reports UNSUPPORTED with
// that reason, never a pass.
#include <conform/plugin.hpp>

namespace {

using namespace conform;

class QuicPlugin final : public Plugin {
 public:
  QuicPlugin() {
    info_.name = "quic";
    info_.version = "0.1.0";
    info_.time_model = TimeModel::simulated;
    info_.roles = {"client", "server"};
    info_.scenarios = {
        {"handshake", "connect, exchange nothing, close", {}},
    };
  }

  const PluginInfo& info() const override { return info_; }

  RunOutcome run(RunContext&) override {
    return {RunOutcome::Status::unsupported,
            "the in-house QUIC connection is not built yet (issue 5); nothing was run"};
  }

 private:
  PluginInfo info_;
};

}  // namespace

CONFORM_PLUGIN(QuicPlugin)

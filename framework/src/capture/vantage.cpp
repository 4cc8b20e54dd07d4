#include "capture/vantage.hpp"

namespace conform {

std::string describe(Vantage v) {
  switch (v) {
    case Vantage::client: return "the client's host";
    case Vantage::server: return "the server's host";
    case Vantage::path: return "the path between the endpoints";
    case Vantage::both: return "the one host both endpoints ran on";
  }
  return "the path between the endpoints";
}

}  // namespace conform

// ServedInProcess: an OrderServer serving on a free port of this process, on a SQLite file in a temporary folder
// that is removed when the process exits; what the HTTP fuzzers (http_request, framing) send their bytes to. Never
// destroy one: libFuzzer ends the process with exit(), and the server's threads must not run on into a destroyed
// object, so a fuzzer keeps it in a static pointer it never deletes.
#pragma once

#include "OrderServer.h"
#include "ServerOptions.h"
#include "support/Clock.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <thread>

namespace onceorder::fuzz {

class ServedInProcess
{
public:
    // `prefix` names the folder (onceorder-<prefix>-XXXXXX); `tune` changes the options after the defaults every
    // fuzzer wants (port 0, no completer, no reaper, synchronous=NORMAL: durability across power loss is not what
    // is fuzzed) are set and before the server starts.
    ServedInProcess(const std::string& prefix, const std::function<void(server::ServerOptions&)>& tune);
    ServedInProcess(const ServedInProcess&) = delete;
    ServedInProcess& operator=(const ServedInProcess&) = delete;

    int port() const { return m_port; }
    server::OrderServer& server() { return *m_server; }
    const server::ServerOptions& options() const { return m_options; }
    const std::filesystem::path& folder() const { return m_folder; }

private:
    std::filesystem::path m_folder;
    server::SystemClock m_clock;
    server::ServerOptions m_options;
    std::unique_ptr<server::OrderServer> m_server;
    int m_port = -1;
    std::thread m_serving;
};

} // namespace onceorder::fuzz

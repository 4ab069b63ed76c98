#include "support/ServedInProcess.h"

#include "support/FuzzCheck.h"

#include <chrono>
#include <cstdlib>
#include <stdlib.h>
#include <system_error>

namespace onceorder::fuzz {

namespace {

// The folder to remove at exit. One per process: each fuzzer binary makes one ServedInProcess.
std::filesystem::path& folderToRemove()
{
    static auto* folder = new std::filesystem::path();
    return *folder;
}

std::filesystem::path makeTemporaryFolder(const std::string& prefix)
{
    std::string pattern = (std::filesystem::temp_directory_path() / ("onceorder-" + prefix + "-XXXXXX")).string();
    require(mkdtemp(pattern.data()) != nullptr, "a temporary folder can be made");
    require(folderToRemove().empty(), "one served server per fuzzer process");
    folderToRemove() = pattern;
    std::atexit([] {
        std::error_code ignored;
        std::filesystem::remove_all(folderToRemove(), ignored);
    });
    return pattern;
}

} // namespace

ServedInProcess::ServedInProcess(const std::string& prefix, const std::function<void(server::ServerOptions&)>& tune)
    : m_folder(makeTemporaryFolder(prefix))
{
    m_options.port = 0;
    m_options.dbPath = (m_folder / "server.db").string();
    m_options.completerInterval = std::chrono::milliseconds(0);
    m_options.reapInterval = std::chrono::hours(24);
    m_options.synchronous = server::Synchronous::Normal;
    tune(m_options);
    m_server = std::make_unique<server::OrderServer>(m_options, m_clock);
    m_port = m_server->bind();
    require(m_port > 0, "the server binds a free port");
    m_serving = std::thread([this] { m_server->run(); });
}

} // namespace onceorder::fuzz

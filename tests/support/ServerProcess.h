// ServerProcess: starts the real onceorder-server binary on a free port for end-to-end tests, waits for its
// "listening on" line (no sleeps), and stops it (SIGTERM, or SIGKILL to simulate a crash).
#pragma once

#include <httplib.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace onceorder::test {

// Tests read the server's and the client's SQLite files while those processes write them; a read-only open can
// meet a writer's lock for a moment (seen under ASan on a loaded machine), so it waits instead of failing.
inline constexpr int kReadBusyTimeoutMs = 10'000;

// A fresh folder under the system temp dir, removed with everything in it at the end of the test.
class TempDir
{
public:
    TempDir()
    {
        std::string pattern = (std::filesystem::temp_directory_path() / "onceorder-test-XXXXXX").string();
        if (!mkdtemp(pattern.data())) {
            throw std::runtime_error("mkdtemp failed");
        }
        m_path = pattern;
    }
    ~TempDir()
    {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return m_path; }
    std::string file(const std::string& name) const { return (m_path / name).string(); }

private:
    std::filesystem::path m_path;
};

class ServerProcess
{
public:
    // `logFile`: where the server's stderr (its request log, one JSON line per request) is appended; empty: nowhere.
    explicit ServerProcess(std::vector<std::string> extraArgs = {}, std::string executable = ONCEORDER_SERVER_BIN,
                           std::string logFile = {})
        : m_executable(std::move(executable))
        , m_args(std::move(extraArgs))
        , m_logFile(std::move(logFile))
    {
        start();
    }
    ~ServerProcess() { stop(); }
    ServerProcess(const ServerProcess&) = delete;
    ServerProcess& operator=(const ServerProcess&) = delete;

    void start()
    {
        // Everything the child needs is made before fork: in the child of a process with other threads (a test's
        // clients) only async-signal-safe calls are allowed until execv; a malloc there can deadlock (seen under
        // ASan when an instance was restarted mid-storm).
        std::vector<std::string> args {m_executable, "--listen", "127.0.0.1:0"};
        args.insert(args.end(), m_args.begin(), m_args.end());
        std::vector<char*> argv;
        for (auto& arg : args) {
            argv.push_back(arg.data());
        }
        argv.push_back(nullptr);
        const char* stderrTo = !m_logFile.empty()      ? m_logFile.c_str()
            : std::getenv("ONCEORDER_TEST_SERVER_LOG") ? nullptr
                                                       : "/dev/null";
        int out[2];
        if (pipe2(out, O_CLOEXEC) != 0) { // no other child started meanwhile inherits it
            throw std::runtime_error("pipe failed");
        }
        m_pid = fork();
        if (m_pid < 0) {
            throw std::runtime_error("fork failed");
        }
        if (m_pid == 0) {
            dup2(out[1], STDOUT_FILENO);
            close(out[0]);
            close(out[1]);
            if (stderrTo) {
                const int log = ::open(stderrTo, O_WRONLY | O_CREAT | O_APPEND, 0644);
                dup2(log, STDERR_FILENO);
            }
            execv(argv[0], argv.data());
            _exit(127);
        }
        close(out[1]);
        m_stdout = fdopen(out[0], "r");
        char line[256] = {};
        // Blocks until the server has bound its socket and said so (or died).
        if (!std::fgets(line, sizeof line, m_stdout)) {
            throw std::runtime_error("onceorder-server exited before it was ready");
        }
        // "listening on http://HOST:PORT": 127.0.0.1 unless a test listens elsewhere (its --listen comes later).
        const std::string text(line);
        const std::string prefix = "listening on http://";
        const auto colon = text.rfind(':');
        if (text.rfind(prefix, 0) != 0 || colon == std::string::npos || colon < prefix.size()) {
            throw std::runtime_error("unexpected first line from onceorder-server: " + text);
        }
        m_port = std::stoi(text.substr(colon + 1));
    }

    // Graceful: SIGTERM and wait; returns the exit status (0 expected).
    int stop() { return signalAndWait(SIGTERM); }

    // Abrupt, as a crash: SIGKILL and wait.
    void kill() { signalAndWait(SIGKILL); }

    // Waits for a process that is expected to die by itself (a crash fault); returns the raw wait status.
    int waitForExit()
    {
        if (m_pid <= 0) {
            return m_lastStatus;
        }
        int status = 0;
        while (waitpid(m_pid, &status, 0) < 0 && errno == EINTR) { }
        finish(status);
        return status;
    }

    bool isRunning() const { return m_pid > 0; }
    int port() const { return m_port; }
    int pid() const { return m_pid; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port); }
    std::unique_ptr<httplib::Client> client() const
    {
        auto c = std::make_unique<httplib::Client>("127.0.0.1", m_port);
        c->set_tcp_nodelay(true);
        c->set_read_timeout(30, 0);
        return c;
    }

private:
    int signalAndWait(int signal)
    {
        if (m_pid <= 0) {
            return m_lastStatus;
        }
        ::kill(m_pid, signal);
        return waitForExit();
    }

    void finish(int status)
    {
        m_pid = -1;
        m_lastStatus = status;
        if (m_stdout) {
            std::fclose(m_stdout);
            m_stdout = nullptr;
        }
    }

    std::string m_executable;
    std::vector<std::string> m_args;
    std::string m_logFile;
    pid_t m_pid = -1;
    int m_port = 0;
    int m_lastStatus = 0;
    FILE* m_stdout = nullptr;
};

} // namespace onceorder::test

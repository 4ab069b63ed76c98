// onceorder-server: parses the command line, serves until SIGINT/SIGTERM, exits 0 after a clean shutdown.
#include "AdminCommands.h"
#include "OrderServer.h"
#include "ServerOptions.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <pthread.h>
#include <string_view>
#include <sys/resource.h>
#include <thread>

using namespace onceorder::server;

namespace {

// Every connection is a descriptor, and a slow client keeps its own for up to the header timeout: take all the
// descriptors the hard limit allows (the soft limit is often 1024), as servers do.
void takeEveryDescriptor()
{
    rlimit files {};
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }
}

// Signals are taken by one thread with sigwait, so no handler runs inside the HTTP layer or the database's library.
sigset_t blockStopSignals()
{
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    std::signal(SIGPIPE, SIG_IGN);
    return signals;
}

// Starts the server, says where it listens and serves until stopped (`serving` names it meanwhile, for the signal
// waiter); the process's exit status.
int serve(const ServerOptions& options, std::atomic<OrderServer*>& serving)
{
    try {
        SystemClock clock;
        OrderServer server(options, clock);
        const int port = server.bind();
        if (port < 0) {
            std::cerr << "onceorder-server: cannot listen on " << options.host << ":" << options.port << "\n";
            return 1;
        }
        serving = &server;
        const bool ipv6 = options.host.find(':') != std::string::npos;
        std::cout << "listening on http://" << (ipv6 ? "[" + options.host + "]" : options.host) << ":" << port
                  << std::endl;
        server.run();
        serving = nullptr;
        return 0;
    } catch (const std::exception& error) {
        std::cerr << "onceorder-server: " << error.what() << "\n";
        return 1;
    }
}

} // namespace

int main(int argc, char** argv)
{
    if (argc >= 2 && std::string_view(argv[1]) == "clients") {
        return runClientsCommand(std::vector<std::string>(argv + 2, argv + argc));
    }
    if (argc >= 2 && std::string_view(argv[1]) == "migrate") {
        return runMigrateCommand(std::vector<std::string>(argv + 2, argv + argc));
    }
    const auto parsed = parseServerOptions(std::vector<std::string>(argv + 1, argv + argc));
    if (std::holds_alternative<ShowHelp>(parsed)) {
        std::cout << serverUsage();
        return 0;
    }
    if (std::holds_alternative<ShowVersion>(parsed)) {
        std::cout << "onceorder-server " << ONCEORDER_VERSION << "\n";
        return 0;
    }
    if (const auto* error = std::get_if<OptionsError>(&parsed)) {
        std::cerr << "onceorder-server: " << error->message << "\n";
        return 2;
    }
    ServerOptions options = std::get<ServerOptions>(parsed);
    if (options.dbPath.empty()) {
        options.dbPath = defaultDatabasePath();
    }

    takeEveryDescriptor();
    const sigset_t signals = blockStopSignals();

    // The waiter is there before the server: a database that accepts the connection and never answers must not make
    // SIGTERM wait (nothing is in flight while the server starts, so it leaves at once then).
    std::atomic<OrderServer*> serving {nullptr};
    std::atomic<bool> finished {false};
    std::thread signalWaiter([&serving, &finished, signals] {
        int received = 0;
        sigwait(&signals, &received);
        if (finished.load()) {
            return;
        }
        if (OrderServer* server = serving.load()) {
            // Once is enough: a stop() that comes before run() makes run() return as soon as it starts.
            server->stop();
            return;
        }
        std::fputs("onceorder-server: stopped while starting\n", stderr);
        std::_Exit(0);
    });
    const int status = serve(options, serving);
    // The signal came and run() returned, or the server ended by itself: make sure the waiter ends either way.
    finished = true;
    pthread_kill(signalWaiter.native_handle(), SIGTERM);
    signalWaiter.join();
    return status;
}

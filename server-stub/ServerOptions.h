// ServerOptions: the command line of onceorder-server (SPEC §3), parsed without side effects.
#pragma once

#include "checkout/WebhookOutbox.h"
#include "storage/DatabaseOptions.h"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace onceorder::server {

// --client-rate's default: requests a second per client (docs/security.md: what it bounds).
inline constexpr int kDefaultClientRate = 1000;
// --client-key-rows's default: key rows a client may make in any 24 hours (docs/security.md).
inline constexpr long long kDefaultClientKeyRows = 100'000;
// The largest values --client-rate, --client-key-rows and `clients add`'s --rate and --key-rows take.
inline constexpr long long kMaxClientRate = 1'000'000;
inline constexpr long long kMaxClientKeyRows = 1'000'000'000;

// Whether HOST (as given to --listen) is a loopback address: 127.x.x.x, ::1 or localhost.
bool listensOnLoopback(const std::string& host);

// The database's part (storage/DatabaseOptions.h: --db, --threads, --synchronous, --db-*, the group commit's
// settings) is what a backend opens the database with; the rest is the server's.
struct ServerOptions : DatabaseOptions
{
    std::string host = "127.0.0.1";
    int port = 8080;
    std::chrono::seconds keyTtl {86400};
    // A request's header must arrive within this, or the connection is closed (a client that lost its signal
    // mid-request costs a socket for this long, never a thread); its body, and the taking of its answer, within as
    // long again. --header-timeout in whole seconds; the request fuzzer shortens it to milliseconds, so a request
    // that lacks its last bytes is given up at once instead of holding the exchange.
    std::chrono::milliseconds headerTimeout {10'000};
    // Open connections at most (--max-connections); 0: the descriptor limit less HttpServer's reserve.
    std::size_t maxConnections = 0;
    // POST /orders and POST /checkout a client may send each second to this instance, answered 429 beyond
    // (--client-rate; 0: no limit). ONCEORDER_CLIENT_RATE in the environment is the flag's default, for the
    // side-by-side benchmarks that start a binary without the flag (bench/ab-http sets it to 0).
    int clientRate = kDefaultClientRate;
    // Key rows (POST /orders, POST /checkout with a new key) a client may make in any 24 hours in this instance,
    // answered 429 key-quota-exceeded beyond (--client-key-rows; 0: no limit). Both are the defaults for a client
    // the operator stored no limits for (`clients add NAME --rate N --key-rows N`), which the demo clients are.
    // ONCEORDER_CLIENT_KEY_ROWS in the environment is the flag's default, as with the rate.
    long long clientKeyRows = kDefaultClientKeyRows;
    // MiB held for all connections together (HttpLimits::maxHeldBytes, --memory-budget): read buffers, bodies as
    // they arrive, unsent answers; over it a connection is answered 503 memory-budget-full and closed.
    std::size_t memoryBudgetMiB = 64;
    bool debugEndpoints = false;
    // Beyond loopback, accept the published demo client keys (--allow-demo-keys); SPEC §3.
    bool allowDemoKeys = false;
    std::chrono::seconds reapInterval {60};
    // POST /checkout: a key row locked for longer than this is abandoned and may be taken over.
    std::chrono::milliseconds lockTimeout {30'000};
    // How often the completer looks for abandoned checkouts (0: only when asked, POST /_debug/complete).
    std::chrono::milliseconds completerInterval {5'000};
    // When the stub gateway redelivers an unacknowledged webhook (ONCEORDER_WEBHOOK_RETRY_MS=first[,cap[,horizon]]
    // overrides it, for tests that cannot wait seconds).
    WebhookOutbox::Schedule webhookRedelivery;

    // Settings from the environment, not the command line (benchmarks and tests set them around a server they
    // start). parseServerOptions reads them with the flags, so the server itself never looks at its environment.
    // ONCEORDER_WEBHOOK_SECRET: what the stub gateway signs its webhooks with; empty (unset or set empty): the secret
    // made for this database.
    std::string webhookSecret;
};

struct ShowHelp
{
};
struct ShowVersion
{
};
struct OptionsError
{
    std::string message;
};

using ParsedOptions = std::variant<ServerOptions, ShowHelp, ShowVersion, OptionsError>;

// The command line, and the environment settings named in ServerOptions.
ParsedOptions parseServerOptions(const std::vector<std::string>& args);
std::string serverUsage();
// $XDG_DATA_HOME/onceorder/server.db, else ~/.local/share/onceorder/server.db
std::string defaultDatabasePath();

} // namespace onceorder::server

#include "ServerOptions.h"

#include "storage/Backend.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <optional>
#include <string_view>

namespace onceorder::server {

namespace {

std::optional<long long> parseNumber(const std::string& text, long long min, long long max)
{
    long long value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < min || value > max) {
        return std::nullopt;
    }
    return value;
}

// ONCEORDER_WEBHOOK_RETRY_MS=first[,cap[,horizon]] (milliseconds): each whole number above 0 replaces its field of the
// schedule in turn; the first that is not one ends the list, and the fields after it keep their defaults.
void readRedeliverySchedule(const char* text, WebhookOutbox::Schedule& schedule)
{
    std::chrono::milliseconds* fields[] = {&schedule.first, &schedule.cap, &schedule.horizon};
    const char* at = text;
    for (auto* field : fields) {
        char* end = nullptr;
        const long long value = std::strtoll(at, &end, 10);
        if (end == at || value <= 0) {
            break;
        }
        *field = std::chrono::milliseconds(value);
        if (*end != ',') {
            break;
        }
        at = end + 1;
    }
}

// The settings ServerOptions documents as environment variables.
void readEnvironment(ServerOptions& options)
{
    if (const char* enabled = std::getenv("ONCEORDER_GROUP_COMMIT"); enabled && std::string_view(enabled) == "0") {
        options.groupCommit = false;
    }
    if (const char* gather = std::getenv("ONCEORDER_GROUP_COMMIT_GATHER")) {
        options.groupCommitGather = static_cast<std::size_t>(std::strtoul(gather, nullptr, 10));
    }
    if (const char* secret = std::getenv("ONCEORDER_WEBHOOK_SECRET"); secret && *secret) {
        options.webhookSecret = secret;
    }
    if (const char* prepare = std::getenv("ONCEORDER_DB_PREPARE")) {
        if (std::string_view(prepare) == "off") {
            options.dbPrepare = false;
        } else if (std::string_view(prepare) == "on") {
            options.dbPrepare = true;
        }
    }
    if (const char* budget = std::getenv("ONCEORDER_DB_TIMEOUT_MS")) {
        if (const auto ms = parseNumber(budget, 100, 600'000)) {
            options.dbTimeout = std::chrono::milliseconds(*ms);
        }
    }
    if (const char* rate = std::getenv("ONCEORDER_CLIENT_RATE"); rate && *rate) {
        if (const auto perSecond = parseNumber(rate, 0, 1'000'000)) {
            options.clientRate = static_cast<int>(*perSecond);
        }
    }
    if (const char* rows = std::getenv("ONCEORDER_CLIENT_KEY_ROWS"); rows && *rows) {
        if (const auto perDay = parseNumber(rows, 0, kMaxClientKeyRows)) {
            options.clientKeyRows = *perDay;
        }
    }
    if (const char* retry = std::getenv("ONCEORDER_WEBHOOK_RETRY_MS"); retry && *retry) {
        readRedeliverySchedule(retry, options.webhookRedelivery);
    }
}

// --listen, --db and the serving limits: `v` applied to `options`, or why it is refused; nothing for another option.
std::optional<OptionsError> applyServingValue(ServerOptions& options, const std::string& arg, const std::string& v)
{
    if (arg == "--listen") {
        const auto colon = v.rfind(':');
        const auto port = colon == std::string::npos ? std::nullopt : parseNumber(v.substr(colon + 1), 0, 65535);
        if (!port || colon == 0) {
            return OptionsError {"--listen wants HOST:PORT with a port from 0 to 65535, got \"" + v + "\""};
        }
        options.host = v.substr(0, colon);
        if (options.host.size() > 2 && options.host.front() == '[' && options.host.back() == ']') {
            options.host = options.host.substr(1, options.host.size() - 2);
        }
        options.port = static_cast<int>(*port);
    } else if (arg == "--db") {
        if (v.empty()) {
            return OptionsError {"--db needs a path"};
        }
        // SPEC §3: a scheme no backend takes is a usage error, not a file name.
        const Backend* backend = findBackend(v);
        if (backend == nullptr) {
            return OptionsError {"--db takes " + backendsTaken() + ", got \"" + v + "\""};
        }
        options.dbPath = backend->normalise(v);
    } else if (arg == "--key-ttl") {
        const auto ttl = parseNumber(v, 1, 365LL * 86400);
        if (!ttl) {
            return OptionsError {"--key-ttl wants seconds from 1 to 31536000, got \"" + v + "\""};
        }
        options.keyTtl = std::chrono::seconds(*ttl);
    } else if (arg == "--threads") {
        const auto threads = parseNumber(v, 1, 256);
        if (!threads) {
            return OptionsError {"--threads wants a number from 1 to 256, got \"" + v + "\""};
        }
        options.threads = static_cast<int>(*threads);
    } else if (arg == "--header-timeout") {
        const auto seconds = parseNumber(v, 1, 3600);
        if (!seconds) {
            return OptionsError {"--header-timeout wants seconds from 1 to 3600, got \"" + v + "\""};
        }
        options.headerTimeout = std::chrono::seconds(*seconds);
    } else if (arg == "--max-connections") {
        const auto connections = parseNumber(v, 1, 10'000'000);
        if (!connections) {
            return OptionsError {"--max-connections wants a number from 1 to 10000000, got \"" + v + "\""};
        }
        options.maxConnections = static_cast<std::size_t>(*connections);
    } else if (arg == "--client-rate") {
        const auto perSecond = parseNumber(v, 0, 1'000'000);
        if (!perSecond) {
            return OptionsError {"--client-rate wants requests a second from 0 to 1000000, got \"" + v + "\""};
        }
        options.clientRate = static_cast<int>(*perSecond);
    } else if (arg == "--memory-budget") {
        const auto mib = parseNumber(v, 1, 65536);
        if (!mib) {
            return OptionsError {"--memory-budget wants MiB from 1 to 65536, got \"" + v + "\""};
        }
        options.memoryBudgetMiB = static_cast<std::size_t>(*mib);
    } else if (arg == "--client-key-rows") {
        const auto perDay = parseNumber(v, 0, kMaxClientKeyRows);
        if (!perDay) {
            return OptionsError {"--client-key-rows wants key rows a day from 0 to 1000000000, got \"" + v + "\""};
        }
        options.clientKeyRows = *perDay;
    }
    return std::nullopt;
}

// The database's options (--synchronous, --db-*): `v` applied to `options`, or why it is refused; nothing for another
// option.
std::optional<OptionsError> applyDatabaseValue(ServerOptions& options, const std::string& arg, const std::string& v)
{
    if (arg == "--db-pool-size") {
        const auto size = parseNumber(v, 1, 1000);
        if (!size) {
            return OptionsError {"--db-pool-size wants a number from 1 to 1000, got \"" + v + "\""};
        }
        options.dbPoolSize = static_cast<int>(*size);
    } else if (arg == "--db-wait-ms") {
        const auto wait = parseNumber(v, 0, 600'000);
        if (!wait) {
            return OptionsError {"--db-wait-ms wants milliseconds from 0 to 600000, got \"" + v + "\""};
        }
        options.dbWait = std::chrono::milliseconds(*wait);
    } else if (arg == "--db-idle-ms") {
        const auto idle = parseNumber(v, 1, 86'400'000);
        if (!idle) {
            return OptionsError {"--db-idle-ms wants milliseconds from 1 to 86400000, got \"" + v + "\""};
        }
        options.dbIdle = std::chrono::milliseconds(*idle);
    } else if (arg == "--db-timeout-ms") {
        const auto budget = parseNumber(v, 100, 600'000);
        if (!budget) {
            return OptionsError {"--db-timeout-ms wants milliseconds from 100 to 600000, got \"" + v + "\""};
        }
        options.dbTimeout = std::chrono::milliseconds(*budget);
    } else if (arg == "--db-monitor") {
        if (v.rfind("postgresql://", 0) != 0 && v.rfind("postgres://", 0) != 0) {
            return OptionsError {"--db-monitor wants a postgresql:// URI of the pg_auto_failover monitor"};
        }
        options.dbMonitor = v;
    } else if (arg == "--db-prepare") {
        if (v != "on" && v != "off") {
            return OptionsError {"--db-prepare wants on or off, got \"" + v + "\""};
        }
        options.dbPrepare = v == "on";
    } else if (arg == "--synchronous") {
        if (v != "full" && v != "normal") {
            return OptionsError {"--synchronous wants full or normal, got \"" + v + "\""};
        }
        options.synchronous = v == "full" ? Synchronous::Full : Synchronous::Normal;
    }
    return std::nullopt;
}

} // namespace

bool listensOnLoopback(const std::string& host)
{
    return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0 || host.rfind("::ffff:127.", 0) == 0;
}

std::string serverUsage()
{
    return "Usage: onceorder-server [options]\n"
           "The OnceOrder stub server: POST /orders placed exactly once per Idempotency-Key.\n\n"
           "  --listen HOST:PORT     address to listen on (default 127.0.0.1:8080; port 0 = any free port)\n"
           "  --db PATH|URI          SQLite database file (default in the app-data folder; :memory: allowed), or a\n"
           "                         PostgreSQL URI postgresql://… that several instances may share\n"
           "  --key-ttl SECONDS      how long an idempotency key is remembered (default 86400)\n"
           "  --threads N            request worker threads (default 8)\n"
           "  --header-timeout SEC   close a connection whose request header has not arrived in SEC seconds\n"
           "                         (default 10; also the idle time allowed on a kept-alive connection)\n"
           "  --max-connections N    open connections at most; more are answered 503 and closed at once (default:\n"
           "                         the descriptor limit less 64)\n"
           "  --client-rate N        POST /orders and POST /checkout each client may send a second; more are\n"
           "                         answered 429 with Retry-After (default 1000; 0: no limit)\n"
           "  --memory-budget MIB    bytes held for all connections together (read buffers, bodies as they\n"
           "                         arrive, unsent answers); over it a connection gets 503 (default 64)\n"
           "  --client-key-rows N    key rows (orders and checkouts with a new key) each client may make in any\n"
           "                         24 hours; more are answered 429 (default 100000; 0: no limit). Both are\n"
           "                         defaults: `clients add` stores a client's own\n"
           "  --debug-endpoints      serve /_debug/* to loopback clients (faults, teaching modes, reset)\n"
           "  --allow-demo-keys      beyond loopback, accept the published demo client keys (demo-key-A, -B); the\n"
           "                         operator then gets a generated key, never demo-key-admin\n"
           "  --synchronous MODE     full (default) or normal: SQLite's durability on power loss\n"
           "  --db-pool-size N       PostgreSQL: connections at most (default: --threads + 5)\n"
           "  --db-wait-ms MS        PostgreSQL: how long a request waits for a free connection, or for a free\n"
           "                         slot on a server at max_connections, before it is answered 503 (default 5000)\n"
           "  --db-idle-ms MS        PostgreSQL: close a connection unused for MS milliseconds (default 30000)\n"
           "  --db-timeout-ms MS     PostgreSQL: the time budget of a database call (default 3000): past it the\n"
           "                         request is answered 503 with Retry-After and its connection closed; the lock\n"
           "                         and statement timeouts, TCP keepalives, tcp_user_timeout and a connect timeout\n"
           "                         per host come from it\n"
           "  --db-monitor URI       PostgreSQL with pg_auto_failover: the monitor "
           "(postgres://autoctl_node@HOST:PORT/\n"
           "                         pg_auto_failover); a transaction starts only on the node it names the primary\n"
           "                         now, never on an old primary that resumes after a failover\n"
           "  --db-prepare on|off    PostgreSQL: prepare statements once per connection (default on); off behind a\n"
           "                         transaction pooler (PgBouncer in transaction mode)\n"
           "  --help                 show this help\n"
           "  --version              show the version\n\n"
           "When ready it prints \"listening on http://HOST:PORT\". SIGINT/SIGTERM finish in-flight requests and exit "
           "0.\n"
           "Listening beyond loopback, it refuses a database holding the published demo keys (unless\n"
           "--allow-demo-keys) and prints a generated operator key once.\n\n"
           "  onceorder-server clients add NAME --db PATH|URI [--rate N] [--key-rows N]\n"
           "                         issue client NAME an API key: printed once on stdout, stored as its hash;\n"
           "                         --rate and --key-rows store its own limits (0: none) instead of the defaults\n"
           "  onceorder-server migrate --db URI\n"
           "                         create or upgrade the PostgreSQL schema as the tables' owner (serving then\n"
           "                         needs only SELECT/INSERT/UPDATE/DELETE)\n";
}

std::string defaultDatabasePath()
{
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) {
        return std::string(xdg) + "/onceorder/server.db";
    }
    if (const char* home = std::getenv("HOME"); home && *home) {
        return std::string(home) + "/.local/share/onceorder/server.db";
    }
    return "onceorder-server.db";
}

ParsedOptions parseServerOptions(const std::vector<std::string>& args)
{
    ServerOptions options;
    readEnvironment(options);
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        auto value = [&]() -> std::optional<std::string> {
            if (i + 1 >= args.size()) {
                return std::nullopt;
            }
            return args[++i];
        };
        if (arg == "--help" || arg == "-h") {
            return ShowHelp {};
        }
        if (arg == "--version") {
            return ShowVersion {};
        }
        if (arg == "--debug-endpoints") {
            options.debugEndpoints = true;
            continue;
        }
        if (arg == "--allow-demo-keys") {
            options.allowDemoKeys = true;
            continue;
        }
        if (arg != "--listen" && arg != "--db" && arg != "--key-ttl" && arg != "--threads" && arg != "--synchronous" &&
            arg != "--header-timeout" && arg != "--max-connections" && arg != "--db-pool-size" &&
            arg != "--db-wait-ms" && arg != "--db-idle-ms" && arg != "--db-prepare" && arg != "--db-timeout-ms" &&
            arg != "--db-monitor" && arg != "--client-rate" && arg != "--client-key-rows" && arg != "--memory-budget") {
            return OptionsError {"unknown option \"" + arg + "\" (see --help)"};
        }
        const auto v = value();
        if (!v) {
            return OptionsError {arg + " needs a value (see --help)"};
        }
        if (auto error = applyServingValue(options, arg, *v)) {
            return *error;
        }
        if (auto error = applyDatabaseValue(options, arg, *v)) {
            return *error;
        }
    }
    return options;
}

} // namespace onceorder::server

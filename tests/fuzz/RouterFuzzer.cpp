// Fuzzes the router and the handlers behind it with whole requests, without the socket: HttpApi's header check and
// handle() run on a thread with a 128 KiB stack, as small as an I/O thread's could be, so that work that grows with
// the input on the stack (std::regex recursed once per character of the path, and one GET of 26,000 characters
// overflowed the server's stack) crashes here. Requests are built from the input: a method, a path (a piece of the
// input repeated up to 64 KiB, so paths far longer than libFuzzer's inputs are tried), the credentials, an
// Origin and a Host, a body. The store is SQLite on a real file, with the debug routes on.
//
// Properties: every request is answered exactly once; never 5xx; every error is application/problem+json, valid
// JSON, with a documented type; an answer from the header check is one the handler would also give (same status).
#include "ServerOptions.h"
#include "orders/OrderQueries.h"
#include "orders/OrderService.h"
#include "orders/SqlOrderStore.h"
#include "routes/HttpApi.h"
#include "storage/sqlite/SqliteBackend.h"
#include "support/FuzzCheck.h"
#include "support/Json.h"
#include "teaching/TeachingLessons.h"

#include <pthread.h>

#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <set>
#include <string>

using namespace onceorder::server;
using onceorder::fuzz::require;

namespace {

const std::set<std::string> kDocumentedTypes = {
    "/problems/unauthenticated",         "/problems/unknown-api-key",
    "/problems/operator-cannot-order",   "/problems/operator-only",
    "/problems/debug-loopback-only",     "/problems/debug-foreign-origin",
    "/problems/debug-foreign-host",      "/problems/invalid-debug-body",
    "/problems/missing-idempotency-key", "/problems/invalid-idempotency-key",
    "/problems/unsupported-media-type",  "/problems/payload-too-large",
    "/problems/malformed-json",          "/problems/invalid-order",
    "/problems/unknown-product",         "/problems/invalid-limit",
    "/problems/invalid-stock",           "/problems/idempotency-key-reused",
    "/problems/request-in-progress",     "/problems/out-of-stock",
    "/problems/cart-already-ordered",    "/problems/not-found",
    "/problems/invalid-fault",           "/problems/invalid-mode",
    "/problems/body-not-allowed",        "/problems/rate-limited",
    "/problems/key-quota-exceeded"};

std::filesystem::path& fixtureFolder()
{
    static auto* folder = new std::filesystem::path();
    return *folder;
}

struct Fixture
{
    Fixture()
    {
        std::string pattern = (std::filesystem::temp_directory_path() / "onceorder-router-XXXXXX").string();
        require(mkdtemp(pattern.data()) != nullptr, "a temporary folder can be made");
        fixtureFolder() = pattern;
        std::atexit([] {
            std::error_code ignored;
            std::filesystem::remove_all(fixtureFolder(), ignored);
        });
        ServerOptions options;
        options.dbPath = pattern + "/server.db";
        options.synchronous = Synchronous::Normal;
        options.threads = 2; // four connections
        options.groupCommit = false;
        store = sqliteBackend().open(options, true);
        orders = std::make_unique<OrderService>(store->sql(), std::make_unique<TeachingLessons>(faults), clock,
                                                std::chrono::seconds(86400), nullptr);
        queries = std::make_unique<OrderQueries>(store->sql());
        orderStore = std::make_unique<SqlOrderStore>(*store, *orders, *queries);
        api = std::make_unique<HttpApi>(*orderStore, faults, metrics, true, 2);
        api->registerRoutes();
    }

    SystemClock clock;
    Faults faults;
    Metrics metrics;
    std::unique_ptr<OpenedDatabase> store;
    std::unique_ptr<OrderService> orders;
    std::unique_ptr<OrderQueries> queries;
    std::unique_ptr<SqlOrderStore> orderStore;
    std::unique_ptr<HttpApi> api;
};

// Never destroyed: libFuzzer ends the process with exit(), and the workers must not run on into a destroyed fixture.
Fixture& fixture()
{
    static Fixture* instance = new Fixture();
    return *instance;
}

// Takes the next byte of the input (0 once it is used up).
struct Input
{
    const std::uint8_t* data;
    std::size_t size;

    std::uint8_t byte()
    {
        if (size == 0) {
            return 0;
        }
        --size;
        return *data++;
    }
    // Up to `most` bytes, ending before a 0xFF byte (which is consumed).
    std::string piece(std::size_t most)
    {
        std::string out;
        while (size > 0 && out.size() < most) {
            const std::uint8_t next = byte();
            if (next == 0xFF) {
                break;
            }
            out += static_cast<char>(next);
        }
        return out;
    }
};

HttpRequest requestFrom(Input& input)
{
    static const char* kMethods[] = {"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "get"};
    static const char* kPaths[] = {
        "/orders",       "/orders/",       "/products",    "/products/kniha/stock", "/healthz", "/metrics",
        "/_debug/state", "/_debug/faults", "/_debug/mode", "/_debug/reset",         "/",        ""};
    static const char* kKeys[] = {"demo-key-A", "demo-key-B", "demo-key-admin", "wrong"};
    static const char* kHosts[] = {"127.0.0.1:8080", "localhost", "[::1]:1", "evil.example", "127.0.0.1.evil.example"};
    HttpRequest request;
    const std::uint8_t shape = input.byte();
    request.method = kMethods[shape & 7];
    // A known route's path, with a piece of the input after it, repeated: up to 64 KiB, eight times what the
    // transport lets through (414) and enough for a recursive matcher to overflow a 128 KiB stack many times over.
    std::string path = kPaths[(shape >> 3) % std::size(kPaths)];
    const std::string piece = input.piece(64);
    const std::size_t repeats = 1 + (static_cast<std::size_t>(input.byte()) << 4) * (input.byte() & 0x0F);
    for (std::size_t i = 0; i < repeats && path.size() < (1u << 16); ++i) {
        path += piece;
    }
    request.target = path + (input.byte() & 1 ? "?" + input.piece(32) : std::string());
    request.parseTarget();
    const std::uint8_t headers = input.byte();
    if (headers & 1) {
        request.headers.emplace_back("Authorization", std::string("Bearer ") + kKeys[(headers >> 1) & 3]);
    }
    if (headers & 8) {
        request.headers.emplace_back("Host", kHosts[(headers >> 4) % std::size(kHosts)]);
    }
    if (headers & 128) {
        request.headers.emplace_back("Origin", input.piece(40));
    }
    if (input.byte() & 1) {
        request.headers.emplace_back("Idempotency-Key", input.piece(40));
        request.headers.emplace_back("Content-Type", "application/json");
    }
    request.remoteAddr = input.byte() & 1 ? "10.0.0.1" : "127.0.0.1";
    request.body = std::string(reinterpret_cast<const char*>(input.data), input.size);
    return request;
}

struct Outcome
{
    std::mutex lock;
    std::condition_variable changed;
    int answers = 0;
    HttpResponse response;
    std::optional<HeaderVerdict> verdict;
};

struct Job
{
    HttpRequest request;
    Outcome* outcome;
};

void checkAnswer(const HttpResponse& response)
{
    require(response.status >= 200 && response.status < 500, "no request is answered 5xx",
            std::to_string(response.status) + " " + response.body);
    if (response.status < 300) {
        return;
    }
    require(response.contentType == "application/problem+json", "every error is application/problem+json",
            response.contentType);
    const auto parsed = parseJson(response.body);
    require(std::holds_alternative<JsonValue>(parsed), "every problem body is valid JSON", response.body);
    const JsonValue* type = std::get<JsonValue>(parsed).member("type");
    require(type && type->isString(), "every problem has a type", response.body);
    require(kDocumentedTypes.count(std::get<std::string>(type->value)) == 1, "every problem type is documented",
            response.body);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    fixture();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    Input input {data, size};
    Outcome outcome;
    Job job {requestFrom(input), &outcome};

    // Routing and the header check on a small stack, as the I/O thread runs them; the handlers run on the workers.
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    require(pthread_attr_setstacksize(&attributes, 128 * 1024) == 0, "a 128 KiB stack can be asked for");
    pthread_t thread;
    const int started = pthread_create(
        &thread, &attributes,
        [](void* argument) -> void* {
            auto* work = static_cast<Job*>(argument);
            HttpApi& api = *fixture().api;
            if (!work->request.body.empty()) {
                HttpRequest head = work->request;
                head.body.clear();
                work->outcome->verdict = api.checkHeader(head);
            }
            Outcome* out = work->outcome;
            api.handle(std::move(work->request), [out](HttpResponse response) {
                std::lock_guard guard(out->lock);
                ++out->answers;
                out->response = std::move(response);
                out->changed.notify_all();
            });
            return nullptr;
        },
        &job);
    require(started == 0, "the small-stack thread starts");
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attributes);

    std::unique_lock lock(outcome.lock);
    outcome.changed.wait(lock, [&] { return outcome.answers > 0; });
    require(outcome.answers == 1, "every request is answered exactly once");
    checkAnswer(outcome.response);
    if (outcome.verdict && outcome.verdict->refusal) {
        checkAnswer(*outcome.verdict->refusal);
        // The header check answers only what the handler would have answered too.
        require(outcome.verdict->refusal->status == outcome.response.status,
                "the header check's refusal is the handler's answer",
                std::to_string(outcome.verdict->refusal->status) + " vs " + std::to_string(outcome.response.status));
    }
    return 0;
}

// Fuzzes whole HTTP requests: raw bytes on a socket to an OrderServer running in this process on a real SQLite
// file (no debug endpoints, so no fault can be armed; no background completer or reaper, so the database changes
// only through requests).
//
// Properties: the server never crashes and always answers with whole HTTP responses; it never answers 5xx; a JSON
// answer is whole JSON; every error is application/problem+json, valid JSON, with one of the documented problem
// types; and when nothing was accepted (no 2xx and no stored outcome), both database files are exactly as before.
#include "OrderServer.h"
#include "support/DatabaseSnapshot.h"
#include "support/FuzzCheck.h"
#include "support/Json.h"
#include "support/RawHttp.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <thread>

using namespace onceorder::server;
using onceorder::fuzz::require;

namespace {

// docs/openapi.yaml's problem types that a request can reach here (no debug endpoints, no faults armed).
const std::set<std::string> kDocumentedTypes = {"/problems/unauthenticated",
                                                "/problems/unknown-api-key",
                                                "/problems/operator-cannot-order",
                                                "/problems/operator-only",
                                                "/problems/missing-idempotency-key",
                                                "/problems/invalid-idempotency-key",
                                                "/problems/unsupported-media-type",
                                                "/problems/payload-too-large",
                                                "/problems/malformed-json",
                                                "/problems/invalid-order",
                                                "/problems/unknown-product",
                                                "/problems/invalid-limit",
                                                "/problems/invalid-stock",
                                                "/problems/idempotency-key-reused",
                                                "/problems/request-in-progress",
                                                "/problems/out-of-stock",
                                                "/problems/cart-already-ordered",
                                                "/problems/payment-declined",
                                                "/problems/invalid-payment-method",
                                                "/problems/invalid-webhook-signature",
                                                "/problems/invalid-webhook",
                                                "/problems/unknown-payment-reference",
                                                "/problems/not-found",
                                                "/problems/http-error",
                                                "/problems/invalid-host",
                                                "/problems/invalid-framing",
                                                "/problems/uri-too-long",
                                                "/problems/header-too-large",
                                                "/problems/chunk-line-too-large",
                                                "/problems/trailer-too-large",
                                                "/problems/body-not-allowed",
                                                "/problems/invalid-target",
                                                "/problems/transfer-coding-not-implemented",
                                                "/problems/rate-limited",
                                                "/problems/key-quota-exceeded"};

// Answers that are stored with the key (or are the order itself): the only ones allowed to change the database.
const std::set<std::string> kStoredTypes = {"/problems/out-of-stock", "/problems/cart-already-ordered",
                                            "/problems/payment-declined"};

// The fixture's folder, removed when the process exits (the fixture itself is never destroyed, see fixture()).
std::filesystem::path& fixtureFolder()
{
    static auto* folder = new std::filesystem::path();
    return *folder;
}

class Fixture
{
public:
    Fixture()
    {
        std::string pattern = (std::filesystem::temp_directory_path() / "onceorder-fuzz-XXXXXX").string();
        require(mkdtemp(pattern.data()) != nullptr, "a temporary folder can be made");
        m_dir = pattern;
        fixtureFolder() = m_dir;
        std::atexit([] {
            std::error_code ignored;
            std::filesystem::remove_all(fixtureFolder(), ignored);
        });
        m_options.port = 0;
        m_options.dbPath = (m_dir / "server.db").string();
        m_options.threads = 4; // a checkout's webhook needs a second worker
        m_options.completerInterval = std::chrono::milliseconds(0);
        m_options.reapInterval = std::chrono::hours(24);
        m_options.headerTimeout = std::chrono::milliseconds(5); // all bytes are sent before the server reads
        m_options.synchronous = Synchronous::Normal; // durability across power loss is not what is fuzzed
        m_server = std::make_unique<OrderServer>(m_options, m_clock);
        m_port = m_server->bind();
        require(m_port > 0, "the server binds a free port");
        m_serving = std::thread([this] { m_server->run(); });
        m_last = snapshot();
    }

    int port() const { return m_port; }
    std::string snapshot() const
    {
        return onceorder::fuzz::databaseSnapshot(m_options.dbPath) +
            onceorder::fuzz::databaseSnapshot((m_dir / "server.gateway.db").string());
    }

    const std::string& lastSnapshot() const { return m_last; }
    void setLastSnapshot(std::string snapshot) { m_last = std::move(snapshot); }

private:
    std::filesystem::path m_dir;
    SystemClock m_clock;
    ServerOptions m_options;
    std::unique_ptr<OrderServer> m_server;
    int m_port = -1;
    std::thread m_serving;
    std::string m_last;
};

// Never destroyed: libFuzzer ends the process with exit(), and the server's threads must not run on into a
// destroyed fixture.
Fixture& fixture()
{
    static Fixture* instance = new Fixture();
    return *instance;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    fixture();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view request(reinterpret_cast<const char*>(data), size);
    Fixture& server = fixture();
    const auto exchange = onceorder::fuzz::sendRaw(server.port(), request);
    require(!exchange.unframed, "the server sends only whole HTTP responses");

    bool accepted = false;
    for (const auto& response : exchange.responses) {
        // 501 is the one 5xx a request can earn: a transfer coding before the final chunked (RFC 9112 §6.1).
        require((response.status >= 200 && response.status < 500) ||
                    (response.status == 501 &&
                     response.body.find("/problems/transfer-coding-not-implemented") != std::string::npos),
                "no request is answered 5xx", response.headers + response.body);
        if (response.status < 300) {
            accepted = true;
            if (response.headers.find("Content-Type: application/json") != std::string::npos) {
                require(std::holds_alternative<JsonValue>(parseJson(response.body)), "every JSON answer is whole JSON",
                        response.headers + response.body);
            }
            continue;
        }
        require(response.headers.find("Content-Type: application/problem+json") != std::string::npos,
                "every error is application/problem+json", response.headers);
        const auto parsed = parseJson(response.body);
        require(std::holds_alternative<JsonValue>(parsed), "every problem body is valid JSON", response.body);
        const JsonValue* type = std::get<JsonValue>(parsed).member("type");
        require(type && type->isString(), "every problem has a type", response.body);
        const auto& typeText = std::get<std::string>(type->value);
        require(kDocumentedTypes.count(typeText) == 1, "every problem type is documented", typeText);
        accepted = accepted || kStoredTypes.count(typeText) == 1;
    }
    // Nothing but requests changes the files (no completer, no reaper, no faults), so the state after the last input
    // is the state before this one: one snapshot per input instead of two.
    const std::string after = server.snapshot();
    if (!accepted) {
        require(after == server.lastSnapshot(), "a refused request leaves the database unchanged",
                std::string(request.substr(0, 200)));
    }
    server.setLastSnapshot(after);
    return 0;
}

// Fuzzes whole HTTP requests: raw bytes on a socket to an OrderServer running in this process on a real SQLite
// file (no debug endpoints, so no fault can be armed; no background completer or reaper, so the database changes
// only through requests and the webhooks a checkout's charge sends, which are waited for after each input).
//
// Properties: the server never crashes and always answers with whole HTTP responses; it never answers 5xx; a JSON
// answer is whole JSON; every error is application/problem+json, valid JSON, with one of the documented problem
// types; and when nothing was accepted (no 2xx and no stored outcome), both database files are exactly as before.
#include "OrderServer.h"
#include "support/DatabaseSnapshot.h"
#include "support/FuzzCheck.h"
#include "support/Json.h"
#include "support/RawHttp.h"
#include "support/ServedInProcess.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
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

// The lines of one snapshot that the other lacks, "-" before and "+" after: which rows a refused request changed.
std::string changedLines(const std::string& before, const std::string& after)
{
    const auto lines = [](const std::string& text) {
        std::set<std::string> set;
        std::size_t start = 0;
        for (std::size_t end = text.find('\n'); end != std::string::npos; end = text.find('\n', start)) {
            set.insert(text.substr(start, end - start));
            start = end + 1;
        }
        return set;
    };
    const auto was = lines(before);
    const auto is = lines(after);
    std::string changed;
    for (const auto& line : was) {
        changed += is.count(line) ? "" : "  - " + line + "\n";
    }
    for (const auto& line : is) {
        changed += was.count(line) ? "" : "  + " + line + "\n";
    }
    return changed;
}

class Fixture
{
public:
    Fixture()
        : m_served("fuzz", [](ServerOptions& options) {
            options.threads = 4; // a checkout's webhook needs a second worker
            options.headerTimeout = std::chrono::milliseconds(5); // all bytes are sent before the server reads
        })
    {
        m_last = snapshot();
    }

    int port() const { return m_served.port(); }
    std::string snapshot() const
    {
        return onceorder::fuzz::databaseSnapshot(m_served.options().dbPath) +
            onceorder::fuzz::databaseSnapshot((m_served.folder() / "server.gateway.db").string());
    }

    // Waits (at most 5 s) until the gateway has no webhook left to deliver; false if one is still pending then.
    bool webhooksDelivered() const
    {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (onceorder::fuzz::pendingWebhooks((m_served.folder() / "server.gateway.db").string()) > 0) {
            if (std::chrono::steady_clock::now() > deadline) {
                return false;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        return true;
    }

    const std::string& lastSnapshot() const { return m_last; }
    bool lastSnapshotSettled() const { return m_lastSettled; }
    void setLastSnapshot(std::string snapshot, bool settled)
    {
        m_last = std::move(snapshot);
        m_lastSettled = settled;
    }

private:
    onceorder::fuzz::ServedInProcess m_served;
    std::string m_last;
    bool m_lastSettled = true;
};

// Never destroyed (support/ServedInProcess.h).
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
    // Nothing but requests changes the files (no completer, no reaper, no faults) and the webhooks a checkout's charge
    // sends, which the gateway's own thread delivers after the checkout was answered: once they are delivered, the
    // state after the last input is the state before this one (one snapshot per input instead of two). If they are
    // not delivered in time, the next input is not judged.
    const bool settled = server.webhooksDelivered();
    const std::string after = server.snapshot();
    if (!accepted && server.lastSnapshotSettled()) {
        require(after == server.lastSnapshot(), "a refused request leaves the database unchanged",
                std::string(request.substr(0, 200)) + "\n  rows changed:\n" +
                    changedLines(server.lastSnapshot(), after));
    }
    server.setLastSnapshot(after, settled);
    return 0;
}

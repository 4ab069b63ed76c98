// Http: small helpers over httplib::Client for the end-to-end tests.
#pragma once

#include <httplib.h>

#include <chrono>
#include <regex>
#include <string>
#include <thread>

namespace onceorder::test {

struct Reply
{
    int status = 0; // 0: no response (connection error)
    std::string body;
    httplib::Headers headers;

    bool replayed() const
    {
        auto it = headers.find("Idempotent-Replayed");
        return it != headers.end() && it->second == "true";
    }
    std::string header(const std::string& name) const
    {
        auto it = headers.find(name);
        return it == headers.end() ? std::string() : it->second;
    }
    // The "type" of a problem+json body, e.g. "/problems/out-of-stock".
    std::string problemType() const { return field("type"); }
    // A top-level string or number field of a flat JSON body, as text (enough for assertions).
    std::string field(const std::string& name) const
    {
        const std::regex pattern("\"" + name + "\":(\"([^\"]*)\"|(-?[0-9]+))");
        std::smatch match;
        if (!std::regex_search(body, match, pattern)) {
            return {};
        }
        return match[2].matched ? match[2].str() : match[3].str();
    }
};

inline Reply toReply(const httplib::Result& result)
{
    Reply reply;
    if (result) {
        reply.status = result->status;
        reply.body = result->body;
        reply.headers = result->headers;
    }
    return reply;
}

inline Reply postOrder(httplib::Client& client, const std::string& apiKey, const std::string& key,
                       const std::string& body)
{
    httplib::Headers headers {{"Authorization", "Bearer " + apiKey}};
    if (!key.empty()) {
        headers.emplace("Idempotency-Key", "\"" + key + "\"");
    }
    return toReply(client.Post("/orders", headers, body, "application/json"));
}

inline Reply get(httplib::Client& client, const std::string& path, const std::string& apiKey = {})
{
    httplib::Headers headers;
    if (!apiKey.empty()) {
        headers.emplace("Authorization", "Bearer " + apiKey);
    }
    return toReply(client.Get(path.c_str(), headers));
}

inline Reply postJson(httplib::Client& client, const std::string& path, const std::string& body)
{
    return toReply(client.Post(path.c_str(), body, "application/json"));
}

// Waits until `done()` holds or the deadline passes (then false): for what a server does on a thread of its own,
// such as delivering a webhook. Polls, yielding between looks; never a fixed sleep.
template<typename Condition>
bool waitUntil(Condition done, std::chrono::milliseconds deadline = std::chrono::seconds(10))
{
    const auto until = std::chrono::steady_clock::now() + deadline;
    while (!done()) {
        if (std::chrono::steady_clock::now() >= until) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

// Occurrences of a substring, e.g. "\"order_id\":" in a listing.
inline int countOf(const std::string& text, const std::string& needle)
{
    int count = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) {
        ++count;
    }
    return count;
}

} // namespace onceorder::test

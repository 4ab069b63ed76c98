// DatabaseSnapshot: every row of every table of a SQLite file as text, so a fuzzer can tell whether a request
// changed anything.
#pragma once

#include <string>

namespace onceorder::fuzz {

// Tables in name order, each table's rows sorted; empty if the file cannot be read.
std::string databaseSnapshot(const std::string& path);

// The stub gateway's webhook deliveries not yet acknowledged nor given up (WebhookOutbox::pendingCount), read from
// the gateway's file; 0 if it cannot be read.
long long pendingWebhooks(const std::string& gatewayPath);

} // namespace onceorder::fuzz

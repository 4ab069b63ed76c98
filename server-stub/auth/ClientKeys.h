// ClientKeys: the clients a store knows, by the hash of their API key, as loaded at start. A key is looked up by
// hashing it once and comparing that hash with every stored one in constant time (no early exit): how long a lookup
// takes says nothing about which stored hash a guess came close to.
#pragma once

#include "auth/Client.h"

#include <optional>
#include <string>
#include <vector>

namespace onceorder::server {

class ClientKeys
{
public:
    struct Entry
    {
        std::string keyHash; // apikeys::hash of the key
        Client client;
    };

    void add(std::string keyHash, Client client);
    std::optional<Client> find(const std::string& apiKey) const;

    const std::vector<Entry>& entries() const { return m_entries; }
    // Whether any published demo key opens a door here.
    bool holdsPublishedKeys() const;
    // Stops accepting the published operator key (demo-key-admin): beyond loopback the operator's key is never one
    // that anyone can read in the docs.
    void refusePublishedOperatorKey();
    bool hasOperator() const;

private:
    std::vector<Entry> m_entries;
};

} // namespace onceorder::server

#include "auth/ClientKeys.h"

#include "auth/ApiKeys.h"

#include <algorithm>

namespace onceorder::server {

void ClientKeys::add(std::string keyHash, Client client)
{
    m_entries.push_back({std::move(keyHash), std::move(client)});
}

std::optional<Client> ClientKeys::find(const std::string& apiKey) const
{
    const std::string wanted = apikeys::hash(apiKey);
    const Entry* found = nullptr;
    for (const auto& entry : m_entries) {
        const bool same = apikeys::constantTimeEquals(entry.keyHash, wanted);
        found = same ? &entry : found;
    }
    return found ? std::optional<Client>(found->client) : std::nullopt;
}

bool ClientKeys::holdsPublishedKeys() const
{
    return std::any_of(m_entries.begin(), m_entries.end(),
                       [](const Entry& entry) { return apikeys::isPublished(entry.keyHash); });
}

void ClientKeys::refusePublishedOperatorKey()
{
    std::erase_if(m_entries,
                  [](const Entry& entry) { return entry.client.isOperator && apikeys::isPublished(entry.keyHash); });
}

bool ClientKeys::hasOperator() const
{
    return std::any_of(m_entries.begin(), m_entries.end(), [](const Entry& entry) { return entry.client.isOperator; });
}

} // namespace onceorder::server

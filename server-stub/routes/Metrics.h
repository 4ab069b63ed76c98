// Metrics: the server's Prometheus counters and histogram, rendered in the text exposition format.
#pragma once

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace onceorder::server {

class Metrics
{
public:
    Metrics();

    void recordRequest(const std::string& route, const std::string& outcome, double seconds);
    void recordOrderCreated();
    void recordKeysReaped(int count);
    void recordCheckoutsCompleted(int count);
    void recordCompleterErrors(int count);
    // A request refused 429 because its client was over its rate (routes/ClientRate).
    void recordRateLimited(const std::string& client);
    // A request refused 429 because its client had used its key rows for the day (auth/KeyRowQuota).
    void recordKeyQuotaExceeded(const std::string& client);
    std::string render() const;

private:
    struct Series
    {
        prometheus::Counter* requests;
        prometheus::Histogram* latency;
    };

    std::shared_ptr<prometheus::Registry> m_registry;
    prometheus::Family<prometheus::Counter>& m_requests;
    prometheus::Family<prometheus::Histogram>& m_latency;
    prometheus::Counter& m_ordersCreated;
    prometheus::Counter& m_keysReaped;
    prometheus::Counter& m_checkoutsCompleted;
    prometheus::Counter& m_completerErrors;
    prometheus::Family<prometheus::Counter>& m_rateLimited;
    prometheus::Family<prometheus::Counter>& m_keyQuotaExceeded;
    std::mutex m_seriesLock;
    std::map<std::string, std::map<std::string, Series, std::less<>>, std::less<>> m_series; // route, outcome
};

} // namespace onceorder::server

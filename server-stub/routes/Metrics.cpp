#include "routes/Metrics.h"

#include <prometheus/text_serializer.h>

#include <sstream>

namespace onceorder::server {

Metrics::Metrics()
    : m_registry(std::make_shared<prometheus::Registry>())
    , m_requests(prometheus::BuildCounter()
                     .Name("onceorder_requests_total")
                     .Help("HTTP requests by route and outcome (created, replayed, mismatch, in-progress, ...)")
                     .Register(*m_registry))
    , m_latency(prometheus::BuildHistogram()
                    .Name("onceorder_request_duration_seconds")
                    .Help("Time from request to response, by route")
                    .Register(*m_registry))
    , m_ordersCreated(prometheus::BuildCounter()
                          .Name("onceorder_orders_created_total")
                          .Help("Orders written (each one exactly once)")
                          .Register(*m_registry)
                          .Add({}))
    , m_keysReaped(prometheus::BuildCounter()
                       .Name("onceorder_idempotency_keys_reaped_total")
                       .Help("Expired idempotency keys deleted by the reaper")
                       .Register(*m_registry)
                       .Add({}))
    , m_checkoutsCompleted(prometheus::BuildCounter()
                               .Name("onceorder_checkouts_completed_total")
                               .Help("Abandoned checkouts the completer brought to their final answer")
                               .Register(*m_registry)
                               .Add({}))
    , m_completerErrors(prometheus::BuildCounter()
                            .Name("onceorder_completer_errors_total")
                            .Help("Abandoned checkouts the completer skipped because of an error (logged)")
                            .Register(*m_registry)
                            .Add({}))
    , m_rateLimited(prometheus::BuildCounter()
                        .Name("onceorder_rate_limited_total")
                        .Help("Requests answered 429 because their client was over its rate, by client")
                        .Register(*m_registry))
    , m_keyQuotaExceeded(prometheus::BuildCounter()
                             .Name("onceorder_key_quota_exceeded_total")
                             .Help("Requests answered 429 because their client had made its quota of key rows in the "
                                   "last 24 hours, by client")
                             .Register(*m_registry))
{
}

void Metrics::recordRequest(const std::string& route, const std::string& outcome, double seconds)
{
    static const prometheus::Histogram::BucketBoundaries kBuckets {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                                                   0.05,   0.1,   0.25,   0.5,   1,    2.5};
    Series series {};
    {
        // Family::Add builds a label map and a new histogram to look up an existing series (a tenth of a
        // /healthz request); the series of a route and outcome are looked up there once and remembered.
        // Family::Add returns references that stay valid: no series is ever removed.
        std::lock_guard lock(m_seriesLock);
        auto& outcomes = m_series[route];
        auto found = outcomes.find(outcome);
        if (found == outcomes.end()) {
            found = outcomes
                        .emplace(outcome,
                                 Series {&m_requests.Add({{"route", route}, {"outcome", outcome}}),
                                         &m_latency.Add({{"route", route}}, kBuckets)})
                        .first;
        }
        series = found->second;
    }
    series.requests->Increment();
    series.latency->Observe(seconds);
}

void Metrics::recordOrderCreated()
{
    m_ordersCreated.Increment();
}

void Metrics::recordKeysReaped(int count)
{
    m_keysReaped.Increment(count);
}

void Metrics::recordCheckoutsCompleted(int count)
{
    m_checkoutsCompleted.Increment(count);
}

void Metrics::recordCompleterErrors(int count)
{
    m_completerErrors.Increment(count);
}

void Metrics::recordRateLimited(const std::string& client)
{
    // Family::Add finds the client's existing counter (clients are the operator's: their number is bounded).
    m_rateLimited.Add({{"client", client}}).Increment();
}

void Metrics::recordKeyQuotaExceeded(const std::string& client)
{
    m_keyQuotaExceeded.Add({{"client", client}}).Increment();
}

std::string Metrics::render() const
{
    std::ostringstream out;
    prometheus::TextSerializer().Serialize(out, m_registry->Collect());
    return out.str();
}

} // namespace onceorder::server

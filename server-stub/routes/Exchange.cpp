#include "routes/Exchange.h"

namespace onceorder::server {

void answer(HttpResponse& res, int status, const std::string& json)
{
    res.status = status;
    res.setContent(json, "application/json");
}

void answer(HttpResponse& res, const Problem& problem, Exchange& exchange)
{
    res.status = problem.status;
    res.setContent(problem.body(), kProblemContentType);
    if (problem.retryAfterSeconds) {
        res.setHeader("Retry-After", std::to_string(*problem.retryAfterSeconds));
    }
    exchange.outcome = problem.slug;
    exchange.rerunnable = problem.rerunnable;
}

} // namespace onceorder::server

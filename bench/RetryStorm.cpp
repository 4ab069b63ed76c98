// RetryStorm: N clients retrying against a server that is down for a while and then has a fixed capacity per
// 100 ms, as a discrete-event simulation in simulated time (no sleeping). Every retry delay comes from the real
// core::RetryPolicy::decide with a seeded random source, once per jitter strategy, so the numbers reproduce
// "Exponential Backoff And Jitter" (AWS Architecture Blog, 2015) with the client's own code.
//
// onceorder-retry-storm [--clients 10,100,1000] [--down-ms 10000] [--capacity 10] [--start-spread-ms 0]
//                       [--seeds 5] [--chart-dir DIR [--chart-clients 100] [--chart-bucket-ms 500]
//                       [--chart-until-ms 60000]]
// prints one Markdown table: per client count and strategy, the median over the seeds of the total calls, the
// calls once the server is up, the time until every client is done, the peak calls in any 100 ms window (overall
// and once the server is up), and how many clients gave up. With --chart-dir it also draws the calls over time per
// strategy (seed 1, --chart-clients clients) with the server's capacity as retry-storm.png and retry-storm.svg, the
// same kind of chart as the thundering-herd scenario's.
#include "ScenarioChartExporter.h"
#include "retry/Clock.h"
#include "retry/RetryPolicy.h"
#include "teaching/Scenario.h"

#include <QApplication>
#include <QDir>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <queue>
#include <string>
#include <vector>

using namespace onceorder::core;

namespace {

constexpr qint64 kWindowMs = 100;

struct Storm
{
    int clients = 100;
    qint64 downMs = 10'000; // every call before this fails (the server is down)
    int capacityPerWindow = 10; // then at most this many calls per 100 ms succeed; the rest get a 503
    qint64 startSpreadMs = 0; // first attempts uniformly in [0, spread); 0 = all at once, as in the article
};

struct Result
{
    long long calls = 0;
    long long callsWhileUp = 0; // the calls the recovering server has to answer (refused ones cost it nothing)
    qint64 doneMs = 0; // when the last client finished (placed or gave up)
    int peakPerWindow = 0; // over the whole run, the t = 0 burst of first attempts included
    int peakWhileUp = 0; // once the server is back: the load the jitter strategy leaves it with
    int gaveUp = 0;
};

struct Event
{
    qint64 atMs;
    long long sequence; // ties in arrival order, so the run is deterministic
    int client;
    bool operator>(const Event& other) const
    {
        return atMs != other.atMs ? atMs > other.atMs : sequence > other.sequence;
    }
};

struct ClientState
{
    int attempts = 0;
    qint64 firstAttemptMs = 0;
    qint64 previousDelayMs = 0;
};

// callsOut (optional): every call, admitted or not, per 100 ms window.
Result simulate(const Storm& scenario, JitterStrategy jitter, quint64 seed, std::map<qint64, int>* callsOut = nullptr)
{
    RetryPolicyConfig config; // the client's defaults: base 500 ms, cap 30 s, 15 min window
    config.jitter = jitter;
    const RetryPolicy policy(config);
    SeededRandom random(seed);

    std::priority_queue<Event, std::vector<Event>, std::greater<>> queue;
    long long sequence = 0;
    std::vector<ClientState> clients(static_cast<std::size_t>(scenario.clients));
    for (int i = 0; i < scenario.clients; ++i) {
        const qint64 start = scenario.startSpreadMs > 0
            ? static_cast<qint64>(random.uniform() * static_cast<double>(scenario.startSpreadMs))
            : 0;
        clients[static_cast<std::size_t>(i)].firstAttemptMs = start;
        queue.push({start, sequence++, i});
    }

    Result result;
    std::map<qint64, int> callsPerWindow; // every call, admitted or not
    std::map<qint64, int> admittedPerWindow;
    while (!queue.empty()) {
        const Event event = queue.top();
        queue.pop();
        ClientState& client = clients[static_cast<std::size_t>(event.client)];
        ++client.attempts;
        ++result.calls;
        const qint64 window = event.atMs / kWindowMs;
        const int inWindow = ++callsPerWindow[window];
        result.peakPerWindow = std::max(result.peakPerWindow, inWindow);

        const bool up = event.atMs >= scenario.downMs;
        if (up) {
            ++result.callsWhileUp;
            // Windows are aligned to the recovery time only if downMs is a multiple of 100 ms (the default is).
            result.peakWhileUp = std::max(result.peakWhileUp, inWindow);
        }
        const bool admitted = up && admittedPerWindow[window] < scenario.capacityPerWindow;
        if (admitted) {
            ++admittedPerWindow[window];
            result.doneMs = std::max(result.doneMs, event.atMs);
            continue;
        }
        // Down: the connection is refused (not sent); over capacity: 503 without Retry-After, so the policy's
        // own backoff decides (a Retry-After would override the jitter strategy under test).
        const AttemptOutcome outcome = up ? AttemptOutcome::RetryLater : AttemptOutcome::NotSent;
        const RetryDecision decision = policy.decide(outcome, client.attempts, client.firstAttemptMs, event.atMs,
                                                     std::nullopt, client.previousDelayMs, random);
        if (!decision.retry) {
            ++result.gaveUp;
            result.doneMs = std::max(result.doneMs, event.atMs);
            continue;
        }
        client.previousDelayMs = decision.delayMs;
        queue.push({event.atMs + decision.delayMs, sequence++, event.client});
    }
    if (callsOut != nullptr) {
        *callsOut = std::move(callsPerWindow);
    }
    return result;
}

template<typename T>
T median(std::vector<T> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

std::vector<int> parseList(const std::string& text)
{
    std::vector<int> values;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        values.push_back(std::atoi(text.substr(start, comma - start).c_str()));
        if (comma == std::string::npos) {
            break;
        }
        start = comma + 1;
    }
    return values;
}

const char* name(JitterStrategy jitter)
{
    switch (jitter) {
    case JitterStrategy::None:
        return "none";
    case JitterStrategy::Full:
        return "full";
    case JitterStrategy::Equal:
        return "equal";
    case JitterStrategy::Decorrelated:
        return "decorrelated";
    }
    return "?";
}

struct ChartOptions
{
    std::string dir; // empty: no chart
    int clients = 100;
    qint64 bucketMs = 500;
    qint64 untilMs = 60'000;
};

// Calls per bucket over time, one series per strategy, and the capacity per bucket as the dashed line.
int writeChart(int argc, char** argv, Storm scenario, const ChartOptions& options)
{
    // Qt Charts draw through widgets: a QApplication, offscreen unless a platform was chosen.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    scenario.clients = options.clients;
    ScenarioChart chart;
    chart.title = QStringLiteral("Retry storm: %1 clients, server down %2 s, then %3 calls per 100 ms")
                      .arg(options.clients)
                      .arg(static_cast<double>(scenario.downMs) / 1000.0)
                      .arg(scenario.capacityPerWindow);
    chart.xTitle = QStringLiteral("ms since the first attempt");
    chart.yTitle = QStringLiteral("calls per %1 ms").arg(options.bucketMs);
    chart.bucketMs = static_cast<int>(options.bucketMs);
    chart.capacity = static_cast<int>(scenario.capacityPerWindow * options.bucketMs / kWindowMs);
    chart.capacityName = QStringLiteral("what the server admits once it is back (after %1 s)")
                             .arg(static_cast<double>(scenario.downMs) / 1000.0);
    const qsizetype buckets = static_cast<qsizetype>(options.untilMs / options.bucketMs);
    for (const JitterStrategy jitter :
         {JitterStrategy::None, JitterStrategy::Full, JitterStrategy::Equal, JitterStrategy::Decorrelated}) {
        std::map<qint64, int> calls;
        simulate(scenario, jitter, 1, &calls);
        ChartSeries series;
        series.name = jitter == JitterStrategy::None
            ? QStringLiteral("no jitter")
            : QStringLiteral("%1 jitter").arg(QString::fromLatin1(name(jitter)));
        series.values.fill(0, buckets);
        for (const auto& [window, count] : calls) {
            const qint64 bucket = window * kWindowMs / options.bucketMs;
            if (bucket < buckets) {
                series.values[static_cast<qsizetype>(bucket)] += count;
            }
        }
        chart.series.append(series);
    }
    const QDir dir(QString::fromStdString(options.dir));
    if (!QDir().mkpath(dir.path())) {
        std::fprintf(stderr, "onceorder-retry-storm: cannot create %s\n", options.dir.c_str());
        return 1;
    }
    onceorder::ui::ScenarioChartExporter exporter;
    QString error;
    if (!exporter.write(chart, dir.filePath(QStringLiteral("retry-storm.png")),
                        dir.filePath(QStringLiteral("retry-storm.svg")), &error)) {
        std::fprintf(stderr, "onceorder-retry-storm: %s\n", error.toUtf8().constData());
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<int> clientCounts {10, 100, 1000};
    Storm scenario;
    int seeds = 5;
    ChartOptions chartOptions;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        const std::string value = argv[i + 1];
        if (flag == "--clients") {
            clientCounts = parseList(value);
        } else if (flag == "--down-ms") {
            scenario.downMs = std::atoll(value.c_str());
        } else if (flag == "--capacity") {
            scenario.capacityPerWindow = std::atoi(value.c_str());
        } else if (flag == "--start-spread-ms") {
            scenario.startSpreadMs = std::atoll(value.c_str());
        } else if (flag == "--seeds") {
            seeds = std::max(1, std::atoi(value.c_str()));
        } else if (flag == "--chart-dir") {
            chartOptions.dir = value;
        } else if (flag == "--chart-clients") {
            chartOptions.clients = std::max(1, std::atoi(value.c_str()));
        } else if (flag == "--chart-bucket-ms") {
            chartOptions.bucketMs = std::max<qint64>(kWindowMs, std::atoll(value.c_str()) / kWindowMs * kWindowMs);
        } else if (flag == "--chart-until-ms") {
            chartOptions.untilMs = std::max<qint64>(kWindowMs, std::atoll(value.c_str()));
        } else {
            std::fprintf(stderr, "onceorder-retry-storm: unknown flag %s\n", flag.c_str());
            return 2;
        }
    }
    if (argc % 2 == 0) {
        std::fprintf(stderr, "onceorder-retry-storm: every flag takes a value\n");
        return 2;
    }

    const RetryPolicyConfig defaults;
    std::printf("Server down for %lld ms, then %d calls per 100 ms; first attempts %s; policy base %lld ms, cap %lld "
                "ms, window %lld s; median of %d seeds (min-max of calls in brackets).\n\n",
                static_cast<long long>(scenario.downMs), scenario.capacityPerWindow,
                scenario.startSpreadMs > 0 ? ("spread over " + std::to_string(scenario.startSpreadMs) + " ms").c_str()
                                           : "all at t = 0",
                static_cast<long long>(defaults.baseDelayMs), static_cast<long long>(defaults.maxDelayMs),
                static_cast<long long>(defaults.retryWindowMs / 1000), seeds);
    std::printf("| clients | jitter | calls | calls/client | calls vs none | calls while up | done after (s) | "
                "peak calls/100 ms | peak while up | gave up |\n");
    std::printf("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const int clients : clientCounts) {
        scenario.clients = clients;
        long long noJitterCalls = 0;
        for (const JitterStrategy jitter :
             {JitterStrategy::None, JitterStrategy::Full, JitterStrategy::Equal, JitterStrategy::Decorrelated}) {
            std::vector<long long> calls;
            std::vector<qint64> done;
            std::vector<int> peaks;
            std::vector<long long> callsUp;
            std::vector<int> peaksUp;
            std::vector<int> gaveUp;
            for (int seed = 1; seed <= seeds; ++seed) {
                const Result result = simulate(scenario, jitter, static_cast<quint64>(seed));
                calls.push_back(result.calls);
                done.push_back(result.doneMs);
                peaks.push_back(result.peakPerWindow);
                callsUp.push_back(result.callsWhileUp);
                peaksUp.push_back(result.peakWhileUp);
                gaveUp.push_back(result.gaveUp);
            }
            const long long medianCalls = median(calls);
            if (jitter == JitterStrategy::None) {
                noJitterCalls = medianCalls;
            }
            std::printf("| %d | %s | %lld [%lld-%lld] | %.1f | %.2f | %lld | %.1f | %d | %d | %d |\n", clients,
                        name(jitter), medianCalls, *std::min_element(calls.begin(), calls.end()),
                        *std::max_element(calls.begin(), calls.end()), static_cast<double>(medianCalls) / clients,
                        static_cast<double>(medianCalls) / static_cast<double>(noJitterCalls), median(callsUp),
                        static_cast<double>(median(done)) / 1000.0, median(peaks), median(peaksUp), median(gaveUp));
        }
    }
    return chartOptions.dir.empty() ? 0 : writeChart(argc, argv, scenario, chartOptions);
}

// How the client retries: a new key per retry (the client's mistake), Retry-After and going offline, and the
// thundering herd that jitter prevents.
#include "teaching/scenarios/ScenarioSteps.h"
#include "teaching/scenarios/Scenarios.h"

#include "net/NetworkConditioner.h"
#include "teaching/KeyPerClick.h"

#include <QDateTime>
#include <QLocale>

#include <algorithm>
#include <memory>

namespace onceorder::core::scenarios {

namespace {

EngineConfig perClickConfig()
{
    EngineConfig config = fastEngineConfig();
    config.keys = std::make_shared<KeyPerClick>();
    return config;
}

// Thundering herd: many pending carts after an outage, with and without jitter.

// A hundred: on a projector the lockstep is a wall and the jittered retries a low ripple (ten looked like noise).
constexpr int kHerdCarts = 100;
constexpr int kHerdOutageMs = 600;
constexpr int kHerdWindowMs = 200;

// The most retries planned (or started) within any kHerdWindowMs.
int peakWithinWindow(QList<qint64> starts)
{
    std::sort(starts.begin(), starts.end());
    int peak = 0;
    qsizetype first = 0;
    for (qsizetype last = 0; last < starts.size(); ++last) {
        while (starts[last] - starts[first] >= kHerdWindowMs) {
            ++first;
        }
        peak = std::max(peak, static_cast<int>(last - first + 1));
    }
    return peak;
}

// A line on the chart for the slide, not a measurement: what a server just back from an outage might take per
// 100 ms. The lockstep of the 100 carts rises far above it; their jittered retries stay around or below it.
constexpr int kHerdCapacityPer100Ms = 25;

// Retries per 100 ms from `fromMs`, in the table as text for a slide: "0 0 0 0 0 0 0 0 7 3".
QList<int> retriesPer100Ms(const QList<qint64>& starts, qint64 fromMs)
{
    QList<int> buckets;
    for (const qint64 start : starts) {
        const auto index = static_cast<qsizetype>(std::max<qint64>(0, start - fromMs) / 100);
        while (buckets.size() <= index) {
            buckets.append(0);
        }
        ++buckets[index];
    }
    return buckets;
}

QString seriesText(const QList<int>& buckets)
{
    QStringList texts;
    for (const int count : buckets) {
        texts.append(QString::number(count));
    }
    return texts.join(u' ');
}

// For the chart: how many retries started within the 100 ms before each 10 ms step after the cut. Fixed 100 ms
// buckets would cut a lockstep that falls on a bucket's edge in two halves and hide it; a moving window does not.
constexpr int kChartStepMs = 10;

QList<int> retriesWithin100Ms(QList<qint64> starts, qint64 fromMs)
{
    std::sort(starts.begin(), starts.end());
    QList<int> counts;
    if (starts.isEmpty()) {
        return counts;
    }
    const qint64 last = starts.last() - fromMs;
    for (qint64 t = 0; t <= last + 100; t += kChartStepMs) {
        const auto inWindow = std::count_if(starts.begin(), starts.end(), [t, fromMs](qint64 start) {
            const qint64 at = start - fromMs;
            return at <= t && at > t - 100;
        });
        counts.append(static_cast<int>(inWindow));
    }
    // The steps stop short of the last retry's window end when it is not a multiple of kChartStepMs: the line must
    // still come down to the axis, or the slide shows the herd hanging at its last height.
    if (counts.last() != 0) {
        counts.append(0);
    }
    return counts;
}

// The herd's chart: one series per jitter strategy, against the capacity line.
void addToChart(ScenarioChart& chart, const QString& label, const QList<int>& counts)
{
    if (chart.isEmpty()) {
        chart.title = ScenarioText::tr("Retries within 100 ms, after %1 carts were cut at once").arg(kHerdCarts);
        chart.xTitle = ScenarioText::tr("ms after the cut");
        chart.yTitle = ScenarioText::tr("retries in 100 ms");
        chart.bucketMs = kChartStepMs;
        chart.capacity = kHerdCapacityPer100Ms;
        chart.capacityName =
            ScenarioText::tr("what a recovering server can take (assumed: %1 per 100 ms)").arg(kHerdCapacityPer100Ms);
    }
    chart.series.append({label, counts});
}

// The peak of one strategy, kept for the next step's comparison; keyed by the strategy, not by its translated label.
QString peakNote(JitterStrategy jitter)
{
    return QStringLiteral("peak-%1").arg(static_cast<int>(jitter));
}

// Waits until every cart's first request hangs in the blackhole, then cuts them all at once (as a server that
// dies with requests in flight): from that instant the clients' retry schedules are compared.
void cutWhenAllHang(ScenarioContext& c, std::function<void(qint64 cutMs)> done, int triesLeft = 1500)
{
    if (c.conditioner().counters().blackholed < kHerdCarts && triesLeft > 0) {
        c.after(20, [&c, done, triesLeft] { cutWhenAllHang(c, done, triesLeft - 1); });
        return;
    }
    c.conditioner().setMode(ConditionerMode::Offline);
    done(QDateTime::currentMSecsSinceEpoch());
}

ScenarioStep herdStep(const QString& label, JitterStrategy jitter, const QString& expected,
                      std::function<bool(int peak, const ScenarioContext&)> ok)
{
    return [=](ScenarioContext& c, Next next) {
        EngineConfig config = fastEngineConfig();
        config.policy.baseDelayMs = 800;
        config.policy.maxDelayMs = 3200;
        config.policy.jitter = jitter;
        c.conditioner().resetCounters();
        c.conditioner().setMode(ConditionerMode::Blackhole);
        struct Herd
        {
            // When each cart planned its first retry, counted from the cut they all saw at the same instant: the
            // schedule the clients computed. Judged on this, not on when the retries got out: every retry first
            // writes the outbox durably, one after another, and on a loaded machine those writes alone can smear
            // a perfect lockstep past any window.
            QList<qint64> plannedRetries;
            // Every retry's due time by its client's schedule (the first from the cut, later ones from the end of
            // the attempt before): what the chart and the per-100 ms row show, for the same reason. Real starts on
            // a busy machine smeared the lockstep of 100 carts over half a second and the slide showed a hill.
            QList<qint64> retriesDue;
            QList<qint64> retryStarts;
            int settled = 0;
            int placed = 0;
            qint64 cutMs = 0;
        };
        auto herd = std::make_shared<Herd>();
        cutWhenAllHang(c, [&c, herd](qint64 cutMs) {
            herd->cutMs = cutMs;
            c.after(kHerdOutageMs, [&c] { c.conditioner().setMode(ConditionerMode::Pass); });
        });
        for (int i = 0; i < kHerdCarts; ++i) {
            c.submit(cartOf(QStringLiteral("herd-%1-%2").arg(static_cast<int>(jitter)).arg(i)), config, {},
                     [&c, herd, label, jitter, expected, ok, next](const Submission& s) {
                         for (const Attempt& attempt : s.attempts) {
                             if (attempt.number == 1 && attempt.delayAfterMs >= 0) {
                                 herd->plannedRetries.append(herd->cutMs + attempt.delayAfterMs);
                             }
                             if (attempt.delayAfterMs >= 0 && attempt.number < s.attempts.size()) {
                                 herd->retriesDue.append((attempt.number == 1 ? herd->cutMs : attempt.endedMs) +
                                                         attempt.delayAfterMs);
                             }
                             if (attempt.number >= 2) {
                                 herd->retryStarts.append(attempt.startedMs);
                             }
                         }
                         herd->placed += s.state == SubmissionState::Placed ? 1 : 0;
                         if (++herd->settled < kHerdCarts) {
                             return;
                         }
                         // Judged on when each cart planned its first retry (see Herd::plannedRetries).
                         const int peak = herd->plannedRetries.size() == kHerdCarts
                             ? peakWithinWindow(herd->plannedRetries)
                             : 0; // a cart not cut with the others: no fair comparison
                         const QList<int> buckets = retriesPer100Ms(herd->retriesDue, herd->cutMs);
                         c.narrate(ScenarioText::tr("%1: retries per 100 ms after the cut").arg(label),
                                   seriesText(buckets));
                         addToChart(c.chart(), label, retriesWithin100Ms(herd->retriesDue, herd->cutMs));
                         const bool fine = herd->placed == kHerdCarts && ok(peak, c);
                         c.setNote(peakNote(jitter), peak);
                         c.verdict(ScenarioText::tr("%1: %2 requests cut at once, %3 s outage")
                                       .arg(label)
                                       .arg(kHerdCarts)
                                       .arg(QLocale().toString(kHerdOutageMs / 1000.0)),
                                   ScenarioText::tr("%1 placed, %2 retries, at most %3 within %4 ms")
                                       .arg(herd->placed)
                                       .arg(herd->retryStarts.size())
                                       .arg(peak)
                                       .arg(kHerdWindowMs),
                                   expected, fine, kHerdCarts, next);
                     });
        }
    };
}

} // namespace

Scenario newKeyPerRetry()
{
    return {QStringLiteral("new-key-per-retry"),
            ScenarioText::tr("A new key for every retry"),
            ScenarioText::tr(
                "A client that makes a fresh Idempotency-Key for each attempt defeats the server: after a lost "
                "response the retry looks like a new order. Without a business key (business_key_off mode) the cart "
                "is ordered twice. With UNIQUE(client_id, cart_id) the second order is refused as "
                "cart-already-ordered, naming the first one, which the client reads back and takes as its own: "
                "placed, one order."),
            {debugStep(QStringLiteral("mode"), R"({"business_key_off":true})",
                       ScenarioText::tr("no UNIQUE(client_id, cart_id)")),
             conditionerStep(ConditionerMode::DropResponse, ScenarioText::tr("the first answer is dropped")),
             submitStep(ScenarioText::tr("the mistake: cart submitted, new key per attempt"),
                        cartOf(QStringLiteral("cart-perclick")), ScenarioText::tr("placed twice: two orders"), 2,
                        verdicts::duplicatedNotReplayed, perClickConfig, passAfterFirstAttempt),
             resetStep(),
             conditionerStep(ConditionerMode::DropResponse, ScenarioText::tr("the first answer is dropped")),
             // Another cart id: the client's outbox knows cart-perclick as duplicated, so it would send nothing.
             submitStep(ScenarioText::tr("with the business key: cart submitted, new key per attempt"),
                        cartOf(QStringLiteral("cart-perclick-2")),
                        ScenarioText::tr("422 cart-already-ordered names the first order: placed, one order"), 1,
                        verdicts::placedThroughCartAlreadyOrdered, perClickConfig, passAfterFirstAttempt)}};
}

Scenario retryAfterAndOffline()
{
    return {
        QStringLiteral("retry-after-and-offline"),
        ScenarioText::tr("503 with Retry-After; offline, then back"),
        ScenarioText::tr(
            "An overloaded server answers 503 with Retry-After: 1; the client waits at least that long instead "
            "of its own short backoff, then places the order. When the network is gone (the conditioner stops "
            "listening, connections are refused), the client keeps its key and backs off; once the network is "
            "back the same submission completes. One order each."),
        {debugStep(QStringLiteral("faults"), R"({"fault":"unavailable","retry_after":1})",
                   ScenarioText::tr("the next request gets 503 with Retry-After: 1")),
         submitStep(ScenarioText::tr("cart 1 submitted"), cartOf(QStringLiteral("cart-retry-after")),
                    ScenarioText::tr("placed; the retry came ≥ 1 s after the 503"), 1, verdicts::placedAfterRetryAfter),
         conditionerStep(ConditionerMode::Offline, ScenarioText::tr("connections are refused")),
         submitStep(ScenarioText::tr("cart 2 submitted while offline"), cartOf(QStringLiteral("cart-offline")),
                    ScenarioText::tr("placed once the network is back, two orders in all"), 2,
                    verdicts::placedOnceBackOnline, fastEngineConfig,
                    [](ScenarioContext& c) -> std::function<void(const Submission&)> {
                        return [&c](const Submission& s) {
                            const auto refused =
                                std::count_if(s.attempts.begin(), s.attempts.end(),
                                              [](const Attempt& a) { return a.outcome == AttemptOutcome::NotSent; });
                            if (refused >= 2 && c.conditioner().mode() == ConditionerMode::Offline) {
                                c.conditioner().setMode(ConditionerMode::Pass);
                                c.narrate(ScenarioText::tr("network: back"),
                                          ScenarioText::tr("after %1 refused attempts").arg(refused));
                            }
                        };
                    })}};
}

Scenario thunderingHerd()
{
    return {QStringLiteral("thundering-herd"),
            ScenarioText::tr("Thundering herd: retries with and without jitter"),
            ScenarioText::tr(
                "After an outage every pending cart retries. Without jitter all clients compute the same backoff "
                "(800 ms, then 1.6 s, …) and hit the recovering server in lockstep: every retry of every cart in "
                "the same moment. With full jitter each waits a random time up to the backoff, so the same retries "
                "are spread out and the peak is a fraction. Either way each cart becomes one order."),
            {herdStep(ScenarioText::tr("no jitter"), JitterStrategy::None,
                      ScenarioText::tr("lockstep: at least %1 of the %2 first retries within %3 ms")
                          .arg(kHerdCarts * 8 / 10)
                          .arg(kHerdCarts)
                          .arg(kHerdWindowMs),
                      [](int peak, const ScenarioContext&) { return verdicts::lockstep(peak, kHerdCarts); }),
             resetStep(),
             herdStep(ScenarioText::tr("full jitter"), JitterStrategy::Full,
                      ScenarioText::tr("spread out: a lower peak than without jitter"),
                      [](int peak, const ScenarioContext& c) {
                          return verdicts::spreadOut(peak, c.note(peakNote(JitterStrategy::None)).toInt());
                      })}};
}

} // namespace onceorder::core::scenarios

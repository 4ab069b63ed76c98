// The submission state machine explored exhaustively (issue 28): every interleaving, up to a bounded depth, of two
// processes on one outbox row sending attempts, the server processing them or not, answers arriving, lost or late,
// leases taken and expiring, the retry window passing, a wall clock stepped (+20 min, -3 h) in either process, a disk
// that stops taking writes, the user abandoning, and read-backs. The model decides with the product's own rules
// (SubmissionRules' table and lease rule, RetryPolicy's deadline and defended time), and every reachable state is
// checked for: never two orders from the cart's key, and never "gave up" or "rejected" for an order that exists once
// every answer and read-back is in. Weakened rules (the old ones) must be caught by the same search.
#include "retry/RetryPolicy.h"
#include "submission/SubmissionRules.h"

#include <gtest/gtest.h>

#include <array>
#include <deque>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace onceorder::core;

namespace {

constexpr qint64 kSecondMs = 1000;
constexpr qint64 kMinuteMs = 60 * kSecondMs;
constexpr qint64 kHourMs = 60 * kMinuteMs;
constexpr qint64 kWindowMs = 15 * kMinuteMs;
constexpr qint64 kAttemptMs = 60 * kSecondMs; // an attempt's total time: its request and answer die with it
constexpr qint64 kLeaseMs = kAttemptMs + 5 * kSecondMs;
const QString kBoot = QStringLiteral("boot");

// The rules under test, replaceable so the search can be shown to catch weaker ones.
struct Rules
{
    std::function<bool(SubmissionState, SubmissionState)> maySettle = rules::maySettle;
    std::function<bool(bool, bool)> mayGiveUp = rules::mayGiveUp;
    bool monotonicTime = true; // leases and ages on the machine's monotonic clock (else the wall clock only)
};

enum class Wire : int
{
    None,
    Request, // on its way to the server
    Created, // the server's 201 (or replay) on its way back
    Refused, // the server's problem answer on its way back
};

struct Proc
{
    qint64 wallOffsetMs = 0;
    bool stepped = false;
    bool diskBroken = false;
    Wire wire = Wire::None;
    qint64 wireEndsMono = 0; // the attempt's end: request and answer are gone after it
    bool readBackDue = false;
    bool heardOrder = false; // it received evidence of the order

    auto tie() const
    {
        return std::tuple(wallOffsetMs, stepped, diskBroken, static_cast<int>(wire), wireEndsMono, readBackDue,
                          heardOrder);
    }
};

struct World
{
    qint64 trueMs = 0; // the server's clock, and true time
    qint64 monoMs = 1'000'000; // the machine's monotonic clock
    SubmissionState state = SubmissionState::Pending;
    qint64 latestStoredMs = 0; // the latest wall time stored with the submission (its attempts)
    int leaseHolder = -1;
    qint64 leaseUntil = 0; // monotonic, or wall when !monotonicTime
    // The server: whether it knows the key (since when), what it answered, how many orders it made for the cart.
    qint64 keySinceMs = -1;
    bool keyRefused = false;
    int orders = 0;
    std::array<Proc, 2> procs;

    auto tie() const
    {
        return std::tuple(trueMs, monoMs, static_cast<int>(state), latestStoredMs, leaseHolder, leaseUntil, keySinceMs,
                          keyRefused, orders, procs[0].tie(), procs[1].tie());
    }
    bool operator<(const World& other) const { return tie() < other.tie(); }

    bool quiescent() const
    {
        for (const Proc& p : procs) {
            if (p.wire != Wire::None || p.readBackDue) {
                return false;
            }
        }
        return true;
    }
};

constexpr qint64 kCreatedMs = 0;
constexpr qint64 kCreatedMono = 1'000'000;

class Model
{
public:
    explicit Model(Rules rules)
        : m_rules(std::move(rules))
    {
    }

    // Every state reachable in at most `depth` events; the first violation found, if any.
    std::optional<std::string> explore(int depth, long long* statesSeen = nullptr)
    {
        std::set<World> seen;
        std::deque<std::pair<World, int>> queue;
        std::vector<std::string> trace;
        World start;
        start.latestStoredMs = kCreatedMs;
        queue.emplace_back(start, 0);
        seen.insert(start);
        while (!queue.empty()) {
            auto [world, level] = queue.front();
            queue.pop_front();
            if (auto broken = violation(world)) {
                return broken;
            }
            if (level == depth) {
                continue;
            }
            for (auto& [next, event] : successors(world)) {
                if (auto broken = eventViolation(world, next, event)) {
                    return broken;
                }
                if (seen.insert(next).second) {
                    queue.emplace_back(next, level + 1);
                }
            }
        }
        if (statesSeen) {
            *statesSeen = static_cast<long long>(seen.size());
        }
        return std::nullopt;
    }

private:
    Submission submissionOf(const World& w) const
    {
        Submission s;
        s.createdMs = kCreatedMs;
        s.createdMonoMs = m_rules.monotonicTime ? kCreatedMono : 0;
        s.createdBoot = kBoot;
        s.deadlineMs = kCreatedMs + kWindowMs;
        Attempt last;
        last.startedMs = w.latestStoredMs;
        s.attempts.append(last);
        s.state = w.state;
        return s;
    }
    qint64 wallOf(const World& w, int p) const { return w.trueMs + w.procs[p].wallOffsetMs; }
    qint64 defendedNow(const World& w, int p) const
    {
        return RetryPolicy::defendedNowMs(submissionOf(w), wallOf(w, p), w.monoMs, kBoot);
    }
    bool leaseFree(const World& w, int p) const
    {
        rules::Lease lease;
        if (w.leaseHolder >= 0) {
            lease.owner = QString::number(w.leaseHolder);
            lease.holderAlive = true;
            lease.untilMs = w.leaseUntil;
            if (m_rules.monotonicTime) {
                lease.boot = kBoot;
            }
        }
        return rules::leaseIsFree(lease, QString::number(p), kBoot, w.monoMs, wallOf(w, p));
    }
    void settle(World& w, SubmissionState to) const
    {
        if (w.state == to || m_rules.maySettle(w.state, to)) {
            w.state = to;
            if (to != SubmissionState::Pending) {
                w.leaseHolder = -1;
            }
        }
    }

    std::vector<std::pair<World, std::string>> successors(const World& w) const
    {
        std::vector<std::pair<World, std::string>> out;
        const auto add = [&](World next, std::string event) {
            out.emplace_back(std::move(next), std::move(event));
        };
        for (int p = 0; p < 2; ++p) {
            const Proc& proc = w.procs[p];
            const std::string who = "P" + std::to_string(p) + " ";
            const bool works = !proc.diskBroken;
            // An attempt starts: the window open by its defended time, the lease free, nothing of its own out.
            if (works && proc.wire == Wire::None && w.state == SubmissionState::Pending &&
                RetryPolicy::maySend(submissionOf(w), defendedNow(w, p)) && leaseFree(w, p)) {
                World n = w;
                n.leaseHolder = p;
                n.leaseUntil = m_rules.monotonicTime ? w.monoMs + kLeaseMs : wallOf(w, p) + kLeaseMs;
                n.latestStoredMs = std::max(w.latestStoredMs, defendedNow(w, p));
                n.procs[p].wire = Wire::Request;
                n.procs[p].wireEndsMono = w.monoMs + kAttemptMs;
                add(n, who + "sends");
            }
            // The server processes the request: the key's stored answer, or (a key it never saw or has forgotten)
            // a new order or a refusal.
            if (proc.wire == Wire::Request) {
                const bool known = w.keySinceMs >= 0 && w.trueMs - w.keySinceMs < RetryPolicy::kServerKeyTtlMs;
                if (known) {
                    World n = w;
                    n.procs[p].wire = n.keyRefused ? Wire::Refused : Wire::Created;
                    add(n, who + "request replayed");
                } else {
                    World placed = w;
                    placed.keySinceMs = w.trueMs;
                    placed.keyRefused = false;
                    placed.orders += 1;
                    placed.procs[p].wire = Wire::Created;
                    add(placed, who + "request placed");
                    World refused = w;
                    refused.keySinceMs = w.trueMs;
                    refused.keyRefused = true;
                    refused.procs[p].wire = Wire::Refused;
                    add(refused, who + "request refused");
                }
            }
            // Lost on the way (either way): the attempt ends without an answer.
            if (proc.wire != Wire::None) {
                World n = w;
                n.procs[p].wire = Wire::None;
                add(n, who + "loses it");
            }
            // The answer arrives (late, or after another process settled it: evidence beats time).
            if (proc.wire == Wire::Created || proc.wire == Wire::Refused) {
                World n = w;
                n.procs[p].wire = Wire::None;
                if (works) {
                    if (proc.wire == Wire::Created) {
                        n.procs[p].heardOrder = true;
                        settle(n, SubmissionState::Placed);
                    } else if (w.state == SubmissionState::Pending) {
                        settle(n, SubmissionState::Rejected);
                    }
                }
                add(n, who + (proc.wire == Wire::Created ? "gets 201" : "gets a problem"));
            }
            // The window is over by its defended time: gives up (lease first), and reads the cart back.
            if (works && w.state == SubmissionState::Pending &&
                !RetryPolicy::maySend(submissionOf(w), defendedNow(w, p)) &&
                m_rules.mayGiveUp(leaseFree(w, p), proc.wire != Wire::None)) {
                World n = w;
                settle(n, SubmissionState::GaveUp);
                n.procs[p].readBackDue = n.state == SubmissionState::GaveUp;
                add(n, who + "gives up");
            }
            if (proc.readBackDue && works) { // a process whose disk failed has stopped: its read-back never ends
                World n = w;
                n.procs[p].readBackDue = false;
                if (w.orders > 0) {
                    n.procs[p].heardOrder = true;
                    settle(n, SubmissionState::Placed);
                }
                add(n, who + "reads back");
            }
            if (works && w.state == SubmissionState::Pending && p == 0) {
                World n = w;
                settle(n, SubmissionState::Abandoned);
                add(n, who + "abandons");
            }
            if (works) {
                World n = w;
                n.procs[p].diskBroken = true;
                add(n, who + "disk fails");
            }
            if (!proc.stepped) {
                for (const qint64 step : {20 * kMinuteMs, -3 * kHourMs}) {
                    World n = w;
                    n.procs[p].stepped = true;
                    n.procs[p].wallOffsetMs += step;
                    add(n, who + "clock steps " + std::to_string(step / kMinuteMs) + " min");
                }
            }
        }
        // Time passes: the attempts that end meanwhile take their request and answer with them.
        for (const qint64 delta : {30 * kSecondMs, 20 * kMinuteMs, 25 * kHourMs}) {
            World n = w;
            n.trueMs += delta;
            n.monoMs += delta;
            for (Proc& proc : n.procs) {
                if (proc.wire != Wire::None && proc.wireEndsMono <= n.monoMs) {
                    proc.wire = Wire::None;
                }
            }
            add(n, "time +" + std::to_string(delta / kSecondMs) + " s");
        }
        return out;
    }

    static std::optional<std::string> violation(const World& w)
    {
        if (w.orders > 1) {
            return "two orders from one cart's key";
        }
        if (w.quiescent() && w.orders > 0 &&
            (w.state == SubmissionState::GaveUp || w.state == SubmissionState::Rejected)) {
            return "the order exists, every answer is in, and the cart says " +
                submissionStateName(w.state).toStdString();
        }
        return std::nullopt;
    }

    static std::optional<std::string> eventViolation(const World& before, const World& after, const std::string& event)
    {
        for (int p = 0; p < 2; ++p) {
            if (!after.procs[p].diskBroken && after.procs[p].heardOrder && !before.procs[p].heardOrder &&
                after.state != SubmissionState::Placed) {
                return "evidence of the order (" + event + ") left the cart " +
                    submissionStateName(after.state).toStdString();
            }
        }
        return std::nullopt;
    }

    Rules m_rules;
};

constexpr int kDepth = 9;

} // namespace

TEST(SubmissionMachineTest, EveryInterleavingKeepsOneOrderAndNeverGivesUpAnOrderThatExists)
{
    long long states = 0;
    const auto broken = Model(Rules {}).explore(kDepth, &states);
    EXPECT_FALSE(broken) << *broken;
    EXPECT_GT(states, 10'000) << "the search covered too little to mean anything";
    RecordProperty("states", std::to_string(states));
}

TEST(SubmissionMachineTest, TheSearchCatchesAGiveUpThatDoesNotWaitForTheLease)
{
    Rules rules;
    rules.mayGiveUp = [](bool, bool attemptOnWireHere) {
        return !attemptOnWireHere;
    }; // deadline before lease
    EXPECT_TRUE(Model(rules).explore(kDepth));
}

TEST(SubmissionMachineTest, TheSearchCatchesALate201ThatCannotOverruleGaveUpOrAbandoned)
{
    Rules rules;
    rules.maySettle = [](SubmissionState from, SubmissionState to) {
        return from == SubmissionState::Pending && to != SubmissionState::Pending; // settled is final
    };
    EXPECT_TRUE(Model(rules).explore(kDepth));
}

TEST(SubmissionMachineTest, TheSearchCatchesLeasesAndDeadlinesOnTheWallClock)
{
    Rules rules;
    rules.monotonicTime = false;
    EXPECT_TRUE(Model(rules).explore(kDepth));
}

TEST(SubmissionMachineTest, TheTableKeepsPlacedFinalAndNothingReturnsToPending)
{
    for (const SubmissionState from : {SubmissionState::Pending, SubmissionState::Placed, SubmissionState::Rejected,
                                       SubmissionState::GaveUp, SubmissionState::Abandoned}) {
        EXPECT_FALSE(rules::maySettle(from, SubmissionState::Pending));
        EXPECT_FALSE(rules::maySettle(SubmissionState::Placed, from));
        EXPECT_EQ(rules::maySettle(from, SubmissionState::Placed), from != SubmissionState::Placed)
            << "evidence of the order outranks " << submissionStateName(from).toStdString();
        EXPECT_EQ(rules::maySettle(from, SubmissionState::GaveUp), from == SubmissionState::Pending);
    }
}

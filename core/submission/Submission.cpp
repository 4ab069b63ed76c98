#include "submission/Submission.h"

#include <array>
#include <utility>

namespace onceorder::core {

namespace {

constexpr std::array<std::pair<AttemptOutcome, const char*>, 8> kOutcomeNames {{
    {AttemptOutcome::InFlight, "in-flight"},
    {AttemptOutcome::Placed, "placed"},
    {AttemptOutcome::Rejected, "rejected"},
    {AttemptOutcome::RetryLater, "retry-later"},
    {AttemptOutcome::NotSent, "not-sent"},
    {AttemptOutcome::MaybeSent, "maybe-sent"},
    {AttemptOutcome::AlreadyPlaced, "already-placed"},
    {AttemptOutcome::Failed, "failed"},
}};

constexpr std::array<std::pair<SubmissionState, const char*>, 6> kStateNames {{
    {SubmissionState::Pending, "pending"},
    {SubmissionState::Placed, "placed"},
    {SubmissionState::Rejected, "rejected"},
    {SubmissionState::GaveUp, "gave-up"},
    {SubmissionState::Abandoned, "abandoned"},
    {SubmissionState::Duplicated, "duplicated"},
}};

// A value missing from its table reads as the table's first name, the state a record starts in.
template<typename Enum, std::size_t N>
QString nameIn(const std::array<std::pair<Enum, const char*>, N>& table, Enum value)
{
    for (const auto& [candidate, name] : table) {
        if (candidate == value) {
            return QString::fromLatin1(name);
        }
    }
    return QString::fromLatin1(table.front().second);
}

template<typename Enum, std::size_t N>
std::optional<Enum> valueIn(const std::array<std::pair<Enum, const char*>, N>& table, const QString& name)
{
    for (const auto& [value, text] : table) {
        if (name == QLatin1String(text)) {
            return value;
        }
    }
    return std::nullopt;
}

} // namespace

QString attemptOutcomeName(AttemptOutcome outcome)
{
    return nameIn(kOutcomeNames, outcome);
}

std::optional<AttemptOutcome> attemptOutcomeFromName(const QString& name)
{
    return valueIn(kOutcomeNames, name);
}

QString submissionStateName(SubmissionState state)
{
    return nameIn(kStateNames, state);
}

std::optional<SubmissionState> submissionStateFromName(const QString& name)
{
    return valueIn(kStateNames, name);
}

} // namespace onceorder::core

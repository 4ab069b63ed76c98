#include "Faults.h"

#include <array>
#include <utility>

namespace onceorder::server {

namespace {

constexpr std::array<std::pair<FaultKind, std::string_view>, 6> kNames {{
    {FaultKind::None, "none"},
    {FaultKind::FailBeforeCommit, "fail-before-commit"},
    {FaultKind::CrashBeforeCommit, "crash-before-commit"},
    {FaultKind::CrashAfterCommit, "crash-after-commit"},
    {FaultKind::Delay, "delay"},
    {FaultKind::Unavailable, "unavailable"},
}};

} // namespace

std::optional<FaultKind> faultKindFromName(std::string_view name)
{
    for (const auto& [kind, text] : kNames) {
        if (text == name) {
            return kind;
        }
    }
    return std::nullopt;
}

std::string_view faultKindName(FaultKind kind)
{
    for (const auto& [k, text] : kNames) {
        if (k == kind) {
            return text;
        }
    }
    return "none";
}

void Faults::arm(const ArmedFault& fault)
{
    std::lock_guard lock(m_lock);
    m_armed = fault;
    if (m_armed.kind == FaultKind::None || m_armed.remaining <= 0) {
        m_armed = ArmedFault {};
    }
}

ArmedFault Faults::armed() const
{
    std::lock_guard lock(m_lock);
    return m_armed;
}

ArmedFault Faults::takeAny()
{
    std::lock_guard lock(m_lock);
    if (m_armed.kind == FaultKind::None) {
        return {};
    }
    ArmedFault taken = m_armed;
    if (--m_armed.remaining <= 0) {
        m_armed = ArmedFault {};
    }
    return taken;
}

void Faults::setModes(const TeachingModes& modes)
{
    std::lock_guard lock(m_lock);
    m_modes = modes;
}

TeachingModes Faults::modes() const
{
    std::lock_guard lock(m_lock);
    return m_modes;
}

void Faults::clear()
{
    std::lock_guard lock(m_lock);
    m_armed = ArmedFault {};
    m_modes = TeachingModes {};
}

} // namespace onceorder::server

#include "storage/DatabaseFailure.h"

#include "storage/Backend.h"
#include "support/Problems.h"

#include <cstdio>
#include <string>

namespace onceorder::server {

std::optional<NativeFailure> readNativeFailure(const std::exception_ptr& error)
{
    for (const Backend* backend : backends()) {
        if (auto failure = backend->readFailure(error)) {
            return failure;
        }
    }
    return std::nullopt;
}

DatabaseFailure classifyDatabaseFailure(const std::exception_ptr& error)
{
    const auto native = readNativeFailure(error);
    return native ? native->kind : DatabaseFailure::None;
}

bool uniqueViolation(const std::exception_ptr& error)
{
    const auto native = readNativeFailure(error);
    return native && native->uniqueViolation;
}

namespace {

// What an exception says, for the log and a 500's detail.
std::string describe(const std::exception_ptr& error)
{
    try {
        std::rethrow_exception(error);
    } catch (const std::exception& thrown) {
        return thrown.what();
    } catch (...) {
        return "unknown error";
    }
}

} // namespace

bool rerunnableFailure(const std::exception_ptr& error)
{
    const auto native = readNativeFailure(error);
    return native && native->rerunnable;
}

bool commitOutcomeUnknown(const std::exception_ptr& error)
{
    const auto native = readNativeFailure(error);
    return native && native->commitOutcomeUnknown;
}

bool rolledBackFailure(const std::exception_ptr& error)
{
    try {
        std::rethrow_exception(error);
    } catch (const TransientFailure&) {
        return true;
    } catch (...) {
        return classifyDatabaseFailure(error) != DatabaseFailure::None;
    }
}

namespace {

// failureAnswer's answer, before it says whether the failure is rerunnable.
Problem answerFor(const std::exception_ptr& error, const RolledBack& rolledBack)
{
    const auto native = readNativeFailure(error);
    const DatabaseFailure failure = native ? native->kind : DatabaseFailure::None;
    if (failure != DatabaseFailure::None) {
        std::fprintf(stderr, "database error: %s\n", describe(error).c_str());
    }
    if (rolledBack) {
        try {
            std::rethrow_exception(error);
        } catch (const TransientFailure& ours) {
            return rolledBack(ours.what());
        } catch (...) {
        }
        if (native && native->lockedByAnotherProcess) {
            // Another process on the same file (a second server) held SQLite's one write lock past the busy timeout.
            return rolledBack("database is locked: another process held the database's write lock past the busy "
                              "timeout");
        }
        if (failure != DatabaseFailure::None) {
            return rolledBack("the database could not complete the request");
        }
    } else if (failure == DatabaseFailure::Transient) {
        return problems::databaseUnavailable();
    }
    return problems::internalError(
        failure == DatabaseFailure::Permanent ? "a database error; the server's log has the details" : describe(error));
}

} // namespace

Problem failureAnswer(const std::exception_ptr& error, const RolledBack& rolledBack)
{
    Problem problem = answerFor(error, rolledBack);
    problem.rerunnable = problem.status == 503 && rerunnableFailure(error);
    return problem;
}

} // namespace onceorder::server

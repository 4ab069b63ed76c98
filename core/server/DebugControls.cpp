#include "server/DebugControls.h"

#include "net/HttpReplyText.h"
#include "net/NetworkConditioner.h"
#include "net/ServerApi.h"
#include "server/BundledServer.h"
#include "submission/CrashPoint.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>

namespace onceorder::core {

namespace {
constexpr int kDebugTimeoutMs = 5000;
}

DebugControls::DebugControls(ServerApi* api, BundledServer* bundled, NetworkConditioner* conditioner, QObject* parent)
    : QObject(parent)
    , m_api(api)
    , m_bundled(bundled)
    , m_conditioner(conditioner)
{
    if (m_conditioner) {
        // Queued when the conditioner runs on the session's worker thread, direct otherwise.
        connect(m_conditioner, &NetworkConditioner::configured, this, &DebugControls::networkModeChanged);
    }
}

QByteArray DebugControls::faultBody(const FaultRequest& request)
{
    QJsonObject body {{QStringLiteral("fault"), request.fault}, {QStringLiteral("count"), request.count}};
    if (request.fault == u"delay" || request.fault == u"gateway-slow") {
        body.insert(QStringLiteral("delay_ms"), request.delayMs);
    }
    if (request.fault == u"unavailable") {
        body.insert(QStringLiteral("retry_after"), request.retryAfterSeconds);
    }
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

QByteArray DebugControls::modeBody(const QString& mode, bool on)
{
    return QJsonDocument(QJsonObject {{mode, on}}).toJson(QJsonDocument::Compact);
}

void DebugControls::armFault(const FaultRequest& request)
{
    const QString name = request.label.isEmpty() ? request.fault : request.label;
    const QString what =
        request.fault == u"none" ? tr("Disarm the server's fault") : tr("Arm “%1” × %2").arg(name).arg(request.count);
    post(QStringLiteral("/_debug/faults"), faultBody(request), what);
}

void DebugControls::setMode(const QString& mode, bool on, const QString& label)
{
    const QString name = label.isEmpty() ? mode : label;
    post(QStringLiteral("/_debug/mode"), modeBody(mode, on), on ? tr("“%1” on").arg(name) : tr("“%1” off").arg(name));
}

void DebugControls::resetServer()
{
    post(QStringLiteral("/_debug/reset"), QByteArrayLiteral("{}"), tr("Reset the server"));
}

void DebugControls::runCompleter()
{
    const QString what = tr("Run the completer");
    m_api->postJson(QStringLiteral("/_debug/complete"), QByteArrayLiteral("{}"), kDebugTimeoutMs,
                    [this, alive = QPointer(this), what](const HttpReply& reply) {
                        if (!alive) {
                            return;
                        }
                        if (reply.status != 200) {
                            Q_EMIT failed(what, describeReply(reply), reply.status);
                            return;
                        }
                        const int completed =
                            QJsonDocument::fromJson(reply.body).object().value(QStringLiteral("completed")).toInt();
                        // Its answer is a count, not the tables: fetch them so the panel shows what it did.
                        m_api->get(withLiveLimit(QStringLiteral("/_debug/state")), kDebugTimeoutMs,
                                   [this, alive, completed](const HttpReply& state) {
                                       if (alive && state.status == 200) {
                                           Q_EMIT succeeded(tr("the completer finished %n abandoned checkout(s)",
                                                               nullptr, completed),
                                                            ServerState::fromJson(state.body).value_or(ServerState {}));
                                       }
                                   });
                    });
}

void DebugControls::killBundledServer()
{
    if (!m_bundled) {
        Q_EMIT failed(tr("Kill the server"), tr("the server is external; only the bundled one can be killed"), 0);
        return;
    }
    m_bundled->kill();
}

void DebugControls::setNetworkMode(const QString& mode, int delayMs, double probability)
{
    const auto parsed = NetworkConditioner::modeFromName(mode);
    if (!m_conditioner || !parsed) {
        return;
    }
    // On the conditioner's thread (AutoConnection: at once when it is ours). networkModeChanged() follows from its
    // configured(), with the mode it is in then, not the one asked for: leaving offline can fail.
    QMetaObject::invokeMethod(
        m_conditioner,
        [conditioner = m_conditioner, mode = *parsed, delayMs, probability] {
            conditioner->configure(mode, delayMs, probability);
        },
        Qt::AutoConnection);
}

void DebugControls::armCrashAfterSend(bool armed)
{
    CrashPoint::arm(armed ? QStringLiteral("after-send") : QString());
}

void DebugControls::crashNow()
{
    CrashPoint::crashNow();
}

void DebugControls::post(const QString& path, const QByteArray& body, const QString& what)
{
    // The answer is the state: the newest rows only, as the live tables show them.
    const QString capped = withLiveLimit(path);
    m_api->postJson(capped, body, kDebugTimeoutMs, [this, alive = QPointer(this), what](const HttpReply& reply) {
        if (!alive) {
            return;
        }
        if (reply.status == 200) {
            Q_EMIT succeeded(what, ServerState::fromJson(reply.body).value_or(ServerState {}));
        } else {
            Q_EMIT failed(what, describeReply(reply), reply.status);
        }
    });
}

} // namespace onceorder::core

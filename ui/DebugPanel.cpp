#include "DebugPanel.h"

#include "PresentationZoom.h"
#include "StatusColours.h"

#include "server/DebugControls.h"
#include "server/ServerState.h"
#include "teaching/KeyStrategies.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>

namespace onceorder::ui {

namespace {

QLabel* explanation(const QString& text)
{
    auto* label = new QLabel(text);
    label->setWordWrap(true);
    // Secondary text in the palette's own colour for it, so it reads on a dark desktop theme as on a light one (a
    // fixed #4a4a4a nearly vanished on dark grey).
    label->setForegroundRole(QPalette::PlaceholderText);
    // A wrapping label asks for a wide minimum of its own; a few words are enough, so the panel's widest row stays
    // within its dock at 200 % and the text wraps instead of running off its right edge.
    label->setMinimumWidth(label->fontMetrics().averageCharWidth() * 14);
    return label;
}

// One control and its one-line explanation, side by side in a grid.
void addExplained(QGridLayout* grid, QWidget* control, const QString& text)
{
    const int row = grid->rowCount();
    grid->addWidget(control, row, 0, Qt::AlignTop);
    grid->addWidget(explanation(text), row, 1);
}

QGridLayout* explainedGrid()
{
    auto* grid = new QGridLayout;
    grid->setColumnStretch(1, 1);
    grid->setHorizontalSpacing(10);
    grid->setVerticalSpacing(6);
    return grid;
}

struct NetworkMode
{
    QString mode;
    QString label;
    QString text; // with one key per cart (the correct client)
    QString withoutOneKey; // with a new key per attempt or none, where that changes what happens (empty: the same)
};

// The conditioner's modes, as the panel offers them and the status bar names them.
QList<NetworkMode> networkModes()
{
    return {
        {QStringLiteral("pass"), DebugPanel::tr("Pass"), DebugPanel::tr("Everything goes through untouched."), {}},
        {QStringLiteral("offline"),
         DebugPanel::tr("Offline"),
         DebugPanel::tr("Connections are refused: the request is surely not sent, so retrying is safe."),
         {}},
        {QStringLiteral("drop-request"),
         DebugPanel::tr("Drop the request"),
         DebugPanel::tr("The request is lost on the way: the server never sees it; the retry places the order."),
         {}},
        {QStringLiteral("drop-response"), DebugPanel::tr("Drop the response"),
         DebugPanel::tr(
             "The order is placed but the answer is lost: the retry with the same key is replayed, not doubled."),
         DebugPanel::tr("The order is placed but the answer is lost: without the cart's one key the retry is a new "
                        "order, so the cart is ordered twice.")},
        {QStringLiteral("delay"), DebugPanel::tr("Delay"),
         DebugPanel::tr("Every exchange waits for the delay: slow networks make timeouts and overlapping retries."),
         DebugPanel::tr("Every exchange waits for the delay: an attempt that timed out may still be placed, and "
                        "without the cart's one key its retry orders again.")},
        {QStringLiteral("blackhole"), DebugPanel::tr("Black hole"),
         DebugPanel::tr("Nothing comes back and nothing closes: only the client's timeout ends the attempt."),
         DebugPanel::tr("Nothing comes back and nothing closes: the client's timeout ends the attempt, and without "
                        "the cart's one key a retry of an order that was placed orders again.")},
        {QStringLiteral("flaky"), DebugPanel::tr("Flaky"),
         DebugPanel::tr("Each exchange fails with the probability below: retries with backoff get through."),
         DebugPanel::tr("Each exchange fails with the probability below: without the cart's one key a retry after a "
                        "lost answer orders twice.")},
    };
}

} // namespace

DebugPanel::DebugPanel(core::DebugControls* controls, bool externalServer, QWidget* parent)
    : QDockWidget(tr("Debug panel: break it on purpose"), parent)
    , m_controls(controls)
    , m_externalServer(externalServer)
{
    setObjectName(QStringLiteral("debugPanel"));
    auto* content = new QWidget;
    m_content = content;
    auto* layout = new QVBoxLayout(content);
    layout->addWidget(buildServerSection());
    layout->addWidget(buildGatewaySection());
    layout->addWidget(buildNetworkSection());
    layout->addWidget(buildClientSection());
    layout->addStretch();

    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setFocusPolicy(Qt::NoFocus); // Tab goes to the panel's inputs; the area scrolls to the one reached
    // Narrower than its widest row (a small screen at 200 %), the panel scrolls sideways instead of cutting it.
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    scroll->setWidget(content);
    setWidget(scroll);

    connect(controls, &core::DebugControls::succeeded, this,
            [this](const QString& what, const core::ServerState& state) {
                showResult(tr("Done: %1").arg(what), true);
                setServerState(state);
            });
    connect(controls, &core::DebugControls::failed, this,
            [this](const QString& what, const QString& reason, int status) {
                const QString hint = status == 404 ? tr(" — the server needs --debug-endpoints") : QString();
                showResult(tr("%1 failed: %2%3").arg(what, reason, hint), false);
            });
    setNetworkAvailable(controls->hasConditioner());
}

QGroupBox* DebugPanel::buildServerSection()
{
    auto* box = new QGroupBox(tr("Server"));
    auto* layout = new QVBoxLayout(box);
    if (m_externalServer) {
        auto* note = explanation(tr("This client uses an external server: these controls work only if it was "
                                    "started with --debug-endpoints."));
        note->setObjectName(QStringLiteral("externalServerNote"));
        note->setStyleSheet(StatusColours::labelSheet(StatusColours::Status::Waiting, note->palette(), true));
        layout->addWidget(note);
    }

    addFaultParameters(layout);
    addFaultButtons(layout);
    addTeachingModes(layout);
    addLifecycleButtons(layout);

    m_resultLabel = new QLabel;
    m_resultLabel->setObjectName(QStringLiteral("debugResultLabel"));
    m_resultLabel->setWordWrap(true);
    m_resultLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_resultLabel);
    return box;
}

void DebugPanel::addFaultParameters(QVBoxLayout* layout)
{
    m_countSpin = new QSpinBox;
    m_countSpin->setObjectName(QStringLiteral("faultCountSpin"));
    m_countSpin->setAccessibleName(tr("Fault: number of requests hit"));
    m_countSpin->setRange(1, 50);
    m_countSpin->setToolTip(tr("How many of the next order requests the fault hits"));
    m_delaySpin = new QSpinBox;
    m_delaySpin->setObjectName(QStringLiteral("faultDelaySpin"));
    m_delaySpin->setAccessibleName(tr("Fault: delay in milliseconds"));
    m_delaySpin->setRange(0, 120'000);
    m_delaySpin->setSingleStep(500);
    m_delaySpin->setValue(3000);
    m_delaySpin->setSuffix(tr(" ms"));
    m_retryAfterSpin = new QSpinBox;
    m_retryAfterSpin->setObjectName(QStringLiteral("faultRetryAfterSpin"));
    m_retryAfterSpin->setAccessibleName(tr("Fault: Retry-After in seconds"));
    m_retryAfterSpin->setRange(0, 600);
    m_retryAfterSpin->setValue(2);
    m_retryAfterSpin->setSuffix(tr(" s"));
    // Each label above its box: side by side they do not fit the dock in every language (Czech is longer).
    auto* parameters = new QGridLayout;
    parameters->setHorizontalSpacing(12);
    parameters->setVerticalSpacing(2);
    const std::pair<QString, QWidget*> kParameters[] = {
        {tr("Requests:"), m_countSpin}, {tr("Delay:"), m_delaySpin}, {tr("Retry-After:"), m_retryAfterSpin}};
    int column = 0;
    for (const auto& [label, field] : kParameters) {
        parameters->addWidget(new QLabel(label), 0, column);
        parameters->addWidget(field, 1, column);
        ++column;
    }
    parameters->setColumnStretch(column, 1);
    layout->addLayout(parameters);
}

void DebugPanel::addFaultButtons(QVBoxLayout* layout)
{
    auto* faults = explainedGrid();
    const struct
    {
        QString fault;
        QString label;
        QString text;
    } kFaults[] = {
        {QStringLiteral("fail-before-commit"), tr("Fail before commit"),
         tr("The transaction rolls back and the server answers 503: nothing is stored, the retry places it.")},
        {QStringLiteral("crash-before-commit"), tr("Crash before commit"),
         tr("The server dies mid-transaction: no order exists; it restarts and the retry places it.")},
        {QStringLiteral("crash-after-commit"), tr("Crash after commit"),
         tr("The order is committed, the answer never sent: the retry gets the stored answer, replayed.")},
        {QStringLiteral("delay"), tr("Slow transaction"),
         tr("The transaction holds the writer lock for the delay: a retry meanwhile waits for it, then gets the "
            "replay.")},
        {QStringLiteral("unavailable"), tr("Unavailable (503)"),
         tr("503 with Retry-After: the client waits as long as the server asks, then retries.")},
        {QStringLiteral("none"), tr("Disarm"), tr("Clears every armed fault, the gateway's too.")},
    };
    for (const auto& fault : kFaults) {
        auto* button = new QPushButton(fault.label);
        button->setObjectName(QStringLiteral("arm_") + fault.fault);
        connect(button, &QPushButton::clicked, this, [this, name = fault.fault] { armFault(name); });
        m_words.insert(fault.fault, fault.label);
        addExplained(faults, button, fault.text);
    }
    layout->addLayout(faults);
    m_armedLabel = new QLabel(tr("Armed: nothing"));
    m_armedLabel->setObjectName(QStringLiteral("armedFaultLabel"));
    m_armedLabel->setWordWrap(true);
    layout->addWidget(m_armedLabel);
}

void DebugPanel::addTeachingModes(QVBoxLayout* layout)
{
    auto* modesTitle = new QLabel(tr("<b>Teaching modes</b> — the article's mistakes, made on purpose:"));
    modesTitle->setWordWrap(true); // on one line it was the panel's widest row: 750 px at 200 %
    layout->addWidget(modesTitle);
    auto* modes = explainedGrid();
    const struct
    {
        QString mode;
        QString label;
        QString text;
    } kModes[] = {
        {QStringLiteral("check_then_insert"), tr("Check, then insert"),
         tr("Looks the key up, then inserts it: two simultaneous retries both pass and order twice.")},
        {QStringLiteral("unscoped_keys"), tr("Keys shared by all clients"),
         tr("Client B sending A's key gets A's stored answer: another client's data leaks.")},
        {QStringLiteral("store_transient"), tr("Store transient errors"),
         tr("A temporary failure is stored under the key: every retry replays the failure forever.")},
        {QStringLiteral("business_key_off"), tr("Business key off"),
         tr("No one-order-per-cart rule: with a new key per click, duplicates appear in Orders.")},
    };
    for (const auto& mode : kModes) {
        auto* check = new QCheckBox(mode.label);
        check->setObjectName(QStringLiteral("mode_") + mode.mode);
        connect(check, &QCheckBox::toggled, this,
                [this, name = mode.mode, label = mode.label](bool on) { m_controls->setMode(name, on, label); });
        m_modeBoxes.insert(mode.mode, check);
        addExplained(modes, check, mode.text);
    }
    layout->addLayout(modes);
}

void DebugPanel::addLifecycleButtons(QVBoxLayout* layout)
{
    auto* lifecycle = explainedGrid();
    auto* reset = new QPushButton(tr("Reset the server"));
    reset->setObjectName(QStringLiteral("resetServerButton"));
    connect(reset, &QPushButton::clicked, m_controls, &core::DebugControls::resetServer);
    addExplained(lifecycle, reset, tr("Deletes orders and keys, restores stock, clears faults: a clean slate."));
    auto* kill = new QPushButton(tr("Kill the server"));
    kill->setObjectName(QStringLiteral("killServerButton"));
    kill->setEnabled(m_controls->canKillServer());
    connect(kill, &QPushButton::clicked, m_controls, &core::DebugControls::killBundledServer);
    addExplained(lifecycle, kill,
                 m_controls->canKillServer()
                     ? tr("kill -9 the bundled server: requests fail until it restarts by itself.")
                     : tr("Only the bundled server can be killed from here."));
    layout->addLayout(lifecycle);
}

void DebugPanel::addCheckoutCrashRow(QVBoxLayout* layout)
{
    m_checkoutCrashCombo = new QComboBox;
    m_checkoutCrashCombo->setObjectName(QStringLiteral("checkoutCrashCombo"));
    m_checkoutCrashCombo->setAccessibleName(tr("Checkout crash point"));
    // As wide as its longest item (the label sits above it so the row stays narrow): a cut crash point names the
    // wrong phase. The dock scrolls sideways if it is narrower still.
    m_checkoutCrashCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    const struct
    {
        QString fault;
        QString label;
    } kCrashPoints[] = {
        {QStringLiteral("crash-after-started"), tr("after the key row (started)")},
        {QStringLiteral("crash-after-order-created"), tr("after the order (order_created)")},
        {QStringLiteral("crash-after-charge"), tr("after the gateway charged")},
        {QStringLiteral("crash-after-payment-charged"), tr("after the payment (payment_charged)")},
        {QStringLiteral("crash-after-finished"), tr("after the stored answer (finished)")},
    };
    for (const auto& point : kCrashPoints) {
        m_checkoutCrashCombo->addItem(point.label, point.fault);
        m_words.insert(point.fault, tr("crash %1").arg(point.label));
    }
    holdCrashPointsWidth();
    auto* armCrash = new QPushButton(tr("Arm"));
    armCrash->setObjectName(QStringLiteral("armCheckoutCrashButton"));
    connect(armCrash, &QPushButton::clicked, this,
            [this] { armFault(m_checkoutCrashCombo->currentData().toString()); });
    // The label above its box and button: beside them the row was wider than the dock at 200 %.
    layout->addWidget(new QLabel(tr("Crash the server")));
    auto* crashRow = new QHBoxLayout;
    crashRow->addWidget(m_checkoutCrashCombo, 1);
    crashRow->addWidget(armCrash);
    layout->addLayout(crashRow);
    layout->addWidget(explanation(tr("It restarts; the retry or the completer resumes from the recovery point: one "
                                     "order, one charge.")));
}

QGroupBox* DebugPanel::buildGatewaySection()
{
    auto* box = new QGroupBox(tr("Payment gateway (orders paid now by card)"));
    box->setObjectName(QStringLiteral("gatewaySection"));
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(explanation(tr("POST /checkout runs in phases around the gateway call. These act on the next "
                                     "charges (Requests and Delay above).")));
    auto* grid = explainedGrid();
    const struct
    {
        QString fault;
        QString label;
        QString text;
    } kGatewayFaults[] = {
        {QStringLiteral("gateway-decline"), tr("Decline the card"),
         tr("A definitive answer: the order is cancelled, 402 is stored, and every retry gets it replayed.")},
        {QStringLiteral("gateway-timeout"), tr("Lose the gateway's answer"),
         tr("The card is charged, the answer lost: the retry sends the gateway the same key and is not charged "
            "again.")},
        {QStringLiteral("gateway-fail"), tr("Gateway down"),
         tr("Fails before charging: 503, the recovery point stays, and the retry goes on from it.")},
        {QStringLiteral("gateway-slow"), tr("Slow gateway"),
         tr("The charge takes the delay: a second click meanwhile finds the row locked and gets 409.")},
        {QStringLiteral("webhook-duplicate"), tr("Webhook sent twice"),
         tr("The same event id arrives twice: it is stored once, and the repeat changes nothing.")},
        {QStringLiteral("webhook-twin"), tr("Twin webhooks"),
         tr("Two event ids for one charge: the conditional status change lets only one of them act.")},
        {QStringLiteral("webhook-ack-lost"), tr("Lose the webhook's 200"),
         tr("The webhook is applied but the gateway never hears so: it delivers it again a few seconds later, and "
            "the repeat changes nothing.")},
    };
    for (const auto& fault : kGatewayFaults) {
        auto* button = new QPushButton(fault.label);
        button->setObjectName(QStringLiteral("arm_") + fault.fault);
        connect(button, &QPushButton::clicked, this, [this, name = fault.fault] { armFault(name); });
        m_words.insert(fault.fault, fault.label);
        addExplained(grid, button, fault.text);
    }
    layout->addLayout(grid);

    addCheckoutCrashRow(layout);

    auto* lifecycle = explainedGrid();
    auto* complete = new QPushButton(tr("Run the completer"));
    complete->setObjectName(QStringLiteral("runCompleterButton"));
    connect(complete, &QPushButton::clicked, m_controls, &core::DebugControls::runCompleter);
    addExplained(lifecycle, complete,
                 tr("Finishes checkouts nobody works on any more, as the server does by itself every 5 s."));
    layout->addLayout(lifecycle);
    m_gatewayArmedLabel = new QLabel(tr("Armed: nothing"));
    m_gatewayArmedLabel->setObjectName(QStringLiteral("gatewayArmedLabel"));
    m_gatewayArmedLabel->setWordWrap(true);
    layout->addWidget(m_gatewayArmedLabel);
    return box;
}

QGroupBox* DebugPanel::buildNetworkSection()
{
    auto* box = new QGroupBox(tr("Network (between this client and the server)"));
    auto* layout = new QVBoxLayout(box);
    m_networkModeCombo = new QComboBox;
    m_networkModeCombo->setObjectName(QStringLiteral("networkModeCombo"));
    m_networkModeCombo->setAccessibleName(tr("Network mode"));
    const QList<NetworkMode> kModes = networkModes();
    for (const auto& mode : kModes) {
        m_networkModeCombo->addItem(mode.label, mode.mode);
        m_networkModeCombo->setItemData(m_networkModeCombo->count() - 1, mode.text, Qt::ToolTipRole);
    }
    m_networkExplanation = explanation(kModes.first().text);
    m_networkExplanation->setObjectName(QStringLiteral("networkExplanation"));
    m_networkDelaySpin = new QSpinBox;
    m_networkDelaySpin->setObjectName(QStringLiteral("networkDelaySpin"));
    m_networkDelaySpin->setAccessibleName(tr("Network delay in milliseconds"));
    m_networkDelaySpin->setRange(0, 60'000);
    m_networkDelaySpin->setSingleStep(250);
    m_networkDelaySpin->setValue(2000);
    m_networkDelaySpin->setSuffix(tr(" ms"));
    m_probabilitySpin = new QDoubleSpinBox;
    m_probabilitySpin->setObjectName(QStringLiteral("networkProbabilitySpin"));
    m_probabilitySpin->setAccessibleName(tr("Network fault probability in percent"));
    m_probabilitySpin->setRange(0, 100);
    m_probabilitySpin->setDecimals(0);
    m_probabilitySpin->setSingleStep(10);
    m_probabilitySpin->setValue(50);
    m_probabilitySpin->setSuffix(tr(" %"));

    auto* form = new QFormLayout;
    form->addRow(tr("Mode:"), m_networkModeCombo);
    form->addRow(QString(), m_networkExplanation);
    form->addRow(tr("Delay:"), m_networkDelaySpin);
    form->addRow(tr("Failure probability:"), m_probabilitySpin);
    layout->addLayout(form);
    m_networkNote = explanation(QString());
    m_networkNote->setObjectName(QStringLiteral("networkNote"));
    layout->addWidget(m_networkNote);

    connect(m_networkModeCombo, &QComboBox::currentIndexChanged, this, [this] {
        explainNetworkMode();
        applyNetworkMode();
    });
    connect(m_networkDelaySpin, &QSpinBox::valueChanged, this, &DebugPanel::applyNetworkMode);
    connect(m_probabilitySpin, &QDoubleSpinBox::valueChanged, this, &DebugPanel::applyNetworkMode);
    return box;
}

QGroupBox* DebugPanel::buildClientSection()
{
    auto* box = new QGroupBox(tr("Client (this window)"));
    auto* layout = new QVBoxLayout(box);
    auto* grid = explainedGrid();
    auto* crash = new QPushButton(tr("Crash the app now"));
    crash->setObjectName(QStringLiteral("crashNowButton"));
    connect(crash, &QPushButton::clicked, m_controls, &core::DebugControls::crashNow);
    addExplained(grid, crash,
                 tr("The client dies at once, like a power cut: start it again and a pending order resumes "
                    "with its key."));
    auto* crashAfterSend = new QCheckBox(tr("Crash after the next send"));
    crashAfterSend->setObjectName(QStringLiteral("crashAfterSendCheck"));
    connect(crashAfterSend, &QCheckBox::toggled, m_controls, &core::DebugControls::armCrashAfterSend);
    addExplained(grid, crashAfterSend,
                 tr("The request reaches the server, the client dies before the answer: the next start resumes "
                    "and is replayed."));
    layout->addLayout(grid);

    m_keyStrategyCombo = new QComboBox;
    m_keyStrategyCombo->setObjectName(QStringLiteral("keyStrategyCombo"));
    m_keyStrategyCombo->setAccessibleName(tr("Key strategy"));
    m_keyStrategyCombo->addItem(tr("One key per cart (correct)"), static_cast<int>(core::KeyStrategy::PerCart));
    m_keyStrategyCombo->addItem(tr("A new key per click"), static_cast<int>(core::KeyStrategy::PerClick));
    m_keyStrategyCombo->addItem(tr("No key"), static_cast<int>(core::KeyStrategy::None));
    m_keyStrategyExplanation = explanation(QString());
    m_keyStrategyExplanation->setObjectName(QStringLiteral("keyStrategyExplanation"));
    auto* form = new QFormLayout;
    form->addRow(tr("Key strategy:"), m_keyStrategyCombo);
    form->addRow(QString(), m_keyStrategyExplanation);
    layout->addLayout(form);
    const auto explain = [this](int index) {
        switch (static_cast<core::KeyStrategy>(m_keyStrategyCombo->itemData(index).toInt())) {
        case core::KeyStrategy::PerCart:
            m_keyStrategyExplanation->setText(
                tr("Every retry and every click re-sends the cart's one key: the server places it once."));
            break;
        case core::KeyStrategy::PerClick:
            m_keyStrategyExplanation->setText(
                tr("Each click is a new request to the server: a second click after a lost answer orders twice."));
            break;
        case core::KeyStrategy::None:
            m_keyStrategyExplanation->setText(tr("Without a key the server cannot tell a retry from a new order."));
            break;
        }
    };
    explain(0);
    connect(m_keyStrategyCombo, &QComboBox::currentIndexChanged, this, [this, explain](int index) {
        explain(index);
        explainNetworkMode(); // what the network mode does depends on the keys
        Q_EMIT keyStrategyChanged(
            core::keySourceFor(static_cast<core::KeyStrategy>(m_keyStrategyCombo->itemData(index).toInt())));
    });
    return box;
}

void DebugPanel::explainNetworkMode()
{
    const QList<NetworkMode> modes = networkModes();
    const int index = m_networkModeCombo->currentIndex();
    if (index < 0 || index >= modes.size()) {
        return;
    }
    const NetworkMode& mode = modes.at(index);
    const bool oneKeyPerCart = !m_keyStrategyCombo ||
        m_keyStrategyCombo->currentData().toInt() == static_cast<int>(core::KeyStrategy::PerCart);
    m_networkExplanation->setText(oneKeyPerCart || mode.withoutOneKey.isEmpty() ? mode.text : mode.withoutOneKey);
}

void DebugPanel::setServerState(const core::ServerState& state)
{
    const QMap<QString, bool> modes {{QStringLiteral("check_then_insert"), state.modes.checkThenInsert},
                                     {QStringLiteral("unscoped_keys"), state.modes.unscopedKeys},
                                     {QStringLiteral("store_transient"), state.modes.storeTransient},
                                     {QStringLiteral("business_key_off"), state.modes.businessKeyOff}};
    for (auto it = modes.cbegin(); it != modes.cend(); ++it) {
        QCheckBox* check = m_modeBoxes.value(it.key());
        // The server's report is not a user's click: no command goes back.
        const QSignalBlocker blocker(check);
        check->setChecked(it.value());
    }
    const auto armed = [](const core::ServerFault& fault) {
        return fault.fault != u"none" && fault.remaining > 0;
    };
    const QString alert = StatusColours::labelSheet(StatusColours::Status::Bad, m_armedLabel->palette(), true);
    if (!armed(state.fault)) {
        m_armedLabel->setText(tr("Armed: nothing"));
        PresentationZoom::setStyleSheetKeepingZoom(m_armedLabel, QString());
    } else {
        m_armedLabel->setText(tr("Armed: “%1” for the next %n request(s)", nullptr, state.fault.remaining)
                                  .arg(m_words.value(state.fault.fault, state.fault.fault)));
        PresentationZoom::setStyleSheetKeepingZoom(m_armedLabel, alert);
    }
    QStringList gateway;
    if (armed(state.checkoutFault)) {
        gateway.append(tr("“%1” for the next %n checkout(s)", nullptr, state.checkoutFault.remaining)
                           .arg(m_words.value(state.checkoutFault.fault, state.checkoutFault.fault)));
    }
    if (armed(state.gatewayFault)) {
        gateway.append(tr("“%1” for the next %n charge(s)", nullptr, state.gatewayFault.remaining)
                           .arg(m_words.value(state.gatewayFault.fault, state.gatewayFault.fault)));
    }
    m_gatewayArmedLabel->setText(gateway.isEmpty() ? tr("Armed: nothing")
                                                   : tr("Armed: %1").arg(gateway.join(QStringLiteral("; "))));
    PresentationZoom::setStyleSheetKeepingZoom(m_gatewayArmedLabel, gateway.isEmpty() ? QString() : alert);
}

void DebugPanel::holdCrashPointsWidth()
{
    // Measured from its items in its font now: QComboBox drops its preferred size on a font change (the zoom) but
    // keeps the minimum it cached, so the minimum is held explicitly.
    m_checkoutCrashCombo->setMinimumWidth(m_checkoutCrashCombo->sizeHint().width());
}

void DebugPanel::changeEvent(QEvent* event)
{
    QDockWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange && m_checkoutCrashCombo) {
        holdCrashPointsWidth(); // the children have their new font by now
    }
}

int DebugPanel::preferredWidth() const
{
    // 46 average characters: an explanation beside its button reads in lines of a few words, not one per line.
    const int readable = fontMetrics().averageCharWidth() * 46;
    const int scrollBar = style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    const int frame = 2 * style()->pixelMetric(QStyle::PM_DockWidgetFrameWidth);
    return std::max(readable, m_content->minimumSizeHint().width()) + scrollBar + frame + 4;
}

QString DebugPanel::networkModeLabel(const QString& mode)
{
    for (const NetworkMode& known : networkModes()) {
        if (known.mode == mode) {
            return known.label;
        }
    }
    return mode;
}

void DebugPanel::setNetworkAvailable(bool available)
{
    m_networkNote->setText(available ? QString()
                                     : tr("The network conditioner is not part of this build yet: these controls "
                                          "do not change anything."));
    m_networkNote->setVisible(!available);
}

void DebugPanel::armFault(const QString& fault)
{
    m_controls->armFault(core::FaultRequest {fault, m_countSpin->value(), m_delaySpin->value(),
                                             m_retryAfterSpin->value(), m_words.value(fault, fault)});
}

void DebugPanel::applyNetworkMode()
{
    m_controls->setNetworkMode(m_networkModeCombo->currentData().toString(), m_networkDelaySpin->value(),
                               m_probabilitySpin->value() / 100.0);
}

void DebugPanel::showResult(const QString& text, bool ok)
{
    m_resultLabel->setText(text);
    PresentationZoom::setStyleSheetKeepingZoom(
        m_resultLabel,
        ok ? StatusColours::labelSheet(StatusColours::Status::Good, m_resultLabel->palette(), false)
           : StatusColours::labelSheet(StatusColours::Status::Bad, m_resultLabel->palette(), true));
}

} // namespace onceorder::ui

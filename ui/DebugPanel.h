// DebugPanel: breaks things on purpose so a class can watch the order still be placed once: the server's faults
// and teaching modes, the payment gateway in the middle of a checkout, the network between client and server, and
// the client itself. Every control says in one line what it will show. Commands to the server, the network and this
// client go through core::DebugControls; the key strategy chosen is a KeySource object the window installs in the
// submission engine (SubmissionEngine::setKeyStrategy).
#pragma once

#include "submission/KeySource.h"

#include <QDockWidget>
#include <QHash>
#include <QMap>

#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QVBoxLayout;

namespace onceorder::core {
class DebugControls;
struct ServerState;
} // namespace onceorder::core

namespace onceorder::ui {

class DebugPanel : public QDockWidget
{
    Q_OBJECT

public:
    // externalServer: --server URL was given, so the server controls need its --debug-endpoints and there is no
    // process to kill.
    DebugPanel(core::DebugControls* controls, bool externalServer, QWidget* parent = nullptr);

    // Keeps the checkboxes and the armed fault in step with what the server reports.
    void setServerState(const core::ServerState& state);
    // As wide as the panel's explanations read well at the current font (the zoom's), and its widest row fits.
    int preferredWidth() const;
    // The conditioner mode's name for people ("pass" → "Pass", translated).
    static QString networkModeLabel(const QString& mode);

Q_SIGNALS:
    // The key source chosen (OneKeyPerCart, or a teaching one), for the engine to install.
    void keyStrategyChanged(std::shared_ptr<const onceorder::core::KeySource> keys);

protected:
    void changeEvent(QEvent* event) override;

private:
    // The network mode's hint for the key strategy in use: "replayed, not doubled" only with one key per cart.
    void explainNetworkMode();
    // Crash the server at a checkout phase: the phase's box, Arm, and what follows.
    void addCheckoutCrashRow(QVBoxLayout* layout);
    void holdCrashPointsWidth();
    QGroupBox* buildServerSection();
    // buildServerSection's parts, top to bottom: the fault's requests, delay and Retry-After; a button per fault and
    // what is armed; the teaching modes; reset and kill.
    void addFaultParameters(QVBoxLayout* layout);
    void addFaultButtons(QVBoxLayout* layout);
    void addTeachingModes(QVBoxLayout* layout);
    void addLifecycleButtons(QVBoxLayout* layout);
    QGroupBox* buildGatewaySection();
    QGroupBox* buildNetworkSection();
    QGroupBox* buildClientSection();
    // Whether a network conditioner is wired in; without one the network controls only explain themselves.
    void setNetworkAvailable(bool available);
    void armFault(const QString& fault);
    void applyNetworkMode();
    void showResult(const QString& text, bool ok);

    core::DebugControls* m_controls;
    bool m_externalServer;
    QWidget* m_content = nullptr;

    QSpinBox* m_countSpin = nullptr;
    QSpinBox* m_delaySpin = nullptr;
    QSpinBox* m_retryAfterSpin = nullptr;
    QLabel* m_armedLabel = nullptr;
    QComboBox* m_checkoutCrashCombo = nullptr;
    QLabel* m_gatewayArmedLabel = nullptr;
    QLabel* m_resultLabel = nullptr;
    QMap<QString, QCheckBox*> m_modeBoxes;
    QHash<QString, QString> m_words; // a fault's id ("fail-before-commit") → its name on the panel, for the class

    QComboBox* m_networkModeCombo = nullptr;
    QLabel* m_networkExplanation = nullptr;
    QSpinBox* m_networkDelaySpin = nullptr;
    QDoubleSpinBox* m_probabilitySpin = nullptr;
    QLabel* m_networkNote = nullptr;

    QComboBox* m_keyStrategyCombo = nullptr;
    QLabel* m_keyStrategyExplanation = nullptr;
};

} // namespace onceorder::ui

// Translations: installs the Czech or English messages of the window (and Qt's own, for standard buttons), chosen
// by --lang or else by the system locale.
#pragma once

#include <QString>

class QCoreApplication;

namespace onceorder::core {

class Translations
{
public:
    // language: "en", "cs" or empty for the system locale. Returns the language installed ("en" or "cs"). The
    // translators become children of app. The .qm files are embedded under :/onceorder/i18n by the resources
    // library, which the executable must link.
    static QString install(QCoreApplication& app, const QString& language);
};

} // namespace onceorder::core

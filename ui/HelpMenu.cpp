#include "HelpMenu.h"

#include "LessonViewer.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QKeySequence>
#include <QMessageBox>

namespace onceorder::ui {

HelpMenu::HelpMenu(QWidget* window)
    : QMenu(tr("&Help"), window)
{
    setObjectName(QStringLiteral("helpMenu"));
    QAction* lesson = addAction(tr("The &lesson plan"));
    lesson->setObjectName(QStringLiteral("lessonAction"));
    lesson->setShortcut(QKeySequence::HelpContents);
    connect(lesson, &QAction::triggered, this, &HelpMenu::openLesson);
    QAction* shortcuts = addAction(tr("&Keyboard shortcuts"));
    shortcuts->setObjectName(QStringLiteral("shortcutsAction"));
    connect(shortcuts, &QAction::triggered, this, &HelpMenu::showShortcuts);
    addSeparator();
    QAction* about = addAction(tr("&About OnceOrder"));
    about->setObjectName(QStringLiteral("aboutAction"));
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, &HelpMenu::showAbout);
}

QString HelpMenu::lessonPath()
{
    // Translated: the Czech window opens the Czech lesson.
    const QString file = tr("teaching.md", "the lesson plan's file name in this language");
    const QStringList folders {
        QCoreApplication::applicationDirPath() + QStringLiteral("/../share/doc/onceorder"),
        QStringLiteral("/usr/share/doc/onceorder"),
#ifdef ONCEORDER_SOURCE_DOCS_DIR
        QStringLiteral(ONCEORDER_SOURCE_DOCS_DIR),
#endif
    };
    for (const QString& folder : folders) {
        const QFileInfo info(QDir(folder), file);
        if (info.isFile()) {
            return info.canonicalFilePath();
        }
    }
    return {};
}

void HelpMenu::openLesson()
{
    // Inside the application, whatever the desktop has: without a launcher for Markdown (a classroom's kiosk, a
    // bare X session) the window only named a file before.
    if (m_lesson) {
        m_lesson->raise();
        m_lesson->activateWindow();
        return;
    }
    const QString builtIn =
        QStringLiteral(":/onceorder/docs/") + tr("teaching.md", "the lesson plan's file name in this language");
    m_lesson = new LessonViewer(lessonPath(), builtIn, parentWidget());
    m_lesson->setAttribute(Qt::WA_DeleteOnClose);
    m_lesson->show();
}

void HelpMenu::showShortcuts()
{
    const QString row = QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>");
    QStringList rows;
    // The window's keys, then the Help menu's own (F1 for the lesson plan).
    QList<QAction*> withKeys = parentWidget()->actions();
    for (QAction* action : actions()) {
        if (!withKeys.contains(action)) {
            withKeys.append(action);
        }
    }
    for (const QAction* action : std::as_const(withKeys)) {
        QStringList keys;
        for (const QKeySequence& key : action->shortcuts()) {
            keys.append(key.toString(QKeySequence::NativeText).toHtmlEscaped());
        }
        if (!keys.isEmpty()) {
            QString text = action->text();
            rows.append(row.arg(keys.join(QStringLiteral(", ")), text.remove(QLatin1Char('&')).toHtmlEscaped()));
        }
    }
    rows.append(row.arg(tr("Enter or double-click"), tr("on a catalogue row: add the product to the cart")));
    rows.append(row.arg(tr("Tab, Shift+Tab"), tr("move between the controls")));
    showMessage(QStringLiteral("shortcutsMessage"), tr("Keyboard shortcuts"),
                QStringLiteral("<table cellspacing=\"6\">%1</table>").arg(rows.join(QString())));
}

void HelpMenu::showAbout()
{
    showMessage(QStringLiteral("aboutMessage"), tr("About OnceOrder"),
                tr("<p><b>OnceOrder %1</b></p><p>Places every order exactly once over an unreliable network: one "
                   "Idempotency-Key per cart, retried with capped exponential backoff and full jitter. The debug "
                   "panel breaks the network and the server on purpose, so a class can watch the order still be "
                   "placed once.</p>")
                    .arg(QCoreApplication::applicationVersion().toHtmlEscaped()));
}

void HelpMenu::showMessage(const QString& objectName, const QString& title, const QString& text)
{
    QMessageBox box(QMessageBox::NoIcon, title, text, QMessageBox::Close, parentWidget());
    box.setObjectName(objectName);
    box.setIconPixmap(QApplication::windowIcon().pixmap(64));
    box.setFont(parentWidget()->font());
    box.exec();
}

} // namespace onceorder::ui

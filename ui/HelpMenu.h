// HelpMenu: Help → the lesson plan (docs/teaching.md, in the window's language, shown in a LessonViewer), the keyboard
// shortcuts and About. The shortcuts are read from the window's own actions when asked, so the list cannot drift from
// what the keys do.
#pragma once

#include <QMenu>
#include <QPointer>

namespace onceorder::ui {

class LessonViewer;

class HelpMenu : public QMenu
{
    Q_OBJECT

public:
    // `window` owns the menu; its actions with shortcuts (zoom, quit) are the ones listed.
    explicit HelpMenu(QWidget* window);

    // Where the lesson plan is on this machine (the package's doc folder, or the source tree of this build); empty
    // when neither is there.
    static QString lessonPath();

private:
    void openLesson();
    void showShortcuts();
    void showAbout();
    // A message box in the window's font, so it is as large as the presentation zoom makes the window.
    void showMessage(const QString& objectName, const QString& title, const QString& text);

    QPointer<LessonViewer> m_lesson; // one at a time; F1 again brings it to the front
};

} // namespace onceorder::ui

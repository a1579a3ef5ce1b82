package playground

// initCommand makes the workspace in the folder the README names, so
// that the pages, the README and the command line tell one story.
const initCommand = "wirelab init ~/wirelab-work"

// exerciseText is every string of the exercise pages, in one language.
// The script's strings travel to the page in the page's data.
type exerciseText struct {
	Title        string `json:"-"`
	Intro        string `json:"-"`
	Frame        string `json:"-"` // the kind of an exercise done in a console
	Code         string `json:"-"` // the kind of an exercise written in Go
	Lesson       string `json:"-"` // followed by the lesson's title
	Done         string `json:"-"` // an exercise passed
	Todo         string `json:"-"` // an exercise not passed yet
	Count        string `json:"-"` // "%d of %d exercises passed"
	NotFound     string `json:"-"`
	Hints        string `json:"-"`
	HintOf       string `json:"-"` // "Hint %d of %d"
	NextHint     string `json:"-"`
	NoHintYet    string `json:"-"`
	DoItIn       string `json:"-"` // a frame exercise: where to do it
	OpenConsole  string `json:"-"`
	CheckHere    string `json:"-"`
	WriteIt      string `json:"-"` // a code exercise: where to write it
	Workspace    string `json:"-"` // followed by the folder
	NoWorkspace  string `json:"-"`
	FromTerminal string `json:"-"`
	Install      string `json:"-"` // followed by "go install ."
	OrGoRun      string `json:"-"` // between "go install ." and "go run . grade ..."
	RemoteOnly   string `json:"-"` // code is graded only from this machine
	RemoteNoSave string `json:"-"` // a page from elsewhere: progress is not kept
	Solution     string `json:"-"`
	ShowSolution string `json:"-"`
	ConfirmText  string `json:"-"`
	ConfirmYes   string `json:"-"`
	SolutionNote string `json:"-"` // above a solution shown before passing
	// SolutionOwn, "wirelab serve", SolutionFollow, "wirelab serve
	// --follow", SolutionEnd: where a page not on this machine finds the
	// solution, in place of a button it may not press.
	SolutionOwn    string `json:"-"`
	SolutionFollow string `json:"-"`
	SolutionEnd    string `json:"-"`
	FramesInOrder  string `json:"-"`
	Back           string `json:"-"` // a link back to the exercise
	Panel          string `json:"-"` // the console's exercise panel
	Check          string `json:"check"`
	Checking       string `json:"checking"`
	Passed         string `json:"passed"`
	NotYet         string `json:"notYet"`
	Saved          string `json:"saved"`
	NoSession      string `json:"noSession"`
	Failed         string `json:"failed"` // the check itself could not run
	Stage          string `json:"stage"`  // "stage %d of %d"
	StatusNames    struct {
		Running string `json:"running"`
		Passed  string `json:"passed"`
		Failed  string `json:"failed"`
		Skipped string `json:"skipped"`
		Error   string `json:"error"`
	} `json:"status"`
}

func exerciseStrings(l lang) exerciseText {
	var t exerciseText
	if l == ru {
		t = exerciseText{
			Title:          "Упражнения",
			Intro:          "Два вида упражнений. Кадровые делаются в консоли: вы набираете сообщения руками, и проверка читает запись сессии. Кодовые пишутся на Go в вашем редакторе, а проверка собирает программу, запускает её и говорит с ней по протоколу, как настоящий собеседник.",
			Frame:          "кадры",
			Code:           "код",
			Lesson:         "Урок: ",
			Done:           "пройдено",
			Todo:           "ещё нет",
			Count:          "Пройдено %d из %d упражнений.",
			NotFound:       "Такого упражнения нет: ",
			Hints:          "Подсказки",
			HintOf:         "Подсказка %d из %d",
			NextHint:       "Следующая подсказка",
			NoHintYet:      "Подсказки открываются по одной: сначала куда смотреть, последняя почти даёт ответ.",
			DoItIn:         "Это упражнение делается в консоли: отправляйте кадры, а затем нажмите «Проверить» на панели упражнения.",
			OpenConsole:    "Открыть консоль с этим упражнением",
			CheckHere:      "Проверка читает запись сессии этой вкладки: события, которые прошли по проводу, по порядку.",
			WriteIt:        "Это упражнение пишется на Go в вашем редакторе.",
			Workspace:      "Ваша рабочая папка: ",
			NoWorkspace:    "Рабочей папки пока нет. Создайте её в терминале, и эта страница найдёт её:",
			FromTerminal:   "Из терминала, с повторной проверкой при каждом сохранении:",
			Install:        "Команда wirelab появится в PATH, когда вы один раз выполните ",
			OrGoRun:        " в своей копии wirelab; а до тех пор то же самое делает команда, запущенная там: ",
			RemoteOnly:     "Код собирается и запускается только со страницы, открытой на этой машине; отсюда проверяйте из терминала.",
			RemoteNoSave:   "Страница открыта не на этой машине: проверка работает, но прогресс не сохраняется.",
			Solution:       "Решение",
			ShowSolution:   "Показать эталонное решение",
			ConfirmText:    "Упражнение ещё не пройдено. Решение лучше смотреть после своей попытки: подсказки открываются по одной и почти всегда достаточно следующей. Всё равно показать?",
			ConfirmYes:     "Да, покажите решение",
			SolutionNote:   "Вы открыли решение до того, как прошли упражнение; это отмечено в прогрессе.",
			SolutionOwn:    "Эталонное решение открывается в вашем собственном wirelab, на вашей машине, а не на этой странице: ",
			SolutionFollow: "; на занятии — ",
			SolutionEnd:    " с адресом для входа, и преподаватель будет виден рядом.",
			FramesInOrder:  "Кадры по порядку: цель, затем текст кадра.",
			Back:           "К упражнению",
			Panel:          "Упражнение",
			Check:          "Проверить",
			Checking:       "Проверяю…",
			Passed:         "Пройдено!",
			NotYet:         "Пока нет. Что осталось:",
			Saved:          "Прогресс сохранён.",
			NoSession:      "Нет сессии: консоль ещё не подключилась к площадке.",
			Failed:         "Проверка не выполнилась: ",
			Stage:          "этап %d из %d",
		}
		t.StatusNames.Running, t.StatusNames.Passed, t.StatusNames.Failed = "идёт", "ок", "ошибка"
		t.StatusNames.Skipped, t.StatusNames.Error = "пропущен", "сбой проверки"
		return t
	}
	t = exerciseText{
		Title:          "Exercises",
		Intro:          "Two kinds of exercise. Frame exercises are done in a console: you type the messages by hand, and the check reads the session's transcript. Code exercises are Go programs written in your editor; the check builds the program, starts it and speaks the protocol to it, as a real peer would.",
		Frame:          "frames",
		Code:           "code",
		Lesson:         "Lesson: ",
		Done:           "passed",
		Todo:           "not yet",
		Count:          "%d of %d exercises passed.",
		NotFound:       "There is no such exercise: ",
		Hints:          "Hints",
		HintOf:         "Hint %d of %d",
		NextHint:       "Next hint",
		NoHintYet:      "Hints open one at a time: the first says where to look, the last all but gives the answer.",
		DoItIn:         "This exercise is done in the console: send the frames, then press Check on the exercise panel.",
		OpenConsole:    "Open the console with this exercise",
		CheckHere:      "The check reads the transcript of this tab's session: the events that crossed the wire, in order.",
		WriteIt:        "This exercise is written in Go, in your editor.",
		Workspace:      "Your workspace: ",
		NoWorkspace:    "There is no workspace yet. Make one in a terminal, and this page will find it:",
		FromTerminal:   "From a terminal, grading again on every save:",
		Install:        "The wirelab command is on your PATH once you have run ",
		OrGoRun:        " in your clone of wirelab; until then, the same from the clone is ",
		RemoteOnly:     "Code is built and run only from a page open on this machine; from here, grade in a terminal.",
		RemoteNoSave:   "This page is not open on this machine: checks work, but progress is not saved.",
		Solution:       "Solution",
		ShowSolution:   "Show the reference solution",
		ConfirmText:    "You have not passed this exercise yet. A solution teaches most after your own attempt: hints open one at a time, and the next one is usually enough. Show it anyway?",
		ConfirmYes:     "Yes, show me the solution",
		SolutionNote:   "You opened the solution before passing; your progress notes that.",
		SolutionOwn:    "The reference solution opens on your own wirelab, on your machine, not from this page: ",
		SolutionFollow: "; in a classroom, ",
		SolutionEnd:    " with the join URL, which keeps the instructor beside it.",
		FramesInOrder:  "The frames in order: the target, then the frame.",
		Back:           "Back to the exercise",
		Panel:          "Exercise",
		Check:          "Check",
		Checking:       "Checking…",
		Passed:         "Passed!",
		NotYet:         "Not yet. What is left:",
		Saved:          "Progress saved.",
		NoSession:      "No session: the console has not connected to the playground yet.",
		Failed:         "The check could not run: ",
		Stage:          "stage %d of %d",
	}
	t.StatusNames.Running, t.StatusNames.Passed, t.StatusNames.Failed = "running", "ok", "FAIL"
	t.StatusNames.Skipped, t.StatusNames.Error = "skipped", "grader error"
	return t
}

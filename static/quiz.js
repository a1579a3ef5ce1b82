// A lesson's questions (the quiz at its end) and their count on the
// course map. An entry module of its own, which imports nothing.
//
// On a lesson page, each question is a form (course.quizHTML) whose
// answer goes to POST /learn/{slug}/quiz {"question", "choice", "lang"};
// the server says whether it is right, which choice is, and why
// (playground/quiz.go). The page holds no answer before that. The
// answers that count are the first ones, and are kept where the page's
// #quiz-state says: "progress", the progress file of the machine that
// serves the page, which the server writes itself; or "browser", this
// browser's storage, for a page from another machine (a classroom
// follower's), whose answers are never the instructor's learner's.
//
// On the course map, a lesson's count whose answers are kept in the
// browser (.map-quiz[data-kept="browser"]) is counted here.

const lang = document.documentElement.lang === "ru" ? "ru" : "en";

// storeKey names a lesson's answers in this browser: {"1": {"choice": 2,
// "right": true}, ...}, keyed by the question's number.
function storeKey(slug) { return "wirelab.quiz." + slug; }

function stored(slug) {
  try {
    return JSON.parse(localStorage.getItem(storeKey(slug)) || "{}") || {};
  } catch (e) {
    return {};
  }
}

// keep remembers a first answer in this browser; a later one changes
// nothing, as on the server.
function keep(slug, question, answer) {
  const all = stored(slug);
  if (all[question]) return;
  all[question] = { choice: answer.choice, right: answer.right };
  try {
    localStorage.setItem(storeKey(slug), JSON.stringify(all));
  } catch (e) {
    // Storage off: the answer lasts as long as the page.
  }
}

// fill writes a score's words: {right} and {questions}, as the server's
// quizWords does.
function fill(words, right, questions) {
  return words.replace("{right}", String(right)).replace("{questions}", String(questions));
}

// count is the score of the answers kept in this browser, for a lesson
// of n questions.
function count(slug, n) {
  const all = stored(slug);
  let right = 0, answered = 0;
  for (let q = 1; q <= n; q++) {
    if (!all[q]) continue;
    answered++;
    if (all[q].right) right++;
  }
  return { right, answered, questions: n };
}

// Quiz is a lesson's questions on its page.
class Quiz {
  constructor(section, slug, state) {
    this.section = section;
    this.slug = slug;
    this.kept = state.kept;
    this.problem = state.problem || "";
    this.score = section.querySelector(".quiz-score");
    this.forms = new Map();
    for (const form of section.querySelectorAll(".quiz-question")) {
      const n = Number(form.dataset.question);
      this.forms.set(n, form);
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        const picked = form.querySelector("input[type=radio]:checked");
        if (picked) this.answer(n, Number(picked.value));
      });
    }
    // Answers given before: from the server's progress, with their
    // explanation; or from this browser, asked again to get it.
    for (const [q, a] of Object.entries(state.answers || {})) this.show(Number(q), a);
    if (this.kept === "browser") {
      for (const [q, a] of Object.entries(stored(slug))) {
        if (this.forms.has(Number(q))) this.answer(Number(q), a.choice, true);
      }
    }
    this.tally();
  }

  // answer posts a choice and shows what the server says. again is an
  // answer this browser kept, asked for its explanation.
  async answer(question, choice, again) {
    const form = this.forms.get(question);
    const verdict = form.querySelector(".quiz-verdict");
    let res;
    try {
      const r = await fetch("/learn/" + encodeURIComponent(this.slug) + "/quiz", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ question, choice, lang }),
      });
      res = await r.json();
      if (!r.ok) {
        verdict.textContent = res.error || String(r.status);
        return;
      }
    } catch (e) {
      verdict.textContent = String(e);
      return;
    }
    if (res.problem) this.problem = res.problem;
    if (!res.saved && !res.problem && !again) keep(this.slug, question, res.answer);
    // The answer that counts is the first: the server's, or this
    // browser's.
    let shown = res.answer;
    if (!res.saved) {
      const first = stored(this.slug)[question];
      if (first && first.choice !== shown.choice) shown = { ...shown, choice: first.choice, right: first.right };
    }
    this.show(question, shown);
    this.tally(res.score);
  }

  // show marks a question answered: the choice picked, the right one,
  // the verdict and the explanation; the question cannot be answered
  // again.
  show(question, a) {
    const form = this.forms.get(question);
    if (!form) return;
    for (const label of form.querySelectorAll(".quiz-choice")) {
      const c = Number(label.dataset.choice);
      const input = label.querySelector("input");
      input.checked = c === a.choice;
      input.disabled = true;
      label.classList.toggle("right", c === a.answer);
      label.classList.toggle("wrong", c === a.choice && !a.right);
    }
    form.querySelector(".quiz-answer").hidden = true;
    form.classList.add("answered", a.right ? "is-right" : "is-wrong");
    const verdict = form.querySelector(".quiz-verdict");
    const word = document.createElement("strong");
    word.textContent = a.right ? this.section.dataset.right : this.section.dataset.wrong;
    const why = document.createElement("span");
    why.className = "quiz-why";
    // The explanation is the lesson's own inline HTML, rendered by the
    // server from the course's markdown (code spans, emphasis).
    why.innerHTML = a.explanation;
    verdict.replaceChildren(word, " ", why);
  }

  // tally writes the score under the questions: the server's, when it
  // keeps the answers, or this browser's count.
  tally(score) {
    const n = this.forms.size;
    let s = score;
    if (!s && this.kept === "browser") s = count(this.slug, n);
    if (!s) {
      s = { right: 0, answered: 0, questions: n };
      for (const form of this.forms.values()) {
        if (form.classList.contains("answered")) s.answered++;
        if (form.classList.contains("is-right")) s.right++;
      }
    }
    let text = s.answered > 0 ? fill(this.section.dataset.score, s.right, s.questions) : "";
    if (text && this.kept === "browser") text += " " + this.section.dataset.unsaved;
    if (this.problem) text += (text ? " " : "") + this.problem;
    this.score.textContent = text;
  }
}

const section = document.querySelector("section.quiz");
const article = document.querySelector("article.lesson[data-lesson]");
const stateEl = document.getElementById("quiz-state");
if (section && article && stateEl) {
  new Quiz(section, article.dataset.lesson, JSON.parse(stateEl.textContent));
}

for (const el of document.querySelectorAll('.map-quiz[data-kept="browser"]')) {
  const s = count(el.dataset.lesson, Number(el.dataset.questions));
  if (s.answered > 0) {
    el.textContent = fill(el.dataset.score, s.right, s.questions);
    el.classList.toggle("all-right", s.right === s.questions);
  }
}

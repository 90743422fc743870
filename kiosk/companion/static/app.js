// The companion's pages: the live state from the table over a WebSocket, drawn into the page;
// forms and buttons post to the table with the page's CSRF token. Nothing is fetched from
// anywhere but the table itself.
"use strict";

(function () {
  const role = document.body.dataset.role;
  const csrfMeta = document.querySelector('meta[name="csrf"]');
  const csrf = csrfMeta ? csrfMeta.content : "";
  const $ = (id) => document.getElementById(id);
  let boardKey = "";
  let current = null;
  let teacherState = null;
  let me = null;

  function text(id, value) {
    const el = $(id);
    if (el) el.textContent = value || "";
  }

  function show(id, visible) {
    const el = $(id);
    if (el) el.hidden = !visible;
  }

  // The answer to a button or a form: on the page's status line, and on the teacher's page
  // also just under what was pressed (the page is long: the top is out of sight).
  function say(message, bad, near) {
    const el = $("status");
    if (!el) return;
    el.textContent = message || "";
    el.classList.toggle("bad", !!bad);
    el.classList.toggle("beside", role === "teacher" && !!near);  // shown there, read here
    if (role !== "teacher" || !near) return;
    for (const old of document.querySelectorAll(".feedback")) old.remove();
    const where = near.closest("form, .row, .throws") || near;
    const note = document.createElement("p");
    note.className = "feedback status" + (bad ? " bad" : "");
    note.setAttribute("role", "status");
    note.textContent = message || "";
    where.after(note);
  }

  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body || {}),
    });
    let data = {};
    try {
      data = await response.json();
    } catch (e) {
      data = {};
    }
    if (!response.ok) {
      throw new Error(data.error || "The table answered " + response.status + ".");
    }
    return data;
  }

  function after(then) {
    if (then === "reload") location.reload();
    else if (then) location.href = then;
  }

  // -- forms and buttons --------------------------------------------------------------------

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!form.dataset.action) return;
    event.preventDefault();
    const body = Object.fromEntries(new FormData(form).entries());
    if (event.submitter && event.submitter.name) body[event.submitter.name] = event.submitter.value;
    try {
      const data = await post(form.dataset.action, body);
      say(data.status || "Done.", false, event.submitter || form);
      after(form.dataset.then);
    } catch (err) {
      say(err.message, true, event.submitter || form);
    }
  });

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-post]");
    if (!button) return;
    const body = {};
    for (const [key, value] of Object.entries(button.dataset)) {
      if (key !== "post" && key !== "then") body[key] = value;
    }
    button.disabled = true;
    try {
      const data = await post(button.dataset.post, body);
      say(data.status || "Done.", false, button);
      after(button.dataset.then);
    } catch (err) {
      say(err.message, true, button);
    } finally {
      button.disabled = false;
    }
  });

  const pick = $("position-pick");
  if (pick) {
    pick.addEventListener("change", () => {
      const [position, turn, dice] = pick.value.split(" ");
      if (!position) return;
      $("position-id").value = position;
      $("position-turn").value = turn;
      if (dice) {
        const [d1, d2] = dice.split("-");
        $("position-d1").value = d1;
        $("position-d2").value = d2;
      }
    });
  }

  const progressButton = $("progress-load");
  if (progressButton) progressButton.addEventListener("click", loadProgress);

  // -- the live state ------------------------------------------------------------------------

  function connect() {
    if (!["projector", "teacher", "student"].includes(role)) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(scheme + "//" + location.host + "/ws?page=" + role);
    ws.onopen = () => show("offline", false);
    ws.onmessage = (message) => {
      const data = JSON.parse(message.data);
      if (data.type !== "state") return;
      current = data.state;
      teacherState = data.teacher || null;
      me = data.me || null;
      if (data.board !== undefined) drawBoard(data.board, current.board_key);
      draw();
    };
    ws.onclose = (event) => {
      boardKey = "";  // the server sends the board again to the page's next connection
      if (role === "student" && event.reason === "the class is over") {
        location.href = "/join";
        return;
      }
      show("offline", true);
      setTimeout(connect, 1500);
    };
  }

  function drawBoard(svg, key) {
    const board = $("board");
    if (board && key !== boardKey) {
      board.innerHTML = svg;
      boardKey = key;
    }
  }

  function draw() {
    const s = current;
    document.body.dataset.seq = s.seq;
    const lessonTitled = s.mode === "lesson" && role !== "projector";  // its panel names it
    text("banner", lessonTitled ? s.banner : "Backgammon Table" + (s.banner && s.mode !== "lesson" ? " · " + s.banner : ""));
    drawLines(s);
    drawLesson(s);
    drawJoin(s);
    drawProblem(s);
    drawVote(s);
    if (role !== "teacher") drawCandidates($("candidate-list"), s.candidates, s.vote, s.problem);
    if (role === "teacher" && teacherState) drawTeacher(s, teacherState);
    if (role === "student") drawStudent(s);
    if (role === "projector") fitProjector(s);
  }

  // The projector shows everything it is asked to within the screen: the revealed plays
  // take the room the board gives up; if they still do not fit, the last reasons go.
  function fitProjector(s) {
    document.body.classList.toggle("revealed", !!s.candidates);
    const side = document.querySelector(".projector .side");
    if (!side) return;
    const reasons = [...document.querySelectorAll("#candidate-list .reasons li")];
    while (side.scrollHeight > side.clientHeight + 1 && reasons.length > 0) {
      reasons.pop().remove();
    }
  }

  function drawLines(s) {
    const said = new Set();
    for (const side of ["white", "black"]) {
      const el = $("line-" + side);
      if (!el) continue;
      let m = s.messages[side];
      // on the projector each text once: a lesson says it in its panel, both sides' same
      // words are shown one time
      if (role === "projector" && m && (s.lesson || said.has(m.text))) m = null;
      if (m) said.add(m.text);
      el.textContent = m ? side.charAt(0).toUpperCase() + side.slice(1) + ": " + m.text : "";
      el.classList.toggle("warning", !!(m && m.warning));
      el.dataset.rating = m && m.rating ? m.rating : "";
    }
    const conn = $("connection");
    if (conn) {
      conn.hidden = s.connected;
      conn.textContent = s.connected ? "" : "The table: " + (s.connection || "not connected");
    }
    if ($("pips")) {
      text(
        "pips",
        s.hide_pips ? "" : "Pips: white " + s.pips.white + ", black " + s.pips.black,
      );
      text("score", s.score.white[0] + " · " + s.score.white[1]);
    }
  }

  function drawLesson(s) {
    const lesson = s.lesson;
    show("lesson", !!lesson);
    if (!lesson) {
      text("lesson-text", "");
      return;
    }
    text("lesson-title", "Lesson " + (lesson.number || "") + ": " + lesson.title);
    text("lesson-step", lesson.ended ? "Finished" : "Step " + lesson.step + " of " + lesson.steps);
    text("lesson-text", lesson.text);
    text("lesson-source", lesson.source ? "From " + lesson.source + "." : "");
    const list = $("lesson-choices");
    // the class votes on the question: its choices are the vote's (each text once)
    const voted = role === "projector" && s.vote && s.vote.kind === "question";
    if (list) {
      list.replaceChildren(
        ...(voted ? [] : lesson.choices || []).map((c) => {
          const li = document.createElement("li");
          li.textContent = c;
          return li;
        }),
      );
    }
    const result = $("lesson-result");
    if (result) {
      result.textContent = s.result ? s.result.text : "";
      result.className = "result" + (s.result ? (s.result.correct ? " right" : " wrong") : "");
    }
  }

  function drawJoin(s) {
    show("join", !!s.join);
    if (s.join) {
      text("join-code", s.join.code);
      text("join-where", location.host + "/join ·");
    }
  }

  function drawProblem(s) {
    const label = s.problem ? s.problem.label : "";
    if (role === "projector") {
      show("problem", !!s.problem && !s.lesson && !s.vote && !s.candidates);
      text("problem-label", label);
    } else if (role === "teacher") {
      text("problem-label", label ? "The roll in question: " + label : "No roll in question yet.");
    }
  }

  function drawVote(s) {
    const vote = s.vote;
    if (role === "student") return;
    // a play's vote revealed: its counts go beside the ranked plays on the projector
    const merged = role === "projector" && vote && vote.kind === "play" && s.candidates;
    show("vote", !!vote && !merged);
    const list = $("vote-options");
    if (!list) return;
    if (!vote) {
      list.replaceChildren();
      text("vote-total", "");
      return;
    }
    const most = Math.max(1, ...vote.counts);
    list.replaceChildren(
      ...vote.options.map((option, i) => {
        const li = document.createElement("li");
        const best = vote.revealed && option === vote.best;
        li.className = best ? "best" : "";
        const name = document.createElement("span");
        name.className = "option";
        name.textContent = option + (best ? "  ✔ best" : "");
        const bar = document.createElement("span");
        bar.className = "bar";
        const fill = document.createElement("span");
        fill.className = "fill";
        fill.style.width = Math.round((100 * vote.counts[i]) / most) + "%";
        bar.appendChild(fill);
        const count = document.createElement("span");
        count.className = "count";
        count.textContent = vote.counts[i];
        li.append(name, bar, count);
        return li;
      }),
    );
    const asked = s.lesson && vote.kind === "question" && role === "projector";
    text(
      "vote-total",
      (asked ? "" : vote.question + " · ") +
        vote.total +
        (vote.total === 1 ? " vote" : " votes") +
        (vote.open ? " so far" : ", the vote is closed"),
    );
  }

  function drawCandidates(list, candidates, vote, problem) {
    if (!list) return;
    const few = role === "projector";
    if (role === "projector") show("candidates", !!candidates);
    if (!candidates) {
      list.replaceChildren();
      return;
    }
    const counted = few && vote && vote.kind === "play" ? vote : null;
    if (few) {  // how many voted, or else the roll they are the plays of
      text(
        "candidates-votes",
        counted
          ? counted.total + (counted.total === 1 ? " vote" : " votes")
          : problem ? "· " + problem.label : "",
      );
    }
    list.replaceChildren(
      ...candidates.slice(0, few ? 3 : candidates.length).map((c) => {
        const li = document.createElement("li");
        li.dataset.rating = c.rating;
        const head = document.createElement("div");
        head.className = "head";
        const move = document.createElement("b");
        move.textContent = c.move;
        const eq = document.createElement("span");
        eq.className = "equity";
        eq.textContent =
          (c.equity === null ? "" : "equity " + c.equity.toFixed(3)) +
          (c.loss ? "  (−" + c.loss.toFixed(3) + ", " + c.rating + ")" : "");
        head.append(move, eq);
        if (counted) {
          const at = counted.options.indexOf(c.move);
          const votes = document.createElement("span");
          votes.className = "votes";
          const n = at < 0 ? 0 : counted.counts[at];
          votes.textContent = n + (n === 1 ? " vote" : " votes");
          head.append(votes);
        }
        const reasons = document.createElement("ul");
        reasons.className = "reasons";
        for (const r of c.reasons.slice(0, few ? (c.loss ? 1 : 2) : 4)) {
          const item = document.createElement("li");
          item.textContent = r.text;
          reasons.appendChild(item);
        }
        li.append(head, reasons);
        return li;
      }),
    );
  }

  // -- the teacher ---------------------------------------------------------------------------

  function drawTeacher(s, t) {
    drawCandidates($("candidate-list"), t.candidates);
    const state = $("class-state");
    if (state) {
      state.textContent = t.class_open
        ? s.join
          ? "The class is open: students join at " + location.host + "/join with the code"
          : "The class is open, but its code has run out: make a new one."
        : "No class is open.";
    }
    text("join-code", s.join ? s.join.code : "");
    text("awake", t.awake);
    const students = $("students");
    if (students) {
      students.replaceChildren(
        ...t.students.map((st) => {
          const li = document.createElement("li");
          const voted = t.votes[st.name];
          li.textContent =
            st.name +
            " — " +
            st.right +
            " of " +
            st.answered +
            " right" +
            (voted ? " · voted " + voted : "");
          return li;
        }),
      );
    }
    if (t.ranking_error) say(t.ranking_error, true);
  }

  async function loadProgress() {
    try {
      const response = await fetch("/api/teacher/progress", { credentials: "same-origin" });
      const data = await response.json();
      if (!response.ok) throw new Error(data.error || "The progress could not be read.");
      const table = document.createElement("table");
      table.className = "progress";
      const head = table.createTHead().insertRow();
      for (const title of ["Learner", "Lessons", "Answers"]) {
        const th = document.createElement("th");
        th.textContent = title;
        head.appendChild(th);
      }
      const body = table.createTBody();
      for (const learner of data.learners) {
        const row = body.insertRow();
        row.insertCell().textContent = learner.name;
        row.insertCell().textContent =
          learner.lessons
            .map((l) => l.lesson + ". " + l.title + (l.done ? " (done)" : " (step " + l.step + ")"))
            .join("; ") || "—";
        row.insertCell().textContent = learner.answers.length
          ? learner.right + " of " + learner.answers.length + " right"
          : "—";
      }
      $("progress").replaceChildren(table);
    } catch (err) {
      say(err.message, true);
    }
  }

  // -- the student ---------------------------------------------------------------------------

  let myProgressFor = -1;

  function drawStudent(s) {
    const vote = s.vote;
    show("vote", !!vote);
    show("no-vote", !vote);
    if (!vote) return;
    text("vote-question", vote.question);
    const buttons = $("vote-buttons");
    const mine = me ? me.choice : null;
    buttons.replaceChildren(
      ...vote.options.map((option, i) => {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "vote" + (mine === i ? " chosen" : "");
        if (vote.revealed && option === vote.best) button.classList.add("best");
        button.textContent = option + (mine === i ? "  ← your choice" : "");
        button.disabled = !vote.open;
        button.addEventListener("click", async () => {
          try {
            await post("/api/vote", { vote: vote.id, choice: String(i) });
            say("Your vote: " + option);
          } catch (err) {
            say(err.message, true);
          }
        });
        return button;
      }),
    );
    const result = $("vote-result");
    if (vote.revealed) {
      const right = mine !== null && vote.options[mine] === vote.best;
      result.textContent =
        "The best: " +
        vote.best +
        ". " +
        (mine === null ? "You did not vote." : right ? "You chose it!" : "You chose " + vote.options[mine] + ".");
      result.className = "result " + (right ? "right" : "wrong");
      if (myProgressFor !== vote.id) {
        myProgressFor = vote.id;
        loadMine();
      }
    } else {
      result.textContent = vote.open ? "Tap the play you would make." : "";
      result.className = "result";
    }
  }

  async function loadMine() {
    const box = $("my-progress");
    if (!box) return;
    try {
      const response = await fetch("/api/me", { credentials: "same-origin" });
      const data = await response.json();
      if (!response.ok) throw new Error(data.error || "Your progress could not be read.");
      const right = data.answers.filter((a) => a.correct).length;
      const lines = [
        data.answers.length
          ? right + " of " + data.answers.length + " answers right"
          : "No answers yet.",
      ];
      for (const l of data.lessons) {
        lines.push("Lesson " + l.lesson + ". " + l.title + (l.done ? ": done" : ": step " + l.step));
      }
      box.replaceChildren(
        ...lines.map((line) => {
          const p = document.createElement("p");
          p.textContent = line;
          return p;
        }),
      );
    } catch (err) {
      box.textContent = err.message;
    }
  }

  if (role === "student") loadMine();
  connect();
})();

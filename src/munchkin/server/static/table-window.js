/* Munchkin table page: the response window panel. Whose moment it is, who is waited on, the countdown for those
   answering another's moment, and Wait! with how long it holds. Plain ES2020, no build step. */
"use strict";

const WindowPanel = (() => {
  const { el, fill } = M;
  const { $, WINDOW_WORDS, WINDOW_TITLES, S, view, mySeat, isSpectator, playerName, namesList, actions, capitalized } =
    Page;
  const { send } = Conn;
  const { actionButton } = ActionsPanel;

  // ---------------- response window: whose moment it is, its clock, and Wait!
  let windowTick = null;
  const OWN_WORDS = {
    window: "Play a card, ask for help, or pass to let the fight go on.",
    rolled: "Answer your roll with a card, or pass to let it stand.",
    caught: "You were caught: play a card before the Bad Stuff lands, or pass to suffer it.",
    curse_window: "Cancel the Curse with a card, or pass to let it strike.",
  };

  /** Whose moment a window is, in words ("Lady Pointy's fight", "your fight"), or "" when nobody's. */
  function windowMoment(w, v) {
    const mine = (s) => !isSpectator() && s === mySeat();
    const whose = (seats) => (seats.some(mine) ? "your" : `${namesList(seats)}'s`);
    const fighters = ((v.combat && v.combat.fighters) || [])
      .map((f) => (v.players || []).findIndex((p) => p.name === f.player))
      .filter((s) => s >= 0);
    if (w.kind === "window") {
      if (!fighters.length) return "";
      const [fighter, helper] = fighters;
      if (helper !== undefined && mine(helper)) return `the fight you help ${playerName(fighter)} in`;
      return `${whose([fighter])} fight` + (helper !== undefined ? ` (${playerName(helper)} helping)` : "");
    }
    if (w.kind === "rolled") {
      const runner = (w.deciding || [])[0];
      return runner !== undefined ? `${whose([runner])} Run Away roll` : fighters.length ? `${whose(fighters.slice(0, 1))} fight` : "";
    }
    if (w.kind === "curse_window") return (w.deciding || []).length ? `the Curse on ${namesList(w.deciding)}` : "";
    return "";
  }

  function renderWindow() {
    const panel = $("window-panel");
    const w = S.msg && S.msg.window;
    const v = view();
    clearInterval(windowTick);
    if (!w || !v || v.over) {
      panel.hidden = true;
      panel.classList.remove("mine", "own", "held");
      $("window-body").replaceChildren();
      return;
    }
    const me = mySeat();
    const waiting = w.waiting || [];
    const clocked = w.clocked || [];
    const heldBy = w.held_by || [];
    const mine = !isSpectator() && waiting.includes(me);
    const own = mine && (w.deciding || []).includes(me);
    const onClock = mine && clocked.includes(me);
    const counting = typeof w.remaining === "number";
    const moment = windowMoment(w, v);
    const body = $("window-body");
    panel.hidden = false;
    panel.classList.toggle("mine", mine);
    panel.classList.toggle("own", own);
    panel.classList.toggle("held", heldBy.length > 0);
    const passListed = actions().some((a) => a.text === "pass");
    const pass = mine && passListed ? actionButton({ text: "pass", kind: "pass", cards: [] }, "big pass", "Pass") : null;
    const others = (seats) => seats.filter((s) => s !== me);
    // a hold is bounded (docs/server.md): the seconds left of it tick in a .hold-left span
    const holdLeft = (i) => el("span", { class: "hold-left", dataset: { hold: String(i) } }, "…");
    const myHold = heldBy.indexOf(me);
    const held = heldBy.length
      ? el(
          "p",
          { id: "window-held", class: "window-held", role: "status" },
          myHold >= 0 && !isSpectator()
            ? ["You said Wait! The window waits until you play or pass, for ", holdLeft(myHold), " more at most; then you pass."]
            : [
                `Held by ${namesList(heldBy)}: the countdown waits until they play or pass (`,
                holdLeft(0),
                " more at most)."
              ]
        )
      : null;
    if (own) {
      const whose = moment ? capitalized(moment) : "Your decision";
      $("window-heading").textContent = `⚑ ${whose}: take your time`;
      const also = others(waiting);
      fill(
        body,
        el("p", { class: "window-prompt" }, OWN_WORDS[w.kind] || WINDOW_WORDS[w.kind] || `Answer now (${w.kind}).`),
        el("p", { id: "window-no-clock", class: "window-no-clock" }, "No countdown: this is your own decision and the table waits for you."),
        el("div", { class: "window-buttons" }, pass),
        also.length ? el("p", { class: "hint" }, `${capitalized(namesList(also))} may still answer meanwhile.`) : null,
        held,
        el("p", { class: "hint" }, "Cards you can play are under Your moves.")
      );
    } else if (mine) {
      $("window-heading").textContent = `⚑ Your answer — ${moment ? capitalized(moment) : WINDOW_TITLES[w.kind] || "respond"}`;
      const used = (w.waited || []).includes(me);
      const holding = heldBy.includes(me);
      let wait = null;
      if (w.allow_wait && onClock) {
        wait = el(
          "button",
          { type: "button", id: "wait-button", class: "wait-button", disabled: used || holding || !S.connected, dataset: { used: used ? "1" : "" } },
          holding ? "Holding…" : used ? "Wait! (used)" : "Wait!"
        );
        wait.title = "Stop the countdown until you play or pass (once per window)";
        wait.addEventListener("click", () => {
          if (send({ type: "wait" })) {
            wait.disabled = true;
            wait.dataset.used = "1";
          }
        });
      }
      fill(
        body,
        el("p", { class: "window-prompt" }, WINDOW_WORDS[w.kind] || `Answer now (${w.kind}).`),
        counting
          ? el(
              "div",
              { class: "countdown-row" },
              el("span", { class: "countdown-label" }, "Time left:"),
              el("span", { id: "window-countdown", class: "countdown", role: "timer", "aria-label": "seconds left" }, "…"),
              el("span", { class: "countdown-bar", "aria-hidden": "true" }, el("span", { class: "countdown-fill" }))
            )
          : null,
        held,
        el("div", { class: "window-buttons" }, pass, wait),
        others(waiting).length ? el("p", { class: "hint" }, `Also waiting for ${namesList(others(waiting))}.`) : null,
        el(
          "p",
          { class: "hint" },
          "When the time runs out you pass. ",
          w.allow_wait
            ? `Wait! stops the countdown until you play or pass (for ${Math.round(Number(w.hold_seconds) || 60)} s at most), once per window. `
            : "Wait! is turned off at this table. ",
          "Cards you can play are under Your moves."
        )
      );
    } else {
      $("window-heading").textContent = moment ? capitalized(moment) : WINDOW_TITLES[w.kind] || "Response window";
      const deciding = (w.deciding || []).filter((s) => waiting.includes(s));
      const answering = clocked.filter((s) => !deciding.includes(s));
      fill(
        body,
        el(
          "p",
          { id: "window-waiting", class: "window-waiting" },
          deciding.length ? `${capitalized(namesList(deciding))} ${deciding.length > 1 ? "are" : "is"} deciding (no clock). ` : "",
          answering.length ? `Waiting for ${namesList(answering)} to answer` : deciding.length ? "" : "Waiting for answers",
          answering.length && counting ? [" (", el("span", { class: "countdown", role: "timer" }, "…"), ")"] : "",
          answering.length || !deciding.length ? "." : ""
        ),
        held
      );
    }
    tickWindow();
    if (counting || heldBy.length) windowTick = setInterval(tickWindow, 100);
  }

  function tickWindow() {
    const w = S.msg && S.msg.window;
    for (const n of document.querySelectorAll("#window-panel .hold-left")) {
      const at = S.holdDeadlines[Number(n.dataset.hold)] || 0;
      n.textContent = `${Math.ceil(Math.max(0, (at - performance.now()) / 1000))} s`;
    }
    if (!w || typeof w.remaining !== "number") return;
    const left = Math.max(0, (S.windowDeadline - performance.now()) / 1000);
    const total = Math.max(Number(w.seconds) || 0, Number(w.remaining) || 0, 0.1);
    for (const n of document.querySelectorAll("#window-panel .countdown, #pass-screen .countdown, #pass-bar .countdown")) {
      n.textContent = left > 0 ? `${left.toFixed(1)} s` : "0 s — time's up";
    }
    const fillBar = document.querySelector("#window-panel .countdown-fill");
    if (fillBar) fillBar.style.width = `${Math.min(100, (left / total) * 100).toFixed(1)}%`;
    if (left <= 0) clearInterval(windowTick);
  }

  return { renderWindow, tickWindow };
})();

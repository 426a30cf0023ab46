/* Munchkin table page: one screen (docs/server.md, Pass and play). A pass-and-play device shows one person's hand
   at a time, and the "hand the device to …" screen between two. Plain ES2020, no build step. */
"use strict";

const PassPlay = (() => {
  const { el, fill } = M;
  const { $, PROMPT_WORDS, WINDOW_TITLES, S, view, mySeat, isSpectator, playerName, namesList } = Page;
  const { clearError, capitalized, isDevice, deviceInfo, Faces, Talk } = Page;
  const { send } = Conn;
  const { tickWindow } = WindowPanel;

  // ------------------------------------------------------------------ pass and play: one device, several people

  /** A claim began or ended: drop every trace of the seat shown before (its hand, moves, log, a card face
   * left open, what was typed) before anything of the next seat arrives; its first state draws it all anew. */
  function onClaimed(m) {
    S.hello = { ...S.hello, seat: m.seat, player: m.player };
    S.msg = null;
    S.version = null;
    S.log = [];
    S.logRendered = -1;
    S.filter = null;
    S.firstState = true;
    S.myStandIn = null;
    S.lastFight = null; // told as the previous seat heard it: the next seat's comes with its first state
    S.fightOpen = false;
    clearTimeout(S.fightTimer);
    S.passNote = m.why || "";
    if (m.seat !== null) S.handTo = null;
    if (Talk) Talk.reset(); // the talk too is told again as the next seat may read it
    S.typedSent = "";
    for (const id of ["hand", "hand-count", "actions", "action-list", "log", "combat", "players", "piles", "window-body", "end-screen", "setup-explain"]) {
      const n = $(id);
      if (n) n.replaceChildren();
    }
    for (const id of ["combat-panel", "window-panel", "end-screen", "last-fight-bar"]) $(id).hidden = true;
    $("last-fight-bar").replaceChildren();
    $("action-input").value = "";
    clearError();
    if (Faces) Faces.hide(false);
    const face = $("card-face");
    if (face) face.replaceChildren();
    document.body.classList.toggle("spectator", isSpectator());
    Table.renderHeader();
    renderPass();
  }

  /** Take the device for a person: their hand is shown once the server sends their view. */
  function claimSeat(seat) {
    S.handTo = seat;
    send({ type: "claim", seat });
  }

  /** "Bob wants to play a card" while Ann's hand is shown: Ann's hand goes first, then the hand-over screen. */
  function handOver(seat) {
    S.handTo = seat;
    if (mySeat() !== null) send({ type: "release" });
    renderPass();
  }

  function passButton(label, onClick, cls) {
    const b = el("button", { type: "button", class: cls || "small", disabled: !S.connected }, label);
    b.addEventListener("click", onClick);
    return b;
  }

  /** The device's bar (whose hand is shown, who may take the device) and the full-screen "hand the device
   * to …" screen, shown whenever no hand is and a person's own decision waits (or someone asked for it). */
  function renderPass() {
    const screen = $("pass-screen");
    const bar = $("pass-bar");
    if (!isDevice()) {
      screen.hidden = bar.hidden = true;
      return;
    }
    document.body.classList.add("device");
    const d = deviceInfo();
    const v = view();
    const me = mySeat();
    const over = !!(v && v.over);
    const owed = (d && d.owed) || [];
    const answering = ((d && d.answering) || []).filter((s) => s !== me);
    let to = null;
    if (me === null && !over) {
      const asked = S.handTo;
      if (asked !== null && (!owed.length || owed.includes(asked) || answering.includes(asked))) to = asked;
      else if (owed.length) to = owed[0];
    }
    const w = S.msg && S.msg.window;
    // a new countdown node for each place it is shown in (a node lives in one place only)
    const clock = () => (w && typeof w.remaining === "number" ? [" ", el("span", { class: "countdown", role: "timer" }, "…")] : null);
    screen.hidden = to === null;
    document.body.classList.toggle("passing", to !== null);
    if (to !== null) {
      const name = playerName(to);
      const own = owed.includes(to);
      const what = own
        ? `${name}'s own decision: ${(v && PROMPT_WORDS[v.prompt]) || "their move"}. Nothing runs out while ${name} decides.`
        : w
          ? `${name} may play a card now (${(WINDOW_TITLES[w.kind] || "a response window").toLowerCase()}); the window closes in`
          : `${name} asked for the device`;
      const back = !own && !owed.length ? passButton("Back to the table", () => {
        S.handTo = null;
        renderPass();
      }) : null;
      fill(
        screen,
        el(
          "div",
          { class: "pass-card" },
          el("h2", { id: "pass-heading" }, `Hand the device to ${name}`),
          S.passNote ? el("p", { class: "pass-note" }, S.passNote + ".") : null,
          el("p", { class: "pass-what" }, what, own ? null : clock(), own || !w ? null : "."),
          el("p", { class: "hint" }, `Only ${name} should look now: the next screen shows ${name}'s hand.`),
          el("div", { class: "pass-buttons" }, passButton(`I am ${name} — show my hand`, () => claimSeat(to), "big pass-claim"), back)
        )
      );
      const first = screen.querySelector("button.pass-claim");
      if (first && !screen.contains(document.activeElement)) first.focus({ preventScroll: true });
    } else {
      screen.replaceChildren();
    }
    bar.hidden = over && me === null;
    const wants = answering.map((s) =>
      passButton(`${playerName(s)} wants to play a card`, () => (me === null ? claimSeat(s) : handOver(s)), "small wants")
    );
    if (me !== null) {
      fill(
        bar,
        el(
          "p",
          null,
          el("strong", null, `${playerName(me)}'s hand is shown. `),
          "Hide it before you hand the device on.",
          answering.length && clock() ? [` ${capitalized(namesList(answering))} may answer the window, which closes in`, clock(), "."] : ""
        ),
        el("div", { class: "pass-buttons" }, passButton("Hide my hand", () => send({ type: "release" })), wants)
      );
      tickWindow();
      return;
    }
    const people = ((d && d.people) || []).filter((s) => !answering.includes(s));
    fill(
      bar,
      el("p", null, el("strong", null, "One screen: no hand is shown. "), answering.length && clock() ? ["The window closes in", clock(), "."] : ""),
      el(
        "div",
        { class: "pass-buttons" },
        wants,
        owed.length ? null : people.map((s) => passButton(`I am ${playerName(s)} — show my hand`, () => claimSeat(s)))
      )
    );
    tickWindow(); // the countdowns just drawn here show their seconds at once
  }

  return { onClaimed, renderPass };
})();

/* Munchkin table page: the "Your moves" panel around the staged menu (moves.js draws the menu itself): a move's
   button, the moves with one card (from its face), and a move typed in. Plain ES2020, no build step. */
"use strict";

const ActionsPanel = (() => {
  const { el, fill } = M;
  const { $, S, view, isSpectator, isDevice, namesList, actions, Faces } = Page;
  const { act, blocked } = Conn;

  // ---------------- actions (the staged menu itself is drawn by moves.js)
  /** The plain-words meaning the seat's menu gives this action text ("" if none). */
  function moveMeaning(text) {
    const menu = S.msg && S.msg.menu;
    const m = menu && typeof Moves !== "undefined" ? Moves.leaves(menu.entries).find((x) => x.text === text) : null;
    return m ? m.meaning : "";
  }

  function actionButton(a, extraClass, label) {
    const meaning = moveMeaning(a.text);
    const b = el(
      "button",
      {
        type: "button",
        class: `action kind-${a.kind}${extraClass ? " " + extraClass : ""}`,
        dataset: { text: a.text, kind: a.kind },
        disabled: blocked(),
      },
      el("span", { class: "move-label" }, label || a.text),
      meaning ? el("span", { class: "move-meaning" }, meaning) : null
    );
    b.addEventListener("click", () => act(a.text));
    return b;
  }

  function renderActions() {
    const box = $("actions");
    const panel = $("actions-panel");
    const v = view();
    const dl = $("action-list");
    if (isDevice() && isSpectator()) {
      fill(box, el("p", { class: "note" }, "No hand is shown: the device is between two people. Press “I am …” above to show yours."));
      dl.replaceChildren();
      return;
    }
    if (isSpectator()) {
      fill(box, el("p", { class: "note" }, "You are watching this table: you see what everyone may see, but no hands."));
      dl.replaceChildren();
      return;
    }
    const list = actions();
    fill(dl, list.map((a) => el("option", { value: a.text })));
    // a "pass" the window panel already offers is not repeated among the moves
    const passInWindow = list.some((a) => a.text === "pass") && !!document.querySelector('#window-panel button.action[data-text="pass"]');
    const omit = new Set(passInWindow ? ["pass"] : []);
    const rest = list.filter((a) => !omit.has(a.text));
    // the panel stands out when the game waits on this seat; moves "at any time" alone keep it quiet
    const answering = list.some((a) => !a.any_time);
    panel.classList.toggle("has-actions", answering);
    panel.classList.toggle("any-time-only", !answering && list.length > 0);
    if (!rest.length) {
      const toAct = (v && v.to_act) || [];
      fill(
        box,
        el(
          "p",
          { class: "note" },
          v && v.over
            ? "The game is over."
            : passInWindow
              ? "Nothing to play now: pass, or let the time run out."
              : toAct.length
                ? `Nothing for you to do now. Waiting on ${namesList(toAct)}.`
                : "Nothing for you to do now."
        )
      );
      return;
    }
    const menu = (S.msg && S.msg.menu) || Moves.flatMenu(list);
    let keep = null;
    let key = "";
    let bar = null;
    if (S.filter) {
      const f = S.filter;
      keep = filterKeep(f);
      key = f.type === "card" ? `card-${f.id}` : `name-${f.name}`;
      const hits = Moves.leaves(menu.entries).filter((m) => !omit.has(m.text) && keep(m)).length;
      const clear = el("button", { type: "button", id: "clear-filter", class: "small" }, "Show all moves");
      clear.addEventListener("click", showAllMoves);
      bar = el("div", { class: "filter-bar", role: "status" }, el("span", null, "Moves with ", el("strong", null, f.name), `: ${hits}.`), clear);
      if (!hits) {
        fill(box, bar, el("p", { class: "note" }, `Nothing to do with ${f.name} right now.`));
        return;
      }
    }
    const holder = el("div", { class: "menu" });
    // while the character-creation box above explains the moment, the menu's title would repeat it
    const explained = $("setup-explain") && !$("setup-explain").hidden;
    const title = menu.title && !S.filter && !explained ? el("p", { class: "menu-title" }, menu.title) : null;
    fill(box, bar, title, holder);
    Moves.render(holder, { menu, onAct: act, disabled: blocked(), omit, keep, key, rerender: renderActions });
  }

  /** Does a move use the card of a filter (a card by its id; a monster, or a name, by the move's words)? */
  function filterKeep(f) {
    return f.type === "card" ? (m) => (m.cards || []).includes(f.id) : (m) => m.text.toLowerCase().includes(f.name.toLowerCase());
  }

  /** A pinned card face's own part (cardface.js): "Moves with this card (N)", which shows only the moves
   * that use it, or "Show all moves" when the moves panel shows only those already. Reading a card never
   * filters the moves by itself: a tap on a name is for reading it (issue 34). */
  function faceMoves(anchor, f) {
    if (isSpectator() || !S.msg || !view() || view().over) return null;
    const id = anchor && anchor.dataset && anchor.dataset.cardId !== undefined ? Number(anchor.dataset.cardId) : NaN;
    const filter = Number.isInteger(id) ? { type: "card", id, name: f.name } : { type: "name", name: f.name };
    const same = (g) => !!g && g.type === filter.type && (g.type === "card" ? g.id === filter.id : g.name === filter.name);
    if (same(S.filter)) {
      const all = el("button", { type: "button", id: "face-all-moves", class: "small" }, "Show all moves");
      all.addEventListener("click", () => {
        Faces.hide(false);
        showAllMoves();
      });
      return all;
    }
    const menu = (S.msg && S.msg.menu) || Moves.flatMenu(actions());
    const n = Moves.leaves(menu.entries).filter(filterKeep(filter)).length;
    if (!n) return el("p", { class: "cf-no-moves" }, "None of your moves uses it now.");
    const b = el("button", { type: "button", id: "face-moves", class: "small" }, `Moves with this card (${n})`);
    b.addEventListener("click", () => {
      Faces.hide(false);
      selectCard(filter);
    });
    return b;
  }
  if (Faces) Faces.setExtra(faceMoves);

  /** Back to every move, the first of them focused. */
  function showAllMoves() {
    S.filter = null;
    Table.render();
    const first = document.querySelector("#actions .menu-stage:not([hidden]) button");
    if (first) first.focus();
  }

  /** Show only the moves with a card (from its face's "Moves with this card"), the first of them focused. */
  function selectCard(filter) {
    S.filter = filter;
    Table.render();
    const panel = $("actions-panel");
    const r = panel.getBoundingClientRect();
    if (r.top < 0 || r.top > window.innerHeight - 80) panel.scrollIntoView({ behavior: M.scrollMotion(), block: "start" });
    const first = document.querySelector("#actions .menu-stage:not([hidden]) button, #clear-filter");
    if (first) first.focus({ preventScroll: true });
  }

  // ------------------------------------------------------------------ typed actions
  function restoreTyped() {
    const input = $("action-input");
    if (S.typedSent && !input.value) input.value = S.typedSent;
    S.typedSent = "";
  }

  $("action-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("action-input");
    const text = input.value.trim();
    if (!text) {
      input.focus();
      return;
    }
    S.typedSent = text;
    input.value = "";
    act(text);
  });

  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && S.filter) {
      S.filter = null;
      Table.render();
    }
  });

  return { actionButton, renderActions, restoreTyped };
})();

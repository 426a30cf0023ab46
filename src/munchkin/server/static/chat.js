/* Munchkin table page: table talk (docs/server.md, Table talk). Chat lines, whispers and quick phrases;
   every line is shown as text (textContent), never as HTML; a person's mute is kept in this browser
   (localStorage, per table), not on the server. Plain ES2020, no build step; table.js and its parts call it. */
"use strict";

const Chat = (() => {
  const { el, fill } = M;
  const $ = (id) => document.getElementById(id);
  const MAX_SHOWN = 300; // lines kept on the page (the server sends the newest 200 of the history)

  // the quick phrases without a move, in the server's own words (munchkin.server.chat.PHRASES)
  const SAYINGS = [
    ["dont_curse", "Don't curse me!"],
    ["wait_card", "Wait, I have a card!"],
    ["no_deal", "No deal."],
    ["thanks", "Thanks!"],
    ["nice_kill", "Nice kill!"],
    ["good_game", "Good game!"],
  ];

  let ctx = null; // what table.js lends: send, seat, state, faces, colour
  let lines = []; // the lines held, oldest first
  let rendered = 0;
  let unread = 0;
  let tab = "log"; // the tab shown on a phone
  let typed = ""; // the line on its way (put back if it is refused)
  let stick = true;
  const phone = window.matchMedia("(max-width: 600px)");

  const muteKey = () => `munchkin-mute-${ctx.tableId}`;
  function muted() {
    try {
      const v = JSON.parse(localStorage.getItem(muteKey()) || "[]");
      return new Set(Array.isArray(v) ? v.filter((x) => typeof x === "string") : []);
    } catch (_e) {
      return new Set();
    }
  }
  function setMuted(set) {
    try {
      localStorage.setItem(muteKey(), JSON.stringify([...set]));
    } catch (_e) {
      /* a browser that keeps nothing: the mute lasts as long as the page */
    }
    memo = set;
  }
  let memo = null;
  const mutedNow = () => memo || (memo = muted());

  /** Who said a line, as the mute knows them: a seat, or a spectator by the name the server gave. */
  const speaker = (x) => (x.spectator ? `spectator:${x.name}` : `seat:${x.from}`);
  const speakerName = (key) => key.replace(/^(seat|spectator):/, "");

  function seatName(seat) {
    const st = ctx.state();
    const s = st && (st.seats || []).find((x) => x.seat === seat);
    return s ? s.name : `seat ${seat + 1}`;
  }

  function init(c) {
    ctx = c;
    $("chat-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const input = $("chat-input");
      const text = input.value.trim();
      if (!text) {
        input.focus();
        return;
      }
      const to = $("chat-to").value;
      if (ctx.send({ type: "say", text, to: to === "" ? null : Number(to) })) {
        typed = text;
        input.value = "";
        hideError();
      }
    });
    const box = $("chat-lines");
    box.addEventListener("scroll", () => {
      stick = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
    });
    for (const [id, which] of [["tab-log", "log"], ["tab-chat", "chat"]]) {
      $(id).addEventListener("click", () => showTab(which));
      $(id).addEventListener("keydown", (ev) => {
        if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
          ev.preventDefault();
          showTab(which === "log" ? "chat" : "log");
          $(tab === "log" ? "tab-log" : "tab-chat").focus();
        }
      });
    }
    phone.addEventListener("change", layTabs);
    layTabs();
  }

  /** On a phone the narration and the talk are two tabs; wider, both panels show. */
  function layTabs() {
    const small = phone.matches;
    $("story-tabs").hidden = !small;
    for (const [panel, which] of [["log-panel", "log"], ["chat-panel", "chat"]]) {
      const p = $(panel);
      if (small) {
        p.setAttribute("role", "tabpanel");
        p.setAttribute("aria-labelledby", which === "log" ? "tab-log" : "tab-chat");
        p.hidden = tab !== which;
      } else {
        p.removeAttribute("role");
        p.setAttribute("aria-labelledby", which === "log" ? "log-heading" : "chat-heading");
        p.hidden = false;
      }
    }
    $("tab-log").setAttribute("aria-selected", String(tab === "log"));
    $("tab-chat").setAttribute("aria-selected", String(tab === "chat"));
    $("tab-log").tabIndex = tab === "log" ? 0 : -1;
    $("tab-chat").tabIndex = tab === "chat" ? 0 : -1;
    if (tab === "chat" || !small) unread = 0;
    $("chat-unread").textContent = unread ? `(${unread} new)` : "";
  }

  function showTab(which) {
    tab = which;
    layTabs();
    if (which === "chat") scrollDown(true);
  }

  function onHello(hello) {
    const on = hello.chat !== false;
    $("chat-off").hidden = on;
    $("chat-form").hidden = !on;
    $("chat-phrases").hidden = !on;
    const watcher = (hello.seat === null || hello.seat === undefined) && !hello.device;
    $("chat-apart").hidden = !(on && watcher && hello.spectator_chat === false);
  }

  /** A fresh start (a new connection's history, or a pass-and-play device's next seat). */
  function reset() {
    lines = [];
    rendered = 0;
    unread = 0;
    typed = "";
    $("chat-lines").replaceChildren();
    $("chat-input").value = "";
    hideError();
    layTabs();
  }

  function onState(m, first) {
    const got = Array.isArray(m.chat) ? m.chat : [];
    if (first) {
      lines = [];
      rendered = -1;
    }
    const held = new Set(lines.map((x) => x.n));
    let fresh = 0;
    for (const x of got) {
      if (!x || typeof x.text !== "string" || held.has(x.n)) continue;
      lines.push(x);
      const own = x.spectator ? x.name === ctx.myName() : x.from === ctx.seat();
      if (!mutedNow().has(speaker(x)) && !own) fresh += 1;
      if (own && x.text === typed) typed = "";
    }
    if (lines.length > MAX_SHOWN) {
      lines = lines.slice(-MAX_SHOWN);
      rendered = -1;
    }
    if (!first && phone.matches && tab !== "chat") unread += fresh;
    render();
  }

  /** A refusal of a line (`about: "say"`): shown beside the input, the line put back. True if it was one. */
  function onError(m) {
    if (m.about !== "say") return false;
    const box = $("chat-error");
    fill(box, el("strong", null, "✗ "), m.error || "the server refused that line");
    box.hidden = false;
    const input = $("chat-input");
    if (typed && !input.value) input.value = typed;
    typed = "";
    return true;
  }

  function hideError() {
    const box = $("chat-error");
    box.hidden = true;
    box.replaceChildren();
  }

  // ------------------------------------------------------------------ drawing
  function render() {
    renderTo();
    renderPhrases();
    const box = $("chat-lines");
    const mute = mutedNow();
    if (rendered < 0 || rendered > lines.length) {
      fill(box, lines.filter((x) => !mute.has(speaker(x))).map(lineNode));
    } else {
      for (const x of lines.slice(rendered)) if (!mute.has(speaker(x))) box.appendChild(lineNode(x));
    }
    rendered = lines.length;
    renderMuted();
    $("chat-unread").textContent = unread ? `(${unread} new)` : "";
    scrollDown(false);
  }

  function scrollDown(force) {
    const box = $("chat-lines");
    if (stick || force) box.scrollTop = box.scrollHeight;
  }

  function lineNode(x) {
    const me = ctx.seat();
    const mine = x.spectator ? !!ctx.myName() && x.name === ctx.myName() && me === null : x.from === me && me !== null;
    const colour = !x.spectator && typeof x.from === "number" ? ctx.colour(x.from) : "#5b5b5b";
    const tags = [];
    if (x.spectator) tags.push(el("span", { class: "chat-tag" }, "spectator"));
    if (x.to !== null && x.to !== undefined) {
      const words = x.to === me ? "whispers to you" : `whispers to ${seatName(x.to)}`;
      tags.push(el("span", { class: "chat-tag chat-whisper-tag" }, words));
    }
    const name = mine ? `${x.name} (you)` : x.name;
    // a quick phrase's words are the server's own, with the cards it names shown as the other card names are
    const words = x.phrase && Array.isArray(x.cards) && x.cards.length && ctx.faces ? ctx.faces.linkify(x.text, true) : [x.text];
    const text = el("span", { class: "chat-text" });
    for (const w of words) {
      if (w instanceof Node) text.appendChild(w);
      else text.appendChild(document.createTextNode(String(w))); // as text, never HTML
    }
    const mute = mine
      ? null
      : el(
          "button",
          {
            type: "button",
            class: "small chat-mute",
            "aria-label": `Mute ${x.name}`,
            title: `Hide ${x.name}'s lines in this browser`,
            onclick: () => toggleMute(speaker(x)),
          },
          "Mute"
        );
    return el(
      "li",
      {
        class: "chat-line" + (x.to !== null && x.to !== undefined ? " whisper" : "") + (x.spectator ? " from-spectator" : "") + (x.phrase ? " phrase" : "") + (mine ? " mine" : ""),
        dataset: { n: x.n, speaker: speaker(x) },
        style: { "--seat-colour": colour },
      },
      el(
        "span",
        { class: "chat-said" },
        el("span", { class: "chat-who" }, el("span", { class: "chat-dot", "aria-hidden": "true" }), name),
        tags,
        el("span", { class: "chat-sep" }, ": "),
        text
      ),
      mute
    );
  }

  function toggleMute(key) {
    const set = new Set(mutedNow());
    if (set.has(key)) set.delete(key);
    else set.add(key);
    setMuted(set);
    rendered = -1;
    render();
  }

  function renderMuted() {
    const set = mutedNow();
    const box = $("chat-muted");
    const here = [...set].filter((k) => lines.some((x) => speaker(x) === k) || k.startsWith("seat:"));
    if (!here.length) {
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    const label = (k) => (k.startsWith("seat:") ? seatName(Number(speakerName(k))) : speakerName(k));
    fill(
      box,
      "Muted in this browser: ",
      here.map((k, i) => [
        i ? ", " : "",
        label(k),
        " ",
        el("button", { type: "button", class: "small chat-unmute", "aria-label": `Unmute ${label(k)}`, onclick: () => toggleMute(k) }, "Unmute"),
      ])
    );
    box.hidden = false;
  }

  /** "To": everyone, or one person at the table (never a bot, never oneself); spectators talk to everyone. */
  function renderTo() {
    const select = $("chat-to");
    const st = ctx.state();
    const me = ctx.seat();
    const people = me === null || !st ? [] : (st.seats || []).filter((s) => s.kind === "human" && s.seat !== me);
    const key = people.map((s) => `${s.seat}:${s.name}`).join("|");
    if (select.dataset.key === key) return;
    const was = select.value;
    fill(select, el("option", { value: "" }, "Everyone"), people.map((s) => el("option", { value: String(s.seat) }, `${s.name} (whisper)`)));
    select.value = people.some((s) => String(s.seat) === was) ? was : "";
    select.dataset.key = key;
    select.disabled = !people.length;
  }

  /** One tap each: the moves one may offer in words (from the seat's legal actions), then the sayings. */
  function renderPhrases() {
    const box = $("chat-phrases");
    const st = ctx.state();
    const me = ctx.seat();
    const buttons = [];
    if (st && me !== null && st.view) {
      const mine = (st.view.players || [])[me] || {};
      const inPlay = new Set([...(mine.equipped || []), ...(mine.carried || [])].map((c) => c.id));
      for (const a of st.actions || []) {
        const text = a.text || "";
        let m = text.match(/^ask (.+) for help offering (\d+) treasures?, you pick first$/);
        if (m) {
          buttons.push(move("help_for", a, `${m[1]}: help me for ${m[2]} Treasure${m[2] === "1" ? "" : "s"}?`));
          continue;
        }
        m = text.match(/^ask (.+) for help offering all the treasures$/);
        if (m) {
          buttons.push(move("help_for", a, `${m[1]}: help me for all the Treasures?`));
          continue;
        }
        m = text.match(/^ask (.+) for help$/);
        if (m) {
          buttons.push(move("help_me", a, `${m[1]}, will you help me?`));
          continue;
        }
        m = text.match(/^give (.+) to (.+)$/);
        const players = (st.view.players || []).map((p) => p.name);
        if (m && a.kind === "give" && players.includes(m[2]) && (a.cards || []).every((c) => inPlay.has(c))) {
          buttons.push(move("give_not_help", a, `${m[2]}: I'll give you ${m[1]} not to help`));
        }
      }
    }
    for (const [key, words] of SAYINGS) {
      buttons.push(el("button", { type: "button", class: "small phrase", dataset: { phrase: key }, onclick: () => say(key) }, words));
    }
    const sig = buttons.map((b) => b.textContent).join("|");
    if (box.dataset.sig === sig) return;
    box.dataset.sig = sig;
    fill(box, buttons);
  }

  function move(key, a, label) {
    return el(
      "button",
      {
        type: "button",
        class: "small phrase phrase-move",
        dataset: { phrase: key, move: a.text },
        title: `Says this to everyone, and makes the move: ${a.text}`,
        onclick: () => {
          hideError();
          ctx.send({ type: "say", phrase: key, action: a.text, version: ctx.state().version });
        },
      },
      label
    );
  }

  function say(key) {
    hideError();
    const to = $("chat-to").value;
    ctx.send({ type: "say", phrase: key, to: to === "" || ctx.seat() === null ? null : Number(to) });
  }

  return { init, onHello, onState, onError, reset, snapshot: () => lines.slice() };
})();

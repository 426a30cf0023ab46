/* Munchkin table page: one seat (or a spectator) over a WebSocket. Plain ES2020, no build step. It takes the server's
   messages, draws every part of the page (`render`; the parts are the table-*.js files) and starts the page. */
"use strict";

const Table = (() => {
  const { el, fill, api, plural } = M;
  const { $, tableId, token, seatParam, PHASE_WORDS, fightWords, PROMPT_WORDS, S, view } = Page;
  const { helloSeatName, helloTableName, mySeat, isSpectator, playerName, namesList } = Page;
  const { showError, clearError, info, beforeDeal, isDevice, Faces, Talk } = Page;
  const { send, setPending, syncDisabled, renderConn, connect } = Conn;
  const { renderHand, renderPlayers, renderPiles } = Board;
  const { renderActions, restoreTyped } = ActionsPanel;
  const { logLine, renderLog } = GameLog;
  const { noteFight, renderCombat } = Combat;
  const { renderWindow } = WindowPanel;
  const { renderFair, fairEnd } = Fair;
  const { renderAbsent, checkAbsence, trackStandIn } = Away;
  const { onClaimed, renderPass } = PassPlay;

  // ------------------------------------------------------------------ messages
  function onMessage(m) {
    switch (m.type) {
      case "hello":
        S.hello = m;
        if (m.device) onClaimed({ seat: null, player: null, why: "" }); // a new connection: nobody's hand
        if (token && !m.device && (m.seat === null || m.seat === undefined)) {
          showError("This link's seat token was not accepted: you are watching as a spectator.");
        }
        checkAbsence();
        S.connected = true;
        S.everConnected = true;
        S.backoff = 500;
        S.fatal = "";
        S.firstState = true;
        if (Talk) Talk.onHello(m);
        renderConn();
        syncDisabled();
        loadTableInfo();
        renderHeader();
        break;
      case "state":
        onState(m);
        break;
      case "claimed":
        if (S.hello && S.hello.device) onClaimed(m);
        break;
      case "error":
        setPending(false);
        if (!S.connected) {
          // refused before "hello": the socket closes next, and the banner says what to do instead
          S.refusedWith = m.error || "";
          break;
        }
        if (Talk && Talk.onError(m)) break; // a chat line refused: said beside the chat's input
        showError(m.error || "the server refused that");
        restoreTyped();
        $("absent-notice").dataset.key = "";
        renderAbsent(); // a refused "Let a bot play now" button is offered again
        break;
      case "pong":
        break;
      default:
        break;
    }
  }

  // ------------------------------------------------------------------ state
  function onState(m) {
    if (!S.connected) {
      // a state before hello (should not happen): still count as connected
      S.connected = true;
      S.everConnected = true;
      renderConn();
    }
    const lines = Array.isArray(m.log) ? m.log : [];
    const start = typeof m.log_start === "number" ? m.log_start : S.log.length;
    noteFight(m, S.firstState);
    const firstState = S.firstState;
    if (S.firstState && start === 0) {
      S.log = lines.slice();
      S.logRendered = -1; // re-render the whole log
    } else {
      for (let i = 0; i < lines.length; i++) {
        const idx = start + i;
        if (idx < S.log.length) continue; // already held
        S.log.push(lines[i]);
      }
    }
    S.firstState = false;
    S.msg = m;
    trackStandIn(m);
    S.version = m.version;
    S.typedSent = "";
    clearError();
    setPending(false);
    if (m.window) S.windowDeadline = performance.now() + Math.max(0, Number(m.window.remaining) || 0) * 1000;
    if (m.window) S.holdDeadlines = (m.window.hold_left || []).map((x) => performance.now() + Math.max(0, Number(x) || 0) * 1000);
    S.botDeadlines = {};
    for (const s of m.seats || []) {
      if (typeof s.bot_in === "number") S.botDeadlines[s.seat] = performance.now() + Math.max(0, s.bot_in) * 1000;
    }
    S.dealDeadline = typeof m.deal_in === "number" ? performance.now() + Math.max(0, m.deal_in) * 1000 : null;
    if (Talk) Talk.onState(m, firstState); // after S.msg: the talk names seats from this state
    render();
  }

  // ------------------------------------------------------------------ rendering
  function render() {
    const keep = rememberFocus();
    const openDetails = new Set([...document.querySelectorAll("details[data-key]")].filter((d) => d.open).map((d) => d.dataset.key));
    renderHeader();
    renderFair();
    renderAbsent();
    renderSpectatorNotice();
    renderStopped();
    renderEnd();
    renderWindow();
    if (window.MunchkinHelp) window.MunchkinHelp.renderSetup(view(), mySeat()); // help.js: character creation
    renderActions(openDetails);
    renderHand();
    renderCombat();
    renderPlayers(openDetails);
    renderPiles(openDetails);
    renderLog();
    renderPass();
    restoreFocus(keep);
    document.body.classList.toggle("spectator", isSpectator());
  }

  function rememberFocus() {
    const a = document.activeElement;
    if (!a || a === document.body) return null;
    if (a.dataset && a.dataset.text !== undefined) return `[data-text="${CSS.escape(a.dataset.text)}"]`;
    if (a.classList.contains("hand-card")) return `.hand-card[data-card-id="${CSS.escape(a.dataset.cardId)}"]`;
    if (a.classList.contains("table-card")) return `.table-card[data-card-id="${CSS.escape(a.dataset.cardId)}"]`;
    if (a.id) return "#" + CSS.escape(a.id);
    return null;
  }

  function restoreFocus(sel) {
    if (!sel) return;
    const a = document.activeElement;
    if (a && a !== document.body && a.isConnected) return; // focus survived
    const n = document.querySelector(sel);
    if (n) n.focus({ preventScroll: true });
  }

  // ------------------------------------------------------------------ seed, clock
  function renderTableNotices() {
    const seed = info("seed");
    const box = $("seed-notice");
    const seeded = seed !== null && seed !== undefined;
    box.hidden = !seeded;
    if (seeded && box.dataset.seed !== String(seed)) {
      box.dataset.seed = String(seed);
      fill(
        box,
        el("strong", null, el("span", { "aria-hidden": "true" }, "⚠ "), `Seeded deal (seed ${seed}). `),
        "This table was created with a chosen seed, so its deal is not secret: whoever knows the seed (its creator " +
          "first) can work out every hand and the order of the decks. For practice and testing only."
      );
    }
    const clock = info("turn_clock");
    const on = typeof clock === "number" && clock > 0;
    $("turn-clock-fact").hidden = !on;
    if (on) $("turn-clock").textContent = `${clock} s`;
  }

  function renderHeader() {
    renderTableNotices();
    const v = view();
    const tname = (S.tableInfo && S.tableInfo.name) || helloTableName();
    $("table-name").textContent = tname || (tableId ? `Table ${tableId}` : "Munchkin table");
    document.title = `${tname || "Table"} — Munchkin`;
    if (S.hello) $("you-name").textContent = isSpectator() ? (isDevice() ? "nobody's hand shown (one screen)" : "watching") : helloSeatName() || playerName(mySeat());
    if (!v && beforeDeal()) {
      $("phase").textContent = "Waiting for the deal";
      $("waiting-on").textContent = "entropy from the people at the table";
    }
    if (!v) return;
    $("turn-number").textContent = String((v.turn || 0) + 1);
    $("whose-turn").textContent = v.over ? "game over" : v.active === mySeat() ? `${playerName(v.active)} (you)` : playerName(v.active);
    $("phase").textContent = v.over ? "Game over" : fightWords(v) || PHASE_WORDS[v.phase] || v.phase || "–";
    const toAct = v.to_act || [];
    $("waiting-on").textContent =
      v.over || !toAct.length ? "nobody" : `${namesList(toAct)}${v.prompt ? " — " + (PROMPT_WORDS[v.prompt] || v.prompt) : ""}`;
  }

  /** A page without a seat's token watches: say so, and how to take a seat (its own link, from whoever
   * created the table), rather than only "You: watching". */
  function renderSpectatorNotice() {
    const box = $("spectator-notice");
    const v = view();
    box.hidden = !isSpectator() || !S.hello || !!(v && v.over); // a finished game: nothing to take a seat at
    const people = ((S.msg && S.msg.seats) || []).some((x) => x.kind === "human");
    const key = people ? "people" : "bots";
    if (box.hidden || box.dataset.key === key) return;
    box.dataset.key = key;
    const named = seatParam !== null && !token ? ` This link names seat ${Number(seatParam) + 1 || "?"} but has no token.` : "";
    fill(
      box,
      el("strong", null, "You are watching this table."),
      `${named} You see what everyone at the table may see, but no one's hand, and you cannot act. `,
      people
        ? "To play, open your own seat's link: the person who created the table has it (the lobby showed it when " +
            "they created the table and keeps it under “Your tables” in their browser). "
        : "Only bots play here. ",
      el("a", { href: "/" }, "Back to the lobby")
    );
  }

  function renderStopped() {
    const box = $("stopped");
    const why = S.msg && S.msg.stopped;
    box.hidden = !why;
    if (why) fill(box, el("strong", null, "■ This table has stopped: "), String(why));
  }

  function renderEnd() {
    const v = view();
    const box = $("end-screen");
    if (!v || !v.over) {
      box.hidden = true;
      return;
    }
    const winners = (v.winners || []).map(playerName);
    const replay = S.msg.replay;
    const old = $("end-log-list"); // drawn again at each state: the reader keeps their place in it
    const readAt = old ? old.scrollTop : 0;
    const iWon = (v.winners || []).includes(mySeat());
    fill(
      box,
      el("h2", { id: "end-heading" }, "★ Game over ★"),
      el(
        "p",
        { class: "winners" },
        winners.length
          ? [el("strong", null, winners.join(" and ")), winners.length > 1 ? " win the game!" : " wins the game!"]
          : "Nobody won: the game stopped at the turn cap."
      ),
      iWon ? el("p", { class: "you-won" }, "That's you. Well looted!") : null,
      typeof Look !== "undefined" ? Look.endStory(S.msg.story) : null,
      fairEnd(),
      el(
        "p",
        { class: "end-links" },
        replay
          ? el("a", { id: "replay-link", class: "button-link", href: replay, download: `munchkin-${tableId}.json` }, "Download the replay")
          : el("span", { class: "hint" }, "The replay will be available shortly."),
        " ",
        el("a", { href: "/", class: "button-link" }, "Back to the lobby")
      ),
      el(
        "details",
        { open: true, class: "end-log", "data-key": "end-log" },
        el("summary", null, `The whole game (${plural(S.log.length, "line")})`),
        // a scrolling box the keyboard can reach (Tab, then the arrow keys or Page Down), named for it
        el(
          "ol",
          { id: "end-log-list", class: "log full-log", tabindex: "0", "aria-label": "The whole game, line by line" },
          S.log.map(logLine)
        )
      )
    );
    $("end-log-list").scrollTop = readAt;
    box.hidden = false;
    if (typeof Look !== "undefined") Look.fitChart(); // the chart drawn at the width it is shown at
  }

  /** What a test (or a curious person) may read of what this page holds: everything it was sent and keeps. */
  window.MunchkinPage = { snapshot: () => JSON.stringify({ hello: S.hello, msg: S.msg, log: S.log, filter: S.filter }) };

  // ------------------------------------------------------------------ table info
  async function loadTableInfo() {
    if (!tableId) return;
    try {
      S.tableInfo = await api(`/api/tables/${encodeURIComponent(tableId)}`);
      renderHeader();
    } catch (err) {
      if (err.status === 404) showError(`There is no table ${tableId}.`);
    }
  }

  // ------------------------------------------------------------------ table talk (chat.js)
  if (Talk) {
    Talk.init({
      tableId,
      send,
      seat: mySeat,
      myName: () => (S.hello && S.hello.chat_name) || null, // a spectator's name in the chat
      state: () => S.msg,
      faces: Faces,
      colour: (seat) => (typeof Look !== "undefined" ? Look.colour(seat) : "#555"),
    });
  }

  // ------------------------------------------------------------------ start
  if (!tableId) {
    showError("This page needs a table: /table/{id}.");
  } else {
    document.body.classList.toggle("spectator", !token);
    $("you-name").textContent = token ? "…" : "watching";
    if (!token) $("hand-panel").hidden = true;
    renderConn();
    loadTableInfo();
    connect();
  }

  return { render, renderHeader, onMessage };
})();

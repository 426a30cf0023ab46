/* Munchkin table page: one seat (or a spectator) over a WebSocket. Plain ES2020, no build step. */
"use strict";

(() => {
  const { el, fill, api, kindLabel, deckLabel, plural } = M;
  const $ = (id) => document.getElementById(id);

  // ------------------------------------------------------------------ where we are
  const pathMatch = location.pathname.match(/\/table\/([^/]+)\/?$/);
  const tableId = pathMatch ? decodeURIComponent(pathMatch[1]) : "";
  const query = new URLSearchParams(location.search);
  const token = query.get("token") || "";
  const seatParam = query.get("seat");

  // ------------------------------------------------------------------ words
  const PHASE_WORDS = {
    setup: "Creating characters",
    listen: "Listening at the door",
    start: "Start of the turn",
    kick: "The door is open",
    door: "Look for trouble or loot the room",
    after: "After the fight or the loot",
    charity: "Charity",
    end: "End of the turn",
  };
  /** A fight under way, named ("Fighting the Gazebo"): the phase stays at the door that led to it. */
  function fightWords(v) {
    const ms = (v.combat && v.combat.monsters) || [];
    if (!ms.length) return "";
    const names = ms.map((m) => m.monster);
    return "Fighting " + (names.length === 1 ? names[0] : names.slice(0, -1).join(", ") + " and " + names[names.length - 1]);
  }
  const PROMPT_WORDS = {
    main: "turn moves",
    drawn: "keep or play the card drawn",
    window: "answers to the fight",
    losing: "losing: ask for help or run away",
    help: "an answer to a call for help",
    curse_window: "answers to a Curse",
    run: "running away",
    rolled: "answers to a die roll",
    caught: "caught: a card before the Bad Stuff, or pass",
    choose: "choosing a card",
    loot_body: "looting a body",
    pick: "picking Treasures",
    charity: "Charity",
    offer: "an answer to an offer",
    end_window: "any-time plays before the next turn",
    before: "a choice a card or rule offers",
  };
  const WINDOW_WORDS = {
    window: "Combat: play a card into the fight, or pass.",
    curse_window: "A Curse is about to strike: cancel it, or pass.",
    rolled: "A die was rolled: answer the roll, or pass.",
    end_window: "Before the next turn: play any-time cards, or pass.",
    before: "A card or rule offers a choice: make it under Your moves.",
    help: "You were asked for help: accept or refuse.",
    offer: "An offer awaits your answer.",
  };
  const WINDOW_TITLES = {
    window: "Combat responses",
    curse_window: "A Curse in flight",
    rolled: "The die is cast",
    end_window: "Before the next turn",
  };

  // ------------------------------------------------------------------ state
  const S = {
    ws: null,
    connected: false,
    everConnected: false,
    backoff: 500,
    retryAt: 0,
    retryTimer: null,
    firstState: true,
    hello: null,
    msg: null, // the last state message
    version: null,
    log: [],
    logRendered: 0,
    filter: null, // {type: "card", id, name} | {type: "name", name}
    pending: false,
    pendingTimer: null,
    windowDeadline: 0,
    holdDeadlines: [], // performance.now() times each hold ends, in the order of window.held_by
    botDeadlines: {}, // seat -> performance.now() time a bot is due to play that absent person's seat
    dealDeadline: null, // performance.now() time a fair table deals at the latest (null: no clock runs)
    tableInfo: null,
    fatal: "",
    myStandIn: null, // whether a bot stood in for this page's seat in the last state
    absentLong: false, // back after longer than the table's away time: say so at the next state
    lostAt: 0, // Date.now() when a working connection dropped
    backTimer: null,
    lastFight: null, // the last fight over, as the server sent it (`last_fight`), until the next one ends
    fightOpen: false, // the combat panel shows the last fight: "linger" (just ended, for a few seconds) or "open"
    fightTimer: null,
    handTo: null, // a pass-and-play device: the person someone asked to hand it to ("Bob wants to play a card")
    passNote: "", // a pass-and-play device: why the last claim ended ("Bob's own decision: hand the device to Bob")
  };
  const FIGHT_LINGER_MS = 6000; // how long a fight just over stays up, so that a bot's fight can be followed

  // ------------------------------------------------------------------ small helpers
  const view = () => (S.msg && S.msg.view) || null;
  /** The seat's player name: hello.player (server) or hello.name (docs/server.md). */
  const helloSeatName = () => (S.hello ? ("player" in S.hello ? S.hello.player : S.hello.name) : null);
  /** The table's name when hello carries it next to the player's name. */
  const helloTableName = () => (S.hello && "player" in S.hello ? S.hello.name : null);
  const mySeat = () => (S.hello && S.hello.seat !== null && S.hello.seat !== undefined ? S.hello.seat : null);
  const isSpectator = () => mySeat() === null;

  function playerName(seat) {
    const v = view();
    if (v && v.players && v.players[seat]) return v.players[seat].name;
    const s = S.msg && (S.msg.seats || []).find((x) => x.seat === seat);
    return s ? s.name : `seat ${seat + 1}`;
  }

  function namesList(seats) {
    const names = (seats || []).map((s) => (s === mySeat() ? "you" : playerName(s)));
    if (names.length <= 1) return names.join("");
    return names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
  }

  function signed(v) {
    if (typeof v !== "number") return String(v);
    return v > 0 ? `+${v}` : v < 0 ? `−${Math.abs(v)}` : "±0";
  }

  /** Legal actions, one per text (copies of a card make the same text), cards merged; `any_time`: a move besides answering;
   * `whim`: it only rearranges one's own things (no window waits for it). */
  function actions() {
    const out = new Map();
    for (const a of (S.msg && S.msg.actions) || []) {
      if (!a || typeof a.text !== "string") continue;
      const prev = out.get(a.text);
      if (prev) {
        prev.cards = [...new Set([...prev.cards, ...(a.cards || [])])];
        prev.any_time = prev.any_time && !!a.any_time;
        prev.whim = prev.whim && !!a.whim;
      } else {
        const kind = a.kind || a.text.split(" ")[0];
        out.set(a.text, { text: a.text, kind, cards: [...(a.cards || [])], any_time: !!a.any_time, whim: !!a.whim });
      }
    }
    return [...out.values()];
  }

  /** Cards one of the moves plays or uses now; a whim (discarding one's own Race, an Item equipped or traded) marks none. */
  function usableCards() {
    const set = new Set();
    for (const a of actions()) if (!a.whim) for (const c of a.cards) set.add(c);
    return set;
  }

  // ------------------------------------------------------------------ sending
  function send(obj) {
    if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
      showError("Not connected right now: your move was not sent. Reconnecting…");
      return false;
    }
    S.ws.send(JSON.stringify(obj));
    return true;
  }

  function act(text) {
    text = (text || "").trim();
    if (!text) return;
    if (isSpectator()) {
      showError("You are watching: spectators cannot act.");
      return;
    }
    if (send({ type: "act", action: text, version: S.version })) {
      setPending(true);
      S.filter = null;
    }
  }

  function setPending(on) {
    S.pending = on;
    clearTimeout(S.pendingTimer);
    if (on) S.pendingTimer = setTimeout(() => setPending(false), 4000);
    syncDisabled();
  }

  /** Moves cannot be sent while one is on its way or while the connection is down. */
  const blocked = () => S.pending || !S.connected;

  function syncDisabled() {
    document.body.classList.toggle("pending", S.pending);
    document.body.classList.toggle("offline", !S.connected);
    for (const b of document.querySelectorAll("button.action")) b.disabled = blocked();
    $("action-send").disabled = !S.connected;
    const more = $("more-time");
    if (more) more.disabled = !S.connected || more.dataset.used === "1";
  }

  // ------------------------------------------------------------------ errors & connection banner
  function showError(text) {
    const box = $("error");
    fill(box, el("strong", null, "✗ "), text);
    box.hidden = false;
  }

  function clearError() {
    const box = $("error");
    box.hidden = true;
    box.replaceChildren();
  }

  // The banner keeps one "Retry now" button (so keyboard focus survives the per-second update).
  const connText = el("span", { class: "conn-text" });
  const retryBtn = el("button", { type: "button", class: "small", id: "retry-now" }, "Retry now");
  retryBtn.addEventListener("click", () => {
    clearTimeout(S.retryTimer);
    connect();
  });

  const connSecs = el("span", { class: "conn-secs", "aria-hidden": "true" });
  let connKey = "";

  function renderConn() {
    const box = $("conn-status");
    if (S.connected) {
      box.hidden = true;
      box.className = "conn-status";
      connKey = "";
      return;
    }
    box.hidden = false;
    if (S.refused) {
      // no more tries: say why and what a person can do instead (shown once, not re-rendered each second)
      if (connKey === "refused") return;
      connKey = "refused";
      box.className = "conn-status down refused";
      const lobby = el("a", { href: "/", id: "refused-lobby" }, "go to the lobby");
      const watchHref = `/table/${encodeURIComponent(tableId)}`; // no token: a spectator's view
      const watch = el("a", { href: watchHref, id: "refused-watch" }, "watch this table as a spectator");
      const said = S.refused.said ? ` (the server says: ${S.refused.said})` : "";
      if (FINAL_CLOSE[S.refused.code] === "token") {
        fill(
          box,
          el(
            "p",
            { class: "conn-text", id: "refused-text" },
            el("strong", null, "⚠ This seat link does not work"),
            `${said}, so the page has stopped trying to connect. `,
            "Ask the person who created the table to send you your seat's link again, or ",
            watch,
            ", or ",
            lobby,
            "."
          )
        );
      } else {
        fill(
          box,
          el(
            "p",
            { class: "conn-text", id: "refused-text" },
            el("strong", null, "⚠ This table does not exist"),
            `${said}: it may have expired after standing idle, so the page has stopped trying to connect. You can `,
            lobby,
            " to find or create another."
          )
        );
      }
      return;
    }
    box.className = "conn-status down";
    if (!box.contains(retryBtn)) fill(box, connText, retryBtn);
    const secs = Math.max(0, Math.ceil((S.retryAt - Date.now()) / 1000));
    connSecs.textContent = S.retryAt && secs > 0 ? ` Next try in ${secs} s.` : " Trying now.";
    const first = !S.everConnected && !S.retryAt && !S.fatal;
    const key = `${first}|${S.everConnected}|${S.fatal}`;
    if (key === connKey) return; // only the seconds changed: do not re-announce the banner
    connKey = key;
    retryBtn.hidden = first;
    if (first) {
      fill(connText, "Connecting to the table…");
      return;
    }
    fill(
      connText,
      el("strong", null, "⚠ Reconnecting…"),
      " ",
      S.fatal || (S.everConnected ? "The connection to the table was lost." : "The table cannot be reached yet."),
      connSecs
    );
  }

  // ------------------------------------------------------------------ socket
  function wsUrl() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/${encodeURIComponent(tableId)}${token ? "?token=" + encodeURIComponent(token) : ""}`;
  }

  // Close codes after which reconnecting cannot help (docs/server.md): 4403 a seat token not valid at
  // this table, 4404 no such table (never made, or expired).
  const FINAL_CLOSE = { 4403: "token", 4404: "table" };

  function connect() {
    if (S.refused) return; // the server said no for good: "Retry now" and timers stay quiet
    clearTimeout(S.retryTimer);
    S.retryAt = 0;
    S.refusedWith = "";
    if (S.ws) {
      S.ws.onclose = null;
      S.ws.onmessage = null;
      try {
        S.ws.close();
      } catch (_) {
        /* already closed */
      }
    }
    let ws;
    try {
      ws = new WebSocket(wsUrl());
    } catch (err) {
      scheduleReconnect("Could not open the connection.");
      return;
    }
    S.ws = ws;
    renderConn();
    ws.onopen = () => {
      S.firstState = true;
    };
    ws.onmessage = (ev) => {
      let m;
      try {
        m = JSON.parse(ev.data);
      } catch (_) {
        return;
      }
      onMessage(m);
    };
    ws.onclose = (ev) => {
      if (S.ws !== ws) return;
      if (S.connected) S.lostAt = Date.now();
      S.connected = false;
      S.ws = null;
      setPending(false); // also disables the moves until the connection is back
      if (FINAL_CLOSE[ev.code]) {
        // a bad seat token or a table that is gone: trying again cannot help, so stop and say what to do
        clearTimeout(S.retryTimer);
        S.retryAt = 0;
        S.refused = { code: ev.code, said: S.refusedWith || ev.reason || "" };
        renderConn();
        return;
      }
      let why = "";
      const refusal = S.refusedWith || ev.reason || "code " + ev.code;
      if (ev.code >= 4000 && ev.code < 5000) why = `The server refused: ${refusal}.`;
      else if (ev.reason) why = `Closed: ${ev.reason}.`;
      scheduleReconnect(why);
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  function scheduleReconnect(why) {
    S.connected = false;
    S.fatal = why || "";
    const delay = S.fatal.startsWith("The server refused") ? 5000 : S.backoff;
    S.backoff = Math.min(S.backoff * 2, 5000);
    S.retryAt = Date.now() + delay;
    clearTimeout(S.retryTimer);
    S.retryTimer = setTimeout(connect, delay);
    renderConn();
  }

  setInterval(() => {
    if (!S.connected) renderConn();
  }, 1000);
  setInterval(() => {
    if (S.connected) send({ type: "ping" });
  }, 25000);

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
    typedSent = "";
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

  // ------------------------------------------------------------------ seed, clock, stand-ins
  const info = (key) => {
    if (S.hello && S.hello[key] !== undefined) return S.hello[key];
    return S.tableInfo ? S.tableInfo[key] : undefined;
  };

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

  // ---------------- a fair deal: the commitment, everyone's entropy, and the secret once the game is over
  /** The table's fair-deal record as last sent (null: a chosen seed, or a table from before fair deals). */
  function fairInfo() {
    if (S.msg && "fair" in S.msg) return S.msg.fair;
    return S.hello && S.hello.fair ? S.hello.fair : null;
  }

  /** Before the deal: no cards yet, only the fair-deal panel. */
  const beforeDeal = () => {
    const f = fairInfo();
    return !!(f && !f.dealt);
  };

  /** 32 random bytes from the browser, in hex: the entropy offered to a person (they may type their own). */
  function randomEntropy() {
    const bytes = new Uint8Array(32);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  const short = (hex) => (typeof hex === "string" && hex.length > 16 ? `${hex.slice(0, 8)}…${hex.slice(-8)}` : String(hex || ""));

  /** Each seat and the entropy it added, in words ("Ann (you): “tea”", "Bob: not yet", "Cy: a bot adds none"). */
  function entropyItems(f) {
    const seats = (S.msg && S.msg.seats) || [];
    return seats.map((s) => {
      const e = (f.entropy || [])[s.seat];
      const who = `${s.name}${s.seat === mySeat() ? " (you)" : ""}: `;
      const what =
        typeof e === "string"
          ? el("code", { class: "entropy" }, e)
          : s.kind === "bot"
            ? el("span", { class: "hint" }, "a bot adds none")
            : el("span", { class: "hint" }, f.dealt ? "none" : "not yet");
      return el("li", null, who, what);
    });
  }

  function renderFair() {
    const f = fairInfo();
    const panel = $("fair-panel");
    const notice = $("fair-notice");
    const pending = beforeDeal();
    panel.hidden = !pending;
    $("actions-panel").hidden = pending;
    if (pending) $("hand-panel").hidden = true;
    notice.hidden = !f || pending;
    if (!f) return;
    if (pending) {
      $("fair-commitment").textContent = f.commitment;
      fill($("fair-seats"), entropyItems(f));
      const mine = mySeat() !== null ? (f.entropy || [])[mySeat()] : undefined;
      const form = $("entropy-form");
      // a pass-and-play device gives one entropy for every person seat still without one
      const lacking = ((S.msg && S.msg.seats) || []).some((s) => s.kind === "human" && typeof (f.entropy || [])[s.seat] !== "string");
      form.hidden = isDevice() ? !lacking : isSpectator() || typeof mine === "string";
      const input = $("entropy-input");
      if (!form.hidden && !input.value) input.value = randomEntropy();
      const waiting = ((S.msg && S.msg.seats) || []).filter(
        (s) => s.kind === "human" && typeof (f.entropy || [])[s.seat] !== "string" && !s.stand_in
      );
      // when the deal comes at the latest, counted down (docs/server.md: the entropy window)
      fill(
        $("fair-status"),
        waiting.length ? `Waiting on ${namesList(waiting.map((s) => s.seat))} to add entropy. ` : "",
        S.dealDeadline === null
          ? "The cards are dealt once every person has added theirs, or a while after the first person sits down."
          : [
              "The cards are dealt once every person has added theirs, and in ",
              el("span", { id: "deal-countdown", class: "deal-countdown", role: "timer", "aria-live": "off" }, clockText(S.dealDeadline)),
              " at the latest.",
            ]
      );
      return;
    }
    if (notice.dataset.key !== `${f.commitment}|${!!f.secret}`) {
      notice.dataset.key = `${f.commitment}|${!!f.secret}`;
      fill(
        notice,
        el(
          "details",
          null,
          el("summary", null, el("strong", null, "Fair deal"), ` · commitment ${short(f.commitment)}`),
          el(
            "p",
            null,
            "Every shuffle and die roll at this table comes from the server's secret and the entropy below. The secret " +
              "stays on the server until the game ends; its commitment, shown from the start, is its SHA-256: "
          ),
          el("p", null, el("code", { class: "commitment" }, f.commitment)),
          el("ul", { class: "fair-seats" }, entropyItems(f)),
          f.secret ? el("p", null, "The secret, revealed: ", el("code", { class: "commitment" }, f.secret)) : null
        )
      );
    }
  }

  /** The end screen's word on the fair deal: the secret, and how to check every draw with it. */
  function fairEnd() {
    const f = fairInfo();
    if (!f || !f.secret) return null;
    return el(
      "div",
      { class: "fair-end" },
      el("h3", null, "Check the deal"),
      el("p", null, "The server's secret, revealed now: ", el("code", { class: "commitment", id: "fair-secret" }, f.secret)),
      el("p", null, "Its SHA-256 is the commitment shown from the start: ", el("code", { class: "commitment" }, f.commitment)),
      el(
        "p",
        null,
        "Download the replay and run ",
        el("code", null, `munchkin verify munchkin-${tableId}.json`),
        ": it recomputes every shuffle and die roll from the secret and everyone's entropy, and says whether the table dealt honestly."
      )
    );
  }

  // ---------------- people not at the table: what happens to their seat, and when
  /** Seconds left until `deadline` (a performance.now() time) as m:ss ("0:24", "1:40"). */
  function clockText(deadline) {
    const left = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
    return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  }

  let absentTick = null;

  /** A line for every person's seat nobody is at: "Bob has not joined yet — a bot plays for them in 0:24
   * [Let a bot play now]", "A bot is playing for Bob until they join"; nothing once the game is over. */
  function renderAbsent() {
    const box = $("absent-notice");
    const v = view();
    const seats = ((S.msg && S.msg.seats) || []).filter((s) => s.kind === "human" && !s.connected && s.seat !== mySeat());
    const shown = seats.length && !(v && v.over) && !(S.msg && S.msg.stopped);
    const canCall = !isSpectator();
    // drawn anew only when what it says changes (a live region: not re-read at every state); the countdowns tick
    const key = JSON.stringify([shown, canCall, S.connected, seats.map((s) => [s.seat, s.joined, s.stand_in, typeof s.bot_in])]);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    clearInterval(absentTick);
    if (!shown) {
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    const line = (s) => {
      const joined = s.joined !== false;
      if (s.stand_in) {
        return el(
          "li",
          { class: "absent stand-in", dataset: { seat: String(s.seat) } },
          el(
            "span",
            null,
            el("span", { "aria-hidden": "true" }, "⚙ "),
            joined ? `A bot is playing for ${s.name} until they come back.` : `A bot is playing for ${s.name} until they join.`
          )
        );
      }
      const who = joined ? `${s.name} is away` : `${s.name} has not joined yet`;
      const when =
        typeof s.bot_in === "number"
          ? [" — a bot plays for them in ", el("span", { class: "bot-countdown", role: "timer", "aria-live": "off", dataset: { seat: String(s.seat) } }, clockText(S.botDeadlines[s.seat] || 0)), "."]
          : " — a bot plays for them once a person is at the table.";
      let button = null;
      if (canCall) {
        button = el("button", { type: "button", id: `bot-now-${s.seat}`, class: "small bot-now", disabled: !S.connected }, "Let a bot play now");
        button.title = `A bot plays ${s.name}'s seat from now on, until they ${joined ? "come back" : "join"}`;
        button.addEventListener("click", () => {
          if (send({ type: "stand_in", seat: s.seat })) button.disabled = true;
        });
      }
      return el("li", { class: "absent", dataset: { seat: String(s.seat) } }, el("span", null, who, when), button);
    };
    fill(box, el("ul", null, seats.map(line)));
    box.hidden = false;
    if (box.querySelector(".bot-countdown")) absentTick = setInterval(tickAbsent, 250);
  }

  /** The absent seats' countdowns, from the deadlines of the last state (four times a second). */
  function tickAbsent() {
    for (const n of document.querySelectorAll("#absent-notice .bot-countdown")) {
      const at = S.botDeadlines[Number(n.dataset.seat)];
      if (at !== undefined) n.textContent = clockText(at);
    }
  }
  setInterval(() => {
    const n = $("deal-countdown");
    if (n && S.dealDeadline !== null) n.textContent = clockText(S.dealDeadline);
  }, 250);

  const awaySeconds = () => {
    const a = info("away_seconds");
    return typeof a === "number" ? a : null;
  };
  const SEEN_KEY = () => `munchkin.seen.${tableId}.${mySeat()}`;

  function showBack(text) {
    const box = $("back-notice");
    fill(box, el("strong", null, "Welcome back. "), text);
    box.classList.add("shown");
    clearTimeout(S.backTimer);
    S.backTimer = setTimeout(() => {
      box.classList.remove("shown");
      box.replaceChildren();
    }, 20000);
  }

  function standInText() {
    const a = awaySeconds();
    return (
      `A bot played your seat while you were away${a ? ` (a bot stands in after ${a} s away)` : ""}: ` +
      "any moves made for you meanwhile were the bot's. See “What happened” for them."
    );
  }

  /** At hello: back after longer than the table's away time (this page's own reconnection, or a reload). */
  function checkAbsence() {
    if (isSpectator()) return;
    const a = awaySeconds();
    let since = S.lostAt;
    if (!since) {
      try {
        since = Number(localStorage.getItem(SEEN_KEY())) || 0;
      } catch (_) {
        since = 0;
      }
    }
    S.lostAt = 0;
    if (a !== null && since && (Date.now() - since) / 1000 >= a) S.absentLong = true;
  }

  /** The seats' stand_in flags: this page's seat seen stood in, or a stand-in just ended, means the
   * person is back after a bot played for them; a long absence (see checkAbsence) says the same. */
  function trackStandIn(m) {
    if (isSpectator()) return;
    const mine = (m.seats || []).find((x) => x.seat === mySeat());
    const now = !!(mine && mine.stand_in);
    const over = !!(m.view && m.view.over);
    const started = now && S.myStandIn !== true;
    const ended = S.myStandIn === true && !now;
    if (!over && (started || ended || S.absentLong)) showBack(standInText());
    S.absentLong = false;
    S.myStandIn = now;
    markSeen();
  }

  /** When this seat last had the table open (for a reload after a long absence). */
  function markSeen() {
    if (isSpectator() || !S.connected) return;
    try {
      localStorage.setItem(SEEN_KEY(), String(Date.now()));
    } catch (_) {
      /* private mode */
    }
  }
  setInterval(markSeen, 5000);

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

  function capitalized(text) {
    return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
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

  // ---------------- cards
  // cardface.js: the card faces and icons (null if that script did not load: names stay plain text)
  const Faces = typeof CardFace === "undefined" ? null : CardFace;

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
    render();
    const first = document.querySelector("#actions .menu-stage:not([hidden]) button");
    if (first) first.focus();
  }

  /** A card's small kind icon (a Steed's own), with its word as the text alternative; null without the faces. */
  function kindIcon(c) {
    if (!Faces) return null;
    const f = Faces.face(c.name);
    return f ? Faces.icon(f.icon, f.kind_word) : Faces.icon(c.steed ? "steed" : c.kind, kindLabel(c.kind, c.word));
  }

  /** A hand tile: name, kind with its icon, and the figures that matter at a glance (Level, bonus, slot). */
  function cardBody(c, extra) {
    const icon = kindIcon(c);
    if (icon) {
      icon.removeAttribute("role"); // the kind is written beside it
      icon.removeAttribute("aria-label");
      icon.setAttribute("aria-hidden", "true");
    }
    return [
      el("span", { class: "card-name" }, c.name),
      el("span", { class: "card-kind" }, icon, [deckLabel(c.deck), kindLabel(c.kind, c.word)].filter(Boolean).join(" · ")),
      Faces ? Faces.glanceNodes(c.name) : null,
      extra || null,
    ];
  }

  /** Show only the moves with a card (from its face's "Moves with this card"), the first of them focused. */
  function selectCard(filter) {
    S.filter = filter;
    render();
    const panel = $("actions-panel");
    const r = panel.getBoundingClientRect();
    if (r.top < 0 || r.top > window.innerHeight - 80) panel.scrollIntoView({ behavior: M.scrollMotion(), block: "start" });
    const first = document.querySelector("#actions .menu-stage:not([hidden]) button, #clear-filter");
    if (first) first.focus({ preventScroll: true });
  }

  /** A card on the table or in a discard pile: a button that opens its face (cardface.js), from which
   * "Moves with this card" shows the moves that use it. */
  function tableCard(c, usable, note) {
    if (!c) return null;
    const selected = S.filter && S.filter.type === "card" && S.filter.id === c.id;
    const b = el(
      "button",
      {
        type: "button",
        class: `table-card deck-${c.deck || "none"} kind-${c.kind}${usable.has(c.id) ? " usable" : ""}${selected ? " selected" : ""}`,
        dataset: { cardId: c.id, card: c.name }, // data-card: hover, focus or tap opens its face (cardface.js)
        "aria-haspopup": "dialog",
      },
      kindIcon(c),
      el("span", { class: "card-name" }, c.name),
      c.steed ? el("span", { class: "card-note steed" }, " (Steed)") : null,
      note ? el("span", { class: "card-note" }, note) : null,
      usable.has(c.id) ? el("span", { class: "usable-mark", "aria-hidden": "true" }, " ✓") : null,
      usable.has(c.id) ? el("span", { class: "visually-hidden" }, ": you can use it now") : null,
      selected ? el("span", { class: "visually-hidden" }, " (your moves show only those with it)") : null
    );
    return b;
  }

  function renderHand() {
    const v = view();
    const panel = $("hand-panel");
    if (isSpectator() || !v) {
      panel.hidden = isSpectator() || beforeDeal();
      return;
    }
    panel.hidden = false;
    const hand = v.hand || [];
    const usable = usableCards();
    $("hand-count").textContent = `(${plural(hand.length, "card")})`;
    if (!hand.length) {
      fill($("hand"), el("p", { class: "note" }, "Your hand is empty."));
      return;
    }
    fill(
      $("hand"),
      hand.map((c) => {
        const selected = S.filter && S.filter.type === "card" && S.filter.id === c.id;
        const can = usable.has(c.id);
        const b = el(
          "button",
          {
            type: "button",
            class: `hand-card deck-${c.deck || "none"} kind-${c.kind}${can ? " usable" : ""}${selected ? " selected" : ""}`,
            dataset: { cardId: c.id, card: c.name }, // a click or tap opens its face (cardface.js)
            "aria-haspopup": "dialog",
          },
          cardBody(c, el("span", { class: "card-state" }, selected ? "▶ selected" : can ? "✓ can use now" : "not now"))
        );
        return b;
      })
    );
  }

  // ---------------- combat
  function partsTable(parts, caption) {
    if (!parts || !parts.length) return null;
    return el(
      "table",
      { class: "parts" },
      el("caption", { class: "visually-hidden" }, caption),
      el(
        "tbody",
        null,
        parts.map(([label, value]) => el("tr", null, el("th", { scope: "row" }, cardText(label)), el("td", null, signed(value))))
      )
    );
  }

  /** A fight over, from a state message: kept for the "Last fight" button; one that ends while the page
   * watches stays up a few seconds (not one told on connecting: that may be long over). */
  function noteFight(m, first) {
    const v = m.view;
    if (v && v.combat && Object.keys(v.combat).length) S.fightOpen = false; // a fight on: the live one shows
    const f = m.last_fight;
    if (!f || typeof f !== "object" || !f.combat) return;
    const fresh = !S.lastFight || S.lastFight.id !== f.id;
    S.lastFight = f;
    if (!fresh || first || (v && v.over)) return;
    S.fightOpen = "linger";
    clearTimeout(S.fightTimer);
    S.fightTimer = setTimeout(() => {
      if (S.fightOpen !== "linger") return;
      S.fightOpen = false;
      renderCombat();
    }, FIGHT_LINGER_MS);
  }

  /** Open or close the last fight in the combat panel (the "Last fight" button). */
  function toggleLastFight() {
    clearTimeout(S.fightTimer);
    S.fightOpen = S.fightOpen ? false : "open";
    renderCombat();
    if (S.fightOpen) {
      const panel = $("combat-panel");
      panel.scrollIntoView({ behavior: M.scrollMotion(), block: "nearest" });
      $("combat-heading").focus({ preventScroll: true });
    } else {
      const again = $("last-fight-button");
      if (again) again.focus({ preventScroll: true });
    }
  }

  /** Above the log: how the last fight ended, and the button that shows it again (or hides it). */
  function renderLastFightBar(live) {
    const bar = $("last-fight-bar");
    const f = S.lastFight;
    const v = view();
    bar.hidden = !f || live || !v || v.over;
    if (bar.hidden) return;
    const open = !!S.fightOpen;
    const b = el(
      "button",
      { type: "button", id: "last-fight-button", class: "small", "aria-controls": "combat-panel", "aria-expanded": open ? "true" : "false" },
      open ? "Hide the last fight" : "Show the last fight"
    );
    b.addEventListener("click", toggleLastFight);
    fill(bar, el("strong", null, "Last fight: "), cardText(String(f.outcome || "")), " ", b);
  }

  function renderCombat() {
    const v = view();
    const panel = $("combat-panel");
    const live = v && v.combat && Object.keys(v.combat).length && !v.over ? v.combat : null;
    const over = !live && S.fightOpen && S.lastFight && v && !v.over ? S.lastFight : null;
    renderLastFightBar(!!live);
    panel.classList.toggle("fight-over", !!over);
    fill($("combat-heading"), el("span", { "aria-hidden": "true" }, "⚔"), over ? " The fight is over" : " Combat");
    if (!live && !over) {
      panel.hidden = true;
      if (typeof Look !== "undefined") Look.markCombat(null, null, S.version);
      return;
    }
    panel.hidden = false;
    drawCombat(live || over.combat, over);
    if (live && typeof Look !== "undefined") Look.markCombat($("combat"), live, S.version); // highlight what was just played
    if (over && typeof Look !== "undefined") Look.markCombat(null, null, S.version);
  }

  /** The fight's two sides and verdict; for a fight over (`over`: the last fight), how it ended first, then
   * its last strengths, then what happened in it. */
  function drawCombat(c, over) {
    const side = c.side_strength;
    const mon = c.monster_strength;
    const win = !!c.fighters_winning;
    const diff = Math.abs(side - mon);
    const verdict = win
      ? [el("strong", null, over ? "▲ The fighters were winning" : "▲ The fighters are winning"), `: ${side} against ${mon}.`]
      : [
          el("strong", null, over ? "▼ The monsters were winning" : "▼ The monsters are winning"),
          `: ${mon} against ${side}`,
          side === mon
            ? " (a tie goes to the monsters, unless a Warrior fights)."
            : ` (the fighters ${over ? "were" : "are"} ${diff} behind).`,
        ];
    const fighters = (c.fighters || []).map((f) =>
      el(
        "div",
        { class: "fighter" },
        el("h4", null, f.player, el("span", { class: "strength" }, ` strength ${f.strength}`)),
        partsTable(f.parts, `What makes up ${f.player}'s strength`)
      )
    );
    const oneShots = c.one_shots && c.one_shots.length
      ? el("div", { class: "fighter one-shots" }, el("h4", null, "One-shot bonuses"), partsTable(c.one_shots, "One-shot bonuses for the fighters"))
      : null;
    const monsters = (c.monsters || []).map((m) => {
      const base = String(m.monster).replace(/ \(Mate\)$/, "");
      const selected = S.filter && S.filter.type === "name" && S.filter.name === base;
      const nameBtn = el(
        "button",
        {
          type: "button",
          class: "monster-name" + (selected ? " selected" : ""),
          "aria-haspopup": "dialog",
          dataset: { card: base }, // its face opens on hover, focus, click or tap (cardface.js)
        },
        kindIcon({ name: base, kind: "monster" }),
        m.monster
      );
      return el(
        "div",
        { class: "monster" },
        el("h4", null, nameBtn, el("span", { class: "strength" }, ` strength ${m.strength}`)),
        el("p", { class: "treasures" }, `Worth ${plural(m.treasures, "Treasure")}`),
        partsTable(m.parts, `What makes up ${m.monster}'s strength`)
      );
    });
    const close = over ? el("button", { type: "button", id: "last-fight-close", class: "small" }, "Close") : null;
    const linesOpen = !!document.querySelector("#combat details.fight-lines[open]"); // kept open across states
    if (close) close.addEventListener("click", toggleLastFight);
    fill(
      $("combat"),
      over
        ? el(
            "p",
            { id: "fight-outcome", class: "fight-outcome", role: "status" },
            el("strong", null, cardText(String(over.outcome || "The fight is over."))),
            " ",
            el("span", { class: "hint" }, "As the fight stood at the end:")
          )
        : null,
      el("p", { id: "combat-verdict", class: "verdict " + (win ? "fighters-win" : "monsters-win") }, verdict),
      el(
        "div",
        { class: "sides" },
        el(
          "section",
          { class: "side side-fighters", "aria-label": "Fighters" },
          el("h3", null, "Fighters ", el("span", { class: "total" }, `total ${side}`)),
          fighters,
          oneShots
        ),
        el("div", { class: "versus", "aria-hidden": "true" }, "vs"),
        el(
          "section",
          { class: "side side-monsters", "aria-label": "Monsters" },
          el("h3", null, "Monsters ", el("span", { class: "total" }, `total ${mon}`)),
          monsters
        )
      ),
      over && (over.lines || []).length
        ? el(
            "details",
            { class: "fight-lines", open: linesOpen },
            el("summary", null, "What happened in it"),
            el("ol", { class: "log" }, over.lines.map(logLine))
          )
        : null,
      close
    );
  }

  // ---------------- players
  function chips(cards, usable, label, note) {
    if (!cards || !cards.length) return null;
    return el("div", { class: "row" }, rowLabel(label), el("span", { class: "chips" }, cards.map((c) => tableCard(c, usable, note))));
  }

  /** A row's label; a card it names ("Races (Half-Breed)", "Cheat! on") opens that card's face. */
  function rowLabel(label) {
    return el("span", { class: "row-label" }, Faces ? Faces.linkify(label, true) : label);
  }

  // a Race, Class or Role row: its cards, or a word when there are none
  function statRow(cards, usable, label, none) {
    return el(
      "div",
      { class: "row" },
      rowLabel(label),
      cards && cards.length
        ? el("span", { class: "chips" }, cards.map((c) => tableCard(c, usable)))
        : el("span", { class: "plain" }, none)
    );
  }

  function renderPlayers() {
    const v = view();
    if (!v) return;
    if (typeof Look !== "undefined") Look.renderTrack(v, S.msg, mySeat());
    const usable = usableCards();
    const seats = new Map(((S.msg && S.msg.seats) || []).map((s) => [s.seat, s]));
    const toAct = new Set(v.to_act || []);
    const winners = new Set(v.winners || []);
    fill(
      $("players"),
      (v.players || []).map((p) => {
        const s = seats.get(p.seat) || {};
        const me = p.seat === mySeat();
        const active = p.seat === v.active && !v.over;
        const badges = [
          me ? el("span", { class: "badge you" }, "YOU") : null,
          active ? el("span", { class: "badge turn" }, "▶ their turn") : null,
          toAct.has(p.seat) && !v.over ? el("span", { class: "badge acting" }, "⚑ must act") : null,
          s.stand_in && !v.over ? el("span", { class: "badge stand-in" }, "bot standing in") : null,
          p.dead ? el("span", { class: "badge dead" }, "☠ dead") : null,
          winners.has(p.seat) ? el("span", { class: "badge winner" }, "★ winner") : null,
        ];
        const who =
          s.kind === "bot"
            ? "bot"
            : s.kind === "human"
              ? s.stand_in
                ? s.joined === false
                  ? "person, ○ not joined yet — a bot is playing until they join"
                  : "person, ○ away — a bot is playing for them"
                : s.connected
                  ? "person, ● online"
                  : s.joined === false
                    ? "person, ○ not joined yet"
                    : "person, ○ offline"
              : "";
        const races = p.races && p.races.length ? p.races : null;
        const classes = p.classes && p.classes.length ? p.classes : null;
        return el(
          "article",
          {
            class: `player${me ? " me" : ""}${active ? " active" : ""}${toAct.has(p.seat) ? " acting" : ""}${p.dead ? " dead" : ""}`,
            dataset: { seat: p.seat },
            "aria-label": `${p.name}${me ? " (you)" : ""}`,
          },
          el(
            "header",
            null,
            el("h3", null, typeof Look !== "undefined" ? Look.token(p.seat, v.players) : null, p.name),
            el("span", { class: "badges" }, badges)
          ),
          el(
            "p",
            { class: "stats" },
            el("span", { class: "level" }, `Level ${p.level}`),
            el("span", null, p.sex === "male" ? "♂ male" : p.sex === "female" ? "♀ female" : p.sex || ""),
            p.house ? el("span", { class: "house" }, Faces ? Faces.ref(p.house, p.house, true) : p.house) : null,
            el("span", null, `${plural(p.hand_size, "card")} in hand`),
            who
              ? el(
                  "span",
                  {
                    class: "who" + (s.stand_in ? " stand-in" : ""),
                    title: s.stand_in
                      ? s.joined === false
                        ? `${p.name} has not joined yet: a bot makes their moves until they join`
                        : `${p.name} is away: a bot makes their moves until they come back`
                      : null,
                  },
                  s.stand_in ? el("span", { "aria-hidden": "true" }, "⚙ ") : null,
                  who
                )
              : null
          ),
          v.races_in_game === false && !races
            ? null
            : statRow(races, usable, p.half_breed ? "Races (Half-Breed)" : "Race", "Human"),
          v.classes_in_game === false && !classes
            ? null
            : statRow(classes, usable, p.super_munchkin ? "Classes (Super Munchkin)" : "Class", "none"),
          v.houses_in_game || (p.roles || []).length
            ? statRow(p.roles, usable, p.dual_role ? "Roles (Dual Role)" : "Role", "none")
            : null,
          (p.proficiencies || []).length
            ? el(
                "div",
                { class: "row" },
                el(
                  "span",
                  { class: "row-label" },
                  `Proficiencies (Rank ${p.proficiencies.reduce((t, c) => t + c.rank, 0)} of ${p.level})`
                ),
                el(
                  "span",
                  { class: "chips" },
                  p.proficiencies.map((c) => [tableCard(c, usable, ` (Rank ${c.rank})`), " "])
                )
              )
            : null,
          chips(p.equipped, usable, "Equipped"),
          chips(p.carried, usable, "Carried"),
          (p.sidekicks || []).length
            ? el(
                "div",
                { class: "row" },
                el("span", { class: "row-label" }, (p.sidekicks[0].word || "Sidekick") + (p.sidekicks.length > 1 ? "s" : "")),
                el(
                  "span",
                  { class: "chips" },
                  p.sidekicks.map((k) => [
                    tableCard(k, usable, k.sex === "female" ? " ♀" : k.sex === "male" ? " ♂" : null),
                    k.carrying ? [" carrying ", tableCard(k.carrying, usable)] : null,
                    " ",
                  ])
                )
              )
            : null,
          (p.item_enhancers || []).length
            ? el(
                "div",
                { class: "row" },
                el("span", { class: "row-label" }, "Item Enhancers"),
                el(
                  "span",
                  { class: "chips" },
                  p.item_enhancers.map((e) => [tableCard(e, usable), " on ", tableCard(e.on, usable), " "])
                )
              )
            : null,
          p.cheats && p.cheats.length ? chips(p.cheats, usable, "Cheat! on") : null,
          chips(p.curses, usable, "Curses & Traps")
        );
      })
    );
  }

  // ---------------- piles
  function renderPiles(openDetails) {
    const v = view();
    if (!v) return;
    const usable = usableCards();
    const pile = (key, title, cards) => {
      const top = cards.length ? cards[cards.length - 1] : null;
      const k = "pile-" + key;
      return el(
        "div",
        { class: "pile" },
        el(
          "p",
          null,
          el("span", null, el("strong", null, title), `: ${plural(cards.length, "card")}`, top ? "; on top:" : ""),
          top ? tableCard(top, usable) : null
        ),
        cards.length > 1
          ? el(
              "details",
              { "data-key": k, open: openDetails.has(k) },
              el("summary", null, `All ${cards.length}, newest first`),
              el("ol", { class: "pile-list" }, cards.slice().reverse().map((c) => el("li", null, tableCard(c, usable), " ", el("span", { class: "card-kind" }, kindLabel(c.kind, c.word)))))
            )
          : null
      );
    };
    fill(
      $("piles"),
      el(
        "p",
        { class: "decks" },
        el("span", { class: "deck deck-door" }, el("strong", null, "Door deck"), `: ${plural(v.door_deck, "card")}`),
        el("span", { class: "deck deck-treasure" }, el("strong", null, "Treasure deck"), `: ${plural(v.treasure_deck, "card")}`)
      ),
      pile("door", "Door discards", v.door_discard || []),
      pile("treasure", "Treasure discards", v.treasure_discard || [])
    );
  }

  // ---------------- log
  /** Text with the card names in it made card references (names of cards the seat sees already). */
  function cardText(text) {
    return Faces ? Faces.linkify(text) : String(text);
  }

  // The faces arrive after the first state: draw the log and the cards again with them.
  if (Faces) {
    Faces.load(tableId);
    Faces.whenReady(() => {
      S.logRendered = -1;
      if (view()) render();
    });
  }

  function logLine(text) {
    const t = String(text);
    let cls = "";
    let shown = t;
    const turn = t.match(/^--- (.*) ---$/);
    if (turn) {
      cls = "turn-line";
      shown = turn[1];
    } else if (/ wins? the game!$/.test(t)) cls = "win-line";
    else if (/ dies \(/.test(t) || / catches /.test(t)) cls = "bad-line";
    return el("li", { class: cls || null }, cardText(shown));
  }

  // The log sticks to its newest line unless the reader has scrolled up to read older ones.
  let logStick = true;
  const logBox = $("log");
  logBox.addEventListener("scroll", () => {
    logStick = logBox.scrollHeight - logBox.scrollTop - logBox.clientHeight < 40;
  });
  if (window.ResizeObserver) {
    new ResizeObserver(() => {
      if (logStick) logBox.scrollTop = logBox.scrollHeight;
    }).observe(logBox);
  }

  function renderLog() {
    const box = logBox;
    if (S.logRendered < 0 || S.logRendered > S.log.length) {
      fill(box, S.log.map(logLine));
    } else {
      for (let i = S.logRendered; i < S.log.length; i++) box.appendChild(logLine(S.log[i]));
    }
    S.logRendered = S.log.length;
    if (logStick) box.scrollTop = box.scrollHeight;
  }

  // ------------------------------------------------------------------ pass and play: one device, several people
  /** Is this page a pass-and-play table's shared device (docs/server.md, Pass and play)? */
  const isDevice = () => !!(S.hello && S.hello.device);
  const deviceInfo = () => (S.msg && S.msg.device) || null;

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
    typedSent = "";
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
    renderHeader();
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

  // ------------------------------------------------------------------ typed actions
  let typedSent = "";

  function restoreTyped() {
    const input = $("action-input");
    if (typedSent && !input.value) input.value = typedSent;
    typedSent = "";
  }

  $("entropy-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("entropy-input");
    const text = input.value.trim();
    if (!text) {
      input.focus();
      return;
    }
    send({ type: "entropy", entropy: text });
  });

  $("entropy-new").addEventListener("click", () => {
    $("entropy-input").value = randomEntropy();
  });

  $("action-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("action-input");
    const text = input.value.trim();
    if (!text) {
      input.focus();
      return;
    }
    typedSent = text;
    input.value = "";
    act(text);
  });

  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && S.filter) {
      S.filter = null;
      render();
    }
  });

  // ------------------------------------------------------------------ table talk (chat.js)
  const Talk = typeof Chat === "undefined" ? null : Chat;
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
})();
